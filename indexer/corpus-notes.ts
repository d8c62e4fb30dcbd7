/**
 * What an index build notes about passages that it indexes but that search cannot use as the user
 * may think (counted while the build reads them; indexer/build.ts warns and records the counts in
 * the manifest's `corpus` section):
 *
 *   emptyPassages        passages whose text is empty or whitespace only: no terms, so the sparse
 *                        methods rank them only by length (textbook QLD above real ones), and a
 *                        dense index embeds them (their title, or nothing) like any other
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
  replacementPassages?: number;
}

export class CorpusNotes {
  private empty = 0;
  private firstEmpty = '';
  private replaced = 0;
  private firstReplaced = '';

  add(p: PassageInput): void {
    if (!p.text.trim()) {
      if (!this.empty++) this.firstEmpty = p.id;
    }
    if (p.text.includes(REPLACEMENT) || p.title?.includes(REPLACEMENT)) {
      if (!this.replaced++) this.firstReplaced = p.id;
    }
  }

  counts(): CorpusNoteCounts {
    return { ...(this.empty ? { emptyPassages: this.empty } : {}), ...(this.replaced ? { replacementPassages: this.replaced } : {}) };
  }

  /** One warning per kind noted, naming the count and the first passage. */
  warnings(corpusName: string, passages: number): string[] {
    const of = (k: number) => `${k.toLocaleString('en-US')} of ${passages.toLocaleString('en-US')} passages`;
    return [
      ...(this.empty
        ? [
            `${corpusName}: ${of(this.empty)} have no text (empty or whitespace only; the first: "${this.firstEmpty}"): indexed with no terms, they rank by length alone in bm25/qld and get a vector in dense`,
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
