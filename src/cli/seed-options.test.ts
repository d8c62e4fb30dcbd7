/**
 * Every seed a user gives on the command line (`--seed`, `--split-seed` of every command, `run mad --seeds`)
 * is an integer from 0 to 4294967295: draws use a seed's 32 bits only, so `--seed 4294967297` ran as seed 1.
 */
import type { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { MAX_SEED } from '../../core/rng.js';
import { buildProgram } from './program.js';
import { numericSpec } from './numeric-options.js';

function commands(cmd: Command, path: string[] = []): Array<{ path: string[]; cmd: Command }> {
  const here = path.length ? [{ path, cmd }] : [];
  return [...here, ...cmd.commands.flatMap((c) => commands(c, [...path, c.name()]))];
}

const seedOptions = commands(buildProgram()).flatMap(({ path, cmd }) =>
  (cmd.options as Option[]).filter((o) => /^--(.+-)?seed$/.test(o.long ?? '')).map((o) => ({ where: `${path.join(' ')} ${o.long}`, o })),
);

describe('seed options', () => {
  it('every --seed / --*-seed of every command takes an integer from 0 to 4294967295 and refuses 4294967297, 1.5 and -1', () => {
    const where = seedOptions.map((s) => s.where);
    expect(where).toEqual(
      expect.arrayContaining([
        'run case --seed',
        'run case --split-seed',
        'run threeply --seed',
        'run emar --split-seed',
        'run acal --seed',
        'compare --seed',
        'eval run --seed',
      ]),
    );
    for (const { where: w, o } of seedOptions) {
      expect(numericSpec(o.parseArg), w).toMatchObject({ integer: true, min: 0, max: MAX_SEED });
      const parse = o.parseArg as unknown as (v: string) => number;
      for (const bad of ['4294967297', '4294967296', '1.5', '-1']) expect(() => parse(bad), `${w} ${bad}`).toThrow(/expected an integer from 0 to 4294967295/);
      expect(parse('4294967295')).toBe(4294967295);
      expect(parse('0')).toBe(0);
    }
  });
});
