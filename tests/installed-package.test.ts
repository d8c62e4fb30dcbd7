/**
 * Issue 41's features as a user meets them: from the packed tarball installed into an empty project
 * (tests/support/installed-package.ts), the installed `lexcase` bin run as a child process and the
 * library imported by a node script. Each block names the feature it drives.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLink, relativeLinks } from './docs/links.js';
import { bundledLines, LEGAL_CORPUS_PASSAGES } from './support/bundled-data.js';
import { installPackedPackage, type InstalledPackage } from './support/installed-package.js';
import { runBuiltCli } from './support/run-built-cli.js';

const work = mkdtempSync(join(tmpdir(), 'lexcase-installed-'));
let pkg: InstalledPackage;
const lexcase = (args: string[]) => runBuiltCli(args, { cli: pkg.cli, cwd: pkg.proj, timeoutMs: 240_000 });

/** 12 Arkansas opinions of the bundled legal_corpus, every passage (ids "<doc_id>#p<n>", doc_id kept). */
const rows = (() => {
  const all = bundledLines(LEGAL_CORPUS_PASSAGES)
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { id: string; doc_id: string; title: string; text: string; source: string });
  const docs = [...new Set(all.filter((r) => r.source === 'cap_arkansas_sample').map((r) => r.doc_id))].slice(0, 12);
  return all.filter((r) => docs.includes(r.doc_id));
})();
const index = join(work, 'idx');

