/**
 * Progress of long work (index build, embedding, evaluation, runs) on stderr:
 * - an interactive stderr (a TTY, not CI) gets a cli-progress bar;
 * - anything else (nohup, CI, a pipe, a log file) gets a plain line every few seconds, e.g.
 *   `[index barexam] 120,000/856,835 passages (14%) 3,200/s eta 3m50s`, and a last line with the
 *   total time when the work took long enough to print one; a run's count says how many of its
 *   items failed (`[mad] 120/300 items (40%), 31 failed 2.1/s eta 1m27s`), the bar likewise;
 * - --json / --quiet (setProgressEnabled(false)) or LEXCASE_PROGRESS=off print nothing.
 * LEXCASE_PROGRESS=bar|lines|off overrides the choice; LEXCASE_PROGRESS_INTERVAL sets the seconds
 * between plain lines (default 5). Short work (under one interval) prints nothing in either mode
 * but the bar.
 */
import { createRequire } from 'node:module';
import type * as CliProgress from 'cli-progress';
import { envChoice, envNumber } from './env-number.js';

/** LEXCASE_PROGRESS (bar, lines or off, any case), if set; CONFIG_INVALID naming it and its value otherwise. */
export const progressModeFromEnv = (env: NodeJS.ProcessEnv = process.env) => envChoice('LEXCASE_PROGRESS', ['bar', 'lines', 'off'] as const, env);

/** LEXCASE_PROGRESS_INTERVAL (seconds between plain lines, > 0), if set; CONFIG_INVALID naming it and its value otherwise. */
export const progressIntervalFromEnv = (env: NodeJS.ProcessEnv = process.env) =>
  envNumber('LEXCASE_PROGRESS_INTERVAL', { min: 0, aboveMin: true, unit: 'seconds' }, env);

/** cli-progress (CommonJS), loaded on the first bar only: the plain-line and off modes never pay for it. */
const loadCliProgress = (): typeof CliProgress => createRequire(import.meta.url)('cli-progress') as typeof CliProgress;

export interface Progress {
  start(total: number, label?: string): void;
  increment(n?: number): void;
  update(value: number): void;
  /** Of the items counted, `n` more failed: the count then says "N failed" (a run's items; call it before the increment that counts them). */
  fail(n?: number): void;
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
  /** Clock in ms (tests); with a custom clock no background timer is started unless `schedule` is given. */
  now?: () => number;
  /** Runs `fn` every `ms` until the returned cancel is called (tests drive the heartbeat with it; default setInterval, unref'd). */
  schedule?: (fn: () => void, ms: number) => () => void;
}

const noop: Progress = { start() {}, increment() {}, update() {}, fail() {}, stop() {} };

let enabled = true;
/** Disable progress output globally (the CLI calls this for --json / --quiet). */
export function setProgressEnabled(on: boolean): void {
  enabled = on;
}
/** Whether progress output is on (src/cli/action.ts puts it back after a --json / --quiet command). */
export function isProgressEnabled(): boolean {
  return enabled;
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
  const env = progressModeFromEnv();
  if (env) return env;
  return tty && !process.env.CI ? 'bar' : 'lines';
}

export function createProgress(label: string, o: ProgressOptions = {}): Progress {
  if (!enabled) return noop;
  const stream = () => o.stream ?? process.stderr;
  const mode = chooseMode(o, !!stream().isTTY);
  if (mode === 'off') return noop;
  if (mode === 'bar') return barProgress(label, o);
  const intervalMs = o.intervalMs ?? (progressIntervalFromEnv() ?? 5) * 1000;
  return lineProgress(label, { unit: o.unit ?? 'items', write: (s) => stream().write(s), intervalMs, now: o.now, schedule: o.schedule });
}

/**
 * The cli-progress bar. Its eta is the rest at the rate over its last 50 updates, counted from the
 * value it was started at; a value set right at start (a resumed run's done items) restarts it at
 * that value, as the plain lines take it for a baseline, not work done. Before, a run resumed at
 * 40 of 100 items at 2.3 items/s read "eta 1s" at 41/100 (the 40 counted as done in the first
 * millisecond) and was still short by half after 28 items.
 */
function barProgress(label: string, o: ProgressOptions): Progress {
  const cliProgress = loadCliProgress();
  const now = o.now ?? (() => performance.now());
  const bar = new cliProgress.SingleBar(
    {
      format: `${label} [{bar}] {percentage}% {value}/{total}{failed} eta {eta_formatted}`,
      stream: (o.stream ?? process.stderr) as NodeJS.WritableStream,
      hideCursor: true,
      etaBuffer: 50,
    },
    cliProgress.Presets.shades_classic,
  );
  let total = 0;
  let t0 = 0;
  let moved = false; // a value set since start that is work, not the start's baseline
  let failed = 0;
  const failedText = () => ({ failed: failed ? `, ${int(failed)} failed` : '' });
  return {
    start: (n) => {
      total = n;
      t0 = now();
      moved = false;
      failed = 0;
      bar.start(n, 0, failedText());
    },
    fail: (n = 1) => {
      failed += n;
      bar.update(failedText());
    },
    increment: (n = 1) => {
      moved = true;
      bar.increment(n);
    },
    update: (v) => {
      if (!moved && now() - t0 < 100) return bar.start(total, v, failedText());
      moved = true;
      bar.update(v);
    },
    stop: () => bar.stop(),
  };
}

