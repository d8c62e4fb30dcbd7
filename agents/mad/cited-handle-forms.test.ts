/**
 * How a MAD answer's citations read the handle forms a model writes. A prompt shows each passage as
 * "[P3] text" and the reply schema offers the handles as an enum, but a server that does not
 * enforce it (json_object, a lenient parser) lets a model write "(P3)", "P3." or "Passage 3". Before
 * 2026-12-01 only "P3", "[P3]" and "p3" resolved: such a citation kept its raw text, matched no
 * passage, and every citation figure read it as an id not in the index ("cited ids that exist in the
 * index 0.0%" for a run that cited only passages it was shown), with nothing saying so. Now every
 * form that can be one handle only resolves, and a citation that names none ("P2, P3") is counted per
 * item (metrics.unresolvedCitations), under report.md's citation table and on the end line: once per
 * accepted reply (checked against a recount of the accepted replies), never read as a passage even where
 * it is a real id written out, and never shown back to a debater under a handle of its own. The real
 * client against a scripted server on 127.0.0.1.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { llmConfigSchema } from '../../core/config.js';
import { createChatModel } from '../../core/llm/factory.js';
import { deriveSeed } from '../../core/rng.js';
import { runTokensText } from '../../eval/run-counts.js';
import { unrecordedText, withUnrecorded } from '../../eval/resume-unrecorded.js';
import { PASSAGE_HANDLE_READING } from '../common/passage-handles.js';
import type { ResultRecord, SystemContext } from '../../eval/types.js';
import { createRetrievalTools } from '../../retrieval/tools/index.js';
import { startScriptedServer, type RecordedRequest, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { getPassageFrom, keywordRetriever, PASSAGES, QUESTION, without } from '../case/test-support/fixtures.js';
import { createSingleRag } from './baselines.js';
import { madMetrics, madMetricsMarkdown } from './metrics.js';
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

/** A single-RAG answer citing the passage "Rule 402." under the handle it was shown, written by `form` ("P2" → "(P2)"). */
async function answerCiting(form: (handle: string) => string): Promise<ResultRecord> {
  srv = await startScriptedServer((req) => {
    if (roleOf(req) !== 'analyst') return { status: 500, error: 'unexpected' };
    const cite = form(shownHandle(req, 'Rule 402.')!);
    return {
      content: JSON.stringify({
        reasoning: 'r',
        answer: 'B',
        claims: [{ text: 'Relevant evidence is admissible unless a rule provides otherwise', cites: [cite] }],
      }),
    };
  });
  const out = await createSingleRag({ k: 2 })(QUESTION, ctx(srv.url));
  await srv.close();
  srv = undefined;
  return {
    id: QUESTION.id,
    prediction: out.prediction,
    gold: 'B',
    correct: out.prediction === 'B',
    metrics: out.metrics,
    tokens: { input: 1, output: 1, total: 2, calls: 1, retried: 0 },
  } as ResultRecord;
}

/** The handles a request shows as passages: "[P3] text" lines (never a bare "[P3]" after a brief's claim). */
const passageHandlesShown = (req: RecordedRequest) => new Set([...humanText(req).matchAll(/^\[(P\d+)\] /gm)].map((m) => m[1]));

/** Independently: the citations of a reply that are not exactly one handle its request shows as a passage. */
const unresolvedIn = (req: RecordedRequest, cites: string[]) => cites.filter((c) => !passageHandlesShown(req).has(c)).length;

