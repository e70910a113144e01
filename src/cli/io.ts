/** What every command is given to talk to the world, and how it ends: the exit codes. */

export interface Io {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdout: { write(text: string): unknown; isTTY?: boolean };
  stderr: { write(text: string): unknown; isTTY?: boolean };
  stdin: AsyncIterable<Buffer | string>;
}

export const EXIT_VALID = 0;
export const EXIT_INVALID = 1;
export const EXIT_USAGE = 2;

/** Progress on standard error ("validating 20/800 files") for runs of at least `minimum` on a terminal; silent otherwise. */
export function progress(io: Io, total: number, doing = "validating", things = "files", minimum = 500): (done: number) => void {
  if (!io.stderr.isTTY || total < minimum) return () => {};
  let shown = 0;
  return (done) => {
    const now = Date.now();
    if (done === total) io.stderr.write("\r\x1b[K");
    else if (now - shown > 100) {
      shown = now;
      io.stderr.write(`\r${doing} ${done}/${total} ${things}`);
    }
  };
}
