/**
 * The library examples in README.md and docs/**\/*.md (```ts blocks that use lexcase) import what
 * they call, from the entry that exports it: every name a block imports from `lexcase` or
 * `lexcase/<subpath>` is exported there, and every lexcase export a block calls (`name(…)`,
 * `new Name(…)`, `Name.x(…)`) is imported by the block or defined in it. docs/cli.md's "Library
 * equivalents" said evalRetrievalOnIndex, formatRetrievalReport, TrecRunWriter and runDemo were
 * exported from the root (they are `lexcase/eval` and `lexcase/demo`'s), and docs/threeply.md's
 * block called buildScenarios and createThreePlySystem without importing them: copied into a
 * program, neither compiled. Every ```ts block is read, also one with no lexcase import (docs/library.md's
 * "From Documents" block called LexcaseRetriever.fromDocuments importing only Document; docs/emar.md's called
 * createEmarSystem<Question>(…) and runEmar importing nothing). (tests/readme-library-example.test.ts compiles and runs the README's
 * example against the packed tarball; tests/package-exports.test.ts type-checks every subpath.)
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { docFiles } from './docs-check.js';

const root = join(import.meta.dirname, '../..');

/** Each package entry (package.json "exports") → its source module. */
function entrySources(): Record<string, string> {
  const out: Record<string, string> = { lexcase: 'src/index.ts' };
  for (const f of readdirSync(join(root, 'src/exports'))) if (f.endsWith('.ts') && !f.includes('.test.')) out[`lexcase/${f.slice(0, -3)}`] = `src/exports/${f}`;
  for (const d of readdirSync(join(root, 'agents'), { withFileTypes: true }))
    if (d.isDirectory() && readdirSync(join(root, 'agents', d.name)).includes('public.ts')) out[`lexcase/agents/${d.name}`] = `agents/${d.name}/public.ts`;
  return out;
}

interface Example {
  where: string;
  code: string;
}

function examples(): Example[] {
  const out: Example[] = [];
  for (const file of docFiles(root)) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const m of text.matchAll(/```(?:ts|typescript)\n([\s\S]*?)```/g)) {
      // every ts block, also one that imports nothing from lexcase: docs/library.md's "From Documents" block imported
      // only Document and called LexcaseRetriever.fromDocuments, docs/emar.md's imported nothing
      out.push({ where: `${file}:${text.slice(0, m.index).split('\n').length}`, code: m[1] });
    }
  }
  return out;
}

/** `import { a, type B, c as d } from 'lexcase…'` → entry → names (types left out: they have no runtime value). */
function imports(code: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const m of code.matchAll(/import\s*\{([^}]*)\}\s*from\s*'(lexcase(?:\/[\w/-]+)?)'/g)) {
    const names = m[1]
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s && !s.startsWith('type '))
      .map((s) => s.split(/\s+as\s+/)[0]);
    out.set(m[2], [...(out.get(m[2]) ?? []), ...names]);
  }
  return out;
}

const modules = new Map<string, Record<string, unknown>>();
beforeAll(async () => {
  for (const [entry, src] of Object.entries(entrySources())) modules.set(entry, (await import(join(root, src))) as Record<string, unknown>);
}, 60_000);

describe('the docs’ library examples', () => {
  it('import each name from an entry that exports it', () => {
    const wrong: string[] = [];
    for (const ex of examples())
      for (const [entry, names] of imports(ex.code)) {
        const mod = modules.get(entry);
        if (!mod) wrong.push(`${ex.where}: no package entry "${entry}"`);
        else for (const n of names) if (!(n in mod)) wrong.push(`${ex.where}: "${n}" is not exported by ${entry}${whereElse(n)}`);
      }
    expect(wrong).toEqual([]);
  });

  it('import every lexcase export they call', () => {
    const exported = new Map<string, string[]>();
    for (const [entry, mod] of modules) for (const n of Object.keys(mod)) exported.set(n, [...(exported.get(n) ?? []), entry]);
    const missing: string[] = [];
    for (const ex of examples()) {
      const imported = new Set([...imports(ex.code).values()].flat());
      const defined = new Set([...ex.code.matchAll(/\b(?:const|let|function|class)\s+(\w+)/g)].map((m) => m[1]));
      const called = new Set([...ex.code.matchAll(/(?<![.\w])(?:new\s+)?([A-Za-z_]\w*)\s*(?=\(|<[^()]*>\(|\.\w+\()/g)].map((m) => m[1]));
      for (const n of called)
        if (exported.has(n) && !imported.has(n) && !defined.has(n))
          missing.push(`${ex.where}: calls ${n} without importing it (${exported.get(n)!.join(' or ')})`);
    }
    expect(missing).toEqual([]);
  });

  it('name, in docs/cli.md’s library equivalents, the entry each one is exported from', () => {
    const text = readFileSync(join(root, 'docs/cli.md'), 'utf8');
    const section = text.slice(text.indexOf('## Library equivalents'));
    const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
    const names = [...imports(block).values()].flat();
    expect(names).toEqual(
      expect.arrayContaining(['indexCorpus', 'openRetriever', 'evalRetrieval', 'evalRetrievalOnIndex', 'formatRetrievalReport', 'TrecRunWriter', 'runDemo']),
    );
  });
});

/** Names docs/library.md writes in backticks that are not a package export on purpose: a method, and internals it names beside their source file. */
const NOT_EXPORTS: Record<string, string> = {
  search: 'a Retriever method',
  METHODS: 'named beside retrieval/methods.ts',
  assertDistinctHits: 'named beside retrieval/top-k.ts',
  searchTopK: 'named beside retrieval/top-k.ts',
};

describe('docs/library.md', () => {
  // it said `evalCaseOffline` refuses the learned selector's training questions, a function no package entry exported
  it('names, in backticks, only functions and constants a package entry exports', () => {
    const text = readFileSync(join(root, 'docs/library.md'), 'utf8');
    const exported = new Set([...modules.values()].flatMap((m) => Object.keys(m)));
    const sourceExports = new Set(
      sourceFiles().flatMap((f) =>
        [...readFileSync(join(root, f), 'utf8').matchAll(/^export (?:async )?(?:function|const|class) ([A-Za-z_]\w*)/gm)].map((m) => m[1]),
      ),
    );
    const named = new Set([...text.matchAll(/`([A-Za-z_]\w*)(?:\([^`]*\))?`/g)].map((m) => m[1]));
    const notExported = [...named].filter((n) => sourceExports.has(n) && !exported.has(n) && !(n in NOT_EXPORTS));
    expect(notExported).toEqual([]);
  });
});

/** The package's TypeScript sources (no tests), as paths under the root. */
function sourceFiles(): string[] {
  return ['src', 'eval', 'retrieval', 'agents', 'corpora', 'core', 'serve', 'indexer'].flatMap((d) =>
    existsSync(join(root, d))
      ? readdirSync(join(root, d), { recursive: true, encoding: 'utf8' })
          .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts'))
          .map((f) => join(d, f))
      : [],
  );
}

function whereElse(name: string): string {
  const at = [...modules].filter(([, mod]) => name in mod).map(([e]) => e);
  return at.length ? ` (it is ${at.join(', ')}'s)` : '';
}
