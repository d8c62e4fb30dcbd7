/**
 * `lexcase search` options of the opt-in approximate mode (bm25 and qld): a posting budget as a
 * share of the query's postings and/or an absolute number (retrieval/sparse/approx.ts). Results
 * searched with either are labelled approximate in every output (header, JSON, run tag).
 */
import type { Command } from 'commander';
import { errors } from '../../../core/errors.js';
import { approxLabel, describeApprox } from '../../../retrieval/sparse/approx.js';
import type { ApproxOptions } from '../../../retrieval/types.js';
import { intOpt, numOpt } from '../numeric-options.js';

export interface ApproxFlags {
  approxPostings?: number;
  approxMaxPostings?: number;
}

export function addApproxOptions(cmd: Command): Command {
  return cmd
    .option(
      '--approx-postings <x>',
      "APPROXIMATE bm25/qld (opt-in; default exact): score only the leading query terms (fixed impact order) whose postings fit this share of the query's postings, 0 < x ≤ 1; output is labelled approximate",
      numOpt('approx-postings', { gt: 0, max: 1 }),
    )
    .option(
      '--approx-max-postings <n>',
      'APPROXIMATE bm25/qld: the same budget as a number of postings (with --approx-postings the smaller applies)',
      intOpt('approx-max-postings', { min: 1 }),
    );
}

/** The budget the flags ask for (undefined: exact scoring). */
export function approxFromFlags(flags: ApproxFlags): ApproxOptions | undefined {
  if (flags.approxPostings === undefined && flags.approxMaxPostings === undefined) return undefined;
  return {
    ...(flags.approxPostings !== undefined ? { postingShare: flags.approxPostings } : {}),
    ...(flags.approxMaxPostings !== undefined ? { maxPostings: flags.approxMaxPostings } : {}),
  };
}

/** Only bm25 and qld have an approximate mode; say so before anything is opened or written. */
export function checkApproxMethod(approx: ApproxOptions | undefined, method: string): void {
  if (approx && method !== 'bm25' && method !== 'qld')
    throw errors.usage(`--approx-postings / --approx-max-postings work with --method bm25 or qld, not "${method}"`);
}

/** A run tag marked approximate: `<tag>-approx0.3`. */
export function approxTag(tag: string, approx: ApproxOptions | undefined): string {
  return approx ? `${tag}-${approxLabel(approx)}` : tag;
}

export { describeApprox };
