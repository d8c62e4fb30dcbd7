/**
 * The 3-ply trace view's factor table: for each case of the triple (c1, c2, c3), its factor set
 * (from the trade-secret factor model) and the factors the Factor Distiller found in the argument,
 * each marked used (in the case's set) or hallucinated (not in it). Reads the trace defensively.
 */
import { loadTradeSecretModel, type TradeSecretModel } from '../../corpora/trade-secret.js';
import { factorMentionIds } from '../../agents/threeply/metrics.js';

let model: TradeSecretModel | undefined;

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

export function threeplyFactors(trace: Record<string, unknown>) {
  const triple = trace.triple as Record<string, { factors?: unknown; outcome?: unknown; name?: unknown }> | undefined;
  if (!triple || typeof triple !== 'object' || !('plies' in trace)) return null;
  try {
    model ??= loadTradeSecretModel();
  } catch {
    return null;
  }
  const byId = new Map(model.factors.map((f) => [f.id, f]));
  const extracted = (trace.extracted ?? null) as Record<string, unknown> | null;
  return (['c1', 'c2', 'c3'] as const).map((c) => {
    const gt = strings(triple[c]?.factors);
    const gtSet = new Set(gt);
    const ext = extracted ? strings(extracted[c]).flatMap((m) => factorMentionIds(m, model!)) : [];
    return {
      case: c,
      name: typeof triple[c]?.name === 'string' ? triple[c].name : null,
      outcome: typeof triple[c]?.outcome === 'string' ? triple[c].outcome : null,
      factors: gt.map((id) => ({ id, name: byId.get(id)?.name ?? id, side: byId.get(id)?.side ?? null, used: ext.includes(id) })),
      hallucinated: [...new Set(ext.filter((id) => !gtSet.has(id)))].map((id) => ({ id, name: byId.get(id)?.name ?? id })),
    };
  });
}
