/** HTTP as bytes on a socket, for requests no HTTP client would send. */
import { connect, type Socket } from "node:net";

export interface RawAnswer {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

/** The server's address as node:net needs it. */
export function portOf(url: string): number {
  return Number(new URL(url).port);
}

/** Opens a connection to 127.0.0.1:`port`, resolved once it is open. */
export function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => resolve(socket));
    socket.once("error", reject);
  });
}

/** Resolves with everything the server sent once it closes the connection. */
export function receivedUntilClose(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let received = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => (received += chunk));
    // A reset after the answer (the server closed with bytes of ours unread) ends it as well.
    socket.on("error", () => undefined);
    socket.on("close", () => resolve(received));
  });
}

export function parseAnswer(text: string): RawAnswer {
  const end = text.indexOf("\r\n\r\n");
  if (end === -1) throw new Error(`not an HTTP answer: ${JSON.stringify(text.slice(0, 200))}`);
  const [statusLine, ...lines] = text.slice(0, end).split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine!.split(" ")[1]), headers, body: text.slice(end + 4) };
}

/** Sends `request` byte for byte on a new connection and reads the answer; the request should say `Connection: close`. */
export async function rawRequest(port: number, request: string): Promise<RawAnswer> {
  const socket = await openSocket(port);
  const received = receivedUntilClose(socket);
  // Not end(): a half-closed connection is one the server may close before it answers.
  socket.write(request, "latin1");
  return parseAnswer(await received);
}
