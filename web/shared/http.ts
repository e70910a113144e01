/**
 * The pages talk to the server over HTTP, as any client of its API does, and read its answers'
 * errors in words: `{"detail": "..."}`, or the 422's `{"detail": [{loc, msg}]}` with each problem
 * and where it is.
 */

/** A call to the server that got no answer it could use; `status` is undefined when none came back. */
export class ServerError extends Error {
  constructor(
    readonly path: string,
    readonly status: number | undefined,
    message: string,
  ) {
    super(message);
  }
}

interface Problem {
  loc?: Array<string | number>;
  msg?: string;
}

/** The words of an error answer's body. */
function detailOf(body: unknown): string | undefined {
  const detail = (body as { detail?: unknown } | null)?.detail;
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) {
    return (detail as Problem[]).map((problem) => [problem.loc?.filter((part) => part !== "body").join("."), problem.msg].filter(Boolean).join(": ")).join("; ");
  }
  return undefined;
}

/** The address of a server path, as the browser and a copied curl command call it. */
export function serverUrl(path: string): string {
  return new URL(path, window.location.origin).href;
}

/** Sends a request and reads its answer as `read` says; throws ServerError when there is no answer or it is not a success. */
export async function call<T>(path: string, init: RequestInit, read: (response: Response) => Promise<T>): Promise<T> {
  let response: Response;
  try {
    response = await fetch(serverUrl(path), init);
  } catch {
    throw new ServerError(path, undefined, "the server cannot be reached");
  }
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => undefined);
    throw new ServerError(path, response.status, detailOf(body) ?? `${response.status} ${response.statusText}`);
  }
  return read(response);
}

const json = <T>(response: Response) => response.json() as Promise<T>;

export function getJson<T>(path: string, signal?: AbortSignal, headers: Record<string, string> = {}): Promise<T> {
  return call(path, { signal: signal ?? null, headers }, json<T>);
}

/** POSTs `body`: an object as JSON, or text as it is, with `headers` (the content type of text among them). */
export function postJson<T>(path: string, body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<T> {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return call(path, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: text, signal: signal ?? null }, json<T>);
}

/** POSTs a JSON body and keeps the answer as a file (CSV, say), for a download. */
export function postForBlob(path: string, body: unknown): Promise<Blob> {
  return call(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }, (response) => response.blob());
}
