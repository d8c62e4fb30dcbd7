/**
 * Dense top-k is the same for two builds from the same vectors (issue 37 item 11): passages with
 * equal vectors (duplicates, boilerplate) tie, and ties used to go to whichever row LanceDB stored
 * or returned first — so the same passages in another order, or a resumed build, ranked another
 * top-10. Ties now go to the lower passage id, in memory and through LanceDB (flat, `--exact`, and
 * an IVF index probed in full), so both builds give one ranking; a batch search then cuts it as
 * trec_eval ranks it (searched past the tie, docid descending: retrieval/top-k.ts), so the run file's
 * top 10 are the first ten lines of a deeper run.
 *
 * Run as a user runs it: the built CLI builds each index twice (the passages in file order and
 * reversed) with an OpenAI-compatible embedder on 127.0.0.1 that gives every text one of three
 * vectors, then searches both.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuiltCli } from '../tests/support/run-built-cli.js';
import { startFakeEmbeddingServer, type FakeEmbeddingServer } from '../tests/support/fake-embedding-server.js';

/** Three vectors, picked by the text's character sum: a third of the passages share each. */
function vectorOf(text: string): number[] {
  let s = 0;
  for (const c of text) s += c.codePointAt(0)!;
  const v = [0.2, 0.1, 0, 0, 0, 0, 0, 0];
  v[2 + (s % 3)] = 1;
  return v;
}

const N = 600;
const passages = Array.from({ length: N }, (_, i) => ({
  id: `p${String(i).padStart(4, '0')}`,
  text: `passage ${i} about ${['contracts', 'torts', 'evidence', 'property'][i % 4]} and case ${i * 7}`,
}));
const queries = ['contracts and consideration', 'hearsay evidence', 'adverse possession of property'];

describe('dense ties go to the lower passage id', () => {
  let tmp: string;
  let server: FakeEmbeddingServer;
  let env: Record<string, string>;
  /** The top-10 ids per query (one CLI process: a topics batch into a TREC run file). */
  const top = async (dir: string, extra: readonly string[]): Promise<string[][]> => {
    const run = join(tmp, `run-${Math.random().toString(36).slice(2)}.trec`);
    const r = await runBuiltCli(['search', '--topics', join(tmp, 'topics.tsv'), '--run-file', run, '--index', dir, '--method', 'dense', '-k', '10', ...extra], {
      env,
    });
    expect(r.code, r.stderr).toBe(0);
    const lines = (await readFile(run, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => l.split(' '));
    return queries.map((_, qi) => lines.filter((l) => l[0] === `q${qi}`).map((l) => l[2]));
  };

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'lexcase-dense-ties-'));
    server = await startFakeEmbeddingServer(vectorOf, 'three-vectors');
    env = server.env;
    const lines = (ps: typeof passages) => ps.map((p) => JSON.stringify(p)).join('\n') + '\n';
    await writeFile(join(tmp, 'fwd.jsonl'), lines(passages));
    await writeFile(join(tmp, 'rev.jsonl'), lines([...passages].reverse()));
    await writeFile(join(tmp, 'topics.tsv'), queries.map((q, i) => `q${i}\t${q}`).join('\n') + '\n');
    const build = async (file: string, out: string, extra: string[]) => {
      const r = await runBuiltCli(
        [
          'index',
          'build',
          join(tmp, file),
          '--out',
          join(tmp, out),
          '--workers',
          '0',
          '--methods',
          'bm25,dense',
          '--embedder',
          'openai',
          '--name',
          'ties',
          ...extra,
        ],
        { env },
      );
      expect(r.code, r.stderr).toBe(0);
    };
    // flat tables (searched in memory) and IVF tables of 2 partitions (both probed by default)
    for (const [file, out] of [
      ['fwd.jsonl', 'flat-fwd'],
      ['rev.jsonl', 'flat-rev'],
    ])
      await build(file, out, []);
    for (const [file, out] of [
      ['fwd.jsonl', 'ivf-fwd'],
      ['rev.jsonl', 'ivf-rev'],
    ])
      await build(file, out, ['--ann-threshold', '100', '--ann-partitions', '2']);
  }, 300_000);
  afterAll(async () => {
    await server.close();
    await rm(tmp, { recursive: true, force: true });
  });

  it.each([
    ['flat, in memory', 'flat', []],
    ['LanceDB exact (--exact over an IVF table)', 'ivf', ['--exact']],
    ['LanceDB IVF, every partition probed', 'ivf', []],
  ] as const)(
    '%s: both builds rank the same top-10, tied passages by id',
    async (_name, kind, extra) => {
      const a = await top(join(tmp, `${kind}-fwd`), extra);
      const b = await top(join(tmp, `${kind}-rev`), extra);
      expect(b).toEqual(a);
      queries.forEach((q, qi) => {
        // every hit ties (one of three vectors): a batch search cuts a tied ranking as trec_eval ranks
        // it (docid descending, retrieval/top-k.ts), so the top 10 are the ten highest ids of the query's
        // group — the first ten lines of a deeper run
        const group = passages.filter((p) => vectorOf(p.text).join() === vectorOf(q).join()).map((p) => p.id);
        expect(a[qi]).toEqual(group.slice(-10).reverse());
      });
    },
    120_000,
  );
});
