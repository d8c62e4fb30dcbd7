/**
 * The LLM exchanges of a run dir (core/llm/record-replay.ts), written by the runner:
 *
 *   <runDir>/llm/model.json        the model settings the run was made with (no key, no endpoint)
 *   <runDir>/llm/<item>.jsonl      every exchange of the item, in order: request, reply or error
 *
 * Redacted like every file lexcase writes (core/redact-value.ts): credential fields and registered
 * secrets are masked; request headers (the API key) are never recorded at all.
 * `replayInfo` reads what a replay of the dir needs besides the exchanges: the recorded config
 * (a replay must be made with the same flags) and each item's recorded line of results.jsonl.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errors } from '../core/errors.js';
import type { Exchange } from '../core/llm/record-replay.js';
import { redactValue } from '../core/redact-value.js';
import { readConfig, readResults, traceFileName, writeJsonAtomic } from './run-dir.js';
import type { ResultRecord } from './types.js';
import { writeFile, rename } from 'node:fs/promises';

export const exchangesDir = (runDir: string) => join(runDir, 'llm');
export const exchangesPath = (runDir: string, id: string) => join(exchangesDir(runDir), traceFileName(id).replace(/\.json$/, '.jsonl'));
export const modelSettingsPath = (runDir: string) => join(exchangesDir(runDir), 'model.json');

export async function writeExchanges(runDir: string, id: string, exchanges: Exchange[]): Promise<void> {
  await mkdir(exchangesDir(runDir), { recursive: true });
  const file = exchangesPath(runDir, id);
  const tmp = `${file}.tmp-${process.pid}`;
  await writeFile(tmp, exchanges.map((x) => JSON.stringify(redactValue(x)) + '\n').join(''));
  await rename(tmp, file);
}

/** The recorded exchanges of item `id` (none: an empty list). */
export async function readExchanges(runDir: string, id: string): Promise<Exchange[]> {
  const file = exchangesPath(runDir, id);
  if (!existsSync(file)) return [];
  const lines = (await readFile(file, 'utf8')).split('\n');
  return lines.flatMap((l, i) => {
    if (!l.trim()) return [];
    try {
      return [JSON.parse(l) as Exchange];
    } catch (e) {
      throw errors.fileParse(file, i + 1, `not a JSON exchange: ${(e as Error).message}`);
    }
  });
}

export async function writeModelSettings(runDir: string, settings: Record<string, unknown>): Promise<void> {
  await mkdir(exchangesDir(runDir), { recursive: true });
  await writeJsonAtomic(modelSettingsPath(runDir), redactValue(settings));
}

/** The model settings a run was recorded with; throws RUN_INVALID when the dir holds no recording. */
export async function readModelSettings(runDir: string): Promise<Record<string, unknown>> {
  const file = modelSettingsPath(runDir);
  if (!existsSync(file)) throw errors.runInvalid(runDir, `holds no LLM recording (${file} is missing): only runs made with an LLM by this version of lexcase can be replayed`);
  try {
    return JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  } catch (e) {
    throw errors.fileParse(file, undefined, `not valid JSON: ${(e as Error).message}`);
  }
}

export interface ReplayInfo {
  dir: string;
  /** The recorded results.jsonl lines by item id, and their order. */
  recorded: Map<string, ResultRecord>;
  order: string[];
}

/**
 * Config fields a replay may differ in: the model and where the sampling settings came from (a
 * replay takes both from the recording), and the index path.
 */
const MAY_DIFFER = new Set(['model', 'index', 'sampling']);

const stable = (v: unknown): string =>
  JSON.stringify(v, (_k, val) => (val && typeof val === 'object' && !Array.isArray(val) ? Object.fromEntries(Object.entries(val).sort(([a], [b]) => a.localeCompare(b))) : val));

/**
 * What a replay of `dir` needs; throws RUN_INVALID when the run being made differs from the
 * recorded one in seed or config (other than the model and the index path).
 */
export async function replayInfo(dir: string, config: Record<string, unknown>, seed: number): Promise<ReplayInfo> {
  await readModelSettings(dir);
  const rec = (await readConfig(dir)) as { seed?: number; config?: Record<string, unknown> } | undefined;
  if (!rec) throw errors.runInvalid(dir, 'has no config.json: not a run dir');
  if (rec.seed !== seed) throw errors.runInvalid(dir, `was recorded with seed ${rec.seed}; replay it with --seed ${rec.seed}`);
  const a = rec.config ?? {};
  for (const k of new Set([...Object.keys(a), ...Object.keys(config)])) {
    if (MAY_DIFFER.has(k) || stable(a[k]) === stable(config[k])) continue;
    throw errors.runInvalid(dir, `was recorded with ${k} = ${stable(a[k]) ?? '(unset)'}, this replay has ${stable(config[k]) ?? '(unset)'}; replay it with the recorded run's flags`);
  }
  const { records } = await readResults(dir);
  const recorded = new Map(records.map((r) => [r.id, r]));
  return { dir, recorded, order: records.map((r) => r.id) };
}
