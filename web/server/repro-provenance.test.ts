/**
 * The explorer's commands for a reproduction dir (reproProvenance): the whole grid's command is the
 * one the grid recorded (reproduction.json `argv`: its --index, run dir, shard and --limit), so it
 * reruns over the index the reproduction searched, not the bundled one; a reproduction.json an
 * older lexcase wrote (no `argv`) still gives its recipe, --limit and --model.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { reproProvenance } from './repro-provenance.js';
import type { RunEntry } from './runs.js';

let root: string | undefined;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

function reproDir(reproduction: Record<string, unknown>): RunEntry {
  root = mkdtempSync(join(tmpdir(), 'lexcase-repro-prov-'));
  const dir = join(root, 'reproduce-case-table3-n4');
  mkdirSync(dir);
  writeFileSync(join(dir, 'reproduction.json'), JSON.stringify(reproduction));
  return { id: 'reproduce-case-table3-n4', dir, root, kind: 'run', system: 'reproduce', items: 0, correct: 0, graphs: 0 };
}

const bm25 = ['reproduce', 'case-table3', '--only', 'bm25', '--index', 'idx-nostem', '--run-dir', 'rp', '--limit', '4'];

describe('the commands the explorer shows for a reproduction', () => {
  it('the whole grid: the command the grid recorded, with the --index it searched', async () => {
    const run = reproDir({
      recipe: 'case-table3',
      limit: 4,
      model: null,
      argv: ['reproduce', 'case-table3', '--index', 'idx-nostem', '--run-dir', 'rp', '--limit', '4'],
      runs: [{ id: 'bm25', system: 'retrieval', status: 'done', argv: bm25 }],
    });
    expect((await reproProvenance(run)).commands).toEqual([
      'lexcase reproduce case-table3 --index idx-nostem --run-dir rp --limit 4',
      'lexcase reproduce case-table3 --only bm25 --index idx-nostem --run-dir rp --limit 4',
    ]);
  });

  it('a reproduction.json written before the whole command was recorded: its recipe, --limit and --model', async () => {
    const run = reproDir({ recipe: 'case-table3', limit: 4, model: 'gpt-x', runs: [{ id: 'bm25', system: 'retrieval', status: 'done', argv: bm25 }] });
    expect((await reproProvenance(run)).commands[0]).toBe('lexcase reproduce case-table3 --limit 4 --model gpt-x');
  });
});
