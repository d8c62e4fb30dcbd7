/**
 * `lexcase evidence "<hypothesis>" [--facts TEXT | --question ID] --index DIR [--against] [-k N]
 *  [--tools bm25,qld,…] [--offline] [--json]`: runs one CASE Advocate and prints the strongest
 * supporting passages (with --against, counter-evidence) with scores, one-line justifications and
 * the tool calls it made. The library equivalent is `findEvidence` (agents/case/find-evidence.ts).
 */
import type { Command } from 'commander';
import type { EvidenceResult } from '../../../agents/case/find-evidence.js';
import { errors } from '../../../core/errors.js';
import { log } from '../../../core/log.js';
import { action, output, parseIntOpt, parseListOpt, type GlobalOpts } from '../action.js';
import { addLlmOptions, EVIDENCE_PAPER, resolveLlm, type LlmCliOpts } from '../llm-options.js';
import { DEFAULT_K } from '../../../retrieval/default-k.js';
import { AGENT_DEFAULTS } from '../../../agents/common/defaults.js';
import { terminalLine } from '../../../core/terminal-text.js';
import { droppedPickText } from '../../../agents/case/dropped-picks.js';

interface EvidenceFlags extends LlmCliOpts {
  facts?: string;
  question?: string;
  dataset: string;
  index: string;
  against?: boolean;
  k: number;
  tools?: string[];
  maxSteps: number;
}

/** `evidence --json`: the advocate's result, each evidence item with its 1-based `rank` first (as MCP find_evidence and /v1/evidence give it), and the run's token usage. */
export function evidenceJson(r: EvidenceResult, usage: unknown) {
  return { ...r, evidence: r.evidence.map((e, i) => ({ rank: i + 1, ...e })), usage };
}

const flat = (s: string, n: number) => {
  const t = terminalLine(s ?? '');
  return t.length <= n ? t : `${t.slice(0, n - 1).trimEnd()}…`;
};

/** What --tools does, and what is used without it: the LLM advocate's tools and the offline advocate's methods differ. */
export const EVIDENCE_TOOLS_HELP =
  'tools/methods to use: bm25,qld,dense,hybrid,rewrite (default with an LLM: every tool the index has; offline: bm25 — else the first of qld, dense, hybrid the index has — and with --against every one of bm25, qld, dense the index has, else hybrid)';

export function formatEvidence(r: EvidenceResult): string {
  const lines = [
    `${r.stance === 'for' ? 'Evidence for' : 'Counter-evidence to'}: ${r.hypothesis}`,
    `(${r.mode}${r.stop !== 'final' && r.stop !== 'offline' ? `; stopped at ${r.stop}` : ''})`,
    '',
  ];
  if (r.analysis) lines.push(`Analysis: ${terminalLine(r.analysis)}`, '');
  if (r.evidence.length === 0) lines.push(r.error ? `No passages found: ${terminalLine(r.error)}` : 'No passages found.');
  r.evidence.forEach((e, i) => {
    lines.push(`${String(i + 1).padStart(2)}. ${e.id}  score ${e.score.toFixed(4)}`);
    lines.push(
      `    ${terminalLine(e.justification)}${e.noteCutFrom !== undefined ? ` (note cut from ${e.noteCutFrom.toLocaleString('en-US')} characters)` : ''}`,
    );
    if (e.text) lines.push(`    "${flat(e.text, 220)}"`);
  });
  if (r.rejected?.length)
    lines.push('', `Dropped picks (${r.rejected.length}): ${r.rejected.map((x) => droppedPickText({ ...x, id: terminalLine(x.id) })).join(', ')}`);
  const repeated = r.toolCalls.filter((c) => c.repeated).length;
  const notOffered = r.toolCalls.filter((c) => c.notOffered).length;
  lines.push(
    '',
    `Tool calls (${r.toolCalls.length}${repeated ? `; ${repeated} repeated in one reply, run once` : ''}${notOffered ? `; ${notOffered} naming no tool offered, refused` : ''}):`,
  );
  for (const c of r.toolCalls)
    lines.push(
      `  ${c.tool}${c.step ? ` [step ${c.step}]` : ''}: "${flat(c.query, 90)}" → ${c.repeated ? 'repeated in one reply: run once' : c.error ? `error: ${flat(c.error, 300)}` : c.output ? `"${flat(c.output, 60)}"` : `${c.ids.length} ids${c.ids.length ? ` (${c.ids.slice(0, 3).join(', ')}${c.ids.length > 3 ? ', …' : ''})` : ''}`}`,
    );
  if (r.error && r.evidence.length) lines.push('', `note: ${terminalLine(r.error)}`);
  return lines.join('\n');
}

