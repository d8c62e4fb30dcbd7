/**
 * Issue 41's features as a user meets them: from the packed tarball installed into an empty project
 * (tests/support/installed-package.ts), the installed `lexcase` bin run as a child process and the
 * library imported by a node script. Each block names the feature it drives. Issue 42's done-when
 * runs on the same install: the five systems on a tiny GGUF model written at test time
 * (tests/support/tiny-gguf.ts, its smallest size: the systems' long prompts cost its attention) with `--model-file`, node-llama-cpp resolved from the user's
 * project (where it cannot load here, those tests skip and say why in their names).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLink, relativeLinks } from './docs/links.js';
import { bundledLines, LEGAL_CORPUS_PASSAGES } from './support/bundled-data.js';
import { installPackedPackage, type InstalledPackage } from './support/installed-package.js';
import { localModelUnavailable, SCHEMA_VALID_FAILURES } from './support/local-model.js';
import { runBuiltCli } from './support/run-built-cli.js';
import { SMALLEST_TINY_GGUF, writeTinyGguf } from './support/tiny-gguf.js';
import { startServerChild, stdioMcp } from '../src/mcp/test-support/children.js';

const work = mkdtempSync(join(tmpdir(), 'lexcase-installed-'));
let pkg: InstalledPackage;
const lexcase = (args: string[], env?: Record<string, string>) => runBuiltCli(args, { cli: pkg.cli, cwd: pkg.proj, timeoutMs: 240_000, env });

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
    const d = await lexcase([
      '--json',
      'search',
      '--topics',
      join(work, 'names.tsv'),
      '--index',
      index,
      '-k',
      '10',
      '--passage-hits',
      '200',
      '--aggregate',
      'maxp',
      '--run-file',
      join(work, 'docs.run'),
    ]);
    expect(d.code, d.stderr).toBe(0);
    expect(JSON.parse(d.stdout)).toMatchObject({
      tag: 'lexcase-bm25-maxp',
      aggregate: { strategy: 'maxp', docIds: 'doc_id field', documents: 10, passageHits: 200 },
    });
    const lines = readFileSync(join(work, 'docs.run'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split(' '));
    const docIds = new Set(rows.map((r) => r.doc_id));
    expect(lines.every((f) => docIds.has(f[2]) && f[5] === 'lexcase-bm25-maxp')).toBe(true);
    const perTopic = new Map<string, number>();
    for (const f of lines) perTopic.set(f[0], (perTopic.get(f[0]) ?? 0) + 1);
    expect(Math.max(...perTopic.values())).toBe(10);
    // the document run; the passage run aggregated by eval run (doc_id field of the index, or an id pattern); eval retrieval in one go
    const means = (stdout: string) => JSON.parse(stdout).run?.means ?? JSON.parse(stdout).results[0].means;
    const runs = await Promise.all([
      lexcase(['--json', 'eval', 'run', join(work, 'docs.run'), '--qrels', join(work, 'doc-qrels.txt'), ...metrics]),
      lexcase([
        '--json',
        'eval',
        'run',
        join(work, 'passages.run'),
        '--qrels',
        join(work, 'doc-qrels.txt'),
        '--aggregate',
        'maxp',
        '--index',
        index,
        ...metrics,
      ]),
      lexcase([
        '--json',
        'eval',
        'run',
        join(work, 'passages.run'),
        '--qrels',
        join(work, 'doc-qrels.txt'),
        '--aggregate',
        'maxp',
        '--doc-id-pattern',
        '^(.+)#p\\d+$',
        ...metrics,
      ]),
      lexcase([
        '--json',
        'eval',
        'retrieval',
        '--topics',
        join(work, 'names.tsv'),
        '--qrels',
        join(work, 'doc-qrels.txt'),
        '--index',
        index,
        '--aggregate',
        'maxp',
        '--hits',
        '10',
        '--passage-hits',
        '200',
        ...metrics,
      ]),
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
    const other = await Promise.all(
      ['firstp', 'sump'].map((a) =>
        lexcase(['--json', 'eval', 'run', join(work, 'passages.run'), '--qrels', join(work, 'doc-qrels.txt'), '--aggregate', a, '--index', index, ...metrics]),
      ),
    );
    for (const r of other) expect(r.code, r.stderr).toBe(0);
    expect(other.map((r) => means(r.stdout)['mrr@10'].estimate)).not.toEqual([docRun['mrr@10'].estimate, docRun['mrr@10'].estimate]);
  });

  it('LangChain: a script that imports the package builds an index from Documents (fromDocuments), filters by metadata and gets source/doc_id/its own keys back; the CLI verifies that index', async () => {
    const docsFile = join(work, 'lc-docs.json');
    writeFileSync(
      docsFile,
      JSON.stringify(
        rows.map((r) => ({ id: r.id, text: r.text, metadata: { source: r.source, doc_id: r.doc_id, title: r.title, court: 'Supreme Court of Arkansas' } })),
      ),
    );
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

  it('a run grows: a larger --limit in the same run dir runs only the new items and records the change; a smaller one is refused; lexcase’s commit is the one its dist/ was built from, not the commit of the user’s repository around it', async () => {
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
    // the project around the package is a git repository (installPackedPackage): its commit is not
    // lexcase's; the package records the commit its dist/ was built from (dist/build-stamp.json), not 'unknown'
    const built = JSON.parse(readFileSync(join(pkg.dir, 'dist', 'build-stamp.json'), 'utf8')).gitSha;
    expect(built).toMatch(/^[0-9a-f]{40}(-dirty)?$/);
    const userSha = (await promisify(execFile)('git', ['rev-parse', 'HEAD'], { cwd: pkg.proj })).stdout.trim();
    expect(built).not.toContain(userSha);
    expect(cfg.provenance.gitSha).toBe(built);
    expect(cfg.resumes.at(-1).gitSha).toBe(built);
    expect(readFileSync(join(runDir, 'results.jsonl'), 'utf8').trim().split('\n')).toHaveLength(3);
    const shrunk = await run(1);
    expect(shrunk.code).toBe(1);
    expect(shrunk.stderr).toMatch(/leaves out 2 recorded items .*not shrink/);
  });
});

const noModel = await localModelUnavailable();
const skipped = noModel ? ` (skipped: ${noModel})` : '';

/**
 * Issue 42's done-when: `lexcase run <system> --llm-provider local --model-file tiny.gguf --limit 2`
 * from the installed package without the response cache. Every item ends as a result line with no
 * error and no failed structured step (the grammar makes every constrained answer schema-valid
 * whatever the weights: no LLM_OUTPUT_INVALID, no "could not be parsed"), the model was called, and
 * the requests recorded in the run dir (llm/<item>.jsonl) include structured ones (a JSON schema as
 * response_format, or tools). A `--replay` of it (no model needed) is byte-identical, `ms`
 * included — the system's own steps and the requests it sends reproduce. That the local model
 * answers a request the same way twice is the provider's property, not a system's: one system
 * (CASE) runs live a second time, configured by lexcase.config.json (llm.provider local,
 * llm.modelFile relative to the working directory) instead of the flags, and its results.jsonl is
 * compared byte for byte with the digits of each item's wall time (`ms`) masked; both runs record
 * the model's identity (sha256, GGUF metadata, runtime, seed) in config.json. A second live run of
 * every system took ~60 s of the slow tier.
 */
