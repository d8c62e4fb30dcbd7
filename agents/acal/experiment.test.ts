/**
 * The offline path: `runAcal` on real LegalBench hearsay items, a real BM25 index built from
 * bundled legal_corpus passages, and the real ChatOpenAI client talking to the scripted server.
 */
import { copyFileSync, existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadLegalBenchTask } from '../../corpora/legalbench.js';
import { loadPassages } from '../../corpora/registry.js';
import type { Passage } from '../../corpora/types.js';
import { buildIndex } from '../../indexer/build.js';
import { closeSparseIndexes } from '../../retrieval/open.js';
import { llmConfigSchema } from '../../core/config.js';
import { createChatModel } from '../../core/llm/factory.js';
import { runCli } from '../../tests/support/run-cli.js';
import { startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { contest } from './contest/contest.js';
import { readGraph } from './graph/store.js';
import { runAcal } from './experiment.js';
import { cueOf, scriptedArena } from './test-support/scripted-arena.js';
import '../systems.js'; // the system list hands itself to eval: the report finds each system's section

let dir: string;
let srv: ScriptedServer;
const index = () => join(dir, 'idx');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'acal-run-'));
  const passages: Passage[] = [];
  let n = 0;
  for await (const p of loadPassages('legal_corpus')) {
    if (/hearsay/i.test(p.text) || n < 200) passages.push(p);
    n++;
  }
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out: index(), corpusName: 'acal-test', methods: ['bm25'], workers: 0 },
  );
  srv = await startScriptedServer(scriptedArena());
}, 60_000);

afterAll(async () => {
  await srv.close();
  await closeSparseIndexes();
  rmSync(dir, { recursive: true, force: true });
});

const llm = () => createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'scripted', cacheDir: false, maxRetries: 0, timeoutMs: 5000 }));
const userOf = (r: { body: { messages: { role: string; content: string }[] } }) => r.body.messages.find((m) => m.role === 'user')!.content;

