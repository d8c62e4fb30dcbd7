/**
 * Whether an index found on disk is what a fresh build of a bundled corpus would make: the same
 * corpus (name, passage count and, where lexcase knows it, checksum), built with the default
 * analyzer, with the wanted methods. The demo (eval/demo/build-index-step.ts) and the default
 * index of `run`, `evidence`, `reproduce` and `serve` (default-index.ts) rebuild an index that is
 * not, saying why, instead of reusing it.
 */
import { ANALYZER_KEYS, resolveAnalyzerConfig } from '../indexer/analyzer-config.js';
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
