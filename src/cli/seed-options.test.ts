/**
 * Every seed a user gives on the command line (`--seed`, `--split-seed` of every command, `run mad --seeds`)
 * is an integer from 0 to 4294967295: draws use a seed's 32 bits only, so `--seed 4294967297` ran as seed 1.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { MAX_SEED } from '../../core/rng.js';
import { writeReport } from '../../eval/report/write-report.js';
import { runExperiment } from '../../eval/runner.js';
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

  it("run <system> --seed's help claims the bootstrap only where the report's bootstrap follows it (a run of seed 5: report.md's intervals by seed 13)", async () => {
    const root = mkdtempSync(join(tmpdir(), 'lexcase-seed-help-'));
    try {
      const dir = join(root, 'run');
      const items = Array.from({ length: 12 }, (_, i) => ({ id: `q${String(i).padStart(2, '0')}`, answer: 'A' }));
      await runExperiment({
        runDir: dir,
        system: async (item) => ({ prediction: 'A', trace: {}, metrics: { searches: Number(item.id.slice(1)) % 4 } }),
        items,
        gold: (q) => q.answer,
        makeContext: () => ({ seed: 5, tools: [], retrievers: {}, getPassage: async () => undefined, options: {} }),
        config: { system: 'seeded-own' },
        seed: 5,
      });
      const { markdown } = await writeReport(dir);
      // the run's own seed is 5; its report's bootstrap (the per-item mean of `searches`) names the seed it resampled with
      const reportSeeds = [...markdown.matchAll(/resamples, seed (\d+)/g)].map((m) => Number(m[1]));
      expect(reportSeeds.length).toBeGreaterThan(0);
      const followsRunSeed = reportSeeds.every((x) => x === 5);
      const runSeedHelp = seedOptions.filter((s) => /^run \S+ --seed$/.test(s.where));
      expect(runSeedHelp.length).toBeGreaterThan(0);
      for (const { where: w, o } of runSeedHelp)
        expect(/bootstrap/.test(o.description) && !/not the report's bootstrap/.test(o.description), `${w}: "${o.description}"`).toBe(followsRunSeed);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
