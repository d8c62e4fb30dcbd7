import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { formatFactor, loadTradeSecretModel, parseCases, parseFactors } from './trade-secret.js';

// The source data (dahrb/ADFs TradeSecrets.py, see corpora/data/trade_secret/PROVENANCE.md), recorded
// when bundled: each factor's side, and the sha256 of the case base as
// JSON.stringify([{name, factors (sorted by number), outcome}, …]) in source order.
const SOURCE_SIDES: Record<string, 'P' | 'D'> = {
  F1: 'D',
  F2: 'P',
  F3: 'D',
  F4: 'P',
  F5: 'D',
  F6: 'P',
  F7: 'P',
  F8: 'P',
  F10: 'D',
  F11: 'D',
  F12: 'P',
  F13: 'P',
  F14: 'P',
  F15: 'P',
  F16: 'D',
  F17: 'D',
  F18: 'P',
  F19: 'D',
  F20: 'D',
  F21: 'P',
  F22: 'P',
  F23: 'D',
  F24: 'D',
  F25: 'D',
  F26: 'P',
  F27: 'D',
};
const SOURCE_CASES_SHA256 = '7120c016e4dcaeacb8ab2cfb8d9a30995b2d53d00a943e94a5e188c3871f3c5c';
const SOURCE_CASES = 32;

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

  it('agrees with the source data on every factor side and every case', () => {
    expect(Object.fromEntries(model.factors.map((f) => [f.id, f.side]))).toEqual(SOURCE_SIDES);
    expect(model.cases).toHaveLength(SOURCE_CASES);
    const num = (f: string) => Number(f.slice(1));
    const canonical = JSON.stringify(model.cases.map((c) => ({ name: c.name, factors: [...c.factors].sort((a, b) => num(a) - num(b)), outcome: c.outcome })));
    expect(createHash('sha256').update(canonical).digest('hex')).toBe(SOURCE_CASES_SHA256);
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
