/**
 * A merged run dir (`lexcase merge` of shards) resumed by a grid run over it (`reproduce` into the
 * merged dir, same recipe and limit): shard 2 was stopped by a SIGINT and resumed, then shard 1 (its
 * interrupt and resume later), and the merge lists their resumes in shard order. Before, the
 * merged dir's resume took the interrupts "since the last resume" — shard 2's, the earlier one — and
 * recorded shard 1's interrupt (5 requests), which shard 1's resume had already counted, as under way
 * again (Σ underWay 12 for 7 interrupted requests); and report.md's "resumed" read every shard's
 * resumes but not the merged dir's own ("2× (shard 1: 1×, shard 2: 1×)" after a third).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../../agents/systems.js';
import { loadQuestions } from '../../corpora/registry.js';
import type { Question } from '../../corpora/types.js';
import { writeReport } from '../report/write-report.js';
import { mergeShards } from './merge.js';
import { loadRecipe } from './recipe.js';
import { runDirOf } from './reproduction-dir.js';
import { runGrid } from './run-grid.js';
import { baselineRunner } from './test-support/baseline-runner.js';

const LIMIT = 6;
let dir: string;
let questions: Question[];
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-merged-resume-'));
  questions = (await loadQuestions('barexam', 'val')).slice(0, LIMIT);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a merged run dir resumed', () => {
  it("records no interrupt a shard's resume already counted, and report.md counts the merged dir's own resume", async () => {
    const { recipe, text } = loadRecipe('case-table2');
    const [s1, s2] = ['r1', 'r2'].map((d) => join(dir, d));
    const grid = (d: string, shard?: number) =>
      runGrid({
        recipe,
        recipeText: text,
        dir: d,
        limit: LIMIT,
        ...(shard ? { shard: { index: shard, count: 2 } } : {}),
        only: ['llm-only'],
        runCommand: baselineRunner(() => questions),
      });
    await grid(s1, 1);
    await grid(s2, 2);
    const stop = async (d: string, shard: number, items: number, requests: number) => {
      const f = join(runDirOf(d, 'llm-only'), 'config.json');
      const results = join(runDirOf(d, 'llm-only'), 'results.jsonl');
      writeFileSync(results, `${readFileSync(results, 'utf8').split('\n').slice(0, -2).join('\n')}\n`);
      const cfg = JSON.parse(readFileSync(f, 'utf8'));
      writeFileSync(
        f,
        JSON.stringify({ ...cfg, interrupts: [...(cfg.interrupts ?? []), { signal: 'SIGINT', at: new Date().toISOString(), items, requests }] }),
      );
      await new Promise((r) => setTimeout(r, 20));
      await grid(d, shard);
    };
    await stop(s2, 2, 1, 2); // shard 2 first
    await stop(s1, 1, 1, 5); // then shard 1, later
    const merged = await mergeShards(join(dir, 'merged'), [s1, s2], recipe);
    const to = runDirOf(merged.out, 'llm-only');
    // the system's declaration of its metrics' kinds travels with the merged config.json (shard 1's)
    expect(JSON.parse(readFileSync(join(to, 'config.json'), 'utf8')).metricKinds).toMatchObject({ unresolvedCitations: 'count' });
    const r = await grid(merged.out);
    expect(r).toBeDefined();
    const cfg = JSON.parse(readFileSync(join(to, 'config.json'), 'utf8'));
    const own = cfg.resumes.at(-1);
    expect(own.shard).toBeUndefined();
    expect(own).toMatchObject({ items: 6, skipped: 6 });
    // before: underWay { items: 1, requests: 5 } — shard 1's interrupt, counted by shard 1's own resume already
    expect(own.underWay).toBeUndefined();
    const sum = (xs: { underWay?: { requests: number } }[]) => xs.reduce((a, x) => a + (x.underWay?.requests ?? 0), 0);
    expect(sum(cfg.resumes)).toBe(7);
    expect(cfg.interrupts.reduce((a: number, x: { requests: number }) => a + x.requests, 0)).toBe(7);
    await writeReport(to); // as `lexcase report` writes it
    const md = readFileSync(join(to, 'report.md'), 'utf8');
    // before: "2× (shard 1: 1×, shard 2: 1×)"
    expect(md).toContain('- **resumed**: 3× (shard 1: 1×, shard 2: 1×, merged run dir: 1×)');
    expect(md).toContain('**7 requests sent by 2 items under way at an interrupt**');
  }, 120_000);
});
