/**
 * Lucene's StandardTokenizer (Lucene 8, the tokenizer of Anserini's DefaultEnglishAnalyzer) on top
 * of `Intl.Segmenter` — Node's built-in UAX #29 word segmentation (ICU), which does the hard part:
 * the word-break rules with the Unicode data (letters joined across ' . : ’ ·, numbers across , . ;,
 * underscores, combining marks and format characters absorbed, CR/LF/space breaks).
 *
 * Stretches between whitespace made of ASCII and common Latin letters and punctuation (nearly all of
 * English text) take a direct scanner of the same rules instead (scanFast: ICU's segmenter runs at
 * a few MB/s; tests check the two agree).
 *
 * Where ICU's segments differ from StandardTokenizer's tokens, this file makes them Lucene's
 * (each case checked against Lucene itself, tests/lucene/):
 *  1. Emoji: ICU marks emoji segments not word-like; Lucene emits them (EMOJI tokens: ©, ®, ™ and
 *     \p{Extended_Pictographic} characters, presentation/modifier/ZWJ/tag sequences, keycaps, flag pairs).
 *  2. Han ideographs and hiragana: ICU's dictionary groups them into words; Lucene emits one token
 *     per character. Ideographic characters of no Han script (〆) are not tokens in Lucene.
 *  3. Southeast Asian scripts (Line_Break = Complex_Context: Thai, Lao, Myanmar, Khmer, Tai …): ICU
 *     splits runs into dictionary words and joins them to adjacent Latin; Lucene emits each run whole,
 *     apart from its neighbours.
 *  4. Hangul and katakana: ICU breaks where a run of them meets letters or digits (Hangul) or inside
 *     a run (katakana); Lucene joins Hangul with letters and digits (it is ALetter) and katakana runs.
 *  5. Connector punctuation alone ("___") is word-like to ICU; Lucene's word rule needs a letter,
 *     digit or kana, so it is no token.
 *  6. Maximum token length 255 UTF-16 units: Lucene's scanner sees at most 255 characters at a time,
 *     so a longer word becomes the longest token that fits in 255 (never splitting a surrogate pair),
 *     then scanning restarts after it ("a"×254 + "'s" → "a"×254, "s").
 *  7. ICU calls a few segments with letters or digits not word-like ("a_" + soft hyphen, "々");
 *     Lucene makes tokens of them.
 * Known differences that remain (rare; listed in tests/lucene/): ICU uses the Unicode version of the
 * running Node (15+), Lucene 8 Unicode 9, so characters assigned since differ; a word joined to
 * an emoji by ZWJ ("x\u200d😀") is one ICU segment.
 */

/** Lucene's StandardAnalyzer.DEFAULT_MAX_TOKEN_LENGTH. */
export const LUCENE_MAX_TOKEN_LENGTH = 255;

/**
 * ICU's word segmenter and the set-notation ('v') classes, made on first use: building them costs
 * ~25 ms of CPU, which a process that never tokenizes the Lucene way (every search of an index
 * with lexcase's own analyzer) must not pay at import.
 */
let lazy: ReturnType<typeof makeClasses> | undefined;
function makeClasses() {
  return {
    segmenter: new Intl.Segmenter('en', { granularity: 'word' }),
    RE_HAN: new RegExp(String.raw`[\p{Script=Han}&&\p{Ideographic}]`, 'v'),
    RE_SA: new RegExp(
      String.raw`[[\p{Script=Thai}\p{Script=Lao}\p{Script=Myanmar}\p{Script=Khmer}\p{Script=Tai_Le}\p{Script=New_Tai_Lue}\p{Script=Tai_Tham}\p{Script=Tai_Viet}\p{Script=Ahom}]&&[\p{L}\p{M}]]`,
      'v',
    ),
    RE_EXT: new RegExp(String.raw`[[\p{Grapheme_Extend}\p{Mc}\p{Cf}]--[\u200B]]`, 'v'),
    RE_DROP: new RegExp(String.raw`[\p{Ideographic}--\p{Script=Han}]`, 'v'),
    RE_JOINS_HANGUL: new RegExp(String.raw`[[\p{L}\p{Nd}\p{Pc}]--[\p{Script=Katakana}\p{Script=Hiragana}\p{Script=Han}]]`, 'v'),
    ONLY_CONNECTORS: new RegExp(String.raw`^[\p{Pc}\p{Grapheme_Extend}\p{Cf}]+$`, 'v'),
    EMOJI_ANY: new RegExp(String.raw`[\p{Extended_Pictographic}\p{Emoji_Modifier}\p{Regional_Indicator}\u20E3]`, 'v'),
  };
}
const cls = () => (lazy ??= makeClasses());

// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\x00-\x7f]/;

// Character kinds inside ICU's word-like segments.
const OTHER = 0;
const HAN = 1; // one token per character
const HIRA = 2; // one token per character
const SA = 3; // runs, apart from neighbours
const EXT = 4; // Extend | Format | ZWJ: stays with what precedes it
const DROP = 5; // not part of any Lucene token

const RE_HIRA = /\p{Script=Hiragana}/u;
/** Letters Lucene joins with letters and digits where ICU breaks: Hangul (a dictionary script to ICU), 々 〻 (not word-like to ICU). */
const RE_HANGUL = /[\p{Script=Hangul}\u3005\u303B]/u;
const RE_KATAKANA = /[\p{Script=Katakana}\u3031-\u3035\u309B\u309C\u30A0\u30FC\uFF70]/u;
/** What those join with (UAX #29 WB5, WB9, WB10, WB13a/b): ALetter, Numeric, ExtendNumLet. */

const HAS_ALNUM = /[\p{L}\p{Nd}\p{Nl}]/u;

const kindCache = new Map<number, number>();
function kindOf(cp: number): number {
  if (cp < 0x80) return OTHER;
  let k = kindCache.get(cp);
  if (k === undefined) {
    const ch = String.fromCodePoint(cp);
    const c = cls();
    k = c.RE_HAN.test(ch) ? HAN : RE_HIRA.test(ch) ? HIRA : c.RE_SA.test(ch) ? SA : c.RE_EXT.test(ch) ? EXT : c.RE_DROP.test(ch) ? DROP : OTHER;
    if (kindCache.size < 100_000) kindCache.set(cp, k);
  }
  return k;
}

// Lucene's emoji rule (StandardTokenizerImpl.jflex, EMOJI_TYPE), as one sticky regex. X is
// Extend | Format without ZWJ and the presentation selectors; ZWJ chains are written out.
const X = String.raw`[[\p{Grapheme_Extend}\p{Mc}\p{Cf}]--[\u200B\u200D\uFE0E\uFE0F\p{Emoji_Modifier}]]`;
const E = String.raw`[\p{Extended_Pictographic}[\p{Emoji}--[\p{Regional_Indicator}0-9#*\u00A9\u00AE\u2122\u3030\u303D\p{Emoji_Modifier}]]]`;
const SEQ = String.raw`(?:\u200D*\p{Emoji_Modifier_Base}${X}*\p{Emoji_Modifier}${X}*|\u200D*${E}${X}*\uFE0F?|\p{Emoji_Modifier}${X}*)`;
const EMOJI = new RegExp(
  String.raw`${SEQ}(?:[\u{E0020}-\u{E007E}]+\u{E007F}|(?:\u200D+${SEQ})*)(?:\u200D|${X})*|[0-9#*]${X}*\uFE0F?\u20E3${X}*|\p{Regional_Indicator}${X}*\p{Regional_Indicator}${X}*`,
  'gv',
);

/** Emit the emoji tokens of a segment ICU calls not word-like. */
function emitEmoji(seg: string, emit: (raw: string) => void): void {
  EMOJI.lastIndex = 0;
  for (const m of seg.matchAll(EMOJI)) if (m[0]) emit(m[0]);
}

/** Emit text[start, end), a piece longer than 255, cut as Lucene's 255-character scanner window cuts it. */
function emitChopped(text: string, start: number, end: number, sa: boolean, emit: (raw: string) => void): void {
  let cut = false;
  while (start < end) {
    if (end - start <= LUCENE_MAX_TOKEN_LENGTH) {
      if (sa || !cut) emit(text.slice(start, end));
      // After a cut the rest is scanned afresh: a leading apostrophe, comma … is no longer mid-word.
      else for (const s of cls().segmenter.segment(text.slice(start, end))) if (s.isWordLike) emit(s.segment);
      return;
    }
    let w = LUCENE_MAX_TOKEN_LENGTH;
    const last = text.charCodeAt(start + w - 1);
    if (last >= 0xd800 && last <= 0xdbff) w--;
    cut = true;
    if (sa) {
      emit(text.slice(start, start + w));
      start += w;
      continue;
    }
    // The longest token that fits in the window: the window's first segment (ICU, same rules).
    const first = cls()
      .segmenter.segment(text.slice(start, start + w))
      [Symbol.iterator]()
      .next().value!;
    if (first.isWordLike) emit(first.segment);
    start += first.segment.length;
  }
}

