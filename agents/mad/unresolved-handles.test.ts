/**
 * A MAD debate's citations that name no passage handle shown ("P1, P2", a real id written out): counted
 * once per accepted reply (a rejected reply contributes nothing), never read as a passage, and never shown
 * back to a model under a handle of its own. The real client against a scripted server on 127.0.0.1; the
 * count is checked against an independent recount of the accepted replies (the handles each request shows).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { llmConfigSchema } from '../../core/config.js';
import { createChatModel } from '../../core/llm/factory.js';
import { deriveSeed } from '../../core/rng.js';
import type { SystemContext } from '../../eval/types.js';
import { createRetrievalTools } from '../../retrieval/tools/index.js';
import { startScriptedServer, type RecordedRequest, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { getPassageFrom, keywordRetriever, PASSAGES, QUESTION, without } from '../case/test-support/fixtures.js';
import { createMad, type DebateTrace } from './debate.js';
import { debaterLetter, humanText, judgeReply, roleOf, roundOf, shownHandle } from './test-support/script.js';

let srv: ScriptedServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const corpus = without(PASSAGES, ['gold0']);

function ctx(url: string): SystemContext {
  const llm = createChatModel(llmConfigSchema.parse({ baseUrl: url, model: 'scripted', cacheDir: false, maxRetries: 0, timeoutMs: 5000 }));
  const bm25 = keywordRetriever('bm25', corpus);
  return {
    seed: deriveSeed(7, QUESTION.id),
    tools: createRetrievalTools({ retrievers: { bm25 }, docs: { get: getPassageFrom(corpus) } }),
    retrievers: { bm25 },
    llm,
    getPassage: getPassageFrom(corpus),
    options: {},
  };
}

/** The handles a request shows as passages: "[P3] text" lines (never a bare "[P3]" after a brief's claim). */
const passageHandlesShown = (req: RecordedRequest) => new Set([...humanText(req).matchAll(/^\[(P\d+)\] /gm)].map((m) => m[1]));

/** Independently: the citations of a reply that are not exactly one handle its request shows as a passage. */
const unresolvedIn = (req: RecordedRequest, cites: string[]) => cites.filter((c) => !passageHandlesShown(req).has(c)).length;

describe('MAD citations naming no passage handle shown', () => {
  it('count once per accepted reply, a real id written out is no passage, and a rebuttal shows "P1, P2" as no handle (before: 9 for 5: every later handle of fre402 counted, and "P1, P2" shown as [P6], then cited as resolved)', async () => {
    const accepted: number[] = []; // the independent count of each accepted reply's unresolved citations
    let bFirst = true;
    srv = await startScriptedServer((req) => {
      const role = roleOf(req);
      if (role === 'judge') {
        accepted.push(unresolvedIn(req, ['P2 and P9']));
        return judgeReply('B', ['P2 and P9']);
      }
      if (role !== 'debater') return { status: 500, error: 'unexpected' };
      const letter = debaterLetter(req);
      const round = roundOf(req);
      const rule402 = shownHandle(req, 'Rule 402.')!;
      const claim = (cites: string[]) => ({ text: 'Relevant evidence is admissible unless a rule provides otherwise', cites });
      let claims = [claim([rule402])];
      if (letter === 'A' && round === 1) claims = [claim(['P1, P2'])];
      if (letter === 'B' && round === 1) {
        if (bFirst) {
          bFirst = false; // no argument: refused and asked again; its citation is none
          return { content: JSON.stringify({ claims: [claim(['P1, P2'])] }) };
        }
        claims = [claim(['P1 and P2'])];
      }
      // the handle the first passage outside the pool would get (before: "P1, P2" got it in the rebuttal prompts)
      if (letter === 'C' && round === 2) claims = [claim([`P${passageHandlesShown(req).size + 1}`])];
      if (letter === 'D') claims = round === 1 ? [claim(['fre402'])] : [claim([rule402]), claim([rule402])];
      accepted.push(
        unresolvedIn(
          req,
          claims.flatMap((c) => c.cites),
        ),
      );
      const brief = { ...(round > 1 ? { rebuttal: `REB-${letter}` } : {}), argument: `ARG-${letter}-r${round}`, claims };
      return { content: JSON.stringify(brief) };
    });
    const out = await createMad({ rounds: 2, topology: 'full', k: 2 })(QUESTION, ctx(srv.url));
    const t = out.trace as DebateTrace;
    expect(out.error).toBeUndefined();
    const next = `P${t.pool.length + 1}`; // no passage but the pool's was shown
    expect(accepted.reduce((a, b) => a + b, 0)).toBe(5); // A r1, B r1 (accepted), C r2, D r1, the judge
    expect(out.metrics?.unresolvedCitations).toBe(5); // before: 9 (each later citation of fre402 by its handle counted, C's handle of "P1, P2" not)
    // the rebuttals show A's citation as no handle, so no later "P3" can name it
    const bRebuttal = srv.requests.find((r) => roleOf(r) === 'debater' && debaterLetter(r) === 'B' && roundOf(r) === 2)!;
    expect(humanText(bRebuttal)).toContain('- Relevant evidence is admissible unless a rule provides otherwise [no passage shown]');
    expect(humanText(bRebuttal)).not.toContain(`[${next}]`);
    // D wrote fre402's real id, never shown to it: not in the index, not seen (before: both, as the passage)
    const dOpening = t.rounds[0].briefs.find((b) => b.letter === 'D')!;
    expect(dOpening.citations).toEqual([expect.objectContaining({ id: 'fre402', exists: false, seen: false, unresolved: true })]);
    const cRebuttal = t.rounds[1].briefs.find((b) => b.letter === 'C')!;
    expect(cRebuttal.citations).toEqual([expect.objectContaining({ id: next, exists: false, unresolved: true })]);
  }, 30_000);
});
