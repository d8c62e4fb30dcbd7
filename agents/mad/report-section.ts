/**
 * The MAD section of `lexcase report` (runs whose config.system is mad/mad, mad/single-rag or
 * mad/self-consistency): accuracy with CI and citation quality (metrics.ts), plus, for debates, the
 * per-round figures read from the traces — briefs filed, forfeits, snippet requests, citations and
 * the lexically supportive share per round — and the judge checklist item rates.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { SectionBuilder } from '../../eval/report/types.js';
import { readResults, resultsPath } from '../../eval/run-dir.js';
import type { ResultRecord } from '../../eval/types.js';
import { table } from '../../eval/report/format.js';
import { madFinalRound, roundAccuracy } from '../../eval/plots/round-accuracy.js';
import { roundAccuracySpec } from '../../eval/plots/specs.js';
import { cutReport, tallyCuts } from '../common/prompt-cuts.js';
import { madMetrics, madMetricsMarkdown, predictionsOf, seedConsistency, seedConsistencyMarkdown, type SeedConsistency } from './metrics.js';
import { CHECKLIST_ITEMS, type Brief, type Judgment } from './types.js';
import { refusedRequests } from './refused-requests.js';

export const MAD_REPORT_SYSTEMS = ['mad/mad', 'mad/single-rag', 'mad/self-consistency'];

export interface RoundFigures {
  round: number;
  briefs: number;
  forfeits: number;
  requests: number;
  citations: number;
  supportive: number | null;
}

export function roundFigures(traces: Iterable<Record<string, unknown>>): RoundFigures[] {
  const by = new Map<number, { briefs: number; forfeits: number; requests: number; citations: number; supportive: number }>();
  for (const t of traces) {
    for (const r of (t.rounds as { round: number; briefs: Brief[] }[] | undefined) ?? []) {
      const f = by.get(r.round) ?? { briefs: 0, forfeits: 0, requests: 0, citations: 0, supportive: 0 };
      for (const b of r.briefs) {
        f.briefs++;
        if (b.error) f.forfeits++;
        if (b.request) f.requests++;
        f.citations += b.citations.length;
        f.supportive += b.citations.filter((c) => c.supportive).length;
      }
      by.set(r.round, f);
    }
  }
  return [...by.entries()].sort(([a], [b]) => a - b).map(([round, f]) => ({ round, ...f, supportive: f.citations ? f.supportive / f.citations : null }));
}

export function checklistRates(traces: Iterable<Record<string, unknown>>): Record<string, number | null> {
  const judged = [...traces].map((t) => t.judge as Judgment | undefined).filter((j): j is Judgment => !!j);
  return Object.fromEntries(CHECKLIST_ITEMS.map((k) => [k, judged.length ? judged.filter((j) => j.checklist[k]).length / judged.length : null]));
}

/**
 * The snippets the debaters requested in rebuttals (paper 002 §3.2: "may request one new snippet").
 * A trace of the k = 1 rule (briefs' `request` without `rule`): the requests whose search hit was
 * already in the requesting debater's evidence — a Round-0 pool passage or one it had requested in an
 * earlier round — so it read nothing new: "**40 of 40 snippets the debaters requested** (in 10 of 10
 * items) **were already in their evidence** …". A trace of the new-only rule (new-snippet.ts): how
 * many requests found no passage the debater had not been shown (the tool said so) and how many
 * higher-ranked hits already shown were passed over. Null when no brief requested one.
 */
