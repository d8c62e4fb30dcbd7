/** zod schemas of EMAR's JSON replies; option letters are checked against the case's options. */
import { z } from 'zod';
import { LETTERS } from '../../corpora/types.js';

const str = z.preprocess((v) => (v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v)), z.string());
const list = z.preprocess((v) => (typeof v === 'string' ? [v] : v ?? []), z.array(str));

export function letterSchema(nChoices: number) {
  const allowed = LETTERS.slice(0, nChoices);
  return z.preprocess(
    (v) => (typeof v === 'string' ? (/^\(?([A-J])\)?(?:[.:)\s]|$)/i.exec(v.trim())?.[1] ?? v).toUpperCase() : v),
    z.string().refine((s) => allowed.includes(s), { message: `expected one of ${allowed.join(', ')}` }),
  );
}

export const factsSchema = z.object({ facts: list });

export const claimSchema = (nChoices: number) =>
  z.object({ answer: letterSchema(nChoices), claim: str, argument: str, evidence: list });

export const judgeSchema = (nChoices: number) =>
  z.object({ established_facts: list, answer: letterSchema(nChoices), rationale: str });
