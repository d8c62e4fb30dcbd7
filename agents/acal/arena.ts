/**
 * The ACAL arena for one item: adaptive team selection → grounded argument generation →
 * rubric scoring → LLM relation identification → clash resolution → QBAF semantics →
 * threshold decision with uncertainty-aware escalation to a judge. Returns the argument graph
 * (saved with the run, contestable later without any LLM) and a trace of every LLM step.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { findClashes } from './graph/clash.js';
import { withResult } from './graph/recompute.js';
import { ACAL_CODE_VALUES, PAPER_DEFAULTS, type AcalArgument, type AcalGraph } from './graph/types.js';
import type { EvidencePassage } from './llm/common.js';
import { generateArguments } from './llm/generate-arguments.js';
import { identifyRelations } from './llm/identify-relations.js';
import { judge } from './llm/judge.js';
import { resolveClashes } from './llm/resolve-clashes.js';
import { scoreArguments } from './llm/score-arguments.js';
import { selectTeam } from './llm/select-team.js';
import type { SemanticsName } from './semantics/types.js';
import type { AcalTask } from './tasks.js';
import { withPassageHandles } from '../common/passage-handles.js';
import { seededOrder, type PresentationRecord } from '../common/presentation-order.js';
import { deriveSeed } from '../../core/rng.js';
import { inCallBranches } from '../../core/llm/record-replay.js';

export interface ArenaOptions {
  semantics?: SemanticsName;
  /** Clash resolution on (default) / off (ablation). */
  clashResolution?: boolean;
  /** Uncertainty-aware escalation on (default) / off (ablation). */
  escalation?: boolean;
  delta?: number;
  beta?: number;
  threshold?: number;
  band?: [number, number];
  maxAgentsPerTeam?: number;
  relationBatchSize?: number;
  relationMinConfidence?: number;
  /** Characters of each evidence passage the agents are shown (default passage-chars.ts). */
  passageChars?: number;
  signal?: AbortSignal;
}

export interface ArenaInput {
  itemId: string;
  /** The item's seed (ctx.seed), for the seeded presentation orders; default deriveSeed(13, itemId). */
  seed?: number;
  task: AcalTask;
  caseText: string;
  evidence: EvidencePassage[];
}

export interface ArenaTrace {
  teams: { support: { role: string; reason: string }[]; attack: { role: string; reason: string }[] };
  /** Roles the selector named twice for a team (each makes the team one agent smaller); 0 normally. */
  teamRolesRepeated: number;
  droppedCitations: { argument: string; ids: string[] }[];
  /** The citations of the item's arguments written as no passage handle shown (PassageHandles `cite`): among droppedCitations; absent before 2026-12-01. */
  unresolvedCitations?: number;
  /** Arguments a writer gave with empty text, dropped (an agent left with none is not scored); 0 normally. */
  emptyArgumentsDropped: number;
  relationCalls: number;
  pairJudgements: { pair: string; relation: string; confidence: number; kept: string }[];
  clashes: number;
  judged: boolean;
  llmCalls: number;
  /** The seeded presentation orders used (team role lists, argument order, clash sides). */
  presentation: PresentationRecord[];
}

/** Models see the evidence under the item's passage handles (P1..), never real ids (issue 15). */
export function runArena(llm: BaseChatModel, input: ArenaInput, opts: ArenaOptions = {}): Promise<{ graph: AcalGraph; trace: ArenaTrace }> {
  return withPassageHandles(async (h) => {
    for (const p of input.evidence) h.handle(p.id); // evidence order fixes P1..Pk
    const out = await arena(llm, input, opts);
    // the citations written as no handle shown ("P3, P5", "P99"): dropped (droppedCitations), counted per item
    return { ...out, trace: { ...out.trace, unresolvedCitations: h.unresolved } };
  });
}

