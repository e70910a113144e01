/**
 * `basemodel serve --processes N`: N processes answer HTTP on one port (node:cluster hands each
 * connection to one of them), so requests use N cores. The main process keeps what must have one
 * owner: the export queue, its workers and the clean-up. An HTTP process reaches the queue over
 * IPC and opens the store for itself.
 *
 * A process that crashes is replaced; one that stops cleanly (SIGTERM to it alone) is not, and
 * when none is left the server stops. Ctrl-C reaches every process of the terminal's group: the
 * HTTP processes leave it to the main one, which stops them in order.
 */
import cluster, { type Worker } from "node:cluster";
import { createServer } from "node:net";
import { resolve } from "node:path";
import type { FastifyInstance } from "fastify";
import { lineLog, type Log } from "../server/http/log.js";
import type { ExportSubmitter } from "../server/tasks/export-tasks.js";
import { answerTaskCalls, taskSubmitterOver, type IpcChannel } from "../server/tasks/queue-ipc.js";
import type { ServeFlags } from "./serve-options.js";
import { requestOptions } from "./serve-options.js";
import { UsageError } from "./usage-error.js";

/** Tells a worker where the store is (the main process may have generated it) and when to stop. */
const KIND = "basemodel-serve";
const STORE_VARIABLE = "BASEMODEL_SERVE_STORE";

type Message = { kind: typeof KIND; listening: string } | { kind: typeof KIND; stop: true };

function isServeMessage(message: unknown): message is Message {
  return typeof message === "object" && message !== null && (message as { kind?: unknown }).kind === KIND;
}

export interface Serving {
  /** The address the server answers on. */
  address: string;
  /**
   * Resolves with an exit code when serving has ended on its own: 0 when every HTTP process
   * stopped cleanly, 1 when the last one left could not be replaced.
   */
  ended: Promise<number>;
  close(): Promise<void>;
}

export interface ProcessesOptions {
  count: number;
  port: number;
  host: string;
  /** The store's file, as the workers must open it. */
  location: string;
  queue: ExportSubmitter;
  log: Log;
}

/** Starts `count` HTTP processes and resolves once every one listens; rejects with the exit code of one that could not start. */
export async function startHttpProcesses({ count, port, host, location, queue, log }: ProcessesOptions): Promise<Serving> {
  await checkCanListen(port, host);
  /** Every HTTP process alive, and whether it has said it listens (it hears messages from then on). */
  const live = new Map<Worker, boolean>();
  let stopping = false;
  let endServing: (code: number) => void = () => {};
  const ended = new Promise<number>((resolve) => (endServing = resolve));
  let startedAll = false;

  return new Promise((started, reject) => {
    let address: string | undefined;
    let listening = 0;
    const stopAll = async () => {
      stopping = true;
      await Promise.all([...live].map(([worker, listens]) => stopWorker(worker, listens, log)));
    };

    const fork = () => {
      const worker = cluster.fork({ [STORE_VARIABLE]: location });
      live.set(worker, false);
      answerTaskCalls(queue, worker);
      worker.on("message", (message: unknown) => {
        if (!isServeMessage(message) || !("listening" in message) || live.get(worker)) return;
        live.set(worker, true);
        address ??= message.listening;
        if (++listening === count) {
          startedAll = true;
          started({ address, ended, close: stopAll });
        }
      });
      worker.on("exit", (code, signal) => {
        const listened = live.get(worker);
        live.delete(worker);
        if (stopping) return;
        if (!listened && !startedAll) {
          // It could not start (it said why on standard error): neither will the others.
          void stopAll().then(() => reject(new HttpProcessFailed(code ?? 1)));
        } else if (!listened) {
          // A replacement that cannot start is not tried again: that would never end.
          log.error(`a replacement HTTP process could not start; ${live.size} still serving`);
          if (live.size === 0) endServing(1);
        } else if (code === 0 && signal === null) {
          log.warn(`HTTP process ${worker.process.pid} stopped; ${live.size} still serving`);
          if (live.size === 0) endServing(0);
        } else {
          log.warn(`HTTP process ${worker.process.pid} ended (${signal ?? `exit code ${code}`}); starting another`);
          fork();
        }
      });
    };
    for (let i = 0; i < count; i++) fork();
  });
}

