import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from './program.js';

function leaves(c: Command, path: string[] = []): { path: string; cmd: Command }[] {
  const subs = c.commands.filter((s) => s.name() !== 'help');
  return subs.length ? subs.flatMap((s) => leaves(s, [...path, s.name()])) : [{ path: path.join(' '), cmd: c }];
}

describe('--help shows a list option’s default as it is typed', () => {
  it('every command: `(default: bm25,qld)`, never JSON (`(default: ["bm25","qld"])`)', () => {
    const all = leaves(buildProgram());
    expect(all.map((l) => l.path)).toEqual(expect.arrayContaining(['index build', 'eval retrieval', 'run threeply']));
    let lists = 0;
    for (const { path, cmd } of all) {
      const help = cmd.helpInformation().replace(/\s+/g, ' ');
      expect(help, `lexcase ${path} --help`).not.toMatch(/\(default: \[/);
      for (const o of cmd.options)
        if (Array.isArray(o.defaultValue)) {
          lists++;
          expect(help, `lexcase ${path} ${o.long}`).toContain(`(default: ${o.defaultValue.join(',')})`);
        }
    }
    // index build --methods, eval retrieval --method, run threeply --scenarios
    expect(lists).toBeGreaterThanOrEqual(3);
  });
});
