/** A deterministic embedder for EMAR tests: hashed bag of lower-cased words, 64 dims, unit length; records its calls. */
import type { ClaimEmbedder } from '../types.js';

export function bowEmbedder(): ClaimEmbedder & { calls: string[][] } {
  return {
    id: 'fake:bow-64',
    dimension: 64,
    calls: [],
    async embed(texts) {
      this.calls.push(texts);
      return texts.map((t) => {
        const v = new Float32Array(64);
        for (const w of t.toLowerCase().match(/[a-z]+/g) ?? []) {
          let h = 2166136261;
          for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 16777619) >>> 0;
          v[h % 64] += 1;
        }
        const n = Math.hypot(...v) || 1;
        return v.map((x) => x / n);
      });
    },
  };
}
