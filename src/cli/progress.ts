/** A one-line progress bar on a terminal; nothing at all otherwise, so logs and pipes stay clean. */

export interface ProgressBar {
  update(done: number, total: number): void;
  /** Removes the bar, so that what is printed next starts on a clean line. */
  clear(): void;
}

const WIDTH = 30;
/** Redrawing more often than this only costs time: a terminal cannot show it. */
const INTERVAL_MS = 100;

/** `done`/`total` are input bytes over the importer's two passes over the file. */
export function progressBar(stream: { write(text: string): unknown; isTTY?: boolean }, label: string): ProgressBar {
  if (!stream.isTTY) return { update: () => {}, clear: () => {} };
  let drawnAt = -Infinity;
  let drawn = false;
  return {
    update(done, total) {
      const now = performance.now();
      if (now - drawnAt < INTERVAL_MS) return;
      drawnAt = now;
      drawn = true;
      const fraction = total > 0 ? Math.min(done / total, 1) : 1;
      const filled = Math.round(fraction * WIDTH);
      const pass = done < total / 2 ? "pass 1/2: finding the nodes and ways in use" : "pass 2/2: building features";
      stream.write(`\r\x1b[K${label} [${"#".repeat(filled)}${"-".repeat(WIDTH - filled)}] ${Math.floor(fraction * 100)}%  ${pass}`);
    },
    clear() {
      if (drawn) stream.write("\r\x1b[K");
    },
  };
}
