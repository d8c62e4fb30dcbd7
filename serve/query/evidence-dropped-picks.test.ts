/**
 * What the LLM advocate dropped, and a note it cut, on every evidence surface a user reads: the built
 * `lexcase evidence` (a child process; --json and text), /v1/evidence (`serve --api`), the explorer's
 * /api/evidence and MCP find_evidence. Each listed the dropped ids (`rejectedIds`) but not why, so a
 * pick dropped for being beyond k read the same as one naming a passage never shown to the advocate;
 * and /v1, MCP and the explorer dropped `noteCutFrom`, so a note cut at 300 characters read as whole.
 *
 * Data: the first 14 passages of the Federal Rules of Evidence in the bundled legal_corpus, bm25 +
 * qld. The model is an OpenAI-compatible server on 127.0.0.1 that searches bm25 for 5 hits, then picks
 * P1 (a 450-character note), P2, P3 — beyond k 2 —, P99, a handle it was never shown, the real id of its
 * fourth hit spelled out (shown to it as P4), and P99 again. Before, the spelled id read "no tool returned
 * it" although its search had returned that passage, and P99 was listed twice.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPassages } from '../../corpora/registry.js';
import type { Passage } from '../../corpora/types.js';
import { buildIndex } from '../../indexer/build.js';
import { tempDir } from '../../indexer/build-test-helpers.js';
import { closeSparseIndexes, openRetriever } from '../../retrieval/open.js';
import { runBuiltCli } from '../../tests/support/run-built-cli.js';
import { evidenceOnEverySurface } from '../../tests/support/evidence-surfaces.js';
import { startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';

const tmp = tempDir('lexcase-evidence-dropped-');
const dir = join(tmp.dir, 'fre-14');
const H = 'a witness may be impeached by any party, including the party that called the witness';
// 450 characters, no run of whitespace: its length is the note's length as the advocate measures it
const NOTE = `${'Rule 607 lets any party attack the credibility of a witness, the party that called the witness included; '.repeat(5).slice(0, 449)}.`;
const QUERY = 'impeach witness any party';
let srv: ScriptedServer;
/** The ids of the advocate's search, run here as it runs it (bm25, 5 hits). */
let hits: string[];

beforeAll(async () => {
  const passages: Passage[] = [];
  for await (const p of loadPassages('legal_corpus')) if (p.source === 'fre' && passages.length < 14) passages.push(p);
  await buildIndex(passages, { out: dir, methods: ['bm25', 'qld'], workers: 0 });
  hits = (await (await openRetriever(dir, 'bm25')).search(QUERY, { k: 5 })).map((h) => h.id);
  // first call of each advocate: one bm25 search for 5 hits; after its result: the picks
  srv = await startScriptedServer((req) =>
    (req.body.messages as { role: string }[]).some((m) => m.role === 'tool')
      ? {
          content: JSON.stringify({
            analysis: 'FRE 607',
            evidence: [
              { id: 'P1', justification: NOTE },
              { id: 'P2', justification: 'the rule itself' },
              { id: 'P3', justification: 'a third, past k' },
              { id: 'P99', justification: 'a passage never shown' },
              { id: hits[3], justification: 'a passage it was shown as P4, its id spelled out' },
              { id: 'P99', justification: 'the unknown handle again' },
            ],
          }),
        }
      : { toolCalls: [{ name: 'bm25_search', args: { query: QUERY, k: 5 } }] },
  );
}, 60_000);
afterAll(async () => {
  await srv?.close();
  await closeSparseIndexes();
  tmp.cleanup();
});

interface Out {
  evidence: { id: string; justification: string; noteCutFrom?: number }[];
  toolCalls: { tool: string; ids: string[] }[];
  rejectedIds?: string[];
  rejected?: { id: string; reason: string; times?: number }[];
}

/**
 * What each surface should say, from the search the advocate ran (its 5 hits): the first two kept, the
 * third beyond k, P99 (twice) and the fourth hit's id spelled out naming no handle, each listed once.
 */
function expectDropped(out: Out, where: string) {
  expect(out.toolCalls[0].ids, where).toEqual(hits);
  expect(
    out.evidence.map((e) => e.id),
    where,
  ).toEqual(hits.slice(0, 2));
  expect(out.rejectedIds, where).toEqual([hits[2], 'P99', hits[3]]);
  expect(out.rejected, where).toEqual([
    { id: hits[2], reason: 'beyond k' },
    { id: 'P99', reason: 'names no handle', times: 2 },
    { id: hits[3], reason: 'names no handle' },
  ]);
  expect(out.evidence[0].noteCutFrom, where).toBe(450);
  expect(out.evidence[0].justification, where).toBe(`${NOTE.slice(0, 299)}…`);
  expect(out.evidence[1].noteCutFrom, where).toBeUndefined();
}

describe('evidence says why each dropped pick was dropped, and which notes were cut, on every surface', () => {
  it('the built `lexcase evidence`: --json gives `rejected` with reasons and `noteCutFrom`; the text says both', async () => {
    const args = ['evidence', H, '--index', dir, '-k', '2', '--endpoint', srv.url, '--model', 'scripted', '--no-cache'];
    const json = await runBuiltCli(['--json', ...args], { cwd: tmp.dir });
    expect(json.code, json.stderr).toBe(0);
    const out = JSON.parse(json.stdout) as Out;
    expectDropped(out, 'cli --json');
    const text = await runBuiltCli(args, { cwd: tmp.dir });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('(note cut from 450 characters)');
    expect(text.stdout).toContain(`Dropped picks (3): ${hits[2]} (beyond k), P99 (names no handle, ×2), ${hits[3]} (names no handle)`);
  }, 120_000);

  it("/v1/evidence, MCP find_evidence and the explorer's /api/evidence give the same `rejected` and `noteCutFrom`", async () => {
    const input = { hypothesis: H, mode: 'llm', k: 2 };
    for (const [where, out] of await evidenceOnEverySurface({ url: srv.url, dir, cwd: tmp.dir, input })) expectDropped(out as Out, where);
  }, 120_000);
});
