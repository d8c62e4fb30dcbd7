/**
 * Issue 37, item 6: a run whose run dir cannot be written stops. On a full disk a run used to go
 * on calling the LLM for every remaining item (378 of 450 requests made, 10 items recorded) and
 * left empty `llm/*.tmp-<pid>` files that no resume removed. Now the first failed write of the run
 * dir (ENOSPC, EDQUOT, EROFS, EIO) stops the run: no item starts after it, items in flight are
 * aborted, the process exits 1 with one line naming the error, the failed write leaves no temp
 * file, and a resume removes the temp files a killed run left in llm/ and finishes the run.
 *
 * Through the built CLI against a scripted server on 127.0.0.1. The disk fills up through a
 * preload (tests/support/full-disk-preload.mjs: every write under the run dir after the first N
 * fails with the given code, the file created as a full disk does), the same on every machine.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSmallBarexamIndex } from '../tests/support/small-barexam-index.js';
import { startScriptedServer, type RecordedRequest, type ScriptReply } from '../tests/support/scripted-openai-server.js';
import { ensureBuilt, isolatedEnv, lexcase, ROOT } from '../tests/support/spawn-cli.js';

let dir: string;
let index: string;
const ITEMS = 6;
const PRELOAD = pathToFileURL(join(ROOT, 'tests', 'support', 'full-disk-preload.mjs')).href;

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'lexcase-run-disk-full-'));
  index = join(dir, 'idx');
  await buildSmallBarexamIndex(index, { items: ITEMS });
}, 300_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A CASE item: each advocate searches once and cites, each of 3 jurors votes B — the same requests for every item. */
function caseScript(req: RecordedRequest): ScriptReply {
  const body = JSON.stringify(req.body.messages);
  if (/juror on a panel/.test(body)) return { content: JSON.stringify({ reasoning: 'weighed', vote: 'B' }) };
  const tool = (req.body.messages as { role: string; content: string }[]).filter((m) => m.role === 'tool');
  if (tool.length === 0) return { toolCalls: [{ name: 'bm25_search', args: { query: 'negligence duty of care', k: 3 } }] };
  const ids = tool.flatMap((m) => JSON.parse(m.content).results.map((x: { id: string }) => x.id));
  return { content: JSON.stringify({ evidence: ids.slice(0, 2).map((id: string) => ({ id, justification: 'on point' })) }) };
}

const lines = (f: string) => readFileSync(f, 'utf8').split('\n').filter(Boolean);
const tmpFiles = (runDir: string) => readdirSync(runDir, { recursive: true, encoding: 'utf8' }).filter((f) => /\.tmp-\d+$/.test(f));
const deadPid = () => Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);

/** Requests one item makes (the script answers every item alike), measured by the first test's resume. */
let perItem = 0;

describe('a run whose run dir cannot be written (issue 37, item 6)', () => {
  const args = (runDir: string) => [
    'run',
    'case',
    '--index',
    index,
    '--limit',
    String(ITEMS),
    '--jurors',
    '3',
    '--max-steps',
    '2',
    '--tools',
    'bm25',
    '--run-dir',
    runDir,
  ];
  const llmEnv = (url: string) => ({ LEXCASE_LLM_BASE_URL: url, LEXCASE_LLM_MODEL: 'scripted', LEXCASE_LLM_PREFLIGHT: '0' });

  /** The run with a disk that fails after config.json, llm/model.json and 3 writes per item (exchanges, trace, results line) of 3 items: the 4th item's first write fails. */
  async function fullDiskRun(code: string, text: string, url: string, runDir: string): Promise<void> {
    const full = await lexcase(args(runDir), {
      cwd: dir,
      env: isolatedEnv({
        ...llmEnv(url),
        NODE_OPTIONS: `--import ${PRELOAD}`,
        LEXCASE_TEST_FULL_DISK_DIR: runDir,
        LEXCASE_TEST_FULL_DISK_AFTER: String(2 + 3 * 3),
        LEXCASE_TEST_FULL_DISK_CODE: code,
      }),
    });
    expect(full.code).toBe(1);
    // one line (before: the raw error and "(run with --debug for a stack trace)")
    const errorLines = full.stderr.split('\n').filter((l) => /^\[error\]|^\s*hint:|--debug|^\s+at /.test(l));
    expect(errorLines, full.stderr).toHaveLength(1);
    expect(errorLines[0]).toMatch(new RegExp(`cannot write the run dir .*: ${code}: ${text}, .*; the run stopped after 3 of ${ITEMS} items`));
    expect(lines(join(runDir, 'results.jsonl'))).toHaveLength(3);
    expect(tmpFiles(runDir)).toEqual([]); // before: llm/<item>.jsonl.tmp-<pid>, empty
  }

  it('ENOSPC: exit 1 with one line, no LLM request after the failing item, no temp file; a resume cleans llm/ and finishes', async () => {
    const srv = await startScriptedServer(caseScript);
    const runDir = join(dir, 'run-ENOSPC');
    try {
      await fullDiskRun('ENOSPC', 'no space left on device', srv.url, runDir);
      const failedRun = srv.requests.length;
      srv.requests.length = 0;
      // a killed run's temp file in llm/ is removed by the resume, which finishes the run
      writeFileSync(join(runDir, 'llm', `mbe_0.jsonl.tmp-${deadPid()}`), '');
      const resume = await lexcase(['--json', ...args(runDir)], { cwd: dir, env: isolatedEnv(llmEnv(srv.url)) });
      expect(resume.code, resume.stderr).toBe(0);
      expect(JSON.parse(resume.stdout)).toMatchObject({ ran: ITEMS - 3, skipped: 3 });
      expect(lines(join(runDir, 'results.jsonl'))).toHaveLength(ITEMS);
      expect(tmpFiles(runDir)).toEqual([]); // before: the stale file stayed
      perItem = srv.requests.length / (ITEMS - 3);
      expect(Number.isInteger(perItem) && perItem >= 5).toBe(true);
      // the 3 recorded items and the one whose write failed; nothing after it (before: all 6 items asked)
      expect(failedRun).toBe(4 * perItem);
    } finally {
      await srv.close();
    }
  }, 300_000);

  it('EIO (and any failed write: EDQUOT, EROFS): the same stop, the same one line', async () => {
    expect(perItem).toBeGreaterThan(0);
    const srv = await startScriptedServer(caseScript);
    try {
      await fullDiskRun('EIO', 'i/o error', srv.url, join(dir, 'run-EIO'));
      expect(srv.requests.length).toBe(4 * perItem);
    } finally {
      await srv.close();
    }
  }, 300_000);
});
