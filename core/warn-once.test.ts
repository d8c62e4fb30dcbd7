/**
 * warnOnce: a warning said the first time its key comes up in a process, never again for that key
 * (a server quirk met on every reply); other keys are their own; resetWarnedOnce (the test setup's
 * per-file reset) makes a shared worker's next file say each again, as a fresh process would.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetWarnedOnce, setLogLevel, warnOnce } from './log.js';

afterEach(() => {
  vi.restoreAllMocks();
  setLogLevel('info');
});

function stderrOf(fn: () => void): string {
  let out = '';
  vi.spyOn(process.stderr, 'write').mockImplementation((t: string | Uint8Array) => ((out += String(t)), true));
  fn();
  vi.restoreAllMocks();
  return out;
}

describe('warnOnce', () => {
  it('says a key once per process, each key apart, builds the text only when it says it, and says it again after a reset', () => {
    resetWarnedOnce();
    let built = 0;
    const text = () => (built++, 'the endpoint cut a reply short');
    const first = stderrOf(() => {
      warnOnce('t.cut', text);
      warnOnce('t.cut', text);
      warnOnce('t.other', () => 'another quirk');
    });
    expect(first).toBe('[warn] the endpoint cut a reply short\n[warn] another quirk\n');
    expect(built).toBe(1);
    resetWarnedOnce();
    expect(stderrOf(() => warnOnce('t.cut', text))).toBe('[warn] the endpoint cut a reply short\n');
  });

  it('a warning the log level hid counts as said (a process that logs nothing does not say it later)', () => {
    resetWarnedOnce();
    setLogLevel('silent');
    expect(stderrOf(() => warnOnce('t.hidden', () => 'hidden'))).toBe('');
    setLogLevel('info');
    expect(stderrOf(() => warnOnce('t.hidden', () => 'hidden'))).toBe('');
  });
});
