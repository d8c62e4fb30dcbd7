/**
 * An index build deletes only what it can prove it made (issue 26, items 1, 2 and the two
 * concurrent builds of item 11), through the built CLI as a user runs it:
 *  - siblings named like build leftovers (`q.old-2024`, `q.tmp-999999`) that a user made are
 *    neither deleted nor renamed over a missing index;
 *  - a file or folder a user put anywhere inside an index (`docs/notes.txt`, `sparse/mydata/`)
 *    makes the rebuild refuse, and survives;
 *  - the real leftovers of a killed build (marked with its pid) are still cleaned up or put back;
 *  - a second concurrent build of the same dir gets a LOCKED error and the first one wins.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OWNER_MARKER, readOwnerMark } from '../core/owned-dir.js';
import { cliChild } from '../tests/support/cli-child.js';
import { treeOf } from '../tests/support/tree-snapshot.js';
import { tempDir } from './build-test-helpers.js';
import { readManifest } from './manifest.js';

const tmp = tempDir('lexcase-owned-');
afterAll(() => tmp.cleanup());

const TEXTS = [
  'adverse possession requires open and hostile use',
  'an easement by necessity',
  'the rule against perpetuities',
  'a covenant running with the land',
];

function corpus(dir: string, n = TEXTS.length): string {
  const file = join(dir, 'corp.jsonl');
  writeFileSync(file, Array.from({ length: n }, (_, i) => JSON.stringify({ id: `p${i}`, text: `${TEXTS[i % TEXTS.length]} ${i}` })).join('\n') + '\n');
  return file;
}

function caseDir(name: string): string {
  const d = join(tmp.dir, name);
  mkdirSync(d, { recursive: true });
  return d;
}

/** A pid that is certainly not running: a child that has exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

const build = (cwd: string, out: string, extra: string[] = []) => cliChild(['index', 'build', 'corp.jsonl', '--out', out, '--workers', '0', ...extra], { cwd });

describe('user folders named like build leftovers (item 1)', () => {
  it('q.old-2024 (a copy of the index plus README) and q.tmp-999999 survive a rebuild of q, byte for byte', async () => {
    const d = caseDir('siblings');
    corpus(d);
    expect((await build(d, 'q')).code).toBe(0);
    cpSync(join(d, 'q'), join(d, 'q.old-2024'), { recursive: true });
    writeFileSync(join(d, 'q.old-2024', 'README'), 'keep\n');
    mkdirSync(join(d, 'q.tmp-999999'));
    writeFileSync(join(d, 'q.tmp-999999', 'notes.txt'), 'mine\n');
    const before = { old: treeOf(join(d, 'q.old-2024')), tmp: treeOf(join(d, 'q.tmp-999999')) };
    const r = await build(d, 'q');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(treeOf(join(d, 'q.old-2024'))).toEqual(before.old);
    expect(treeOf(join(d, 'q.tmp-999999'))).toEqual(before.tmp);
    expect(readdirSync(d).sort()).toEqual(['corp.jsonl', 'q', 'q.old-2024', 'q.tmp-999999']);
  });

  it('when q does not exist, a user copy named q.old-2025 is not renamed to q', async () => {
    const d = caseDir('no-q');
    corpus(d);
    expect((await build(d, 'q')).code).toBe(0);
    renameSync(join(d, 'q'), join(d, 'q.old-2025'));
    writeFileSync(join(d, 'q.old-2025', 'README'), 'keep\n');
    const before = treeOf(join(d, 'q.old-2025'));
    expect((await build(d, 'q')).code).toBe(0);
    expect(treeOf(join(d, 'q.old-2025'))).toEqual(before);
    expect(existsSync(join(d, 'q', 'README'))).toBe(false);
    expect((await readManifest(join(d, 'q'))).corpus.passages).toBe(4);
  });

  it("a killed build's own leftovers are still handled: its temp dir removed, its moved-aside index put back", async () => {
    const d = caseDir('real-leftovers');
    corpus(d);
    expect((await build(d, 'q')).code).toBe(0);
    const pid = deadPid();
    // As a build killed between the two renames leaves it: q moved aside, marked index-old by that build.
    renameSync(join(d, 'q'), join(d, `q.old-${pid}`));
    writeFileSync(
      join(d, `q.old-${pid}`, OWNER_MARKER),
      JSON.stringify({ format: 'lexcase-owner', kind: 'index-old', pid, token: 't', createdAt: new Date().toISOString() }),
    );
    // And a temp dir of another killed build, with segment files.
    const pid2 = deadPid();
    mkdirSync(join(d, `r.tmp-${pid2}`, 'segments'), { recursive: true });
    writeFileSync(join(d, `r.tmp-${pid2}`, 'segments', 'w0-0000.seg'), 'x');
    writeFileSync(
      join(d, `r.tmp-${pid2}`, OWNER_MARKER),
      JSON.stringify({ format: 'lexcase-owner', kind: 'index-build', pid: pid2, token: 't', createdAt: new Date().toISOString() }),
    );
    expect((await build(d, 'r')).code).toBe(0);
    expect(existsSync(join(d, `r.tmp-${pid2}`))).toBe(false);
    // Building another dir in the same folder does not touch q's leftovers; building q first puts q back.
    expect(existsSync(join(d, `q.old-${pid}`))).toBe(true);
    expect((await build(d, 'q')).code).toBe(0);
    expect(readdirSync(d).sort()).toEqual(['corp.jsonl', 'q', 'r']);
    expect(readOwnerMark(join(d, 'q'))?.kind).toBe('index');
  });
});

describe('user files inside an index, at any depth (item 2)', () => {
  it('idx/docs/notes.txt and an empty idx/sparse/mydata/ make the rebuild refuse; both survive', async () => {
    const d = caseDir('inside');
    corpus(d);
    expect((await build(d, 'idx')).code).toBe(0);
    writeFileSync(join(d, 'idx', 'docs', 'notes.txt'), 'n\n');
    mkdirSync(join(d, 'idx', 'sparse', 'mydata'));
    const before = treeOf(join(d, 'idx'));
    const r = await build(d, 'idx');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /refusing to write an index to idx: it is a lexcase index that also holds files that are not part of it \(docs\/notes\.txt, sparse\/mydata\/\)/,
    );
    expect(r.stderr).not.toMatch(/\n\s+at /); // one message, no stack trace
    expect(treeOf(join(d, 'idx'))).toEqual(before);
    expect(readdirSync(d).sort()).toEqual(['corp.jsonl', 'idx']);
  });

  it('a user file inside the dense LanceDB folder is refused too; a clean index is replaced', async () => {
    const d = caseDir('inside-lance');
    corpus(d);
    expect((await build(d, 'idx')).code).toBe(0);
    mkdirSync(join(d, 'idx', 'dense', 'passages.lance', 'data'), { recursive: true });
    writeFileSync(join(d, 'idx', 'dense', 'passages.lance', 'data', 'notes.txt'), 'n\n');
    const r = await build(d, 'idx');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('dense/passages.lance/data/notes.txt');
    rmSync(join(d, 'idx', 'dense'), { recursive: true });
    expect((await build(d, 'idx')).code).toBe(0);
  });
});

describe('two concurrent builds of one dir (item 11)', () => {
  it('while one build runs, a second `index build` of the dir gets LOCKED naming it; once the first ends, a build succeeds', async () => {
    const d = caseDir('concurrent');
    corpus(d);
    // The first writer: a slow, never-ending build of idx that stops cleanly on SIGTERM (fixtures/slow-build.ts).
    const first = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'fixtures/slow-build.ts'), join(d, 'idx'), 'signals'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const firstExit = new Promise<number | null>((r) => first.once('exit', (c) => r(c)));
    await new Promise<void>((resolve, reject) => {
      first.stdout.on('data', (b: Buffer) => b.toString().includes('progress') && resolve());
      void firstExit.then((c) => reject(new Error(`first build exited early (${c})`)));
    });
    const second = await build(d, 'idx');
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(new RegExp(`idx is locked: it is in use by index build \\(pid ${first.pid}, since `));
    expect(second.stdout).not.toMatch(/built/);
    expect(existsSync(join(d, 'idx'))).toBe(false);
    first.kill('SIGTERM');
    expect(await firstExit).toBe(1);
    expect(readdirSync(d).sort()).toEqual(['corp.jsonl']); // its temp dir and its lock are gone
    const third = await build(d, 'idx');
    expect(third.code).toBe(0);
    expect(third.stdout).toMatch(/built idx/);
    expect(readdirSync(d).sort()).toEqual(['corp.jsonl', 'idx']);
  });

  it('a lock left by a killed build (dead pid) is taken over', async () => {
    const d = caseDir('stale-lock');
    corpus(d);
    writeFileSync(
      join(d, 'idx.lock'),
      JSON.stringify({
        format: 'lexcase-lock',
        pid: deadPid(),
        token: 'x',
        host: (await import('node:os')).hostname(),
        what: 'index build',
        since: new Date().toISOString(),
      }),
    );
    const r = await build(d, 'idx');
    expect(r.code).toBe(0);
    expect(readdirSync(d).sort()).toEqual(['corp.jsonl', 'idx']);
  });

  // Issue 37, item 15: a lock naming a live process that is not its holder (its pid reused) refused every build, forever.
  describe.runIf(existsSync('/proc/self/stat'))('a lock whose pid now belongs to another process (pid reused) is taken over', () => {
    const lockFor = async (pid: number, extra: Record<string, unknown>) =>
      JSON.stringify({
        format: 'lexcase-lock',
        pid,
        token: 'x',
        host: (await import('node:os')).hostname(),
        what: 'index build',
        since: new Date().toISOString(),
        ...extra,
      });
    const withUnrelated = async (fn: (pid: number) => Promise<void>) => {
      const other = spawn('sleep', ['120'], { stdio: 'ignore' }); // alive for the whole test, not a lexcase process
      try {
        await fn(other.pid!);
      } finally {
        other.kill('SIGKILL');
      }
    };

    it("the lock records its holder's start (boot and start time) and the live process with that pid started otherwise", () =>
      withUnrelated(async (pid) => {
        const d = caseDir('reused-pid');
        corpus(d);
        const bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
        writeFileSync(join(d, 'idx.lock'), await lockFor(pid, { start: `${bootId}:1` }));
        const r = await build(d, 'idx');
        expect(r.stderr).toBe(''); // before: "idx is locked: it is in use by index build (pid …)", every time
        expect(r.code).toBe(0);
        expect(readdirSync(d).sort()).toEqual(['corp.jsonl', 'idx']);
      }));

    it('a lock without a start (older lexcase, hand-made) written 10 minutes before that process started', () =>
      withUnrelated(async (pid) => {
        const d = caseDir('reused-pid-old-lock');
        corpus(d);
        writeFileSync(join(d, 'idx.lock'), await lockFor(pid, { since: new Date(Date.now() - 600_000).toISOString() }));
        const r = await build(d, 'idx');
        expect(r.stderr).toBe('');
        expect(r.code).toBe(0);
      }));

    it("but a lock that may be that process's (written after it started, no start recorded) is still LOCKED, naming the pid and the way out", () =>
      withUnrelated(async (pid) => {
        const d = caseDir('live-holder');
        corpus(d);
        writeFileSync(join(d, 'idx.lock'), await lockFor(pid, {}));
        const r = await build(d, 'idx');
        expect(r.code).toBe(1);
        expect(r.stderr).toMatch(
          new RegExp(
            `idx is locked: it is in use by index build \\(pid ${pid}, since .*\n  hint: wait for it to finish; if no lexcase process is using it, delete .*idx\\.lock`,
          ),
        );
        expect(existsSync(join(d, 'idx.lock'))).toBe(true);
      }));
  });

  it('a file named idx.lock that lexcase did not write is never removed: LOCKED naming it', async () => {
    const d = caseDir('foreign-lock');
    corpus(d);
    writeFileSync(join(d, 'idx.lock'), 'my padlock notes\n');
    const r = await build(d, 'idx');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/idx\.lock exists and is not a lexcase lock/);
    expect(readFileSync(join(d, 'idx.lock'), 'utf8')).toBe('my padlock notes\n');
  });
});
