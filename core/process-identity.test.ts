import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { processStartedAt, processStartId, sameProcessRunning } from './process-identity.js';

describe.runIf(existsSync('/proc/self/stat'))('process identity (Linux: boot id + start ticks)', () => {
  it('names this process the same way every time, and another process otherwise', () => {
    const me = processStartId(process.pid)!;
    expect(me).toMatch(/^[0-9a-f-]{36}:\d+$/);
    expect(processStartId(process.pid)).toBe(me);
    expect(sameProcessRunning(process.pid, me)).toBe(true);
    const child = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      const other = processStartId(child.pid!)!;
      expect(other).not.toBe(me);
      // the child's pid with this process's start: a reused pid, not the process that was recorded
      expect(sameProcessRunning(child.pid!, me)).toBe(false);
      expect(sameProcessRunning(child.pid!, other)).toBe(true);
      expect(processStartedAt(child.pid!)!).toBeGreaterThanOrEqual(processStartedAt(process.pid)! - 1000);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('a pid that is gone is not running, whatever the record; where it started is unknown', () => {
    const dead = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
    expect(sameProcessRunning(dead, undefined)).toBe(false);
    expect(processStartId(dead)).toBeUndefined();
    expect(processStartedAt(dead)).toBeUndefined();
  });

  it('this process started when its uptime says (within the 5 s check)', () => {
    expect(Math.abs(processStartedAt(process.pid)! - (Date.now() - process.uptime() * 1000))).toBeLessThan(5000);
  });
});