// Classes of the fast path: letter, digit, "_" (ExtendNumLet), MidNumLet ("." ‘ ’), "'"
// (Single_Quote), MidLetter (":" "·"), MidNum ("," ";"), Format/Extend (soft hyphen, combining
// accents: transparent, WB4), whitespace, other (a break); UNKNOWN sends the chunk to ICU.
const C_OTHER = 0;
const C_L = 1;
const C_D = 2;
const C_U = 3;
const C_DOT = 4;
const C_SQ = 5;
const C_COLON = 6;
const C_MIDNUM = 7;
const C_FMT = 8;
const C_SPACE = 9;
const C_UNKNOWN = 10;
const FAST = new Uint8Array(0x2030).fill(C_UNKNOWN);
for (let c = 0; c < 128; c++) {
  FAST[c] =
    (c >= 65 && c <= 90) || (c >= 97 && c <= 122)
      ? C_L
      : c >= 48 && c <= 57
        ? C_D
        : c === 95
          ? C_U
          : c === 46
            ? C_DOT
            : c === 39
              ? C_SQ
              : c === 58
                ? C_COLON
                : c === 44 || c === 59
                  ? C_MIDNUM
                  : c === 32 || (c >= 9 && c <= 13)
                    ? C_SPACE
                    : C_OTHER;
}
// Latin-1 and Latin Extended-A/B letters (UAX #29 ALetter), combining diacritics (Extend).
for (let c = 0xc0; c < 0x250; c++) if (c !== 0xd7 && c !== 0xf7) FAST[c] = C_L;
FAST[0xaa] = FAST[0xb5] = FAST[0xba] = C_L;
for (let c = 0x300; c < 0x370; c++) FAST[c] = C_FMT;
FAST[0xad] = C_FMT; // soft hyphen (Format)
FAST[0xb7] = C_COLON; // middle dot (MidLetter)
FAST[0x2018] = FAST[0x2019] = C_DOT; // ‘ ’ (MidNumLet)
// Punctuation and symbols of legal text that are no part of a word (Word_Break = Other).
for (const c of [
  0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xab, 0xac, 0xaf, 0xb0, 0xb1, 0xb4, 0xb6, 0xb8, 0xbb, 0xbf, 0xd7, 0xf7, 0x2010, 0x2011, 0x2012, 0x2013,
  0x2014, 0x2015, 0x2016, 0x201a, 0x201c, 0x201d, 0x201e, 0x2020, 0x2021, 0x2022, 0x2026,
])
  FAST[c] = C_OTHER;

const fastClass = (code: number) => (code < 0x2030 ? FAST[code] : C_UNKNOWN);

/**
 * UAX #29 on a chunk [from, to) whose characters all have a fast class, as pairwise rules: letters
 * and digits join (WB5, WB8–WB10), "_" joins them and itself (WB13a/b), a letter + (":" | "." |
 * "'" | ’) + letter (WB6/7) and a digit + ("," | ";" | "." | "'" | ’) + digit (WB11/12) stay one
 * word; Format/Extend characters are transparent (WB4) and stay in the token they follow. Runs of
 * "_" alone are no token.
 */
function scanFast(text: string, from: number, to: number, emit: (raw: string) => void): void {
  let s = -1;
  let end = -1; // end of the token so far (after trailing Format/Extend)
  let prev = C_OTHER;
  let word = false; // the token holds a letter or digit
  for (let i = from; i < to; i++) {
    const c = fastClass(text.charCodeAt(i));
    if (c === C_FMT) {
      if (s >= 0 && end === i) end = i + 1;
      continue;
    }
    if (s >= 0) {
      if (end === i && (c === C_L || c === C_D || c === C_U)) {
        if (c !== C_U) word = true;
        prev = c;
        end = i + 1;
        continue;
      }
      if (end === i && c >= C_DOT && c <= C_MIDNUM) {
        let j = i + 1;
        while (j < to && fastClass(text.charCodeAt(j)) === C_FMT) j++;
        const y = j < to ? fastClass(text.charCodeAt(j)) : C_OTHER;
        if ((prev === C_L && y === C_L && c !== C_MIDNUM) || (prev === C_D && y === C_D && c !== C_COLON)) {
          i = j;
          end = j + 1;
          continue;
        }
      }
      if (word) emitToken(text, s, end, emit);
      s = -1;
    }
    if (c === C_L || c === C_D || c === C_U) {
      s = i;
      end = i + 1;
      prev = c;
      word = c !== C_U;
    }
  }
  if (s >= 0 && word) emitToken(text, s, end, emit);
}

function emitToken(text: string, start: number, end: number, emit: (raw: string) => void): void {
  if (end - start > LUCENE_MAX_TOKEN_LENGTH) emitChopped(text, start, end, false, emit);
  else emit(text.slice(start, end));
}

