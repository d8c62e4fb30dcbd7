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
});
