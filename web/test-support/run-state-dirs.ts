/**
 * Run dirs in the states a runs root holds besides "done": an offline CASE run of 8 Bar Exam val
 * items (config.json planning 8) written whole (`caseA`), with its third line cut in half
 * (`caseBad`: results.jsonl cannot be read, as `lexcase report` says), and with its last line cut
 * mid-write (`caseTorn`: a killed write, 7 items read). For the explorer's tests of those states.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// the first 8 items of an offline CASE run on the bundled index (ids, gold and predictions as it wrote them)
const ITEMS: [string, string, string][] = [
  ['mbe_137', 'C', 'C'],
  ['mbe_581', 'B', 'A'],
  ['mbe_222', 'C', 'C'],
  ['mbe_682', 'C', 'B'],
  ['mbe_847', 'C', 'A'],
  ['mbe_1030', 'C', 'C'],
  ['mbe_866', 'C', 'D'],
  ['mbe_855', 'D', 'D'],
];
const lines = ITEMS.map(([id, gold, prediction]) =>
  JSON.stringify({ id, prediction, gold, correct: prediction === gold, confidence: 'offline', ms: 40, metrics: { goldInAnyEvidence: prediction === gold } }),
);
const config = JSON.stringify({
  seed: 13,
  config: { system: 'case', mode: 'offline heuristic, no LLM', dataset: 'barexam', split: 'val', k: 5, limit: 8 },
  provenance: { createdAt: '2026-11-30T21:57:43.885Z', items: 8 },
});

function run(root: string, name: string, results: string): string {
  const dir = join(root, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'config.json'), config);
  writeFileSync(join(dir, 'results.jsonl'), results);
  return dir;
}

/** Writes caseA, caseBad and caseTorn under `root`; returns their dirs. */
export function writeRunStateDirs(root: string): { whole: string; bad: string; torn: string } {
  return {
    whole: run(root, 'caseA', lines.join('\n') + '\n'),
    bad: run(root, 'caseBad', lines.map((l, i) => (i === 2 ? l.slice(0, 50) : l)).join('\n') + '\n'),
    torn: run(root, 'caseTorn', lines.join('\n').slice(0, -40)),
  };
}
