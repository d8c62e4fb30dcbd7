/**
 * A dataset whose text was edited under the same ids and gold labels (one Bar Exam QA question
 * reworded) is told apart: each result records the checksum of what the model is shown
 * (`contentChecksum`), config.json's provenance the items' (beside `datasetChecksum`, which covers
 * ids and labels only). A resume over the edited copy is refused naming the item, a comparison leaves
 * the item out and says why; a run an older lexcase wrote (no content checksum) resumes and compares
 * with one line that its text is not checked. Before, all of them took the edited question for the
 * recorded one: the resume scored the run as one dataset, the comparison paired the item.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadQuestions } from '../corpora/registry.js';
import type { Question } from '../corpora/types.js';
import { compareRuns } from './report/compare.js';
import { readResults } from './run-dir.js';
import { contextFrom, runExperiment } from './runner.js';
import type { AgentSystem } from './types.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-edited-text-'));
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

// the LLM-only baseline's shape: answers from the question text alone (here: the option of the text's length)
const system: AgentSystem<Question> = async (q) => ({ prediction: 'ABCD'[(q.prompt.length + q.question.length) % q.choices.length], trace: {} });
const run = (name: string, items: Question[]) =>
  runExperiment({
    lexcaseSystem: 'baseline',
    runDir: join(dir, name),
    system,
    items,
    gold: (q) => q.answer,
    makeContext: contextFrom(),
    config: { system: 'baseline', mode: 'llm-only', dataset: 'barexam', split: 'val', limit: items.length },
    seed: 13,
  });
const reworded = (qs: Question[], id: string) => qs.map((q) => (q.id === id ? { ...q, question: `Which is the weakest argument? ${q.question}` } : q));
const files = (name: string) => ['config.json', 'results.jsonl'].map((f) => readFileSync(join(dir, name, f), 'utf8'));
const provenanceOf = (name: string) => JSON.parse(readFileSync(join(dir, name, 'config.json'), 'utf8')).provenance;
/** The run dir as an older lexcase wrote it: no content checksum in its records or provenance. */
function asOlder(name: string): void {
  const results = join(dir, name, 'results.jsonl');
  const lines = readFileSync(results, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  writeFileSync(results, lines.map(({ contentChecksum: _, ...r }) => `${JSON.stringify(r)}\n`).join(''));
  const config = JSON.parse(readFileSync(join(dir, name, 'config.json'), 'utf8'));
  delete config.provenance.contentChecksum;
  writeFileSync(join(dir, name, 'config.json'), JSON.stringify(config, null, 2));
}
const stderrOf = () => {
  let out = '';
  vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => ((out += String(s)), true));
  return () => out;
};

describe('a Bar Exam QA copy with one question reworded under the same id and answer', () => {
  it('records the checksum of the text beside the id-and-label one: the reworded copy has the same datasetChecksum, another contentChecksum', async () => {
    const val = (await loadQuestions('barexam', 'val')).slice(0, 4);
    await run('a', val);
    await run('b', reworded(val, val[1].id));
    const [a, b] = [provenanceOf('a'), provenanceOf('b')];
    expect(a.datasetChecksum).toBe(b.datasetChecksum);
    expect(a.contentChecksum).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(b.contentChecksum).not.toBe(a.contentChecksum);
    const [ra, rb] = [(await readResults(join(dir, 'a'))).records, (await readResults(join(dir, 'b'))).records];
    expect(ra.map((r, i) => r.contentChecksum === rb[i].contentChecksum)).toEqual([true, false, true, true]);
  });

  it('refuses a resume over the reworded copy, naming the item, and leaves the run dir as it was; the original data resumes', async () => {
    const val = (await loadQuestions('barexam', 'val')).slice(0, 4);
    await run('a', val);
    const before = files('a');
    await expect(run('a', reworded(val, val[2].id))).rejects.toMatchObject({
      code: 'RUN_INVALID',
      message: expect.stringContaining(`1 recorded item has other text now under the same id and gold label (e.g. ${val[2].id};`),
    });
    expect(files('a')).toEqual(before);
    expect(await run('a', val)).toMatchObject({ skipped: 4, ran: 0 });
  });

  it('grows over a copy reworded in a row not yet run: the new row runs as it is now, and the provenance is a fresh run’s of the same items', async () => {
    const val = (await loadQuestions('barexam', 'val')).slice(0, 6);
    await run('a', val.slice(0, 3));
    const now = reworded(val, val[4].id);
    await runExperiment({
      lexcaseSystem: 'baseline',
      runDir: join(dir, 'a'),
      system,
      items: now,
      gold: (q) => q.answer,
      makeContext: contextFrom(),
      config: { system: 'baseline', mode: 'llm-only', dataset: 'barexam', split: 'val', limit: 6 },
      seed: 13,
    });
    await runExperiment({
      lexcaseSystem: 'baseline',
      runDir: join(dir, 'fresh'),
      system,
      items: now,
      gold: (q) => q.answer,
      makeContext: contextFrom(),
      config: { system: 'baseline', mode: 'llm-only', dataset: 'barexam', split: 'val', limit: 6 },
      seed: 13,
    });
    expect(provenanceOf('a').contentChecksum).toMatch(/^sha256:/);
    expect(provenanceOf('a').contentChecksum).toBe(provenanceOf('fresh').contentChecksum);
  });

  it('a comparison leaves the reworded item out and says why; against an older run it pairs by id and gold with one note', async () => {
    const val = (await loadQuestions('barexam', 'val')).slice(0, 12);
    await run('a', val);
    await run('b', reworded(val, val[3].id));
    const c = await compareRuns(join(dir, 'a'), join(dir, 'b'));
    expect(c).toMatchObject({ shared: 11, different: 1 });
    expect(c.primary.n).toBe(11);
    expect(c.pairingLines).toEqual([expect.stringContaining(`(other question text (contentChecksum): 1: e.g. ${val[3].id}), left out of every figure`)]);

    asOlder('a');
    const old = await compareRuns(join(dir, 'a'), join(dir, 'b'));
    expect(old.primary.n).toBe(12);
    expect(old.pairingLines).toEqual([
      'note: the text of 12 items compared is not checked: A (written by an older lexcase) records no content checksum, so those items are paired by id and gold label only',
    ]);
  });

  it('resumes a run an older lexcase wrote with one line that its items’ text is not checked, and claims no content checksum for it', async () => {
    const val = (await loadQuestions('barexam', 'val')).slice(0, 4);
    await run('a', val.slice(0, 2));
    asOlder('a');
    const stderr = stderrOf();
    await runExperiment({
      lexcaseSystem: 'baseline',
      runDir: join(dir, 'a'),
      system,
      items: val,
      gold: (q) => q.answer,
      makeContext: contextFrom(),
      config: { system: 'baseline', mode: 'llm-only', dataset: 'barexam', split: 'val', limit: 4 },
      seed: 13,
    });
    expect(
      stderr()
        .split('\n')
        .filter((l) => l.includes('no content checksum')),
    ).toEqual([
      expect.stringContaining(`2 recorded items (written by an older lexcase) record no content checksum: this resume cannot check that their question text`),
    ]);
    expect(provenanceOf('a').contentChecksum).toBeUndefined();
  });
});