async function arena(llm: BaseChatModel, input: ArenaInput, opts: ArenaOptions): Promise<{ graph: AcalGraph; trace: ArenaTrace }> {
  const semantics = opts.semantics ?? 'quadratic';
  const signal = opts.signal;
  const c = { task: input.task, claim: input.task.claim, caseText: input.caseText, evidence: input.evidence, passageChars: opts.passageChars };
  const seed = input.seed ?? deriveSeed(13, input.itemId);
  let llmCalls = 0;

  // concurrent calls as branches of the item's log (record-replay.ts): llm/<item>.jsonl in this order, not reply order
  const [sup, att] = await inCallBranches(['support', 'attack'] as const, (side) =>
    selectTeam(llm, c, side, { maxAgents: opts.maxAgentsPerTeam, signal, seed }),
  );
  const presentation: PresentationRecord[] = [sup.presentation, att.presentation];
  llmCalls += 2;
  const members = [...sup.team.map((m) => ({ ...m, side: 'support' as const })), ...att.team.map((m) => ({ ...m, side: 'attack' as const }))];
  const drafts = await inCallBranches(members, (m) => generateArguments(llm, c, m.role, m.side, { signal }));
  llmCalls += members.length;

  const args: AcalArgument[] = [];
  const droppedCitations: ArenaTrace['droppedCitations'] = [];
  const byAgent: AcalArgument[][] = [];
  const counters = { support: 0, attack: 0 };
  members.forEach((m, i) => {
    const mine: AcalArgument[] = [];
    for (const d of drafts[i].arguments) {
      const id = `${m.side === 'support' ? 's' : 'a'}${++counters[m.side]}`;
      const a: AcalArgument = {
        id,
        agent: m.role,
        side: m.side,
        text: d.text,
        baseStrength: 0.5,
        citedPassageIds: d.citedPassageIds,
        status: 'proposed',
        origin: 'llm',
      };
      if (d.droppedCitations.length) droppedCitations.push({ argument: id, ids: d.droppedCitations });
      mine.push(a);
      args.push(a);
    }
    byAgent.push(mine);
  });

  const emptyArgumentsDropped = drafts.reduce((n, d) => n + d.emptyDropped, 0);
  const toScore = byAgent.filter((mine) => mine.length > 0);
  const scored = await inCallBranches(toScore, (mine) => scoreArguments(llm, c, mine, { signal }));
  llmCalls += toScore.length;
  for (const s of scored)
    for (const [id, v] of Object.entries(s.scores)) {
      const a = args.find((x) => x.id === id)!;
      a.baseStrength = v.score;
      a.rubricNote = v.note;
    }

  // The paper pairs (αi, αj), i < j, and lists the arguments for the judge, without fixing their
  // order: a seeded order of all arguments, so neither side is always first ("argument order").
  const ordered = seededOrder(args, (a) => a.id, { seed, kind: 'argument order', first: (xs) => xs[0]?.side ?? 'none' });
  args.splice(0, args.length, ...ordered.items);
  presentation.push(ordered.record);

  const rel = await identifyRelations(llm, `${input.task.context}\nCASE: ${input.caseText}\nCLAIM: ${c.claim}`, args, {
    batchSize: opts.relationBatchSize ?? PAPER_DEFAULTS.relationBatchSize,
    minConfidence: opts.relationMinConfidence ?? PAPER_DEFAULTS.relationMinConfidence,
    signal,
  });
  llmCalls += rel.calls;

  const delta = opts.delta ?? PAPER_DEFAULTS.delta;
  let graph: AcalGraph = {
    version: 1,
    itemId: input.itemId,
    task: input.task.name,
    claim: { id: 'claim', text: c.claim, base: PAPER_DEFAULTS.claimBase },
    caseText: input.caseText,
    evidence: input.evidence.map((p) => ({ id: p.id, text: p.text, ...(p.title ? { title: p.title } : {}) })),
    arguments: args,
    relations: rel.relations,
    clash: {
      delta,
      beta: opts.beta ?? PAPER_DEFAULTS.beta,
      clamp: semantics === 'acal-compat' ? ACAL_CODE_VALUES.clashClamp : [0, 1],
      outcomes: [],
    },
    settings: { semantics, threshold: opts.threshold ?? PAPER_DEFAULTS.threshold, band: opts.band ?? PAPER_DEFAULTS.band },
    revision: 0,
  };

  let clashes = 0;
  if (opts.clashResolution !== false) {
    const pairs = findClashes(args, rel.relations, delta);
    clashes = pairs.length;
    if (pairs.length) {
      const r = await resolveClashes(llm, c, pairs, args, { signal, seed });
      llmCalls += pairs.length;
      presentation.push(...r.presentation);
      graph = { ...graph, clash: { ...graph.clash, outcomes: r.outcomes } };
    }
  }

  graph = withResult(graph);
  let judged = false;
  if (opts.escalation !== false && graph.result!.inBand) {
    const j = await judge(llm, c, graph, { signal });
    llmCalls++;
    judged = true;
    graph = withResult({ ...graph, judge: { decision: j.decision, reasoning: j.reasoning, claimStrength: graph.result!.claimStrength, revision: 0 } });
  }

  return {
    graph,
    trace: {
      teams: { support: sup.team, attack: att.team },
      teamRolesRepeated: sup.repeated + att.repeated,
      droppedCitations,
      emptyArgumentsDropped,
      relationCalls: rel.calls,
      pairJudgements: rel.judgements.map(({ pair, relation, confidence, kept }) => ({ pair, relation, confidence, kept })),
      clashes,
      judged,
      llmCalls,
      presentation,
    },
  };
}
