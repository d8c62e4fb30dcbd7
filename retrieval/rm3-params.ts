/**
 * RM3's parameters (retrieval/rm3.ts) and their defaults — Anserini's (`-rm3`: fbDocs 10, fbTerms
 * 10, originalQueryWeight 0.5, Indri's defaults) — checked from a retriever-options object, where
 * `rm3` is `true` (the defaults) or an object of any of the fields. A light module: the CLI's help
 * and the registry read it without loading RM3 itself.
 */
import { errors } from '../core/errors.js';
import { TIE_MODES, type TieMode } from './top-k.js';

export interface Rm3Params {
  /** Feedback documents: the first-stage ranking's top fbDocs (default 10). */
  fbDocs: number;
  /** Feedback terms: each feedback document's top fbTerms terms, and the expansion's (default 10). */
  fbTerms: number;
  /** Weight of the original query in the interpolation, 0–1 (default 0.5). */
  originalQueryWeight: number;
  /**
   * Anserini's feedback-term filter (default true): only terms of [a-z0-9]+ (2–20 characters)
   * are expansion candidates. false keeps any term of 2–20 characters (non-ASCII corpora).
   */
  filterTerms: boolean;
  /**
   * Which of equal first-stage scores are the feedback documents: the first fbDocs of the run as
   * printed (retrieval/top-k.ts) — 'none' (default): trec_eval's order, the higher docid first;
   * 'anserini': Anserini's, the lower docid first (`--ties anserini` sets it).
   */
  ties: TieMode;
}

export const RM3_DEFAULTS: Readonly<Rm3Params> = { fbDocs: 10, fbTerms: 10, originalQueryWeight: 0.5, filterTerms: true, ties: 'none' };

/** The most feedback documents or terms RM3 takes (fbDocs, fbTerms): one limit for the library, the CLI (--fb-docs, --fb-terms), MCP and /v1. */
export const RM3_FB_MAX = 10_000;

/** A term in more than this share of the documents is never a feedback term (Anserini's stopword rule). */
export const RM3_MAX_DF_SHARE = 0.1;

const int = (field: string, v: unknown, dflt: number): number => {
  if (v === undefined || v === null) return dflt;
  const n = typeof v === 'string' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > RM3_FB_MAX)
    throw errors.invalidInput(`rm3.${field}`, `expected an integer in [1, ${RM3_FB_MAX}], got ${JSON.stringify(v)}`);
  return n;
};

/** The RM3 parameters an options object asks for (`opts.rm3`), or undefined when it asks for none. */
export function rm3Params(opts: Record<string, unknown> | undefined): Rm3Params | undefined {
  const v = opts?.rm3;
  if (v === undefined || v === null || v === false) return undefined;
  if (v === true) return { ...RM3_DEFAULTS };
  if (typeof v !== 'object' || Array.isArray(v))
    throw errors.invalidInput('rm3', `expected true or { fbDocs, fbTerms, originalQueryWeight, filterTerms, ties }, got ${JSON.stringify(v)}`);
  const o = v as Record<string, unknown>;
  const unknown = Object.keys(o).filter((k) => !(k in RM3_DEFAULTS));
  if (unknown.length)
    throw errors.invalidInput(
      'rm3',
      `unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')} (known: ${Object.keys(RM3_DEFAULTS).join(', ')})`,
    );
  const w =
    o.originalQueryWeight === undefined || o.originalQueryWeight === null
      ? RM3_DEFAULTS.originalQueryWeight
      : typeof o.originalQueryWeight === 'string'
        ? Number(o.originalQueryWeight)
        : o.originalQueryWeight;
  if (typeof w !== 'number' || !Number.isFinite(w) || w < 0 || w > 1)
    throw errors.invalidInput('rm3.originalQueryWeight', `expected a number in [0, 1], got ${JSON.stringify(o.originalQueryWeight)}`);
  if (o.filterTerms !== undefined && typeof o.filterTerms !== 'boolean')
    throw errors.invalidInput('rm3.filterTerms', `expected true or false, got ${JSON.stringify(o.filterTerms)}`);
  if (o.ties !== undefined && !(TIE_MODES as readonly unknown[]).includes(o.ties))
    throw errors.invalidInput('rm3.ties', `expected one of ${TIE_MODES.join(', ')}, got ${JSON.stringify(o.ties)}`);
  return {
    fbDocs: int('fbDocs', o.fbDocs, RM3_DEFAULTS.fbDocs),
    fbTerms: int('fbTerms', o.fbTerms, RM3_DEFAULTS.fbTerms),
    originalQueryWeight: w,
    filterTerms: o.filterTerms ?? RM3_DEFAULTS.filterTerms,
    ties: (o.ties as TieMode | undefined) ?? RM3_DEFAULTS.ties,
  };
}

/**
 * Retriever options whose RM3 (if any) picks its feedback documents in the run's tie order
 * (`--ties`): what `search --topics`, `eval retrieval --topics` and reproduce runs open, so a run
 * with `--ties anserini` expands from the documents Anserini would.
 */
export function withRm3Ties<T extends Record<string, unknown> | undefined>(opts: T, ties: TieMode | undefined): T {
  const rm3 = rm3Params(opts);
  return rm3 && ties ? ({ ...opts, rm3: { ...rm3, ties } } as T) : opts;
}
