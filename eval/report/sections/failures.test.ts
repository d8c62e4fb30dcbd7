/**
 * report.md names each failed item (and the run dir) in a Markdown code span: an id holding
 * backticks must come out of a CommonMark reader as the id, whole, with the rest of the line as text.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runExperiment } from '../../runner.js';
import type { AgentSystem, SystemContext } from '../../types.js';
import { writeReport } from '../write-report.js';

/**
 * The code spans of one line as CommonMark 6.1 reads them: a run of n backticks opens a span that
 * the next run of exactly n backticks closes; the content's line ends become spaces and one space is
 * stripped from each end when both ends have one and the content is not all spaces.
 */
function codeSpans(line: string): { spans: string[]; rest: string } {
  const spans: string[] = [];
  let rest = '';
  let i = 0;
  while (i < line.length) {
    if (line[i] !== '`') {
      rest += line[i++];
      continue;
    }
    let n = 0;
    while (line[i + n] === '`') n++;
    let j = i + n;
    let close = -1;
    while (j < line.length) {
      if (line[j] !== '`') {
        j++;
        continue;
      }
      let m = 0;
      while (line[j + m] === '`') m++;
      if (m === n) {
        close = j;
        break;
      }
      j += m;
    }
    if (close < 0) {
      rest += line.slice(i, i + n);
      i += n;
      continue;
    }
    let c = line.slice(i + n, close);
    if (c.startsWith(' ') && c.endsWith(' ') && /[^ ]/.test(c)) c = c.slice(1, -1);
    spans.push(c);
    i = close + n;
  }
  return { spans, rest };
}

const ctx = (): SystemContext => ({ seed: 0, tools: [], retrievers: {}, getPassage: async () => undefined, options: {} });

/** A CASE-shaped run of `items` through `system` into `dir`, then its report: report.md's lines. */
async function reportLines(dir: string, items: { id: string; answer: string }[], system: AgentSystem<{ id: string; answer: string }>): Promise<string[]> {
  await runExperiment({ lexcaseSystem: 'case', runDir: dir, system, items, gold: (q) => q.answer, makeContext: ctx, config: { system: 'case' }, seed: 1 });
  await writeReport(dir, { iterations: 50 });
  return readFileSync(join(dir, 'report.md'), 'utf8').split('\n');
}

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'lexcase-failures-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('Failures in report.md', () => {
  it('an item id holding backticks (one, a run of two, one at either end) reads back from its code span whole, and so does a run dir holding one', async () => {
    const ids = ['mbe`0412', 'q``2``', '`lead', 'trail`', ' spaced ', 'plain-07'];
    const items = [...ids.map((id) => ({ id, answer: 'A' })), { id: 'ok-1', answer: 'A' }];
    const dir = join(root, 'run`bm25');
    const md = await reportLines(dir, items, async (item) => {
      if (item.id !== 'ok-1') throw new Error('model returned no answer letter');
      return { prediction: 'A', trace: {} };
    });
    expect(codeSpans(md[2])).toEqual({ spans: [dir], rest: '' });
    const list = md.slice(md.indexOf('## Failures')).filter((l) => l.startsWith('- '));
    expect(list).toHaveLength(ids.length);
    const read = list.map((l) => codeSpans(l));
    // each line: one code span holding the id exactly, then the error as plain text
    expect(read.map((r) => r.spans).sort()).toEqual(ids.map((id) => [id]).sort());
    for (const r of read) expect(r.rest).toBe('- : model returned no answer letter');
  });

  it('an error over 200 characters is cut with "…" (before: cut silently), never inside a surrogate pair', async () => {
    // 198 characters, then an emoji (a surrogate pair) across the cut, then more
    const error = `endpoint said: ${'x'.repeat(183)}\u{1F4DA} and the rest of a long provider message that goes on well past the cut`;
    const dir = join(root, 'run-long');
    const md = await reportLines(dir, [{ id: 'q1', answer: 'A' }], async () => {
      throw new Error(error);
    });
    const line = md.slice(md.indexOf('## Failures')).find((l) => l.startsWith('- '))!;
    const shown = codeSpans(line).rest.replace(/^- : /, '');
    expect(shown).toBe(`endpoint said: ${'x'.repeat(183)}…`);
    expect(shown.length).toBeLessThanOrEqual(200);
    expect(shown).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/); // no lone first half of a pair
  });
});
