/**
 * buildReport(run) → {markdown, json}; writeReport(dir) writes report.md and report.json into the
 * run dir. Sections: summary, the system's headline figures (as the explorer shows them), accuracy,
 * accuracy by confidence, per-item metrics (each with its 95% interval from eval/stats; the last three
 * not for retrieval runs), tool usage, tokens, failures, values repaired (when any), presentation
 * orders, then sections registered by agent systems. Everything written passes through redactValue.
 * Sections may carry plots (Vega-Lite specs): writeReport renders
 * each to an SVG file beside report.md (e.g. reliability.svg), and report.md embeds it. Every file is
 * written atomically (temp file + rename): a reader (the explorer, `lexcase report`) sees the old file or the new one.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errors } from '../../core/errors.js';
import { log, redact, redactValue } from '../../core/log.js';
import { RUN_FILES, writeAtomic, writeJsonAtomic } from '../run-dir.js';
import { renderSvg } from '../plots/render-svg.js';
import { RESAMPLES, SEED } from '../stats/index.js';
import { codeSpan } from './format.js';
import { readRun } from './read-run.js';
import { recordedBootstrap } from './recorded-bootstrap.js';
import { registeredSections } from './registry.js';
import { accuracySection } from './sections/accuracy.js';
import { confidenceSection } from './sections/confidence.js';
import { figuresSection } from './sections/figures.js';
import { failuresSection } from './sections/failures.js';
import { itemMetricsSection } from './sections/item-metrics.js';
import { presentationSection } from './sections/presentation.js';
import { denseSearchesSection } from './sections/dense-searches.js';
import { denseQuerySourceSection } from './sections/dense-query-source.js';
import { repairsSection } from './sections/repairs.js';
import { summarySection } from './sections/summary.js';
import { tokensSection } from './sections/tokens.js';
import { toolUsageSection } from './sections/tool-usage.js';
import type { ReportOptions, ReportSection, RunData, SectionBuilder } from './types.js';

export const GENERIC_SECTIONS: SectionBuilder[] = [
  summarySection,
  figuresSection,
  accuracySection,
  confidenceSection,
  itemMetricsSection,
  toolUsageSection,
  tokensSection,
  failuresSection,
  repairsSection,
  denseSearchesSection,
  denseQuerySourceSection,
  presentationSection,
];

export interface Report {
  markdown: string;
  /** `bootstrap`: only when given settings differ from the run's own (bootstrapOverride). */
  json: { run: string; generatedAt: string; bootstrap?: BootstrapOverride; sections: Record<string, unknown> };
  sections: ReportSection[];
}

/** A report's bootstrap settings beside the run's own (recorded, else the shared ones), and what that means for its intervals. */
export interface BootstrapOverride {
  iterations: number;
  seed: number;
  run: { iterations: number; seed: number };
  note: string;
}

/**
 * The note a report written with other bootstrap settings than the run's own carries: the explorer,
 * /v1/run and a plain `lexcase report` compute the run's own (config.json `bootstrap`, else the shared
 * ones), so the same figure's bootstrap interval differs between report.md and them. Null when they agree.
 */
export function bootstrapOverride(used: { iterations: number; seed: number }, run: { iterations: number; seed: number }): BootstrapOverride | null {
  if (used.iterations === run.iterations && used.seed === run.seed) return null;
  const fmt = (b: { iterations: number; seed: number }) => `${b.iterations.toLocaleString('en-US')} resamples, seed ${b.seed}`;
  const note = `bootstrap intervals in this report: ${fmt(used)} (lexcase report --iterations/--seed), not the run's own ${fmt(run)}, which the explorer, /v1/run and \`lexcase report\` without those flags use: a bootstrap interval here can differ from theirs (estimates and Wilson intervals do not)`;
  return { ...used, run, note };
}

