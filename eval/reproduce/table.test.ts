import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import '../../agents/systems.js'; // the agent systems' list (a recipe names them), handed to eval
import { loadRecipe } from './recipe.js';
import { runDirOf } from './reproduction-dir.js';
import { buildTable, tableMarkdown } from './table.js';
import { headlineFigures } from '../systems.js';

const dir = mkdtempSync(join(tmpdir(), 'repro-table-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A finished baseline run of 12 Bar Exam QA items, `right` of them answered correctly. */
function writeRun(runId: string, right: number) {
  const d = runDirOf(dir, runId);
  mkdirSync(d, { recursive: true });
  const lines = Array.from({ length: 12 }, (_, i) => {
    const prediction = i < right ? 'A' : 'B';
    return JSON.stringify({ id: `mbe_${100 + i}`, prediction, gold: 'A', correct: prediction === 'A', ms: 5 });
  });
  writeFileSync(join(d, 'results.jsonl'), `${lines.join('\n')}\n`);
}

/** The results.jsonl of run `runId` of the reproduction in `base`: 10 items, the i-th `line(i)`. */
function writeTenItems(base: string, runId: string, line: (i: number) => object) {
  const d = runDirOf(base, runId);
  mkdirSync(d, { recursive: true });
  writeFileSync(join(d, 'results.jsonl'), `${Array.from({ length: 10 }, (_, i) => JSON.stringify(line(i))).join('\n')}\n`);
}

describe('reproduction table: comparable rows', () => {
  it('case-table2: a RAG row over the bundled index is † and raises no ⚠ however far it is from the paper; LLM-only still does', async () => {
    const { recipe } = loadRecipe('case-table2');
    writeRun('bm25-rag-k3', 3);
    writeRun('llm-only', 3);
    const runs = ['bm25-rag-k3', 'llm-only'].map((id) => ({ id, system: 'baseline', status: 'done' as const }));
    const t = await buildTable(dir, recipe, { limit: 12, shard: null, runs });
    const bm25 = t.rows.find((r) => r.label === 'BM25-RAG')!;
    // before: comparable true, "paper 65.32 · lexcase 25.00 [8.89, 53.23] n=12 ⚠"
    expect(bm25.comparable).toBe(false);
    expect(bm25.cells[0]).toMatchObject({ paper: 65.32, value: 25, n: 12, outsideCi: null });
    const llmOnly = t.rows.find((r) => r.label === 'LLM-Only')!;
    expect(llmOnly.comparable).toBe(true);
    expect(llmOnly.cells[0]).toMatchObject({ paper: 65.32, value: 25, outsideCi: true });
    const md = tableMarkdown(t);
    expect(md).toMatch(/\| BM25-RAG † \| paper 65\.32 · lexcase 25\.00 \[8\.89, 53\.23\] 95% Wilson n=12 \|/);
    expect(md).toMatch(/\| LLM-Only (\| *)+\| paper 65\.32 · lexcase 25\.00 \[8\.89, 53\.23\] 95% Wilson n=12 ⚠ \|/);
  });
});

describe('reproduction table: the index the runs used', () => {
  it('case-table2 and case-table4 state the passage count of the index the runs used (its config.json), not a count typed into the recipe', async () => {
    const sub = join(dir, 'own-index');
    const writeAgentRun = (runId: string) => {
      const d = runDirOf(sub, runId);
      mkdirSync(d, { recursive: true });
      writeFileSync(
        join(d, 'results.jsonl'),
        `${Array.from({ length: 12 }, (_, i) => JSON.stringify({ id: `mbe_${300 + i}`, prediction: 'A', gold: 'A', correct: true, ms: 5 })).join('\n')}\n`,
      );
      // what a CASE / baseline run records of its index (agents/case/experiment.ts indexContent)
      const indexContent = { corpus: 'my-pool', checksum: 'c0ffee', passages: 48213, analyzer: 'english' };
      writeFileSync(join(d, 'config.json'), JSON.stringify({ seed: 13, config: { system: 'baseline', indexContent } }));
    };
    for (const [id, runIds] of [
      ['case-table2', ['llm-only', 'bm25-rag-k3']],
      ['case-table4', ['case-bm25-qld']],
    ] as const) {
      const { recipe } = loadRecipe(id);
      const ids = runIds.filter((r) => recipe.runs.some((x) => x.id === r));
      expect(ids.length, `${id} runs`).toBeGreaterThan(0);
      for (const r of ids) writeAgentRun(r);
      const t = await buildTable(sub, recipe, { limit: 12, shard: null, runs: ids.map((r) => ({ id: r, system: 'baseline', status: 'done' as const })) });
      const text = t.notes.join('\n');
      // before: only "the bundled corpus has 6,142 passages", whatever index the runs used
      expect(text).not.toContain('6,142');
      expect(text).toContain(
        `${ids.length === 1 ? 'Run' : 'Runs'} ${ids.join(', ')} ${ids.length === 1 ? 'was' : 'were'} given the index of corpus "my-pool" (48,213 passages).`,
      );
    }
  });
});

describe('reproduction table: the model and sampling the runs sent', () => {
  it("names each LLM run's model and sampling from its config.json, and which values are the paper's, lexcase's default or set for the run", async () => {
    const sub = join(dir, 'sampling');
    const write = (runId: string, model: object) => {
      const d = runDirOf(sub, runId);
      mkdirSync(d, { recursive: true });
      writeFileSync(join(d, 'results.jsonl'), `${JSON.stringify({ id: 'mbe_1', prediction: 'A', gold: 'A', correct: true, ms: 5 })}\n`);
      writeFileSync(join(d, 'config.json'), JSON.stringify({ seed: 13, config: { system: 'case', model } }));
    };
    // what run case / run baseline record (core: the public LLM config with paperDefaults)
    write('llm-only', { model: 'qwen2.5-7b', temperature: 0.3, paperDefaults: { system: 'baseline', fromPaper: ['temperature'] } });
    write('bm25-rag-k3', { model: 'qwen2.5-7b', temperature: 0.3, paperDefaults: { system: 'baseline', fromPaper: ['temperature'] } });
    write('bm25-rag-k5', { model: 'qwen2.5-7b', temperature: 0.7, paperDefaults: { system: 'baseline', fromPaper: [] } });
    const { recipe } = loadRecipe('case-table2');
    const runs = ['llm-only', 'bm25-rag-k3', 'bm25-rag-k5'].map((id) => ({ id, system: 'baseline', status: 'done' as const }));
    const notes = (await buildTable(sub, recipe, { limit: 1, shard: null, runs })).notes;
    // before: the table named neither the model nor the temperature a run was made at
    expect(notes).toContain(
      "Runs llm-only, bm25-rag-k3 sent model qwen2.5-7b, temperature 0.3 (the paper's); top-p and max_tokens not sent (the endpoint's defaults).",
    );
    expect(notes).toContain(
      "Run bm25-rag-k5 sent model qwen2.5-7b, temperature 0.7 (set for the run); top-p and max_tokens not sent (the endpoint's defaults).",
    );
    write('case-bm25-qld', { model: 'm', temperature: 0.3, paperDefaults: { system: 'case', fromPaper: [], lexcaseDefaults: ['temperature'] } });
    const t4 = await buildTable(sub, loadRecipe('case-table4').recipe, {
      limit: 1,
      shard: null,
      runs: [{ id: 'case-bm25-qld', system: 'case', status: 'done' }],
    });
    expect(t4.notes).toContain(
      "Run case-bm25-qld sent model m, temperature 0.3 (lexcase's default: the paper gives none); top-p and max_tokens not sent (the endpoint's defaults).",
    );
  });
});

describe('reproduction table: failed items', () => {
  it('case-table2: a cell counts its failed items (HTTP errors, no prediction) in table.json and table.md, and its ⚠ says it may come from them', async () => {
    const { recipe } = loadRecipe('case-table2');
    const d = runDirOf(dir, 'llm-only');
    mkdirSync(d, { recursive: true });
    // 10 Bar Exam QA items: 4 failed with an HTTP 400 (no prediction), 1 right, 5 wrong
    const lines = Array.from({ length: 10 }, (_, i) =>
      JSON.stringify(
        i < 4
          ? { id: `mbe_${300 + i}`, prediction: null, gold: 'A', correct: false, ms: 5, error: 'LLM_HTTP: 400 audit: bad request' }
          : { id: `mbe_${300 + i}`, prediction: i === 4 ? 'A' : 'B', gold: 'A', correct: i === 4, ms: 5 },
      ),
    );
    writeFileSync(join(d, 'results.jsonl'), `${lines.join('\n')}\n`);
    const t = await buildTable(dir, recipe, { limit: 10, shard: null, runs: [{ id: 'llm-only', system: 'baseline', status: 'done' }] });
    const cell = t.rows.find((r) => r.label === 'LLM-Only')!.cells[0];
    // before: { value: 10, n: 10, outsideCi: true } and no word of the 4 failures
    expect(cell).toMatchObject({
      value: 10,
      n: 10,
      failed: 4,
      failedNote: 'counted as wrong',
      outsideCi: true,
      flagNote: 'may come from the 4 failed items (counted as wrong)',
    });
    expect(tableMarkdown(t)).toContain(
      'paper 65.32 · lexcase 10.00 [1.79, 40.42] 95% Wilson n=10 (4 failed, counted as wrong) ⚠ (may come from the failed items)',
    );
  });
});

describe('reproduction table: a cell whose every item failed', () => {
  it('case-table3: a finished retrieval run whose 10 searches all failed reads — (10 failed, left out of n), failed 10 (before: "— (no items)", failed 0)', async () => {
    const { recipe } = loadRecipe('case-table3');
    const sub = join(dir, 'all-failed');
    for (const id of ['bm25', 'qld'])
      writeTenItems(sub, id, (i) => ({
        id: `mbe_${200 + i}`,
        prediction: null,
        gold: `p${i}`,
        correct: false,
        ms: 3,
        error: 'RETRIEVAL_FAILED: the index could not be read',
      }));
    const runs = [
      { id: 'bm25', system: 'retrieval', status: 'done' as const },
      { id: 'qld', system: 'retrieval', status: 'done' as const },
    ];
    const t = await buildTable(sub, recipe, { limit: 10, shard: null, runs });
    const cell = t.rows.find((r) => r.label === 'BM25-RAG')!.cells[0];
    expect(cell).toMatchObject({ value: null, n: 0, failed: 10, failedNote: 'left out of n', status: 'done' });
    expect(tableMarkdown(t)).toContain('lexcase — (10 failed, left out of n; none in n)');
    expect(tableMarkdown(t)).not.toContain('no items');
  });
});

describe('reproduction table: a run that did not finish', () => {
  /** A finished retrieval run of 10 Bar Exam QA questions: every gold passage in the top 1000, none in the top 100. */
  function writeRetrievalRun(runId: string) {
    const d = runDirOf(dir, runId);
    mkdirSync(d, { recursive: true });
    const lines = Array.from({ length: 10 }, (_, i) =>
      JSON.stringify({
        id: `mbe_${200 + i}`,
        prediction: null,
        gold: `p${i}`,
        correct: false,
        ms: 3,
        metrics: { 'recall@10': 0, 'recall@100': 0, 'recall@1000': 1, goldInIndex: true },
      }),
    );
    writeFileSync(join(d, 'results.jsonl'), `${lines.join('\n')}\n`);
  }

  it("case-table3: a failed run's results from an earlier attempt are not shown as its figures: the cell reads — (failed)", async () => {
    const { recipe } = loadRecipe('case-table3');
    writeRetrievalRun('bm25');
    writeRetrievalRun('qld');
    const runs = [
      {
        id: 'bm25',
        system: 'retrieval',
        status: 'failed' as const,
        error: 'run runs/bm25: was started with a different config (field "ks" differs); use a new run dir',
      },
      { id: 'qld', system: 'retrieval', status: 'done' as const },
    ];
    const t = await buildTable(dir, recipe, { limit: 10, shard: null, runs });
    const bm25 = t.rows.find((r) => r.label === 'BM25-RAG')!;
    // before: value 1, n 10, status "failed" — the earlier attempt's Recall@1000 printed as the current one
    expect(bm25.cells.map((c) => [c.value, c.n, c.status])).toEqual([
      [null, 0, 'failed'],
      [null, 0, 'failed'],
      [null, 0, 'failed'],
    ]);
    // a retrieval item's prediction is null when nothing ranks: a miss, not a failure
    expect(t.rows.find((r) => r.label === 'QLM-RAG')!.cells[2]).toMatchObject({ value: 1, n: 10, failed: 0, status: 'done' });
    const md = tableMarkdown(t);
    expect(md).toMatch(
      /\| BM25-RAG † \| paper 0\.0000 · lexcase — \(failed\) \| paper 0\.0323 · lexcase — \(failed\) \| paper 0\.1048 · lexcase — \(failed\) \|/,
    );
    expect(md).toMatch(/\| QLM-RAG † \| paper 0\.0000 · lexcase 0\.0000 \[0\.0000, 0\.2775\] 95% Wilson n=10 \|/);
    // the notes describe the runs whose figures the table shows, not the failed one's old results
    expect(t.notes.filter((n) => n.startsWith('Run '))).toEqual([expect.stringMatching(/^Run qld searched/)]);
    expect(md).toContain('`bm25` (retrieval): failed — run runs/bm25: was started with a different config (field "ks" differs)');
  });
});

describe('reproduction table: trec topics without hits', () => {
  it('anserini-cacm: a topic a run got no hit for is named beside the cell n it is left out of, in table.json, table.md and the notes (before: n=11 of 12 topics with no word)', async () => {
    const { recipe } = loadRecipe('anserini-cacm');
    const sub = join(dir, 'cacm');
    const d = runDirOf(sub, 'bm25');
    mkdirSync(d, { recursive: true });
    // what trec-run.ts records: per topic its hits and trec_eval's measures; a topic with no hit has no run line, measures null
    const lines = Array.from({ length: 12 }, (_, i) => {
      const id = String(i + 1);
      const none = id === '7';
      const metrics = none ? { retrieved: 0, map: null, 'p@30': null } : { retrieved: 1000, map: 0.25 + i / 100, 'p@30': 0.2 };
      return JSON.stringify({ id, prediction: none ? null : `CACM-${1000 + i}`, gold: '', correct: false, metrics, ms: 2 });
    });
    writeFileSync(join(d, 'results.jsonl'), `${lines.join('\n')}\n`);
    const t = await buildTable(sub, recipe, { limit: null, shard: null, runs: [{ id: 'bm25', system: 'trec', status: 'done' as const }] });
    const bm25 = t.rows.find((r) => r.label === 'BM25')!;
    expect(bm25.cells.map((c) => [c.column, c.n, c.noHits])).toEqual([
      ['MAP', 11, { count: 1, examples: ['7'] }],
      ['P30', 11, { count: 1, examples: ['7'] }],
    ]);
    const note =
      "Run bm25 returned no hits for 1 topic (7): it is left out of its cells' n and mean, as trec_eval skips a topic with no line in the run file (`eval run --complete` of its run.txt would score it 0).";
    expect(t.notes).toContain(note);
    const md = tableMarkdown(t);
    expect(md).toContain(`- ${note}`);
    expect(md).toMatch(/\| BM25 \| paper 0\.3123 · lexcase 0\.3045 \[[\d.]+, [\d.]+\] 95% bootstrap n=11 \(1 without hits left out\) \|/);
  });
});

/** The cells of a GFM pipe-table row, split where GitHub splits them: at a `|` not escaped by a backslash. */
function gfmCells(row: string): string[] {
  const cells: string[] = [];
  let cell = '';
  const body = row.trim().replace(/^\|/, '');
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '\\' && i + 1 < body.length) cell += body[i] + body[++i];
    else if (body[i] === '|') {
      cells.push(cell.trim());
      cell = '';
    } else cell += body[i];
  }
  if (cell.trim()) cells.push(cell.trim());
  return cells;
}

