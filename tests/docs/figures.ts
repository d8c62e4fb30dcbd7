/**
 * Figure regions: numbers in the docs that a run produces. `npm run docs:figures`
 * (tests/docs/docs-figures.ts) measures the facts below with a real run and writes each region's
 * text between `<!-- figures:NAME … -->` and `<!-- /figures:NAME -->` wherever the docs hold such
 * a region; the docs check (tests/docs/docs-check.ts) measures the same facts from the packed
 * tarball and compares them with what the docs say (`checkRegion`).
 *
 * Regions (one entry in REGIONS each):
 * - `pack-size`  — the packed tarball's size ("15.1 MB"); kept within 5 % (it moves with every change).
 * - `demo-wall`  — the demo's wall time, its CPU time and the machine it ran on: an example (timings
 *   differ per machine and load), checked for its form only; the check prints the time it measured.
 *   docs:figures stamps it only at a 1-minute load ≤ 1.5 (figures-run.ts).
 * - `demo-table` — the demo's printed retrieval table and offline CASE metrics, verbatim; every cell is
 *   checked exactly except the latency column (`p50 ms`), which is an example.
 * - `case-table3` — `lexcase reproduce case-table3` on the bundled default index with its prebuilt
 *   use-lite vectors: each row's Recall@10/100/1000 with its CI and n; checked exactly.
 * - `default-passages` — the bundled default corpus's passage count ("6,142"), as the demo's
 *   "Corpus: **default** (N passages)" line prints it (the index manifest's count); checked exactly.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tableRows } from './markdown.js';

/** A reproduction's table.json, as much as the regions read. */
export interface ReproTable {
  rows: { label: string; cells: { column: string; value?: number | null; ci?: [number, number] | null; n?: number; status?: string }[] }[];
}

export interface Facts {
  /** Size in bytes of the packed tarball. */
  packBytes?: number;
  /** stdout of `lexcase demo` (Markdown). */
  demoStdout?: string;
  /** table.json of `lexcase reproduce case-table3` over the bundled default index with its prebuilt use-lite vectors. */
  caseTable3?: ReproTable;
  /** Wall seconds of the demo run (and its CPU seconds, user + system, where measured) and the conditions it ran under. */
  demoWall?: { seconds: number; cpuSeconds?: number; command: string; cpu: string; cores: number; load: number; date: string };
}

export interface RegionSpec {
  /** What the region needs measured. */
  needs: (keyof Facts)[];
  render(f: Facts): string;
  /** Differences between the docs' text and a fresh rendering (empty when consistent). */
  check(doc: string, fresh: string, f: Facts): string[];
}

const mb = (bytes: number) => (bytes / 1e6).toFixed(1);

/** Table columns whose cells are timings (examples, not checked). */
const EXAMPLE_COLUMNS = new Set(['p50 ms', 'p95 ms', 'ms']);

/**
 * The demo's stdout cut to what the docs show: the retrieval section's corpus/query lines and
 * table, the offline CASE metrics table, its tool-call line and the baselines table.
 */