export async function buildReport(run: RunData, opts: ReportOptions & { extraSections?: SectionBuilder[] } = {}): Promise<Report> {
  // given settings, else those the run's own report was written with (recorded in config.json), else the shared ones
  const rec = recordedBootstrap(run.config.config, `${run.dir}/config.json`);
  const own = { iterations: rec.iterations ?? RESAMPLES, seed: rec.seed ?? SEED };
  const o = { iterations: opts.iterations ?? own.iterations, seed: opts.seed ?? own.seed };
  const override = bootstrapOverride(o, own);
  const builders = [...GENERIC_SECTIONS, ...(await registeredSections(run)), ...(opts.extraSections ?? [])];
  const sections: ReportSection[] = [];
  for (const b of builders) {
    const s = await b(run, o);
    if (s) sections.push(s);
  }
  assertDistinctSections(sections);
  const system = typeof run.config.config.system === 'string' ? ` — ${run.config.config.system}` : '';
  const embed = (s: ReportSection) => (s.plots ?? []).flatMap((p) => ['', `![${p.title}](${p.file})`]);
  const markdown = redact(
    [
      `# Run report${system}`,
      '',
      codeSpan(run.dir),
      '',
      ...(override ? [`**Note:** ${override.note}.`, ''] : []),
      ...sections.flatMap((s) => [`## ${s.title}`, '', s.markdown, ...embed(s), '']),
    ].join('\n'),
  );
  const json = redactValue({
    run: run.dir,
    generatedAt: new Date().toISOString(),
    ...(override ? { bootstrap: override } : {}),
    sections: Object.fromEntries(sections.map((s) => [s.id, s.json])),
  });
  return { markdown, json, sections };
}

/**
 * report.json keys its sections by id and each plot is a file beside report.md: a section (one of
 * yours, registerReportSection) with the id or a plot file of another would replace it there without
 * a word — a section of yours with id "accuracy" put its own JSON where report.json held the run's
 * accuracy, n and interval, while report.md showed both. One USAGE error naming both titles instead.
 */
function assertDistinctSections(sections: readonly ReportSection[]): void {
  const ids = new Map<string, string>();
  const files = new Map<string, string>();
  for (const s of sections) {
    const before = ids.get(s.id);
    if (before !== undefined)
      throw errors.usage(
        `report sections "${before}" and "${s.title}" have the same id "${s.id}": report.json keys its sections by id, so one would replace the other`,
        'give the section you register (registerReportSection) an id of its own',
      );
    ids.set(s.id, s.title);
    for (const p of s.plots ?? []) {
      const other = files.get(p.file);
      if (other !== undefined)
        throw errors.usage(
          `report sections "${other}" and "${s.title}" both write the plot ${p.file}: one would replace the other beside report.md`,
          'give the plot of the section you register a file name of its own',
        );
      files.set(p.file, s.title);
    }
  }
}

/** The section ids of the report.json already in `dir` (none when absent or unreadable). */
async function earlierSectionIds(dir: string): Promise<string[]> {
  try {
    const j = JSON.parse(await readFile(join(dir, RUN_FILES.reportJson), 'utf8')) as { sections?: unknown };
    return j.sections && typeof j.sections === 'object' ? Object.keys(j.sections) : [];
  } catch {
    return [];
  }
}

/**
 * Read the run in `dir`, build its report and write report.md + report.json there. Sections the
 * report written before had and this one has not are named in a warning: a section your own code
 * registered (registerReportSection) is built only in a process that loaded it, so `lexcase report`
 * on such a run rewrote report.md without it, without a word.
 */
export async function writeReport(dir: string, opts: ReportOptions & { extraSections?: SectionBuilder[] } = {}): Promise<Report> {
  const run = await readRun(dir);
  const before = await earlierSectionIds(dir);
  const report = await buildReport(run, opts);
  if (report.json.bootstrap) log.warn(`${dir}: ${report.json.bootstrap.note}`);
  const gone = before.filter((id) => !(id in report.json.sections));
  if (gone.length)
    log.warn(
      `${dir}/report.md had ${gone.length === 1 ? 'a section' : 'sections'} this report does not (${gone.map((id) => `"${id}"`).join(', ')}): rewritten without ${gone.length === 1 ? 'it' : 'them'} — a section your own code registers (registerReportSection) is built only by a process that loads that code (call writeReport from it)`,
    );
  for (const s of report.sections) for (const p of s.plots ?? []) await writeAtomic(join(dir, p.file), await renderSvg(p.spec));
  await writeAtomic(join(dir, RUN_FILES.reportMd), report.markdown);
  await writeJsonAtomic(join(dir, RUN_FILES.reportJson), report.json);
  return report;
}