describe('reproduction table: a recipe of your own whose names hold a "|"', () => {
  it('a row label "BM25 | Lucene" and a column "R@10 | val" stay one cell each: every figure stays under its header', async () => {
    const own = mkdtempSync(join(dir, 'own-'));
    for (const runId of ['bm25', 'qld'])
      writeTenItems(own, runId, (i) => ({
        id: `mbe_${300 + i}`,
        prediction: null,
        gold: `p${i}`,
        correct: false,
        ms: 3,
        metrics: { 'recall@10': i < 2 ? 1 : 0, 'recall@100': i < 5 ? 1 : 0, 'recall@1000': 1, goldInIndex: true },
      }));
    const base = loadRecipe('case-table3').recipe;
    const file = join(own, 'my-table.json');
    const rename = (c: string) => (c === 'Recall@10' ? 'R@10 | val' : c);
    writeFileSync(
      file,
      JSON.stringify({
        ...base,
        id: 'my-table',
        runs: base.runs.filter((r) => r.id !== 'dense'),
        columns: base.columns.map(rename),
        rows: base.rows
          .filter((r) => r.cells.every((c) => c.run !== 'dense'))
          .map((r, i) => ({ ...r, label: i === 0 ? 'BM25 | Lucene' : r.label, cells: r.cells.map((c) => ({ ...c, column: rename(c.column) })) })),
      }),
    );
    const { recipe } = loadRecipe(file);
    const runs = ['bm25', 'qld'].map((id) => ({ id, system: 'retrieval', status: 'done' as const }));
    const t = await buildTable(own, recipe, { limit: 10, shard: null, runs });
    const rows = tableMarkdown(t)
      .split('\n')
      .filter((l) => l.startsWith('|'));
    const [head, , ...body] = rows.map(gfmCells);
    // before: the header had 5 cells over 4 columns and the BM25 row 5, so its Recall@100 figure stood under "R@10"'s neighbour
    expect(head).toEqual(['Table 3', 'R@10 \\| val', 'Recall@100', 'Recall@1000']);
    expect(body.map((r) => r.length)).toEqual([4, 4]);
    expect(body[0][0]).toBe('BM25 \\| Lucene †');
    expect(body[0][1]).toMatch(/^paper 0\.0000 · lexcase 0\.2000 /);
    expect(body[0][2]).toMatch(/^paper 0\.0323 · lexcase 0\.5000 /);
    expect(body[0][3]).toMatch(/^paper 0\.1048 · lexcase 1\.0000 /);
  });
});

