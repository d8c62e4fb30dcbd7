/**
 * Issue 37, item 18: "mad: the replay's results.jsonl is byte-identical" (tests/replay.test.ts)
 * failed once under load. The cause: in a rebuttal round the debaters run at once, and a snippet a
 * debater requests gets the next passage handle (P21, P22, …) when its search comes back — so which
 * debater got which handle depended on which model reply arrived first. A replay answers in start
 * order (A, B, C, D); a recording whose replies arrived B before A put other handles in the
 * debaters' next prompts, and the replay stopped with LLM_REPLAY_MISMATCH. Now snippets get their
 * handles in letter order, whatever order the replies come in (agents/mad/turn-order.ts).
 *
 * Through the built CLI against a scripted server on 127.0.0.1 that answers debater A's snippet
 * request only after debater B has filed its brief (or after a few seconds, when B waits for A —
 * the fixed order); the recording is then replayed with no endpoint and must match byte for byte.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Passage } from '../../corpora/types.js';
import { buildSmallBarexamIndex } from '../../tests/support/small-barexam-index.js';
import { instanceOf, requestedSchema, startScriptedServer, type RecordedRequest, type ScriptReply } from '../../tests/support/scripted-openai-server.js';
import { ensureBuilt, isolatedEnv, lexcase } from '../../tests/support/spawn-cli.js';

let dir: string;
let index: string;
/** Passages only a debater's snippet request finds (their words occur in no question or option). */
const SNIPPETS: Passage[] = ['A', 'B', 'C', 'D'].map((l) => ({
  id: `snippet-${l}`,
  source: 'planted',
  text: `Quixotic zephyr ${l.toLowerCase()}-marker: a planted authority that only debater ${l} requests.`,
}));

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'lexcase-mad-order-'));
  index = join(dir, 'idx');
  await buildSmallBarexamIndex(index, { extra: SNIPPETS });
}, 300_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const debaterOf = (req: RecordedRequest) => /You are Debater ([A-Z])\b/.exec(JSON.stringify(req.body.messages))?.[1];

/** A guided-decoding model whose reply to debater A's snippet request arrives after debater B's brief. */
function bFirst() {
  let releaseA: (() => void) | undefined;
  const aHeld = new Promise<void>((r) => (releaseA = r));
  return async (req: RecordedRequest): Promise<ScriptReply> => {
    const letter = debaterOf(req);
    const offersTools = (req.body.tools ?? []).length > 0;
    if (offersTools && req.body.tool_choice === undefined && !req.body.response_format && letter) {
      // the rebuttal's free tool choice: request this debater's own snippet
      if (letter === 'A') await Promise.race([aHeld, new Promise((r) => setTimeout(r, 4000))]); // 4 s: only when B waits for A (the fixed order)
      return { toolCalls: [{ name: 'bm25_search', args: { query: `quixotic zephyr ${letter.toLowerCase()}-marker` } }] };
    }
    if (letter === 'B' && req.body.tool_choice === 'none') releaseA?.(); // B filed its brief after its snippet
    const schema = requestedSchema(req);
    return schema ? { json: instanceOf(schema) } : { content: 'No further comment.' };
  };
}

describe('MAD snippet handles do not depend on which reply arrives first (issue 37, item 18)', () => {
  it("a debate recorded with B's snippet reply before A's replays byte for byte", async () => {
    const flags = (runDir: string) => ['run', 'mad', '--index', index, '--limit', '1', '--rounds', '2', '--run-dir', runDir];
    const srv = await startScriptedServer(bFirst());
    const rec = join(dir, 'rec');
    try {
      const r = await lexcase(flags(rec), {
        cwd: dir,
        env: isolatedEnv({ LEXCASE_LLM_BASE_URL: srv.url, LEXCASE_LLM_MODEL: 'scripted', LEXCASE_LLM_PREFLIGHT: '0' }),
      });
      expect(r.code, r.stderr).toBe(0);
    } finally {
      await srv.close();
    }
    const trace = JSON.parse(readFileSync(join(rec, 'traces', `${JSON.parse(readFileSync(join(rec, 'results.jsonl'), 'utf8')).id}.json`), 'utf8'));
    // every debater requested its own snippet in round 2
    expect(trace.rounds[1].briefs.map((b: { request?: { ids: string[] } }) => b.request?.ids)).toEqual(SNIPPETS.map((s) => [s.id]));
    const rep = join(dir, 'rep');
    const r2 = await lexcase(flags(rep).concat('--replay', rec), { cwd: dir, env: isolatedEnv() });
    expect(r2.code, r2.stderr).toBe(0); // before: LLM_REPLAY_MISMATCH (debater A's brief request is not in the recording)
    expect(readFileSync(join(rep, 'results.jsonl'))).toEqual(readFileSync(join(rec, 'results.jsonl')));
  }, 300_000);
});
