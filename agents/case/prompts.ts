/**
 * CASE prompt texts. The paper (Babel et al. 2025) describes each role but does not print its
 * prompts; these follow its descriptions: the advocate "constructs the strongest possible legal
 * argument for h_i … analyzes h_i, strategically selects and uses its tools to iteratively search the
 * corpus, reflects on the retrieved snippets, refines its search strategy, and finally compiles the
 * set E_i of the k most compelling evidence snippets"; jurors review "the user's query and the complete
 * set of hypothesis-evidence pairs" with chain-of-thought and vote A–D.
 */
import type { Persona } from './personas.js';

export function advocateSystemPrompt(k: number, stance: 'for' | 'against', toolNames: string[]): string {
  const goal =
    stance === 'for'
      ? 'Your goal is to construct the strongest possible legal argument FOR the hypothesis you are given.'
      : 'Your goal is to find the strongest legal authority AGAINST the hypothesis you are given: rules, exceptions and missing conditions that would defeat it.';
  return [
    'You are an Advocate in a courtroom-style legal research team.',
    goal,
    `Tools: ${toolNames.join(', ')}. Each search tool returns passage ids, scores and snippets from a legal corpus.`,
    'Work in a loop: (1) analyse the hypothesis: which legal issue and rule would decide it; (2) choose a tool and search;',
    '(3) reflect on the snippets you got back; (4) refine your query (different terms, the governing rule, exceptions) and search again if the evidence is weak.',
    ...(stance === 'for'
      ? [
          'Default plan for your first searches: the hypothesis alone, then its key legal terms, then the facts + the hypothesis. Queries built from the long fact pattern mostly return passages about the facts, not the rule that decides the hypothesis.',
        ]
      : []),
    `When you are done, reply WITHOUT calling a tool, with only a JSON object listing your ${k} most compelling passages, strongest first:`,
    '{"analysis": "<one or two sentences>", "evidence": [{"id": "<passage id from a tool result>", "justification": "<one line: why this passage supports your position>"}]}',
    'Use only passage ids that a tool returned to you.',
  ].join('\n');
}

export function advocateTask(facts: string, hypothesis: string, stance: 'for' | 'against'): string {
  return ['Facts and question:', facts, '', `Hypothesis to ${stance === 'for' ? 'support' : 'challenge'}:`, hypothesis].join('\n');
}

/**
 * Used when the loop ended without a parseable selection (step/token limit or malformed reply).
 * `count`: how many candidates `candidates` lists of how many the searches returned; when it lists
 * fewer (CASE_PROMPT_LIMITS.compileCandidates), the heading says it shows the top ones.
 */
export function advocateCompilePrompt(
  k: number,
  hypothesis: string,
  stance: 'for' | 'against',
  candidates: string,
  count?: { shown: number; of: number },
): string {
  const heading =
    count && count.shown < count.of
      ? `The top ${count.shown} of the ${count.of} passages your searches returned, ranked by how high and how often they came back (id: snippet):`
      : 'Passages your searches returned (id: snippet):';
  return [
    `You searched a legal corpus to ${stance === 'for' ? 'support' : 'challenge'} this hypothesis:`,
    hypothesis,
    '',
    heading,
    candidates,
    '',
    `Select the ${k} most compelling passages, strongest first. Reply with only a JSON object:`,
    '{"analysis": "<one or two sentences>", "evidence": [{"id": "<passage id from the list>", "justification": "<one line>"}]}',
  ].join('\n');
}

export function exploratoryPrompt(facts: string, max: number): string {
  return [
    'You are a legal Analyst. Read the facts and the question below. Without being shown any answer options,',
    `propose between 2 and ${max} competing hypotheses: distinct legal conclusions, each naming the rule or principle that would produce it.`,
    '',
    'Facts and question:',
    facts,
    '',
    'Reply with only a JSON object: {"hypotheses": ["<hypothesis 1>", "<hypothesis 2>", ...]}',
  ].join('\n');
}

export function jurorSystemPrompt(p: Persona): string {
  return [
    `You are a juror on a panel of legal experts. Your persona: The ${p.name}.`,
    p.description,
    'You review a legal question and the competing hypotheses, each with the evidence its Advocate retrieved.',
    "Reason step by step from your persona's standpoint, then vote for exactly one answer option.",
    'Reply with only a JSON object: {"reasoning": "<your step-by-step reasoning>", "vote": "<one option letter>"}',
  ].join('\n');
}
