/**
 * The CATO trade-secret factor model: 26 factors (F1–F27, no F9), each favouring the plaintiff (P)
 * or the defendant (D), and a base of 32 real cases with their factor sets and outcomes. The data
 * ships with lexcase in corpora/data/trade_secret/ (see PROVENANCE.md there); factor descriptions
 * are lexcase's own wording.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { errors } from '../core/errors.js';
import { PACKAGE_ROOT } from '../core/version.js';

export type Side = 'P' | 'D';

export interface Factor {
  /** "F1".."F27". */
  id: string;
  /** CATO short name, e.g. "Disclosure-in-negotiations". */
  name: string;
  /** The side the factor typically favours. */
  side: Side;
  description: string;
}

export interface TradeSecretCase {
  name: string;
  /** Factor ids, sorted by number. */
  factors: string[];
  outcome: Side;
}

export interface TradeSecretModel {
  factors: Factor[];
  byId: Map<string, Factor>;
  cases: TradeSecretCase[];
}

export const TRADE_SECRET_DIR = join(PACKAGE_ROOT, 'corpora', 'data', 'trade_secret');

const FACTOR_ID = /^F([1-9]|[12][0-9])$/;

/** Numeric order of factor ids ("F2" before "F10"). */
export const factorNumber = (id: string): number => Number(id.slice(1));
export const sortFactorIds = (ids: Iterable<string>): string[] => [...new Set(ids)].sort((a, b) => factorNumber(a) - factorNumber(b));

function jsonLines(text: string, file: string): Array<{ line: number; value: Record<string, unknown> }> {
  const out: Array<{ line: number; value: Record<string, unknown> }> = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    if (!raw.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (e) {
      throw errors.corpusParse(file, i + 1, `not valid JSON: ${(e as Error).message}`, e);
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw errors.corpusParse(file, i + 1, 'expected a JSON object');
    out.push({ line: i + 1, value: value as Record<string, unknown> });
  });
  return out;
}

const isSide = (v: unknown): v is Side => v === 'P' || v === 'D';

export function parseFactors(text: string, file = 'factors.jsonl'): Factor[] {
  const seen = new Set<string>();
  return jsonLines(text, file).map(({ line, value }) => {
    const { id, name, side, description } = value;
    if (typeof id !== 'string' || !FACTOR_ID.test(id)) throw errors.corpusParse(file, line, `field "id": expected F1..F29, got ${JSON.stringify(id)}`);
    if (seen.has(id)) throw errors.corpusParse(file, line, `field "id": duplicate factor ${id}`);
    seen.add(id);
    if (typeof name !== 'string' || !name) throw errors.corpusParse(file, line, 'field "name": expected a non-empty string');
    if (!isSide(side)) throw errors.corpusParse(file, line, `field "side": expected "P" or "D", got ${JSON.stringify(side)}`);
    return { id, name, side, description: typeof description === 'string' ? description : '' };
  });
}

export function parseCases(text: string, known: Map<string, Factor>, file = 'cases.jsonl'): TradeSecretCase[] {
  return jsonLines(text, file).map(({ line, value }) => {
    const { name, factors, outcome } = value;
    if (typeof name !== 'string' || !name) throw errors.corpusParse(file, line, 'field "name": expected a non-empty string');
    if (!Array.isArray(factors) || factors.length === 0) throw errors.corpusParse(file, line, 'field "factors": expected a non-empty array of factor ids');
    for (const f of factors) {
      if (typeof f !== 'string' || !known.has(f)) throw errors.corpusParse(file, line, `field "factors": unknown factor ${JSON.stringify(f)}`);
    }
    if (!isSide(outcome)) throw errors.corpusParse(file, line, `field "outcome": expected "P" or "D", got ${JSON.stringify(outcome)}`);
    return { name, factors: sortFactorIds(factors as string[]), outcome };
  });
}

let cached: TradeSecretModel | undefined;

/** The bundled factor model and case base (read once). Pass `dir` to load another copy. */
export function loadTradeSecretModel(dir: string = TRADE_SECRET_DIR): TradeSecretModel {
  if (dir === TRADE_SECRET_DIR && cached) return cached;
  const read = (f: string) => {
    const p = join(dir, f);
    try {
      return readFileSync(p, 'utf8');
    } catch {
      throw errors.corpusNotFound(p);
    }
  };
  const factorsFile = join(dir, 'factors.jsonl');
  const factors = parseFactors(read('factors.jsonl'), factorsFile);
  const byId = new Map(factors.map((f) => [f.id, f]));
  const cases = parseCases(read('cases.jsonl'), byId, join(dir, 'cases.jsonl'));
  const model = { factors, byId, cases };
  if (dir === TRADE_SECRET_DIR) cached = model;
  return model;
}

/** "F4 Agreed-not-to-disclose (P)", the paper's notation. */
export function formatFactor(f: Factor): string {
  return `${f.id} ${f.name} (${f.side})`;
}