describe.skipIf(!!noModel)(`issue 42 from the installed package: the five systems on a local GGUF model${skipped}`, () => {
  const SYSTEM_ARGS: Record<string, string[]> = {
    case: ['--index', index],
    acal: ['--task', 'hearsay', '--index', index],
    mad: ['--index', index],
    emar: [],
    threeply: [],
  };
  const LIVE_TWICE = 'case';
  // 3-ply's plies are free text (no grammar constrains them): the random-weight model ends each at once
  // (an empty reply, 1 token), which is no ply — the triple fails (LLM_OUTPUT_INVALID), never an empty
  // argument scored (before 2026-12-01 it was scored); its run stops before any structured step
  const EMPTY_PLY = 'threeply';
  const env = () => ({ XDG_CACHE_HOME: join(work, 'xdg'), NO_COLOR: '1' });
  const maskMs = (b: Buffer) => b.toString('utf8').replace(/"ms":\d+/g, '"ms":_');
  /** Requests recorded in the run dir (llm/<item>.jsonl) that sent a JSON schema (response_format) or tools. */
  const structuredRequests = (runDir: string) =>
    readdirSync(join(runDir, 'llm'))
      .filter((f) => f.endsWith('.jsonl'))
      .flatMap((f) =>
        readFileSync(join(runDir, 'llm', f), 'utf8')
          .trim()
          .split('\n')
          .filter(Boolean),
      )
      .map((l) => (JSON.parse(l) as { request: { params: { response_format?: { type?: string }; tools?: unknown[] } } }).request.params)
      .filter((p) => p.response_format?.type === 'json_schema' || (p.tools?.length ?? 0) > 0).length;

  for (const system of Object.keys(SYSTEM_ARGS))
    it(`run ${system} --llm-provider local --model-file tiny.gguf --limit 2: 2 results, ${system === EMPTY_PLY ? "each failed on the random model's empty ply (exit 1), no failed structured step" : 'no error or failed structured step, structured requests sent'}, the model's identity recorded; --replay byte-identical${system === LIVE_TWICE ? '; a second run configured by lexcase.config.json llm.modelFile gives the same bytes but for ms' : ''}`, async () => {
      const model = join(pkg.proj, 'tiny.gguf');
      writeTinyGguf(model, SMALLEST_TINY_GGUF);
      const args = (runDir: string) => ['--json', 'run', system, ...SYSTEM_ARGS[system], '--limit', '2', '--no-cache', '--run-dir', join(work, runDir)];
      const live = (runDir: string) => lexcase([...args(runDir), '--llm-provider', 'local', '--model-file', 'tiny.gguf'], env());
      const a = await live(`local-${system}-a`);
      expect(a.code, a.stderr.slice(-2000)).toBe(system === EMPTY_PLY ? 1 : 0);
      if (system === EMPTY_PLY)
        expect(a.stderr).toMatch(/no item succeeded: 2 of 2 failed .*the plaintiff ply could not be parsed: the reply holds no text besides any reasoning/);
      const results = (runDir: string) => readFileSync(join(work, runDir, 'results.jsonl'));
      const ra = results(`local-${system}-a`);
      const recs = ra
        .toString('utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { error?: string; stepFailures?: unknown; tokens?: { calls: number; cached: number } });
      expect(recs).toHaveLength(2);
      for (const rec of recs) {
        if (system === EMPTY_PLY) expect(rec.error, JSON.stringify(rec)).toMatch(/the plaintiff ply could not be parsed: the reply holds no text/);
        else expect(rec.error, JSON.stringify(rec)).toBeUndefined();
        // a random-weight model's replies: the steps recorded as failed for what a schema-valid reply can be
        const { [SCHEMA_VALID_FAILURES[0]]: _a, [SCHEMA_VALID_FAILURES[1]]: _b, ...structured } = (rec.stepFailures ?? {}) as Record<string, number>;
        expect(structured, JSON.stringify(rec)).toEqual({});
        expect(rec.tokens!.calls).toBeGreaterThan(0);
        expect(rec.tokens!.cached).toBe(0);
        // CASE: an advocate per option, then the jury
        if (system === 'case') expect(rec.tokens!.calls).toBeGreaterThan(3);
      }
      if (system !== EMPTY_PLY) expect(structuredRequests(join(work, `local-${system}-a`)), 'requests with a JSON schema or tools').toBeGreaterThan(0);
      const cfg = JSON.parse(readFileSync(join(work, `local-${system}-a`, 'config.json'), 'utf8')).config;
      expect(JSON.stringify(cfg)).toMatch(/"model":"tiny\.gguf@sha256:[0-9a-f]{16}"/);
      expect(JSON.stringify(cfg)).toContain('"architecture":"llama"');
      const rep = await lexcase([...args(`local-${system}-replay`), '--replay', join(work, `local-${system}-a`)], env());
      expect(rep.code, rep.stderr.slice(-2000)).toBe(system === EMPTY_PLY ? 1 : 0);
      expect(results(`local-${system}-replay`).equals(ra)).toBe(true);
      if (system === LIVE_TWICE) {
        // the second live run takes the model from lexcase.config.json (no --llm-provider, no --model-file)
        const config = join(pkg.proj, 'lexcase.config.json');
        writeFileSync(config, JSON.stringify({ llm: { provider: 'local', modelFile: './tiny.gguf' } }));
        try {
          const b = await lexcase(args(`local-${system}-b`), env());
          expect(b.code, b.stderr.slice(-2000)).toBe(0);
        } finally {
          rmSync(config);
        }
        expect(maskMs(results(`local-${system}-b`))).toBe(maskMs(ra));
        const sha = createHash('sha256').update(readFileSync(model)).digest('hex');
        for (const runDir of [`local-${system}-a`, `local-${system}-b`]) {
          const m = JSON.parse(readFileSync(join(work, runDir, 'config.json'), 'utf8')).config.model;
          expect(m, runDir).toMatchObject({ provider: 'local', modelFile: model, model: `tiny.gguf@sha256:${sha.slice(0, 16)}`, seed: 0 });
          expect(m.local, runDir).toMatchObject({
            sha256: sha,
            gguf: { architecture: 'llama', quantization: 'ALL_F32', chatWrapper: 'ChatML' },
            runtime: { gpu: false, batchSize: 512 },
            sampling: { seed: 0 },
          });
        }
      }
    }, 600_000);

  const HYPOTHESIS = 'An out-of-court statement offered for its truth is hearsay';
  const llmEvidence = (ev: Record<string, unknown>) => {
    expect(ev.mode, JSON.stringify(ev)).toBe('llm');
    expect(ev.tokens).toBeGreaterThan(0);
    expect(Array.isArray(ev.evidence)).toBe(true);
  };

  it('serve --api --model-file tiny.gguf: POST /v1/evidence in mode "llm" runs the CASE advocate on the local model', async () => {
    writeTinyGguf(join(pkg.proj, 'tiny.gguf'), SMALLEST_TINY_GGUF);
    const s = await startServerChild(['serve', '--api', '--index', index, '--port', '0', '--model-file', 'tiny.gguf', '--no-cache'], {
      cli: pkg.cli,
      cwd: pkg.proj,
      env: env(),
      timeoutMs: 240_000,
    });
    try {
      expect(s.info.llm).toBe(true);
      const res = await fetch(`${s.info.url}/evidence`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ hypothesis: HYPOTHESIS, k: 2, mode: 'llm' }),
      });
      const body = (await res.json()) as Record<string, unknown>;
      expect(res.status, JSON.stringify(body)).toBe(200);
      llmEvidence(body);
    } finally {
      await s.stop();
    }
  }, 300_000);

  it('mcp --model-file tiny.gguf (stdio, the SDK client): find_evidence in mode "llm" runs the CASE advocate on the local model', async () => {
    writeTinyGguf(join(pkg.proj, 'tiny.gguf'), SMALLEST_TINY_GGUF);
    const m = await stdioMcp(['--index', index, '--model-file', 'tiny.gguf', '--no-cache'], { cli: pkg.cli, cwd: pkg.proj, env: env() });
    try {
      const listed = await m.client.callTool({ name: 'list_indexes', arguments: {} });
      expect((listed.structuredContent as { llm: boolean }).llm).toBe(true);
      const r = await m.client.callTool({ name: 'find_evidence', arguments: { hypothesis: HYPOTHESIS, k: 2, mode: 'llm' } });
      expect(r.isError, JSON.stringify(r.content) + m.stderr()).toBeFalsy();
      llmEvidence(r.structuredContent as Record<string, unknown>);
    } finally {
      await m.close();
    }
  }, 300_000);
});
