import { afterEach, describe, expect, it } from 'vitest';
import { utcStamp } from './date-stamp.js';

// Node's environment (web/app is typed for the browser): Node reads TZ again when it changes.
const env = (globalThis as unknown as { process: { env: Record<string, string | undefined> } }).process.env;

describe("the explorer's run date", () => {
  const tz = env.TZ;
  afterEach(() => {
    if (tz === undefined) delete env.TZ;
    else env.TZ = tz;
  });

  it('says the recorded instant is UTC (before: "2026-12-01 07:58", read as local time: a day off in Kiritimati)', () => {
    // config.json provenance.createdAt of a run started at 07:58 UTC (21:58 on Dec 1 in Kiritimati, 04:28 in St John's)
    expect(utcStamp('2026-12-01T07:58:01.613Z')).toBe('2026-12-01 07:58 UTC');
    expect(utcStamp('2026-11-30T23:59:59.999Z')).toBe('2026-11-30 23:59 UTC');
  });

  it('converts an instant written with an offset to UTC instead of dropping the offset (before: "2026-12-01 08:00")', () => {
    expect(utcStamp('2026-12-01T08:00:00+14:00')).toBe('2026-11-30 18:00 UTC');
    expect(utcStamp('2026-12-01T01:00:00-03:30')).toBe('2026-12-01 04:30 UTC');
  });

  it('is the same text in every time zone of the machine', () => {
    const at = '2026-12-01T07:58:01.613Z';
    const seen = ['UTC', 'Pacific/Kiritimati', 'America/St_Johns', 'Asia/Tokyo'].map((zone) => {
      env.TZ = zone;
      return utcStamp(at);
    });
    expect(new Set(seen)).toEqual(new Set(['2026-12-01 07:58 UTC']));
  });

  it('shows no date as "–" and text that is no ISO instant as it is', () => {
    expect(utcStamp(null)).toBe('–');
    expect(utcStamp('')).toBe('–');
    expect(utcStamp('yesterday')).toBe('yesterday');
    expect(utcStamp('2026-13-45T99:99Z')).toBe('2026-13-45T99:99Z');
    // no zone: Date.parse would read it as the machine's local time
    env.TZ = 'Pacific/Kiritimati';
    expect(utcStamp('2026-12-01T07:58:01')).toBe('2026-12-01T07:58:01');
  });
});
