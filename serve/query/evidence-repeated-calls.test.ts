/**
 * A server that sends the same search twice in one reply (distinct ids, same tool and arguments): on
 * /v1/evidence (`serve --api`), MCP find_evidence and the explorer's /api/evidence, as in `lexcase
 * evidence`, the search runs once, its passages are scored once (the top hit 1/(60 + 1), not twice
 * that) and the repeat is listed with `repeated: true` (before 2026-12-02 /v1 and MCP dropped the mark).
 *
 * Data: the first 8 passages of the Federal Rules of Evidence in the bundled legal_corpus, bm25.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPassages } from '../../corpora/registry.js';
import type { Passage } from '../../corpora/types.js';
import { buildIndex } from '../../indexer/build.js';
import { tempDir } from '../../indexer/build-test-helpers.js';
import { closeSparseIndexes } from '../../retrieval/open.js';
import { evidenceOnEverySurface } from '../../tests/support/evidence-surfaces.js';
import { startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';

const tmp = tempDir('lexcase-evidence-repeated-');
const dir = join(tmp.dir, 'fre-8');
const H = 'a witness may be impeached by any party, including the party that called the witness';
const QUERY = 'impeach witness any party';
let srv: ScriptedServer;

beforeAll(async () => {
  const passages: Passage[] = [];
  for await (const p of loadPassages('legal_corpus')) if (p.source === 'fre' && passages.length < 8) passages.push(p);
  await buildIndex(passages, { out: dir, methods: ['bm25'], workers: 0 });
  srv = await startScriptedServer((req) =>
    (req.body.messages as { role: string }[]).some((m) => m.role === 'tool')
      ? { content: JSON.stringify({ analysis: 'FRE 607', evidence: [{ id: 'P1', justification: 'the rule' }] }) }
      : {
          toolCalls: [
            { name: 'bm25_search', args: { query: QUERY, k: 3 }, id: 'call_1' },
            { name: 'bm25_search', args: { k: 3, query: QUERY }, id: 'call_2' },
          ],
        },
  );
}, 60_000);
afterAll(async () => {
  await srv?.close();
  await closeSparseIndexes();
  tmp.cleanup();
});

interface Out {
  evidence: { id: string; score: number }[];
  toolCalls: { tool: string; ids: string[]; repeated?: true }[];
}

function expectOnce(out: Out, where: string) {
  expect(
    out.toolCalls.map((c) => [c.tool, c.ids.length, c.repeated ?? false]),
    where,
  ).toEqual([
    ['bm25_search', 3, false],
    ['bm25_search', 0, true],
  ]);
  expect(out.evidence[0].id, where).toBe(out.toolCalls[0].ids[0]);
  expect(out.evidence[0].score, where).toBeCloseTo(1 / 61, 10);
}

describe('the same search twice in one reply, on every evidence surface', () => {
  it('/v1/evidence, MCP find_evidence and /api/evidence run it once, score it once and mark the repeat', async () => {
    const input = { hypothesis: H, mode: 'llm', k: 2 };
    for (const [where, out] of await evidenceOnEverySurface({ url: srv.url, dir, cwd: tmp.dir, input })) expectOnce(out as Out, where);
  }, 120_000);
});
