/**
 * Progress bars for long work (cli-progress), shown only on an interactive stderr and never with
 * --json or when quiet; otherwise a no-op so library callers and CI logs stay clean.
 */
import cliProgress from 'cli-progress';

export interface Progress {
  start(total: number, label?: string): void;
  increment(n?: number): void;
  update(value: number): void;
  stop(): void;
}

const noop: Progress = { start() {}, increment() {}, update() {}, stop() {} };

let enabled = true;
/** Disable bars globally (the CLI calls this for --json / --quiet). */
export function setProgressEnabled(on: boolean): void {
  enabled = on;
}

export function createProgress(label: string): Progress {
  if (!enabled || !process.stderr.isTTY || process.env.CI) return noop;
  const bar = new cliProgress.SingleBar(
    { format: `${label} [{bar}] {percentage}% {value}/{total} eta {eta_formatted}`, stream: process.stderr, hideCursor: true, etaBuffer: 50 },
    cliProgress.Presets.shades_classic,
  );
  return {
    start: (total) => bar.start(total, 0),
    increment: (n = 1) => bar.increment(n),
    update: (v) => bar.update(v),
    stop: () => bar.stop(),
  };
}
