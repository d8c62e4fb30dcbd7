/**
 * The bootstrap settings a run's own report was written with, when its command takes them (`run acal
 * --iterations N`): recorded in config.json as `config.bootstrap` so that `lexcase report`, the explorer
 * and /v1 compute the interval the run printed, not the defaults (eval/stats/settings.ts). An explicit
 * `lexcase report --iterations/--seed` still wins. It changes no result, so a resume may change it
 * (eval/resume-config.ts OPERATIONAL_KEYS): the resume's report uses the new value, config.json then
 * records it, and the resume's entry the change (resumes[].changed.bootstrap).
 */
import { errors } from '../../core/errors.js';
import { MAX_SEED, SEED_RULE } from '../../core/rng.js';
import { configPath, readConfig, writeJsonAtomic } from '../run-dir.js';

export interface RecordedBootstrap {
  iterations?: number;
  seed?: number;
}

/** The config key that holds them. */
export const BOOTSTRAP_KEY = 'bootstrap';

/** `config.bootstrap` of a run config (the `config` object of config.json); {} when none is recorded. */
export function recordedBootstrap(config: Record<string, unknown>, file = 'config.json'): RecordedBootstrap {
  const b = config[BOOTSTRAP_KEY];
  if (b === undefined || b === null) return {};
  if (typeof b !== 'object' || Array.isArray(b)) throw errors.configInvalid(file, `config.${BOOTSTRAP_KEY}`, 'expected an object { iterations, seed }');
  const out: RecordedBootstrap = {};
  // a seed past MAX_SEED draws as another (its 32 bits: 4294967297 as 1) while the report would name it
  for (const [k, min, max] of [
    ['iterations', 1, Number.MAX_SAFE_INTEGER],
    ['seed', 0, MAX_SEED],
  ] as const) {
    const v = (b as Record<string, unknown>)[k];
    if (v === undefined) continue;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
      throw errors.configInvalid(
        file,
        `config.${BOOTSTRAP_KEY}.${k}`,
        `expected ${k === 'seed' ? SEED_RULE : `an integer ≥ ${min}`}, got ${JSON.stringify(v)}`,
      );
    out[k] = v;
  }
  return out;
}

/** Record `b` as the run's bootstrap in its config.json (after a resume that changed it; a fresh run's config already holds it). */
export async function recordBootstrap(runDir: string, b: RecordedBootstrap): Promise<void> {
  const file = (await readConfig(runDir)) as { config?: Record<string, unknown> } | undefined;
  if (!file?.config || JSON.stringify(file.config[BOOTSTRAP_KEY]) === JSON.stringify(b)) return;
  file.config[BOOTSTRAP_KEY] = b;
  await writeJsonAtomic(configPath(runDir), file);
}
