/**
 * The server's log: one readable line per event, `<ISO time> <LEVEL> <message>`, written to one
 * stream. No JSON, no buffering: a line is written when it happens, and a line of a level that
 * is off costs one comparison.
 */
export const LOG_LEVELS = ["silent", "error", "warn", "info", "debug"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Log {
  /** Whether lines of this level are written: callers skip building the ones that are not. */
  enabled(level: Exclude<LogLevel, "silent">): boolean;
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
  debug(message: string): void;
}

/** Writes the lines of `level` and the levels above it to `stream`. */
export function lineLog(level: LogLevel, stream: { write(text: string): unknown }): Log {
  const threshold = LOG_LEVELS.indexOf(level);
  const writer = (at: Exclude<LogLevel, "silent">) => {
    if (LOG_LEVELS.indexOf(at) > threshold) return () => {};
    const label = at.toUpperCase().padEnd(5);
    return (message: string) => stream.write(`${new Date().toISOString()} ${label} ${message}\n`);
  };
  return {
    enabled: (at) => LOG_LEVELS.indexOf(at) <= threshold,
    error: writer("error"),
    warn: writer("warn"),
    info: writer("info"),
    debug: writer("debug"),
  };
}

/** Writes nothing: the server embedded in a program that does its own logging. */
export const silentLog: Log = lineLog("silent", { write: () => undefined });
