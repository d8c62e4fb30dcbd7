/**
 * For every agent run that reports gold-evidence figures (CASE and its baselines, MAD and its
 * baselines): at the start, a warning when some (or all) of its questions have no gold passage in
 * the index it reads — such a question can only miss every gold figure, while its answer is scored
 * as usual — and per item the `goldInIndex` flag (eval/gold-in-index.ts), from which the run's output,
 * report.md, report.json, `lexcase report` and the explorer say how many items count as misses, and
 * print a gold figure over none with a gold passage in the index as "— (no gold passage in this index)".
 */
import type { Question } from '../../corpora/types.js';
import { log } from '../../core/log.js';
import { goldInIndexMetric, goldMissingWarning, type DocIds } from '../../eval/gold-in-index.js';
import type { AgentSystem } from '../../eval/types.js';

/** The system, with `goldInIndex` in each item's metrics (questions with gold ids), read from the real question. */
export function withGoldInIndex(system: AgentSystem<Question>, docs: DocIds): AgentSystem<Question> {
  return async (item, ctx) => {
    const out = await system(item, ctx);
    const flag = goldInIndexMetric(docs, item);
    return Object.keys(flag).length ? { ...out, metrics: { ...(out.metrics ?? {}), ...flag } } : out;
  };
}

/** Warn (stderr) when some of the run's questions have no gold passage in the index; returns the warning. */
export function warnGoldMissing(docs: DocIds, questions: readonly Question[], index: string, corpus: string): string | undefined {
  const w = goldMissingWarning(docs, questions, `index ${index} (corpus ${corpus})`);
  if (w) log.warn(`${w}`);
  return w;
}