export function snippetsAlreadyShown(traces: Iterable<Record<string, unknown>>): {
  line: string;
  json: {
    requests: number;
    alreadyShown: number;
    items: number;
    itemsWith: number;
    newOnly?: { requests: number; noNew: number; itemsWith: number; skipped: number };
  };
} | null {
  let requests = 0;
  let alreadyShown = 0;
  let items = 0;
  let itemsWith = 0;
  const newOnly = { requests: 0, noNew: 0, itemsWith: 0, skipped: 0 };
  let newItems = 0;
  for (const t of traces) {
    const pool = new Set(((t.pool as { id: string }[] | undefined) ?? []).map((p) => p.id));
    const own = new Map<string, Set<string>>(); // each debater's earlier requested snippets
    let here = 0;
    let seen = 0;
    let newHere = 0;
    let noNewHere = 0;
    for (const r of [...((t.rounds as { round: number; briefs?: Brief[] }[] | undefined) ?? [])].sort((a, b) => a.round - b.round))
      for (const b of r.briefs ?? []) {
        if (b.request?.rule === 'new-only') {
          newHere++;
          newOnly.skipped += b.request.skipped ?? 0;
          if (!b.request.ids.length) noNewHere++;
        }
        const id = b.request?.ids[0];
        if (id === undefined) continue;
        here++;
        const mine = own.get(b.letter) ?? new Set<string>();
        if (pool.has(id) || mine.has(id)) seen++;
        mine.add(id);
        own.set(b.letter, mine);
      }
    if (newHere) {
      newItems++;
      newOnly.requests += newHere;
      newOnly.noNew += noNewHere;
      if (noNewHere) newOnly.itemsWith++;
    }
    const old = here - (newHere - noNewHere); // the k = 1 rule's requests (a new-only request with a hit is never already shown)
    if (!old) continue;
    requests += old;
    alreadyShown += seen;
    items++;
    if (seen) itemsWith++;
  }
  if (!requests && !newOnly.requests) return null;
  const lines: string[] = [];
  if (requests)
    lines.push(
      `**${alreadyShown} of ${requests} snippet${requests === 1 ? '' : 's'} the debaters requested** (in ${itemsWith} of ${items} item${items === 1 ? '' : 's'}) ` +
        `**${alreadyShown === 1 ? 'was' : 'were'} already in ${alreadyShown === 1 ? 'its' : 'their'} evidence**: the search's top hit (k = 1) was a pool passage or one the debater had requested before, so it read nothing new where the paper's rebuttal grants "one new snippet" (§3.2; each brief's \`request.ids\`).`,
    );
  if (newOnly.requests) {
    const n = newOnly.requests;
    lines.push(
      `Each snippet a debater requested is the highest-ranked hit it had not already been shown (its search runs at k = shown + 1; ${newOnly.skipped} higher-ranked hit${newOnly.skipped === 1 ? '' : 's'} already in the debater's evidence ${newOnly.skipped === 1 ? 'was' : 'were'} passed over): ` +
        `**${newOnly.noNew} of ${n} snippet request${n === 1 ? '' : 's'}** (in ${newOnly.itemsWith} of ${newItems} item${newItems === 1 ? '' : 's'}) **found no new passage** and the tool replied so (each brief's \`request.skipped\`, empty \`request.ids\`).`,
    );
  }
  return {
    line: lines.join('\n\n'),
    json: { requests, alreadyShown, items, itemsWith, ...(newOnly.requests ? { newOnly } : {}) },
  };
}

/**
 * The Round-0 pool passages the prompts cut to config.json `passageChars` (traces' `pool[].cutFrom`):
 * "**412 of 1040 pool passages** (in 50 of 52 items) **were cut to their first 600 characters** …",
 * then the snippets the debaters requested in rebuttals, cut to the same length in the tool result
 * (traces' `rounds[].briefs[].request.cutFrom`): "**9 of 14 requested snippets** (in 6 of 7 items) were cut too."
 * Undefined when no trace records a pool.
 */