/**
 * Call `emit` with every token Lucene's StandardTokenizer produces for `text` (no case folding).
 * No token spans ASCII whitespace (UAX #29 breaks around it), so the text is taken in
 * whitespace-free chunks: chunks of ASCII and common Latin letters and punctuation by scanFast, the
 * others through Intl.Segmenter (scanIcu).
 */
export function scanStandard(text: string, emit: (raw: string) => void): void {
  const n = text.length;
  let start = 0;
  let fast = true;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? fastClass(text.charCodeAt(i)) : C_SPACE;
    if (c === C_UNKNOWN) fast = false;
    else if (c === C_SPACE) {
      if (i > start) {
        if (fast) scanFast(text, start, i, emit);
        else scanIcu(text.slice(start, i), emit);
      }
      start = i + 1;
      fast = true;
    }
  }
}

/**
 * The Intl.Segmenter path alone, for any text (scanStandard sends it only the chunks scanFast cannot
 * take; exported so tests can check the two paths agree).
 * Pieces of ICU word-like segments are held one step, so a piece that Lucene joins with the next
 * (Hangul with letters, katakana with katakana, Southeast Asian runs) can be extended first.
 */
export function scanIcu(text: string, emit: (raw: string) => void): void {
  let pStart = -1;
  let pEnd = -1;
  let pKind = OTHER;
  let pLast = 0; // last code point of the pending piece that is not Extend/Format/ZWJ
  const flush = () => {
    if (pStart < 0) return;
    if (pEnd - pStart > LUCENE_MAX_TOKEN_LENGTH) emitChopped(text, pStart, pEnd, pKind === SA, emit);
    else emit(text.slice(pStart, pEnd));
    pStart = -1;
  };
  const piece = (start: number, end: number, kind: number, first: number, last: number) => {
    if (pStart >= 0 && pEnd === start && kind === pKind && (kind === SA || (kind === OTHER && joins(pLast, first)))) {
      pEnd = end;
      pLast = last;
      return;
    }
    flush();
    pStart = start;
    pEnd = end;
    pKind = kind;
    pLast = last;
  };
  for (const s of cls().segmenter.segment(text)) {
    const seg = s.segment;
    // ICU calls a few segments with letters or digits not word-like ("a_" + soft hyphen, "々"); Lucene makes tokens of them.
    if (!s.isWordLike && !HAS_ALNUM.test(seg)) {
      if (NON_ASCII.test(seg) && cls().EMOJI_ANY.test(seg)) {
        flush();
        emitEmoji(seg, emit);
      }
      continue;
    }
    // Connector punctuation alone ("___") is word-like to ICU, no token to Lucene (its word rule needs a letter, digit or kana).
    if (cls().ONLY_CONNECTORS.test(seg)) continue;
    const base = s.index;
    if (!NON_ASCII.test(seg)) {
      const c0 = seg.charCodeAt(0);
      piece(base, base + seg.length, OTHER, c0, seg.charCodeAt(seg.length - 1));
      continue;
    }
    // Split the segment into pieces by kind.
    let start = -1;
    let kind = OTHER;
    let first = 0;
    let last = 0;
    const n = seg.length;
    for (let i = 0; i < n; ) {
      const cp = seg.codePointAt(i)!;
      const w = cp > 0xffff ? 2 : 1;
      const k = kindOf(cp);
      if (k === EXT) {
        i += w;
        continue; // stays with the current piece (or is dropped with nothing before it)
      }
      if (start >= 0 && (k !== kind || k === HAN || k === HIRA)) {
        piece(base + start, base + i, kind, first, last);
        start = -1;
      }
      if (k === DROP) {
        // Trailing Extend/Format of a dropped character go with it.
        i += w;
        while (i < n && kindOf(seg.codePointAt(i)!) === EXT) i += seg.codePointAt(i)! > 0xffff ? 2 : 1;
        continue;
      }
      if (start < 0) {
        start = i;
        kind = k;
        first = cp;
      }
      last = cp;
      i += w;
    }
    if (start >= 0) piece(base + start, base + n, kind, first, last);
  }
  flush();
}

/** Whether Lucene keeps two adjacent pieces ICU broke apart in one token (Hangul, katakana). */
function joins(a: number, b: number): boolean {
  if (a < 0x80 && b < 0x80) return false;
  const ca = String.fromCodePoint(a);
  const cb = String.fromCodePoint(b);
  if (RE_KATAKANA.test(ca) && RE_KATAKANA.test(cb)) return true;
  return (RE_HANGUL.test(ca) && cls().RE_JOINS_HANGUL.test(cb)) || (RE_HANGUL.test(cb) && cls().RE_JOINS_HANGUL.test(ca));
}
