/**
 * Compare two runs (`/api/compare?a=&b=`): eval/report's comparison over the shared items (every
 * measure's difference B − A with its 95% paired-bootstrap interval and exact-test p, and the text
 * the page prints for each, from eval/stats — the browser computes nothing), the 2×2 agreement
 * matrix of the primary measure, how many shared items each run failed, the ids both runs hold for
 * different items (left out, with the line saying so: eval/report/compare-pairs.ts), how often the two runs gave the same
 * prediction (an item both failed has none: not counted), and the items where
 * the runs differ.
 */
import { z } from 'zod';
import { compareRunData, itemJudge } from '../../eval/report/compare.js';
import { pairRecords } from '../../eval/report/compare-pairs.js';
import { runConfigProblem } from '../../eval/report/read-run.js';
import { isFailed } from '../../eval/metrics/failures.js';
import type { RunConfigFile } from '../../eval/runner.js';
import { readConfig } from '../../eval/run-dir.js';
import { publicRunConfig } from '../../serve/http/public-json.js';
import { latestResults, runSummary } from './run-summary-api.js';
import { badRequest } from '../../serve/http/http-util.js';
import type { RunEntry } from './runs.js';

export const compareQuerySchema = z.object({ a: z.string().min(1).max(500), b: z.string().min(1).max(500) }).strict();

/**
 * A run as the comparison reads it (eval/report/compare.ts): its config.json — with its resumes, whose
 * commits the comparison names beside the config differences as `lexcase compare` does — and its
 * results.jsonl (the last record per item); the run named by its explorer id. The seed is the one
 * config.json records, none invented (before: 13 where it recorded none, so the config differences
 * showed "seed 7 vs 13" for a run `lexcase compare` refuses); `problem`: why `lexcase compare` would
 * refuse the run (eval/report/read-run.ts runConfigProblem), null when it reads it.
 */
export async function compareRunInput(run: RunEntry) {
  const file = ((await readConfig(run.dir).catch(() => undefined)) ?? {}) as Record<string, unknown>;
  const config = {
    seed: file.seed,
    config: (file.config ?? {}) as Record<string, unknown>,
    provenance: file.provenance,
    ...(Array.isArray(file.resumes) ? { resumes: file.resumes } : {}),
    // a merged run's shards, whose resumes are every shard's (eval/run-resumes.ts)
    ...(Array.isArray(file.mergedFrom) ? { mergedFrom: file.mergedFrom } : {}),
  } as RunConfigFile;
  return { dir: run.id, config, results: await latestResults(run), traces: new Map(), droppedTail: false, problem: runConfigProblem(file) };
}

export async function compareRunsView(A: RunEntry, B: RunEntry) {
  const [a, b] = await Promise.all([compareRunInput(A), compareRunInput(B)]);
  // the runs `lexcase compare` reads, and no other: its paired intervals and config differences are the CLI's
  for (const [r, side] of [
    [a, 'A'],
    [b, 'B'],
  ] as const)
    if (r.problem) throw badRequest(`run ${side} (${r.dir}): ${r.problem}`);
  let c;
  try {
    c = compareRunData(a, b, { runDirs: [A.dir, B.dir] });
  } catch (e) {
    throw badRequest((e as Error).message);
  }
  // the items compared: ids both runs hold for the same item (an id held for different items is left out)
  const { pairs } = pairRecords(a.results, b.results);
  // right or wrong as the comparison judges the runs (a retrieval run: a hit at its first Recall@k, not gold at rank 1)
  const ja = itemJudge(a);
  const jb = itemJudge(b);
  const differ = pairs
    .map(([x, y]) => ({ x, y, xr: ja.right(x), yr: jb.right(y) }))
    .filter(({ x, y, xr, yr }) => x.prediction !== y.prediction || xr !== yr)
    .map(({ x, y, xr, yr }) => ({ id: x.id, gold: x.gold, a: x.prediction, b: y.prediction, aCorrect: xr, bCorrect: yr }));
  return {
    a: await runSummary(A),
    b: await runSummary(B),
    shared: c.shared,
    onlyA: c.onlyA,
    onlyB: c.onlyB,
    onlyLine: c.onlyLine,
    sign: c.sign,
    judgedBy: c.judgedBy,
    primary: c.primary,
    measures: c.measures,
    agreement: c.agreement,
    /** Of the shared items, those each run failed, and the line saying how they count. */
    failed: { a: c.a.failed, b: c.b.failed },
    failedLine: c.failedLine,
    /** Headline figures both systems give that have no row here (pooled ratios), the line saying so (null when none). */
    notComparedLine: c.notComparedLine,
    /** Ids both runs hold for different items (left out), compared items whose content is unchecked, and the lines saying so. */
    different: c.different,
    unchecked: c.unchecked,
    pairingLines: c.pairingLines,
    note: c.note,
    // the same answer from both runs: an item both failed (an error or no prediction) has none, and is not counted
    samePrediction: pairs.filter(([x, y]) => !isFailed(x) && !isFailed(y) && x.prediction === y.prediction).length,
    configDiff: publicRunConfig(c.configDiff),
    differ,
    rightMeans: ja.label,
  };
}
