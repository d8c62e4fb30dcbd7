/**
 * Accuracy of EMAR's convergence rules (stance-aware vs pure embedding) on the labelled claim
 * pairs in tests/fixtures/emar/claim-pairs.jsonl, with the bundled use-lite embedder, for
 * docs/emar.md.   npx tsx bench/emar-convergence.ts [--epsilon 0.85]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_EPSILON } from '../agents/emar/convergence.js';
import { evaluateConvergenceRules, type LabelledClaimPair } from '../agents/emar/convergence-eval.js';
import { createEmbedder } from '../indexer/embed/create-embedder.js';

const { values } = parseArgs({ options: { epsilon: { type: 'string', default: String(DEFAULT_EPSILON) } } });
const pairs = readFileSync(join(import.meta.dirname, '../tests/fixtures/emar/claim-pairs.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as LabelledClaimPair);
const emb = await createEmbedder({ provider: 'use-lite', workers: 0 });
const { similarities, rules } = await evaluateConvergenceRules(pairs, emb, Number(values.epsilon));
await emb.close?.();
const kinds = [...new Set(pairs.map((p) => p.kind))];
console.log(`| rule | all | ${kinds.join(' | ')} |\n|---|---|${kinds.map(() => '---').join('|')}|`);
for (const r of rules) console.log(`| ${r.rule} | ${r.correct}/${r.n} | ${kinds.map((k) => `${r.byKind[k].correct}/${r.byKind[k].n}`).join(' | ')} |`);
for (const k of kinds) {
  const s = pairs.map((p, i) => (p.kind === k ? similarities[i] : NaN)).filter((x) => !Number.isNaN(x));
  console.log(`${k}: cosine min ${Math.min(...s).toFixed(3)}, mean ${(s.reduce((a, b) => a + b, 0) / s.length).toFixed(3)}, max ${Math.max(...s).toFixed(3)}`);
}
