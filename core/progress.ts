/**
 * Progress of long work (index build, embedding, evaluation, runs) on stderr:
 * - an interactive stderr (a TTY, not CI) gets a cli-progress bar;
 * - anything else (nohup, CI, a pipe, a log file) gets a plain line every few seconds, e.g.
 *   `[index barexam] 120,000/856,835 passages (14%) 3,200/s eta 3m50s`, and a last line with the
 *   total time when the work took long enough to print one;
 * - --json / --quiet (setProgressEnabled(false)) or LEXCASE_PROGRESS=off print nothing.
 * LEXCASE_PROGRESS=bar|lines|off overrides the choice; LEXCASE_PROGRESS_INTERVAL sets the seconds
 * between plain lines (default 5). Short work (under one interval) prints nothing in either mode
 * but the bar.
 */
import cliProgress from 'cli-progress';

export interface Progress {
  start(total: number, label?: string): void;
  increment(n?: number): void;
  update(value: number): void;
  stop(): void;
}

export interface ProgressOptions {
  /** What is counted, e.g. "passages" (default "items"). */
  unit?: string;
  /** Where to write (default process.stderr, looked up at each write). */
  stream?: { write(s: string): unknown; isTTY?: boolean };
  /** bar | lines | off; default from LEXCASE_PROGRESS, else bar on an interactive stderr, lines otherwise. */
  mode?: 'bar' | 'lines' | 'off';
  /** Milliseconds between plain lines (default LEXCASE_PROGRESS_INTERVAL seconds, else 5 s). */
  intervalMs?: number;
  /** Clock in ms (tests); with a custom clock no background timer is started. */
  now?: () => number;
}

const noop: Progress = { start() {}, increment() {}, update() {}, stop() {} };

let enabled = true;
/** Disable progress output globally (the CLI calls this for --json / --quiet). */
export function setProgressEnabled(on: boolean): void {
  enabled = on;
}

const int = (n: number) => Math.round(n).toLocaleString('en-US');

/** 45s, 3m50s, 1h02m. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

function chooseMode(o: ProgressOptions, tty: boolean): 'bar' | 'lines' | 'off' {
  if (o.mode) return o.mode;
  const env = process.env.LEXCASE_PROGRESS;
  if (env === 'bar' || env === 'lines' || env === 'off') return env;
  return tty && !process.env.CI ? 'bar' : 'lines';
}

export function createProgress(label: string, o: ProgressOptions = {}): Progress {
  if (!enabled) return noop;
  const stream = () => o.stream ?? process.stderr;
  const mode = chooseMode(o, !!stream().isTTY);
  if (mode === 'off') return noop;
  if (mode === 'bar') return barProgress(label, o);
  const envInterval = Number(process.env.LEXCASE_PROGRESS_INTERVAL);
  const intervalMs = o.intervalMs ?? (Number.isFinite(envInterval) && envInterval > 0 ? envInterval * 1000 : 5000);
  return lineProgress(label, { unit: o.unit ?? 'items', write: (s) => stream().write(s), intervalMs, now: o.now });
}

function barProgress(label: string, o: ProgressOptions): Progress {
  const bar = new cliProgress.SingleBar(
    { format: `${label} [{bar}] {percentage}% {value}/{total} eta {eta_formatted}`, stream: (o.stream ?? process.stderr) as NodeJS.WritableStream, hideCursor: true, etaBuffer: 50 },
    cliProgress.Presets.shades_classic,
  );
  return {
    start: (total) => bar.start(total, 0),
    increment: (n = 1) => bar.increment(n),
    update: (v) => bar.update(v),
    stop: () => bar.stop(),
  };
}

/**
 * Plain lines: one when at least `intervalMs` passed since the last (checked on every update and,
 * with the real clock, by an unref'd timer so a slow item still shows a heartbeat). The rate is
 * measured over the window since the previous line; values set right at start (a resumed run's
 * done items) are not counted as work.
 */
function lineProgress(label: string, o: { unit: string; write: (s: string) => void; intervalMs: number; now?: () => number }): Progress {
  const now = o.now ?? (() => performance.now());
  let total = 0;
  let value = 0;
  let t0 = now();
  let lastT = t0;
  let lastV = 0;
  let printed = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  let stopped = false;
  let lastUpdate = t0;
  const heartbeat = () => {
    // a bar whose owner forgot stop() (an exception path) falls silent: done, or no update for 30 min
    if ((total > 0 && value >= total) || now() - lastUpdate > 30 * 60_000) {
      clearInterval(timer);
      timer = undefined;
      return;
    }
    check();
  };

  let base0 = 0; // value at start (after any resumed items): the overall rate counts from here
  const rateText = (r: number) => (r > 0 ? ` ${r >= 10 ? int(r) : r.toFixed(1)}/s` : '');
  const line = (t: number, final: boolean): string => {
    const count = total > 0 ? `${int(value)}/${int(total)} ${o.unit} (${Math.floor((100 * value) / total)}%)` : `${int(value)} ${o.unit}`;
    if (final) return `[${label}] ${count}${rateText((value - base0) / Math.max((t - t0) / 1000, 1e-3))} done in ${formatDuration((t - t0) / 1000)}\n`;
    const windowS = (t - lastT) / 1000;
    const rate = windowS > 0 ? (value - lastV) / windowS : 0;
    const eta = total > 0 && rate > 0 && value < total ? ` eta ${formatDuration((total - value) / rate)}` : '';
    return `[${label}] ${count}${rateText(rate)}${eta}\n`;
  };
  const check = () => {
    if (stopped) return;
    const t = now();
    if (t - lastT < o.intervalMs) return;
    o.write(line(t, false));
    printed = true;
    lastT = t;
    lastV = value;
  };
  const set = (v: number) => {
    value = v;
    lastUpdate = now();
    // a value set within the first moment (resumed items) is a new baseline, not work done
    if (!printed && now() - t0 < Math.min(100, o.intervalMs)) lastV = base0 = value;
    check();
  };
  return {
    start(n: number) {
      total = n;
      value = 0;
      t0 = lastT = lastUpdate = now();
      lastV = base0 = 0;
      stopped = false;
      if (!o.now && !timer) {
        timer = setInterval(heartbeat, Math.max(250, Math.floor(o.intervalMs / 2)));
        timer.unref?.();
      }
    },
    increment: (n = 1) => set(value + n),
    update: (v) => set(v),
    stop() {
      if (stopped) return;
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      if (printed) o.write(line(now(), true));
    },
  };
}
