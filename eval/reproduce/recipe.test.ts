import { readdirSync, readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRecipe, parseRecipe, recipesDir } from './recipe.js';
import '../../agents/systems.js'; // the agent systems' list (a recipe names them), handed to eval
import { runArgv } from './run-argv.js';
import { parseShard, shardItems } from './shard.js';

const files = readdirSync(recipesDir()).filter((f) => f.endsWith('.json'));

describe('recipes/', () => {
  it('holds a recipe for each paper: CASE Tables 2–4, ACAL Tables 3–4, MAD, 3-ply Tables 2–4, EMAR Table 4, and Anserini on CACM', () => {
    expect(files.map((f) => f.replace('.json', '')).sort()).toEqual(
      [
        'acal-table3',
        'acal-table4',
        'anserini-cacm',
        'case-table2',
        'case-table3',
        'case-table4',
        'emar-table4',
        'mad-rounds',
        'threeply-table2',
        'threeply-table3',
        'threeply-table4',
      ].sort(),
    );
  });

  it.each(files)('%s validates, its id is its file name, and every cell names a run and a column of the recipe', (f) => {
    const { recipe } = loadRecipe(join(recipesDir(), f));
    expect(recipe.id).toBe(f.replace('.json', ''));
    for (const row of recipe.rows)
      for (const c of row.cells) {
        expect(recipe.runs.map((r) => r.id)).toContain(c.run);
        expect(recipe.columns).toContain(c.column);
      }
  });

  it("a CASE recipe that narrows --tools keeps rewrite, the paper's LLM-based query formulation (§4: every advocate has it), and says so in its differences", () => {
    for (const f of files) {
      const { recipe } = loadRecipe(join(recipesDir(), f));
      const narrowed = recipe.runs.filter((r) => r.system === 'case' && typeof r.args.tools === 'string');
      // before 2026-12-01: case-table4 ran every row with --tools bm25,dense[,qld], without the query-formulation tool
      for (const r of narrowed) expect([f, r.id, String(r.args.tools).split(',').includes('rewrite')]).toEqual([f, r.id, true]);
      if (narrowed.length) expect(recipe.differences.join('\n'), f).toMatch(/LLM-based query formulation/);
    }
  });

  it("carries the paper's printed numbers (spot checks against the papers)", () => {
    const paperOf = (id: string, row: string, col: string) =>
      loadRecipe(id)
        .recipe.rows.find((r) => r.label === row)!
        .cells.find((c) => c.column === col)!.paper;
    expect(paperOf('case-table2', 'QLM-RAG', 'Acc@3')).toBe(67.74);
    expect(paperOf('case-table3', 'BM25-RAG', 'Recall@1000')).toBe(0.1048);
    expect(paperOf('case-table4', 'CASE (BM25, RAG)', 'Low conf.')).toBe(53.06);
    expect(paperOf('acal-table3', 'ACAL (Ours) · Gemini-2.5-Flash-Lite', 'Hearsay F1')).toBe(74.4);
    expect(paperOf('acal-table4', 'CR ✓ · UAE ✗', 'Acc')).toBe(72.8);
    expect(paperOf('threeply-table4', 'Reflective Multi-Agent · Llama-4-Scout-17b-16e', 'Non-Arguable')).toBe(42.22);
    expect(paperOf('emar-table4', 'CVC · LFPBench', 'Mic.F1')).toBe(50.93);
  });

  it("CASE rows that retrieve from the index are † (the bundled 6,142 passages, not the paper's 856,835); LLM-only and the gold passage stay comparable", () => {
    const retrieves = (run: { system: string; args: Record<string, unknown> }) =>
      run.system === 'retrieval' || run.system === 'case' || (run.system === 'baseline' && String(run.args.mode).endsWith('-rag'));
    for (const id of ['case-table2', 'case-table3', 'case-table4']) {
      const { recipe } = loadRecipe(id);
      const rows = recipe.rows.filter((row) => row.cells.some((c) => !recipe.runs.find((r) => r.id === c.run)!.unavailable));
      for (const row of rows) {
        const runs = row.cells.map((c) => recipe.runs.find((r) => r.id === c.run)!);
        expect([id, row.label, row.comparable]).toEqual([id, row.label, !runs.some(retrieves)]);
      }
    }
    const t2 = loadRecipe('case-table2').recipe.rows;
    expect(t2.filter((r) => r.comparable).map((r) => r.label)).toEqual(['L-MARS', 'LLM-Only', 'Self-RAG', 'Gold passage in the prompt (§5.5, 90/124)']);
  });

  it('CASE and EMAR recipes name their papers by their titles and list the settings the paper gives that their runs do not follow', () => {
    for (const id of ['case-table2', 'case-table3', 'case-table4']) expect(loadRecipe(id).recipe.paper).toContain('CASE: Conflict-Aware Synthesis of Evidence');
    expect(loadRecipe('emar-table4').recipe.paper).toContain('Evidence-Logic-Integrated Multi-Agent Argumentation');
    const emar = loadRecipe('emar-table4').recipe.differences.join('\n');
    for (const setting of ['DeepSeek-V3.2', '||Claim^A - Claim^B||_1 <= epsilon', 'J <- Judge(F, P)', 'prints no prompts']) expect(emar).toContain(setting);
    const case4 = loadRecipe('case-table4').recipe.differences.join('\n');
    for (const setting of ['no k for the advocates', 'k = 5', 'temperature 0.3']) expect(case4).toContain(setting);
    // the sparse baselines' analyzers: Pyserini's for BM25, lowercase + white-space split for the paper's own QLM
    for (const id of ['case-table2', 'case-table3']) {
      const diffs = loadRecipe(id).recipe.differences.join('\n');
      for (const setting of ['--analyzer lucene', 'split at white space with no stopwords and no stemming']) expect(diffs).toContain(setting);
    }
  });

  it('rejects a bad recipe naming the file and the field', () => {
    const dir = mkdtempSync(join(tmpdir(), 'recipe-'));
    try {
      const good = JSON.parse(readFileSync(join(recipesDir(), 'case-table3.json'), 'utf8'));
      good.rows[1].cells[0].run = 'bm26';
      const file = join(dir, 'bad.json');
      writeFileSync(file, JSON.stringify(good));
      expect(() => loadRecipe(file)).toThrow(/bad\.json.*rows\[1\]\.cells\[0\]\.run: no run with id "bm26"/s);
      expect(() => parseRecipe({ ...good, scale: 10 }, 'x.json')).toThrow(/x\.json.*scale/s);
      expect(() => loadRecipe('no-such-recipe')).toThrow(/recipe "no-such-recipe" not found/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the args of a retrieval or trec run', () => {
  it('a key the cell does not read, or a seed that is no number, is refused naming the field (a qld cell given mu 50 or split-seed "7" ran the defaults)', () => {
    const good = JSON.parse(readFileSync(join(recipesDir(), 'case-table3.json'), 'utf8'));
    const withArgs = (args: Record<string, unknown>) => ({
      ...good,
      runs: good.runs.map((r: { id: string; args: object }, i: number) => (i === 1 ? { ...r, args: { ...r.args, ...args } } : r)),
    });
    expect(() => parseRecipe(withArgs({ mu: 50 }), 'x.json')).toThrow(
      /x\.json.*runs\[1\]\.args\.mu: a retrieval run does not take "mu"; .*it takes method, index/s,
    );
    expect(() => parseRecipe(withArgs({ k: 3 }), 'x.json')).toThrow(/args\.k: a retrieval run does not take "k"; did you mean "ks"\?/);
    expect(() => parseRecipe(withArgs({ 'split-seed': '7' }), 'x.json')).toThrow(/args\.split-seed: a whole number \(e\.g\. 13\), got "7"/);
    expect(parseRecipe(withArgs({ 'split-seed': 7 }), 'x.json').runs[1].args['split-seed']).toBe(7);
    const cacm = JSON.parse(readFileSync(join(recipesDir(), 'anserini-cacm.json'), 'utf8'));
    cacm.runs[0].args.k2 = 1.2;
    expect(() => parseRecipe(cacm, 'x.json')).toThrow(/args\.k2: a trec run does not take "k2"; did you mean "k1"\?/);
  });
});

describe('needs.ownDataOnly', () => {
  const good = () => JSON.parse(readFileSync(join(recipesDir(), 'anserini-cacm.json'), 'utf8'));

  it('is true for anserini-cacm (CACM is only ever your copy) and false where something bundled runs (acal-table3: hearsay is bundled)', () => {
    const own = files.filter((f) => loadRecipe(join(recipesDir(), f)).recipe.needs.ownDataOnly).map((f) => f.replace('.json', ''));
    expect(own).toEqual(['anserini-cacm']);
    expect(loadRecipe('acal-table3').recipe.needs.data.length).toBeGreaterThan(0);
    expect(loadRecipe('case-table3').recipe.needs.ownDataOnly).toBe(false); // the default when absent
  });

  it('rejects a value that is not a boolean, and true with no data named, naming the field', () => {
    const g = good();
    expect(() => parseRecipe({ ...g, needs: { ...g.needs, ownDataOnly: 'yes' } }, 'x.json')).toThrow(/x\.json.*needs\.ownDataOnly: .*boolean/s);
    expect(() => parseRecipe({ ...g, needs: { ...g.needs, ownDataOnly: 1 } }, 'x.json')).toThrow(/needs\.ownDataOnly/);
    expect(() => parseRecipe({ ...g, needs: { ...g.needs, data: [] } }, 'x.json')).toThrow(/needs\.ownDataOnly: true, but needs\.data names no data/);
  });
});

describe('run argv and shards', () => {
  it('turns recipe args into `lexcase run` flags, with the run dir, --limit, --index and negated booleans', () => {
    const { recipe } = loadRecipe('acal-table4');
    const run = recipe.runs.find((r) => r.id === 'acal-cr0-uae1')!;
    expect(runArgv(run, { runDir: 'R/runs/x', limit: 2, index: 'idx' })).toEqual([
      'run',
      'acal',
      '--task',
      'hearsay',
      '--system',
      'acal',
      '--split',
      'test',
      '--k',
      '5',
      '--semantics',
      'quadratic',
      '--no-clash',
      '--run-dir',
      'R/runs/x',
      '--limit',
      '2',
      '--index',
      'idx',
    ]);
    const tp = loadRecipe('threeply-table2').recipe.runs[0];
    expect(runArgv(tp, { runDir: 'd', limit: 2 })).toEqual([
      'run',
      'threeply',
      '--system',
      'single',
      '--scenarios',
      'arguable,mismatched,non-arguable',
      '--n',
      '2',
      '--complexity',
      '5',
      '--source',
      'synthetic',
      '--seed',
      '13',
      '--run-dir',
      'd',
    ]);
  });

  it('splits items round-robin: every item in exactly one shard', () => {
    const items = Array.from({ length: 7 }, (_, i) => i);
    const parts = [1, 2, 3].map((index) => shardItems(items, { index, count: 3 }));
    expect(parts).toEqual([
      [0, 3, 6],
      [1, 4],
      [2, 5],
    ]);
    expect(() => parseShard('3/2')).toThrow(/--shard must be i\/n/);
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
  });
});
