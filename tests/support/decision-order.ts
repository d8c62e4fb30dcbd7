/**
 * Reasoning before the decision (issue 36, item 4): constrained decoding (OpenAI strict mode, vLLM,
 * llama.cpp, Ollama) writes an object's keys in the schema's order, so a schema that lists the
 * verdict before the reasoning makes the model decide first and justify afterwards. This walks a
 * sent JSON Schema and names every object whose decision key comes before one of its reasoning keys.
 *
 * Keys are classed by name, the convention of every lexcase reply schema:
 *  - decision: verdict, decision, winner, answer, vote, analysis_outcome, score, relation, role
 *    (ACAL's team pick), revision_needed, and the 3-ply Polisher's grades accuracy_assessment, strength_assessment,
 *    factor_utilization_assessment (enums the model picks: a judgement, not its reasoning);
 *  - reasoning: exactly reasoning, rationale, reason, note, summary, analysis, argument,
 *    justification, explanation, established_facts, feedback_summary (a key is reasoning only by
 *    name, never by a suffix).
 * An object with no reasoning key (ACAL relations: relation + confidence) has nothing to order; a
 * picked item and its justification ({id, justification}) names no verdict, but ACAL's team pick
 * does (the role chosen: {reason, role}).
 *
 *   expect(decisionBeforeReasoning(schema)).toEqual([]);
 */
type Json = Record<string, unknown>;

export const DECISION_KEYS: ReadonlySet<string> = new Set([
  'verdict',
  'decision',
  'winner',
  'answer',
  'vote',
  'analysis_outcome',
  'score',
  'relation',
  'role',
  'revision_needed',
  'accuracy_assessment',
  'strength_assessment',
  'factor_utilization_assessment',
]);
export const REASONING_KEYS: ReadonlySet<string> = new Set([
  'reasoning',
  'rationale',
  'reason',
  'note',
  'summary',
  'analysis',
  'argument',
  'justification',
  'explanation',
  'established_facts',
  'feedback_summary',
]);

export const isReasoningKey = (k: string): boolean => REASONING_KEYS.has(k);

const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** "path: decision key "verdict" before reasoning key "rationale"" for every such object in `schema`. */
export function decisionBeforeReasoning(schema: unknown, path = '(root)'): string[] {
  const out: string[] = [];
  const visit = (node: unknown, at: string, depth: number): void => {
    if (!isObj(node) || depth > 20) return;
    if (isObj(node.properties)) {
      const keys = Object.keys(node.properties);
      keys.forEach((k, i) => {
        if (!DECISION_KEYS.has(k)) return;
        for (const later of keys.slice(i + 1)) if (isReasoningKey(later)) out.push(`${at}: decision key "${k}" before reasoning key "${later}"`);
      });
      for (const k of keys) visit(node.properties[k], `${at}.${k}`, depth + 1);
    }
    if (node.items !== undefined) visit(node.items, `${at}[]`, depth + 1);
    if (Array.isArray(node.anyOf)) node.anyOf.forEach((s, i) => visit(s, `${at}.anyOf[${i}]`, depth + 1));
    if (isObj(node.$defs)) for (const [k, s] of Object.entries(node.$defs)) visit(s, `${at}.$defs.${k}`, depth + 1);
  };
  visit(schema, path, 0);
  return out;
}
