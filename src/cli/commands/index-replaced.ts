/**
 * `lexcase index build … --out DIR` over an index already in DIR: what that index held (read before
 * the build swaps the new one in), so the closing line says it was replaced and whether the corpus
 * (its sha256) is the same — an index of another corpus in place of the one runs and evaluations
 * were made over is then said, not only its new passage count.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Manifest } from '../../../indexer/manifest.js';
import { DOCSTORE_FILES } from '../../../indexer/docstore-writer.js';

export interface ReplacedIndex {
  corpus: string;
  passages: number;
  checksum: string;
  /** With the same passage ids and texts: which of the passages' other fields differ ([] none), by the doc store files' checksums. */
  changed?: string[];
}

/** The passages' fields the corpus checksum leaves out, by the doc store files that hold them (each file's sha256 is in the manifest). */
const OTHER_FIELDS: readonly [string, readonly string[]][] = [
  ['titles', [`${DOCSTORE_FILES.title}.bin`, `${DOCSTORE_FILES.title}.off`]],
  ['doc ids', [`${DOCSTORE_FILES.docId}.bin`, `${DOCSTORE_FILES.docId}.off`]],
  ['sources', [DOCSTORE_FILES.source, DOCSTORE_FILES.sources]],
  ['kept fields', [`${DOCSTORE_FILES.meta}.bin`, `${DOCSTORE_FILES.meta}.off`]],
];

/** The fields of OTHER_FIELDS whose files differ between two manifests' checksums (a file absent from both is the same). */
function changedFields(old: Record<string, string>, now: Record<string, string>): string[] {
  return OTHER_FIELDS.filter(([, files]) => files.some((f) => old[f] !== now[f])).map(([field]) => field);
}

/** The corpus of the index in `out` now, or undefined when `out` holds no readable index manifest. */
export function indexIn(out: string): (ReplacedIndex & { files?: Record<string, string> }) | undefined {
  try {
    const m = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as {
      corpus?: Partial<ReplacedIndex> & { name?: unknown };
      checksums?: Record<string, string>;
    };
    const c = m.corpus;
    if (typeof c?.name !== 'string' || typeof c.passages !== 'number' || typeof c.checksum !== 'string') return undefined;
    // the doc store files' checksums, when they include the titles' (an index dir written with them)
    const files = m.checksums && typeof m.checksums[`${DOCSTORE_FILES.title}.bin`] === 'string' ? m.checksums : undefined;
    return { corpus: c.name, passages: c.passages, checksum: c.checksum, ...(files ? { files } : {}) };
  } catch {
    return undefined;
  }
}

/**
 * What the build replaced, for --json: with the same passage ids and texts, `changed` lists the other fields
 * that differ (by the doc store files' checksums; absent when the old manifest does not have them).
 */
export function replacedRecord(old: (ReplacedIndex & { files?: Record<string, string> }) | undefined, now: Manifest): ReplacedIndex | undefined {
  if (!old) return undefined;
  const { files, ...rest } = old;
  return old.checksum === now.corpus.checksum && files ? { ...rest, changed: changedFields(files, now.checksums) } : rest;
}

/** `; replaced …` for the build's closing line ('' when nothing was there). */
export function replacedNote(out: string, old: ReplacedIndex | undefined, now: Manifest): string {
  if (!old) return '';
  const sum = (s: string) => `sha256 ${s.slice(0, 12)}…`;
  // the corpus checksum covers passage ids and texts only: titles, doc ids and sources may differ under it (they change
  // what --aggregate maxp and dense vectors see); those are compared by the doc store files' checksums, where the old
  // manifest has them, and the line says which differ (before: "the same corpus" over changed titles)
  if (old.checksum === now.corpus.checksum) {
    if (!old.changed)
      return `; replaced the index that was in ${out} (the same passage ids and texts, ${sum(old.checksum)}; titles, doc ids and sources not compared: its manifest has no checksum of them)`;
    if (!old.changed.length)
      return `; replaced the index that was in ${out} (the same passages: ids, texts, titles, doc ids and sources; ${sum(old.checksum)})`;
    return `; replaced the index that was in ${out} (the same passage ids and texts, ${sum(old.checksum)}, but other ${old.changed.join(', ')})`;
  }
  return `; replaced the index of another corpus that was in ${out}: ${old.corpus}, ${old.passages.toLocaleString('en-US')} passages (${sum(old.checksum)}), now ${sum(now.corpus.checksum)}`;
}
