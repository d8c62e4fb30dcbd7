/**
 * indexCorpus: load a bundled corpus or a passage file (any supported format) and build an index
 * dir from it — the library form of `lexcase index build`.
 */
import { basename, join } from 'node:path';
import { buildIndex, type BuildOptions } from './build.js';
import type { Manifest } from './manifest.js';
import { CORPORA, DATA_DIR, isBundledCorpus, loadPassages } from '../corpora/registry.js';
import type { FileLoadOptions } from '../corpora/load-passages.js';

export interface IndexCorpusOptions extends Omit<BuildOptions, 'corpusName'>, Pick<FileLoadOptions, 'format' | 'fields' | 'delimiter'> {
  /** Corpus name recorded in the manifest (default: the bundled name or the file name). */
  corpusName?: string;
}

/** Passage count of a bundled corpus (known up front), else undefined. */
export const knownPassageCount = (corpus: string): number | undefined => (isBundledCorpus(corpus) ? CORPORA[corpus].passages : undefined);

export async function indexCorpus(corpus: string, opts: IndexCorpusOptions): Promise<Manifest> {
  const { format, fields, delimiter, corpusName, ...build } = opts;
  // The build may not write over what it reads (indexer/out-dir.ts).
  const inputs = isBundledCorpus(corpus) ? CORPORA[corpus].parts.map((p) => join(DATA_DIR, p.file)) : [corpus];
  return buildIndex(loadPassages(corpus, { format, fields, delimiter }), {
    ...build,
    inputs: [...(build.inputs ?? []), ...inputs],
    corpusName: corpusName ?? (isBundledCorpus(corpus) ? corpus : basename(corpus)),
  });
}
