import { describe, expect, it } from 'vitest';
import { runCli } from '../../../tests/support/run-cli.js';

describe('lexcase reproduce --help', () => {
  it('says what --limit means for a 3-ply recipe (N triples per scenario: --limit 4 runs 12 items of threeply-table2), not only "the first N items"', async () => {
    const r = await runCli(['reproduce', '--help']);
    expect(r.code).toBe(0);
    // commander wraps help to the width of the longest option: compare words, not line breaks
    expect(r.stdout.replace(/\s+/g, ' ')).toContain('--limit <n> smoke run: the first N items of every run (3-ply recipes: N triples per scenario)');
  });
});
