/**
 * Reads the relative imports of the project's .ts files and checks them against the layer order
 * (docs/architecture.md): core → corpora → indexer → retrieval → eval → agents → src | web.
 * A file may import its own layer or any layer below; core imports nothing of the project;
 * agents import nothing from indexer/ (they reach an index through retrieval/). Tests, test
 * support and fixtures may reach across layers (an agent test builds the index it searches).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative } from 'node:path';

export const LAYERS = ['core', 'corpora', 'indexer', 'retrieval', 'eval', 'agents', 'src|web'] as const;
const RANK: Record<string, number> = { core: 0, corpora: 1, indexer: 2, retrieval: 3, eval: 4, agents: 5, src: 6, web: 6 };

export interface Arrow { from: string; to: string; rule: string }

const SPEC = /(?:\bfrom\s+|\bimport\s*\(\s*|^\s*import\s+|\bvi\.mock\(\s*)['"](\.\.?\/[^'"]+)['"]/gm;

export function isExempt(file: string): boolean {
  return /\.test\.ts$/.test(file) || /(^|\/)(test-support|fixtures)\//.test(file) || !(file.split('/')[0] in RANK) || file.startsWith('web/app/');
}

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
      else if (a === 'agents' && b === 'indexer') out.push({ from, to, rule: 'agents reach an index only through retrieval/' });
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
    try { walk(join(root, top)); } catch { /* a layer folder may be absent */ }
  }
  return files;
}
