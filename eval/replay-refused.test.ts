/**
 * Issue 37, item 7: a refused `--replay` leaves the run dir as it found it. A replay whose flags
 * differ from the recording's is refused — but it used to leave config.json, llm/ and traces/ in
 * the new run dir, so the corrected command was refused next ("field jurors differs"). Now a run
 * that stops before it records any item puts back what it changed (eval/runner.ts): a new dir is
 * removed, an empty dir the user made stays empty, and the corrected command replays byte for
 * byte. Through the built CLI against a scripted server on 127.0.0.1.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSmallBarexamIndex } from '../tests/support/small-barexam-index.js';
import { contractFuzz } from '../tests/support/contract-fuzz-server.js';
import { startScriptedServer } from '../tests/support/scripted-openai-server.js';
import { ensureBuilt, isolatedEnv, lexcase } from '../tests/support/spawn-cli.js';

let dir: string;
let index: string;

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'lexcase-replay-refused-'));
  index = join(dir, 'idx');
  await buildSmallBarexamIndex(index);
}, 300_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const flags = (jurors: number, runDir: string, extra: string[] = []) => [
  'run',
  'case',
  '--index',
  index,
  '--limit',
  '1',
  '--jurors',
  String(jurors),
  '--max-steps',
  '2',
  '--tools',
  'bm25',
  '--run-dir',
  runDir,
  ...extra,
];

describe('a refused --replay (issue 37, item 7)', () => {
  it('leaves no run dir behind (or the empty one it found), and the corrected command then replays byte for byte', async () => {
    const srv = await startScriptedServer(contractFuzz({ seed: 3 }));
    const rec = join(dir, 'rec');
    try {
      const r = await lexcase(flags(3, rec), {
        cwd: dir,
        env: isolatedEnv({ LEXCASE_LLM_BASE_URL: srv.url, LEXCASE_LLM_MODEL: 'scripted', LEXCASE_LLM_PREFLIGHT: '0' }),
      });
      expect(r.code, r.stderr).toBe(0);
    } finally {
      await srv.close();
    }
    const env = isolatedEnv();
    // a new dir: refused, and gone
    const fresh = join(dir, 'rep');
    const bad = await lexcase(flags(5, fresh, ['--replay', rec]), { cwd: dir, env });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/was recorded with jurors = 3, this replay has 5/);
    expect(existsSync(fresh), existsSync(fresh) ? readdirSync(fresh, { recursive: true }).join(', ') : '').toBe(false); // before: config.json, llm, run.lock…, traces
    // an empty dir the user made: refused, still there and still empty
    const mine = join(dir, 'mine');
    mkdirSync(mine);
    const bad2 = await lexcase(flags(5, mine, ['--replay', rec]), { cwd: dir, env });
    expect(bad2.code).toBe(1);
    expect(readdirSync(mine)).toEqual([]);
    // the corrected command: accepted (before: "was started with a different config (field "jurors" differs)")
    const ok = await lexcase(flags(3, fresh, ['--replay', rec]), { cwd: dir, env });
    expect(ok.code, ok.stderr).toBe(0);
    expect(readFileSync(join(fresh, 'results.jsonl'))).toEqual(readFileSync(join(rec, 'results.jsonl')));
  }, 300_000);
});
