/**
 * The passages the briefs cite reach the judge in letter order (A, B, C, …), each handle given in
 * that order, whatever the machine's locale: the letters were once sorted in the locale of LANG, and
 * under LANG=haw_US.UTF-8 (Hawaiian sorts vowels first) a five-option question's cited passages got
 * their handles in the order A, E, B, C, D, so the same question sent the judge another prompt.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const script = `
  const { withPassageHandles } = await import('./agents/common/passage-handles.ts');
  const { citedPassages } = await import('./agents/mad/cited-evidence.ts');
  const cite = (id) => ({ id, exists: true, seen: true, supportive: true, overlap: 1 });
  const briefs = ['E', 'C', 'A', 'D', 'B'].map((letter) => ({ letter, round: 2, kind: 'rebuttal', saw: [], argument: '', claims: [], citations: [cite('mbe_' + letter)] }));
  const shown = await withPassageHandles(async (h) => {
    const passages = await citedPassages(briefs, async (id) => ({ text: 'text of ' + id }));
    return passages.map((p) => [p.id, h.handle(p.id)]);
  });
  console.log(JSON.stringify(shown));`;

describe('citedPassages', () => {
  it('lists and numbers the cited passages in letter order under any LANG (haw_US.UTF-8 sorts vowels first)', async () => {
    for (const lang of ['C', 'haw_US.UTF-8']) {
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        cwd: join(import.meta.dirname, '..', '..'),
        env: { ...process.env, LANG: lang, LC_ALL: lang },
      });
      const shown = JSON.parse(stdout.trim().split('\n').pop()!) as [string, string][];
      expect({ lang, shown }).toEqual({
        lang,
        shown: [
          ['mbe_A', 'P1'],
          ['mbe_B', 'P2'],
          ['mbe_C', 'P3'],
          ['mbe_D', 'P4'],
          ['mbe_E', 'P5'],
        ],
      });
    }
  }, 60_000);
});
