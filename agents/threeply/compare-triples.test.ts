/**
 * "arguable-001" is the first triple of a seeded draw, not one triple: two 3-ply runs of another
 * --seed hold other triples under the same ids and the same gold (argue/abstain by mode). Each
 * result records its triple's checksum, the dataset checksums differ, and `compare` pairs no
 * different triples (before: a paired table and McNemar p over unrelated triples). A run is compared
 * in full with a copy of itself; a run whose records hold no checksum (an older lexcase) is
 * compared by id and gold with a warning.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { register } from '../../src/cli/commands/run-plugins.js';
import { compareRuns } from '../../eval/report/compare.js';
import { programWith, runCli } from '../../tests/support/run-cli.js';
import { startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { rulesScript } from './test-support/scripted-threeply.js';

let dir: string;
let srv: ScriptedServer;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'threeply-compare-'));
  srv = await startScriptedServer(rulesScript());
  Object.assign(process.env, { LEXCASE_LLM_BASE_URL: srv.url, LEXCASE_LLM_MODEL: 'scripted', LEXCASE_LLM_MAX_RETRIES: '0' });
});
afterAll(async () => {
  await srv.close();
  rmSync(dir, { recursive: true, force: true });
});

async function run(name: string, seed: number): Promise<string> {
  const runDir = join(dir, name);
  const args = ['run', 'threeply', '--scenarios', 'arguable,non-arguable', '--n', '2', '--seed', String(seed), '--run-dir', runDir, '--no-cache'];
  const r = await runCli(args, programWith(register));
  expect(r.code, r.err).toBe(0);
  return runDir;
}
const records = (runDir: string) =>
  readFileSync(join(runDir, 'results.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { id: string; gold: string; itemChecksum?: string });
const config = (runDir: string) => JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8'));

describe('3-ply runs of other seeds hold other triples under the same ids', () => {
  it('records each triple’s checksum; compare refuses to pair other triples, compares a copy of the run in full, and warns for a run without checksums', async () => {
    const s13 = await run('s13', 13);
    const s14 = await run('s14', 14);
    const again = join(dir, 's13-copy');
    cpSync(s13, again, { recursive: true });

    const [a, b] = [records(s13), records(s14)];
    expect(a.map((r) => [r.id, r.gold])).toEqual(b.map((r) => [r.id, r.gold])); // ids and gold alike…
    expect(a.every((r) => /^sha256:[0-9a-f]{64}$/.test(r.itemChecksum ?? ''))).toBe(true);
    expect(a.filter((r, i) => r.itemChecksum === b[i].itemChecksum)).toEqual([]); // …the triples not
    expect(config(s13).provenance.datasetChecksum).not.toBe(config(s14).provenance.datasetChecksum);

    await expect(compareRuns(s13, s14)).rejects.toMatchObject({
      code: 'RUN_INVALID',
      message: expect.stringMatching(
        /4 items both runs hold under one id are different items in each \(other content \(itemChecksum\): 4: e\.g\. arguable-001; arguable-002; non-arguable-001\).*nothing to compare/,
      ),
    });
    expect(await compareRuns(s13, again)).toMatchObject({ shared: 4, different: 0, unchecked: 0, pairingLines: [] });

    // B as an older lexcase wrote it: no itemChecksum
    writeFileSync(
      join(again, 'results.jsonl'),
      records(again)
        .map(({ itemChecksum: _, ...r }) => JSON.stringify(r) + '\n')
        .join(''),
    );
    const c = await compareRuns(s13, again);
    expect(c).toMatchObject({ shared: 4, unchecked: 4 });
    expect(c.pairingLines).toEqual([expect.stringMatching(/^warning: the content of 4 items compared is not checked: B \(written by an older lexcase\)/)]);
  });
});
