/**
 * The engine's hot code stays readable (issue 39 item 4): the blocked walk (blocked-taat.ts) is
 * named steps, none over 150 lines, and the chunk gallop is one function (gallop.ts) that the
 * blocked and block-max walks import. Their results are held bit-identical to the exhaustive walk
 * by exact-strategies.test.ts and compact-chunks.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const dir = fileURLToPath(new URL('.', import.meta.url));
const sources = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));

/** Top-level functions of a source (from `function name(` at column 0 to the first `}` at column 0) and their line counts. */
function functionLengths(text: string): Map<string, number> {
  const out = new Map<string, number>();
  let name: string | null = null;
  let start = 0;
  text.split('\n').forEach((line, i) => {
    const m = /^(?:export )?(?:async )?function\s+(\w+)/.exec(line);
    if (m && name === null) {
      name = m[1];
      start = i;
    } else if (name !== null && line.startsWith('}')) {
      out.set(name, i - start + 1);
      name = null;
    }
  });
  return out;
}

it('blockedTopK is split into named steps: no function of blocked-taat.ts is over 150 lines', () => {
  const lengths = functionLengths(readFileSync(`${dir}/blocked-taat.ts`, 'utf8'));
  expect(lengths.has('blockedTopK')).toBe(true);
  expect(lengths.size).toBeGreaterThan(5);
  expect([...lengths].filter(([, n]) => n > 150)).toEqual([]);
});

it('gallop16 is defined once (gallop.ts) and imported by the blocked and block-max walks', () => {
  const defines = sources.filter((f) => /function gallop16\(/.test(readFileSync(`${dir}/${f}`, 'utf8')));
  expect(defines).toEqual(['gallop.ts']);
  for (const f of ['blocked-taat.ts', 'block-max.ts']) expect(readFileSync(`${dir}/${f}`, 'utf8')).toMatch(/import \{ gallop16 \} from '\.\/gallop\.js'/);
});

it("the scorer modes' per-query facts are one table (mode-facts.ts): one row per Mode, and no walk lists modes in a disjunction", async () => {
  const { Mode } = await import('./accumulator.js');
  const { MODE_FACTS } = await import('./mode-facts.js');
  expect(MODE_FACTS.length).toBe(Object.keys(Mode).length);
  // the kernel's modes are exactly those that neither mark docs nor round to float32
  for (const f of MODE_FACTS) expect(f.kernel).toBe(!f.marks && !f.f32);
  const lists = sources.filter((f) =>
    /Mode\.\w+ \|\| (mode|inp\.mode) === Mode\.|Mode\.\w+ && (mode|inp\.mode) !== Mode\./.test(readFileSync(`${dir}/${f}`, 'utf8')),
  );
  expect(lists).toEqual([]);
});

it("explanations score with the ranking's own code: doc-score.ts repeats none of its arithmetic (no Math, no weight formula, no mode of its own)", () => {
  const text = readFileSync(`${dir}/doc-score.ts`, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
  // before: its own BM25 / QLD / lucene weights (Math.log1p, bm25Norm, luceneBm25Weight …), float32 rounding and QLD base
  expect(text).not.toMatch(/Math\.|bm25Norm|logRatios|lucene\w*Weight|luceneLmdTf|Mode\./);
  expect(text).toMatch(/accumulateList\(/);
  expect(text).toMatch(/selectAll\(/);
});
