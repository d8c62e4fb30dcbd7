/**
 * `lexcase demo` as a user runs it: the built binary in a child process, in an empty directory. It
 * builds the bundled default-corpus index, evaluates bm25/qld (LEXCASE_DEMO_DENSE=0 here: the dense
 * step, with the shipped vectors, is the docs check's and eval/demo/dense-step.test.ts's), runs the
 * offline CASE advocates, prints the report and writes report.md / report.json (index reuse on a
 * second run: src/demo/run-demo.test.ts, in-process).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, isolatedEnv, lexcase, STACK_TRACE } from '../support/spawn-cli.js';

let dir: string;
beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'lexcase-cli-demo-'));
}, 600_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('lexcase demo', () => {
  it('builds the default index, prints the report and writes report.md / report.json', async () => {
    const env = isolatedEnv({ LEXCASE_DEMO_DENSE: '0' });
    const r = await lexcase(['demo', '--iterations', '200'], { cwd: dir, env, timeoutMs: 600_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr + r.stdout).not.toMatch(STACK_TRACE);
    expect(r.stdout + r.stderr).toMatch(/building the default index in /);
    expect(r.stdout).toMatch(/bm25/);
    expect(r.stdout).toMatch(/qld/);
    for (const f of ['index/manifest.json', 'report.md', 'report.json']) expect(existsSync(join(dir, '.lexcase/demo', f)), f).toBe(true);
    const report = JSON.parse(readFileSync(join(dir, '.lexcase/demo/report.json'), 'utf8')) as unknown;
    expect(JSON.stringify(report)).toMatch(/bm25/);
  }, 600_000);
});