export function register(program: Command): void {
  addLlmOptions(
    program
      .command('evidence')
      .description('run one CASE advocate: the strongest passages for (or, with --against, against) a hypothesis')
      .argument('<hypothesis>', 'the claim to find evidence for (quote it)')
      .requiredOption('--index <dir>', 'index directory (from `lexcase index build`)')
      .option('--facts <text>', 'facts of the case, given to the advocate with the hypothesis')
      .option('--question <id>', 'take the facts from this dataset question (e.g. mbe_0)')
      .option('--dataset <name>', 'dataset for --question', 'barexam')
      .option('--against', 'find counter-evidence instead of support')
      .option('-k, --k <n>', 'number of passages', parseIntOpt('k', { min: 1 }), DEFAULT_K)
      .option('--tools <list>', EVIDENCE_TOOLS_HELP, parseListOpt)
      .option('--max-steps <n>', 'advocate model-call limit (LLM mode)', parseIntOpt('max-steps', { min: 1 }), AGENT_DEFAULTS.maxSteps),
    { replay: false },
  ).action(
    action(async (hypothesis: string, flags: EvidenceFlags, cmd: Command) => {
      const g = cmd.optsWithGlobals() as GlobalOpts;
      if (flags.facts !== undefined && flags.question !== undefined) throw errors.usage('give --facts or --question, not both');
      if (flags.k < 1) throw errors.invalidInput('-k', `expected a positive integer, got ${flags.k}`);
      let facts = flags.facts ?? '';
      if (flags.question !== undefined) {
        const [{ loadQuestions }, { factsOf }] = await Promise.all([import('../../../corpora/registry.js'), import('../../../agents/common/question-text.js')]);
        const q = (await loadQuestions(flags.dataset, 'all')).find((x) => x.id === flags.question);
        if (!q) throw errors.notFound(`question in dataset ${flags.dataset}`, flags.question);
        facts = factsOf(q);
      }
      // --dataset picks the dataset of --question: alone it did nothing, without a word
      if (flags.question === undefined && cmd.getOptionValueSource('dataset') === 'cli')
        log.warn(`--dataset is ignored: it names the dataset of --question, and none was given`);
      const llm = await resolveLlm(flags, { paper: EVIDENCE_PAPER }); // the CASE advocate at run case's sampling
      // the offline advocate makes no model call: --max-steps bounded nothing, without a word (run case --offline refuses it)
      if (!llm.model && cmd.getOptionValueSource('maxSteps') === 'cli')
        log.warn(`--max-steps is ignored: it bounds the LLM advocate's model calls, and this search is offline (no model calls)`);
      if (flags.against && !llm.model && !facts.trim())
        throw errors.usage('offline counter-evidence needs the facts of the case', 'pass --facts TEXT or --question ID (or configure an LLM)');
      const { findEvidence } = await import('../../../agents/case/find-evidence.js');
      const r = await findEvidence({
        hypothesis,
        facts,
        index: flags.index,
        against: flags.against,
        k: flags.k,
        llm: llm.model,
        use: flags.tools,
        maxSteps: flags.maxSteps,
      });
      if (r.shortfall) log.warn(`${r.shortfall.reason}`);
      if (r.queryCut) log.warn(`evidence: ${r.queryCut}`);
      // a reply an earlier ask got, served again: said, with who wrote it (a second ask is not a second sample)
      if (r.fromCache) log.warn(`evidence: ${terminalLine(r.fromCache)}`);
      output(g, evidenceJson(r, llm.usage.snapshot()), () => formatEvidence(r));
    }),
  );
}
