/**
 * Item ids that differ only in case (`q1` / `Q1`) or only in Unicode normalization get trace and
 * exchange file names that differ after case folding and NFC, so on a case-insensitive file system
 * (macOS, Windows) one item's trace never replaces the other's. Before, `q1` and `Q1` were written to
 * `traces/q1.json` and `traces/Q1.json`: one file there, the explorer, `lexcase report` and replay
 * then read the other item's trace. An older run dir (its `Q1.json`) still reads as before.
 */
import { mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exchangesPath } from './llm-exchanges.js';
import { readRun } from './report/read-run.js';
import { readTraceChecked, traceFileName, tracePath } from './run-dir.js';
import { contextFrom, runExperiment } from './runner.js';

const root = mkdtempSync(join(tmpdir(), 'lexcase-trace-names-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const folded = (name: string) => name.normalize('NFC').toLowerCase();
const PAIRS: [string, string][] = [
  ['Q1', 'q1-32d833f348'], // Q1's hashed name, lower-cased
  ['q1', 'Q1'],
  ['hearsay_12', 'Hearsay_12'],
  ['MBE-7', 'mbe-7'],
  ['caf\u00e9-1', 'cafe\u0301-1'], // NFC and NFD of the same text
  ['Caf\u00e9-1', 'caf\u00e9-1'],
];

// two LegalBench-like items whose ids differ only in case, each answered with a trace of its own
const items = [
  { id: 'q1', answer: 'Yes' },
  { id: 'Q1', answer: 'No' },
];
const system = async (item: { id: string; answer: string }) => ({ prediction: item.answer, confidence: 'high', trace: { saw: item.id } });

async function run(name: string) {
  const runDir = join(root, name);
  await runExperiment({ runDir, system, items, gold: (q) => q.answer, makeContext: contextFrom(), config: { system: 'mine', dataset: 'ids' }, seed: 5 });
  return runDir;
}

describe('trace and exchange file names of ids that differ only in case or normalization', () => {
  it('differ after case folding and NFC', () => {
    for (const [a, b] of PAIRS) {
      expect(folded(traceFileName(a)), `${a} / ${b}`).not.toBe(folded(traceFileName(b)));
      expect(folded(basename(exchangesPath('/r', a)))).not.toBe(folded(basename(exchangesPath('/r', b))));
    }
    // a lower-case id keeps its own name
    expect(traceFileName('mbe_1')).toBe('mbe_1.json');
  });

  it("no id's own name is another id's hashed name, exactly or after case folding", () => {
    // Q1's hashed name is Q1-32d833f348.json, "a b"'s a_b-c8687a08aa.json: before, the ids spelled like them kept those names
    const pairs: [string, string, string][] = [
      ['Q1', 'Q1-32d833f348.json', 'q1-32d833f348'],
      ['a b', 'a_b-c8687a08aa.json', 'a_b-c8687a08aa'],
    ];
    for (const [hashed, name, lookalike] of pairs) {
      expect(traceFileName(hashed)).toBe(name);
      expect(folded(traceFileName(lookalike)), lookalike).not.toBe(folded(traceFileName(hashed)));
      expect(folded(basename(exchangesPath('/r', lookalike)))).not.toBe(folded(basename(exchangesPath('/r', hashed))));
    }
    expect(traceFileName('q1-32d833f348')).toMatch(/^q1-32d833f348-[0-9a-f]{10}\.json$/);
    // an id ending otherwise keeps its own name
    expect(traceFileName('mbe-12')).toBe('mbe-12.json');
  });

  it('a run of a b and a_b-c8687a08aa writes two trace files, each read back as its own item', async () => {
    const runDir = join(root, 'lookalike');
    const two = [
      { id: 'a b', answer: 'Yes' },
      { id: 'a_b-c8687a08aa', answer: 'No' },
    ];
    await runExperiment({ runDir, system, items: two, gold: (q) => q.answer, makeContext: contextFrom(), config: { system: 'mine', dataset: 'ids' }, seed: 5 });
    expect(readdirSync(join(runDir, 'traces'))).toHaveLength(2);
    const traces = (await readRun(runDir)).traces;
    expect(traces.get('a b')).toMatchObject({ saw: 'a b' });
    expect(traces.get('a_b-c8687a08aa')).toMatchObject({ saw: 'a_b-c8687a08aa' });
  });

  it('a run of q1 and Q1 writes two trace files no case-insensitive file system merges, each read back as its own item', async () => {
    const dir = await run('new');
    const names = readdirSync(join(dir, 'traces'));
    expect(new Set(names.map(folded)).size).toBe(2);
    const traces = (await readRun(dir)).traces;
    expect(traces.get('q1')).toMatchObject({ saw: 'q1' });
    expect(traces.get('Q1')).toMatchObject({ saw: 'Q1' });
  });

  it('an older run dir, whose Q1 trace is traces/Q1.json, still reads it as Q1', async () => {
    const dir = await run('old');
    renameSync(tracePath(dir, 'Q1'), join(dir, 'traces', 'Q1.json'));
    expect((await readRun(dir)).traces.get('Q1')).toMatchObject({ saw: 'Q1' });
    expect(await readTraceChecked(dir, 'Q1')).toMatchObject({ trace: { saw: 'Q1' } });
  });

  it('an older run dir, whose a_b-c8687a08aa trace is traces/a_b-c8687a08aa.json (its own name then), still reads it', async () => {
    const runDir = join(root, 'old-lookalike');
    const one = [{ id: 'a_b-c8687a08aa', answer: 'No' }];
    await runExperiment({ runDir, system, items: one, gold: (q) => q.answer, makeContext: contextFrom(), config: { system: 'mine', dataset: 'ids' }, seed: 5 });
    renameSync(tracePath(runDir, 'a_b-c8687a08aa'), join(runDir, 'traces', 'a_b-c8687a08aa.json'));
    expect((await readRun(runDir)).traces.get('a_b-c8687a08aa')).toMatchObject({ saw: 'a_b-c8687a08aa' });
  });
});