export function poolCuts(traces: Iterable<Record<string, unknown>>, passageChars: unknown) {
  const all = [...traces];
  // a passage the doc store had no text for is shown as its search snippet (≤ 600 characters): a cut, its whole length unknown
  const isCut = (p: { cutFrom?: number; fromSnippet?: true }) => typeof p.cutFrom === 'number' || p.fromSnippet === true;
  let fromSnippet = 0;
  let requestsFromSnippet = 0;
  const t = tallyCuts(all, (tr) => {
    const pool = tr.pool as { cutFrom?: number; fromSnippet?: true }[] | undefined;
    if (!Array.isArray(pool)) return undefined;
    fromSnippet += pool.filter((p) => p.fromSnippet).length;
    return { total: pool.length, cut: pool.filter(isCut).length, counted: typeof tr.passageChars === 'number' };
  });
  // the snippets the debaters requested, in the items whose pool was counted
  const snip = tallyCuts(all, (tr) => {
    const pool = tr.pool as unknown[] | undefined;
    if (!Array.isArray(pool) || !pool.length || typeof tr.passageChars !== 'number') return undefined;
    const requests = ((tr.rounds as { briefs?: Brief[] }[] | undefined) ?? [])
      .flatMap((r) => r.briefs ?? [])
      .flatMap((b) => (b.request?.ids.length ? [b.request] : []));
    requestsFromSnippet += requests.filter((r) => r.fromSnippet).length;
    return {
      total: requests.length,
      cut: requests.filter(isCut).length,
      counted: requests.every((r) => typeof r.passageChars === 'number'), // else requested before lexcase counted the snippets' cuts
    };
  });
  const r = cutReport(t, passageChars, {
    cut: (limit) =>
      `**${t.cut} of ${t.passages} pool passages** (in ${t.cutItems} of ${t.items} items) **were cut to their first ${limit}** for the prompts (\`--passage-chars\`, config.json \`passageChars\`; the items' traces mark each as \`cutFrom\`, its length): the models read only their start.`,
    whole: (limit) => `All ${t.passages} pool passages of ${t.items} item${t.items === 1 ? '' : 's'} were shown whole (none longer than ${limit}).`,
    after: (limit) =>
      (fromSnippet
        ? ` ${fromSnippet} of them had no text in the index's doc store: the prompts showed their search snippet (at most 600 characters) instead, counted as cut (\`pool[].fromSnippet\`).`
        : '') +
      (snip.passages
        ? snip.cut
          ? ` **${snip.cut} of ${snip.passages} snippets the debaters requested** (in ${snip.cutItems} of ${snip.items} items) **were cut to the same ${limit}** in the tool result (each brief's \`request.cutFrom\`${requestsFromSnippet ? `; ${requestsFromSnippet} had no doc-store text, shown as the search snippet: \`request.fromSnippet\`` : ''}).`
          : ` All ${snip.passages} snippets the debaters requested were shown whole.`
        : '') +
      (snip.uncounted
        ? ` ${snip.uncounted} item${snip.uncounted === 1 ? "'s" : "s'"} requested snippets are from before lexcase counted their cuts: not in this count.`
        : ''),
  });
  if (!r || !t.passages) return r;
  return {
    line: r.line,
    json: {
      ...r.json,
      ...(fromSnippet ? { fromSnippet } : {}),
      ...(requestsFromSnippet ? { snippetsFromSearch: requestsFromSnippet } : {}),
      ...(snip.passages || snip.uncounted
        ? {
            snippets: snip.passages,
            snippetsCut: snip.cut,
            snippetItems: snip.items,
            snippetCutItems: snip.cutItems,
            ...(snip.uncounted ? { snippetsUncounted: snip.uncounted } : {}),
          }
        : {}),
    },
  };
}

const pct = (v: number | null) => (v === null ? '–' : `${(100 * v).toFixed(1)}%`);

/** consistency.json as `run mad --seeds` writes it: the figure, with the seeds and their run dirs. */
type RecordedConsistency = SeedConsistency & { seeds?: number[]; runDirs?: string[] };

const sameConsistency = (a: SeedConsistency, b: SeedConsistency) =>
  a.runs === b.runs &&
  a.items === b.items &&
  (a.total === undefined || b.total === undefined || a.total === b.total) &&
  a.pairwiseAgreement === b.pairwiseAgreement &&
  a.unanimous === b.unanimous;

/**
 * Consistency across seeds over the seed runs' results as they are now: consistency.json is written
 * when `run mad --seeds` ends, and a seed run resumed or retried on its own since (its failed items
 * answered, more items) left it stale, while report.md printed it as the run's. Each seed's run dir
 * is found beside this one (`<base>-s<seed>`, moved together) or where it was recorded; the figure
 * as recorded is kept, and said so, when one of them can no longer be read.
 */
async function currentConsistency(
  dir: string,
  results: readonly ResultRecord[],
  rec: RecordedConsistency,
  within?: (dir: string) => boolean,
): Promise<{ consistency: SeedConsistency; note?: string }> {
  if (!Array.isArray(rec.runDirs) || rec.runDirs.length < 2) return { consistency: rec, note: 'as recorded when the seeds ran' };
  const runs: Map<string, string | null>[] = [];
  for (const d of rec.runDirs) {
    if (resolve(d) === resolve(dir) || basename(d) === basename(dir)) {
      runs.push(predictionsOf(results));
      continue;
    }
    const beside = join(dirname(dir), basename(d));
    let read: ResultRecord[] | undefined;
    for (const where of [beside, d]) {
      if (!existsSync(resultsPath(where)) || (within && !within(resultsPath(where)))) continue;
      try {
        // predictionsOf keeps each id's last line, as a resume writes it
        read = (await readResults(where)).records;
        break;
      } catch {
        /* unreadable: the next place, else the recorded figure */
      }
    }
    if (!read) return { consistency: rec, note: `as recorded when the seeds ran: ${within ? basename(d) : d} can no longer be read${within ? ' here' : ''}` };
    runs.push(predictionsOf(read));
  }
  const now = seedConsistency(runs);
  if (sameConsistency(now, rec)) return { consistency: now };
  return {
    consistency: now,
    note: `over the seed runs' results as they are now; consistency.json, written when the seeds ran, said ${rec.total === undefined ? rec.items : `${rec.items} of ${rec.total}`} items, pairwise agreement ${pct(rec.pairwiseAgreement)}, unanimous ${pct(rec.unanimous)}: a seed run has changed since`,
  };
}