describe('MAD citations written in another handle form', () => {
  it.each([
    ['(P2)', (h: string) => `(${h})`],
    ['P2.', (h: string) => `${h}.`],
    ['【P2】', (h: string) => `【${h}】`],
    ['Passage 2', (h: string) => `Passage ${h.slice(1)}`],
    ['P 02', (h: string) => `P 0${h.slice(1)}`],
  ])(
    'a citation written like %s is the passage shown under that handle: cited, in the index, seen (before: a cited id in no index, uncounted)',
    async (_, form) => {
      const r = await answerCiting(form);
      expect(r.metrics).toMatchObject({ citations: 1, citationsExist: 1, citationsSeen: 1, citationsSupportive: 1, unresolvedCitations: 0 });
      const m = madMetrics([r]);
      expect(m.citations.exist).toEqual({ mean: 1, n: 1 });
      expect(m.unresolvedCitations).toEqual({ citations: 0, items: 0 });
      expect(madMetricsMarkdown(m)).not.toContain('named no passage handle shown');
    },
  );

  it('a citation that names no single handle ("P2, P3") is counted beside the figures it leaves out: report.md, report.json and the end line', async () => {
    const r = await answerCiting((h) => `${h}, P3`);
    expect(r.metrics).toMatchObject({ citations: 1, citationsExist: 0, citationsSeen: 0, unresolvedCitations: 1 });
    const m = madMetrics([r]);
    expect(m.unresolvedCitations).toEqual({ citations: 1, items: 1 }); // report.json's metrics
    expect(madMetricsMarkdown(m)).toContain(
      '**Note:** 1 citation in 1 item named no passage handle shown (kept as written, each counts as a cited id not in the index and not shown).',
    );
    expect(runTokensText([r], 2)).toBe('tokens 2; 1 citation in 1 item named no passage handle shown');
  });

  it('a citation naming no single handle counts once per accepted reply: a rejected first reply that cites it too is not counted (before: 2 for 1)', async () => {
    let n = 0;
    srv = await startScriptedServer((req) => {
      if (roleOf(req) !== 'analyst') return { status: 500, error: 'unexpected' };
      const claims = [{ text: 'Relevant evidence is admissible unless a rule provides otherwise', cites: [`${shownHandle(req, 'Rule 402.')!}, P3`] }];
      // the first reply answers no option letter (re-asked); the second is the accepted answer
      return { content: JSON.stringify({ reasoning: 'r', answer: n++ === 0 ? 'B or C' : 'B', claims }) };
    });
    const out = await createSingleRag({ k: 2 })(QUESTION, ctx(srv.url));
    expect(srv.requests).toHaveLength(2);
    expect(out.prediction).toBe('B');
    expect(out.metrics).toMatchObject({ citations: 1, citationsExist: 0, unresolvedCitations: 1 });
  });

  it('a run dir an older lexcase started (no passageHandleReading) is unknown on resume, not a difference: the warning says what it read', () => {
    const now = { system: 'mad/mad', dataset: 'barexam', passageHandleReading: PASSAGE_HANDLE_READING };
    const { unrecorded, config } = withUnrecorded({ system: 'mad/mad', dataset: 'barexam' }, now);
    expect(unrecorded.map((u) => u.key)).toEqual(['passageHandleReading']);
    expect(unrecorded[0].what).toMatch(
      /an older lexcase read only "P3", "\[P3\]" and "p3", so a citation its models wrote "\(P3\)", "P3\." or "Passage 3" named no passage/,
    );
    expect(config).toEqual(now);
  });

  it.each([
    ['a citation counted at every parse', ', counted (metrics.unresolvedCitations)'],
    ['a citation counted by its text, shown back under a handle', ', counted once per accepted reply (metrics.unresolvedCitations)'],
  ])('a run dir that recorded the reading of 2026-12-01 (%s) resumes with "records an older passageHandleReading"', (_, tail) => {
    const now = { system: 'mad/mad', dataset: 'barexam', passageHandleReading: PASSAGE_HANDLE_READING };
    const older = `one handle alone, wrapped or punctuated, any case ("P3", "[P3]", "(P3)", "P3.", "【P3】", "Passage 3", "P03"); none where it could be another ("P3, P5")${tail}`;
    expect(older).not.toBe(PASSAGE_HANDLE_READING);
    const { unrecorded } = withUnrecorded({ ...now, passageHandleReading: older }, now);
    expect(unrecorded.map((u) => u.key)).toEqual(['passageHandleReading']);
    expect(unrecordedText(unrecorded)).toMatch(
      /records an older passageHandleReading \(how a cited passage handle is read: the lexcase that recorded it \(2026-12-01\) counted a citation/,
    );
  });

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
