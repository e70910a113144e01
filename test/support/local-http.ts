/**
 * A small HTTP server on 127.0.0.1 for the tests of what basemodel requests (--check-links,
 * --fetch): each route answers as the test says, and every request is counted, so that a test
 * can tell how many requests reached it. Closed after the test file.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterFile } from "./cleanup.js";

export type Route = (request: IncomingMessage, response: ServerResponse) => void;

export interface LocalServer {
  /** http://127.0.0.1:<port> */
  url: string;
  /** "HEAD /path" -> how many such requests arrived; a path no route names is answered 404. */
  requests: Map<string, number>;
  /** How many requests of this method and path arrived. */
  count(method: string, path: string): number;
  /** The most requests under way at once. */
  mostAtOnce(): number;
}

/** Starts `server` on a free port of 127.0.0.1, closed after the test file; its address, http://127.0.0.1:<port>. */
export async function listenLocally(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  afterFile(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export async function localServer(routes: Record<string, Route>): Promise<LocalServer> {
  const requests = new Map<string, number>();
  let underWay = 0;
  let most = 0;
  const server = createServer((request, response) => {
    const key = `${request.method} ${request.url}`;
    requests.set(key, (requests.get(key) ?? 0) + 1);
    underWay++;
    most = Math.max(most, underWay);
    response.on("close", () => underWay--);
    const route = routes[request.url ?? ""];
    if (route) route(request, response);
    else response.writeHead(404).end();
  });
  return {
    url: await listenLocally(server),
    requests,
    count: (method, path) => requests.get(`${method} ${path}`) ?? 0,
    mostAtOnce: () => most,
  };
}

/** A port on 127.0.0.1 where nothing listens: a request to it is refused. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
