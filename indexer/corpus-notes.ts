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
 *                        those words are neither searched nor shown as the file wrote them; or a
 *                        lone surrogate (a JSON "\ud800" escape with no pair), which the doc store
 *                        writes as UTF-8 and so holds as U+FFFD
 *   formatCharPassages   passages whose text has an invisible format character inside a word: a
 *                        soft hyphen (U+00AD, common in text from PDFs and HTML's &shy;), a zero-width
 *                        space (U+200B), a word joiner (U+2060), U+FEFF or a bidirectional control
 *                        (U+202E …). The default analyzer ends a token there ("con\u00adtract" is
 *                        indexed as "con" and "tract"), the lucene preset keeps it inside the term
 *                        (as Lucene does): either way a query that spells the word plainly
 *                        ("contract") does not find it, and the document length counts the pieces.
 *                        (ZWJ and ZWNJ, U+200C/U+200D, are not counted: Persian and Indic scripts
 *                        write them inside words, and emoji sequences use ZWJ.)
 *
 * A count is recorded only when it is not zero.
 */
import { formatCharWord, visibleWord } from '../corpora/format-chars.js';
import type { PassageInput } from './passage-input.js';

const REPLACEMENT = '\uFFFD';
/** A lone surrogate: a high one with no low one after it, or a low one with no high one before it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export interface CorpusNoteCounts {
  emptyPassages?: number;
  termlessPassages?: number;
  replacementPassages?: number;
  formatCharPassages?: number;
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
  private formatChars = 0;
  private firstFormatChar = '';
  private firstFormatWord = '';

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
    const text = p.text;
    const title = p.title;
    if (text.includes(REPLACEMENT) || title?.includes(REPLACEMENT) || LONE_SURROGATE.test(text) || (title !== undefined && LONE_SURROGATE.test(title))) {
      if (!this.replaced++) this.firstReplaced = p.id;
    }
    const word = formatCharWord(text);
    if (word !== undefined && !this.formatChars++) {
      this.firstFormatChar = p.id;
      this.firstFormatWord = word;
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
      ...(this.formatChars ? { formatCharPassages: this.formatChars } : {}),
    };
  }

  /** One warning per kind noted, naming the count and the first passage. */
  warnings(corpusName: string, passages: number): string[] {
    const of = (k: number) => `${k.toLocaleString('en-US')} of ${passages.toLocaleString('en-US')} ${passages === 1 ? 'passage' : 'passages'}`;
    // the verb and pronoun agree with the count ("1 of 3 passages has …, bm25 never returns it")
    const has = (k: number) => (k === 1 ? 'has' : 'have');
    const them = (k: number) => (k === 1 ? 'it' : 'them');
    const first = (k: number) => (k === 1 ? 'the passage:' : 'the first:');
    return [
      ...(this.empty
        ? [
            `${corpusName}: ${of(this.empty)} ${has(this.empty)} no text (empty or whitespace only; ${first(this.empty)} "${this.firstEmpty}"): indexed with no terms, bm25 never returns ${them(this.empty)}, textbook qld ranks ${them(this.empty)} by length alone (above longer passages that match), and dense gives ${them(this.empty)} a vector`,
          ]
        : []),
      ...(this.termless
        ? [
            `${corpusName}: ${of(this.termless)} ${has(this.termless)} text but no index term under this analyzer (only stopwords, punctuation or symbols; ${first(this.termless)} "${this.firstTermless}"): searched as ${this.termless === 1 ? 'a passage' : 'passages'} with no text — bm25 never returns ${them(this.termless)}, textbook qld ranks ${them(this.termless)} by length alone (above longer passages that match)`,
          ]
        : []),
      ...(this.replaced
        ? [
            `${corpusName}: ${of(this.replaced)} ${this.replaced === 1 ? 'holds' : 'hold'} U+FFFD replacement characters (${first(this.replaced)} "${this.firstReplaced}"), what invalid UTF-8 bytes are read as: is the file in another encoding (Latin-1)? Convert it to UTF-8 (iconv -f latin1 -t utf-8) and rebuild (a lone surrogate, a JSON "\\ud800" escape with no pair, is also stored as U+FFFD)`,
          ]
        : []),
      ...(this.formatChars
        ? [
            `${corpusName}: ${of(this.formatChars)} ${has(this.formatChars)} an invisible format character inside a word (soft hyphen U+00AD, zero-width space U+200B, word joiner U+2060, U+FEFF or a bidirectional control; ${first(this.formatChars)} "${this.firstFormatChar}", the word "${visibleWord(this.firstFormatWord)}"): a query that spells the word without it does not find ${this.formatChars === 1 ? 'this passage' : 'these passages'} (the default analyzer indexes the pieces as separate terms, the lucene preset keeps the character inside the term); remove the characters and rebuild if the words should be found`,
          ]
        : []),
    ];
  }
}
