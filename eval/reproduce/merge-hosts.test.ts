/**
 * `lexcase merge` of shards run on two hosts (docs/reproductions.md), each in its own working dir:
 * before, the merge compared the whole config, so the shards' own absolute index paths (the same
 * index content), cache dirs and request timeouts refused it ("field "index" differs"), and the
 * merged run kept only the shard given first's git sha, lexcase version and resumes. Now it compares
 * what a resume compares, the index by what it holds, and records every shard's code and resumes,
 * warning when the shards ran different code.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { log } from '../../core/log.js';
import '../../agents/systems.js'; // the agent systems' list (a recipe names them), handed to eval
import { loadQuestions } from '../../corpora/registry.js';
import type { Question } from '../../corpora/types.js';
import { contextFrom, runExperiment } from '../runner.js';
import { mergeShards } from './merge.js';
import { loadRecipe } from './recipe.js';
import { runDirOf } from './reproduction-dir.js';
import { runGrid, type CommandRunner } from './run-grid.js';

const LIMIT = 4;
let dir: string;
let questions: Question[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-merge-hosts-'));
  questions = (await loadQuestions('barexam', 'val')).slice(0, LIMIT);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const indexContent = { corpus: 'barexam', checksum: 'cdf8edb5ced9c196', passages: 1149, analyzer: { stemmer: 'porter' } };

/** A host's `lexcase run baseline …` as the grid runs it in process: the index under its own working dir, its own cache dir and timeout. */
const hostRunner =
  (host: string, o: { indexContent?: Record<string, unknown> } = {}): CommandRunner =>
  async (argv) => {
    await runExperiment({
      runDir: argv[argv.indexOf('--run-dir') + 1],
      system: async () => ({ prediction: 'A', trace: {} }),
      items: questions.slice(0, Number(argv[argv.indexOf('--limit') + 1])),
      gold: (q) => q.answer,
      makeContext: contextFrom(),
      config: {
        system: 'baseline',
        mode: 'llm-only',
        dataset: 'barexam',
        split: 'val',
        limit: LIMIT,
        index: join(dir, host, '.lexcase', 'demo', 'index'),
        indexContent: o.indexContent ?? indexContent,
        model: { model: 'm', temperature: 0, cacheDir: join(dir, host, 'cache'), timeoutMs: host === 'h1' ? 120_000 : 300_000 },
      },
      seed: 13,
    });
    return { code: 0, stdout: '', stderr: '' };
  };

const { recipe, text } = loadRecipe('case-table2');
const shardOn = (host: string, index: number, o?: { indexContent?: Record<string, unknown> }) =>
  runGrid({
    recipe,
    recipeText: text,
    dir: join(dir, host, 's'),
    limit: LIMIT,
    shard: { index, count: 2 },
    only: ['llm-only'],
    runCommand: hostRunner(host, o),
  });
const configOf = (d: string) => JSON.parse(readFileSync(join(runDirOf(d, 'llm-only'), 'config.json'), 'utf8'));

