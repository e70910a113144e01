/**
 * Why an HTTP request made with fetch (Node's undici) did not get an answer, in words: fetch
 * itself only says "fetch failed", and keeps the reason in its cause.
 */
import { nodeModule } from "../../package-files.js";

export type FailureKind = "timeout" | "dns" | "refused" | "tls" | "other";

export interface NetworkFailure {
  kind: FailureKind;
  words: string;
}

/**
 * Node's table of reason phrases (none elsewhere). node:http is loaded when a status needs words,
 * not with the library: it is the largest module Node loads for it, and only --check-links and
 * --fetch ask.
 */
const standardReason = (status: number): string | undefined => nodeModule("node:http")?.STATUS_CODES[status];

/** "404 Not Found": the status and the server's reason phrase, or the standard one when it sent none. */
export function statusWords(status: number, statusText = ""): string {
  const text = statusText !== "" ? statusText : standardReason(status);
  return text === undefined ? String(status) : `${status} ${text}`;
}

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(3))} s`;

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|ERR_OSSL_)/;

/** The failure of a request to `url` that fetch rejected, given the timeout it was sent with. */
export function networkFailure(error: unknown, url: string, timeoutMs: number): NetworkFailure {
  const { host, hostname } = new URL(url);
  if ((error as { name?: unknown } | null)?.name === "TimeoutError") return { kind: "timeout", words: `no answer from ${host} within ${seconds(timeoutMs)}` };
  const cause = (error as { cause?: unknown } | null)?.cause ?? error;
  const code = codeOf(cause);
  const detail = (cause as { message?: unknown } | null)?.message;
  const message = typeof detail === "string" && detail !== "" ? detail : String(cause);
  if (code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "EAI_NODATA") return { kind: "dns", words: `the host ${hostname} was not found (DNS lookup failed)` };
  if (code === "ECONNREFUSED") return { kind: "refused", words: `${host} refused the connection` };
  if (code === "UND_ERR_CONNECT_TIMEOUT") return { kind: "timeout", words: `no connection to ${host} within ${seconds(timeoutMs)}` };
  if (code !== undefined && TLS_CODE.test(code)) return { kind: "tls", words: `the TLS connection to ${host} failed: ${message}` };
  if (code === "ECONNRESET" || code === "UND_ERR_SOCKET") return { kind: "other", words: `${host} closed the connection without answering` };
  return { kind: "other", words: `the request to ${host} failed: ${message}` };
}
