/**
 * A MAD debater's requested snippet is shown in the tool result to its first `--passage-chars`
 * characters (default 600), as the pool is. The run counts those cuts beside the pool's: each
 * brief's `request` marks a cut snippet `cutFrom`, and report.md's MAD section says how many. Driven
 * through the CLI and the real OpenAI client against a scripted server on 127.0.0.1 whose debaters
 * each request one snippet in round 2: real Bar Exam passages, one longer than 600 characters
 * (the first over 2,000 besides mbe_12, the item's gold) and one shorter, each found by a marker word put in front of it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadPassages } from '../../corpora/registry.js';
import type { Passage } from '../../corpora/types.js';
import { closeSparseIndexes } from '../../retrieval/open.js';
import { runCli } from '../../tests/support/run-cli.js';
import { instanceOf, requestedSchema, startScriptedServer, type RecordedRequest, type ScriptReply } from '../../tests/support/scripted-openai-server.js';
import { buildSmallBarexamIndex } from '../../tests/support/small-barexam-index.js';
import { useScriptedLlm } from '../../tests/support/scripted-llm-env.js';

const flat = (t: string) => t.replace(/\s+/g, ' ');

let dir: string;
let index: string;
/** Debaters A and C request `snippet-long`, B and D `snippet-short`. */
const snippets = new Map<string, Passage>();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-mad-snippet-cut-'));
  index = join(dir, 'idx');
  let short: Passage | undefined;
  let long: Passage | undefined;
  for await (const p of loadPassages('barexam')) {
    if (!long && p.id !== 'mbe_12' && flat(p.text).length > 2000) long = p; // mbe_12 is this item's gold: in its Round-0 pool
    if (!short && flat(p.text).length < 400) short = p;
  }
  snippets.set('long', { id: 'snippet-long', source: long!.source, text: `Quixotic longmarker: ${long!.text}` });
  snippets.set('short', { id: 'snippet-short', source: short!.source, text: `Zephyr shortmarker: ${short!.text}` });
  await buildSmallBarexamIndex(index, { extra: [...snippets.values()] });
}, 120_000);

afterAll(async () => {
  await closeSparseIndexes();
  rmSync(dir, { recursive: true, force: true });
});

afterEach(() => vi.unstubAllEnvs());

const debaterOf = (req: RecordedRequest) => /You are Debater ([A-Z])\b/.exec(JSON.stringify(req.body.messages))?.[1];

/** A guided-decoding model whose debaters each request one snippet in their rebuttal. */
async function requester(req: RecordedRequest): Promise<ScriptReply> {
  const letter = debaterOf(req);
  if ((req.body.tools ?? []).length > 0 && req.body.tool_choice === undefined && !req.body.response_format && letter) {
    const which = letter === 'A' || letter === 'C' ? 'quixotic longmarker' : 'zephyr shortmarker';
    return { toolCalls: [{ name: 'bm25_search', args: { query: which } }] };
  }
  const schema = requestedSchema(req);
  return schema ? { json: instanceOf(schema) } : { content: 'No further comment.' };
}

describe('run mad: requested snippets cut for the tool result are counted', () => {
  it('a brief whose requested snippet is longer than --passage-chars marks request.cutFrom and report.md counts it beside the pool', async () => {
    const srv = await startScriptedServer(requester);
    try {
      useScriptedLlm(srv.url);
      const runDir = join(dir, 'mad');
      const r = await runCli(['run', 'mad', '--index', index, '--limit', '1', '--rounds', '2', '--run-dir', runDir, '--no-cache']);
      expect(r.code).toBe(0);
      const tools = srv.requests.flatMap((q) =>
        (q.body.messages as { role: string; content: string }[]).filter((m) => m.role === 'tool').map((m) => m.content),
      );
      const { id } = JSON.parse(readFileSync(join(runDir, 'results.jsonl'), 'utf8').split('\n')[0]);
      const trace = JSON.parse(readFileSync(join(runDir, 'traces', `${id}.json`), 'utf8'));
      const requests = (trace.rounds as { briefs: { letter: string; request?: { ids: string[]; cutFrom?: number; passageChars?: number } }[] }[])
        .flatMap((x) => x.briefs)
        .filter((b) => b.request);
      expect(requests.map((b) => [b.letter, b.request!.ids])).toEqual([
        ['A', ['snippet-long']],
        ['B', ['snippet-short']],
        ['C', ['snippet-long']],
        ['D', ['snippet-short']],
      ]);
      for (const b of requests) {
        // what the model received in the tool result, against the indexed passage
        const whole = flat(b.request!.ids[0] === 'snippet-long' ? snippets.get('long')!.text : snippets.get('short')!.text);
        const shownWhole = tools.some((t) => t.includes(JSON.stringify(whole).slice(1, -1)));
        expect([b.letter, shownWhole]).toEqual([b.letter, whole.length <= 600]);
        expect([b.letter, b.request!.cutFrom, b.request!.passageChars]).toEqual([b.letter, whole.length > 600 ? whole.length : undefined, 600]);
      }
      expect((await runCli(['report', runDir])).code).toBe(0);
      const report = readFileSync(join(runDir, 'report.md'), 'utf8');
      expect(report).toContain('**2 of 4 snippets the debaters requested** (in 1 of 1 items) **were cut to the same 600 characters** in the tool result');
      // neither snippet is in this item's Round-0 pool: each request brought a new passage
      expect(trace.pool.map((p: { id: string }) => p.id)).not.toContain('snippet-long');
      expect(trace.pool.map((p: { id: string }) => p.id)).not.toContain('snippet-short');
      expect(report).toContain('**0 of 4 snippet requests** (in 0 of 1 item) **found no new passage**');
      const json = JSON.parse(readFileSync(join(runDir, 'report.json'), 'utf8'));
      expect(JSON.stringify(json)).toContain('"snippets":4,"snippetsCut":2,"snippetItems":1,"snippetCutItems":1');

      // a trace whose requests predate the count (no request.passageChars, no cutFrom) is said to be uncounted, never shown whole
      const file = join(runDir, 'traces', `${id}.json`);
      const old = JSON.parse(readFileSync(file, 'utf8'));
      for (const x of old.rounds) for (const b of x.briefs) if (b.request) delete b.request.passageChars, delete b.request.cutFrom;
      writeFileSync(file, JSON.stringify(old));
      expect((await runCli(['report', runDir])).code).toBe(0);
      const again = readFileSync(join(runDir, 'report.md'), 'utf8');
      expect(again).toContain("1 item's requested snippets are from before lexcase counted their cuts: not in this count.");
      expect(again).not.toMatch(/snippets the debaters requested\*\* \(in [^)]*\) \*\*were cut|snippets the debaters requested were shown whole/);
    } finally {
      await srv.close();
    }
  }, 180_000);
});