/**
 * Plain lines: one when at least `intervalMs` passed since the last (checked on every update and,
 * with the real clock, by an unref'd timer so a slow item still shows a heartbeat).
 * - The rate is measured between updates, not between lines: from the oldest update of the last
 *   minute to the latest one. Work that reports in bursts (embedding batches of 256 every 17 s)
 *   then reads its true 15/s, not the one burst divided by the 5 s since the last line.
 *   Values set right at start (a resumed run's done items) are not counted as work.
 * - The eta is the rest at that rate, less the time since the latest update.
 * - A line identical to the previous one is not printed: while nothing moves, at most one line a
 *   minute, saying for how long nothing has changed. At 100% only the last line ("done in") prints.
 */
function lineProgress(
  label: string,
  o: { unit: string; write: (s: string) => void; intervalMs: number; now?: () => number; schedule?: (fn: () => void, ms: number) => () => void },
): Progress {
  const now = o.now ?? (() => performance.now());
  const schedule =
    o.schedule ??
    (o.now
      ? undefined
      : (fn: () => void, ms: number) => {
          const t = setInterval(fn, ms);
          t.unref?.();
          return () => clearInterval(t);
        });
  const WINDOW_MS = 60_000;
  const STALL_LINE_MS = 60_000;
  let total = 0;
  let value = 0;
  let failed = 0; // of the items counted, those that failed (fail())
  let t0 = now();
  let lastT = t0; // last line printed
  let lastLineV = -1; // value shown by the last line
  let printed = false;
  let cancel: (() => void) | undefined;
  let stopped = false;
  let lastUpdate = t0;
  let lastChange = t0;
  let samples: { t: number; v: number }[] = []; // (time, value) at each change of value
  const heartbeat = () => {
    // a bar whose owner forgot stop() (an exception path) falls silent: done, or no update for 30 min
    if ((total > 0 && value >= total) || now() - lastUpdate > 30 * 60_000) {
      cancel?.();
      cancel = undefined;
      return;
    }
    check();
  };

  let base0 = 0; // value at start (after any resumed items): the overall rate counts from here
  const rateText = (r: number) => (r > 0 ? ` ${r >= 10 ? int(r) : r.toFixed(1)}/s` : '');
  /** Items a second between updates (see above); 0 before the first. */
  const rate = (): number => {
    const last = samples[samples.length - 1];
    if (!last) return 0;
    if (samples.length === 1) return last.t > t0 ? ((last.v - base0) * 1000) / (last.t - t0) : 0;
    const ref = samples.find((x) => x.t >= last.t - WINDOW_MS && x !== last) ?? samples[samples.length - 2];
    return ((last.v - ref.v) * 1000) / (last.t - ref.t);
  };
  const count = () =>
    (total > 0 ? `${int(value)}/${int(total)} ${o.unit} (${Math.floor((100 * value) / total)}%)` : `${int(value)} ${o.unit}`) +
    (failed ? `, ${int(failed)} failed` : '');
  const check = () => {
    if (stopped) return;
    const t = now();
    if (t - lastT < o.intervalMs) return;
    if (total > 0 && value >= total) return; // the last line says it
    let text: string;
    if (value === lastLineV) {
      if (t - lastT < STALL_LINE_MS) return;
      text = `[${label}] ${count()}, no change for ${formatDuration((t - lastChange) / 1000)}\n`;
    } else {
      const r = rate();
      let eta = '';
      if (total > 0 && r > 0) {
        const rest = (total - value) / r;
        const left = rest - (t - lastUpdate) / 1000;
        eta = ` eta ${formatDuration(left >= 1 ? left : rest)}`;
      }
      text = `[${label}] ${count()}${rateText(r)}${eta}\n`;
    }
    o.write(text);
    printed = true;
    lastT = t;
    lastLineV = value;
  };
  const set = (v: number) => {
    const t = now();
    lastUpdate = t;
    if (v !== value) {
      value = v;
      lastChange = t;
      // a value set within the first moment (resumed items) is a new baseline, not work done
      if (!printed && t - t0 < Math.min(100, o.intervalMs)) {
        base0 = value;
        samples = [];
      } else {
        samples.push({ t, v });
        while (samples.length > 2 && samples[1].t < t - WINDOW_MS) samples.shift();
      }
    }
    check();
  };
  return {
    start(n: number) {
      total = n;
      value = 0;
      failed = 0;
      t0 = lastT = lastUpdate = lastChange = now();
      base0 = 0;
      lastLineV = -1;
      samples = [];
      stopped = false;
      if (schedule && !cancel) cancel = schedule(heartbeat, Math.max(250, Math.floor(o.intervalMs / 2)));
    },
    increment: (n = 1) => set(value + n),
    update: (v) => set(v),
    fail: (n = 1) => {
      failed += n;
    },
    stop() {
      if (stopped) return;
      stopped = true;
      cancel?.();
      cancel = undefined;
      const t = now();
      if (printed) o.write(`[${label}] ${count()}${rateText(((value - base0) * 1000) / Math.max(t - t0, 1))} done in ${formatDuration((t - t0) / 1000)}\n`);
    },
  };
}
