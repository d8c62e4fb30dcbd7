/**
 * MAD through the REAL @langchain/openai client (createChatModel) against the scripted
 * OpenAI-compatible server, with the real retrieval tools over a keyword retriever on real FRE /
 * Bar Exam passages. Replies are chosen per request (role from the system prompt), so the tests do
 * not depend on call order.
 */
import { refusedRequests } from './refused-requests.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Question } from '../../corpora/types.js';
import type { SystemContext } from '../../eval/types.js';
import { createRetrievalTools } from '../../retrieval/tools/index.js';
import { llmConfigSchema } from '../../core/config.js';
import { createChatModel } from '../../core/llm/factory.js';
import { deriveSeed } from '../../core/rng.js';
import {
  requestedSchema,
  startScriptedServer,
  type RecordedRequest,
  type ScriptReply,
  type ScriptedServer,
} from '../../tests/support/scripted-openai-server.js';
import { getPassageFrom, keywordRetriever, PASSAGES, QUESTION, without } from '../case/test-support/fixtures.js';
import { createMad } from './debate.js';
import { NO_NEW_SNIPPET } from './new-snippet.js';
import { briefReply, debaterLetter, humanText, judgeReply, msgs, roleOf, roundOf } from './test-support/script.js';
import type { DebateTrace } from './debate.js';

let srv: ScriptedServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const corpus = without(PASSAGES, ['gold0']);

function ctx(url: string, q: Question = QUESTION, cacheDir: string | false = false): SystemContext {
  const llm = createChatModel(
    llmConfigSchema.parse({ baseUrl: url, model: 'scripted', cacheDir, maxRetries: 1, retryBaseMs: 1, retryMaxMs: 5, timeoutMs: 5000 }),
  );
  const bm25 = keywordRetriever('bm25', corpus);
  const docs = { size: Object.keys(corpus).length, get: getPassageFrom(corpus) };
  return {
    seed: deriveSeed(7, q.id),
    tools: createRetrievalTools({ retrievers: { bm25 }, docs }),
    retrievers: { bm25 },
    llm,
    getPassage: getPassageFrom(corpus),
    options: {},
  };
}

/** Default script: every debater briefs; B's rebuttal first requests one snippet; the judge picks B. */
function defaultScript(over: (req: RecordedRequest) => ScriptReply | undefined = () => undefined) {
  return (req: RecordedRequest): ScriptReply => {
    const o = over(req);
    if (o) return o;
    const role = roleOf(req);
    if (role === 'judge') return judgeReply('B', ['made_up_1']);
    if (role === 'cross-examiner')
      return {
        content: JSON.stringify({ questions: ['A', 'B', 'C', 'D'].map((l) => ({ letter: l, question: `Q-${l}: which rule makes your option right?` })) }),
      };
    if (role === 'cross-answer') return { content: JSON.stringify({ answer: `ANS-${debaterLetter(req)}: FRE 402` }) };
    if (role === 'debater') {
      const letter = debaterLetter(req);
      const round = roundOf(req);
      const m = msgs(req);
      if (letter === 'B' && round > 1 && req.body.tools?.length && !m.some((x) => x.role === 'tool'))
        return { toolCalls: [{ name: 'bm25_search', args: { query: 'party impeach own witness credibility' } }] };
      return briefReply(letter, round, { badId: letter === 'B' ? 'made_up_1' : undefined, req });
    }
    return { status: 500, error: `unexpected request: ${String(msgs(req)[0]?.content).slice(0, 60)}` };
  };
}

const debaterReqs = (s: ScriptedServer, letter: string, round: number) =>
  s.requests.filter((r) => roleOf(r) === 'debater' && debaterLetter(r) === letter && roundOf(r) === round);

