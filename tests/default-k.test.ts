/**
 * `k` has two named defaults (retrieval/default-k.ts): DEFAULT_K for agents' evidence and SEARCH_K
 * for a search. No other source file writes a k default as a literal 5 or 10 (or as the constants'
 * current values): the syntax tree of every non-test source is searched where a k default can be
 * (tests/support/literal-k.ts), and the finder itself is shown to catch each form and to leave
 * unrelated numbers, comments and strings alone.
 */
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { isExempt, isTestSupport, readSources } from './support/import-layers.js';
import { literalKDefaults } from './support/literal-k.js';
import { DEFAULT_K, SEARCH_K } from '../retrieval/default-k.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const VALUES = [...new Set([5, 10, DEFAULT_K, SEARCH_K])];
const found = (text: string) => literalKDefaults('x.ts', text, VALUES).map((h) => h.text);

describe('k defaults (retrieval/default-k.ts)', () => {
  it('no source file but retrieval/default-k.ts writes a k default as a literal', () => {
    const files = readSources(root);
    expect(files.size).toBeGreaterThan(300);
    const hits = [...files]
      // Sources (the explorer's app included); tests and their helpers may pass any k.
      .filter(([f]) => f !== 'retrieval/default-k.ts' && !isTestSupport(f) && (!isExempt(f) || f.startsWith('web/app/')))
      .flatMap(([f, text]) => literalKDefaults(f, text, VALUES))
      .map((h) => `${h.file}:${h.line}: ${h.text}`);
    expect(hits).toEqual([]);
    // The constants are read where the defaults are applied (the search CLI, a retriever, the tools, the service).
    for (const f of [
      'src/cli/commands/search.ts',
      'retrieval/search-options.ts',
      'retrieval/tools/search-tool.ts',
      'serve/query/schemas.ts',
      'web/server/search-api.ts',
    ])
      expect(files.get(f), f).toMatch(/\b(DEFAULT_K|SEARCH_K)\b/);
  });

  it('an agent route applies DEFAULT_K once: no agents/ file defaults k twice (runCaseExperiment did, and its run dir again)', () => {
    const files = readSources(root);
    const twice = [...files]
      .filter(([f]) => f.startsWith('agents/') && !isExempt(f) && !isTestSupport(f))
      .map(([f, text]) => [f, text.match(/\?\?\s*DEFAULT_K\b/g)?.length ?? 0] as const)
      .filter(([, n]) => n > 1);
    expect(twice).toEqual([]);
  });

  it('finds every form a literal k default takes', () => {
    const cases = [
      'const k = opts?.k ?? 10;',
      'const k = Math.min(o?.k ?? (10), n);',
      "const v = params.get('k') ?? (mode === 'search' ? '10' : '5');",
      'function f(q: string, k = 5) {}',
      'const { k = 10 } = opts;',
      'const { k: topK = 5 } = opts;',
      'let k = 5;',
      'o.k ||= 10;',
      'const MAD = { rounds: 2, k: 5 };',
      'const link = qs({ q, k: 10 });',
      'const s = z.object({ k: z.number().int().min(1).max(100).default(10).describe("hits") });',
      "cmd.option('-k, --k <n>', 'number of hits', parseIntOpt('k'), 10);",
      "cmd.requiredOption('--k <n>', 'hits', 10);",
      "cmd.addOption(new Option('--k <n>', 'hits').argParser(Number).default(10));",
      'const defaultK = o.defaultK ?? 5;',
      'export const SEARCH_K = 10;',
      'const k = fields.k ?? 1e1;',
      'const k = (o.k as number | undefined) ?? 10.0;',
    ];
    for (const c of cases) expect(found(c), c).toHaveLength(1);
  });

  it('leaves unrelated numbers, named defaults, comments and strings alone', () => {
    const text = [
      '// const k = opts?.k ?? 10;',
      '/** Number of hits (default 10): `k = 5` in the paper. */',
      "const doc = 'k = 5, k ?? 10';",
      'const top10 = hits.slice(0, 10);',
      'const nb = opts.bins ?? 5;',
      'const b = opts.batchSize ?? 10;',
      'const m = opts.samples ?? 5;',
      'const k = opts?.k ?? SEARCH_K;',
      'function f(q: string, k = DEFAULT_K) {}',
      'const MAX_SEARCH_K = 10;',
      'export const DEFAULT_KS = [1, 10, 100, 1000];',
      'const k = o.k ?? 3;',
      "cmd.option('--snippet <chars>', 'width', parseIntOpt('snippet'), 10);",
      "cmd.option('--depth <n>', 'k per method (default 10)', parseIntOpt('depth'), 100);",
      'const s = z.object({ depth: z.number().default(10), k: z.number().default(SEARCH_K) });',
      'interface O { k?: 10 }',
      'for (let i = 0; i < 10; i++) x[k] = 5;',
    ].join('\n');
    expect(found(text)).toEqual([]);
  });
});
