/**
 * `lexcase eval run` prints a measure as trec_eval does (`%6.4f`, C's printf): a value exactly halfway
 * between two 4-decimal texts goes to the even digit. A topic whose one relevant document is ranked
 * 32nd has MRR and MAP 1/32 = 0.03125: trec_eval prints 0.0312, and lexcase's table printed 0.0313
 * (toFixed rounds the half up) beside a --json value of 0.03125.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../tests/support/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'trec-half-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('eval run: a measure exactly halfway between two 4-decimal texts', () => {
  it('reads as printf("%.4f") prints it (0.0312), the value in --json unchanged (0.03125)', async () => {
    const run = join(dir, 'run.txt');
    const qrels = join(dir, 'qrels.txt');
    writeFileSync(run, Array.from({ length: 32 }, (_, i) => `t1 Q0 d${i + 1} ${i + 1} ${100 - i} r\n`).join(''));
    writeFileSync(qrels, 't1 0 d32 1\n');
    const args = ['eval', 'run', run, '--qrels', qrels, '--metrics', 'map,mrr@100'];
    const j = JSON.parse((await runCli(['--json', ...args])).out);
    expect(j.run.means.map.estimate).toBe(1 / 32);
    const want = execFileSync('printf', ['%.4f', String(j.run.means.map.estimate)], { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } });
    expect(want).toBe('0.0312');
    const r = await runCli(args);
    expect(r.code, r.err).toBe(0);
    const row = r.out.split('\n').find((l) => l.startsWith('| ') && l.includes('run.txt'))!;
    expect(
      row
        .split('|')
        .slice(2, 4)
        .map((c) => c.trim()),
    ).toEqual([`${want} (n < 10)`, `${want} (n < 10)`]);
  });
});
