/**
 * The index `run case|baseline|mad|acal` and `evidence` use when no --index is given: the demo's
 * index dir, built from the bundled default corpus on first use. Agents reach it through here.
 * Two lexcase processes started at once in one folder (the shards of a reproduction, recipes run
 * side by side) both find it absent: one builds it, the other waits for that build (the index's
 * lock, core/dir-lock.ts) and then opens it, instead of failing with LOCKED.
 * An index found there is reused only when it is what this lexcase builds from the bundled corpus
 * (default-index-stale.ts: corpus name, passage count and checksum, the default analyzer, bm25 and
 * qld) — one built with another analyzer, from other texts, or by a lexcase whose bundled corpus
 * differed is rebuilt, saying why, as the demo does, not searched as if it were the bundled index.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { isLexcaseError } from '../core/errors.js';
import { indexCorpus } from '../indexer/index-corpus.js';
import { readManifest } from '../indexer/manifest.js';
import { DEFAULT_INDEX_DIR } from './default-index-dir.js';
import { bundledIndexStaleReason } from './default-index-stale.js';

export { DEFAULT_INDEX_DIR };

/** How long to wait for another process's build of the default index before giving up (it takes seconds). */
const WAIT_FOR_OTHER_BUILD_MS = 10 * 60_000;

const CORPUS = 'default';
const METHODS = ['bm25', 'qld'];

/** Why the index in `dir` cannot be used as the default index: 'absent' (no readable manifest), a reason it is stale, or null (use it). */
async function unusable(dir: string): Promise<string | null> {
  let m;
  try {
    m = await readManifest(dir);
  } catch {
    return 'absent';
  }
  return bundledIndexStaleReason(m, CORPUS, METHODS, "the default index's");
}

/** The default-corpus index (Bar Exam QA gold passages + legal_corpus, bm25 + qld), built if absent or not what lexcase builds. */
export async function ensureDefaultIndex(dir = DEFAULT_INDEX_DIR, say: (line: string) => void = () => {}, pollMs = 250): Promise<string> {
  const until = Date.now() + WAIT_FOR_OTHER_BUILD_MS;
  let waiting = false;
  for (;;) {
    const why = await unusable(dir);
    if (why === null) return dir;
    try {
      say(
        why === 'absent'
          ? `building the default index in ${dir} (bundled Bar Exam QA gold passages + legal_corpus; bm25, qld)…`
          : `rebuilding the default index in ${dir}: the index there is not the bundled one (${why})…`,
      );
      await indexCorpus(CORPUS, { out: dir, methods: METHODS });
      return dir;
    } catch (e) {
      // another process holds the index's lock (it is building it): wait for its build, then open it
      if (!isLexcaseError(e) || e.code !== 'LOCKED' || Date.now() > until) throw e;
      if (!waiting) say(`waiting for another lexcase process that is building the default index in ${dir} (${e.message})…`);
      waiting = true;
      // poll for its manifest; every few seconds try again to take the lock (its holder may have died)
      for (let t = 0; t < 8 && (await unusable(dir)) !== null; t++) await sleep(pollMs);
    }
  }
}
