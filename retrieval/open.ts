/**
 * openRetriever(dir, method): the one entry point from an index dir to a Retriever. The methods
 * and how each opens are the registry's (methods.ts); sparse methods share one loaded SparseIndex
 * per dir (open-sparse.ts).
 */
import { errors } from '../core/errors.js';
import { readManifest } from '../indexer/manifest.js';
import type { Retriever } from './types.js';
import { METHODS, METHOD_NAMES, RM3_METHODS, methodSpec } from './methods.js';
import { rm3Params } from './rm3-params.js';

export { openSparseIndex, closeSparseIndexes, QUERY_THREADS_MIN_DOCS } from './open-sparse.js';

/** Methods scored from the shared sparse index. */
export const SPARSE_METHODS: readonly string[] = METHODS.filter((m) => m.sparse).map((m) => m.name);

export async function openRetriever(dir: string, method: string, opts: Record<string, unknown> = {}): Promise<Retriever> {
  const spec = methodSpec(method);
  if (!spec) throw errors.methodUnknown(method, RETRIEVAL_METHODS);
  if (!spec.rm3 && rm3Params(opts)) throw errors.invalidInput('rm3', `method "${method}" takes no RM3 expansion (${RM3_METHODS.join(' and ')} do)`);
  return spec.open(dir, await readManifest(dir), opts, openRetriever);
}

/** Every method name openRetriever knows (whether a given index has it or not). */
export const RETRIEVAL_METHODS: readonly string[] = METHOD_NAMES;
