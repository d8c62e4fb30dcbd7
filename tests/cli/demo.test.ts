/**
 * `lexcase demo` as a user runs it: the built binary in a child process, in an empty directory. It
 * builds the bundled default-corpus index, evaluates bm25/qld (LEXCASE_DEMO_DENSE=0 here: the dense
 * step, with the shipped vectors, is the docs check's and eval/demo/dense-step.test.ts's), runs the
 * offline CASE advocates, prints the report and writes report.md / report.json (index reuse on a
 * second run: src/demo/run-demo.test.ts, in-process). `--dir D` writes only to a new or empty D or an
 * earlier demo's: a D holding the user's own report.md is refused before any step runs (717d8fa
 * overwrote report.md and report.json; src/demo/demo-dir.ts).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, isolatedEnv, lexcase, STACK_TRACE } from '../support/spawn-cli.js';
import { treeOf } from '../support/tree-snapshot.js';

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

  it("--dir D holding the user's own report.md is refused before any step; D is left byte-identical", async () => {
    const d = join(dir, 'mine');
    mkdirSync(d);
    writeFileSync(join(d, 'report.md'), '# My brief on adverse possession\n\nDraft 3, do not lose.\n');
    writeFileSync(join(d, 'report.json'), '{"client": "Smith", "hours": 12}\n');
    const before = treeOf(d);
    const r = await lexcase(['demo', '--dir', 'mine', '--iterations', '200'], { cwd: dir, env: isolatedEnv({ LEXCASE_DEMO_DENSE: '0' }), timeoutMs: 120_000 });
    expect(treeOf(d)).toEqual(before);
    expect(r.stderr).toMatch(
      /refusing to write the demo to .*mine: report\.json is not a lexcase demo report, so the demo would overwrite a file it did not make/,
    );
    expect(r.stderr).toMatch(/hint: choose a new or empty --dir, or the dir of an earlier demo/);
    expect(r.code).toBe(1);
    expect(r.stderr + r.stdout).not.toMatch(STACK_TRACE);
    expect(r.stderr).not.toMatch(/building the default index/);
  }, 120_000);
});