describe('multi-agent debate against the scripted OpenAI-compatible server', () => {
  it("the judge listing a passage's real id written out (no handle it was shown) marks no passage unsupported: it is kept as written apart", async () => {
    const judging = async (unsupported: string[]) => {
      srv = await startScriptedServer(defaultScript((req) => (roleOf(req) === 'judge' ? judgeReply('B', unsupported) : undefined)));
      const out = await createMad({ rounds: 2, topology: 'full', k: 2 })(QUESTION, ctx(srv.url));
      await srv.close();
      srv = undefined;
      return { out, trace: out.trace as DebateTrace };
    };
    const plain = await judging([]);
    expect(plain.out.metrics?.citationsJudgeSupportive).toBeGreaterThan(0);
    // the same debate, the judge writing out the real id of every pool passage as unsupported
    const pool = plain.trace.pool.map((p) => p.id);
    const { out, trace } = await judging(pool);
    expect(trace.judge!.unsupported).toEqual([]);
    expect(trace.judge!.unsupportedUnresolved).toEqual(pool);
    // before: every pool passage the winning brief cited counted as judge-unsupported (a lower citationsJudgeSupportive)
    expect(out.metrics?.citationsJudgeSupportive).toBe(plain.out.metrics?.citationsJudgeSupportive);
  }, 30_000);

  it('runs a full debate: pool → openings → rebuttals with one snippet request → judge verdict, rationale, checklist, citation checks', async () => {
    srv = await startScriptedServer(defaultScript());
    const out = await createMad({ rounds: 2, topology: 'full', k: 2 })(QUESTION, ctx(srv.url));
    const t = out.trace as DebateTrace;
    expect(out.error).toBeUndefined();
    expect(out.prediction).toBe('B');
    expect(t.letters).toEqual(['A', 'B', 'C', 'D']);
    expect(t.pool.length).toBeGreaterThan(0);
    // Round 0: one issue query (facts + question) and one query per option (its text), through bm25_search
    const queries = [`${QUESTION.prompt}\n${QUESTION.question}`, ...QUESTION.choices];
    for (const p of t.pool) expect(queries).toContain(p.query);
    expect(t.pool.map((p) => p.id)).toContain('fre402'); // "relevant" option B reaches the relevance rule
    expect(t.rounds.map((r) => r.briefs.map((b) => `${b.letter}${b.kind[0]}`))).toEqual([
      ['Ao', 'Bo', 'Co', 'Do'],
      ['Ar', 'Br', 'Cr', 'Dr'],
    ]);
    // B's rebuttal asked the retriever for one new snippet; every passage its query finds (the impeachment
    // rules) is already in the pool, so the tool says so and B gets none (before: the top hit, a pool passage)
    const b2 = t.rounds[1].briefs[1];
    expect(b2.request).toMatchObject({ tool: 'bm25_search', query: 'party impeach own witness credibility', rule: 'new-only', k: t.pool.length + 1 });
    expect(b2.request!.ids).toEqual([]);
    expect(b2.request!.skipped).toBeGreaterThan(0);
    const bReqs = debaterReqs(srv, 'B', 2);
    expect(bReqs).toHaveLength(2);
    expect(bReqs[0].body.tools.map((x: any) => x.function.name)).toEqual(['bm25_search']);
    expect(bReqs[1].body.tool_choice).toBe('none');
    const toolMsg = bReqs[1].body.messages.find((m: any) => m.role === 'tool');
    expect(JSON.parse(toolMsg.content)).toEqual({ results: [], note: NO_NEW_SNIPPET });
    // the opening offered no tools
    expect(debaterReqs(srv, 'A', 1)[0].body.tools).toBeUndefined();
    // each round's schema asks for what its prompt asks for: an opening has no rebuttal to write
    const opening = requestedSchema(debaterReqs(srv, 'A', 1)[0])!;
    expect(humanText(debaterReqs(srv, 'A', 1)[0])).not.toContain('"rebuttal"');
    expect(Object.keys(opening.properties)).toEqual(['argument', 'claims']);
    expect(opening.required).toEqual(['argument', 'claims']);
    const rebuttal = requestedSchema(bReqs[1])!; // B's brief after its snippet request
    expect(humanText(bReqs[1])).toContain('"rebuttal"');
    expect(rebuttal.required).toEqual(['rebuttal', 'argument', 'claims']);
    // judgment
    expect(t.judge!.rationale).toHaveLength(3);
    expect(t.judge!.checklist).toEqual({
      doctrine_named: true,
      on_point_authority: true,
      accurate_use: true,
      logical_application: true,
      opponent_addressed: false,
    });
    // citations of the winner: fre402 exists and is supportive; made_up_1 does not exist
    const cites = b2.citations;
    expect(cites.find((c) => c.id === 'fre402')).toMatchObject({ exists: true, seen: true, supportive: true });
    expect(cites.find((c) => c.id === 'made_up_1')).toMatchObject({ exists: false, seen: false, supportive: false });
    expect(out.metrics).toMatchObject({
      citations: 2,
      citationsExist: 0.5,
      citationsSupportive: 0.5,
      citationsJudgeSupportive: 0.5,
      checklist: 4,
      forfeits: 0,
      goldCited: false,
    });
    // every call carried a seed; the judge saw every final brief
    expect(srv.requests.every((r) => typeof r.body.seed === 'number')).toBe(true);
    const judgeReq = srv.requests.find((r) => roleOf(r) === 'judge')!;
    for (const l of ['A', 'B', 'C', 'D']) expect(humanText(judgeReq)).toContain(`ARG-${l}-r2`);
    // the gold passage is not indexed and no prompt carries the answer key
    for (const r of srv.requests) expect(r.text).not.toContain(PASSAGES.gold0.slice(0, 40));
  }, 30_000);

  it('the judge and the cross-examiner are shown the text of a requested snippet the final briefs cite; a cited handle the judge never saw is outside its enum and never counts as judge-supported', async () => {
    let snippet: { handle: string; text: string } | undefined;
    srv = await startScriptedServer(
      defaultScript((req) => {
        if (roleOf(req) === 'judge') return judgeReply('B', []); // the judge flags nothing
        if (roleOf(req) !== 'debater' || debaterLetter(req) !== 'B' || roundOf(req) < 2) return undefined;
        const tool = msgs(req).find((m) => m.role === 'tool');
        if (!tool) return { toolCalls: [{ name: 'bm25_search', args: { query: 'relevant evidence: any tendency to make a fact more or less probable' } }] };
        // (a passage outside the pool: the pool's searches, cut as `lexcase search` prints them, hold fre608 since 2026-12-01)
        // B's closing cites the snippet it requested (by the handle its tool result showed) and an id no index holds
        const r = JSON.parse(String(tool.content)).results[0];
        snippet = { handle: r.id, text: r.text };
        const claims = [
          { text: 'A party may impeach the credibility of its own witness', cites: [r.id] },
          { text: 'Hearsay within hearsay is excluded', cites: ['made_up_1'] },
        ];
        return { content: JSON.stringify({ rebuttal: 'REB-B-r2', argument: 'ARG-B-r2: option B is right', claims }) };
      }),
    );
    const out = await createMad({ rounds: 2, topology: 'full', crossExaminer: true, k: 1 })(QUESTION, ctx(srv.url));
    const t = out.trace as DebateTrace;
    expect(out.prediction).toBe('B');
    const requested = t.rounds[1].briefs[1].request!.ids[0];
    expect(t.pool.map((p) => p.id)).not.toContain(requested); // only B was ever shown it
    expect(t.judge!.snippets).toEqual([requested]);
    const judgeReq = srv.requests.find((r) => roleOf(r) === 'judge')!;
    // before: the judge's Authorities block showed the pool only, and the final brief cited the snippet's bare handle
    expect(humanText(judgeReq)).toContain(`[${snippet!.handle}] ${snippet!.text.slice(0, 80)}`);
    expect(humanText(srv.requests.find((r) => roleOf(r) === 'cross-examiner')!)).toContain(`[${snippet!.handle}] ${snippet!.text.slice(0, 80)}`);
    // the handles the judge may list as unsupported are exactly those whose text its prompt shows
    const shown = [...humanText(judgeReq).matchAll(/^\[(P\d+)\] /gm)].map((m) => m[1]);
    const offered = requestedSchema(judgeReq)!.properties.unsupported_citations.items.enum as string[];
    expect([...offered].sort()).toEqual([...shown].sort());
    expect(offered).toContain(snippet!.handle);
    // made_up_1 was shown to the judge as a bare handle only: not vouched for although the judge flagged nothing
    expect(out.metrics).toMatchObject({ citations: 2, citationsExist: 0.5, citationsJudgeSupportive: 0.5 });
  }, 30_000);

  it("a rebutting debater is shown, once and after the pool, the text of an opponent's requested snippet the briefs it reads cite, and may cite it", async () => {
    let snippet: { handle: string; text: string } | undefined;
    srv = await startScriptedServer(
      defaultScript((req) => {
        if (roleOf(req) === 'debater' && debaterLetter(req) === 'A' && roundOf(req) === 3 && snippet) {
          // A's closing answers B's snippet, citing it by its handle
          const claims = [{ text: 'Extrinsic evidence of specific instances is not admissible to attack credibility', cites: [snippet.handle] }];
          return { content: JSON.stringify({ rebuttal: 'REB-A-r3', argument: 'ARG-A-r3: option A is right', claims }) };
        }
        if (roleOf(req) !== 'debater' || debaterLetter(req) !== 'B' || roundOf(req) !== 2) return undefined;
        const tool = msgs(req).find((m) => m.role === 'tool');
        if (!tool) return { toolCalls: [{ name: 'bm25_search', args: { query: 'relevant evidence: any tendency to make a fact more or less probable' } }] };
        // B's rebuttal cites the snippet it requested, by the handle its tool result showed, in two claims
        const r = JSON.parse(String(tool.content)).results[0];
        snippet = { handle: r.id, text: r.text };
        const claims = [
          { text: 'A party may impeach the credibility of its own witness', cites: [r.id] },
          { text: "Specific instances of a witness's conduct are not proved by extrinsic evidence", cites: [r.id] },
        ];
        return { content: JSON.stringify({ rebuttal: 'REB-B-r2', argument: 'ARG-B-r2: option B is right', claims }) };
      }),
    );
    const out = await createMad({ rounds: 3, topology: 'full', k: 1 })(QUESTION, ctx(srv.url));
    const t = out.trace as DebateTrace;
    expect(out.error).toBeUndefined();
    const requested = t.rounds[1].briefs[1].request!.ids[0];
    expect(t.pool.map((p) => p.id)).not.toContain(requested); // only B was shown it, in its tool result
    const shownLine = `[${snippet!.handle}] ${snippet!.text.slice(0, 80)}`;
    // A's closing request (round 3, after the snippet round): before, B's brief showed "[P..]" with no text anywhere in it
    const aClosing = debaterReqs(srv, 'A', 3)[0];
    expect(humanText(aClosing)).toContain(`- A party may impeach the credibility of its own witness [${snippet!.handle}]`);
    expect(humanText(aClosing)).toContain(`Further authorities the briefs cite (snippets a debater requested from the retriever):\n${shownLine}`);
    expect(humanText(aClosing).split(snippet!.text.slice(0, 80))).toHaveLength(2); // once, though two claims cite it
    // A, shown its text, may cite it
    expect(t.rounds[2].briefs[0].citations).toEqual([expect.objectContaining({ id: requested, exists: true, seen: true })]);
    // B keeps its own snippet as evidence (tool result, then its evidence block): never listed a second time
    const bClosing = debaterReqs(srv, 'B', 3)[0];
    expect(humanText(bClosing)).not.toContain('Further authorities');
    expect(humanText(bClosing)).toContain(shownLine);
  }, 30_000);

  it("each debater answers the cross-examiner under its own seed (debater-<letter>-cross), not the cross-examiner's", async () => {
    srv = await startScriptedServer(defaultScript());
    const c = ctx(srv.url);
    await createMad({ rounds: 1, crossExaminer: true, k: 2 })(QUESTION, c);
    expect(srv.requests.filter((r) => roleOf(r) === 'cross-examiner').map((r) => r.body.seed)).toEqual([deriveSeed(c.seed, 'cross-examiner')]);
    for (const l of ['A', 'B', 'C', 'D'])
      expect(srv.requests.filter((r) => roleOf(r) === 'cross-answer' && debaterLetter(r) === l).map((r) => r.body.seed)).toEqual([
        deriveSeed(c.seed, `debater-${l}-cross`),
      ]);
  }, 30_000);

  it('refused snippet requests are recorded in the brief with the reason: an extra call, a tool not offered, a tool call written as text', async () => {
    srv = await startScriptedServer(
      defaultScript((req) => {
        if (roleOf(req) !== 'debater' || roundOf(req) < 2 || !req.body.tools?.length || msgs(req).some((x) => x.role === 'tool')) return undefined;
        const letter = debaterLetter(req);
        if (letter === 'B')
          return {
            toolCalls: [
              { name: 'bm25_search', args: { query: 'party impeach own witness credibility' } },
              { name: 'bm25_search', args: { query: 'voucher rule' } },
            ],
          };
        if (letter === 'C') return { toolCalls: [{ name: 'web_search', args: { query: 'impeachment' } }] };
        if (letter === 'D') return { content: '<tool_call>\n{"name": "bm25_search", "arguments": {"query": "relevance"}}\n</tool_call>' };
        return undefined;
      }),
    );
    const out = await createMad({ rounds: 2, topology: 'full', k: 2 })(QUESTION, ctx(srv.url));
    const [a2, b2, c2, d2] = (out.trace as DebateTrace).rounds[1].briefs;
    // before: request null and invalidToolCalls null for C and D, and nothing said B's second call was refused
    expect(a2.refused).toBeUndefined();
    expect(b2.request).toMatchObject({ tool: 'bm25_search', query: 'party impeach own witness credibility' });
    expect(b2.refused).toEqual([{ name: 'bm25_search', reason: 'one snippet per round' }]);
    expect(c2.request).toBeUndefined();
    expect(c2.refused).toEqual([{ name: 'web_search', reason: 'not a tool offered this round' }]);
    expect(d2.request).toBeUndefined();
    expect(d2.refused).toEqual([{ name: 'bm25_search', reason: expect.stringMatching(/^a tool call written as text/) }]);
    // and report.md's MAD section counts them (before 2026-12-02: in the traces only)
    expect(refusedRequests([out.trace as Record<string, unknown>])?.line).toBe(
      "**3 snippet requests were refused and never ran** (in 1 of 1 item; each brief's `refused`): 1 a tool call written as text, 1 not a tool offered this round, 1 one snippet per round.",
    );
  }, 30_000);

  it('a call to a tool not offered, or with an empty query, does not use up the round’s one snippet: the first valid call runs', async () => {
    srv = await startScriptedServer(
      defaultScript((req) => {
        if (roleOf(req) !== 'debater' || roundOf(req) < 2 || !req.body.tools?.length || msgs(req).some((x) => x.role === 'tool')) return undefined;
        const letter = debaterLetter(req);
        if (letter === 'B')
          return {
            toolCalls: [
              { name: 'web_search', args: { query: 'impeachment' } },
              { name: 'bm25_search', args: { query: 'party impeach own witness credibility' } },
            ],
          };
        if (letter === 'C')
          return {
            toolCalls: [
              { name: 'bm25_search', args: { query: '' } },
              { name: 'bm25_search', args: { query: 'voucher rule' } },
              { name: 'bm25_search', args: { query: 'credibility' } },
            ],
          };
        return undefined;
      }),
    );
    const out = await createMad({ rounds: 2, topology: 'full', k: 2 })(QUESTION, ctx(srv.url));
    const [, b2, c2] = (out.trace as DebateTrace).rounds[1].briefs;
    // before: B's valid second call was refused as "one snippet per round" and B got no snippet (request undefined)
    expect(b2.request).toMatchObject({ tool: 'bm25_search', query: 'party impeach own witness credibility' });
    expect(b2.refused).toEqual([{ name: 'web_search', reason: 'not a tool offered this round' }]);
    expect(c2.request).toMatchObject({ tool: 'bm25_search', query: 'voucher rule' });
    expect(c2.refused).toEqual([
      { name: 'bm25_search', reason: 'empty query' },
      { name: 'bm25_search', reason: 'one snippet per round' },
    ]);
    expect(refusedRequests([out.trace as Record<string, unknown>])?.json.byReason).toEqual({
      'not a tool offered this round': 1,
      'empty query': 1,
      'one snippet per round': 1,
    });
  }, 30_000);

  it('full topology: in a rebuttal each debater sees every opponent; sparse: only the preceding one in the ring', async () => {
    srv = await startScriptedServer(defaultScript());
    await createMad({ rounds: 2, topology: 'full', k: 2 })(QUESTION, ctx(srv.url));
    for (const l of ['A', 'B', 'C', 'D']) {
      const text = humanText(debaterReqs(srv, l, 2)[0]);
      for (const o of ['A', 'B', 'C', 'D']) expect(text).toContain(`ARG-${o}-r1`);
    }
    await srv.close();
    srv = await startScriptedServer(defaultScript());
    const out = await createMad({ rounds: 3, topology: 'sparse', k: 2 })(QUESTION, ctx(srv.url));
    const t = out.trace as DebateTrace;
    const previous: Record<string, string> = { A: 'D', B: 'A', C: 'B', D: 'C' };
    for (const round of [2, 3]) {
      for (const l of ['A', 'B', 'C', 'D']) {
        const text = humanText(debaterReqs(srv, l, round)[0]);
        const visible = ['A', 'B', 'C', 'D'].filter((o) => text.includes(`ARG-${o}-r${round - 1}`));
        expect(visible.sort()).toEqual([l, previous[l]].sort()); // own brief + the preceding opponent's
      }
      expect(t.rounds[round - 1].briefs.map((b) => b.saw)).toEqual([['D'], ['A'], ['B'], ['C']]);
    }
    // the judge still sees all final briefs
    const judgeText = humanText(srv.requests.find((r) => roleOf(r) === 'judge')!);
    for (const l of ['A', 'B', 'C', 'D']) expect(judgeText).toContain(`ARG-${l}-r3`);
  }, 30_000);

  it('one debater per option for a 10-option (MMLU-Pro style) question; sparse ring over 10', async () => {
    const q10: Question = {
      ...QUESTION,
      id: 'mmlu_law_1',
      choices: [
        ...QUESTION.choices,
        'admissible as a prior inconsistent statement',
        'inadmissible as hearsay',
        'admissible only to impeach',
        'inadmissible under Rule 403',
        'admissible as substantive evidence',
        'inadmissible because cumulative',
      ],
    };
    srv = await startScriptedServer(defaultScript());
    const out = await createMad({ rounds: 2, topology: 'sparse', k: 1 })(q10, ctx(srv.url, q10));
    const t = out.trace as DebateTrace;
    expect(t.letters).toEqual(['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J']);
    expect(t.rounds[1].briefs.map((b) => b.saw.join(''))).toEqual(['J', 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I']);
    expect(srv.requests.filter((r) => roleOf(r) === 'debater' && roundOf(r) === 1)).toHaveLength(10);
    expect(out.prediction).toBe('B');
  }, 30_000);

  it('cross-examiner toggle: off → no examiner call; on → one question per debater, answers reach the judge', async () => {
    srv = await startScriptedServer(defaultScript());
    const off = await createMad({ rounds: 1, crossExaminer: false, k: 2 })(QUESTION, ctx(srv.url));
    expect(srv.requests.some((r) => roleOf(r) === 'cross-examiner' || roleOf(r) === 'cross-answer')).toBe(false);
    expect((off.trace as DebateTrace).crossExamination).toBeUndefined();
    expect(humanText(srv.requests.find((r) => roleOf(r) === 'judge')!)).not.toContain('Cross-examination:');
    await srv.close();

    srv = await startScriptedServer(defaultScript());
    const on = await createMad({ rounds: 1, crossExaminer: true, k: 2 })(QUESTION, ctx(srv.url));
    const x = (on.trace as DebateTrace).crossExamination!;
    expect(srv.requests.filter((r) => roleOf(r) === 'cross-examiner')).toHaveLength(1);
    expect(
      srv.requests
        .filter((r) => roleOf(r) === 'cross-answer')
        .map(debaterLetter)
        .sort(),
    ).toEqual(['A', 'B', 'C', 'D']);
    // one question to each debater, put in the seeded order the examiner read the briefs in (recorded)
    const read = (on.trace as DebateTrace).presentation!.find((p) => p.kind === 'cross-examiner briefs')!;
    expect(read.order.slice().sort()).toEqual(['A', 'B', 'C', 'D']);
    expect(x.questions.map((q) => q.letter)).toEqual(read.order);
    expect(x.questions.map((q) => [q.letter, q.answer]).sort()).toEqual([
      ['A', 'ANS-A: FRE 402'],
      ['B', 'ANS-B: FRE 402'],
      ['C', 'ANS-C: FRE 402'],
      ['D', 'ANS-D: FRE 402'],
    ]);
    const judgeText = humanText(srv.requests.find((r) => roleOf(r) === 'judge')!);
    expect(judgeText).toContain('Cross-examination:');
    expect(judgeText).toContain('To Debater C: Q-C: which rule makes your option right?');
    expect(judgeText).toContain('ANS-C: FRE 402');
    // the cross-examiner saw the final briefs
    expect(humanText(srv.requests.find((r) => roleOf(r) === 'cross-examiner')!)).toContain('ARG-D-r1');
  }, 30_000);

  it('cross-examiner: a reply that questions only some debaters is refused and asked again; short twice → the cross-examination is skipped with the error', async () => {
    let asked = 0;
    srv = await startScriptedServer(
      defaultScript((req) => {
        if (roleOf(req) !== 'cross-examiner') return undefined;
        asked++;
        // first item: B only, then all four; second item: B only, twice
        const all = asked === 2;
        return { content: JSON.stringify({ questions: (all ? ['A', 'B', 'C', 'D'] : ['B']).map((l) => ({ letter: l, question: `Q-${l}?` })) }) };
      }),
    );
    const mad = createMad({ rounds: 1, crossExaminer: true, k: 2 });
    const first = (await mad(QUESTION, ctx(srv.url))).trace as DebateTrace;
    expect(first.crossExamination!.questions.map((q) => q.letter).sort()).toEqual(['A', 'B', 'C', 'D']);
    const repair = srv.requests.filter((r) => roleOf(r) === 'cross-examiner')[1];
    expect(JSON.stringify(repair.body.messages)).toMatch(/no question to debater A, C, D/);
    const second = await mad(QUESTION, ctx(srv.url));
    const x = (second.trace as DebateTrace).crossExamination!;
    expect(x.questions).toEqual([]);
    expect(x.error).toMatch(/no question to debater A, C, D/);
    expect(second.stepFailures).toMatchObject({ 'cross-examiner': 1 });
    expect(second.prediction).toBe('B');
  }, 30_000);

  it('judge output: malformed once → retried and parsed; malformed twice → item failure recorded with raw replies, debate kept, no answer citations (null, not 0)', async () => {
    let judgeCalls = 0;
    srv = await startScriptedServer(
      defaultScript((req) => {
        if (roleOf(req) !== 'judge') return undefined;
        judgeCalls++;
        if (judgeCalls === 1) return { content: 'The answer is clearly B.' };
        if (judgeCalls === 2) return judgeReply('b');
        // second item: a rationale of 2 bullets, then an unknown letter
        if (judgeCalls === 3) return { content: JSON.stringify({ verdict: 'B', rationale: ['one', 'two'], checklist: {} }) };
        return judgeReply('Z');
      }),
    );
    const ok = await createMad({ rounds: 1, k: 2 })(QUESTION, ctx(srv.url));
    expect(ok.prediction).toBe('B');
    expect((ok.trace as DebateTrace).judge!.raw).toEqual(['The answer is clearly B.', expect.stringContaining('"verdict":"b"')]);
    const retryReq = srv.requests.filter((r) => roleOf(r) === 'judge')[1];
    expect(retryReq.body.messages.at(-1).content).toMatch(/could not be parsed/);

    const bad = await createMad({ rounds: 1, k: 2 })({ ...QUESTION, id: 'mbe_bad' }, ctx(srv.url));
    const t = bad.trace as DebateTrace;
    expect(bad.prediction).toBeNull();
    expect(bad.error).toMatch(/^LLM_OUTPUT_INVALID: LLM output for judge could not be parsed/);
    expect(t.judgeRaw).toHaveLength(2);
    expect(t.rounds[0].briefs).toHaveLength(4);
    // no answer, so no answer citations: null (left out of "citations per answer"), not 0; the pool's gold coverage stays
    expect(bad.metrics).toMatchObject({ citations: null, citationsExist: null, goldCited: null, checklist: null });
    expect(typeof bad.metrics!.goldInPool).toBe('boolean');
  }, 30_000);

  it('judge each round: an interim verdict after rounds 1 and 2 (no cross-examination), the final after 3; per-round correctness flags', async () => {
    let judged = 0;
    srv = await startScriptedServer(
      defaultScript((req) => {
        if (roleOf(req) !== 'judge') return undefined;
        judged++;
        const text = humanText(req);
        // the judge is shown the briefs of the round just finished: pick A after round 1, B after rounds 2 and 3
        if (text.includes('ARG-A-r1')) return judgeReply('A');
        if (text.includes('ARG-A-r2')) return { content: 'garbled' }; // interim judgment fails twice → recorded, item goes on
        return judgeReply('B');
      }),
    );
    const out = await createMad({ rounds: 3, topology: 'sparse', crossExaminer: true, judgeEachRound: true, k: 2 })(QUESTION, ctx(srv.url));
    const t = out.trace as DebateTrace;
    expect(judged).toBe(1 + 2 + 1);
    expect(t.roundVerdicts).toEqual([
      { round: 1, verdict: 'A' },
      { round: 2, verdict: null, error: expect.stringMatching(/judge could not be parsed/) },
      { round: 3, verdict: 'B' },
    ]);
    expect(out.prediction).toBe('B');
    expect(out.metrics).toMatchObject({ correctAfterRound1: false, correctAfterRound2: false, correctAfterRound3: true });
    // only the final judge saw the cross-examination
    const judgeReqs = srv.requests.filter((r) => roleOf(r) === 'judge');
    expect(judgeReqs.filter((r) => humanText(r).includes('Cross-examination:'))).toHaveLength(1);
  }, 30_000);

  it('a rerun against a server whose rebuttal reply was no brief once is answered wholly from the cache and repeats the debate', async () => {
    // A's rebuttal turn first answers the free tool choice with prose; the structured call then writes
    // its brief. Before, that prose was dropped from the cache: the rerun re-sent it and, the server now
    // answering with a brief, recorded another argument (and judged again), silently
    let prose = true;
    srv = await startScriptedServer(
      defaultScript((req) => {
        if (roleOf(req) !== 'debater' || debaterLetter(req) !== 'A' || roundOf(req) !== 2 || !req.body.tools?.length || requestedSchema(req)) return undefined;
        if (prose) {
          prose = false;
          return { content: 'My position stands; nothing to add.' };
        }
        return { content: JSON.stringify({ rebuttal: 'asked again', argument: 'ARG-A-again', claims: [] }) };
      }),
    );
    const cacheDir = mkdtempSync(join(tmpdir(), 'lexcase-mad-cache-'));
    try {
      const run = async () => (await createMad({ rounds: 2, topology: 'full', k: 2 })(QUESTION, ctx(srv!.url, QUESTION, cacheDir))).trace as DebateTrace;
      const live = await run();
      expect(live.rounds[1].briefs[0]).toMatchObject({ argument: 'ARG-A-r2: option A is right' });
      expect(live.rounds[1].briefs[0].error).toBeUndefined();
      const sent = srv.requests.length;
      const again = await run();
      expect(srv.requests.length, 'the rerun sent no request').toBe(sent);
      expect(again.rounds).toEqual(live.rounds);
      expect(again.judge).toEqual(live.judge);
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  }, 30_000);

  it('a debater unparseable twice forfeits its round; the debate and verdict go on', async () => {
    srv = await startScriptedServer(
      defaultScript((req) => (roleOf(req) === 'debater' && debaterLetter(req) === 'C' && roundOf(req) === 1 ? { content: 'I refuse to use JSON' } : undefined)),
    );
    const out = await createMad({ rounds: 2, topology: 'sparse', k: 2 })(QUESTION, ctx(srv.url));
    const t = out.trace as DebateTrace;
    const c1 = t.rounds[0].briefs[2];
    expect(c1.error).toMatch(/debater C round 1/);
    expect(c1.raw).toEqual(['I refuse to use JSON', 'I refuse to use JSON']);
    expect(out.metrics?.forfeits).toBe(1);
    // D (which sees C in the sparse ring) was told C filed no brief
    expect(humanText(debaterReqs(srv, 'D', 2)[0])).toContain('Debater C (option C): (no brief this round)');
    expect(out.prediction).toBe('B');
  }, 30_000);

  it('a verdict for a debater whose final brief was forfeited: flagged, in no answer-citation figure or checklist (before: scored as a brief citing nothing, its checklist counted)', async () => {
    srv = await startScriptedServer(
      defaultScript((req) => (roleOf(req) === 'debater' && debaterLetter(req) === 'B' && roundOf(req) === 2 ? { content: 'I refuse to use JSON' } : undefined)),
    );
    const out = await createMad({ rounds: 2, topology: 'sparse', k: 2 })(QUESTION, ctx(srv.url));
    const t = out.trace as DebateTrace;
    expect(t.rounds[1].briefs.find((b) => b.letter === 'B')?.error).toMatch(/debater B round 2/);
    expect(out.prediction).toBe('B');
    expect(out.metrics).toMatchObject({ winnerForfeited: true, citations: null, citationsExist: null, checklist: null, forfeits: 1 });
  }, 30_000);
});
