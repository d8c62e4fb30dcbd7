/**
 * The explorer's reproduction page after a grid run changed (resumed or retried with the command the reproduction
 * lists): the table is made from the runs as they are now, as the next `lexcase reproduce` makes it, and says so.
 * Before, it showed table.json as written: a cell read 40.0 [19.8, 64.3] ⚑ while the run it links to read 60.0
 * [35.7, 80.2], and nothing said the two differ. `lexcase reproduce case-table3` offline on a small real index.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeSparseIndexes } from '../../retrieval/open.js';
import { runCli } from '../../tests/support/run-cli.js';
import { buildSmallBarexamIndex } from '../../tests/support/small-barexam-index.js';
import { runPage } from './run-summary-api.js';
import type { RunEntry } from './runs.js';

let dir: string;
let out: string;
beforeAll(async () => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'lexcase-repro-table-')));
  const index = join(dir, 'idx');
  await buildSmallBarexamIndex(index, { items: 4, corpus: 400 });
  out = join(dir, 'runs', 'repro');
  const r = await runCli(['reproduce', 'case-table3', '--limit', '7', '--index', index, '--run-dir', out, '--only', 'bm25']);
  expect(r.code, r.stderr).toBe(0);
}, 120_000);
afterAll(async () => {
  await closeSparseIndexes();
  rmSync(dir, { recursive: true, force: true });
});

const entry = (): RunEntry => ({ id: 'repro', dir: out, root: join(dir, 'runs'), kind: 'run', system: 'reproduce', items: 0, correct: 0, graphs: 0 });
/** The bm25 row's cells, value by column. */
const cells = (t: any) =>
  Object.fromEntries(
    (t.rows as any[])
      .find((r) => r.cells.some((c: any) => c.run === 'bm25'))
      .cells.filter((c: any) => c.run === 'bm25')
      .map((c: any) => [c.column, c.value]),
  );

describe("the explorer's reproduction table", () => {
  it('is table.json while the runs match checksums.json; after a run changed, the table its runs make now, with a stale line', async () => {
    const before = await runPage(entry());
    const stored = JSON.parse(readFileSync(join(out, 'table.json'), 'utf8'));
    expect(before.table).toEqual(stored);
    expect((before.table as any).stale).toBeUndefined();

    // a grid run changed after the reproduction finished: its first item's line rewritten (as a retry of a failed item
    // rewrites it), now finding its gold passage in the top 10
    const file = join(out, 'runs', 'bm25', 'results.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    const first = JSON.parse(lines[0]);
    expect(first.metrics['recall@10']).toBe(0);
    first.metrics = { ...first.metrics, firstRank: 1, 'recall@10': 1, 'recall@100': 1, 'recall@1000': 1 };
    writeFileSync(file, `${[JSON.stringify(first), ...lines.slice(1)].join('\n')}\n`);

    const after = (await runPage(entry())).table as any;
    expect(after.stale).toMatch(
      /^runs\/bm25\/results\.jsonl changed after this reproduction last finished \(checksums\.json\): this table is made from the runs as they are now/,
    );
    expect(cells(after)['Recall@10']).toBeGreaterThan(cells(stored)['Recall@10']);
    // table.json on disk is as written (the explorer writes nothing)
    expect(JSON.parse(readFileSync(join(out, 'table.json'), 'utf8'))).toEqual(stored);
    // what the next `lexcase reproduce` writes is the table the page showed
    const again = await runCli(['reproduce', 'case-table3', '--limit', '7', '--index', join(dir, 'idx'), '--run-dir', out, '--only', 'bm25']);
    expect(again.code, again.stderr).toBe(0);
    const rewritten = JSON.parse(readFileSync(join(out, 'table.json'), 'utf8'));
    expect(cells(rewritten)).toEqual(cells(after));
  }, 120_000);
});