/**
 * A `run mad --seeds` run's consistency across seeds (its consistency.json, recomputed over the seed
 * runs as they are now) and the line report.md prints for it — the explorer's run page prints the
 * same line; null for a single-seed run (no consistency.json, or one that cannot be read).
 */
export async function madSeedConsistency(
  dir: string,
  results: readonly ResultRecord[],
  /** Only seed runs whose results.jsonl this accepts are read (the explorer: those inside its runs root); the others count as unreadable, named by their folder. */
  within?: (resultsFile: string) => boolean,
): Promise<{ consistency: SeedConsistency; line: string } | null> {
  let recorded: RecordedConsistency;
  try {
    recorded = JSON.parse(await readFile(join(dir, 'consistency.json'), 'utf8')) as RecordedConsistency;
  } catch {
    return null; // a single-seed run
  }
  const now = await currentConsistency(dir, results, recorded, within);
  return { consistency: now.consistency, line: seedConsistencyMarkdown(now.consistency) + (now.note ? ` (${now.note})` : '') };
}

export const madSection: SectionBuilder = async (run, o) => {
  const m = madMetrics(run.results, o.seed);
  const crossExaminer = (run.config.config as { crossExaminer?: unknown } | undefined)?.crossExaminer === true;
  const parts = [madMetricsMarkdown(m, undefined, { crossExaminer }).split('\n').slice(2).join('\n')];
  const rounds = roundFigures(run.traces.values());
  const checklist = checklistRates(run.traces.values());
  if (rounds.length) {
    parts.push(
      '',
      table(
        ['round', 'briefs', 'forfeits', 'snippet requests', 'citations', 'supportive (lexical)'],
        rounds.map((r) => [r.round, r.briefs, r.forfeits, r.requests, r.citations, pct(r.supportive)]),
      ),
    );
    parts.push('', `Judge checklist (share of judged items): ${CHECKLIST_ITEMS.map((k) => `${k} ${pct(checklist[k])}`).join(', ')}.`);
  }
  const repeated = snippetsAlreadyShown(run.traces.values());
  if (repeated) parts.push('', repeated.line);
  const refused = refusedRequests(run.traces.values());
  if (refused) parts.push('', refused.line);
  const cut = poolCuts(run.traces.values(), (run.config.config as { passageChars?: unknown } | undefined)?.passageChars);
  if (cut) parts.push('', cut.line);
  const seeds = await madSeedConsistency(run.dir, run.results);
  const consistency = seeds?.consistency;
  if (seeds) parts.push('', seeds.line);
  // the table's rule (madMetrics' byRound) over every item, failed ones wrong; without per-round flags, the final verdict
  const perRound = roundAccuracy(run.results, madFinalRound(run.config.config));
  const plots = perRound.length ? [{ file: 'mad-rounds.svg', title: 'MAD: accuracy of the verdict after each round', spec: roundAccuracySpec(perRound) }] : [];
  return {
    id: 'mad',
    title: 'MAD metrics',
    markdown: parts.join('\n'),
    json: {
      ...m,
      rounds,
      checklist,
      consistency: consistency ?? null,
      perRoundAccuracy: perRound,
      ...(cut ? { poolCut: cut.json } : {}),
      ...(repeated ? { snippetsAlreadyShown: repeated.json } : {}),
      ...(refused ? { refusedRequests: refused.json } : {}),
    },
    plots,
  };
};
