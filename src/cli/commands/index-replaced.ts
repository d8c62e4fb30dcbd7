/**
 * `lexcase index build … --out DIR` over an index already in DIR: what that index held (read before
 * the build swaps the new one in), so the closing line says it was replaced and whether the corpus
 * (its sha256) is the same — an index of another corpus in place of the one runs and evaluations
 * were made over is then said, not only its new passage count.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Manifest } from '../../../indexer/manifest.js';

export interface ReplacedIndex {
  corpus: string;
  passages: number;
  checksum: string;
}

/** The corpus of the index in `out` now, or undefined when `out` holds no readable index manifest. */
export function indexIn(out: string): ReplacedIndex | undefined {
  try {
    const c = (JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as { corpus?: Partial<ReplacedIndex> & { name?: unknown } }).corpus;
    if (typeof c?.name !== 'string' || typeof c.passages !== 'number' || typeof c.checksum !== 'string') return undefined;
    return { corpus: c.name, passages: c.passages, checksum: c.checksum };
  } catch {
    return undefined;
  }
}

/** `; replaced …` for the build's closing line ('' when nothing was there). */
export function replacedNote(out: string, old: ReplacedIndex | undefined, now: Manifest): string {
  if (!old) return '';
  const sum = (s: string) => `sha256 ${s.slice(0, 12)}…`;
  // the corpus checksum covers passage ids and texts only: titles, doc ids and sources may differ under it (they change
  // what --aggregate maxp and dense vectors see), so the line says what it compared, not "the same corpus"
  if (old.checksum === now.corpus.checksum)
    return `; replaced the index that was in ${out} (the same passage ids and texts, ${sum(old.checksum)}; titles, doc ids and sources not compared)`;
  return `; replaced the index of another corpus that was in ${out}: ${old.corpus}, ${old.passages.toLocaleString('en-US')} passages (${sum(old.checksum)}), now ${sum(now.corpus.checksum)}`;
}
