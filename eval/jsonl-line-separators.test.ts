/**
 * An LLM reply or error holding U+2028 / U+2029 / U+0085 stays one record per line in the run's
 * JSONL files (results.jsonl, llm/<item>.jsonl, acal/audit.jsonl) for a reader that splits lines
 * the way Python's str.splitlines() does, and reads back as the same text here.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendAudit, auditPath, readAudit } from '../agents/acal/graph/store.js';
import { exchangesPath, readExchanges, writeExchanges } from './llm-exchanges.js';
import { readResults } from './run-dir.js';
import { runExperiment } from './runner.js';
import type { SystemContext } from './types.js';

/** The line ends of Python's str.splitlines(). */
const splitlines = (text: string): string[] => text.split(/\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/).filter((l, i, all) => i < all.length - 1 || l !== '');

/** A reply as a model writes it, with a line separator, a paragraph separator and a NEL in its text. */
const REPLY = 'The hearsay rule applies.\u2028The statement is offered for its truth.\u2029Answer: B\u0085(end)';

const ctx = (): SystemContext => ({ seed: 0, tools: [], retrievers: {}, getPassage: async () => undefined, options: {} });

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'lexcase-jsonl-sep-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('JSONL files escape U+2028, U+2029 and U+0085', () => {
  it('results.jsonl, llm/<item>.jsonl and acal/audit.jsonl hold one record per splitlines() line, and read back with the text unchanged', async () => {
    const run = join(root, 'run');
    await runExperiment({
      runDir: run,
      system: async (item) => {
        if (item.id === 'q2') throw new Error(`LLM_OUTPUT_INVALID: no answer letter in "${REPLY}"`);
        return { prediction: 'B', trace: { reply: REPLY } };
      },
      items: [
        { id: 'q1', answer: 'B' },
        { id: 'q2', answer: 'A' },
      ],
      gold: (q) => q.answer,
      makeContext: ctx,
      config: { system: 'case' },
      seed: 1,
    });
    await writeExchanges(run, 'q1', [
      {
        n: 0,
        key: 'k1',
        request: { messages: [{ role: 'user', content: `Quote: ${REPLY}` }], params: { model: 'm' } },
        reply: { generations: [{ text: REPLY }] } as never,
        ms: 5,
      },
      {
        n: 1,
        key: 'k2',
        request: { messages: [{ role: 'user', content: 'again' }], params: { model: 'm' } },
        reply: { generations: [{ text: 'B' }] } as never,
        ms: 5,
      },
    ]);
    appendAudit(run, { itemId: 'q1', action: 'edit', text: REPLY, who: 'reviewer' });

    const files = { results: join(run, 'results.jsonl'), llm: exchangesPath(run, 'q1'), audit: auditPath(run) };
    const records = { results: 2, llm: 2, audit: 1 };
    for (const [name, file] of Object.entries(files)) {
      const text = readFileSync(file, 'utf8');
      expect(text, name).not.toMatch(/[\u0085\u2028\u2029]/);
      const lines = splitlines(text);
      expect(lines, name).toHaveLength(records[name as keyof typeof records]);
      for (const l of lines) expect(() => JSON.parse(l), `${name}: ${l}`).not.toThrow();
    }
    const { records: results } = await readResults(run);
    expect(results.find((r) => r.id === 'q2')?.error).toBe(`LLM_OUTPUT_INVALID: no answer letter in "${REPLY}"`);
    const back = await readExchanges(run, 'q1');
    expect((back[0].reply as { generations: { text: string }[] }).generations[0].text).toBe(REPLY);
    expect((back[0].request as { messages: { content: string }[] }).messages[0].content).toBe(`Quote: ${REPLY}`);
    expect(readAudit(run)[0]).toMatchObject({ text: REPLY });
  });
});
