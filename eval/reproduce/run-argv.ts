/**
 * The `lexcase run <system> …` argument list of one recipe run: the recipe's args as flags, then
 * where the run dir goes, --limit, and the index / data / LLM options given to `reproduce`.
 * The same list is printed in table.md so a reviewer can rerun one cell by hand.
 */
import { join } from 'node:path';
import { runnableSystem } from '../systems.js';
import type { RecipeRun } from './recipe.js';

export interface RunArgvOptions {
  runDir: string;
  limit?: number;
  index?: string;
  data?: string;
  config?: string;
  cache?: boolean;
  /** A recorded reproduction dir: each run replays its recorded run (`--replay <dir>/runs/<id>`). */
  replay?: string;
  llmProvider?: string;
}

function flag(key: string, value: string | number | boolean | string[]): string[] {
  if (value === true) return [`--${key}`];
  if (value === false) return [`--no-${key}`];
  return [`--${key}`, Array.isArray(value) ? value.join(',') : String(value)];
}

/** What the system list (eval/systems.ts) says about how `run.system` runs. */
export function runArgv(run: RecipeRun, o: RunArgvOptions): string[] {
  const spec = runnableSystem(run.system)?.run;
  if (!spec) throw new Error(`no runnable system "${run.system}" in the system list (eval/systems.ts)`);
  const args = { ...run.args };
  const out: string[] = ['run', run.system];
  if (spec.limit === 'n' && o.limit !== undefined) args.n = Math.min(Number(args.n ?? 90), o.limit);
  for (const [k, v] of Object.entries(args)) out.push(...flag(k, v));
  out.push(spec.runDirFlag, o.runDir);
  if (o.limit !== undefined && spec.limit === 'limit') out.push('--limit', String(o.limit));
  if (o.index && spec.takesIndex && args.index === undefined) out.push('--index', o.index);
  if (o.data && spec.takesData && args.data === undefined) out.push('--data', o.data);
  if (o.config) out.push('--config', o.config);
  if (o.cache === false) out.push('--no-cache');
  if (o.llmProvider) out.push('--llm-provider', o.llmProvider);
  if (o.replay) out.push('--replay', join(o.replay, 'runs', run.id));
  return out;
}
