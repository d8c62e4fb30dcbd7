/**
 * Defaults in one object per domain (issue 39 item 3): retrieval's (k, BM25 k1/b, QLD μ/variant,
 * hybrid fusion) in retrieval/defaults.ts, the agents' (jurors, advocate steps and tokens, MAD
 * rounds) in agents/common/defaults.ts. The code and the CLI's help read them there; no other
 * source writes one of them as a literal default.
 */
import { Command } from 'commander';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isExempt, isTestSupport, readSources } from './support/import-layers.js';
import { RETRIEVAL_DEFAULTS } from '../retrieval/defaults.js';
import { AGENT_DEFAULTS } from '../agents/common/defaults.js';
import { BM25_DEFAULTS } from '../retrieval/bm25.js';
import { QLD_DEFAULTS } from '../retrieval/qld.js';
import { MAD_DEFAULTS } from '../agents/mad/debate.js';
import { addRetrieverOptions } from '../src/cli/commands/retriever-options.js';
import { SEARCH_K, DEFAULT_K } from '../retrieval/default-k.js';
import { HYBRID_DEFAULTS } from '../retrieval/hybrid-defaults.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/** A literal written where a default of either object belongs (a default argument, `??`, a flag's default, help text). */
const LITERAL_DEFAULTS: [string, RegExp][] = [
  ['BM25 k1', /(?:\bk1\b['"]?\s*[:,]|\bk1\s*\?\?)\s*0\.9\b|BM25 k1 \(default 0\.9\)/],
  ['BM25 b', /(?:['"]b['"]\s*,|\bb\s*:|\bb\s*\?\?)\s*0\.4\b|BM25 b \(default 0\.4\)/],
  ['QLD μ', /(?:\bmu\b['"]?\s*[:,]|\bmu\s*\?\?)\s*2_?000\b|μ \(default 2000\)/],
  ['jurors', /jurors\s*\?\?\s*\d|'jurors'.*\)\s*,\s*\d+\s*\)/],
  ['advocate steps', /maxSteps\s*\?\?\s*\d|'max-steps'.*\)\s*,\s*\d+\s*\)/],
  ['advocate tokens', /maxTokens\s*\?\?\s*\d|'max-tokens'.*\)\s*,\s*\d+\s*\)/],
  ['MAD rounds', /MAD_DEFAULTS[^\n]*rounds:\s*\d|'rounds'.*\)\s*,\s*\d+\s*\)/],
];
const HOMES = new Set(['retrieval/defaults.ts', 'agents/common/defaults.ts']);

describe('defaults in one object per domain', () => {
  it('no source but retrieval/defaults.ts and agents/common/defaults.ts writes a retrieval or agent default as a literal', () => {
    const files = [...readSources(root)].filter(([f]) => !HOMES.has(f) && !isExempt(f) && !isTestSupport(f));
    expect(files.length).toBeGreaterThan(300);
    const found = files.flatMap(([f, text]) =>
      text.split('\n').flatMap((line, i) => LITERAL_DEFAULTS.filter(([, re]) => re.test(line)).map(([what]) => `${f}:${i + 1} ${what}`)),
    );
    expect(found).toEqual([]);
  });

  it('the patterns catch the literals they are for', () => {
    const hit = (line: string) => LITERAL_DEFAULTS.filter(([, re]) => re.test(line)).map(([what]) => what);
    expect(hit("createBm25Retriever(index, { k1: numberOption(opts, 'k1', 0.9, 0), b: numberOption(opts, 'b', 0.4, 0, 1) })")).toEqual(['BM25 k1', 'BM25 b']);
    expect(hit("mu: numberOption(opts, 'mu', 2000, Number.MIN_VALUE)")).toEqual(['QLD μ']);
    expect(hit(".option('--mu <x>', 'QLD Dirichlet μ (default 2000)', numOpt('mu', { gt: 0 }))")).toEqual(['QLD μ']);
    expect(hit('samplePanel(ctx.seed, o.jurors ?? 3)')).toEqual(['jurors']);
    expect(hit(".option('--jurors <n>', 'jurors per question', parseIntOpt('jurors', { min: 1, max: 5 }), 3)")).toEqual(['jurors']);
    expect(hit(".option('--max-steps <n>', 'model calls per advocate', parseIntOpt('max-steps', { min: 1 }), 6)")).toEqual(['advocate steps']);
    expect(hit('const maxTokens = o.maxTokens ?? 20000;')).toEqual(['advocate tokens']);
    expect(hit("export const MAD_DEFAULTS: MadSettings = { rounds: 2, topology: 'sparse' };")).toEqual(['MAD rounds']);
    expect(hit("k1: numberOption(opts, 'k1', RETRIEVAL_DEFAULTS.bm25.k1, 0)")).toEqual([]);
  });

  it('the code and the help read the objects', () => {
    expect(RETRIEVAL_DEFAULTS).toMatchObject({ searchK: SEARCH_K, evidenceK: DEFAULT_K, hybrid: HYBRID_DEFAULTS });
    expect(BM25_DEFAULTS).toBe(RETRIEVAL_DEFAULTS.bm25);
    expect(QLD_DEFAULTS).toBe(RETRIEVAL_DEFAULTS.qld);
    expect(MAD_DEFAULTS.rounds).toBe(AGENT_DEFAULTS.rounds);
    const help = addRetrieverOptions(new Command('search')).helpInformation().replace(/\s+/g, ' ');
    expect(help).toContain(`BM25 k1 (default ${RETRIEVAL_DEFAULTS.bm25.k1})`);
    expect(help).toContain(`BM25 b (default ${RETRIEVAL_DEFAULTS.bm25.b})`);
    expect(help).toContain(`QLD Dirichlet μ (default ${RETRIEVAL_DEFAULTS.qld.mu})`);
    expect(help).toContain(`default ${RETRIEVAL_DEFAULTS.qld.variant}`);
  });
});
