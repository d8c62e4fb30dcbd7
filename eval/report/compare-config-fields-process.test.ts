/**
 * `lexcase compare A B` (the built CLI, a child process) names the config field that differs between
 * two runs, down to the setting: two runs of one system over indexes built with another stemmer read
 * `config differences: indexContent.analyzer.stemmer: porter vs none`. Before, the line printed the
 * whole `indexContent` object of each run (corpus, 64-hex checksum, passage count, every analyzer
 * setting) and left the reader to find the one value that differs; and a field whose values differ
 * only in key order (`retriever` {k1, b} beside {b, k1}, the same settings) was reported as a
 * difference, a "changed" that was not.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuiltCli } from '../../tests/support/run-built-cli.js';
import { contextFrom, runExperiment } from '../runner.js';
import type { AgentSystem } from '../types.js';

interface Question {
  id: string;
  answer: string;
}
const QUESTIONS: Question[] = Array.from({ length: 12 }, (_, i) => ({ id: `q${i}`, answer: 'ABCD'[i % 4] }));
const CHECKSUM = 'c'.repeat(64);
const indexContent = (stemmer: string) => ({
  corpus: 'mine',
  checksum: CHECKSUM,
  passages: 500,
  analyzer: { lowercase: true, stopwords: 'english', stemmer, minTokenLength: 1 },
});

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'lexcase-compare-fields-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function makeRun(name: string, config: Record<string, unknown>, right: (i: number) => boolean): Promise<string> {
  const dir = join(root, name);
  const system: AgentSystem<Question> = async (q) => ({ prediction: right(Number(q.id.slice(1))) ? q.answer : 'Z', trace: {} });
  await runExperiment({ runDir: dir, system, items: QUESTIONS, gold: (q) => q.answer, makeContext: contextFrom(), config, seed: 13 });
  return dir;
}

describe('lexcase compare: config differences', () => {
  it('names the differing setting by its path, and leaves out a field whose values differ only in key order', async () => {
    const a = await makeRun('porter', { system: 'my-rag', indexContent: indexContent('porter'), retriever: { k1: 0.9, b: 0.4 } }, (i) => i < 6);
    const b = await makeRun('none', { system: 'my-rag', indexContent: indexContent('none'), retriever: { b: 0.4, k1: 0.9 } }, (i) => i < 8);
    const r = await runBuiltCli(['compare', a, b], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    const line = r.stdout.split('\n').find((l) => l.startsWith('- config differences:'));
    expect(line).toBe('- config differences: indexContent.analyzer.stemmer: porter vs none');
  });
});
