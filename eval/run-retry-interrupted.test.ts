/**
 * A resume that retries failed items, interrupted midway (Ctrl-C: `lexcase run` dies on SIGINT),
 * used to leave results.jsonl without the failed items it had not yet retried: their lines were
 * removed before the retries ran, so `lexcase report` counted only the items left (accuracy rose,
 * exit 0). Now a failed item's line stays until its new record replaces it: after the interrupt
 * every item is still in results.jsonl — the one retried with its new record, the others still
 * failed — and a resume finishes the run.
 *
 * Through the built CLI against a scripted server on 127.0.0.1 that fails (HTTP 500) the items to
 * retry, then answers the first of them and holds the next one's requests until the child is
 * interrupted.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadQuestions } from '../corpora/registry.js';
import { buildSmallBarexamIndex } from '../tests/support/small-barexam-index.js';
import { startScriptedServer, type RecordedRequest, type ScriptReply } from '../tests/support/scripted-openai-server.js';
import { ensureBuilt, isolatedEnv, lexcase, startLexcase } from '../tests/support/spawn-cli.js';

let dir: string;
let index: string;
const ITEMS = 4;
/** A piece of each item's question that its requests carry (as JSON text), in item order. */
let marks: string[] = [];

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'lexcase-run-retry-interrupted-'));
  index = join(dir, 'idx');
  await buildSmallBarexamIndex(index, { items: ITEMS });
  marks = (await loadQuestions('barexam', 'val')).slice(0, ITEMS).map((q) => JSON.stringify(q.question).slice(1, 81));
}, 300_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The item (0-based) a request belongs to, by its question; -1 when none. */
const itemOf = (req: RecordedRequest): number => {
  const body = JSON.stringify(req.body.messages);
  return marks.findIndex((m) => body.includes(m));
};

/** A CASE item: each advocate searches once and cites, each of 3 jurors votes B. */
function caseScript(req: RecordedRequest): ScriptReply {
  const body = JSON.stringify(req.body.messages);
  if (/juror on a panel/.test(body)) return { content: JSON.stringify({ reasoning: 'weighed', vote: 'B' }) };
  const tool = (req.body.messages as { role: string; content: string }[]).filter((m) => m.role === 'tool');
  if (tool.length === 0) return { toolCalls: [{ name: 'bm25_search', args: { query: 'negligence duty of care', k: 3 } }] };
  const ids = tool.flatMap((m) => JSON.parse(m.content).results.map((x: { id: string }) => x.id));
  return { content: JSON.stringify({ evidence: ids.slice(0, 2).map((id: string) => ({ id, justification: 'on point' })) }) };
}

interface Line {
  id: string;
  correct: boolean;
  error?: string;
}
const lines = (runDir: string): Line[] =>
  readFileSync(join(runDir, 'results.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

describe('a retry of failed items interrupted by SIGINT', () => {
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
  const env = (url: string) =>
    isolatedEnv({ LEXCASE_LLM_BASE_URL: url, LEXCASE_LLM_MODEL: 'scripted', LEXCASE_LLM_PREFLIGHT: '0', LEXCASE_LLM_MAX_RETRIES: '0' });

  it('keeps every item in results.jsonl: the retried one with its new record, the others still failed; a resume finishes', async () => {
    const runDir = join(dir, 'run');
    // one server (its URL is part of the run's config), in three phases
    let phase: 'down' | 'slow' | 'up' = 'down';
    let heldItem2 = false;
    const srv = await startScriptedServer((req) => {
      const i = itemOf(req);
      if (phase === 'up') return caseScript(req);
      // 1. item 0 succeeds, items 1-3 fail
      if (phase === 'down') return i === 0 ? caseScript(req) : { status: 500, error: 'upstream down' };
      // 2. the resume retries items 1-3: item 1 is answered, item 2's requests are held
      if (i === 1) return caseScript(req);
      heldItem2 ||= i === 2;
      return { hang: true };
    });
    try {
      const first = await lexcase(args(runDir), { cwd: dir, env: env(srv.url) });
      expect(first.code, first.stderr).toBe(0);
      const recorded = lines(runDir);
      expect(recorded).toHaveLength(ITEMS);
      expect(recorded.filter((l) => l.error !== undefined)).toHaveLength(ITEMS - 1);
      const ids = recorded.map((l) => l.id);
      const failedIds = ids.slice(1);

      // 2. SIGINT once item 1 is recorded and item 2 is waiting for the server
      phase = 'slow';
      const child = startLexcase(args(runDir), { cwd: dir, env: env(srv.url) });
      const end = Date.now() + 120_000;
      const item1Done = () => lines(runDir).some((l) => l.id === failedIds[0] && l.error === undefined);
      while (!(heldItem2 && item1Done())) {
        if (child.child.exitCode !== null) throw new Error(`the resume exited (${child.child.exitCode}) before it was interrupted:\n${child.stderr}`);
        if (Date.now() > end) throw new Error(`the resume did not reach item 2 in 120 s:\n${child.stderr}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      await child.stop('SIGINT');
      const after = new Map(lines(runDir).map((l) => [l.id, l]));
      expect(lines(runDir)).toHaveLength(ITEMS); // before: 2 (the lines of items 2 and 3 were gone)
      expect([...after.keys()].sort()).toEqual([...ids].sort());
      expect(after.get(failedIds[0])!.error).toBeUndefined();
      for (const id of failedIds.slice(1)) expect(after.get(id)).toMatchObject({ correct: false, error: expect.stringMatching(/500|upstream down/) });
      const report = await lexcase(['report', runDir], { cwd: dir });
      expect(report.code, report.stderr).toBe(0);
      expect(readFileSync(join(runDir, 'report.md'), 'utf8')).toMatch(new RegExp(`items in results\\W+${ITEMS}\\b`));

      // 3. a resume retries the two still failed and finishes the run
      phase = 'up';
      const resume = await lexcase(['--json', ...args(runDir)], { cwd: dir, env: env(srv.url) });
      expect(resume.code, resume.stderr).toBe(0);
      expect(JSON.parse(resume.stdout)).toMatchObject({ ran: 2, skipped: 2 });
      expect(
        lines(runDir)
          .map((l) => l.id)
          .sort(),
      ).toEqual([...ids].sort());
      expect(lines(runDir).every((l) => l.error === undefined)).toBe(true);
    } finally {
      await srv.close();
    }
  }, 300_000);
});
