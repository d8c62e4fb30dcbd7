/**
 * Progress on a non-interactive stderr (nohup, CI, a pipe): plain lines every interval with count,
 * percentage, rate and ETA, driven here by a fake clock; nothing for short work; nothing when
 * disabled (--json / --quiet); and the bar on a TTY, whose eta on a resumed run counts only the
 * items run since the resume.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgress, formatDuration, setProgressEnabled } from './progress.js';

function pipe() {
  const lines: string[] = [];
  return { lines, stream: { isTTY: false, write: (s: string) => lines.push(s) } };
}

afterEach(() => setProgressEnabled(true));

describe('progress on a non-TTY stream', () => {
  it('prints a plain line every interval with count, %, rate and eta, and a last line with the total time', () => {
    let t = 0;
    const { lines, stream } = pipe();
    const p = createProgress('index barexam', { unit: 'passages', stream, intervalMs: 5000, now: () => t });
    p.start(856_835);
    for (let s = 1; s <= 12; s++) {
      t = s * 1000;
      p.update(s * 3200); // 3,200 passages a second
    }
    // lines at t = 5 s and t = 10 s only
    expect(lines).toEqual([
      '[index barexam] 16,000/856,835 passages (1%) 3,200/s eta 4m23s\n',
      '[index barexam] 32,000/856,835 passages (3%) 3,200/s eta 4m18s\n',
    ]);
    t = 14_000;
    p.update(856_835);
    p.stop();
    expect(lines[2]).toBe('[index barexam] 856,835/856,835 passages (100%) 61,203/s done in 14s\n');
    p.stop();
    expect(lines).toHaveLength(3);
  });

  it('the rate is over the last window (a slow-down shows in the eta), and items resumed at start are not counted as work', () => {
    let t = 0;
    const { lines, stream } = pipe();
    const p = createProgress('run', { unit: 'items', stream, intervalMs: 10_000, now: () => t });
    p.start(100);
    p.update(40); // resumed run: 40 items already done
    t = 10_000;
    p.update(50); // 10 items in 10 s
    t = 20_000;
    p.update(52); // 2 items in 10 s
    expect(lines).toEqual(['[run] 50/100 items (50%) 1.0/s eta 50s\n', '[run] 52/100 items (52%) 0.2/s eta 4m00s\n']);
  });

  it('a count with failed items says how many failed, in the lines and the last one', () => {
    let t = 0;
    const { lines, stream } = pipe();
    const p = createProgress('mad', { unit: 'items', stream, intervalMs: 5000, now: () => t });
    p.start(300);
    for (let i = 1; i <= 10; i++) {
      t = i * 1000;
      if (i % 3 === 0) p.fail(); // items 3, 6 and 9 failed
      p.increment();
    }
    t = 12_000;
    p.update(300);
    p.stop();
    expect(lines).toEqual([
      '[mad] 5/300 items (1%), 1 failed 1.0/s eta 4m55s\n',
      '[mad] 10/300 items (3%), 3 failed 1.0/s eta 4m50s\n',
      '[mad] 300/300 items (100%), 3 failed 25/s done in 12s\n',
    ]);
  });

  it('without a known total it prints the count and rate', () => {
    let t = 0;
    const { lines, stream } = pipe();
    const p = createProgress('index my.jsonl', { unit: 'passages', stream, intervalMs: 1000, now: () => t });
    p.start(0);
    t = 2000;
    p.increment(5000);
    expect(lines).toEqual(['[index my.jsonl] 5,000 passages 2,500/s\n']);
  });

  it('short work prints nothing', () => {
    let t = 0;
    const { lines, stream } = pipe();
    const p = createProgress('eval bm25', { stream, intervalMs: 5000, now: () => t });
    p.start(124);
    for (let i = 1; i <= 124; i++) {
      t = i * 10;
      p.increment();
    }
    p.stop();
    expect(lines).toEqual([]);
  });

  it('prints nothing with --json / --quiet or LEXCASE_PROGRESS=off', () => {
    let t = 0;
    const { lines, stream } = pipe();
    setProgressEnabled(false);
    const a = createProgress('x', { stream, intervalMs: 1, now: () => t });
    a.start(10);
    t = 100;
    a.update(5);
    setProgressEnabled(true);
    const b = createProgress('x', { stream, intervalMs: 1, now: () => t, mode: 'off' });
    b.start(10);
    t = 200;
    b.update(5);
    expect(lines).toEqual([]);
  });

  it('with the real clock a heartbeat line comes even while no update arrives', async () => {
    const { lines, stream } = pipe();
    const p = createProgress('run', { unit: 'items', stream, intervalMs: 300 });
    p.start(3);
    p.update(1);
    await new Promise((r) => setTimeout(r, 800));
    p.stop();
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines[0]).toMatch(/^\[run\] 1\/3 items \(33%\)/);
    expect(lines.at(-1)).toMatch(/done in \ds\n$/);
  });

  it('the heartbeat falls silent once the work is complete, even if stop() is never called', async () => {
    const { lines, stream } = pipe();
    const p = createProgress('eval bm25', { unit: 'queries', stream, intervalMs: 300 });
    p.start(2);
    p.update(2);
    await new Promise((r) => setTimeout(r, 800));
    expect(lines).toEqual([]);
  });
});

describe('progress of work that reports in bursts (embedding batches), in a pipe', () => {
  /** 6,151 passages embedded in batches of 256, one every 17 s (15/s), after 30 s of model loading; heartbeat every 2.5 s. */
  function embedRun() {
    let t = 0;
    const { lines, stream } = pipe();
    let beat: () => void = () => {};
    const p = createProgress('embedding (use-lite)', {
      unit: 'passages',
      stream,
      intervalMs: 5000,
      now: () => t,
      schedule: (fn) => ((beat = fn), () => (beat = () => {})),
    });
    const total = 6151;
    p.start(total);
    let done = 0;
    let batches = 0;
    const at: { line: string; t: number }[] = [];
    for (t = 0; done < total; t += 500) {
      const n = lines.length;
      if (t === 30_000 + 17_000 * (batches + 1)) {
        batches++;
        done = Math.min(total, done + 256);
        p.update(done);
      }
      if (t % 2500 === 0) beat();
      if (lines.length > n) at.push({ line: lines[lines.length - 1], t });
    }
    p.stop();
    return { lines, at, end: t - 500 };
  }

  it('reads the true rate (15/s, not one batch over the 5 s since the last line) and an eta close to the real time left', () => {
    const { lines, at, end } = embedRun();
    const progress = at.filter((x) => / eta /.test(x.line));
    expect(progress.length).toBeGreaterThan(20);
    for (const { line, t } of progress.slice(1)) {
      const rate = Number(/ ([\d.]+)\/s/.exec(line)![1]);
      expect(rate).toBeGreaterThan(13);
      expect(rate).toBeLessThan(17);
      const [, m, s] = /eta (?:(\d+)m)?(\d+)s/.exec(line)!;
      const eta = Number(m ?? 0) * 60 + Number(s);
      expect(Math.abs(eta - (end - t) / 1000), `${line.trim()} at ${t / 1000}s`).toBeLessThan(20);
    }
    expect(lines.at(-1)).toMatch(/^\[embedding \(use-lite\)\] 6,151\/6,151 passages \(100%\) \d+\/s done in 7m\d\ds\n$/);
  });

  it('prints no line twice: while nothing moves (model loading), at most one line a minute, saying for how long', () => {
    const { lines } = embedRun();
    for (let i = 1; i < lines.length; i++) expect(lines[i]).not.toBe(lines[i - 1]);
    expect(lines.filter((l) => l.includes(' 0/6,151'))).toEqual(['[embedding (use-lite)] 0/6,151 passages (0%)\n']);
    expect(lines.filter((l) => l.includes('(100%)'))).toHaveLength(1);
  });
});

