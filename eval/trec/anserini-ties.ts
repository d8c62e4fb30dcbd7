/**
 * Anserini's run-file ties (`--ties anserini`): what Anserini's SearchCollection does to every run
 * before writing it, so that a lexcase run of the same scores evaluates to Anserini's published
 * figures.
 *
 * 1. Ties are broken by docid, ascending (Anserini searches with the sort "score, then the id
 *    field": BREAK_SCORE_TIES_BY_DOCID), Java's String order (UTF-16 code units, as JS `<`).
 * 2. ScoreTiesAdjusterReranker (io.anserini.rerank.lib, the default cascade): each score, a float,
 *    is rounded to 4 decimals; a score within 1e-4 of the one above it is a tie and is lowered by
 *    1e-6 × its position in the run of ties — so trec_eval, which sorts by score and breaks ties by
 *    docid DESCENDING, keeps Anserini's order. Arithmetic in float32, as in Java.
 * Without it, equal scores (common with short queries and 1-byte length norms) are ordered by
 * trec_eval's descending docids: on CACM MAP 0.3124 / 0.3268 instead of Anserini's 0.3123 / 0.3265.
 */
import type { Hit } from '../../retrieval/types.js';
import { errors } from '../../core/errors.js';
import { TIE_MODES, type TieMode } from '../../retrieval/top-k.js';

export { TIE_MODES, type TieMode };

const f = Math.fround;
const EPS4 = f(1e-4);
const EPS6 = f(1e-6);

/** The hits in Anserini's order with its adjusted scores (ranks renumbered). */
export function anseriniTies(hits: readonly Hit[]): Hit[] {
  const sorted = hits.slice().sort((a, b) => (b.score !== a.score ? b.score - a.score : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const out: Hit[] = [];
  let dup = 0;
  let prev = 0;
  sorted.forEach((h, i) => {
    // (float) (Math.round(score * 1e4d) / 1e4d); Java's and JS's Math.round agree (ties up).
    let s = f(Math.round(f(h.score) * 1e4) / 1e4);
    if (i === 0 || f(prev - s) > EPS4) dup = 0;
    else {
      dup++;
      s = f(s - f(EPS6 * dup));
    }
    prev = s;
    out.push({ ...h, score: s, rank: i + 1 });
  });
  return out;
}

export const TIES_HELP =
  "score ties in the run: none (default; trec_eval orders equal scores by docid descending) | anserini (Anserini's: ties by docid ascending, scores rounded to 4 decimals and each tie lowered by 1e-6 — what its published figures were computed on)";

/** A --ties value, checked. */
export function parseTieMode(v: string): TieMode {
  if (!(TIE_MODES as readonly string[]).includes(v)) throw errors.invalidInput('--ties', `expected one of ${TIE_MODES.join(', ')}, got "${v}"`);
  return v as TieMode;
}

export function applyTies(hits: Hit[], mode: TieMode | undefined): Hit[] {
  return mode === 'anserini' ? anseriniTies(hits) : hits;
}
