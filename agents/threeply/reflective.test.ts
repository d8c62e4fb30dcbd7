/**
 * The reflective loop and the baselines against the scripted OpenAI-compatible server through the
 * real ChatOpenAI client (createChatModel). The script answers by inspecting each request: which
 * agent is asking (system prompt), which ply, and — for the Factor Analyst — the actual factor lists
 * in the prompt, so the abstention decision is computed from the triple rather than from call order.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadTradeSecretModel } from '../../corpora/trade-secret.js';
import { llmConfigSchema } from '../../core/config.js';
import { createChatModel } from '../../core/llm/factory.js';
import { startScriptedServer, type RecordedRequest, type ScriptedServer, type ScriptReply } from '../../tests/support/scripted-openai-server.js';
import { analystVerdict, jsonReply, plyOf, threeplyRole, userText } from './test-support/scripted-threeply.js';
import type { SystemContext } from '../../eval/types.js';
import { buildScenarios, type CaseTriple } from './scenarios.js';
import { createThreePlySystem } from './system.js';
import type { ThreePlySystemKind } from './types.js';
import { reflectionText } from './report-section.js';
import type { ResultRecord } from '../../eval/types.js';

const factors = loadTradeSecretModel();
let srv: ScriptedServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const role = threeplyRole;
const user = userText;
const json = jsonReply;

async function modelFor(script: (r: RecordedRequest, i: number) => ScriptReply) {
  srv = await startScriptedServer(script);
  const cfg = llmConfigSchema.parse({ baseUrl: srv.url, model: 'scripted', cacheDir: false, maxRetries: 0 });
  return createChatModel(cfg);
}

const ctxFor = (llm: Awaited<ReturnType<typeof modelFor>>): SystemContext => ({
  seed: 1,
  tools: [],
  retrievers: {},
  llm,
  getPassage: async () => undefined,
  options: {},
});

const arguable = buildScenarios({ mode: 'arguable', n: 1, seed: 11 }, factors)[0];
const nonArguable = buildScenarios({ mode: 'non-arguable', n: 1, seed: 11 }, factors)[0];
const mismatched = buildScenarios({ mode: 'mismatched', n: 1, seed: 11 }, factors)[0];
const shared = (t: CaseTriple, c: 'c2' | 'c3') => t[c].factors.filter((f) => t.c1.factors.includes(f));

describe('reflective 3-ply system (scripted server, real ChatOpenAI client)', () => {
  it('TERMINATEs at the first ply of a non-arguable triple: developer, analyst, nothing more', async () => {
    const llm = await modelFor((r) => {
      switch (role(r)) {
        case 'developer':
          return { content: `c1 and c2 share ${nonArguable.c2.factors[0]}, which supports the Plaintiff.` };
        case 'analyst':
          return json({
            analysis_outcome: analystVerdict(r),
            summary: 'There are no common factors between c1 and c2.',
            abstention_details: { reason_for_abstention: 'No common factors found.' },
          });
        default:
          return { status: 500, error: `unexpected ${role(r)} call` };
      }
    });
    const out = await createThreePlySystem({ kind: 'reflective', factors })(nonArguable, ctxFor(llm));
    expect(out.prediction).toBe('abstain');
    expect(out.trace.terminatedAt).toBe('plaintiff');
    // the ply's output is TERMINATE (per ply, 000 §3.3 step 5); no ply was argued
    expect(out.trace.plies).toEqual({ plaintiff: 'TERMINATE: There are no common factors between c1 and c2.' });
    expect(out.metrics).toMatchObject({ abstained: true, nH: 0, nUtil: 0, hallucinationAccuracy: 1, factorUtilizationRecall: 0 });
    expect(srv!.requests.map(role)).toEqual(['developer', 'analyst']);
    // the analyst saw the real factor lists of the triple
    expect(user(srv!.requests[1])).toContain(`outcome Plaintiff`);
    for (const f of nonArguable.c1.factors) expect(user(srv!.requests[1])).toMatch(new RegExp(`^${f} `, 'm'));
  });

  it('a ply whose polished output reads TERMINATE (the Developer abstained, the Analyst passed it) is an abstention at that ply; nothing more is asked (before: kept as an argued ply, the triple counted as argued)', async () => {
    const llm = await modelFor((r) => {
      switch (role(r)) {
        case 'developer':
          return { content: 'TERMINATE: no grounded argument can be made.' };
        case 'analyst':
          return json({ analysis_outcome: 'VALID_ARGUMENT', summary: 'valid' });
        case 'polisher':
          return json({ revision_needed: false, feedback_summary: 'ok', polished_argument: 'TERMINATE: no grounded argument can be made.' });
        default:
          return { status: 500, error: `unexpected ${role(r)} call` };
      }
    });
    const out = await createThreePlySystem({ kind: 'reflective', factors })(mismatched, ctxFor(llm));
    expect(out.prediction).toBe('abstain');
    expect(out.trace.terminatedAt).toBe('plaintiff');
    expect(out.metrics).toMatchObject({ abstained: true, nH: 0, nUtil: 0 });
    expect(srv!.requests.map(role)).toEqual(['developer', 'analyst', 'polisher']);
  });

  it('the single agent: plies a reply writes after its TERMINATE are not scored (before: distilled, an abstaining triple with N_h 3)', async () => {
    const llm = await modelFor((r) => {
      switch (role(r)) {
        case 'single':
        case 'single-enhanced':
          return json({
            "Plaintiff's Argument": 'TERMINATE: c2 was won by the Defendant.',
            "Defendant's Counterargument": 'c1 has F26 and F27.',
            "Plaintiff's Rebuttal": 'c1 has F25.',
          });
        case 'distiller':
          return json({ c1: ['F26', 'F27', 'F25'], c2: [], c3: [] });
        default:
          return { status: 500, error: `unexpected ${role(r)} call` };
      }
    });
    const out = await createThreePlySystem({ kind: 'single', factors })(mismatched, ctxFor(llm));
    expect(out.prediction).toBe('abstain');
    expect(out.trace.terminatedAt).toBe('plaintiff');
    expect(Object.keys(out.trace.plies as object)).toEqual(['plaintiff']);
    expect(out.metrics).toMatchObject({ abstained: true, nH: 0 });
    expect(srv!.requests.map(role)).not.toContain('distiller');
  });

  it('TERMINATEs on a mismatched triple because c2 was won by the Defendant', async () => {
    const llm = await modelFor((r) =>
      role(r) === 'developer'
        ? { content: `c1 and c2 share ${shared(mismatched, 'c2')[0]}.` }
        : role(r) === 'analyst'
          ? json({ analysis_outcome: analystVerdict(r), summary: "c2's outcome is Defendant." })
          : { status: 500 },
    );
    const out = await createThreePlySystem({ kind: 'reflective', factors })(mismatched, ctxFor(llm));
    expect(out.prediction).toBe('abstain');
    expect(out.trace.reason).toBe("c2's outcome is Defendant.");
  });

  it('argues an arguable triple: accepts, corrects once, never revises twice, then scores the distilled factors', async () => {
    const p2 = shared(arguable, 'c2');
    const p3 = shared(arguable, 'c3');
    const llm = await modelFor((r) => {
      const ply = plyOf(r);
      switch (role(r)) {
        case 'developer':
          return { content: `DRAFT ${ply}` };
        case 'revise':
          return { content: `REVISED ${ply}` };
        case 'analyst': {
          const verdict = analystVerdict(r);
          if (verdict !== 'VALID_ARGUMENT') return json({ analysis_outcome: verdict, summary: 'unexpected' });
          // the first defendant draft misattributes a factor; everything else is valid
          if (ply === "Defendant's Counterargument" && user(r).includes('DRAFT'))
            return json({
              analysis_outcome: 'REQUIRES CORRECTION',
              summary: 'F9 is not a factor of c3.',
              correction_details: { fabricated_or_misrepresented_factors: ['F9 (claimed for c3)'] },
            });
          return json({ analysis_outcome: 'VALID_ARGUMENT', summary: 'valid' });
        }
        case 'polisher': {
          const revised = user(r).includes('REVISED');
          // the rebuttal polisher keeps asking for a revision: only one may happen
          const again = ply === "Plaintiff's Rebuttal";
          return json({
            revision_needed: again ? true : false,
            feedback_summary: 'ok',
            instructions_for_developer: again ? 'use more factors' : '',
            polished_argument: `POLISHED ${revised ? 'REVISED ' : ''}${ply}`,
          });
        }
        case 'distiller':
          return json({ c1: [...p2, ...p3, 'F9 Imaginary (P)'], c2: p2, c3: p3 });
        default:
          return { status: 500 };
      }
    });
    const out = await createThreePlySystem({ kind: 'reflective', factors })(arguable, ctxFor(llm));
    expect(out.prediction).toBe('argue');
    expect(srv!.requests.map(role)).toEqual([
      'developer',
      'analyst',
      'polisher',
      'developer',
      'analyst',
      'polisher',
      'revise',
      'analyst',
      'polisher',
      'developer',
      'analyst',
      'polisher',
      'revise',
      'analyst',
      'polisher',
      'distiller',
    ]);
    expect(out.trace.plies).toEqual({
      plaintiff: "POLISHED Plaintiff's Argument",
      defendant: "POLISHED REVISED Defendant's Counterargument",
      rebuttal: "POLISHED REVISED Plaintiff's Rebuttal",
    });
    // the revision request carries the analyst's correction
    const revise = srv!.requests.find((r) => role(r) === 'revise')!;
    expect(user(revise)).toContain('F9 (claimed for c3)');
    // the trace keeps the outcome as the Analyst wrote it beside the normalised one
    const steps = out.trace.steps as { role: string; decision?: string; output: Record<string, unknown> }[];
    expect(steps.find((s) => s.role === 'analyst' && s.decision === 'REQUIRES_CORRECTION')?.output).toMatchObject({
      analysis_outcome: 'REQUIRES_CORRECTION',
      analysis_outcome_as_written: 'REQUIRES CORRECTION',
    });
    expect(steps.find((s) => s.role === 'analyst' && s.decision === 'VALID_ARGUMENT')?.output).not.toHaveProperty('analysis_outcome_as_written');
    // later plies see the earlier (polished) ones
    const rebuttalDraft = srv!.requests.filter((r) => role(r) === 'developer')[2];
    expect(user(rebuttalDraft)).toContain("POLISHED REVISED Defendant's Counterargument");
    // distiller input is the final argument as JSON with the paper's keys
    expect(JSON.parse(user(srv!.requests.at(-1)!))).toHaveProperty(["Plaintiff's Argument"]);
    const nGt = arguable.c1.factors.length + arguable.c2.factors.length + arguable.c3.factors.length;
    const nUtil = new Set([...p2, ...p3]).size + p2.length + p3.length;
    expect(out.metrics).toMatchObject({ abstained: false, nH: 1, nGt, nUtil });
    expect(out.metrics!.hallucinationAccuracy).toBeCloseTo(1 - 1 / nGt);
  });

  it("TERMINATE is per ply: an abstention at the Defendant's ply keeps the Plaintiff's polished ply, which is distilled and scored", async () => {
    const llm = await modelFor((r) => {
      switch (role(r)) {
        case 'developer':
          return { content: `draft of ${plyOf(r)}` };
        case 'analyst':
          return plyOf(r) === "Defendant's Counterargument"
            ? json({ summary: 'c3 shares no factor with c1', analysis_outcome: 'REQUIRES_ABSTENTION' })
            : json({ summary: 'valid', analysis_outcome: 'VALID_ARGUMENT' });
        case 'polisher':
          return json({ revision_needed: false, polished_argument: `POLISHED ${plyOf(r)}` });
        case 'distiller':
          return json({ c1: [arguable.c1.factors[0], 'F99 Invented (P)'], c2: [], c3: [] });
        default:
          return { status: 500 };
      }
    });
    const out = await createThreePlySystem({ kind: 'reflective', factors })(arguable, ctxFor(llm));
    expect(out.prediction).toBe('abstain');
    expect(out.trace).toMatchObject({
      terminatedAt: 'defendant',
      plies: { plaintiff: "POLISHED Plaintiff's Argument", defendant: 'TERMINATE: c3 shares no factor with c1' },
    });
    expect(srv!.requests.map(role)).toEqual(['developer', 'analyst', 'polisher', 'developer', 'analyst', 'distiller']);
    expect(JSON.parse(user(srv!.requests.at(-1)!))).toEqual({ "Plaintiff's Argument": "POLISHED Plaintiff's Argument" });
    // the argued ply's factors count: one used, one hallucinated; the triple is an abstention
    expect(out.metrics).toMatchObject({ abstained: true, nH: 1, nUtil: 1 });
  });

  it('counts the plies kept at the cap of one revision while the Factor Analyst still requires correction, and report.md says so', async () => {
    // an Analyst that finds the same fabricated factor in every draft and every revision
    const llm = await modelFor((r) => {
      switch (role(r)) {
        case 'developer':
        case 'revise':
          return { content: `text ${plyOf(r)} citing F9 for c1` };
        case 'analyst':
          return json({ summary: 'F9 is not a factor of c1.', analysis_outcome: 'REQUIRES_CORRECTION' });
        case 'polisher':
          return json({ revision_needed: false, polished_argument: `POLISHED ${plyOf(r)}` });
        case 'distiller':
          return json({ c1: ['F9 Imaginary (P)'], c2: [], c3: [] });
        default:
          return { status: 500 };
      }
    });
    const out = await createThreePlySystem({ kind: 'reflective', factors })(arguable, ctxFor(llm));
    expect(out.prediction).toBe('argue');
    expect(srv!.requests.filter((r) => role(r) === 'revise')).toHaveLength(3);
    expect(out.metrics).toMatchObject({ revisedPlies: 3, uncorrectedPlies: 3, nH: 1 });
    const record = { id: arguable.id, prediction: 'argue', gold: 'argue', correct: true, metrics: out.metrics } as ResultRecord;
    const clean = { ...record, id: 'arguable-002', metrics: { ...out.metrics, revisedPlies: 1, uncorrectedPlies: 0 } };
    expect(reflectionText([record, clean])).toBe(
      '**Reflection:** 4 plies were revised (at most once each, the paper’s cap, §3.3); 3 of them (in 1 triple) were kept although the Factor Analyst’s re-check still required correction: the factor errors it found stay in the argument and count in N_h (metrics revisedPlies, uncorrectedPlies). 0 plies (in 0 triples) were kept unpolished: the Argument Polisher’s reply gave an empty `polished_argument`, so the draft it assessed stands (metrics unpolishedPlies).',
    );
    // the baselines record no revisions: no line
    expect(reflectionText([{ ...record, metrics: { nH: 0 } }])).toBeNull();
  });

  it('a Polisher reply with an empty polished_argument keeps the draft it assessed, counted in unpolishedPlies and report.md', async () => {
    // the Polisher accepts the Plaintiff's and the Rebuttal's drafts but writes no polished text for them
    const llm = await modelFor((r) => {
      switch (role(r)) {
        case 'developer':
          return { content: `DRAFT ${plyOf(r)}` };
        case 'analyst':
          return json({ summary: 'valid', analysis_outcome: 'VALID_ARGUMENT' });
        case 'polisher':
          return json({ revision_needed: false, polished_argument: plyOf(r) === "Defendant's Counterargument" ? `POLISHED ${plyOf(r)}` : '' });
        case 'distiller':
          return json({ c1: [], c2: [], c3: [] });
        default:
          return { status: 500 };
      }
    });
    const out = await createThreePlySystem({ kind: 'reflective', factors })(arguable, ctxFor(llm));
    expect(out.trace.plies).toEqual({
      plaintiff: "DRAFT Plaintiff's Argument",
      defendant: "POLISHED Defendant's Counterargument",
      rebuttal: "DRAFT Plaintiff's Rebuttal",
    });
    expect(out.metrics).toMatchObject({ revisedPlies: 0, uncorrectedPlies: 0, unpolishedPlies: 2 });
    const record = { id: arguable.id, prediction: 'argue', gold: 'argue', correct: true, metrics: out.metrics } as ResultRecord;
    const before = { ...record, id: 'arguable-002', metrics: { revisedPlies: 0, uncorrectedPlies: 0 } }; // a triple run before the count
    expect(reflectionText([record, before])).toContain(
      '2 plies (in 1 triple) were kept unpolished: the Argument Polisher’s reply gave an empty `polished_argument`, so the draft it assessed stands (metrics unpolishedPlies); 1 triple was run before this count and is not in it.',
    );
  });

  it('a Polisher reply that leaves out revision_needed is refused and asked again, not read as no revision', async () => {
    // each ply's first Polisher reply has no decision; asked again, it requires a revision
    let asked = 0;
    const llm = await modelFor((r) => {
      switch (role(r)) {
        case 'developer':
        case 'revise':
          return { content: `text ${plyOf(r)}` };
        case 'analyst':
          return json({ summary: 'valid', analysis_outcome: 'VALID_ARGUMENT' });
        case 'polisher': {
          const n = ++asked; // odd: a first ask, even: the retry (whose last message is the parse error)
          if (n % 2 === 1) return json({ feedback_summary: 'F6 unused', instructions_for_developer: 'use F6', polished_argument: 'P' });
          return json({ feedback_summary: 'F6 unused', revision_needed: true, instructions_for_developer: 'use F6', polished_argument: 'P' });
        }
        case 'distiller':
          return json({ c1: [], c2: [], c3: [] });
        default:
          return { status: 500 };
      }
    });
    const out = await createThreePlySystem({ kind: 'reflective', factors })(arguable, ctxFor(llm));
    expect(out.error).toBeUndefined();
    // before: the missing decision read as false, no ply was revised and the Polisher was asked once per ply
    expect(out.metrics).toMatchObject({ revisedPlies: 3 });
    expect(srv!.requests.filter((r) => role(r) === 'revise')).toHaveLength(3);
    expect(srv!.requests.filter((r) => role(r) === 'polisher')).toHaveLength(12); // each ply's two polishings, each asked twice
  });

  it('still TERMINATEs when the re-check of a revision requires abstention', async () => {
    const llm = await modelFor((r) => {
      if (role(r) === 'developer' || role(r) === 'revise') return { content: `text ${plyOf(r)}` };
      if (role(r) === 'analyst') {
        const n = srv!.requests.filter((x) => role(x) === 'analyst').length;
        return json({ analysis_outcome: n === 1 ? 'REQUIRES_CORRECTION' : 'REQUIRES_ABSTENTION', summary: `check ${n}` });
      }
      return json({ revision_needed: false, polished_argument: 'p' });
    });
    const out = await createThreePlySystem({ kind: 'reflective', factors })(arguable, ctxFor(llm));
    expect(out.prediction).toBe('abstain');
    expect(out.trace.reason).toBe('check 2');
    expect(out.trace.plies).toEqual({ plaintiff: 'TERMINATE: check 2' });
    expect(srv!.requests.map(role)).toEqual(['developer', 'analyst', 'polisher', 'revise', 'analyst']);
  });
});

describe('3-ply baselines (scripted server)', () => {
  const threePly = { "Plaintiff's Argument": 'a', "Defendant's Counterargument": 'b', "Plaintiff's Rebuttal": 'c' };

  it.each<[ThreePlySystemKind, string, 'argue' | 'abstain', boolean]>([
    ['single', JSON.stringify(threePly), 'argue', true],
    ['single', 'TERMINATE: no grounded argument', 'abstain', false],
    ['single-enhanced', 'Step 1: c1 shares nothing with c2.\nStep 2: abstain.\nTERMINATE: no common factors', 'abstain', false],
    ['single-enhanced', 'Step 1: ok\n```json\n' + JSON.stringify(threePly) + '\n```', 'argue', true],
    // a TERMINATE ply: an abstention, and the plies it did argue are kept and scored (TERMINATE is per ply)
    ['single', JSON.stringify({ ...threePly, "Defendant's Counterargument": 'TERMINATE: c3 was won by the Plaintiff' }), 'abstain', true],
  ])('%s replying %j → %s', async (kind, reply, expected, distilled) => {
    const llm = await modelFor((r) => (role(r) === 'distiller' ? json({ c1: [], c2: [], c3: [] }) : role(r) === kind ? { content: reply } : { status: 500 }));
    const out = await createThreePlySystem({ kind, factors })(arguable, ctxFor(llm));
    expect(out.prediction).toBe(expected);
    expect(srv!.requests.map(role)).toEqual(distilled ? [kind, 'distiller'] : [kind]);
  });

  it('multi-agent without reflection: plaintiff, defendant, plaintiff in turn, each seeing the earlier plies', async () => {
    const llm = await modelFor((r) => (role(r) === 'distiller' ? json({ c1: ['F1'], c2: [], c3: [] }) : { content: `${role(r)} says ${plyOf(r)}` }));
    const out = await createThreePlySystem({ kind: 'multi-no-reflection', factors })(arguable, ctxFor(llm));
    expect(out.prediction).toBe('argue');
    expect(srv!.requests.map(role)).toEqual(['plaintiff', 'defendant', 'plaintiff', 'distiller']);
    expect(user(srv!.requests[1])).toContain("plaintiff says Plaintiff's Argument");
    expect(user(srv!.requests[2])).toContain("defendant says Defendant's Counterargument");
  });
});
