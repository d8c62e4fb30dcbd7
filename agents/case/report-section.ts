/**
 * The CASE section of `lexcase report` (registered for runs whose config.system is "case" or
 * "baseline"): the run's label (LLM vs "offline heuristic, no LLM"), advocate evidence recall with
 * its three levels named, gold-in-context for RAG baselines, juror abstentions, advocate stop reasons
 * and tokens per stage. Accuracy, confidence strata, raw per-item flags, tool usage and tokens are
 * also in the generic sections; this one reads the same run files.
 */
import type { SectionBuilder } from '../../eval/report/types.js';
import { cutReport, tallyCuts } from '../common/prompt-cuts.js';
import { runInterrupts } from '../../eval/run-counts.js';
import { caseMetrics, caseMetricsMarkdown } from './metrics.js';

export const caseSection: SectionBuilder = (run, o) => {
  const m = caseMetrics(run.results, run.traces, o.seed, runInterrupts(run.config));
  const stops: Record<string, number> = {};
  for (const t of run.traces.values())
    for (const a of (t.advocates as { stop?: string }[] | undefined) ?? []) if (a.stop) stops[a.stop] = (stops[a.stop] ?? 0) + 1;
  const extra = Object.keys(stops).length
    ? `\n\nAdvocate stop reasons: ${Object.entries(stops)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}.`
    : '';
  const passageChars = recordedLimit(run, 'passageChars');
  const noteChars = recordedLimit(run, 'advocateNoteChars');
  const cut = contextCuts(run.traces, passageChars) ?? evidenceCuts(run.traces, passageChars, noteChars);
  return {
    id: 'case',
    title: `CASE metrics${m.label ? ` (${m.label})` : ''}`,
    markdown: caseMetricsMarkdown(m).split('\n').slice(2).join('\n') + extra + (cut ? `\n\n${cut.line}` : ''),
    json: { ...m, advocateStops: stops, ...(cut ? { contextCut: cut.json } : {}) },
  };
};

/**
 * A prompt limit as config.json records it (`run case` and `run baseline` write casePromptLimitsConfig
 * there), else as every trace that records one records it: a run the library started with a config of
 * its own has it only in its traces, and its report counted no cut at all (while the explorer showed each).
 */
function recordedLimit(run: Parameters<SectionBuilder>[0], key: 'passageChars' | 'advocateNoteChars'): unknown {
  const fromConfig = (run.config.config as Record<string, unknown> | undefined)?.[key];
  if (fromConfig !== undefined) return fromConfig;
  const inTraces = new Set([...run.traces.values()].map((t) => t[key]).filter((v) => typeof v === 'number'));
  return inTraces.size === 1 ? [...inTraces][0] : undefined;
}

/**
 * A baseline's prompt context passages cut to config.json `passageChars` (traces' `context[].cutFrom`):
 * "3 of 40 prompt context passages (2 of 10 items; gold passages in an oracle run) were cut to their
 * first 2,000 characters …", so an accuracy is never read as measured on whole passages when it was not.
 * Undefined when no trace lists a context (CASE runs, llm-only, traces from before the count).
 */
function contextCuts(traces: Map<string, Record<string, unknown>>, passageChars: unknown) {
  let gold = true;
  const t = tallyCuts(traces.values(), (tr) => {
    const ctx = tr.context as { source?: string; cutFrom?: number }[] | undefined;
    if (!Array.isArray(ctx)) return undefined;
    const counted = typeof tr.passageChars === 'number';
    if (counted && ctx.some((c) => c.source !== 'gold')) gold = false;
    return { total: ctx.length, cut: ctx.filter((c) => typeof c.cutFrom === 'number').length, counted };
  });
  const what = gold ? 'gold passages' : 'prompt context passages';
  return cutReport(t, passageChars, {
    cut: (limit) =>
      `**${t.cut} of ${t.passages} ${what}** (in ${t.cutItems} of ${t.items} items) **were cut to their first ${limit}** for the prompt (config.json \`passageChars\`; the items' traces mark each as \`cutFrom\`, its length): the model read only their start.`,
    whole: (limit) => `All ${t.passages} ${what} of ${t.items} item${t.items === 1 ? '' : 's'} were shown whole (none longer than ${limit}).`,
  });
}

/**
 * LLM CASE: the advocates' evidence passages the jurors' case file cut to config.json `passageChars`
 * (traces' `advocates[].evidence[].cutFrom`), then their notes cut to `advocateNoteChars`
 * (`evidence[].noteCutFrom`): " **3 of 8 advocates' notes** (in 1 of 1 items) **were cut to their first 300 characters** …". Undefined for an offline run (no juror reads a prompt,
 * config.json records no passageChars) and when no advocate found evidence.
 */
function evidenceCuts(traces: Map<string, Record<string, unknown>>, passageChars: unknown, noteChars: unknown) {
  if (typeof passageChars !== 'number') return undefined;
  // the advocates' notes beside each passage, cut to config.json advocateNoteChars (evidence[].noteCutFrom); traces before the count lack advocateNoteChars
  const notes = tallyCuts(traces.values(), (tr) => {
    const ev = ((tr.advocates as { evidence?: { noteCutFrom?: number }[] }[] | undefined) ?? []).flatMap((a) => a.evidence ?? []);
    return { total: ev.length, cut: ev.filter((e) => typeof e.noteCutFrom === 'number').length, counted: typeof tr.advocateNoteChars === 'number' };
  });
  const noteLimit = typeof noteChars === 'number' ? `${noteChars.toLocaleString('en-US')} characters` : 'config.json advocateNoteChars';
  const t = tallyCuts(traces.values(), (tr) => {
    const ev = ((tr.advocates as { evidence?: { cutFrom?: number }[] }[] | undefined) ?? []).flatMap((a) => a.evidence ?? []);
    return { total: ev.length, cut: ev.filter((e) => typeof e.cutFrom === 'number').length, counted: typeof tr.passageChars === 'number' };
  });
  const r = cutReport(t, passageChars, {
    cut: (limit) =>
      `**${t.cut} of ${t.passages} evidence passages** (in ${t.cutItems} of ${t.items} items) **were cut to their first ${limit}** in the jurors' case file (config.json \`passageChars\`; the items' traces mark each as \`cutFrom\`, its length): the jurors read only their start.`,
    whole: (limit) =>
      `All ${t.passages} evidence passages of ${t.items} item${t.items === 1 ? '' : 's'} were shown whole to the jurors (none longer than ${limit}).`,
    after: () =>
      (notes.passages
        ? notes.cut
          ? ` **${notes.cut} of ${notes.passages} advocates' notes** (in ${notes.cutItems} of ${notes.items} items) **were cut to their first ${noteLimit}** (config.json \`advocateNoteChars\`; each evidence item's \`noteCutFrom\`, the note's length).`
          : ` All ${notes.passages} advocates' notes were shown whole (none longer than ${noteLimit}).`
        : '') +
      (notes.uncounted
        ? ` ${notes.uncounted} item${notes.uncounted === 1 ? "'s" : "s'"} advocates' notes are from before lexcase counted their cuts: not in this count.`
        : ''),
  });
  if (!r || !(notes.passages || notes.uncounted)) return r;
  return {
    line: r.line,
    json: {
      ...r.json,
      notes: notes.passages,
      notesCut: notes.cut,
      noteItems: notes.items,
      noteCutItems: notes.cutItems,
      ...(notes.uncounted ? { notesUncounted: notes.uncounted } : {}),
    },
  };
}
