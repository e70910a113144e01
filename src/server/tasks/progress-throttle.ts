/**
 * Handlers may report progress on every item they process, and every queue stores it
 * somewhere that costs a write: this keeps the latest value and writes it at most every
 * PROGRESS_INTERVAL_MS, the last one of a burst on a timer so that it is not lost.
 */
const PROGRESS_INTERVAL_MS = 200;

export interface ProgressReporter {
  /** A percentage, clamped to 0-100 and rounded; NaN is ignored. */
  report(percent: number): void;
  /** No write after this, not even a pending one. */
  stop(): void;
}

export function throttledProgress(write: (percent: number) => void): ProgressReporter {
  let stopped = false;
  let written = 0;
  let latest = 0;
  let writtenAt = -Infinity;
  let timer: NodeJS.Timeout | undefined;
  const flush = (): void => {
    timer = undefined;
    if (stopped || latest === written) return;
    write(latest);
    written = latest;
    writtenAt = performance.now();
  };
  return {
    report: (percent) => {
      if (stopped || Number.isNaN(percent)) return;
      latest = Math.round(Math.min(100, Math.max(0, percent)));
      if (timer !== undefined || latest === written) return;
      const wait = writtenAt + PROGRESS_INTERVAL_MS - performance.now();
      if (wait <= 0) flush();
      else timer = setTimeout(flush, wait);
    },
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