/** Raised in the main process when an HTTP process could not start; carries its exit code. */
export class HttpProcessFailed extends Error {
  constructor(readonly exitCode: number) {
    super(`an HTTP process could not start (exit code ${exitCode})`);
  }
}

/** A process gets this long to finish the requests it is answering once asked to stop. */
const STOP_GRACE_MS = 30_000;

/**
 * Asks a process to stop and waits for its exit. A message that arrives before a process listens
 * for messages is lost, so one still starting is asked once it says it listens.
 */
function stopWorker(worker: Worker, listens: boolean, log: Log): Promise<void> {
  return new Promise((stopped) => {
    if (worker.isDead()) return stopped();
    const overdue = setTimeout(() => {
      log.warn(`HTTP process ${worker.process.pid} did not stop within ${STOP_GRACE_MS / 1000} s; killed`);
      worker.kill("SIGKILL");
    }, STOP_GRACE_MS);
    worker.once("exit", () => {
      clearTimeout(overdue);
      stopped();
    });
    // One that has disconnected is on its way out already: its exit is all there is to wait for.
    const ask = () => worker.isConnected() && worker.send({ kind: KIND, stop: true } satisfies Message, () => {});
    if (listens) ask();
    else worker.on("message", (message: unknown) => isServeMessage(message) && "listening" in message && ask());
  });
}

/** The main process tries the address first, so that a port in use is reported once, not by every process. */
async function checkCanListen(port: number, host: string): Promise<void> {
  const probe = createServer();
  try {
    await new Promise<void>((listening, failed) => probe.once("error", failed).listen(port, host, listening));
  } catch (error) {
    throw new UsageError(`cannot listen on ${host}:${port}: ${(error as Error).message}`);
  }
  await new Promise((closed) => probe.close(closed));
}

/** Listens, or says in one line why not (a port in use, an address not of this machine). */
export async function listen(app: FastifyInstance, { port, host }: Pick<ServeFlags, "port" | "host">): Promise<string> {
  try {
    return await app.listen({ port, host });
  } catch (error) {
    throw new UsageError(`cannot listen on ${host}:${port}: ${(error as Error).message}`);
  }
}

/**
 * The life of one HTTP process: opens the store the main process named, answers requests until
 * the main process asks it to stop or goes away, or SIGTERM arrives, then closes everything.
 */
export async function runHttpProcess(flags: ServeFlags, version: string): Promise<number> {
  const location = process.env[STORE_VARIABLE];
  if (location === undefined || !process.send) throw new Error(`an HTTP process of basemodel serve must be started by basemodel serve --processes`);
  const channel = process as IpcChannel & NodeJS.Process;
  // Heard from the first moment: the main process may ask a replacement to stop while it starts.
  const stopAsked = new Promise<void>((stop) => {
    channel.on("message", (message: unknown) => {
      if (isServeMessage(message) && "stop" in message) stop();
    });
    process.once("disconnect", stop);
    process.once("SIGTERM", stop);
  });
  try {
    const [{ createServer }, { openStore }, { localArtifacts }] = await Promise.all([import("../server/app.js"), import("../server/store/open.js"), import("../server/exports/artifacts.js")]);
    let store;
    try {
      store = await openStore(location);
    } catch (error) {
      throw new UsageError(`an HTTP process cannot open the store: ${(error as Error).message}`);
    }
    try {
      const app = await createServer({
        store,
        version,
        log: lineLog(flags.logLevel, process.stderr),
        ...requestOptions(flags),
        exports: {
          queue: taskSubmitterOver(channel),
          artifacts: localArtifacts(resolve(flags.exports)),
          maxAreaKm2: flags.maxArea,
          ...(flags.publicUrl !== undefined && { publicUrl: flags.publicUrl }),
        },
      });
      try {
        channel.send({ kind: KIND, listening: await listen(app, flags) } satisfies Message, () => {});
        await stopAsked;
      } finally {
        await app.close();
      }
    } finally {
      await store.close();
    }
  } finally {
    // Whatever happened, the channel closes, so the process can end with its exit code. The
    // worker's own disconnect, not process.disconnect(): that one reads as the main process
    // gone, and cluster then exits at once with 0, before an error is reported with its code.
    if (process.connected) cluster.worker?.disconnect();
  }
  return 0;
}
