import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTrecRun, runTagsWarning } from './run.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'run-tags-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('run tags (column 6)', () => {
  it('a file holding two concatenated runs (bm25 and dense) is warned about: trec_eval scores it as one run', async () => {
    const file = join(dir, 'two-runs.txt');
    await writeFile(
      file,
      [
        '301 Q0 FBIS3-10082 1 12.5 lexcase-bm25',
        '301 Q0 FBIS3-10169 2 11.1 lexcase-bm25',
        '302 Q0 FT934-5418 1 9.0 lexcase-bm25',
        '303 Q0 LA010189-0001 1 0.82 lexcase-dense',
        '303 Q0 LA010189-0002 2 0.79 lexcase-dense',
        '',
      ].join('\n'),
    );
    const loaded = await loadTrecRun(file);
    expect(loaded.tags).toEqual(['lexcase-bm25', 'lexcase-dense']);
    const w = runTagsWarning(loaded, `the run (${file})`);
    expect(w).toContain('carries 2 run tags (column 6: "lexcase-bm25", "lexcase-dense")');
    expect(w).toContain('trec_eval scores the whole file as one run');
    // the run itself is read as trec_eval reads it: one run over all three topics
    expect([...loaded.run.keys()].sort()).toEqual(['301', '302', '303']);
  });

  it('a file with one tag throughout gets no warning', async () => {
    const file = join(dir, 'one-run.txt');
    await writeFile(file, '301 Q0 FBIS3-10082 1 12.5 lexcase-bm25\n302 Q0 FT934-5418 1 9.0 lexcase-bm25\n');
    expect(runTagsWarning(await loadTrecRun(file), 'the run')).toBeUndefined();
  });

  it('many tags are named up to five, the rest counted', () => {
    const tags = Array.from({ length: 8 }, (_, i) => `t${i}`);
    expect(runTagsWarning({ file: 'x', tags }, 'run A (x)')).toContain('"t4" and 3 more');
  });
});
