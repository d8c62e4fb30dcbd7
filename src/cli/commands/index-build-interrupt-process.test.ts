/**
 * Ctrl-C / SIGTERM during `lexcase index build`, as a user meets it: the built CLI in a child process
 * building a 30,000-passage JSONL corpus; the signal is sent once the process holds a file of its
 * temp build dir (`OUT.tmp-<pid>/…`) open (/proc/PID/fd), so it is mid-build. Before, the build
 * cleaned up but the command exited 1, as for any error, unlike `run <system>` and `eval run` (130 /
 * 143); now it exits 130 (SIGINT) or 143 (SIGTERM) with one line saying what was kept: the index
 * that was at OUT, or nothing written when there was none.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readManifest } from '../../../indexer/manifest.js';
import { holdsOpenWhere } from '../../../tests/support/open-files.js';
import { ensureBuilt, lexcase, startLexcase, STACK_TRACE } from '../../../tests/support/spawn-cli.js';

let dir: string;
let corpus: string;
const WORDS = ['easement', 'hearsay', 'negligence', 'contract', 'consideration', 'tort', 'estoppel', 'adverse', 'possession', 'felony', 'murder', 'warrant'];

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'lexcase-index-build-interrupt-'));
  corpus = join(dir, 'corpus.jsonl');
  const lines: string[] = [];
  for (let i = 0; i < 30_000; i++) {
    const text = Array.from({ length: 60 }, (_, j) => WORDS[(i * 7 + j * 13 + ((i * j) % 5)) % WORDS.length]).join(' ');
    lines.push(JSON.stringify({ id: `p${i}`, text }));
  }
  writeFileSync(corpus, `${lines.join('\n')}\n`);
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Start `index build corpus --out out` and send `signal` once it holds a file of its temp dir open. */
async function interruptBuild(out: string, signal: NodeJS.Signals) {
  const s = startLexcase(['index', 'build', corpus, '--out', out, '--workers', '0'], { cwd: dir });
  const temp = `${out}.tmp-${s.child.pid}/`;
  while (!holdsOpenWhere(s.child.pid!, (p) => p.startsWith(temp))) {
    if (s.child.exitCode !== null || s.child.signalCode !== null) throw new Error(`index build ended before it opened ${temp}:\n${s.stderr}`);
    await new Promise((r) => setTimeout(r, 5));
  }
  return s.stop(signal);
}

describe.runIf(existsSync('/proc/self/fd'))('Ctrl-C during lexcase index build', () => {
  it('SIGINT on a first build: exit 130, one line saying nothing was written, no OUT and no temp dir left', async () => {
    const out = join(dir, 'fresh');
    const r = await interruptBuild(out, 'SIGINT');
    // before: code 1
    expect(r.signal).toBeNull();
    expect(r.code).toBe(130);
    expect(r.stderr).toBe(`[error] index build interrupted by SIGINT; nothing was written (${out} was not created; the partial build was removed)\n`);
    expect(r.stderr).not.toMatch(STACK_TRACE);
    expect(readdirSync(dir).filter((n) => n.startsWith('fresh'))).toEqual([]);
  }, 120_000);

  it('SIGTERM on a rebuild: exit 143, one line saying OUT is as it was; the earlier index is kept whole', async () => {
    const out = join(dir, 'kept');
    const first = await lexcase(['index', 'build', 'barexam', '--out', out, '--workers', '0'], { cwd: dir, timeoutMs: 120_000 });
    expect(first.code, first.stderr).toBe(0);
    const r = await interruptBuild(out, 'SIGTERM');
    expect(r.signal).toBeNull();
    expect(r.code).toBe(143);
    expect(r.stderr).toContain(`[error] index build interrupted by SIGTERM; ${out} is as it was (the partial build was removed)\n`);
    expect(
      r.stderr
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('[error]')),
    ).toHaveLength(1);
    expect(readdirSync(dir).filter((n) => n.startsWith('kept'))).toEqual(['kept']);
    expect((await readManifest(out)).corpus).toMatchObject({ name: 'barexam', passages: 1149 });
    const info = await lexcase(['index', 'info', out], { cwd: dir, timeoutMs: 60_000 });
    expect(info.code, info.stderr).toBe(0);
  }, 240_000);
});
