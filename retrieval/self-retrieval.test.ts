/**
 * Every retrieval method finds a passage from its own opening: a query made of a passage's first 100
 * words puts that passage in the top 3 for at least 90 of 100 seeded random passages of the bundled
 * default corpus. Run as a user runs it: the built CLI builds the default index with every build
 * step (bm25, qld, dense from the shipped use-lite vectors, lancedb-fts) and `lexcase eval retrieval
 * --topics … --qrels …` scores every method of the registry (retrieval/methods.ts), so a new method
 * is covered without touching this test. Before issue 36 dense embedded only a query's last 24
 * words: 26% of such queries found their passage (bm25: 100%); it now embeds the whole query.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRng } from '../core/rng.js';
import { loadPassages } from '../corpora/registry.js';
import { collect } from '../tests/support/collect.js';
import { runBuiltCli } from '../tests/support/run-built-cli.js';
import { METHODS, METHOD_NAMES } from './methods.js';

const SEED = 36;
const N = 100;
const WORDS = 100;

const dir = mkdtempSync(join(tmpdir(), 'lexcase-self-retrieval-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('self-retrieval on the default corpus, every method', () => {
  it(`a passage's first ${WORDS} words find it in the top 3 for ≥ 90 of ${N} seeded random passages`, { timeout: 600_000 }, async () => {
    const steps = [...new Set(METHODS.map((m) => m.buildStep).filter((s): s is NonNullable<typeof s> => s !== null))];
    const b = await runBuiltCli(['index', 'build', 'default', '--out', 'idx', '--methods', steps.join(',')], { cwd: dir, timeoutMs: 300_000 });
    expect(b.code, b.stderr).toBe(0);
    expect(b.stdout).toContain('dense from the shipped vectors');

    const sample = createRng(SEED).sample(await collect(loadPassages('default')), N);
    writeFileSync(join(dir, 'topics.tsv'), sample.map((p, i) => `s${i}\t${p.text.split(/\s+/).filter(Boolean).slice(0, WORDS).join(' ')}\n`).join(''));
    writeFileSync(join(dir, 'qrels.txt'), sample.map((p, i) => `s${i} 0 ${p.id} 1\n`).join(''));
    const args = [
      '--json',
      'eval',
      'retrieval',
      '--topics',
      'topics.tsv',
      '--qrels',
      'qrels.txt',
      '--index',
      'idx',
      '--method',
      METHOD_NAMES.join(','),
      '--metrics',
      'recall@3',
      '--hits',
      '3',
      '--complete',
    ];
    const r = await runBuiltCli(args, { cwd: dir, timeoutMs: 540_000 });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as {
      results: { method: string; n: number; means: Record<string, { estimate: number }>; config?: Record<string, unknown> }[];
    };
    const found = Object.fromEntries(report.results.map((x) => [x.method, Math.round(x.means['recall@3'].estimate * N)]));
    expect(report.results.map((x) => x.n)).toEqual(METHOD_NAMES.map(() => N));
    expect(Object.keys(found)).toEqual([...METHOD_NAMES]);
    for (const m of METHOD_NAMES) expect(found[m], `${m}: ${JSON.stringify(found)}`).toBeGreaterThanOrEqual(90);
    // the rule dense used is the one its run records
    expect(report.results.find((x) => x.method === 'dense')?.config).toMatchObject({ query: { rule: 'whole' } });
  });
});