beforeAll(async () => {
  pkg = await installPackedPackage(work);
  writeFileSync(join(work, 'opinions.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  // Topics: each opinion's case name; qrels: that opinion (a known-item search judged per document).
  const titles = new Map(rows.map((r) => [r.doc_id, r.title]));
  writeFileSync(join(work, 'names.tsv'), [...titles].map(([, t], i) => `t${i + 1}\t${t}\n`).join(''));
  writeFileSync(join(work, 'doc-qrels.txt'), [...titles].map(([d], i) => `t${i + 1} 0 ${d} 1\n`).join(''));
  const r = await lexcase(['-q', 'index', 'build', join(work, 'opinions.jsonl'), '--out', index]);
  expect(r.code, r.stderr).toBe(0);
}, 300_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the installed package', () => {
  it('every relative link of its README and its docs opens a file of the package (the docs ship with it)', () => {
    const mds = pkg.files.filter((f) => f === 'README.md' || (f.startsWith('docs/') && f.endsWith('.md')));
    expect(mds).toEqual(expect.arrayContaining(['README.md', 'docs/cli.md', 'docs/library.md']));
    const links = mds.flatMap((f) => relativeLinks(f, readFileSync(join(pkg.dir, f), 'utf8')));
    expect(links.filter((l) => l.file === 'README.md').length).toBeGreaterThan(25);
    expect(links.flatMap((l) => checkLink(pkg.dir, l))).toEqual([]);
  });

  it('--aggregate maxp: search --topics writes a document-level run; eval run and eval retrieval judge it per document and agree', async () => {
    const metrics = ['--metrics', 'recall@10,mrr@10,ndcg@10'];
    const p = await lexcase(['--json', 'search', '--topics', join(work, 'names.tsv'), '--index', index, '-k', '200', '--run-file', join(work, 'passages.run')]);
    expect(p.code, p.stderr).toBe(0);
    const d = await lexcase(['--json', 'search', '--topics', join(work, 'names.tsv'), '--index', index, '-k', '10', '--passage-hits', '200', '--aggregate', 'maxp', '--run-file', join(work, 'docs.run')]);
    expect(d.code, d.stderr).toBe(0);
    expect(JSON.parse(d.stdout)).toMatchObject({ tag: 'lexcase-bm25-maxp', aggregate: { strategy: 'maxp', docIds: 'doc_id field', documents: 10, passageHits: 200 } });
    const lines = readFileSync(join(work, 'docs.run'), 'utf8').trim().split('\n').map((l) => l.split(' '));
    const docIds = new Set(rows.map((r) => r.doc_id));
    expect(lines.every((f) => docIds.has(f[2]) && f[5] === 'lexcase-bm25-maxp')).toBe(true);
    const perTopic = new Map<string, number>();
    for (const f of lines) perTopic.set(f[0], (perTopic.get(f[0]) ?? 0) + 1);
    expect(Math.max(...perTopic.values())).toBe(10);
    // the document run; the passage run aggregated by eval run (doc_id field of the index, or an id pattern); eval retrieval in one go
    const means = (stdout: string) => JSON.parse(stdout).run?.means ?? JSON.parse(stdout).results[0].means;
    const runs = await Promise.all([
      lexcase(['--json', 'eval', 'run', join(work, 'docs.run'), '--qrels', join(work, 'doc-qrels.txt'), ...metrics]),
      lexcase(['--json', 'eval', 'run', join(work, 'passages.run'), '--qrels', join(work, 'doc-qrels.txt'), '--aggregate', 'maxp', '--index', index, ...metrics]),
      lexcase(['--json', 'eval', 'run', join(work, 'passages.run'), '--qrels', join(work, 'doc-qrels.txt'), '--aggregate', 'maxp', '--doc-id-pattern', '^(.+)#p\\d+$', ...metrics]),
      lexcase(['--json', 'eval', 'retrieval', '--topics', join(work, 'names.tsv'), '--qrels', join(work, 'doc-qrels.txt'), '--index', index, '--aggregate', 'maxp', '--hits', '10', '--passage-hits', '200', ...metrics]),
      lexcase(['--json', 'eval', 'run', join(work, 'passages.run'), '--qrels', join(work, 'doc-qrels.txt'), ...metrics]),
    ]);
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    const [docRun, byField, byPattern, inOneGo, unaggregated] = runs.map((r) => means(r.stdout));
    expect(docRun['recall@10'].estimate).toBeGreaterThan(0.5);
    expect(byField).toEqual(docRun);
    expect(byPattern).toEqual(docRun);
    expect(inOneGo).toEqual(docRun);
    expect(JSON.parse(runs[1].stdout).aggregate).toEqual({ strategy: 'maxp', docIds: 'doc_id field' });
    // passage ids never match document qrels: without aggregation every figure is 0
    expect(unaggregated['recall@10'].estimate).toBe(0);
    // firstp and sump rank differently from maxp on the same passages
    const other = await Promise.all(['firstp', 'sump'].map((a) => lexcase(['--json', 'eval', 'run', join(work, 'passages.run'), '--qrels', join(work, 'doc-qrels.txt'), '--aggregate', a, '--index', index, ...metrics])));
    for (const r of other) expect(r.code, r.stderr).toBe(0);
    expect(other.map((r) => means(r.stdout)['mrr@10'].estimate)).not.toEqual([docRun['mrr@10'].estimate, docRun['mrr@10'].estimate]);
  });

  it('LangChain: a script that imports the package builds an index from Documents (fromDocuments), filters by metadata and gets source/doc_id/its own keys back; the CLI verifies that index', async () => {
    const docsFile = join(work, 'lc-docs.json');
    writeFileSync(docsFile, JSON.stringify(rows.map((r) => ({ id: r.id, text: r.text, metadata: { source: r.source, doc_id: r.doc_id, title: r.title, court: 'Supreme Court of Arkansas' } }))));
    const wanted = rows[rows.length - 1].doc_id;
    const script = join(pkg.proj, 'langchain.mjs');
    writeFileSync(
      script,
      [
        "import { readFileSync } from 'node:fs';",
        "import { Document } from '@langchain/core/documents';",
        "import { LexcaseRetriever } from 'lexcase';",
        'const [file, out, wanted] = process.argv.slice(2);',
        "const docs = JSON.parse(readFileSync(file, 'utf8')).map((d) => new Document({ id: d.id, pageContent: d.text, metadata: d.metadata }));",
        "const retriever = await LexcaseRetriever.fromDocuments(docs, { out, methods: ['bm25', 'qld'], k: 3 });",
        "const all = await retriever.invoke('the court held the contract void');",
        "const filtered = await new LexcaseRetriever({ index: out, k: 3, filter: { doc_id: wanted } }).invoke('the court held the contract void');",
        "const kept = await new LexcaseRetriever({ index: process.argv[5], k: 3, filter: { bench: 'panel' } }).invoke('the court held the contract void');",
        'console.log(JSON.stringify({ all: all.map((d) => d.metadata), filtered: filtered.map((d) => d.metadata), kept: kept.map((d) => d.metadata) }));',
      ].join('\n'),
    );
    // An index built by the CLI keeps the JSONL fields named in --keep-fields for the filter.
    const docOrder = [...new Set(rows.map((x) => x.doc_id))];
    const benchOf = (docId: string) => (docOrder.indexOf(docId) % 2 ? 'en banc' : 'panel');
    writeFileSync(join(work, 'benches.jsonl'), rows.map((x) => JSON.stringify({ ...x, bench: benchOf(x.doc_id) })).join('\n') + '\n');
    const keptIndex = join(work, 'kept-index');
    const b = await lexcase(['-q', 'index', 'build', join(work, 'benches.jsonl'), '--keep-fields', 'bench', '--out', keptIndex]);
    expect(b.code, b.stderr).toBe(0);
    const lcIndex = join(work, 'lc-index');
    const r = await runBuiltCli([docsFile, lcIndex, wanted, keptIndex], { cli: script, cwd: pkg.proj, timeoutMs: 240_000 });
    expect(r.code, r.stderr).toBe(0);
    const { all, filtered, kept } = JSON.parse(r.stdout) as Record<'all' | 'filtered' | 'kept', Record<string, unknown>[]>;
    expect(kept).toHaveLength(3);
    for (const md of kept) expect(md).toMatchObject({ bench: 'panel', doc_id: expect.any(String) });
    expect(kept.every((md) => benchOf(md.doc_id as string) === 'panel')).toBe(true);
    expect(all).toHaveLength(3);
    for (const md of [...all, ...filtered]) {
      const row = rows.find((x) => x.id === md.id)!;
      expect(md).toMatchObject({ source: row.source, doc_id: row.doc_id, title: row.title, court: 'Supreme Court of Arkansas', method: 'bm25' });
    }
    expect(filtered.length).toBeGreaterThan(0);
    expect(filtered.every((md) => md.doc_id === wanted)).toBe(true);
    expect(filtered.map((md) => md.rank)).toEqual(filtered.map((_, i) => i + 1));
    const verify = await lexcase(['index', 'verify', lcIndex]);
    expect(verify.code, verify.stderr + verify.stdout).toBe(0);
  });

  it('a run grows: a larger --limit in the same run dir runs only the new items and records the change; a smaller one is refused', async () => {
    const runDir = join(work, 'case-run');
    const run = (limit: number) => lexcase(['--json', 'run', 'case', '--offline', '--index', index, '--limit', String(limit), '--run-dir', runDir]);
    const first = await run(2);
    expect(first.code, first.stderr).toBe(0);
    const grown = await run(3);
    expect(grown.code, grown.stderr).toBe(0);
    expect(JSON.parse(grown.stdout)).toMatchObject({ ran: 1, skipped: 2, failed: 0 });
    const cfg = JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8'));
    expect(cfg.config.limit).toBe(3);
    expect(cfg.resumes.at(-1)).toMatchObject({ items: 3, skipped: 2, grown: { limit: { from: 2, to: 3 } } });
    expect(readFileSync(join(runDir, 'results.jsonl'), 'utf8').trim().split('\n')).toHaveLength(3);
    const shrunk = await run(1);
    expect(shrunk.code).toBe(1);
    expect(shrunk.stderr).toMatch(/leaves out 2 recorded items .*not shrink/);
  });
});