describe('merge of shards run on two hosts', () => {
  it("merges shards whose index path, cache dir and timeout differ (the same index content), recording each shard's own; refuses another index content", async () => {
    await shardOn('h1', 1);
    await shardOn('h2', 2);
    const [s1, s2] = ['h1', 'h2'].map((h) => join(dir, h, 's'));
    // before: RUN_INVALID … field "index" differs
    const m = await mergeShards(join(dir, 'mh'), [s1, s2], recipe);
    expect(m.runs.find((r) => r.id === 'llm-only')).toEqual({ id: 'llm-only', status: 'done', items: LIMIT });
    expect(m.warnings).toBeUndefined();
    const mc = configOf(join(dir, 'mh'));
    expect(mc.config.index).toBe(join(dir, 'h1', '.lexcase', 'demo', 'index'));
    expect(mc.mergedFrom[1].settings).toEqual({
      'model.cacheDir': join(dir, 'h2', 'cache'),
      'model.timeoutMs': 300_000,
      index: join(dir, 'h2', '.lexcase', 'demo', 'index'),
    });
    expect(mc.mergedFrom[0].settings).toBeUndefined();
    // the shards ran the same code: one sha, no gitShas
    expect(mc.provenance.gitShas).toBeUndefined();
    expect(readFileSync(join(runDirOf(join(dir, 'mh'), 'llm-only'), 'report.md'), 'utf8')).toContain(`- **git sha**: ${mc.provenance.gitSha}\n`);

    // the second host's index was built with another analyzer: refused, naming what differs
    await shardOn('h3', 2, { indexContent: { ...indexContent, analyzer: { stemmer: 'none' } } });
    await expect(mergeShards(join(dir, 'mh3'), [s1, join(dir, 'h3', 's')], recipe)).rejects.toThrow(
      /field "indexContent" differs: indexContent.analyzer.stemmer "porter" there, "none" here/,
    );
  }, 60_000);

  it("records every shard's git sha, lexcase version and resumes whatever the order given, and warns when the shards ran different code; the merged provenance names every sha with its shards and items", async () => {
    const [s1, s2] = ['h1', 'h2'].map((h) => join(dir, h, 's'));
    // shard 2 ran on a host with other code, and was resumed there once
    const file = join(runDirOf(s2, 'llm-only'), 'config.json');
    const c2 = JSON.parse(readFileSync(file, 'utf8'));
    c2.provenance.gitSha = 'ffffeeeeddddccccbbbbaaaa9999888877776666';
    c2.resumes = [{ at: '2026-01-02T00:00:00.000Z', gitSha: c2.provenance.gitSha, datasetChecksum: c2.provenance.datasetChecksum, items: 2, skipped: 1 }];
    writeFileSync(file, JSON.stringify(c2));
    const sha1 = configOf(s1).provenance.gitSha as string;
    const warn = vi.spyOn(log, 'warn').mockImplementation(() => undefined);
    // shard 2 given first: the merged run is still shard 1's, with shard 2's code beside it
    const out = join(dir, 'mixed');
    const m = await mergeShards(out, [s2, s1], recipe);
    const mc = configOf(out);
    expect(mc.provenance.gitSha).toBe(sha1);
    expect(mc.mergedFrom.map((x: { shard: { index: number }; gitSha: string }) => [x.shard.index, x.gitSha])).toEqual([
      [1, sha1],
      [2, c2.provenance.gitSha],
    ]);
    expect(mc.mergedFrom[1]).toMatchObject({ lexcaseVersion: c2.provenance.lexcaseVersion, resumes: c2.resumes });
    // the top-level sha stays a string (shard 1's); gitShas names what made each part of the run
    expect(mc.provenance.gitShas).toEqual([
      { gitSha: sha1, shards: [1], items: 2 },
      { gitSha: c2.provenance.gitSha, shards: [2], items: 2 },
    ]);
    const warning = `run llm-only: the shards ran different code (git sha ${sha1.slice(0, 12)} (shard 1), ffffeeeedddd (shard 2)); the merged provenance names each (provenance.gitShas; gitSha is shard 1's), each shard's is in config.json mergedFrom`;
    expect(m.warnings).toEqual([warning]);
    expect(warn).toHaveBeenCalledWith(`merge: ${warning}`);
    warn.mockRestore();
    expect(mc.mergeWarnings).toEqual([warning]);
    const report = readFileSync(join(runDirOf(out, 'llm-only'), 'report.md'), 'utf8');
    expect(report).toContain(`- **warning**: ${warning}`);
    expect(report).toContain(`- **merged from**: 2 shards: 1/2 (2 items, git sha ${sha1.slice(0, 12)}`);
    expect(report).toContain('2/2 (2 items, git sha ffffeeeedddd, lexcase ');
    expect(report).toContain(', resumed 1×)');
    // report.md's provenance line names both shas, not shard 1's alone; report.json (report --json) carries them
    expect(report).toContain(`- **git sha**: mixed: ${sha1.slice(0, 12)} (shard 1: 2 items), ffffeeeedddd (shard 2: 2 items)\n`);
    const rj = JSON.parse(readFileSync(join(runDirOf(out, 'llm-only'), 'report.json'), 'utf8'));
    expect(rj.sections.summary.provenance).toMatchObject({ gitSha: sha1, gitShas: mc.provenance.gitShas });
  }, 60_000);
});
