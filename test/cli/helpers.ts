import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { Issue } from "../../src/index.js";
import type { TaskStatus } from "../../src/server/api/index.js";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Readable } from "node:stream";
import { pathToFileURL } from "node:url";
import { afterFile } from "../support/cleanup.js";
import { hasTool } from "../support/requirements.js";

export const ROOT = resolve(__dirname, "../..");
export const BIN = join(ROOT, "bin/basemodel.js");
/** A valid item with one warning, shaped as fAIr publishes its items (see fixtures/warning/README.md). */
export const ITEM_WITH_WARNING = join(ROOT, "fixtures/warning/hyperparameters-spec.json");

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Standard input: all at once, or a stream piped in until it ends or the CLI stops reading. */
  input?: string | Buffer | Readable;
  /** Run so that file permissions apply even when the tests run as root (see canRunUnprivileged). */
  unprivileged?: boolean;
  /** Start the CLI with at most this many open file descriptors (`ulimit -n`). */
  maxOpenFiles?: number;
  /** Another copy of bin/basemodel.js to run (an installed package's). */
  bin?: string;
}

const AS_ROOT = process.getuid?.() === 0;

/**
 * Root's child without root's capabilities (util-linux's setpriv): file permissions then apply to
 * it as to the owner of the files the test made, and the checkout stays reachable wherever it is.
 * (Another user, such as nobody, cannot enter a clone under /root or in a folder of mktemp -d.)
 */
const WITHOUT_CAPABILITIES = ["--bounding-set=-all", "--inh-caps=-all", "--"];

/** Whether a run with `unprivileged` can be made here: as root it needs setpriv; else a one-line skip (a failure under BASEMODEL_TEST_ALL=1). */
export function canRunUnprivileged(): boolean {
  return !AS_ROOT || hasTool(["setpriv"], "util-linux");
}

/** Runs the real CLI in a child process, as a user would. */
export function basemodel(args: string[], options: RunOptions = {}): Promise<Run> {
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, ...options.env };
  const bin = options.bin ?? BIN;
  return new Promise((done, fail) => {
    const [cli, cliArgs] =
      options.maxOpenFiles === undefined
        ? [process.execPath, [bin, ...args]]
        : ["/bin/sh", ["-c", `ulimit -n ${options.maxOpenFiles} && exec "$0" "$@"`, process.execPath, bin, ...args]];
    const [command, argv] = options.unprivileged && AS_ROOT ? ["setpriv", [...WITHOUT_CAPABILITIES, cli, ...cliArgs]] : [cli, cliArgs];
    const child = spawn(command, argv, { cwd: options.cwd ?? ROOT, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr }));
    const input = options.input ?? "";
    if (typeof input === "string" || Buffer.isBuffer(input)) child.stdin.end(input);
    else {
      // The CLI may close its end before the stream is done: that is not the test's failure.
      child.stdin.on("error", () => {});
      child.on("close", () => input.destroy());
      input.pipe(child.stdin);
    }
  });
}

/** A fresh folder that every user can enter, removed after the file's tests. */
export function scratchDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "basemodel-cli-"));
  chmodSync(dir, 0o755);
  afterFile(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

let hook: string | undefined;

/**
 * Options for a run in which `packages` cannot be found, as if they were not installed: a
 * resolve hook (registered through NODE_OPTIONS) sends their imports where nothing is.
 */
export function withoutPackages(packages: string[]): Pick<RunOptions, "env"> {
  if (hook === undefined) {
    const dir = scratchDir();
    writeFileSync(
      join(dir, "hide.mjs"),
      `let hidden = new Set();
export function initialize(names) { hidden = new Set(names); }
export function resolve(specifier, context, next) {
  return next(specifier, hidden.has(specifier) ? { ...context, parentURL: "file:///nonexistent/index.js" } : context);
}`,
    );
    writeFileSync(
      join(dir, "register.mjs"),
      `import { register } from "node:module";
register("./hide.mjs", import.meta.url, { data: process.env.HIDE_PACKAGES.split(",") });`,
    );
    hook = pathToFileURL(join(dir, "register.mjs")).href;
  }
  return { env: { NODE_OPTIONS: `--import ${hook}`, HIDE_PACKAGES: packages.join(",") } };
}

/** Writes a file below `dir`, making its folders; returns `name`, the path to give the CLI run in `dir`. */
/**
 * The files of a CLI bundle (dist/cli-bundle/) that `entry` loads before it runs: itself and every
 * file its static imports reach, read from the import statements esbuild writes.
 */
export function bundleFilesLoaded(bundle: string, entry = "main.js"): Set<string> {
  const loaded = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (loaded.has(file)) continue;
    loaded.add(file);
    for (const [, imported] of readFileSync(join(bundle, file), "utf8").matchAll(/^(?:import|} from) [^;]*?"\.\/([^"]+)";$/gm)) pending.push(imported!);
  }
  return loaded;
}

