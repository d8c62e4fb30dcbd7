/**
 * readRun(dir): a run directory's config.json, results.jsonl and traces, validated. A missing
 * results.jsonl or config.json is RUN_INVALID naming the dir; a malformed results line is
 * RUN_INVALID naming the line; a truncated last line (a crash) is ignored with a warning.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { errors } from '../../src/errors.js';
import { log } from '../../src/log.js';
import { readConfig, readResults, resultsPath, traceFileName, tracesDir } from '../run-dir.js';
import type { RunConfigFile } from '../runner.js';
import type { RunData } from './types.js';

export async function readRun(dir: string, opts: { traces?: boolean } = {}): Promise<RunData> {
  if (!existsSync(dir)) throw errors.runInvalid(dir, 'no such directory');
  if (!existsSync(resultsPath(dir))) throw errors.runInvalid(dir, 'results.jsonl not found (is this a run directory?)');
  const raw = await readConfig(dir);
  if (!raw) throw errors.runInvalid(dir, 'config.json not found');
  const config = raw as unknown as RunConfigFile;
  if (typeof config.seed !== 'number' || typeof config.config !== 'object' || !config.provenance)
    throw errors.runInvalid(dir, 'config.json lacks seed/config/provenance (not written by lexcase run?)');
  const parsed = await readResults(dir);
  if (parsed.droppedTail) log.warn(`${dir}: ignoring a truncated last line in results.jsonl (resume the run to redo that item)`);
  // A resumed run with changed items can leave duplicates only if the file was edited by hand; keep the last.
  const byId = new Map(parsed.records.map((r) => [r.id, r]));
  const results = [...byId.values()];
  const traces = new Map<string, Record<string, unknown>>();
  if (opts.traces !== false && existsSync(tracesDir(dir))) {
    const files = new Set(await readdir(tracesDir(dir)));
    for (const r of results) {
      const f = traceFileName(r.id);
      if (!files.has(f)) continue;
      try {
        traces.set(r.id, JSON.parse(await readFile(`${tracesDir(dir)}/${f}`, 'utf8')));
      } catch {
        log.warn(`${dir}: trace for ${r.id} is not valid JSON; skipped`);
      }
    }
  }
  return { dir, config, results, traces, droppedTail: parsed.droppedTail };
}
