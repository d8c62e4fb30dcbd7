/**
 * What an index build notes about passages that it indexes but that search cannot use as the user
 * may think (counted while the build reads them; indexer/build.ts warns and records the counts in
 * the manifest's `corpus` section):
 *
 *   emptyPassages        passages whose text is empty or whitespace only: no terms, so bm25 never
 *                        returns them and textbook QLD ranks them by length alone (above longer
 *                        passages that match), and a dense index embeds them (their title, or
 *                        nothing) like any other
 *   termlessPassages     passages with text but no index term under the index's analyzer (only
 *                        stopwords, punctuation or symbols: "(a) It is.", "§§"): searched like the
 *                        empty ones; counted from the document lengths once the build has them
 *   replacementPassages  passages whose text or title holds U+FFFD, the replacement character:
 *                        what the loaders read invalid UTF-8 bytes as (a Latin-1 file's "é"), so
 *                        those words are neither searched nor shown as the file wrote them
 *
 * A count is recorded only when it is not zero.
 */
import type { PassageInput } from './passage-input.js';

const REPLACEMENT = '\uFFFD';

export interface CorpusNoteCounts {
  emptyPassages?: number;
  termlessPassages?: number;
  replacementPassages?: number;
}

export class CorpusNotes {
  private empty = 0;
  private firstEmpty = '';
  private replaced = 0;
  private firstReplaced = '';
  /** Bit per passage (build order): its text is empty or whitespace only. */
  private emptyBits = new Uint8Array(1 << 10);
  private added = 0;
  private termless = 0;
  private firstTermless = '';

  add(p: PassageInput): void {
    const i = this.added++;
    if (!p.text.trim()) {
      if (!this.empty++) this.firstEmpty = p.id;
      if (i >> 3 >= this.emptyBits.length) {
        const grown = new Uint8Array(Math.max(this.emptyBits.length * 2, (i >> 3) + 1));
        grown.set(this.emptyBits);
        this.emptyBits = grown;
      }
      this.emptyBits[i >> 3] |= 1 << (i & 7);
    }
    if (p.text.includes(REPLACEMENT) || p.title?.includes(REPLACEMENT)) {
      if (!this.replaced++) this.firstReplaced = p.id;
    }
  }

  /**
   * Count the passages with text but no index term, from the document lengths in index terms (build
   * order); `idAt` names the first of them.
   */
  addLengths(lengths: ArrayLike<number>, idAt: (i: number) => string): void {
    let first = -1;
    for (let i = 0; i < lengths.length; i++) {
      if (lengths[i] !== 0 || (i >> 3 < this.emptyBits.length && this.emptyBits[i >> 3] & (1 << (i & 7)))) continue;
      if (!this.termless++) first = i;
    }
    if (first >= 0) this.firstTermless = idAt(first);
  }

  counts(): CorpusNoteCounts {
    return {
      ...(this.empty ? { emptyPassages: this.empty } : {}),
      ...(this.termless ? { termlessPassages: this.termless } : {}),
      ...(this.replaced ? { replacementPassages: this.replaced } : {}),
    };
  }

  /** One warning per kind noted, naming the count and the first passage. */
  warnings(corpusName: string, passages: number): string[] {
    const of = (k: number) => `${k.toLocaleString('en-US')} of ${passages.toLocaleString('en-US')} passages`;
    return [
      ...(this.empty
        ? [
            `${corpusName}: ${of(this.empty)} have no text (empty or whitespace only; the first: "${this.firstEmpty}"): indexed with no terms, bm25 never returns them, textbook qld ranks them by length alone (above longer passages that match), and dense gives them a vector`,
          ]
        : []),
      ...(this.termless
        ? [
            `${corpusName}: ${of(this.termless)} have text but no index term under this analyzer (only stopwords, punctuation or symbols; the first: "${this.firstTermless}"): searched as passages with no text — bm25 never returns them, textbook qld ranks them by length alone (above longer passages that match)`,
          ]
        : []),
      ...(this.replaced
        ? [
            `${corpusName}: ${of(this.replaced)} hold U+FFFD replacement characters (the first: "${this.firstReplaced}"), what invalid UTF-8 bytes are read as: is the file in another encoding (Latin-1)? Convert it to UTF-8 (iconv -f latin1 -t utf-8) and rebuild`,
          ]
        : []),
    ];
  }
}
