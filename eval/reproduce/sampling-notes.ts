/**
 * The model and sampling each finished LLM run of a reproduction sent, from its config.json `model`
 * (the public LLM config, with `paperDefaults`: which values are the paper's and which lexcase's own
 * where the paper gives none), as notes under the table: a row that sets lexcase's figure beside the
 * paper's says at which model and sampling it was made. Runs with the same settings share a line.
 */
import { readConfig } from '../run-dir.js';
import type { Recipe } from './recipe.js';
import { runDirOf, type RunState } from './reproduction-dir.js';

interface ModelRecord {
  model?: unknown;
  temperature?: unknown;
  topP?: unknown;
  maxTokens?: unknown;
  paperDefaults?: { fromPaper?: string[]; lexcaseDefaults?: string[] };
}

const SAMPLING = [
  ['temperature', 'temperature'],
  ['topP', 'top-p'],
  ['maxTokens', 'max_tokens'],
] as const;

/** "model m, temperature 0.1 (the paper's), top-p 0.9 (the paper's)": what a run's config.json `model` says it sent; undefined for a run with no LLM. */
export function samplingText(m: ModelRecord | string | undefined): string | undefined {
  if (typeof m === 'string') return `model ${m} (its sampling not recorded: a run dir an older lexcase wrote)`;
  if (!m || typeof m.model !== 'string') return undefined;
  const fromPaper = new Set(m.paperDefaults?.fromPaper ?? []);
  const lexcase = new Set(m.paperDefaults?.lexcaseDefaults ?? []);
  const sent = SAMPLING.filter(([k]) => typeof m[k] === 'number').map(
    ([k, name]) =>
      `${name} ${m[k]}${fromPaper.has(k) ? " (the paper's)" : lexcase.has(k) ? " (lexcase's default: the paper gives none)" : ' (set for the run)'}`,
  );
  const unset = SAMPLING.filter(([k]) => typeof m[k] !== 'number').map(([, name]) => name);
  const notSent = unset.length ? `; ${unset.join(' and ')} not sent (the endpoint's default${unset.length === 1 ? '' : 's'})` : '';
  return `${[`model ${m.model}`, ...sent].join(', ')}${notSent}`;
}

/** One note per set of finished runs that sent the same model and sampling. */
export async function samplingNotes(dir: string, recipe: Recipe, runs: readonly RunState[]): Promise<string[]> {
  const done = new Set(runs.filter((s) => s.status === 'done').map((s) => s.id));
  const byText = new Map<string, string[]>();
  for (const run of recipe.runs) {
    if (!done.has(run.id)) continue;
    const config = (await readConfig(runDirOf(dir, run.id)))?.config as { model?: ModelRecord | string } | undefined;
    const text = samplingText(config?.model);
    if (text) byText.set(text, [...(byText.get(text) ?? []), run.id]);
  }
  return [...byText].map(([text, ids]) => `${ids.length === 1 ? 'Run' : 'Runs'} ${ids.join(', ')} sent ${text}.`);
}
