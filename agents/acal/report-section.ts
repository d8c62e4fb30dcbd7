/**
 * The ACAL section of `lexcase report` (runs whose config.system is acal/acal, acal/sp, acal/cot or
 * acal/rag, or an older run's acal, acal-sp, acal-cot or acal-rag): accuracy (95% Wilson), macro precision, macro recall and macro-F1 (95% bootstrap, eval/stats), and for
 * ACAL itself how decisions were reached (judge escalations, clashes, convergence) over the answered
 * items, the failed ones counted beside (decision-stats.ts).
 */
import type { SectionBuilder } from '../../eval/report/types.js';
import { ACAL_SYSTEMS } from './system-names.js';
import { acalMetrics, metricsTable } from './metrics.js';
import { fewShotLines } from './few-shot.js';
import { answeredText, decisionStats, thresholdTiesText } from './decision-stats.js';
import { cutReport, tallyCuts } from '../common/prompt-cuts.js';
import { contestedGraphs, contestedLine } from './contested.js';

/**
 * The evidence passages the prompts cut to config.json `passageChars` (traces' `evidenceCut[]`, each
 * with `cutFrom`, its length): "**N of M evidence passages** (in … items) **were cut to their first
 * 700 characters** …". Undefined for a system shown no evidence (sp, cot).
 */
export function acalEvidenceCuts(traces: Iterable<Record<string, unknown>>, passageChars: unknown) {
  const t = tallyCuts(traces, (tr) => {
    const ids = tr.evidenceIds as unknown[] | undefined;
    if (!Array.isArray(ids)) return undefined;
    return { total: ids.length, cut: ((tr.evidenceCut as unknown[] | undefined) ?? []).length, counted: typeof tr.passageChars === 'number' };
  });
  return cutReport(t, passageChars, {
    cut: (limit) =>
      `**${t.cut} of ${t.passages} evidence passages** (in ${t.cutItems} of ${t.items} items) **were cut to their first ${limit}** for the prompts (\`--passage-chars\`, config.json \`passageChars\`; the items' traces list each in \`evidenceCut\` with \`cutFrom\`, its length): the models read only their start.`,
    whole: (limit) => `All ${t.passages} evidence passages of ${t.items} item${t.items === 1 ? '' : 's'} were shown whole (none longer than ${limit}).`,
  });
}

const SEMANTICS_LABEL: Record<string, string> = {
  quadratic: "Potyka's quadratic energy, the paper's; continuous model on cyclic graphs",
  dfquad: 'DF-QuAD',
  'acal-compat': "the public ACAL code's update, not the paper's",
};

/** The config.json `system` values of ACAL's runs: the variants (`acal/<v>`), then the names older runs recorded. */
export const ACAL_REPORT_SYSTEMS: readonly string[] = [
  ...ACAL_SYSTEMS.map((v) => `acal/${v}`),
  ...ACAL_SYSTEMS.map((v) => (v === 'acal' ? 'acal' : `acal-${v}`)),
];

export const acalSection: SectionBuilder = (run, o) => {
  if (!run.results.length) return null;
  const m = acalMetrics(run.results, { iterations: o.iterations, seed: o.seed });
  const name = String(run.config.config.system ?? 'acal');
  // over the answered items: a failed one reached no decision (counted beside)
  const d = decisionStats(run.results);
  const { answered, failed, judged, notConverged, clashes, inBand, smallTeams, thresholdTies } = d;
  const own = name === 'acal/acal' || name === 'acal'; // ACAL itself (an older run recorded `acal`), not one of its baselines
  const semantics = own ? String(run.config.config.semantics ?? 'quadratic') : undefined;
  const decisions = own
    ? `\n\nSemantics: ${semantics} (${SEMANTICS_LABEL[semantics!] ?? semantics}). ` +
      `Decisions ${answeredText(d)}: ${inBand} of ${answered} claim strengths in the judge band, ${judged} escalated to the judge${thresholdTiesText(d)}; ${notConverged} not converged; ${clashes} clashes resolved in all.` +
      (smallTeams ? ` ${smallTeams} item(s) had a team of fewer than 2 agents (a role named twice).` : '')
    : '';
  const cut = acalEvidenceCuts(run.traces.values(), run.config.config.passageChars);
  // graphs contested since the run: its figures stay the run's verdicts, said so
  const contested = own ? contestedGraphs(run.dir, run.results) : undefined;
  return {
    id: 'acal',
    title: semantics ? `ACAL metrics (LegalBench, labels Yes/No; semantics ${semantics})` : 'ACAL metrics (LegalBench, labels Yes/No)',
    markdown:
      metricsTable([{ name, m }], { limit: run.config.config.limit }) +
      fewShotLines(run.config.config).join('\n') +
      decisions +
      (contested ? `\n\n${contestedLine(contested)}` : '') +
      (cut ? `\n\n${cut.line}` : ''),
    json: {
      ...m,
      ...(semantics ? { semantics } : {}),
      answered,
      failed,
      inBand,
      judged,
      thresholdTies,
      notConverged,
      clashes,
      smallTeams,
      ...(cut ? { evidenceCut: cut.json } : {}),
      ...(contested ? { contested } : {}),
    },
  };
};
