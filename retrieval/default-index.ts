/**
 * The index `run case|baseline|mad|acal` and `evidence` use when no --index is given: the demo's
 * index dir, built from the bundled default corpus on first use. Agents reach it through here.
 */
import { indexCorpus } from '../indexer/index-corpus.js';
import { readManifest } from '../indexer/manifest.js';
import { DEFAULT_INDEX_DIR } from './default-index-dir.js';

export { DEFAULT_INDEX_DIR };

/** The default-corpus index (Bar Exam QA gold passages + legal_corpus, bm25 + qld), built if absent. */
export async function ensureDefaultIndex(dir = DEFAULT_INDEX_DIR, say: (line: string) => void = () => {}): Promise<string> {
  try {
    await readManifest(dir);
    return dir;
  } catch {
    say(`building the default index in ${dir} (bundled Bar Exam QA gold passages + legal_corpus; bm25, qld)…`);
    await indexCorpus('default', { out: dir, methods: ['bm25', 'qld'] });
    return dir;
  }
}
