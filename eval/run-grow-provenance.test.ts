/**
 * A run that grows (a larger --limit on resume) records the grown run's provenance: the items
 * planned and the dataset checksum a fresh run of the same limit records, in config.json and in
 * report.md's Run section; the resume entry keeps what they were before.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { log } from '../core/log.js';
import { loadQuestions } from '../corpora/registry.js';
import type { Question } from '../corpora/types.js';
import { writeReport } from './report/write-report.js';
import { contextFrom, runExperiment } from './runner.js';
import type { AgentSystem } from './types.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-grow-prov-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

// answers A: a real split's gold labels make some items right, some wrong
const system: AgentSystem<Question> = async () => ({ prediction: 'A', trace: {} });
const run = (runDir: string, items: Question[], limit: number) =>
  runExperiment({
    runDir,
    system,
    items,
    gold: (q) => q.answer,
    makeContext: contextFrom(),
    config: { system: 'case', dataset: 'barexam', split: 'val', limit },
    seed: 13,
  });
const configOf = (runDir: string) => JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8'));

describe('a grown run', () => {
  it("records the grown run's items planned and dataset checksum, as a fresh run of the same limit does, and the report prints them", async () => {
    const val = (await loadQuestions('barexam', 'val')).slice(0, 6);
    const grown = join(dir, 'grown');
    await run(grown, val.slice(0, 3), 3);
    const before = configOf(grown).provenance;
    expect(before.items).toBe(3);
    await run(grown, val, 6);
    const fresh = join(dir, 'fresh');
    await run(fresh, val, 6);

    const g = configOf(grown);
    expect(g.provenance).toMatchObject({ items: 6, datasetChecksum: configOf(fresh).provenance.datasetChecksum });
    expect(g.provenance.datasetChecksum).not.toBe(before.datasetChecksum);
    expect(g.provenance.createdAt).toBe(before.createdAt); // the run started then
    expect(g.resumes.at(-1)).toMatchObject({
      grown: { limit: { from: 3, to: 6 } },
      provenanceBefore: { items: 3, datasetChecksum: before.datasetChecksum },
    });

    await writeReport(grown);
    const md = readFileSync(join(grown, 'report.md'), 'utf8');
    expect(md).toContain('- **items in results**: 6');
    expect(md).toContain('- **items planned**: 6');
    expect(md).toContain(`- **dataset checksum**: ${configOf(fresh).provenance.datasetChecksum}`);
  });

  it('the growing line counts the items the larger limit adds apart from the failed items run again (it said "3 new items" for 1 new and 2 retried)', async () => {
    const val = (await loadQuestions('barexam', 'val')).slice(0, 4);
    const runDir = join(dir, 'grow-failed');
    const failing = new Set([val[0].id, val[1].id]);
    let fail = true;
    const flaky: AgentSystem<Question> = async (q) => {
      if (fail && failing.has(q.id)) throw new Error('HTTP 500');
      return { prediction: 'A', trace: {} };
    };
    const go = (items: Question[], limit: number) =>
      runExperiment({
        runDir,
        system: flaky,
        items,
        gold: (q) => q.answer,
        makeContext: contextFrom(),
        config: { system: 'case', dataset: 'barexam', split: 'val', limit },
        seed: 13,
      });
    expect((await go(val.slice(0, 3), 3)).failed).toBe(2);
    fail = false;
    const info = vi.spyOn(log, 'info');
    try {
      const r = await go(val, 4);
      expect(r.ran).toBe(3);
      const line = info.mock.calls.map((c) => String(c[0])).find((l) => l.startsWith('growing '));
      expect(line).toBe(`growing ${runDir}: limit 3 → 4, 1 new item to run, and 2 items that failed earlier run again`);
    } finally {
      info.mockRestore();
    }
  });

  it('a smaller limit that still holds every recorded item (a run stopped before its limit) is said as narrowing, not growing (before: "growing … limit 8 → 6")', async () => {
    const val = (await loadQuestions('barexam', 'val')).slice(0, 8);
    const runDir = join(dir, 'narrow');
    const go = (items: Question[], limit: number) =>
      runExperiment({
        runDir,
        system: async () => ({ prediction: 'A', trace: {} }),
        items,
        gold: (q) => q.answer,
        makeContext: contextFrom(),
        config: { system: 'case', dataset: 'barexam', split: 'val', limit },
        seed: 13,
      });
    // a --limit 8 run that recorded 5 items before it stopped
    await go(val.slice(0, 5), 8);
    const info = vi.spyOn(log, 'info');
    try {
      const r = await go(val.slice(0, 6), 6);
      expect(r.ran).toBe(1);
      const lines = info.mock.calls.map((c) => String(c[0]));
      expect(lines.find((l) => / limit 8 → 6/.test(l))).toBe(
        `narrowing ${runDir}: limit 8 → 6 (every recorded item is in the new selection; 6 items planned), 1 new item to run`,
      );
    } finally {
      info.mockRestore();
    }
    expect(configOf(runDir).config.limit).toBe(6);
  });
});