describe('reproduction table: the bootstrap a run recorded', () => {
  it('acal-table3: a run recorded with --iterations 200 shows the interval its report and the explorer show (config.bootstrap), not one of 2000 resamples', async () => {
    const sub = join(dir, 'acal-bootstrap');
    const d = runDirOf(sub, 'sp-courts');
    mkdirSync(d, { recursive: true });
    // 24 courts items, yes/no: a macro F1 whose bootstrap interval moves with the resample count
    const pred = 'yyyyynnnnnyyyyyyynnnnnyy';
    const gold = 'yyyynnnnnnyyyyynnnnyyyyn';
    const records = [...pred].map((p, i) => {
      const prediction = p === 'y' ? 'Yes' : 'No';
      const g = gold[i] === 'y' ? 'Yes' : 'No';
      return { id: `courts_${i}`, prediction, gold: g, correct: prediction === g, ms: 5 };
    });
    writeFileSync(join(d, 'results.jsonl'), `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const config = { system: 'acal', task: 'learned_hands_courts', split: 'test', k: 5, bootstrap: { iterations: 200 } };
    writeFileSync(join(d, 'config.json'), JSON.stringify({ seed: 13, config, provenance: { lexcaseSystem: 'acal' } }));
    const t = await buildTable(sub, loadRecipe('acal-table3').recipe, {
      limit: null,
      shard: null,
      runs: [{ id: 'sp-courts', system: 'acal', status: 'done' }],
    });
    const cell = t.rows[0].cells.find((c) => c.column === 'Courts F1')!;
    const fig = (iterations?: number) => headlineFigures('acal', records, { config, ...(iterations ? { iterations } : {}) }).find((f) => /F1/i.test(f.label))!;
    const pct = (x: number) => Number((x * 100).toFixed(2));
    const own = fig(200);
    expect(cell.ci).toEqual([pct(own.lo!), pct(own.hi!)]);
    const dflt = fig();
    expect(cell.ci).not.toEqual([pct(dflt.lo!), pct(dflt.hi!)]);
  });
});

describe('reproduction table: how an F1 cell counts failed items', () => {
  it('emar-table4: accuracy counts a failed item as wrong, micro- and macro-F1 as no prediction (a missed gold label): said so in each cell', async () => {
    const sub = join(dir, 'emar-failed');
    const d = runDirOf(sub, 'emar-hearsay');
    mkdirSync(d, { recursive: true });
    // 10 hearsay items: 2 failed, then 5 right and 3 wrong
    const records = Array.from({ length: 10 }, (_, i) => {
      const gold = i % 2 ? 'Yes' : 'No';
      if (i < 2) return { id: `hearsay_${i}`, prediction: null, gold, correct: false, ms: 5, error: 'LLM_HTTP: 400 bad request' };
      const prediction = i < 7 ? gold : gold === 'Yes' ? 'No' : 'Yes';
      return { id: `hearsay_${i}`, prediction, gold, correct: prediction === gold, ms: 5 };
    });
    writeFileSync(join(d, 'results.jsonl'), `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const t = await buildTable(sub, loadRecipe('emar-table4').recipe, {
      limit: 10,
      shard: null,
      runs: [{ id: 'emar-hearsay', system: 'emar', status: 'done' }],
    });
    const row = t.rows.find((r) => r.cells.some((c) => c.run === 'emar-hearsay'))!;
    const note = (column: string) => row.cells.find((c) => c.column === column)!;
    expect(note('Accuracy')).toMatchObject({ failed: 2, failedNote: 'counted as wrong', value: 50 });
    // before: "counted as wrong" beside a micro-F1 of 55.56 over the same items (accuracy 50): a failed item is a missed gold label there
    expect(note('Mic.F1')).toMatchObject({ failed: 2, failedNote: 'counted as no prediction' });
    expect(note('Mic.F1').value).toBeGreaterThan(50);
    expect(note('Mac.F1')).toMatchObject({ failed: 2, failedNote: 'counted as no prediction' });
  });
});
