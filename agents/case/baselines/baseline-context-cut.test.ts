/**
 * A baseline's prompt shows each passage to its first 2,000 characters (CASE_PROMPT_LIMITS
 * baselinePassageChars): an oracle run whose gold passage is longer measures accuracy on the start of
 * that passage. The run counts it: the trace marks the passage `cutFrom`, report.md's CASE section
 * says how many were cut. Driven through the CLI and the real OpenAI client against a scripted
 * server on 127.0.0.1, on Bar Exam questions and their real gold passages.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadQuestions } from '../../../corpora/registry.js';
import type { Question } from '../../../corpora/types.js';
import { closeSparseIndexes } from '../../../retrieval/open.js';
import { buildBarexamIndex } from '../../../tests/support/barexam-index.js';
import { runCli } from '../../../tests/support/run-cli.js';
import { useScriptedLlm } from '../../../tests/support/scripted-llm-env.js';
import { startScriptedServer } from '../../../tests/support/scripted-openai-server.js';
import { CASE_PROMPT_LIMITS } from '../../common/defaults.js';

const LIMIT = CASE_PROMPT_LIMITS.baselinePassageChars;
const flat = (t: string) => t.replace(/\s+/g, ' ');

let dir: string;
let index: string;
let items: Question[];
let text: Map<string, string>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-context-cut-'));
  index = join(dir, 'idx');
  const all = await loadQuestions('barexam', 'all');
  ({ text } = await buildBarexamIndex(index));
  // the first question of the split whose gold passage is longer than the limit, and the ones before it
  const at = all.findIndex((q) => q.goldPassageIds.some((id) => flat(text.get(id) ?? '').length > LIMIT));
  expect(at).toBeGreaterThanOrEqual(0);
  items = all.slice(0, at + 1);
}, 60_000);

afterAll(async () => {
  await closeSparseIndexes();
  rmSync(dir, { recursive: true, force: true });
});

afterEach(() => vi.unstubAllEnvs());

describe('run baseline: passages cut for the prompt are counted', () => {
  it('an oracle run whose gold passage is longer than 2,000 characters marks it cutFrom in the trace and says so in report.md', async () => {
    const srv = await startScriptedServer(() => ({ content: '{"reasoning":"r","answer":"A"}' }));
    try {
      useScriptedLlm(srv.url);
      const runDir = join(dir, 'oracle');
      const r = await runCli([
        'run',
        'baseline',
        '--mode',
        'oracle',
        '--split',
        'all',
        '--limit',
        String(items.length),
        '--index',
        index,
        '--run-dir',
        runDir,
        '--no-cache',
      ]);
      expect(r.code).toBe(0);
      expect(srv.requests).toHaveLength(items.length);

      // what the model received, against the source data: the long gold passage is not in its prompt whole
      const prompts = srv.requests.map((q) => JSON.stringify(q.body.messages));
      let cut = 0;
      for (const q of items) {
        const trace = JSON.parse(readFileSync(join(runDir, 'traces', `${q.id}.json`), 'utf8'));
        for (const c of trace.context as { id: string; cutFrom?: number }[]) {
          const whole = flat(text.get(c.id)!);
          const shownWhole = prompts.some((p) => p.includes(JSON.stringify(whole).slice(1, -1)));
          expect([c.id, shownWhole]).toEqual([c.id, whole.length <= LIMIT]);
          expect([c.id, c.cutFrom]).toEqual([c.id, whole.length > LIMIT ? whole.length : undefined]);
          if (c.cutFrom !== undefined) cut++;
        }
      }
      expect(cut).toBeGreaterThan(0);
      const n = items.reduce((s, q) => s + q.goldPassageIds.length, 0);
      const report = readFileSync(join(runDir, 'report.md'), 'utf8');
      expect(report).toContain(
        `**${cut} of ${n} gold passages** (in ${cut} of ${items.length} items) **were cut to their first 2,000 characters** for the prompt`,
      );
      const json = JSON.parse(readFileSync(join(runDir, 'report.json'), 'utf8'));
      expect(JSON.stringify(json)).toContain(`"contextCut":{"passages":${n},"cut":${cut},"items":${items.length},"cutItems":${cut},"passageChars":2000}`);

      // a trace written before the count (no passageChars, no cutFrom) is said to be uncounted, never counted as shown whole
      const old = join(runDir, 'traces', `${items[items.length - 1].id}.json`);
      const t = JSON.parse(readFileSync(old, 'utf8'));
      delete t.passageChars;
      for (const c of t.context) delete c.cutFrom;
      writeFileSync(old, JSON.stringify(t));
      expect((await runCli(['report', runDir])).code).toBe(0);
      const again = readFileSync(join(runDir, 'report.md'), 'utf8');
      const lastCut = items[items.length - 1].goldPassageIds.filter((id) => flat(text.get(id)!).length > LIMIT).length;
      const counted = n - items[items.length - 1].goldPassageIds.length;
      expect(again).toContain(
        cut - lastCut
          ? `**${cut - lastCut} of ${counted} gold passages**`
          : `All ${counted} gold passages of ${items.length - 1} item${items.length - 1 === 1 ? '' : 's'} were shown whole`,
      );
      expect(again).toContain("1 item's trace is from before lexcase counted passages cut for the prompt: not in this count (their cuts are unknown).");
    } finally {
      await srv.close();
    }
  }, 120_000);
});