export function writeIn(dir: string, name: string, content: string): string {
  const path = join(dir, name);
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, content);
  return name;
}

/** The issues, errors then warnings, of every item of the one file a `--format json` report holds. */
export function jsonIssues(stdout: string): Issue[] {
  const report = JSON.parse(stdout) as { files: Array<{ items: Array<{ errors: Issue[]; warnings: Issue[] }> }> };
  return report.files[0]!.items.flatMap((entry) => [...entry.errors, ...entry.warnings]);
}

export function itemWithWarningText(): string {
  return readFileSync(ITEM_WITH_WARNING, "utf8");
}

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  /** Everything printed so far. */
  output(): { stdout: string; stderr: string };
  /** Resolves with the exit code (or the signal's name). */
  exited: Promise<number | string | null>;
}

/**
 * Starts `basemodel serve` (add --port 0) as a real process and resolves once it listens. It runs
 * in a fresh folder, so that a default --exports (./exports) never meets a server the user runs
 * from the repository.
 */
export async function startServe(args: string[]): Promise<ServeProcess> {
  const started = await startCommand("serve", args, /(http:\/\/127\.0\.0\.1:\d+)/);
  return { ...started, url: started.ready[1]! };
}

/** Starts `basemodel worker` as a real process and resolves once it takes tasks. */
export async function startWorker(args: string[]): Promise<Omit<ServeProcess, "url">> {
  return startCommand("worker", args, /^basemodel worker: /m);
}

/** Starts a command that runs until stopped, in a fresh folder; resolves once its standard output matches `ready`. */
function startCommand(command: string, args: string[], ready: RegExp): Promise<Omit<ServeProcess, "url"> & { ready: RegExpExecArray }> {
  const child = spawn(process.execPath, [BIN, command, ...args], { cwd: scratchDir(), stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise<number | string | null>((resolve) => child.on("exit", (code, signal) => resolve(code ?? signal)));
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (chunk) => {
      stdout += chunk;
      const match = ready.exec(stdout);
      if (match) resolve({ child, ready: match, output: () => ({ stdout, stderr }), exited });
    });
    void exited.then((code) => reject(new Error(`basemodel ${command} exited with ${code}: ${stderr}`)));
  });
}

/** All of Monaco: its KML export runs long enough to be caught running. */
export const MONACO_AREA = { type: "Polygon", coordinates: [[[7.40, 43.72], [7.44, 43.72], [7.44, 43.76], [7.40, 43.76], [7.40, 43.72]]] };

/** A task's status as a server answers it (/latest/tasks/status/<id>/). */
export async function exportStatus(server: ServeProcess, id: string): Promise<TaskStatus> {
  return (await (await fetch(`${server.url}/latest/tasks/status/${id}/`)).json()) as TaskStatus;
}

/** Polls a task's status until `done` accepts it; fails after `timeoutMs` with the last one. */
export async function untilExport(server: ServeProcess, id: string, done: (body: TaskStatus) => boolean, timeoutMs = 300_000): Promise<TaskStatus> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const body = await exportStatus(server, id);
    if (done(body)) return body;
    if (Date.now() > deadline) throw new Error(`task ${id} still ${JSON.stringify(body)} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Waits for a line of a process's standard error. */
export async function untilLine(process: { output(): { stderr: string } }, pattern: RegExp, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(process.output().stderr)) {
    if (Date.now() > deadline) throw new Error(`no line ${pattern} in ${process.output().stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Requests an export (/latest/snapshot/); returns its task id. */
export async function postExport(server: ServeProcess, body: unknown): Promise<string> {
  const answer = await fetch(`${server.url}/latest/snapshot/`, { method: "POST", body: JSON.stringify(body) });
  if (answer.status !== 200) throw new Error(`export refused: ${answer.status} ${await answer.text()}`);
  return ((await answer.json()) as { taskId: string }).taskId;
}
