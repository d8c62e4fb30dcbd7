/**
 * ACAL as an agent system for the experiment runner: for each LegalBench item, gather hybrid-RAG
 * evidence, run the arena, save the argument graph to <graphDir>/acal/<itemId>.graph.json and
 * return the verdict ("Yes"/"No") with a trace.
 */
import type { TaskExample } from '../../corpora/types.js';
import type { AgentSystem } from '../../eval/types.js';
import { errors } from '../../core/errors.js';
import { runArena, type ArenaOptions } from './arena.js';
import { gatherEvidence } from './evidence.js';
import { evidenceCutTrace } from './prompts.js';
import { writeGraph } from './graph/store.js';
import { acalTask } from './tasks.js';
import { DEFAULT_K } from '../../retrieval/default-k.js';

export interface AcalSystemOptions extends Omit<ArenaOptions, 'signal'> {
  task: string;
  /** Evidence passages per item (paper: top-k, k = 5). */
  k?: number;
  /** Run directory; graphs go to <graphDir>/acal/. Omit to keep graphs only in the trace. */
  graphDir?: string;
}

export function createAcalSystem(opts: AcalSystemOptions): AgentSystem<TaskExample> {
  const task = acalTask(opts.task);
  const k = opts.k ?? DEFAULT_K; // once, here (runAcal passes the k it resolved)
  return async (item, ctx) => {
    if (!ctx.llm) throw errors.llmNotConfigured();
    const ev = await gatherEvidence(ctx, task.query(item.text), k);
    const { graph, trace } = await runArena(
      ctx.llm,
      { itemId: item.id, seed: ctx.seed, task, caseText: item.text, evidence: ev.passages },
      { ...opts, signal: ctx.signal },
    );
    const graphFile = opts.graphDir ? writeGraph(opts.graphDir, graph) : undefined;
    const r = graph.result!;
    return {
      prediction: r.verdict,
      confidence: r.decidedBy === 'judge' ? 'judge' : r.inBand ? 'low' : 'high',
      // arguments written with empty text were dropped: counted as failed steps (results.jsonl, report.md)
      ...(trace.emptyArgumentsDropped ? { stepFailures: { 'argument with empty text': trace.emptyArgumentsDropped } } : {}),
      trace: {
        system: 'acal',
        semantics: r.semantics,
        claimStrength: r.claimStrength,
        decidedBy: r.decidedBy,
        evidenceTool: ev.tool,
        evidenceIds: ev.passages.map((p) => p.id),
        ...evidenceCutTrace(ev.passages, opts.passageChars),
        ...(graphFile ? { graphFile } : { graph }),
        ...trace,
      },
      metrics: {
        claimStrength: r.claimStrength,
        judged: trace.judged,
        clashes: trace.clashes,
        arguments: graph.arguments.length,
        relations: graph.relations.length / 2,
        llmCalls: trace.llmCalls,
        teamSize: Math.min(trace.teams.support.length, trace.teams.attack.length),
        converged: r.converged,
        inBand: r.inBand,
        // citations written as no passage handle shown: dropped from the arguments (eval/run-counts.ts unresolvedCitationsText)
        unresolvedCitations: trace.unresolvedCitations ?? 0,
      },
    };
  };
}
