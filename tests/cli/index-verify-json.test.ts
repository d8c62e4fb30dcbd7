/**
 * `lexcase --json index verify DIR` on a damaged index or none, as a script runs it: the built binary in a child
 * process prints one JSON object with ok:false and why on stdout, exits non-zero, and says the reason once on stderr.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, lexcase, STACK_TRACE } from '../support/spawn-cli.js';

let dir: string;
let idx: string;

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'lexcase-verify-json-'));
  const pool = join(dir, 'pool.jsonl');
  const rows = Array.from({ length: 30 }, (_, i) =>
    JSON.stringify({ id: `d${i}`, text: `The deed ${i} was delivered to the buyer and recorded under the recording act.` }),
  );
  writeFileSync(pool, `${rows.join('\n')}\n`);
  idx = join(dir, 'idx');
  const b = await lexcase(['-q', 'index', 'build', pool, '--out', idx, '--methods', 'bm25']);
  expect(b.code, b.stderr).toBe(0);
}, 600_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A copy of the sound index, damaged by `harm`. */
function damaged(name: string, harm: (d: string) => void): string {
  const d = join(dir, name);
  cpSync(idx, d, { recursive: true });
  harm(d);
  return d;
}

const once = (text: string, what: RegExp) => expect(text.match(new RegExp(what.source, 'g')) ?? [], text).toHaveLength(1);

describe('lexcase --json index verify on a damaged index', () => {
  it('a flipped byte in postings: one JSON object, ok:false, naming the file; exit 1; the reason once on stderr', async () => {
    const d = damaged('flipped', (x) => {
      const f = join(x, 'sparse/postings.bin');
      const bytes = readFileSync(f);
      bytes[Math.floor(bytes.length / 2)] ^= 0xff;
      writeFileSync(f, bytes);
    });
    const r = await lexcase(['--json', 'index', 'verify', d]);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ dir: d, ok: false, damaged: [{ file: join(d, 'sparse/postings.bin'), message: expect.stringMatching(/sha256/) }] });
    once(r.stderr, /postings\.bin/);
    expect(STACK_TRACE.test(r.stdout + r.stderr)).toBe(false);
  });

  // before: a deleted manifest.json (or a wrong path) printed only the error on stderr: a --json script read nothing
  it('a deleted manifest.json: still one JSON object, ok:false, with the error code and message; exit 1', async () => {
    const d = damaged('no-manifest', (x) => rmSync(join(x, 'manifest.json')));
    const r = await lexcase(['--json', 'index', 'verify', d]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual({ dir: d, ok: false, error: { code: 'INDEX_MISSING', message: expect.stringMatching(/manifest\.json not found/) } });
    once(r.stderr, /manifest\.json not found/);
    const info = await lexcase(['--json', 'index', 'info', d]);
    expect(info.code).toBe(1);
    expect(JSON.parse(info.stdout)).toEqual({
      dir: d,
      integrity: { ok: false, error: { code: 'INDEX_MISSING', message: expect.stringMatching(/manifest\.json not found/) } },
    });
  });
});
