/**
 * openRetriever(dir, method): the one entry point from an index dir to a Retriever. The methods
 * and how each opens are the registry's (methods.ts); sparse methods share one loaded SparseIndex
 * per dir (open-sparse.ts).
 */
import { errors } from '../core/errors.js';
import { log } from '../core/log.js';
import { readManifest } from '../indexer/manifest.js';
import type { Retriever } from './types.js';
import { didYouMean } from '../core/did-you-mean.js';
import { RETRIEVER_OPTION_KEYS, unreadOptions, unreadOptionText } from './method-options.js';
import { METHODS, METHOD_NAMES, RM3_METHODS, methodSpec } from './methods.js';
import { rm3Params } from './rm3-params.js';
import { restoreDenseSwap } from '../indexer/dense/dense-swap.js';

export { openSparseIndex, closeSparseIndexes, QUERY_THREADS_MIN_DOCS } from './open-sparse.js';

/** Methods scored from the shared sparse index. */
export const SPARSE_METHODS: readonly string[] = METHODS.filter((m) => m.sparse).map((m) => m.name);

export async function openRetriever(dir: string, method: string, opts: Record<string, unknown> = {}): Promise<Retriever> {
  const spec = methodSpec(method);
  if (!spec) throw errors.methodUnknown(method, RETRIEVAL_METHODS);
  await restoreDenseSwap(dir); // a dense --rebuild stopped between its two renames left no dense/ (dense-swap.ts)
  // a key no method reads (a typo, another library's name) is refused, not ignored; a key of another method
  // is let through with a warning (it changes nothing here), so one options object still serves several
  // methods (docs/library.md; callers that share one give each method its own keys: `shareOptions`)
  const unknown = Object.keys(opts).find((k) => !RETRIEVER_OPTION_KEYS.includes(k));
  if (unknown !== undefined)
    throw errors.invalidInput(
      `option "${unknown}"`,
      `no retrieval method takes it; ${didYouMean(unknown, RETRIEVER_OPTION_KEYS)}the options are ${RETRIEVER_OPTION_KEYS.join(', ')}`,
    );
  if (!spec.rm3 && rm3Params(opts)) throw errors.invalidInput('rm3', `method "${method}" takes no RM3 expansion (${RM3_METHODS.join(' and ')} do)`);
  for (const key of unreadOptions(opts, [method])) log.warn(`openRetriever: ${unreadOptionText(key, [method])}`);
  return spec.open(dir, await readManifest(dir), opts, openRetriever);
}

/** Every method name openRetriever knows (whether a given index has it or not). */
export const RETRIEVAL_METHODS: readonly string[] = METHOD_NAMES;
