/**
 * Each command line of the docs check says what it cost in CPU beside its wall time: the wrapper
 * script ends with bash's `times`, whose second line is the user and system time of the processes
 * the command ran (tests/docs/docs-check.ts childCpu). (A real bash's `times` is read on every
 * command of every docs check run.)
 */
import { describe, expect, it } from 'vitest';
import { childCpu } from './docs-check.js';

describe('docs check: the CPU of a command', () => {
  it("reads user + system seconds of the shell's children from `times`", () => {
    expect(childCpu('0m0.010s 0m0.004s\n1m2.500s 0m0.250s\n')).toBeCloseTo(62.75, 6);
    expect(childCpu('0m0.010s 0m0.004s\n')).toBeUndefined();
  });
});
