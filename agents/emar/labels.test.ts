/**
 * EMAR's macro-F1 label set comes from the options its items have (agents/emar/cases.ts itemLabels),
 * recorded in config.json as `labels`: a question file with five options averages over A–E on every
 * surface (the run table, report.md's EMAR section, the headline figure), not over the A–D of the
 * bundled Bar Exam QA; the bundled questions keep A–D, and a run dir an older lexcase wrote (no
 * `labels`) resumes and is read over its dataset's set.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { llmConfigSchema } from '../../core/config.js';
import { createChatModel } from '../../core/llm/factory.js';
import { loadQuestions } from '../../corpora/registry.js';
import { headlineFigures } from '../../eval/systems.js';
import { schemaFollowing, startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import '../systems.js'; // the agent systems' list, handed to eval (the headline figures)
import { runEmarExperiment, type EmarItem } from './experiment.js';
import { bowEmbedder } from './test-support/bow-embedder.js';

let dir: string;
let srv: ScriptedServer;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'emar-labels-'));
  // every party and the judge answer E where E is an option (else the first option, as the schema's instance)
  srv = await startScriptedServer(
    schemaFollowing({
      fill: (v, req) => (v && typeof v === 'object' && 'answer' in v && JSON.stringify(req.body).includes('"E"') ? { ...v, answer: 'E' } : v),
    }),
  );
}, 60_000);
afterAll(async () => {
  await srv.close();
  rmSync(dir, { recursive: true, force: true });
});

const llm = () => createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'm', cacheDir: false, maxRetries: 0, timeoutMs: 10_000 }));
const run = (runDir: string, items: EmarItem[]) =>
  runEmarExperiment({
    runDir,
    dataset: 'barexam',
    split: 'all',
    items,
    model: llm(),
    embedder: bowEmbedder(),
    epsilon: 0.9,
    maxDepth: 1,
    convergence: 'stance',
    seed: 13,
    llm: { model: 'm' },
  });

describe('EMAR macro-F1 label set', () => {
  it('a question file with five options averages macro-F1 over A–E (recorded as labels), not A–D: every answer E, golds five E and five A → 13.3%, not 0.0%', async () => {
    const file = join(dir, 'five.jsonl');
    const rows = [...Array(10)].map((_, i) => ({
      id: `q${i}`,
      prompt: `Facts of case ${i}: a landowner built a fence ${i} feet over the line.`,
      question: 'Which claim succeeds?',
      choices: ['Trespass', 'Nuisance', 'Adverse possession', 'Conversion', 'None of them'],
      answer: i < 5 ? 'E' : 'A',
      gold_idx: '',
    }));
    writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const items = (await loadQuestions('barexam', 'all', { file })).map((q) => ({ ...q, kind: 'question' as const }));
    const runDir = join(dir, 'five');
    const { summary, markdown } = await run(runDir, items);
    const config = JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8')).config;
    expect(config.labels).toEqual(['A', 'B', 'C', 'D', 'E']);
    // E: TP 5, FP 5 → F1 2/3; A–D: 0 → macro-F1 (2/3) / 5 (before: over A–D, 0)
    expect(summary.accuracy).toBe(0.5);
    expect(summary.macroF1).toBeCloseTo(2 / 3 / 5, 12);
    expect(markdown).toMatch(/\| barexam\/all \| +10 \| +50\.0% [^|]*\| +13\.3% /);
    const results = readFileSync(join(runDir, 'results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const figure = headlineFigures('emar', results, { config }).find((f) => f.id === 'macro-f1')!;
    expect(figure.estimate).toBeCloseTo(2 / 3 / 5, 12);
    // golds five E and five A: B, C and D have no gold item, so no model reads above 2 of 5
    expect(figure.note).toMatch(
      /^mean F1 over the labels A, B, C, D, E; no gold item has the labels B, C, D among the 10 items scored: .* at most 40\.0% here/,
    );
    expect(readFileSync(join(runDir, 'report.md'), 'utf8')).toMatch(/\| barexam\/all \| +10 \| +50\.0% [^|]*\| +13\.3% /);
  }, 120_000);

  it('the bundled Bar Exam QA questions record A–D; a run dir without labels (an older lexcase) resumes and is read over A–D', async () => {
    const items = (await loadQuestions('barexam', 'val')).slice(0, 2).map((q) => ({ ...q, kind: 'question' as const }));
    const runDir = join(dir, 'bundled');
    await run(runDir, items.slice(0, 1));
    const cfgFile = join(runDir, 'config.json');
    const old = JSON.parse(readFileSync(cfgFile, 'utf8'));
    expect(old.config.labels).toEqual(['A', 'B', 'C', 'D']);
    delete old.config.labels; // what an older lexcase wrote
    writeFileSync(cfgFile, JSON.stringify(old));
    const { run: r } = await run(runDir, items);
    expect(r).toMatchObject({ ran: 1, skipped: 1 });
    const config = JSON.parse(readFileSync(cfgFile, 'utf8')).config;
    const results = readFileSync(join(runDir, 'results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(headlineFigures('emar', results, { config }).find((f) => f.id === 'macro-f1')!.note).toMatch(/^mean F1 over the labels A, B, C, D(;|$)/);
  }, 120_000);

  it('a run grown to items with a fifth option averages over A–E in config.json and report.md, as its own table does (report.md kept A–D: 87.5% beside 70.0%)', async () => {
    const file = join(dir, 'grow.jsonl');
    const rows = [...Array(6)].map((_, i) => ({
      id: `g${i}`,
      prompt: `Facts of case ${i}: a tenant left ${i} months before the lease ended.`,
      question: 'Which claim succeeds?',
      choices: ['Rent', 'Damages', 'Nothing', 'Specific performance', ...(i >= 4 ? ['Restitution'] : [])],
      answer: i >= 4 ? 'E' : 'A',
      gold_idx: '',
    }));
    writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const items = (await loadQuestions('barexam', 'all', { file })).map((q) => ({ ...q, kind: 'question' as const }));
    const runDir = join(dir, 'grow');
    await run(runDir, items.slice(0, 4));
    const cfgFile = join(runDir, 'config.json');
    expect(JSON.parse(readFileSync(cfgFile, 'utf8')).config.labels).toEqual(['A', 'B', 'C', 'D']);
    const { summary } = await run(runDir, items);
    const after = JSON.parse(readFileSync(cfgFile, 'utf8'));
    expect(after.config.labels).toEqual(['A', 'B', 'C', 'D', 'E']);
    expect(after.resumes.at(-1).grown).toMatchObject({ labels: { from: ['A', 'B', 'C', 'D'], to: ['A', 'B', 'C', 'D', 'E'] } });
    const results = readFileSync(join(runDir, 'results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const figure = headlineFigures('emar', results, { config: after.config }).find((f) => f.id === 'macro-f1')!;
    expect(figure.estimate).toBeCloseTo(summary.macroF1!, 12);
  }, 120_000);

  it('an option with no text is no label: four questions whose fifth option is empty record A–D', async () => {
    const file = join(dir, 'empty-e.jsonl');
    const rows = [...Array(4)].map((_, i) => ({
      id: `e${i}`,
      prompt: `Facts of case ${i}.`,
      question: 'Which claim succeeds?',
      choices: ['Rent', 'Damages', 'Nothing', 'Specific performance', ''],
      answer: 'A',
      gold_idx: '',
    }));
    writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const items = (await loadQuestions('barexam', 'all', { file })).map((q) => ({ ...q, kind: 'question' as const }));
    const runDir = join(dir, 'empty-e');
    await run(runDir, items);
    expect(JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8')).config.labels).toEqual(['A', 'B', 'C', 'D']);
  }, 120_000);
});
