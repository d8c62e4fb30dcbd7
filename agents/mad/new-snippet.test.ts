/**
 * Paper 002 §3.2: a rebutting debater "may request one **new** snippet from the Retriever". Before,
 * lexcase ran the debater's search at k = 1 and showed its top hit, which on Bar Exam QA val was a
 * passage already in the debater's evidence in 40 of 40 requests. Now the tool result is the
 * highest-ranked hit the debater was not shown (new-snippet.ts), and an honest "no new passage" when
 * there is none. Driven through the CLI and the real OpenAI client against a scripted server on
 * 127.0.0.1 whose debaters search with their own option's text — the query whose hits Round 0 put in
 * the pool — over a small index of real Bar Exam passages.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tool } from '@langchain/core/tools';
import { z } from 'zod';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { closeSparseIndexes, openRetriever } from '../../retrieval/open.js';
import { runCli } from '../../tests/support/run-cli.js';
import { instanceOf, requestedSchema, startScriptedServer, type RecordedRequest, type ScriptReply } from '../../tests/support/scripted-openai-server.js';
import { buildSmallBarexamIndex } from '../../tests/support/small-barexam-index.js';
import { useScriptedLlm } from '../../tests/support/scripted-llm-env.js';
import { NO_NEW_SNIPPET, newSnippet } from './new-snippet.js';

let dir: string;
let index: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-mad-new-snippet-'));
  index = join(dir, 'idx');
  await buildSmallBarexamIndex(index);
}, 120_000);

afterAll(async () => {
  await closeSparseIndexes();
  rmSync(dir, { recursive: true, force: true });
});

afterEach(() => vi.unstubAllEnvs());

type Msg = { role: string; content: string };
const debaterOf = (req: RecordedRequest) => /You are Debater ([A-Z])\b/.exec(JSON.stringify(req.body.messages))?.[1];

/** A guided-decoding model whose debaters each search with their own option's text in their rebuttal. */
async function ownOptionSearch(req: RecordedRequest): Promise<ScriptReply> {
  const letter = debaterOf(req);
  if ((req.body.tools ?? []).length > 0 && req.body.tool_choice === undefined && !req.body.response_format && letter) {
    const user = (req.body.messages as Msg[]).find((m) => m.role === 'user')!.content;
    const option = new RegExp(`^${letter}\\. (.*)$`, 'm').exec(user)![1];
    return { toolCalls: [{ name: 'bm25_search', args: { query: option } }] };
  }
  const schema = requestedSchema(req);
  return schema ? { json: instanceOf(schema) } : { content: 'No further comment.' };
}

describe('run mad: a requested snippet is one the debater was not already shown', () => {
  it('returns the highest-ranked hit outside the pool (the top hits, pool passages, are passed over) and report.md says so', async () => {
    const srv = await startScriptedServer(ownOptionSearch);
    try {
      useScriptedLlm(srv.url);
      const runDir = join(dir, 'mad');
      const r = await runCli(['run', 'mad', '--index', index, '--limit', '1', '--rounds', '2', '--run-dir', runDir, '--no-cache']);
      expect(r.code).toBe(0);
      const { id } = JSON.parse(readFileSync(join(runDir, 'results.jsonl'), 'utf8').split('\n')[0]);
      const trace = JSON.parse(readFileSync(join(runDir, 'traces', `${id}.json`), 'utf8'));
      const pool = new Set((trace.pool as { id: string }[]).map((p) => p.id));
      const requests = (
        trace.rounds as { briefs: { letter: string; request?: { query: string; ids: string[]; k: number; skipped?: number; rule?: string } }[] }[]
      )
        .flatMap((x) => x.briefs)
        .filter((b) => b.request)
        .map((b) => b.request!);
      expect(requests).toHaveLength(4);
      // recomputed from the index: the first hit of a deep search that is not a pool passage
      const bm25 = await openRetriever(index, 'bm25');
      let skipped = 0;
      for (const q of requests) {
        const hits = await bm25.search(q.query, { k: 50 });
        const first = hits.findIndex((h) => !pool.has(h.id));
        expect(pool.has(hits[0].id)).toBe(true); // the k = 1 rule's snippet: already in the pool
        expect(q).toMatchObject({ rule: 'new-only', k: pool.size + 1, ids: [hits[first].id], skipped: first });
        skipped += first;
      }
      const tools = srv.requests.flatMap((q) => (q.body.messages as Msg[]).filter((m) => m.role === 'tool').map((m) => m.content));
      for (const t of tools) expect(pool.has(JSON.parse(t).results[0].id)).toBe(false);
      const report = await runCli(['report', runDir]);
      expect(report.code).toBe(0);
      const md = readFileSync(join(runDir, 'report.md'), 'utf8');
      expect(md).toContain(
        `${skipped} higher-ranked hits already in the debater's evidence were passed over): **0 of 4 snippet requests** (in 0 of 1 item) **found no new passage**`,
      );
      expect(md).not.toContain('were already in their evidence');
    } finally {
      await srv.close();
    }
  }, 180_000);
});

describe('newSnippet', () => {
  const fakeSearch = (ids: string[], ks: number[]) =>
    tool(
      async ({ k }: { query: string; k?: number | null }) => {
        ks.push(k ?? 0);
        return JSON.stringify({ method: 'bm25', query: 'q', results: ids.slice(0, k ?? 5).map((id, i) => ({ id, score: 10 - i, rank: i + 1 })) });
      },
      { name: 'bm25_search', description: 'search', schema: z.object({ query: z.string(), k: z.number().nullable().optional() }) },
    );

  it('searches one deeper than the passages shown and skips every shown hit', async () => {
    const ks: number[] = [];
    const r = await newSnippet(fakeSearch(['p1', 'p2', 'p9', 'p3'], ks), 'q', new Set(['p1', 'p2', 'p3']));
    expect(ks).toEqual([4]);
    expect(r).toMatchObject({ hits: [{ id: 'p9' }], k: 4, skipped: 2 });
  });

  it('finds no new passage when every hit was shown, and the tool reply says so', async () => {
    const r = await newSnippet(fakeSearch(['p2', 'p1'], []), 'q', new Set(['p1', 'p2', 'p3']));
    expect(r).toEqual({ hits: [], k: 4, skipped: 2 });
    expect(NO_NEW_SNIPPET).toMatch(/^No new passage/);
  });
});