describe('runAcal on LegalBench hearsay (scripted server, real index)', () => {
  it('a -k over the retrieval tool\'s 50 passages a search is refused before any item, naming -k and the limit (it failed every item with "Received tool input did not match expected schema")', async () => {
    const runDir = join(dir, 'run-acal-k60');
    const before = srv.requests.length;
    await expect(runAcal({ task: 'hearsay', runDir, llm: llm(), limit: 2, indexDir: index(), k: 60, iterations: 200 })).rejects.toThrow(
      'invalid -k: 60 passages a search, but the retrieval tools return at most 50 passages a search: give 50 or fewer',
    );
    expect(srv.requests.length).toBe(before);
    expect(existsSync(join(runDir, 'results.jsonl'))).toBe(false);
  });

  it('a limit or k `run acal` refuses is refused by runAcal before any item (before: limit -1 ran every item but the last, k -2 ran and recorded -2, rag with k 0 showed no passage)', async () => {
    const before = srv.requests.length;
    const run = (name: string, o: { limit?: number; k?: number; system?: 'rag' | 'acal' }) =>
      runAcal({ task: 'hearsay', runDir: join(dir, name), llm: llm(), indexDir: index(), iterations: 200, system: 'rag', ...o });
    await expect(run('limit-neg', { limit: -1 })).rejects.toThrow('invalid limit: must be a positive integer, got -1');
    await expect(run('limit-frac', { limit: 2.5 })).rejects.toThrow('invalid limit: must be a positive integer, got 2.5');
    await expect(run('limit-zero', { limit: 0 })).rejects.toThrow('invalid limit: must be a positive integer, got 0');
    await expect(run('k-neg', { limit: 1, k: -2 })).rejects.toThrow('invalid k: must be 0 or a positive integer, got -2');
    await expect(run('k-zero-rag', { limit: 1, k: 0 })).rejects.toThrow('the RAG baseline retrieves its k passages an item: -k 0 retrieves none');
    expect(srv.requests.length).toBe(before);
    for (const name of ['limit-neg', 'limit-frac', 'limit-zero', 'k-neg', 'k-zero-rag']) expect(existsSync(join(dir, name, 'results.jsonl'))).toBe(false);
  });

  it('acal with k 0 and an index searches nothing, as `run acal -k 0`: no index opened or recorded, a warning', async () => {
    const runDir = join(dir, 'run-acal-k0');
    const warn = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const r = await runAcal({ task: 'hearsay', runDir, llm: llm(), limit: 1, indexDir: index(), k: 0, iterations: 200 });
    const said = warn.mock.calls.map((c) => String(c[0])).join('');
    warn.mockRestore();
    expect(r.ran).toBe(1);
    expect(said).toContain('-k 0: no retrieved evidence; arguments are grounded in the case text only');
    const cfg = JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8')).config;
    expect(cfg).toMatchObject({ k: 0, index: null, tools: [] });
    expect(cfg).not.toHaveProperty('indexContent');
  }, 60_000);

  it('writes results, a graph per item and a report with CIs; the verdicts follow the scripted judgement; resume skips done items', async () => {
    const items = (await loadLegalBenchTask('hearsay')).slice(0, 8);
    const runDir = join(dir, 'run-acal');
    const before = srv.requests.length;
    const r = await runAcal({ task: 'hearsay', runDir, llm: llm(), limit: 8, indexDir: index(), iterations: 200 });
    expect(r.results).toHaveLength(8);
    for (const it of items) {
      const g = readGraph(runDir, it.id);
      const want = cueOf(it.text) === 'support' ? 'Yes' : 'No';
      expect(g.result!.verdict).toBe(want);
      expect(r.results.find((x) => x.id === it.id)!.prediction).toBe(want);
      // evidence came through the bm25_search tool from the index and was cited by the agents
      expect(g.evidence.length).toBe(5);
      expect(g.arguments.some((a) => a.citedPassageIds.length > 0)).toBe(true);
    }
    const expectedAcc = items.filter((it) => (cueOf(it.text) === 'support' ? 'Yes' : 'No') === it.label).length / 8;
    expect(r.metrics.accuracy.estimate).toBeCloseTo(expectedAcc, 12);
    expect(r.metrics.accuracy.lo).toBeLessThanOrEqual(expectedAcc);
    const md = readFileSync(r.reportMd, 'utf8');
    // 8 items: accuracy with its Wilson interval; the macro figures (bootstrap) say n < 10
    expect(md).toMatch(/\| acal +\| +8 \| +\d+\.\d% \[\d+\.\d, \d+\.\d\] \| +\d+\.\d% \(n < 10\) \|/);
    expect(md).toMatch(/Non-assertive conduct/);
    expect(JSON.parse(readFileSync(r.reportJson, 'utf8')).config).toMatchObject({ system: 'acal/acal', semantics: 'quadratic', tools: ['bm25_search'] });
    // the generic report carries the ACAL section with the same figures
    const generic = JSON.parse(readFileSync(join(runDir, 'report.json'), 'utf8'));
    expect(JSON.stringify(generic)).toContain('"macroF1"');
    expect(readFileSync(join(runDir, 'report.md'), 'utf8')).toMatch(/ACAL metrics/);
    const trace = JSON.parse(readFileSync(join(runDir, 'traces', `${items[0].id}.json`), 'utf8'));
    expect(trace).toMatchObject({ system: 'acal', evidenceTool: 'bm25_search' });
    // no prompt ever carries the gold label field
    for (const q of srv.requests.slice(before)) expect(userOf(q)).not.toMatch(/"answer":\s*"(Yes|No)"|gold/i);

    // a reader holding the first acal-report.md|json (a hard link) keeps it whole while the resume rewrites it:
    // the reports are replaced by rename, never truncated and written in place (a kill mid-write left a torn report)
    const held = { md: join(dir, 'held-acal-report.md'), json: join(dir, 'held-acal-report.json') };
    linkSync(r.reportMd, held.md);
    linkSync(r.reportJson, held.json);
    const again = await runAcal({ task: 'hearsay', runDir, llm: llm(), limit: 8, indexDir: index(), iterations: 200 });
    expect(again.skipped).toBe(8);
    expect(again.ran).toBe(0);
    expect(statSync(again.reportMd).ino).not.toBe(statSync(held.md).ino);
    expect(statSync(again.reportJson).ino).not.toBe(statSync(held.json).ino);
    expect(readFileSync(held.md, 'utf8')).toBe(md);
    expect(readdirSync(runDir).filter((n) => n.includes('.tmp-'))).toEqual([]);

    // contest the saved graph of a run item: the verdict recomputes and the audit log records it
    const id = items[0].id;
    const g0 = readGraph(runDir, id);
    const strongest = g0.arguments.filter((a) => a.side === (g0.result!.verdict === 'Yes' ? 'support' : 'attack'));
    let last;
    for (const a of strongest) last = contest(runDir, id, { type: 'reject', argument: a.id }, { who: 't' });
    expect(last!.graph.result!.verdict).not.toBe(g0.result!.verdict);
    expect(existsSync(join(runDir, 'acal', 'audit.jsonl'))).toBe(true);
  });

  it('runs the SP, CoT and RAG baselines through the same runner', async () => {
    for (const system of ['sp', 'cot', 'rag'] as const) {
      const runDir = join(dir, `run-${system}`);
      const r = await runAcal({ task: 'hearsay', runDir, llm: llm(), system, limit: 4, indexDir: index(), iterations: 100 });
      expect(r.results.map((x) => x.prediction).every((p) => p === 'Yes' || p === 'No')).toBe(true);
      expect(readFileSync(r.reportMd, 'utf8')).toMatch(new RegExp(`\\| ${system} +\\| +4 \\|`));
      // one naming scheme: the baseline is a variant of ACAL (`acal/<baseline>`), and the run's report gets ACAL's section
      expect(JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8')).config.system).toBe(`acal/${system}`);
      expect(readFileSync(join(runDir, 'report.md'), 'utf8')).toMatch(/ACAL metrics/);
    }
    const sp = srv.requests.filter((q) => userOf(q).startsWith('TASK: answer the legal classification question directly'));
    expect(userOf(sp[0])).toContain('EXAMPLES:'); // few-shot demonstrations from the train split
    // config.json says which examples sp and cot showed: the five hearsay train rows, by id
    const train = (await loadLegalBenchTask('hearsay', { split: 'train' })).map((x) => x.id);
    for (const system of ['sp', 'cot'])
      expect(JSON.parse(readFileSync(join(dir, `run-${system}`, 'config.json'), 'utf8')).config.fewShot).toEqual({ split: 'train', count: 5, ids: train });
    expect(JSON.parse(readFileSync(join(dir, 'run-rag', 'config.json'), 'utf8')).config).not.toHaveProperty('fewShot');
    const rag = srv.requests.filter((q) => userOf(q).startsWith('TASK: answer the legal classification question using the retrieved evidence'));
    expect(rag).toHaveLength(4);
    expect(userOf(rag[0])).toMatch(/EVIDENCE:\n\[/);
  });

  it('refuses sp and cot on the train split, where each item would see its own row and gold label among the examples; nothing is asked', async () => {
    const before = srv.requests.length;
    for (const system of ['sp', 'cot'] as const) {
      const runDir = join(dir, `run-${system}-train`);
      await expect(runAcal({ task: 'hearsay', runDir, llm: llm(), system, split: 'train', iterations: 100 })).rejects.toThrow(
        new RegExp(`--system ${system} on --split train would show each item its own row and gold label`),
      );
      expect(existsSync(join(runDir, 'results.jsonl'))).toBe(false);
    }
    expect(srv.requests.length).toBe(before);
  });

  it('records the index content: a resume over the same --index path rebuilt from another corpus is refused (field "indexContent" differs)', async () => {
    const other = join(dir, 'idx-rebuilt');
    const build = async (skip: number) => {
      await closeSparseIndexes();
      rmSync(other, { recursive: true, force: true });
      const passages: Passage[] = [];
      let n = 0;
      for await (const p of loadPassages('legal_corpus')) if (n++ >= skip && passages.length < 200) passages.push(p);
      await buildIndex(
        (async function* () {
          yield* passages;
        })(),
        { out: other, corpusName: 'legal_corpus', methods: ['bm25'], workers: 0 },
      );
    };
    const runDir = join(dir, 'run-rag-rebuilt');
    const run = (limit: number) => runAcal({ task: 'hearsay', runDir, llm: llm(), system: 'rag', limit, indexDir: other, iterations: 100 });
    await build(0);
    await run(2);
    const cfg = JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8')).config;
    const manifest = JSON.parse(readFileSync(join(other, 'manifest.json'), 'utf8'));
    expect(cfg.indexContent).toMatchObject({ corpus: 'legal_corpus', checksum: manifest.corpus.checksum, passages: 200 });
    await build(1000); // other passages of the corpus, at the same path
    await expect(run(4)).rejects.toMatchObject({ code: 'RUN_INVALID', message: expect.stringMatching(/field "indexContent" differs/) });
  });

  it('--passage-chars: acal and rag show each passage cut at that length, config.json records it, and a resume with another length is refused', async () => {
    // the passages a request shows (a passage may hold single newlines; sections are split by blank lines)
    const evidenceLines = (q: { body: { messages: { role: string; content: string }[] } }) => {
      const block = /\nEVIDENCE[^\n]*:\n([\s\S]*?)(?:\n\n|$)/.exec(userOf(q))?.[1];
      return block ? block.split(/\n(?=\[P\d+\] )/) : [];
    };
    // the default: 700 characters (the paper gives none), recorded
    const before = srv.requests.length;
    const rag = join(dir, 'run-rag-chars');
    await runAcal({ task: 'hearsay', runDir: rag, llm: llm(), system: 'rag', limit: 1, indexDir: index(), iterations: 100 });
    expect(JSON.parse(readFileSync(join(rag, 'config.json'), 'utf8')).config.passageChars).toBe(700);
    const shown = srv.requests.slice(before).flatMap(evidenceLines);
    expect(shown).toHaveLength(5);
    expect(shown.some((l) => l.endsWith('…'))).toBe(true); // most legal_corpus passages are longer
    for (const l of shown) expect(l.replace(/^\[P\d+\] /, '').replace(/…$/, '').length).toBeLessThanOrEqual(700);

    // --passage-chars 3000: the whole passages; another length over the same run dir is refused, nothing run
    const whole = join(dir, 'run-rag-chars-3000');
    const at = srv.requests.length;
    await runAcal({ task: 'hearsay', runDir: whole, llm: llm(), system: 'rag', limit: 1, indexDir: index(), iterations: 100, passageChars: 3000 });
    const long = srv.requests.slice(at).flatMap(evidenceLines);
    expect(long.some((l) => l.length > 800 && !l.endsWith('…'))).toBe(true);
    expect(JSON.parse(readFileSync(join(whole, 'config.json'), 'utf8')).config.passageChars).toBe(3000);
    const n = srv.requests.length;
    await expect(runAcal({ task: 'hearsay', runDir: whole, llm: llm(), system: 'rag', limit: 2, indexDir: index(), iterations: 100 })).rejects.toMatchObject({
      code: 'RUN_INVALID',
      message: expect.stringMatching(/field "passageChars" differs/),
    });
    expect(srv.requests.length).toBe(n);

    // the arena: every stage that shows the evidence cuts it at the length asked for
    const arena = join(dir, 'run-acal-chars');
    const from = srv.requests.length;
    await runAcal({ task: 'hearsay', runDir: arena, llm: llm(), limit: 1, indexDir: index(), iterations: 100, passageChars: 120 });
    const arenaLines = srv.requests.slice(from).flatMap(evidenceLines);
    expect(arenaLines.length).toBeGreaterThan(5);
    for (const l of arenaLines) expect(l.replace(/^\[P\d+\] /, '').replace(/…$/, '').length).toBeLessThanOrEqual(120);
    expect(JSON.parse(readFileSync(join(arena, 'config.json'), 'utf8')).config).toMatchObject({ system: 'acal/acal', passageChars: 120 });
  });

  it('rag and acal traces mark each evidence passage the prompts cut at --passage-chars (evidenceCut, cutFrom) and report.md counts them', async () => {
    const evidenceLines = (q: { body: { messages: { role: string; content: string }[] } }) => {
      const block = /\nEVIDENCE[^\n]*:\n([\s\S]*?)(?:\n\n|$)/.exec(userOf(q))?.[1];
      return block ? block.split(/\n(?=\[P\d+\] )/) : [];
    };
    for (const [system, passageChars] of [
      ['rag', 700],
      ['acal', 120],
    ] as const) {
      const runDir = join(dir, `run-${system}-evidence-cut`);
      const before = srv.requests.length;
      await runAcal({ task: 'hearsay', runDir, llm: llm(), system, limit: 2, indexDir: index(), iterations: 100, passageChars });
      const shown = srv.requests.slice(before).map((q) => userOf(q));
      const results = readFileSync(join(runDir, 'results.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));
      const traces = results.map(({ id }) => JSON.parse(readFileSync(join(runDir, 'traces', `${id}.json`), 'utf8')));
      const ids = new Set(traces.flatMap((t) => t.evidenceIds as string[]));
      const text = new Map<string, string>();
      for await (const p of loadPassages('legal_corpus')) if (ids.has(p.id)) text.set(p.id, p.text);
      let passages = 0;
      let cut = 0;
      let cutItems = 0;
      for (const t of traces) {
        expect(t.passageChars).toBe(passageChars);
        const marked = new Map((t.evidenceCut as { id: string; cutFrom: number }[]).map((e) => [e.id, e.cutFrom]));
        for (const id of t.evidenceIds as string[]) {
          // what the model received, against the source passage
          const whole = text.get(id)!;
          expect([id, shown.some((u) => u.includes(whole))]).toEqual([id, whole.length <= passageChars]);
          expect([id, marked.get(id)]).toEqual([id, whole.length > passageChars ? whole.length : undefined]);
        }
        passages += t.evidenceIds.length;
        cut += marked.size;
        if (marked.size) cutItems++;
      }
      expect(cut).toBeGreaterThan(0);
      expect(shown.flatMap((u) => evidenceLines({ body: { messages: [{ role: 'user', content: u }] } })).length).toBeGreaterThan(0);
      expect(readFileSync(join(runDir, 'report.md'), 'utf8')).toContain(
        `**${cut} of ${passages} evidence passages** (in ${cutItems} of ${results.length} items) **were cut to their first ${passageChars} characters** for the prompts`,
      );
      expect(JSON.stringify(JSON.parse(readFileSync(join(runDir, 'report.json'), 'utf8')))).toContain(
        `"evidenceCut":{"passages":${passages},"cut":${cut},"items":${results.length},"cutItems":${cutItems},"passageChars":${passageChars}}`,
      );
      // a trace written before the count (no passageChars, no evidenceCut) is said to be uncounted, never counted as shown whole
      const file = join(runDir, 'traces', `${results[1].id}.json`);
      const t = JSON.parse(readFileSync(file, 'utf8'));
      delete t.passageChars;
      delete t.evidenceCut;
      writeFileSync(file, JSON.stringify(t));
      expect((await runCli(['report', runDir])).code).toBe(0);
      expect(readFileSync(join(runDir, 'report.md'), 'utf8')).toContain(
        "1 item's trace is from before lexcase counted passages cut for the prompt: not in this count (their cuts are unknown).",
      );
    }
  });

  const userDir = join(import.meta.dirname, '../../tests/fixtures/legalbench-user');
  it('refuses sp/cot without the train rows, and names the file, line and field of a malformed train row (no silent zero-shot run)', async () => {
    // the layout corpora/data/legalbench/SOURCE.md documents: the test file only
    const testOnly = join(dir, 'lhc-test-only');
    mkdirSync(testOnly);
    copyFileSync(join(userDir, 'learned_hands_courts.test.jsonl'), join(testOnly, 'learned_hands_courts.test.jsonl'));
    const before = srv.requests.length;
    const run = (data: string, system: 'sp' | 'cot') =>
      runAcal({
        task: 'learned_hands_courts',
        dataDir: data,
        runDir: join(dir, `run-${system}-${data.split('/').pop()}`),
        llm: llm(),
        system,
        iterations: 100,
      });
    for (const system of ['sp', 'cot'] as const)
      await expect(run(testOnly, system)).rejects.toThrow(
        new RegExp(`--system ${system} shows the task's train rows as few-shot examples, but LegalBench learned_hands_courts train data not found`),
      );
    const badTrain = join(dir, 'lhc-bad-train');
    mkdirSync(badTrain);
    copyFileSync(join(userDir, 'learned_hands_courts.test.jsonl'), join(badTrain, 'learned_hands_courts.test.jsonl'));
    const trainFile = join(badTrain, 'learned_hands_courts.train.jsonl');
    writeFileSync(trainFile, `${JSON.stringify({ index: '0', text: 'My landlord kept my deposit.', answer: 'no' })}\n`);
    await expect(run(badTrain, 'sp')).rejects.toThrow(`${trainFile}:1: field "answer" must be "Yes" or "No", got "no"`);
    expect(srv.requests.length).toBe(before);
  });

  it('runs learned_hands_courts from a user-supplied data directory (not bundled)', async () => {
    const runDir = join(dir, 'run-lhc');
    const r = await runAcal({ task: 'learned_hands_courts', dataDir: userDir, runDir, llm: llm(), limit: 2, indexDir: index(), iterations: 100 });
    expect(r.results.map((x) => x.id)).toEqual(['learned_hands_courts-test-0', 'learned_hands_courts-test-1']);
    expect(readGraph(runDir, 'learned_hands_courts-test-0').claim.text).toMatch(/logistics of interacting with a lawyer or the court system/);
    // the query it searched with: the task's terms and the whole post (no cut)
    expect(JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8')).config.evidenceQuery).toBe('court procedure filing lawsuit hiring a lawyer {text}');
    expect(readFileSync(r.reportMd, 'utf8')).toMatch(/CC BY-NC-SA 4.0/);
  });
});
