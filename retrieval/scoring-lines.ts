/**
 * The scoring parameters of sparse retrievers as report headers print them (their `config`: bm25
 * k1/b, qld μ/variant, the lucene scorer, RM3's expansion; a hybrid's fusion, weights and depth and
 * its sparse components), so a table made at k1 1.2 or with equal hybrid weights does not read as
 * one made at the defaults. The JSON reports carry the configs themselves.
 */
type Config = Record<string, unknown>;

const num = (x: number) => String(Number(x.toFixed(3)));

/** "rrf k 100 of bm25 0.5 + qld 1.5 + dense 1, 1000 hits each" — a hybrid's fusion as fused (retrieval/fusion.ts: an unnamed method weighs 1 in RRF, 1/n in weighted). */
function fusionParams(c: Config): string | undefined {
  if (c.fusion !== 'rrf' && c.fusion !== 'weighted') return undefined;
  const methods = Array.isArray(c.methods) ? c.methods.map(String) : [];
  const given = (c.weights ?? {}) as Record<string, number>;
  const dflt = c.fusion === 'rrf' ? 1 : 1 / (methods.length || 1);
  const equal = methods.every((m) => (given[m] ?? dflt) === dflt);
  const fusion = c.fusion === 'rrf' ? `rrf k ${c.rrfK}` : 'weighted min-max';
  const of = equal ? `${methods.join(' + ')} (equal weights)` : methods.map((m) => `${m} ${num(given[m] ?? dflt)}`).join(' + ');
  return `${fusion} of ${of}${typeof c.depth === 'number' ? `, ${c.depth} hits each` : ''}`;
}

function sparseParams(c: Config): string | undefined {
  const parts: string[] = [];
  if (typeof c.k1 === 'number' && typeof c.b === 'number') parts.push(`k1 ${c.k1}, b ${c.b}`);
  if (typeof c.mu === 'number') parts.push(`μ ${c.mu}${typeof c.variant === 'string' ? ` (${c.variant})` : ''}`);
  if (c.scorer === 'lucene') parts.push("Lucene's scorer");
  const rm3 = c.rm3 as Config | undefined;
  if (rm3 && typeof rm3 === 'object')
    parts.push(
      `RM3 ${rm3.fbDocs} feedback docs × ${rm3.fbTerms} terms, original query weight ${rm3.originalQueryWeight}${rm3.filterTerms === false ? ', unfiltered terms' : ''}${rm3.ties === 'anserini' ? ", feedback docs in Anserini's tie order" : ''}`,
    );
  return parts.length ? parts.join(', ') : undefined;
}

/** "Scoring: bm25 k1 0.9, b 0.4 · qld μ 2000 (textbook) · hybrid rrf k 100 of …" — empty when no result has sparse or fusion parameters. */
export function scoringLines(results: readonly { method: string; config?: Config }[]): string[] {
  const parts: string[] = [];
  for (const r of results) {
    if (!r.config) continue;
    const own = sparseParams(r.config) ?? fusionParams(r.config);
    if (own) parts.push(`${r.method} ${own}`);
    const comps = r.config.components as Record<string, Config> | undefined;
    if (comps && typeof comps === 'object')
      for (const [m, c] of Object.entries(comps)) {
        const p = c && typeof c === 'object' ? sparseParams(c) : undefined;
        if (p) parts.push(`${r.method}'s ${m} ${p}`);
      }
  }
  return parts.length ? [`Scoring: ${parts.join(' · ')}.`] : [];
}
