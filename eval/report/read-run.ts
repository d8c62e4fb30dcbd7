/**
 * readRun(dir): a run directory's config.json, results.jsonl and traces, validated. A missing
 * results.jsonl or config.json is RUN_INVALID naming the dir; a malformed results line is
 * RUN_INVALID naming the line; a truncated last line (a crash) is ignored with a warning.
 * Results and traces are read through their zod schemas (records.ts); a trace that does not match
 * its system's schema (an old or hand-edited file) is skipped with a warning naming the field, and
 * so is a trace of another attempt than its result line (`traceMismatch`: a retry killed between
 * writing the item's new trace and its new line).
 */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { errors } from '../../core/errors.js';
import { log } from '../../core/log.js';
import { traceSchemaFor } from '../records.js';
import { recordedWriter } from '../systems.js';
import { readConfig, readResults, legacyTraceFileName, readTraceChecked, resultsPath, traceFileName, traceMismatch, tracesDir } from '../run-dir.js';
import type { RunConfigFile } from '../run-config-file.js';
import type { RunData } from './types.js';
import { runResumes, uncheckedResumeLines } from '../run-resumes.js';

/**
 * Why a config.json cannot be read as a run's (no numeric seed, no config object or no provenance: not
 * written by `lexcase run`), or null: the one rule `lexcase compare` / `lexcase report` (readRun) and the
 * explorer's comparison (web/server/compare-api.ts) apply, so neither compares a run the other refuses
 * nor assumes a seed it does not record.
 */
export function runConfigProblem(config: { seed?: unknown; config?: unknown; provenance?: unknown }): string | null {
  return typeof config.seed !== 'number' || typeof config.config !== 'object' || config.config === null || !config.provenance
    ? 'config.json lacks seed/config/provenance (not written by lexcase run?)'
    : null;
}

export async function readRun(dir: string, opts: { traces?: boolean } = {}): Promise<RunData> {
  if (!existsSync(dir)) throw errors.runInvalid(dir, 'no such directory');
  if (!existsSync(resultsPath(dir))) throw errors.runInvalid(dir, 'results.jsonl not found (is this a run directory?)');
  const raw = await readConfig(dir);
  if (!raw) throw errors.runInvalid(dir, 'config.json not found');
  const config = raw as unknown as RunConfigFile;
  const problem = runConfigProblem(config);
  if (problem) throw errors.runInvalid(dir, problem);
  const parsed = await readResults(dir);
  if (parsed.droppedTail) log.warn(`${dir}: ignoring a truncated last line in results.jsonl (resume the run to redo that item)`);
  // a resume over a config.json that lacked a field, or held an older reading: its items mix two (report.md's Run section says so too)
  for (const line of uncheckedResumeLines(runResumes(config))) log.warn(`${dir}: ${line}`);
  // The runner keeps one line per item; a file from an older version (or edited by hand) may hold
  // superseded lines: the last line of an id wins, so each item counts once.
  const byId = new Map(parsed.records.map((r) => [r.id, r]));
  const results = [...byId.values()];
  const traces = new Map<string, Record<string, unknown>>();
  if (opts.traces !== false && existsSync(tracesDir(dir))) {
    const files = new Set(await readdir(tracesDir(dir)));
    // the schema of the system that wrote the run (a system of the user's own named "case" is not CASE's)
    const schema = traceSchemaFor(config.config.system, recordedWriter(config));
    for (const r of results) {
      const legacy = legacyTraceFileName(r.id);
      const f = files.has(traceFileName(r.id)) || !legacy || !files.has(legacy) ? traceFileName(r.id) : legacy;
      if (!files.has(f)) continue;
      const t = await readTraceChecked(dir, r.id, schema);
      const problem = t.trace ? traceMismatch(t.trace, r) : t.problem;
      if (t.trace && !problem) traces.set(r.id, t.trace);
      else log.warn(`${dir}: trace ${f} skipped: ${problem}`);
    }
  }
  return { dir, config, results, traces, droppedTail: parsed.droppedTail };
}
