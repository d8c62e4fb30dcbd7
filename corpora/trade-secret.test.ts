import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatFactor, loadTradeSecretModel, parseCases, parseFactors } from './trade-secret.js';

const shared = resolve(import.meta.dirname, '../../shared/data/trade_secret');

describe('trade-secret factor model', () => {
  const model = loadTradeSecretModel();

  it('bundles the 26 CATO factors F1..F27 without F9, split between the sides', () => {
    expect(model.factors).toHaveLength(26);
    expect(model.byId.has('F9')).toBe(false);
    expect(model.byId.get('F1')?.side).toBe('D');
    expect(model.byId.get('F4')?.side).toBe('P');
    expect(model.factors.filter((f) => f.side === 'P')).toHaveLength(13);
    expect(formatFactor(model.byId.get('F6')!)).toBe('F6 Security-measures (P)');
  });

  it('agrees with the shared source data on every factor side and every case', () => {
    const src = readFileSync(resolve(shared, 'factors.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    for (const f of src) expect(model.byId.get(f.id)?.side, f.id).toBe(f.side);
    const cases = readFileSync(resolve(shared, 'cases.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(model.cases).toHaveLength(cases.length);
    expect(model.cases.filter((c) => c.outcome === 'P')).toHaveLength(19);
    const boeing = model.cases.find((c) => c.name.includes('Boeing'))!;
    expect(boeing.factors).toEqual(['F1', 'F4', 'F6', 'F10', 'F12', 'F14', 'F21']);
  });

  it('rejects a case with an unknown factor, naming the line and field', () => {
    const byId = new Map(parseFactors('{"id":"F1","name":"X","side":"D"}').map((f) => [f.id, f]));
    expect(() => parseCases('{"name":"a","factors":["F1"],"outcome":"P"}\n{"name":"b","factors":["F9"],"outcome":"P"}', byId, 'cases.jsonl')).toThrow(
      /cases\.jsonl:2: field "factors": unknown factor "F9"/,
    );
  });

  it('rejects a factor with a bad side', () => {
    expect(() => parseFactors('{"id":"F1","name":"X","side":"plaintiff"}', 'f.jsonl')).toThrow(/f\.jsonl:1: field "side"/);
  });
});