export function demoTable(stdout: string): string {
  const lines = stdout.split('\n');
  const sectionOf = (title: RegExp): string[] => {
    const i = lines.findIndex((l) => title.test(l));
    if (i < 0) throw new Error(`the demo printed no section matching ${title}`);
    let j = i + 1;
    while (j < lines.length && !/^#{1,3} /.test(lines[j]) && !/^wrote /.test(lines[j])) j++;
    return lines.slice(i + 1, j);
  };
  const tables = (ls: string[]): string[][] => {
    const out: string[][] = [];
    let cur: string[] = [];
    for (const l of ls) {
      if (l.trim().startsWith('|')) cur.push(l);
      else if (cur.length) out.push(cur), (cur = []);
    }
    if (cur.length) out.push(cur);
    return out;
  };
  const retrieval = sectionOf(/^## Retrieval/);
  const head = retrieval.filter((l) => /^(Corpus|Query|Note):/.test(l));
  const [retrievalTable] = tables(retrieval);
  const caseTitle = lines.find((l) => /^## CASE/.test(l))?.replace(/^## /, '') ?? 'CASE';
  const metrics = sectionOf(/^### Metrics/);
  const [metricsTable, baselines] = tables(metrics);
  const toolLine = metrics.find((l) => /^Tool calls:/.test(l));
  if (!retrievalTable || !metricsTable || !baselines) throw new Error('the demo printed fewer tables than expected (retrieval, CASE metrics, baselines)');
  // blank lines around it, so the tables stay tables next to the region's comments
  return [
    '',
    '',
    ...head.flatMap((l) => [l, '']),
    ...retrievalTable,
    '',
    `**${caseTitle}**`,
    '',
    ...metricsTable,
    '',
    ...(toolLine ? [toolLine, ''] : []),
    ...baselines,
    '',
    '',
  ].join('\n');
}

/**
 * `fresh` with the timing cells (EXAMPLE_COLUMNS) of `old` put back in every table row both have (same
 * header, same first cell): a run on a loaded machine writes its figures but not its latencies, which
 * say more about the other work beside it than about lexcase. Rows or tables `old` lacks keep the fresh cells.
 */
export function keepTimingCells(old: string, fresh: string): string {
  const oldCells = new Map<string, string>();
  let header: string[] | undefined;
  for (const line of old.split('\n')) {
    const [cells] = line.trim().startsWith('|') ? tableRows(line) : [];
    if (!line.trim().startsWith('|')) header = undefined;
    if (!cells) continue;
    if (!header) header = cells;
    else cells.forEach((c, i) => EXAMPLE_COLUMNS.has(header![i]) && oldCells.set(`${header!.join('|')}\0${cells[0]}\0${i}`, c));
  }
  header = undefined;
  return fresh
    .split('\n')
    .map((line) => {
      if (!line.trim().startsWith('|')) {
        header = undefined;
        return line;
      }
      const [cells] = tableRows(line);
      if (!cells) return line;
      if (!header) {
        header = cells;
        return line;
      }
      const parts = line.split('|'); // parts[i + 1] is cell i, with its padding
      cells.forEach((c, i) => {
        const kept = oldCells.get(`${header!.join('|')}\0${cells[0]}\0${i}`);
        if (kept === undefined || kept === c) return;
        const width = parts[i + 1].length - 2;
        parts[i + 1] = ` ${kept.padStart(width)} `;
      });
      return parts.join('|');
    })
    .join('\n');
}

/** Compare two region texts: lines equal, except table cells in timing columns. */
export function compareModuloTimings(doc: string, fresh: string): string[] {
  const d = doc.split('\n').map((l) => l.trimEnd());
  const f = fresh.split('\n').map((l) => l.trimEnd());
  const problems: string[] = [];
  let header: string[] | undefined;
  for (let i = 0; i < Math.max(d.length, f.length); i++) {
    const a = d[i] ?? '';
    const b = f[i] ?? '';
    if (!a.trim().startsWith('|') || !b.trim().startsWith('|')) {
      header = undefined;
      if (a !== b) problems.push(`line ${i + 1}: the docs say ${JSON.stringify(a)}, the run printed ${JSON.stringify(b)}`);
      continue;
    }
    const [ra] = tableRows(a);
    const [rb] = tableRows(b);
    if (!ra || !rb) {
      // an alignment row on both sides; one side's alignment row against the other's cells means the tables differ in shape
      if (!ra !== !rb) problems.push(`line ${i + 1}: the docs say ${JSON.stringify(a)}, the run printed ${JSON.stringify(b)}`);
      continue;
    }
    if (!header) {
      header = rb;
      if (ra.join('|') !== rb.join('|')) problems.push(`line ${i + 1}: table header ${JSON.stringify(ra)} ≠ ${JSON.stringify(rb)}`);
      continue;
    }
    if (ra.length !== rb.length) {
      problems.push(`line ${i + 1}: ${ra.length} cells in the docs, ${rb.length} in the run`);
      continue;
    }
    ra.forEach((cell, c) => {
      if (EXAMPLE_COLUMNS.has(header![c])) return;
      if (cell !== rb[c]) problems.push(`line ${i + 1}, column "${header![c]}", row "${ra[0]}": the docs say ${cell}, the run printed ${rb[c]}`);
    });
  }
  return problems;
}

/** "6,142": the passage count of the demo's `Corpus: **default** (6,142 passages)` line. */
export function defaultPassages(stdout: string): string {
  const m = /^Corpus: \*\*default\*\* \(([\d,]+) passages\)/m.exec(stdout);
  if (!m) throw new Error('the demo printed no "Corpus: **default** (N passages)" line');
  return m[1];
}

const f4 = (x: number) => x.toFixed(4);

/**
 * `lexcase reproduce case-table3` as the docs describe it: the bundled default index plus its
 * prebuilt use-lite vectors in `dir`, then the full grid. `lexcase` runs a lexcase command line
 * (the installed package's in the docs check, this checkout's in docs:figures).
 */
export async function measureCaseTable3(lexcase: (args: string) => Promise<{ code: number | null; stderr: string }>, dir: string): Promise<ReproTable> {
  const idx = join(dir, 'idx-default');
  const out = join(dir, 'case-table3');
  for (const args of [`-q index build default --out ${idx}`, `-q index dense ${idx} --prebuilt`, `-q reproduce case-table3 --index ${idx} --run-dir ${out}`]) {
    const r = await lexcase(args);
    if (r.code !== 0) throw new Error(`lexcase ${args} exited ${r.code}:\n${r.stderr}`);
  }
  return JSON.parse(readFileSync(join(out, 'table.json'), 'utf8')) as ReproTable;
}

/** "BM25-RAG R@10 0.0726 [0.0323, 0.1210], R@100 …; QLM-RAG …; n = 124": every row of a reproduction's table. */
export function reproRows(t: ReproTable): string {
  const ns = new Set<number>();
  const rows = t.rows.map((r) => {
    const cells = r.cells.map((c) => {
      if (c.status !== 'done' || c.value == null) return `${c.column.replace('Recall@', 'R@')} — (${c.status ?? 'not run'})`;
      if (c.n !== undefined) ns.add(c.n);
      return `${c.column.replace('Recall@', 'R@')} ${f4(c.value)}${c.ci ? ` [${f4(c.ci[0])}, ${f4(c.ci[1])}]` : ''}`;
    });
    return `${r.label} ${cells.join(', ')}`;
  });
  return `${rows.join('; ')}; n = ${[...ns].join('/')}`;
}

export const REGIONS: Record<string, RegionSpec> = {
  'pack-size': {
    needs: ['packBytes'],
    render: (f) => `${mb(f.packBytes!)} MB`,
    check(doc, _fresh, f) {
      const m = /([\d.]+)\s*MB/.exec(doc);
      if (!m) return [`no "N MB" in ${JSON.stringify(doc)}`];
      const quoted = Number(m[1]) * 1e6;
      const rel = Math.abs(quoted - f.packBytes!) / f.packBytes!;
      return rel > 0.05
        ? [`the docs say ${m[1]} MB packed, the tarball is ${mb(f.packBytes!)} MB (${(rel * 100).toFixed(0)} % off; run npm run docs:figures)`]
        : [];
    },
  },
  'demo-wall': {
    needs: ['demoWall'],
    render: (f) => {
      const w = f.demoWall!;
      return `**${w.seconds.toFixed(1)} s** wall${w.cpuSeconds !== undefined ? `, ${w.cpuSeconds.toFixed(1)} s CPU` : ''} (\`${w.command}\` with an empty demo dir on ${w.cores} cores, ${w.cpu}, load ${w.load.toFixed(1)} at the start; measured by \`npm run docs:figures\` on ${w.date})`;
    },
    check(doc) {
      return /\*\*[\d.]+ s\*\* wall/.test(doc) ? [] : [`no "**N s** wall" in ${JSON.stringify(doc)} (run npm run docs:figures)`];
    },
  },
  'case-table3': {
    needs: ['caseTable3'],
    render: (f) => reproRows(f.caseTable3!),
    check: (doc, fresh) => (doc.trim() === fresh.trim() ? [] : [`the docs say ${JSON.stringify(doc.trim())}, the run printed ${JSON.stringify(fresh.trim())}`]),
  },
  'default-passages': {
    needs: ['demoStdout'],
    render: (f) => defaultPassages(f.demoStdout!),
    check: (doc, fresh) =>
      doc.trim() === fresh ? [] : [`the docs say the default corpus has ${doc.trim()} passages, the demo printed ${fresh} (run npm run docs:figures)`],
  },
  'demo-table': {
    needs: ['demoStdout'],
    render: (f) => demoTable(f.demoStdout!),
    check: (doc, fresh) => compareModuloTimings(doc, fresh),
  },
};
