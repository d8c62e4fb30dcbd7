/**
 * Whether an index found on disk is what a fresh build of a bundled corpus would make: the same
 * corpus (name, passage count and, where lexcase knows it, checksum), built with the default
 * analyzer, with the wanted methods, by this lexcase version and index format (another version's
 * analyzer code or bundled data may differ: before, a demo rerun after an upgrade reused the older
 * lexcase's index and reported its figures under the new version, saying only "reusing the index";
 * as eval/reproduce/trec-run.ts rebuilds its collections). The demo (eval/demo/build-index-step.ts) and the default
 * index of `run`, `evidence`, `reproduce` and `serve` (default-index.ts) rebuild an index that is
 * not, saying why, instead of reusing it.
 */
import { VERSION } from '../core/version.js';
import { ANALYZER_KEYS, resolveAnalyzerConfig } from '../indexer/analyzer-config.js';
import { MANIFEST_VERSION } from '../indexer/manifest-format.js';
import { prebuiltVectorsName, readPrebuiltManifest } from '../indexer/embed/prebuilt.js';
import { knownPassageCount } from '../indexer/index-corpus.js';
import type { Manifest } from '../indexer/manifest.js';
import { datasetChecksum, isBundledCorpus } from '../corpora/registry.js';

/**
 * The corpus checksum a fresh build of the bundled `corpus` records, where lexcase knows it and it is
 * not `recorded`: the one its shipped prebuilt vectors were made for, when they were made from the
 * bundled data as it is now (same data checksum); else undefined (equal, or not checked). The data
 * files are hashed only when the checksums differ (equal ones need no check): a default index that
 * is the bundled one costs its opener no hashing of the corpus (~60 ms of CPU per process).
 */
async function otherBundledCorpusChecksum(corpus: string, recorded: string): Promise<string | undefined> {
  if (!isBundledCorpus(corpus)) return undefined;
  const p = await readPrebuiltManifest(prebuiltVectorsName(corpus));
  if (!p || p.corpus.name !== corpus || p.corpus.indexChecksum === recorded || p.corpus.dataChecksum !== (await datasetChecksum(corpus))) return undefined;
  return p.corpus.indexChecksum;
}

/**
 * Why an existing index is not what a fresh build of the bundled `corpus` with `methods` would make
 * (`whose` names the settings it is compared with in the reason: "the demo's", "the default
 * index's"), or null when it is.
 */
export async function bundledIndexStaleReason(m: Manifest, corpus: string, methods: readonly string[], whose: string): Promise<string | null> {
  if (m.corpus.name !== corpus) return `it indexes corpus "${m.corpus.name}", not "${corpus}"`;
  const expected = knownPassageCount(corpus);
  if (expected !== undefined && m.corpus.passages !== expected) return `it has ${m.corpus.passages} passages, expected ${expected}`;
  if (m.lexcaseVersion !== VERSION || m.version !== MANIFEST_VERSION)
    return `it was built by lexcase ${m.lexcaseVersion} (index format v${m.version}), this is lexcase ${VERSION} (v${MANIFEST_VERSION}), whose analyzer, index code or bundled data may differ`;
  const analyzer = resolveAnalyzerConfig();
  const differ = ANALYZER_KEYS.filter((k) => m.analyzer[k] !== analyzer[k]);
  if (differ.length)
    return `it was built with analyzer ${differ.map((k) => `${k}=${m.analyzer[k] ?? '(none)'}`).join(', ')}, ${whose} is ${differ.map((k) => `${k}=${analyzer[k] ?? '(none)'}`).join(', ')}`;
  const checksum = await otherBundledCorpusChecksum(corpus, m.corpus.checksum);
  if (checksum !== undefined)
    return `its corpus checksum ${m.corpus.checksum.slice(0, 12)}… is not that of the bundled ${corpus} corpus (${checksum.slice(0, 12)}…)`;
  const missing = methods.filter((x) => !m.methods.includes(x) && !(x === 'dense' && m.dense));
  if (missing.length) return `it lacks method(s) ${missing.join(', ')}`;
  return null;
}
