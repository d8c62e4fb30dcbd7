/**
 * Reads the relative imports of the project's .ts files and checks them against the layer order
 * (docs/architecture.md): core → corpora → indexer → retrieval → eval → agents → serve → web → src.
 * A file may import its own layer or any layer below; core imports nothing of the project;
 * agents import nothing from indexer/ (they reach an index through retrieval/). Tests, fixtures and
 * tests/support/ may reach across layers (an agent test builds the index it searches); a layer's
 * own test-support/ follows the layer order (it may build an index, but never import a layer above).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative } from 'node:path';

export const LAYERS = ['core', 'corpora', 'indexer', 'retrieval', 'eval', 'agents', 'serve', 'web', 'src'] as const;
const RANK: Record<string, number> = Object.fromEntries(LAYERS.map((layer, rank) => [layer, rank]));

export interface Arrow {
  from: string;
  to: string;
  rule: string;
}

const SPEC = /(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+|\bvi\.mock\(\s*)['"](\.\.?\/[^'"]+)['"]/gm;

export function isExempt(file: string): boolean {
  return /\.test\.ts$/.test(file) || /(^|\/)fixtures\//.test(file) || !(file.split('/')[0] in RANK) || file.startsWith('web/app/');
}

/** Test support inside a layer (a test-support/ folder under a layer): it may reach down and sideways, never up (shared helpers live in tests/support/). */
export const isTestSupport = (file: string): boolean => /(^|\/)test-support\//.test(file);

/** The relative imports of one file, as repository paths of .ts files. */
export function importsOf(file: string, text: string): string[] {
  return [...text.matchAll(SPEC)].map((m) => posix.normalize(posix.join(posix.dirname(file), m[1])).replace(/\.js$/, '.ts'));
}

/** Every import arrow among `files` (path → source text) that runs against the layers. */
export function layerViolations(files: Map<string, string>): Arrow[] {
  const out: Arrow[] = [];
  for (const [from, text] of files) {
    if (isExempt(from)) continue;
    const a = from.split('/')[0];
    for (const to of importsOf(from, text)) {
      const b = to.split('/')[0];
      if (!(b in RANK)) continue;
      if (a === 'core' && b !== 'core') out.push({ from, to, rule: 'core imports nothing of the project' });
      else if (a === 'agents' && b === 'indexer' && !isTestSupport(from)) out.push({ from, to, rule: 'agents reach an index only through retrieval/' });
      else if (RANK[b] > RANK[a]) out.push({ from, to, rule: `${a} is below ${b}` });
    }
  }
  return out;
}

/** The project's .ts sources under `root` (no node_modules, dist or dot folders). */
export function readSources(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.ts')) files.set(relative(root, p).split('\\').join('/'), readFileSync(p, 'utf8'));
    }
  };
  for (const top of Object.keys(RANK)) {
    try {
      walk(join(root, top));
    } catch {
      /* a layer folder may be absent */
    }
  }
  return files;
}

/**
 * Import circles among the non-exempt sources (type-only imports included: a circle of types is
 * still two modules that cannot be understood apart). Each circle is listed once, as the files of
 * one strongly connected component (Tarjan), sorted; a file importing itself is a circle of one.
 */
export function importCircles(files: Map<string, string>): string[][] {
  const graph = new Map<string, string[]>();
  for (const [from, text] of files) {
    if (isExempt(from)) continue;
    graph.set(
      from,
      [...new Set(importsOf(from, text))].filter((to) => files.has(to) && !isExempt(to)),
    );
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  let next = 0;
  const strong = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || graph.get(v)!.includes(v)) out.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) strong(v);
  return out.sort((a, b) => a[0].localeCompare(b[0], 'en'));
}

/** The agents/<system> folder of a file ('agents/mad/debate.ts' → 'mad'); undefined outside agents/<folder>/. */
const agentFolder = (file: string): string | undefined => /^agents\/([^/]+)\//.exec(file)?.[1];

/**
 * Pairs of agents/<x> folders that import each other both ways (non-exempt sources: tests and
 * fixtures may reach across), each as 'a ⇄ b' sorted, with one import of each direction as evidence.
 */
export function mutualAgentImports(files: Map<string, string>): string[] {
  const arrows = new Map<string, string>();
  for (const [from, text] of files) {
    const a = agentFolder(from);
    if (!a || isExempt(from)) continue;
    for (const to of importsOf(from, text)) {
      const b = agentFolder(to);
      if (b && b !== a && !arrows.has(`${a}>${b}`)) arrows.set(`${a}>${b}`, `${from} -> ${to}`);
    }
  }
  const out: string[] = [];
  for (const [key, one] of arrows) {
    const [a, b] = key.split('>');
    if (a < b && arrows.has(`${b}>${a}`)) out.push(`${a} ⇄ ${b} (${one}; ${arrows.get(`${b}>${a}`)})`);
  }
  return out.sort();
}
