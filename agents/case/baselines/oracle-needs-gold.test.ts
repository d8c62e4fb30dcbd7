/**
 * The oracle baseline's context is each question's gold passage(s). MMLU-Pro law (bundled,
 * `mmlu_pro_law`) has no gold passages, and `lexcase run baseline --mode oracle --dataset
 * mmlu_pro_law` used to run anyway: every prompt was the llm-only prompt (no passage), and report.md
 * printed its accuracy as the oracle's, exit 0. Now the run is refused before any item runs, and a
 * question without a gold id that reaches the oracle (the library path) fails that item, saying so.
 * Driven through the CLI and the real OpenAI client against a scripted server on 127.0.0.1, on the
 * bundled MMLU-Pro and Bar Exam questions.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadPassages, loadQuestions } from '../../../corpora/registry.js';
import type { Passage, Question } from '../../../corpora/types.js';
import { llmConfigSchema } from '../../../core/config.js';
import { createChatModel } from '../../../core/llm/factory.js';
import type { SystemContext } from '../../../eval/types.js';
import { buildIndex } from '../../../indexer/build.js';
import { closeSparseIndexes } from '../../../retrieval/open.js';
import { runCli } from '../../../tests/support/run-cli.js';
import { startScriptedServer, type ScriptedServer } from '../../../tests/support/scripted-openai-server.js';
import { createBaseline } from './baseline-system.js';

const LLM_VARS = ['LEXCASE_LLM_BASE_URL', 'OPENAI_BASE_URL', 'LEXCASE_LLM_MODEL', 'LEXCASE_LLM_API_KEY', 'OPENAI_API_KEY'];

let dir: string;
let index: string;
let barexam: Question[];
let srv: ScriptedServer;
const ANSWER = '{"reasoning":"r","answer":"A"}';
const itemRequests = () => srv.requests.filter((r) => JSON.stringify(r.body.messages).includes('Options:'));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-oracle-gold-'));
  index = join(dir, 'idx');
  barexam = (await loadQuestions('barexam', 'val')).slice(0, 2);
  const gold = new Set(barexam.flatMap((q) => q.goldPassageIds));
  const passages: Passage[] = [];
  for await (const p of loadPassages('barexam')) if (gold.has(p.id)) passages.push(p);
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out: index, corpusName: 'test', workers: 0 },
  );
  srv = await startScriptedServer(() => ({ content: ANSWER }));
}, 60_000);

afterAll(async () => {
  await srv.close();
  await closeSparseIndexes();
  rmSync(dir, { recursive: true, force: true });
});

afterEach(() => vi.unstubAllEnvs());

function stubLlm(): void {
  for (const v of LLM_VARS) vi.stubEnv(v, undefined as unknown as string);
  vi.stubEnv('LEXCASE_LLM_BASE_URL', srv.url);
  vi.stubEnv('LEXCASE_LLM_MODEL', 'scripted');
}

describe('run baseline --mode oracle needs gold passages', () => {
  it('on mmlu_pro_law (no gold passages) the run is refused, no item is sent, no results are written', async () => {
    stubLlm();
    const before = itemRequests().length;
    const runDir = join(dir, 'mmlu-oracle');
    const args = ['run', 'baseline', '--mode', 'oracle', '--dataset', 'mmlu_pro_law', '--limit', '3', '--index', index, '--run-dir', runDir, '--no-cache'];
    const r = await runCli(args);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('dataset "mmlu_pro_law" has none: none of the 3 questions of split "val" names a gold passage id');
    expect(r.stderr).toContain('datasets with gold passages: barexam');
    expect(itemRequests().length).toBe(before);
    expect(existsSync(join(runDir, 'results.jsonl'))).toBe(false);
    expect(existsSync(join(runDir, 'report.md'))).toBe(false);
  });

  it('on barexam the oracle still runs and each prompt carries the gold passage', async () => {
    stubLlm();
    const before = itemRequests().length;
    const runDir = join(dir, 'barexam-oracle');
    const args = ['run', 'baseline', '--mode', 'oracle', '--limit', '2', '--index', index, '--run-dir', runDir, '--no-cache'];
    const r = await runCli(args);
    expect(r.code).toBe(0);
    const sent = itemRequests().slice(before);
    expect(sent).toHaveLength(2);
    const results = readFileSync(join(runDir, 'results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(results.map((x) => [x.id, x.prediction, x.error])).toEqual(barexam.map((q) => [q.id, 'A', undefined]));
    for (const q of barexam) {
      const trace = JSON.parse(readFileSync(join(runDir, 'traces', `${q.id}.json`), 'utf8'));
      expect(trace.context.map((c: { id: string }) => c.id)).toEqual(q.goldPassageIds);
    }
  });

  it('a question without a gold id given to the oracle directly fails that item (no llm-only answer under the oracle name)', async () => {
    const [mmlu] = await loadQuestions('mmlu_pro_law', 'val');
    expect(mmlu.goldPassageIds).toEqual([]);
    const before = itemRequests().length;
    const llm = createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'scripted', cacheDir: false, maxRetries: 0 }));
    const ctx: SystemContext = { seed: 1, tools: [], retrievers: {}, llm, getPassage: async () => undefined, options: {} };
    const out = await createBaseline('oracle')(mmlu, ctx);
    expect(out.prediction).toBeNull();
    expect(out.error).toContain(`${mmlu.id} has no gold passage id: the oracle has no passage to show`);
    expect(itemRequests().length).toBe(before);
  });
});
