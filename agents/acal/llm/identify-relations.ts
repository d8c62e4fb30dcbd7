/**
 * LLM relation identification (ACAL §3.2.4): every pair (αi, αj), i < j, is classified as
 * attack / support / neutral with a confidence, b pairs per call (default b = 10, so
 * ⌈C(n,2)/b⌉ calls). Relations with confidence < 0.6 are demoted to neutral; established
 * relations are made bidirectional; neutral pairs add no edge.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { z } from 'zod';
import { sendAs } from '../../../core/llm/json-schema.js';
import { invokeStructured } from '../../../core/llm/structured.js';
import type { AcalRelation } from '../graph/types.js';
import { RELATIONS_SYSTEM, relationsPrompt } from '../prompts.js';
import { msgs } from './common.js';

export interface RelationInput {
  id: string;
  side: 'support' | 'attack';
  text: string;
}

export interface PairJudgement {
  pair: string;
  a: string;
  b: string;
  relation: 'attack' | 'support' | 'neutral';
  confidence: number;
  /** The relation after the confidence threshold. */
  kept: 'attack' | 'support' | 'neutral';
}

export function pairsOf(args: RelationInput[]): { pair: string; a: RelationInput; b: RelationInput }[] {
  const out = [];
  for (let i = 0; i < args.length; i++) for (let j = i + 1; j < args.length; j++) out.push({ pair: `${args[i].id}~${args[j].id}`, a: args[i], b: args[j] });
  return out;
}

export async function identifyRelations(
  llm: BaseChatModel,
  context: string,
  args: RelationInput[],
  opts: { batchSize?: number; minConfidence?: number; signal?: AbortSignal } = {},
): Promise<{ relations: AcalRelation[]; judgements: PairJudgement[]; calls: number; raw: string[] }> {
  const b = opts.batchSize ?? 10;
  const minConf = opts.minConfidence ?? 0.6;
  const pairs = pairsOf(args);
  const judgements: PairJudgement[] = [];
  const raw: string[] = [];
  let calls = 0;
  for (let start = 0; start < pairs.length; start += b) {
    const batch = pairs.slice(start, start + b);
    const ids = batch.map((p) => p.pair);
    const r = await invokeStructured(llm, msgs(RELATIONS_SYSTEM, relationsPrompt(context, batch)), relationsSchema(ids), {
      what: 'argument relations',
      signal: opts.signal,
    });
    calls++;
    raw.push(...r.raw);
    for (const p of batch) {
      const j = r.value.relations[p.pair];
      judgements.push({
        pair: p.pair,
        a: p.a.id,
        b: p.b.id,
        relation: j.relation,
        confidence: j.confidence,
        kept: j.relation !== 'neutral' && j.confidence >= minConf ? j.relation : 'neutral',
      });
    }
  }
  return { relations: relationsFromJudgements(judgements), judgements, calls, raw };
}

const RELATIONS = ['attack', 'support', 'neutral'] as const;

/**
 * How an ACAL run reads a relations reply, recorded in its config.json (`relationsReading`): a run dir
 * an older lexcase started, which kept the first of two different judgements of one pair in a list-form
 * reply, resumes with a warning (eval/resume-unrecorded.ts).
 */
export const RELATIONS_READING = 'one judgement per pair; a list-form reply that judges a pair twice two ways is refused';
const judgement = z.object({ relation: z.enum(RELATIONS), confidence: z.number().min(0).max(1) });

/**
 * The judgements of exactly the pairs `ids` ("s1~a2"): sent as an object with one required property
 * per pair (a schema-following server must judge every pair of the batch); parsed from that object
 * or from the older list form [{pair, relation, confidence}], refused when a pair is missing or, in
 * the list form, judged twice two ways (before 2026-12-01 the first judgement was kept, unsaid).
 */
export function relationsSchema(ids: string[]) {
  const byPair = z
    .union([z.record(z.string(), judgement), z.array(judgement.extend({ pair: z.string() }))])
    .transform((v, ctx) => {
      const out: Record<string, z.infer<typeof judgement>> = {};
      if (!Array.isArray(v)) return Object.assign(out, v);
      for (const j of v) {
        const seen = out[j.pair];
        // a pair judged twice two ways names no relation: refused (asked again once), never its first judgement
        if (seen && (seen.relation !== j.relation || seen.confidence !== j.confidence))
          ctx.addIssue({ code: 'custom', message: `pair ${j.pair} judged twice: ${seen.relation} ${seen.confidence}, then ${j.relation} ${j.confidence}` });
        out[j.pair] ??= { relation: j.relation, confidence: j.confidence };
      }
      return out;
    })
    .superRefine((v, ctx) => {
      const missing = ids.filter((id) => !(id in v));
      if (missing.length) ctx.addIssue({ code: 'custom', message: `missing pairs ${missing.join(', ')}` });
    });
  const item = {
    type: 'object',
    properties: { relation: { type: 'string', enum: [...RELATIONS] }, confidence: { type: 'number', minimum: 0, maximum: 1 } },
    required: ['relation', 'confidence'],
    additionalProperties: false,
  };
  return z.object({
    relations: sendAs(byPair, { type: 'object', properties: Object.fromEntries(ids.map((id) => [id, item])), required: ids, additionalProperties: false }),
  });
}

/** Bidirectional edges for every kept support/attack judgement. */
export function relationsFromJudgements(js: PairJudgement[]): AcalRelation[] {
  const out: AcalRelation[] = [];
  for (const j of js) {
    if (j.kept === 'neutral') continue;
    out.push({ from: j.a, to: j.b, kind: j.kept, confidence: j.confidence, origin: 'llm' });
    out.push({ from: j.b, to: j.a, kind: j.kept, confidence: j.confidence, origin: 'llm' });
  }
  return out;
}
