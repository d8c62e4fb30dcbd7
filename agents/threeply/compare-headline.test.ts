/**
 * `lexcase compare` of two 3-ply runs: their headline figures (hallucination accuracy and factor
 * utilization recall, pooled over the triples) have no paired statistic, so the comparison's rows
 * were accuracy and abstained only — the CLI, --json and the explorer judged two 3-ply runs without
 * their headline figures, and said nothing of it. Now a line names the figures left out.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { register } from '../../src/cli/commands/run-plugins.js';
import { compareRuns, formatComparison } from '../../eval/report/compare.js';
import { programWith, runCli } from '../../tests/support/run-cli.js';
import { startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { rulesScript } from './test-support/scripted-threeply.js';
import { compareManyRuns } from '../../web/server/compare-runs-api.js';
import { findRun } from '../../web/server/runs.js';

let dir: string;
let srv: ScriptedServer;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'threeply-compare-headline-'));
  srv = await startScriptedServer(rulesScript());
  Object.assign(process.env, { LEXCASE_LLM_BASE_URL: srv.url, LEXCASE_LLM_MODEL: 'scripted', LEXCASE_LLM_MAX_RETRIES: '0' });
});
afterAll(async () => {
  await srv.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('compare of two 3-ply runs names the headline figures it has no row for', () => {
  it('the text and the comparison object say hallucination accuracy and factor utilization recall are not compared', async () => {
    const runDir = join(dir, 's13');
    const r = await runCli(
      ['run', 'threeply', '--scenarios', 'arguable,non-arguable', '--n', '2', '--seed', '13', '--run-dir', runDir, '--no-cache'],
      programWith(register),
    );
    expect(r.code, r.err).toBe(0);
    const copy = join(dir, 's13-copy');
    cpSync(runDir, copy, { recursive: true });
    const c = await compareRuns(runDir, copy);
    expect(c.measures.map((m) => m.id)).not.toContain('hallucination-accuracy');
    expect(c.notComparedLine).toMatch(/^not compared: hallucination accuracy, factor utilization recall \(pooled over each run's items, no paired statistic/);
    expect(formatComparison(c)).toContain(`- ${c.notComparedLine}`);
    // the explorer's compare endpoint for 2 to 8 runs (/api/compare/runs): each pair carries the same line (before: none)
    cpSync(runDir, join(dir, 's13-copy2'), { recursive: true });
    const many = await compareManyRuns(await Promise.all(['s13', 's13-copy', 's13-copy2'].map((id) => findRun(dir, id))));
    expect(many.pairs.map((p) => ('notComparedLine' in p ? p.notComparedLine : undefined))).toEqual([c.notComparedLine, c.notComparedLine]);
  });

  it('compares successful abstention on the triples designed for abstention both runs answered (it had no row and was in no "not compared" line)', async () => {
    const run = async (system: string) => {
      const runDir = join(dir, `abst-${system}`);
      const r = await runCli(
        ['run', 'threeply', '--system', system, '--scenarios', 'arguable,non-arguable', '--n', '3', '--seed', '13', '--run-dir', runDir, '--no-cache'],
        programWith(register),
      );
      expect(r.code, r.err).toBe(0);
      return runDir;
    };
    const [a, b] = [await run('reflective'), await run('single')];
    const c = await compareRuns(a, b);
    const row = c.measures.find((m) => m.id === 'abstention');
    // the reflective team abstains on each non-arguable triple, the single agent argues every one: 3 of 3 against 0 of 3
    expect(row).toMatchObject({ label: 'successful abstention', unit: 'percent', n: 3, a: 1, b: 0, estimate: -1, aOnly: 3, bOnly: 0, test: 'mcnemar-exact' });
    expect(row?.p).toBeCloseTo(0.25, 12); // exact McNemar, 3 discordant pairs: 2 · 0.5³
    expect(c.notComparedLine ?? '').not.toContain('successful abstention');
    const text = formatComparison(c);
    expect(text).toMatch(/\| successful abstention +\| +3 \| 100\.0% \| +0\.0% \| −100\.0 pp \|/);
    expect(text).toContain('successful abstention: over the 3 triples designed for abstention both runs answered, of the 6 shared');
  });
});
