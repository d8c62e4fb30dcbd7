/**
 * A CASE advocate's search whose arguments the tool's schema refuses (k 100 over the tools' limit of
 * 50) is answered to the model in lexcase's words — the tool, the field refused, its rule, the value
 * sent, what to do — not with langchain's text (its wording, and first its stack): before, that text
 * held `error.stack` — "at StructuredTool.call (file:///…/node_modules/@langchain/core/…)" lines
 * with the machine's paths — sent to the LLM endpoint and printed in `lexcase evidence --json`'s
 * toolCalls. Driven as a user meets it: `lexcase evidence` against a scripted OpenAI-compatible
 * server on 127.0.0.1, over the first 14 Federal Rules of Evidence passages of the bundled legal_corpus.
 */
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadPassages } from '../../corpora/registry.js';
import type { Passage } from '../../corpora/types.js';
import { buildIndex } from '../../indexer/build.js';
import { tempDir } from '../../indexer/build-test-helpers.js';
import { closeSparseIndexes } from '../../retrieval/open.js';
import { runCli } from '../../tests/support/run-cli.js';
import { useScriptedLlm } from '../../tests/support/scripted-llm-env.js';
import { startScriptedServer } from '../../tests/support/scripted-openai-server.js';

const tmp = tempDir('lexcase-tool-error-text-');
const dir = join(tmp.dir, 'fre-14');
const H = 'a witness may be impeached by any party, including the party that called the witness';

beforeAll(async () => {
  const passages: Passage[] = [];
  for await (const p of loadPassages('legal_corpus')) if (p.source === 'fre' && passages.length < 14) passages.push(p);
  await buildIndex(passages, { out: dir, methods: ['bm25'], workers: 0 });
}, 60_000);
afterAll(async () => {
  await closeSparseIndexes();
  tmp.cleanup();
});
afterEach(() => vi.unstubAllEnvs());

describe('a refused tool call is answered without the stack', () => {
  it('lexcase evidence: the model is told the tool did not run, that k broke "<=50" with 100 sent, and to call again; no stack line, no langchain wording', async () => {
    const srv = await startScriptedServer([
      { toolCalls: [{ name: 'bm25_search', args: { query: H, k: 100 } }] },
      { toolCalls: [{ name: 'bm25_search', args: { query: H, k: 5 } }] },
      { content: '{"analysis":"FRE 607","evidence":[]}' },
    ]);
    try {
      useScriptedLlm(srv.url);
      const r = await runCli(['--json', 'evidence', H, '--index', dir, '-k', '3']);
      expect(r.code, r.stderr).toBe(0);
      const told = srv.requests[1].body.messages.find((m: { role: string }) => m.role === 'tool').content as string;
      expect(told).toBe(
        [
          "Tool bm25_search did not run: its arguments break the tool's input rules.",
          '- k: Too big: expected number to be <=50 (sent 100)',
          'Call bm25_search again with arguments that keep these rules.',
        ].join('\n'),
      );
      // before: "Error invoking tool 'bm25_search' with kwargs {…} with error: Received tool input … Please fix the error and try again."
      expect(told).not.toMatch(/Error invoking tool|kwargs|Please fix the error|Received tool input/);
      // before: "… with error: ToolInputParsingException: …\n    at StructuredTool.call (file:///…/node_modules/@langchain/core/dist/tools/index.js:113:10)"
      expect(told).not.toMatch(/node_modules|file:\/\/|\n\s+at /);
      const json = JSON.parse(r.stdout);
      expect(json.toolCalls.map((c: { error?: string }) => c.error !== undefined)).toEqual([true, false]);
      expect(json.toolCalls[0].error).not.toMatch(/node_modules|file:\/\/|\n\s+at /);
    } finally {
      await srv.close();
    }
  }, 60_000);
});
