/**
 * What a dense model reads of a passage, and a checksum of it over a corpus.
 *
 * A passage is embedded as its title (when present) and body (passageEmbedText). The corpus
 * checksum (build.ts: the doc store's ids and texts) does not cover titles, so a corpus whose only
 * change is a title keeps it, while its vectors (made from title + text) do not fit it any more.
 * The embedded-text checksum covers exactly what is embedded: the sha256 of one line
 * `JSON.stringify([id, passageEmbedText(p)])` + "\n" per passage, in doc-store order (before the
 * embedder's word limit, which the vector settings record). add-dense.ts records it in the dense
 * section (`embeddedTextChecksum`), the shipped prebuilt vectors' manifest records the one of the
 * texts they were embedded from (corpus.embeddedTextChecksum), and prebuilt-dense.ts refuses
 * vectors whose checksum is not the index's.
 */
import { createHash, type Hash } from 'node:crypto';
import type { Passage } from '../../corpora/types.js';

/** The text a passage is embedded as: title (when present) and body. */
export function passageEmbedText(p: Pick<Passage, 'title' | 'text'>): string {
  return p.title ? `${p.title}\n${p.text}` : p.text;
}

/** Incremental embedded-text checksum: add each passage (id and embed text) in doc-store order, then digest. */
export class EmbeddedTextHash {
  private readonly h: Hash = createHash('sha256');

  add(id: string, embedText: string): void {
    this.h.update(`${JSON.stringify([id, embedText])}\n`);
  }

  digest(): string {
    return this.h.digest('hex');
  }
}

/** Why recorded vectors (embedded from texts with checksum `recorded`) do not fit passages with checksum `now`, or null when they do. */
export function embeddedTextDiffers(recorded: string, now: string): string | null {
  return recorded === now
    ? null
    : `the passages' embedded text (title + text) has checksum ${now.slice(0, 12)}…, the vectors were embedded from text with checksum ${recorded.slice(0, 12)}… (a title or text differs; the corpus checksum covers texts only)`;
}
