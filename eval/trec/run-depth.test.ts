/**
 * `eval run` of a run file cut shallower than a metric's cutoff: the figure stays trec_eval's (the
 * missing ranks not relevant, so recall@100 of a 10-deep run is its recall@10) and is said, on stderr,
 * in the report and in --json `warnings`, as `eval retrieval --topics --hits` says it. A run whose
 * topics hold every passage their query matches (lengths vary) is not flagged.
 * `eval run --aggregate` says it of a passage run cut shallower than a cutoff per document: its
 * passages make fewer documents than they are.
 * Data: Bar Exam QA val questions and their gold passages; each topic's run ranks its gold passage
 * 5th among other Bar Exam passages (per document: 2nd among passages of bundled legal_corpus opinions).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadQuestions } from '../../corpora/registry.js';
import type { Question } from '../../corpora/types.js';
import { runCli } from '../../tests/support/run-cli.js';
import { bundledLines, LEGAL_CORPUS_PASSAGES } from '../../tests/support/bundled-data.js';

let dir: string;
let qs: Question[];
/** Bar Exam passages a run ranks: the gold passages of every val question. */
let pool: string[];
let qrels: string;

/** A run of `qs`, topic i holding `depth(i)` documents, its gold passage 5th. */
async function runFile(name: string, depth: (i: number) => number): Promise<string> {
  const lines = qs.flatMap((q, i) => {
    const gold = q.goldPassageIds[0];
    const docs = pool.filter((d) => d !== gold).slice(0, depth(i));
    if (docs.length >= 5) docs.splice(4, 0, gold);
    return docs.slice(0, depth(i)).map((d, r) => `${q.id} Q0 ${d} ${r + 1} ${(100 - r).toFixed(6)} mine`);
  });
  const file = join(dir, name);
  await writeFile(file, `${lines.join('\n')}\n`);
  return file;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lexcase-run-depth-'));
  const val = await loadQuestions('barexam', 'val');
  qs = val.slice(0, 20);
  pool = val.map((q) => q.goldPassageIds[0]);
  qrels = join(dir, 'qrels.txt');
  await writeFile(qrels, qs.map((q) => `${q.id} 0 ${q.goldPassageIds[0]} 1`).join('\n') + '\n');
});

afterEach(() => {
  process.exitCode = 0;
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('eval run of a run cut shallower than a cutoff', () => {
  it('says recall@100 of a 10-deep run counts only its 10 (it printed recall@100 = recall@10 with no word)', async () => {
    const run = await runFile('cut10.txt', () => 10);
    const r = await runCli(['--json', 'eval', 'run', run, '--qrels', qrels, '--metrics', 'recall@10,recall@100,mrr@10']);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    // trec_eval's figures, unchanged: every gold is 5th
    expect(j.run.means['recall@100'].estimate).toBe(1);
    expect(j.run.means['recall@10'].estimate).toBe(1);
    expect(j.run.means['mrr@10'].estimate).toBeCloseTo(0.2, 12);
    const said = `recall@100 is cut deeper than the run (${run}) ranks: 20 of its 20 topics hold exactly 10 documents and none more, as a run cut at 10 does; it counts only those, the missing ranks as not relevant (trec_eval's figure); unless the collection holds no more, a run 100 deep (lexcase search --topics … -k 100) ranks 100`;
    expect(j.warnings).toEqual([said]);
    expect(r.stderr).toContain(said);
    const human = await runCli(['eval', 'run', run, '--qrels', qrels, '--metrics', 'recall@10,recall@100']);
    expect(human.stdout).toContain(`**Warning:** ${said}.`);
  });

  it('with --compare, names the run that is cut', async () => {
    const a = await runFile('a.txt', () => 100);
    const b = await runFile('b.txt', () => 10);
    const r = await runCli(['--json', 'eval', 'run', a, '--qrels', qrels, '--compare', b, '--metrics', 'recall@100', '--iterations', '200']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).warnings).toEqual([
      expect.stringMatching(
        new RegExp(
          `^recall@100 is cut deeper than run B \\(${b.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\) ranks: 20 of its 20 topics hold exactly 10 documents`,
        ),
      ),
    ]);
  });

  it('--aggregate: says recall@50 of a 100-passage run counts only the documents those make (it printed the cut figures with no word)', async () => {
    // legal_corpus passages, several a document (cap-…_0001#p0, #p1, …): topic i's 99 from the i·40th on make a few documents, how many varies
    const passages = bundledLines(LEGAL_CORPUS_PASSAGES)
      .filter(Boolean)
      .slice(0, 99 + 40 * qs.length)
      .map((l) => (JSON.parse(l) as { id: string }).id);
    const ranked = qs.map((q, i) => {
      const own = passages.slice(40 * i, 40 * i + 99);
      return [own[0], q.goldPassageIds[0], ...own.slice(1)];
    });
    const docCounts = ranked.map((ids) => new Set(ids.map((p) => p.replace(/#p\d+$/, ''))).size);
    const [fewest, most] = [Math.min(...docCounts), Math.max(...docCounts)];
    expect(most).toBeLessThan(50);
    expect(fewest).toBeLessThan(most);
    const lines = qs.flatMap((q, i) => ranked[i].map((d, r) => `${q.id} Q0 ${d} ${r + 1} ${(100 - r).toFixed(6)} mine`));
    const run = join(dir, 'passages100.txt');
    await writeFile(run, `${lines.join('\n')}\n`);
    const args = ['eval', 'run', run, '--qrels', qrels, '--metrics', 'recall@1,recall@50', '--aggregate', 'maxp', '--doc-id-pattern', '^(.+?)(?:#p\\d+)?$'];
    const r = await runCli(['--json', ...args]);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    // trec_eval's figures, unchanged: every gold document is 2nd
    expect(j.run.means['recall@50'].estimate).toBe(1);
    expect(j.run.means['recall@1'].estimate).toBe(0);
    const said = `recall@50 is cut deeper than the run (${run}) ranks per document: 20 of its 20 topics hold exactly 100 passages and none more, as a run cut at 100 does, which make ${fewest} to ${most} documents (maxp); it counts only those documents, the missing ranks as not relevant (trec_eval's figure); unless the collection holds no more, a run 50 deep (lexcase search --topics … --aggregate maxp -k 50) ranks 50`;
    expect(j.warnings).toEqual([said]);
    expect(r.stderr).toContain(said);
    expect((await runCli(args)).stdout).toContain(`**Warning:** ${said}.`);
    // a passage run that is not cut (topics vary in length) is not flagged per document either
    const varied = join(dir, 'passages-varied.txt');
    await writeFile(varied, `${lines.filter((_, i) => i % 100 < 50 + (Math.floor(i / 100) % 7)).join('\n')}\n`);
    const v = await runCli(['--json', 'eval', 'run', varied, ...args.slice(3)]);
    expect(v.code, v.stderr).toBe(0);
    expect(JSON.parse(v.stdout).warnings).toBeUndefined();
  });

  it('a run whose topics vary in length (every passage its query matches) and one as deep as the cutoff are not flagged', async () => {
    const varied = await runFile('varied.txt', (i) => 3 + (i % 7));
    const deep = await runFile('deep.txt', () => 19);
    for (const [run, metrics] of [
      [varied, 'recall@10,recall@100'],
      [deep, 'recall@10,recall@19'],
    ]) {
      const r = await runCli(['--json', 'eval', 'run', run, '--qrels', qrels, '--metrics', metrics]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
      expect(JSON.parse(r.stdout).warnings).toBeUndefined();
    }
  });
});