it('formatDuration: seconds, minutes, hours', () => {
  expect([formatDuration(45), formatDuration(230), formatDuration(3720), formatDuration(-1)]).toEqual(['45s', '3m50s', '1h02m', '0s']);
});

describe('progress bar on a TTY (cli-progress)', () => {
  afterEach(() => vi.useRealTimers());

  it("a run resumed with items already done: the bar's eta is the rest at the rate since the resume, not with the done items counted as work of its first moment", () => {
    vi.useFakeTimers({ now: 0 });
    const out: string[] = [];
    const tty = { isTTY: true, columns: 120, write: (s: string) => (out.push(s), true), on: () => tty, removeListener: () => tty };
    const p = createProgress('run', { mode: 'bar', stream: tty, now: () => Date.now() });
    p.start(100);
    p.update(40); // resumed: 40 items already done, set at start (eval/runner.ts)
    for (let i = 1; i <= 10; i++) {
      vi.setSystemTime(i * 1000);
      p.increment(); // one item a second
    }
    p.stop();
    // the last bar drawn: 50 items left at 1 item/s (before: 50 / (50 items / 10 s) = "eta 10s")
    const last = out
      .join('')
      .split(/[\r\n]|\x1b\[[0-9;?]*[A-Za-z]/)
      .filter((l) => l.includes('eta'))
      .at(-1);
    expect(last).toMatch(/ 50\/100 eta 50s$/);
  });
});
