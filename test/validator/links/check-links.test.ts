/**
 * checkLinks and LinkChecker (library) against a real HTTP server on 127.0.0.1: what each kind of
 * answer or failure reads as, the HEAD-then-ranged-GET fallback, redirects, the timeout, one
 * request per distinct URL, and the bound on requests under way.
 */
import { describe, expect, it } from "vitest";
import { checkLinks, LinkChecker } from "../../../src/index.js";
import { closedPort, localServer, type Route } from "../../support/local-http.js";

const answer =
  (status: number, headers: Record<string, string> = {}): Route =>
  (_request, response) =>
    response.writeHead(status, headers).end();

/** HEAD is refused (405); a GET of the first byte gets it (206). */
const headRefused: Route = (request, response) => {
  if (request.method === "HEAD") response.writeHead(405, { allow: "GET" }).end();
  else if (request.headers.range === "bytes=0-0") response.writeHead(206, { "content-range": "bytes 0-0/1000" }).end("x");
  else response.writeHead(400).end();
};

/** Answers after a moment, for seeing how many requests are under way at once. */
const slow: Route = (_request, response) => void setTimeout(() => response.writeHead(200).end(), 30);

const server = await localServer({
  "/ok": answer(200),
  "/gone": answer(404),
  "/shared/ok": answer(200),
  "/shared/gone": answer(410),
  "/head-refused": headRefused,
  "/hop/1": answer(302, { location: "/hop/2" }),
  "/hop/2": answer(301, { location: "/hop/3" }),
  "/hop/3": answer(307, { location: "/ok" }),
  "/moved-away": answer(308, { location: "/gone" }),
  "/loop": answer(302, { location: "/loop" }),
  "/silent": () => {},
  "/error": answer(500),
  ...Object.fromEntries([1, 2, 3, 4, 5, 6].map((n) => [`/slow/${n}`, slow])),
});

const itemWith = (hrefs: Record<string, string>) => ({ type: "Feature", assets: Object.fromEntries(Object.entries(hrefs).map(([key, href]) => [key, { href }])) });

describe("checkLinks", () => {
  it("reports each asset href that cannot be reached, at its path, with the status or the network failure in words", async () => {
    const refused = await closedPort();
    const issues = await checkLinks(
      itemWith({
        ok: `${server.url}/ok`,
        gone: `${server.url}/gone`,
        broken: `${server.url}/error`,
        "head-refused": `${server.url}/head-refused`,
        hops: `${server.url}/hop/1`,
        "moved-away": `${server.url}/moved-away`,
        loop: `${server.url}/loop`,
        refused: `http://127.0.0.1:${refused}/model.pt`,
        relative: "./model.pt",
        s3: "s3://bucket/model.pt",
      }),
    );
    expect(issues.map(({ rule, severity, path, message, actual }) => ({ rule, severity, path, message, actual }))).toEqual([
      { rule: "link-unreachable", severity: "error", path: "/assets/gone/href", message: "assets.gone.href cannot be reached: the server answered 404 Not Found", actual: `${server.url}/gone` },
      { rule: "link-unreachable", severity: "error", path: "/assets/broken/href", message: "assets.broken.href cannot be reached: the server answered 500 Internal Server Error", actual: `${server.url}/error` },
      {
        rule: "link-unreachable",
        severity: "error",
        path: "/assets/moved-away/href",
        message: `assets.moved-away.href cannot be reached: it redirects to ${server.url}/gone, which answered 404 Not Found`,
        actual: `${server.url}/moved-away`,
      },
      { rule: "link-unreachable", severity: "error", path: "/assets/loop/href", message: "assets.loop.href cannot be reached: it redirects more than 10 times", actual: `${server.url}/loop` },
      {
        rule: "link-unreachable",
        severity: "error",
        path: "/assets/refused/href",
        message: `assets.refused.href cannot be reached: 127.0.0.1:${refused} refused the connection`,
        actual: `http://127.0.0.1:${refused}/model.pt`,
      },
    ]);
    // HEAD refused: one ranged GET. A redirect chain: each hop asked once, with HEAD.
    expect([server.count("HEAD", "/head-refused"), server.count("GET", "/head-refused")]).toEqual([1, 1]);
    expect(["/hop/1", "/hop/2", "/hop/3", "/ok"].map((path) => server.count("HEAD", path))).toEqual([1, 1, 1, 2]);
    expect(server.count("GET", "/hop/1")).toBe(0);
  });

  it("gives up on a server that never answers after the timeout, and says so", async () => {
    const issues = await checkLinks(itemWith({ checkpoint: `${server.url}/silent` }), { timeoutMs: 200 });
    expect(issues.map((issue) => issue.message)).toEqual([`assets.checkpoint.href cannot be reached: no answer from ${server.url.slice("http://".length)} within 0.2 s`]);
    // A timeout is not a refused HEAD: no GET follows, which would wait as long again.
    expect(server.count("GET", "/silent")).toBe(0);
  });

  it("asks each distinct URL once, however many items and assets name it", async () => {
    const checker = new LinkChecker();
    const shared = { checkpoint: `${server.url}/shared/ok`, model: `${server.url}/shared/gone` };
    const results = await Promise.all([
      checker.check(itemWith(shared)),
      checker.check(itemWith({ ...shared, copy: `${server.url}/shared/ok` })),
      checker.check(itemWith({ weights: `${server.url}/shared/gone` })),
    ]);
    expect(results.map((issues) => issues.map((issue) => issue.path))).toEqual([["/assets/model/href"], ["/assets/model/href"], ["/assets/weights/href"]]);
    expect([server.count("HEAD", "/shared/ok"), server.count("HEAD", "/shared/gone")]).toEqual([1, 1]);
  });

  it("has at most `concurrency` requests under way", async () => {
    const hrefs = Object.fromEntries([1, 2, 3, 4, 5, 6].map((n) => [`a${n}`, `${server.url}/slow/${n}`]));
    expect(await checkLinks(itemWith(hrefs), { concurrency: 2 })).toEqual([]);
    expect(server.mostAtOnce()).toBe(2);
  });

  it("checks its options: an unknown one or a bad value is a TypeError saying what is allowed", async () => {
    await expect(checkLinks({}, { timeout: 5 } as object)).rejects.toThrow(new TypeError('unknown member "timeout" in the link check options; the known members are timeoutMs and concurrency (did you mean "timeoutMs"?)'));
    await expect(checkLinks({}, { timeoutMs: 0 })).rejects.toThrow(new TypeError("timeoutMs must be a number of milliseconds above 0; found a number (0)"));
    await expect(checkLinks({}, { concurrency: 1.5 })).rejects.toThrow(new TypeError("concurrency must be an integer of at least 1; found a number (1.5)"));
    expect(() => new LinkChecker({ concurrency: 0 })).toThrow(TypeError);
  });

  it("has nothing to say about a value that is not an item, or an item without assets", async () => {
    expect(await checkLinks(null)).toEqual([]);
    expect(await checkLinks({ assets: [] })).toEqual([]);
    expect(await checkLinks({ assets: { a: { href: 42 }, b: null } })).toEqual([]);
  });
});
