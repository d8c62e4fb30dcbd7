/**
 * A search's options normalised once, before a retriever does its own work (as LangChain's
 * BaseRetriever does before calling the subclass): k defaults to SEARCH_K and must be a
 * non-negative integer, approx is checked where the method has an approximate mode and refused
 * where it has none, withText is a boolean, and a key none of these is refused. Every retriever's `search()` starts here.
 */
import { errors } from '../core/errors.js';
import { didYouMean } from '../core/did-you-mean.js';
import { SEARCH_K } from './default-k.js';
import { checkApprox, refuseApprox } from './sparse/approx.js';
import type { ApproxOptions, SearchOptions } from './types.js';

export interface ResolvedSearch {
  k: number;
  withText: boolean;
  /** Checked approx options (methods with an approximate mode only). */
  approx: ApproxOptions | undefined;
}

/** k given or SEARCH_K, checked: an integer ≥ min (0 for a search; a retriever's stored k may ask for ≥ 1). */
export function searchK(k: number | undefined, min = 0): number {
  const v = k ?? SEARCH_K;
  if (!Number.isInteger(v) || v < min) throw errors.invalidInput('k', `expected a ${min > 0 ? 'positive' : 'non-negative'} integer, got ${JSON.stringify(k)}`);
  return v;
}

/** Every option a search reads (a Record over SearchOptions' keys: one added there must be added here). */
const SEARCH_OPTION_FIELDS: Record<keyof SearchOptions, true> = { k: true, withText: true, approx: true };
export const SEARCH_OPTION_KEYS: readonly string[] = Object.keys(SEARCH_OPTION_FIELDS);

/** The options of one `search(query, o)` of `method`, resolved; `approx: true` for methods with an approximate mode (bm25, qld). */
export function resolveSearch(o: SearchOptions | undefined, method: string, accepts: { approx: boolean } = { approx: false }): ResolvedSearch {
  // a key no search reads (withtext, kk) is refused, not ignored: { withtext: true } returned no texts, without a word
  const unknown = o && typeof o === 'object' ? Object.keys(o).find((key) => !SEARCH_OPTION_KEYS.includes(key)) : undefined;
  if (unknown !== undefined)
    throw errors.invalidInput(
      `search option "${unknown}"`,
      `no search takes it; ${didYouMean(unknown, SEARCH_OPTION_KEYS)}the options are ${SEARCH_OPTION_KEYS.join(', ')}`,
    );
  if (!accepts.approx) refuseApprox(o, method);
  const k = searchK(o?.k);
  return { k, withText: o?.withText === true, approx: accepts.approx ? checkApprox(o?.approx) : undefined };
}
