/**
 * Whether one URL can be reached: a HEAD request, as fAIr's catalogue CI sends, and when a
 * server refuses HEAD (405, 501) or drops it, a GET of the first byte only (Range: bytes=0-0),
 * whose body is never read. Redirects are followed, at most MAX_REDIRECTS of them.
 */
import { networkFailure, statusWords, type NetworkFailure } from "../net/failure.js";

export const MAX_REDIRECTS = 10;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** HEAD is not allowed, or not implemented: the resource may well be there. */
const HEAD_REFUSED = new Set([405, 501]);

/** Reached (any status below 400), or why not, in words that follow "cannot be reached: ". */
export type ProbeResult = { reachable: true } | { reachable: false; reason: string };

type Outcome =
  | { kind: "answer"; status: number; statusText: string; url: string; redirects: number }
  | { kind: "failure"; failure: NetworkFailure; url: string; redirects: number }
  | { kind: "loop"; url: string };

/** One request and the redirects it leads to. */
async function send(url: string, method: "HEAD" | "GET", timeoutMs: number): Promise<Outcome> {
  let current = url;
  for (let redirects = 0; ; redirects++) {
    let response: Response;
    try {
      response = await fetch(current, {
        method,
        redirect: "manual",
        headers: method === "GET" ? { range: "bytes=0-0" } : {},
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      return { kind: "failure", failure: networkFailure(error, current, timeoutMs), url: current, redirects };
    }
    // A server that ignores Range would send the whole file: only the status is wanted.
    await response.body?.cancel().catch(() => {});
    const location = response.headers.get("location");
    if (!REDIRECT_STATUSES.has(response.status) || location === null) {
      return { kind: "answer", status: response.status, statusText: response.statusText, url: current, redirects };
    }
    if (redirects === MAX_REDIRECTS) return { kind: "loop", url };
    current = new URL(location, current).href;
  }
}

/** "the server answered 404 Not Found", "it redirects to <url>, which answered 404 Not Found", or the network failure. */
function reasonOf(outcome: Outcome): string {
  if (outcome.kind === "loop") return `it redirects more than ${MAX_REDIRECTS} times`;
  const said = outcome.kind === "answer" ? `answered ${statusWords(outcome.status, outcome.statusText)}` : outcome.failure.words;
  if (outcome.redirects === 0) return outcome.kind === "answer" ? `the server ${said}` : said;
  const times = outcome.redirects === 1 ? "" : ` (${outcome.redirects} times)`;
  return `it redirects${times} to ${outcome.url}${outcome.kind === "answer" ? `, which ${said}` : `: ${said}`}`;
}

/** Whether `url` answers with a status below 400 within `timeoutMs` (per request). */
export async function probe(url: string, timeoutMs: number): Promise<ProbeResult> {
  let outcome = await send(url, "HEAD", timeoutMs);
  // A request that timed out, or whose host is unknown or refuses connections, would fail again as a GET.
  const retry = outcome.kind === "answer" ? HEAD_REFUSED.has(outcome.status) : outcome.kind === "failure" && outcome.failure.kind === "other";
  if (retry) outcome = await send(url, "GET", timeoutMs);
  return outcome.kind === "answer" && outcome.status < 400 ? { reachable: true } : { reachable: false, reason: reasonOf(outcome) };
}
