/**
 * `lexcase --json index verify DIR` on a damaged index or none, as a script runs it: the built binary in a child
 * process prints one JSON object with ok:false and why on stdout, exits non-zero, and says the reason once on stderr.
 * A dense index's LanceDB files are checked against the sizes and sha256 its build recorded.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readManifest, writeManifest } from '../../indexer/manifest.js';
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

/** A copy of the sound index (`from`: the bm25 one), damaged by `harm`. */
function damaged(name: string, harm: (d: string) => void, from = idx): string {
  const d = join(dir, name);
  cpSync(from, d, { recursive: true });
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

describe('lexcase index verify on a dense index whose LanceDB table was damaged', () => {
  let dense: string;
  beforeAll(async () => {
    dense = join(dir, 'dense');
    const b = await lexcase(['-q', 'index', 'build', join(dir, 'pool.jsonl'), '--out', dense, '--methods', 'bm25,dense']);
    expect(b.code, b.stderr).toBe(0);
  }, 600_000);

  // before: `integrity ok` and {ok:true}, exit 0 — the table's owner, rows and ids were all verify read, and dense search ranked from the flipped bytes
  it('bytes flipped in every .lance data file: ok:false naming each file; exit 1', async () => {
    const sound = await lexcase(['--json', 'index', 'verify', dense]);
    expect(sound.code, sound.stderr).toBe(0);
    expect(JSON.parse(sound.stdout)).toMatchObject({ ok: true, dense: { covered: true, files: expect.any(Number) } });
    const data = join('dense', 'passages.lance', 'data');
    const d = damaged(
      'dense-flipped',
      (x) => {
        for (const f of readdirSync(join(x, data))) {
          const bytes = readFileSync(join(x, data, f));
          bytes[Math.floor(bytes.length / 2)] ^= 0xff;
          writeFileSync(join(x, data, f), bytes);
        }
      },
      dense,
    );
    const r = await lexcase(['--json', 'index', 'verify', d]);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { ok: boolean; damaged: { file: string; message: string }[] };
    expect(out.ok).toBe(false);
    expect(out.damaged.map((x) => x.file).sort()).toEqual(
      readdirSync(join(d, data))
        .map((f) => join(d, data, f))
        .sort(),
    );
    for (const x of out.damaged) expect(x.message).toMatch(/^sha256 [0-9a-f]{12}… does not match the manifest's/);
    expect(STACK_TRACE.test(r.stdout + r.stderr)).toBe(false);
  });

  it("an index whose manifest records no dense table files (an older lexcase's): ok, and says the dense table is not covered", async () => {
    const d = damaged('dense-older', () => {}, dense);
    const m = await readManifest(d);
    const { files: _files, ...section } = m.dense as Record<string, unknown>;
    await writeManifest(d, { ...m, dense: section as typeof m.dense });
    const r = await lexcase(['--json', 'index', 'verify', d]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      ok: true,
      dense: { covered: false, message: expect.stringMatching(/^dense table not covered by this index's manifest \(built by an older lexcase\)/) },
    });
    const human = await lexcase(['index', 'verify', d]);
    expect(human.stdout).toContain("dense table not covered by this index's manifest (built by an older lexcase)");
  });
});
