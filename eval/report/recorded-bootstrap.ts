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

/**
 * compare's pairing line when the two runs' own reports computed their intervals with different
 * bootstrap settings (`config.bootstrap`; none recorded: RESAMPLES, SEED): each run's interval in its
 * report.md, and the explorer's per-run figures (the N-run compare page draws them side by side), is
 * then another kind of figure than the other's. The level (LEVEL) and the method of each measure kind
 * are one for every run, so resamples and seed are what can differ. `used`: the settings compare
 * computed its intervals of B − A with (one for both runs), which the line names. Undefined when the
 * runs' settings are the same. A config.bootstrap that cannot be read counts as none recorded.
 */
export function bootstrapPairingLine(
  a: Record<string, unknown>,
  b: Record<string, unknown>,
  used: RecordedBootstrap,
  defaults: { iterations: number; seed: number; level: number },
): string | undefined {
  const read = (c: Record<string, unknown>) => {
    try {
      return recordedBootstrap(c);
    } catch {
      return {};
    }
  };
  const [ra, rb] = [read(a), read(b)];
  const it = (r: RecordedBootstrap) => r.iterations ?? defaults.iterations;
  const sd = (r: RecordedBootstrap) => r.seed ?? defaults.seed;
  if (it(ra) === it(rb) && sd(ra) === sd(rb)) return undefined;
  const pct = `${Math.round(defaults.level * 100)}%`;
  const text = (r: RecordedBootstrap) =>
    `${pct} of ${it(r).toLocaleString('en-US')} resamples (seed ${sd(r)}${r.iterations === undefined && r.seed === undefined ? ', none recorded' : ''})`;
  return (
    `intervals differ: the runs' own reports computed their intervals with other bootstrap settings — A ${text(ra)}, B ${text(rb)} (config.bootstrap): ` +
    `their intervals side by side (report.md, the explorer's per-run figures) are not the same kind of figure; ` +
    `every interval of B − A here is of one setting for both, ${pct} of ${it(used).toLocaleString('en-US')} resamples (seed ${sd(used)})`
  );
}
