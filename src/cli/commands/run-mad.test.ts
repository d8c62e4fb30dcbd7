/**
 * `lexcase run mad` in-process on a small real index (gold passages of the first val questions +
 * legal_corpus distractors) with the real OpenAI client against the scripted server: a debate run
 * with traces and metrics, resume, the baselines, `lexcase compare` between MAD and a baseline,
 * consistency across seeds, a 10-option MMLU-Pro law question, and the no-LLM / --offline stops.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadPassages, loadQuestions } from '../../../corpora/registry.js';
import type { Passage, Question } from '../../../corpora/types.js';
import { buildIndex } from '../../../indexer/build.js';
import { closeSparseIndexes } from '../../../retrieval/open.js';
import { briefReply, debaterLetter, humanText, judgeReply, roleOf, roundOf } from '../../../agents/mad/test-support/script.js';
import { startScriptedServer, type RecordedRequest, type ScriptReply, type ScriptedServer } from '../../../tests/support/scripted-openai-server.js';
import { runCli } from '../../../tests/support/run-cli.js';
import { PACKAGE_ROOT } from '../../../core/version.js';
import { runUnresolvedCitations, unresolvedCitationsText } from '../../../eval/run-counts.js';

const cli = (...args: string[]) => runCli(args);

const LLM_VARS = ['LEXCASE_LLM_BASE_URL', 'OPENAI_BASE_URL', 'LEXCASE_LLM_MODEL', 'LEXCASE_LLM_API_KEY', 'OPENAI_API_KEY'];
let dir: string;
let index: string;
let val: Question[];
let goldText: Map<string, string>;
let srv: ScriptedServer;

/** Debaters brief, the judge picks the gold answer of the question in the prompt, the analyst answers A. */
function script(req: RecordedRequest): ScriptReply {
  const role = roleOf(req);
  if (role === 'debater') {
    // cite the first authority of the pool, with a claim paraphrasing its opening words
    const first = /\n\[([^\]\n]+)\] ([^\n]+)/.exec(humanText(req));
    if (!first) return briefReply(debaterLetter(req), roundOf(req));
    const r = roundOf(req);
    const claim = first[2].split(/\s+/).slice(0, 14).join(' ');
    return {
      content: JSON.stringify({
        ...(r > 1 ? { rebuttal: 'fails' } : {}),
        argument: `ARG-${debaterLetter(req)}-r${r}`,
        claims: [{ text: claim, cites: [first[1]] }],
      }),
    };
  }
  if (role === 'judge') {
    const q = val.find((x) => req.text.includes(JSON.stringify(x.question).slice(1, 60)));
    return judgeReply(q?.answer ?? 'A');
  }
  if (role === 'analyst')
    return { content: JSON.stringify({ reasoning: 'r', answer: 'A', claims: [{ text: 'A claim about negligence duty', cites: ['nonexistent_id'] }] }) };
  return { status: 500, error: 'unexpected request' };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-run-mad-'));
  index = join(dir, 'idx');
  val = (await loadQuestions('barexam', 'val')).slice(0, 2);
  const gold = new Set(val.flatMap((q) => q.goldPassageIds));
  const passages: Passage[] = [];
  goldText = new Map();
  for await (const p of loadPassages('barexam')) if (gold.has(p.id)) passages.push(p), goldText.set(p.id, p.text);
  let n = 0;
  for await (const p of loadPassages('legal_corpus')) if (n++ < 200) passages.push(p);
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out: index, corpusName: 'test', workers: 0 },
  );
  srv = await startScriptedServer(script);
}, 60_000);

afterAll(async () => {
  await srv?.close();
  await closeSparseIndexes();
  rmSync(dir, { recursive: true, force: true });
});

afterEach(() => vi.unstubAllEnvs());

const noLlm = () => LLM_VARS.forEach((v) => vi.stubEnv(v, undefined as unknown as string));
function useScriptedLlm() {
  noLlm();
  vi.stubEnv('LEXCASE_LLM_BASE_URL', srv.url);
  vi.stubEnv('LEXCASE_LLM_MODEL', 'scripted');
  vi.stubEnv('LEXCASE_LLM_RETRY_BASE_MS', '1');
}
const lines = (f: string) => readFileSync(f, 'utf8').split('\n').filter(Boolean);

describe('lexcase run mad', () => {
  it('--method BM25 names the closest method ("bm25"), not "rebuild with --methods BM25", and sends no request', async () => {
    useScriptedLlm();
    const before = srv.requests.length;
    const runDir = join(dir, 'mad-bad-method');
    const r = await cli('run', 'mad', '--index', index, '--limit', '1', '--method', 'BM25', '--run-dir', runDir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('method "BM25" is not a lexcase retrieval method');
    expect(r.stderr).toContain('did you mean "bm25"?');
    expect(r.stderr).not.toContain('--methods BM25');
    expect(srv.requests.length).toBe(before);
    expect(existsSync(runDir)).toBe(false);
  });

  it('debates each question, writes results, transcript traces and metrics, and resumes without new requests', async () => {
    useScriptedLlm();
    const runDir = join(dir, 'mad');
    const before = srv.requests.length;
    const r = await cli(
      '--json',
      'run',
      'mad',
      '--index',
      index,
      '--limit',
      '2',
      '--rounds',
      '2',
      '--topology',
      'full',
      '-k',
      '2',
      '--run-dir',
      runDir,
      '--no-cache',
    );
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({ ran: 2, skipped: 0, failed: 0 });
    expect(j.metrics.accuracy.estimate).toBe(1);
    expect(j.metrics.checklist.mean).toBe(4);
    expect(j.metrics.citations.exist).toEqual({ mean: 1, n: 2 });
    expect(j.metrics.citations.supportive).toEqual({ mean: 1, n: 2 });
    expect(j.metrics.citations.seen).toEqual({ mean: 1, n: 2 });
    // 2 questions × (4 openings + 4 rebuttals + 1 judge); the scripted debaters make no snippet requests
    expect(srv.requests.length - before).toBe(18);
    expect(lines(join(runDir, 'results.jsonl'))).toHaveLength(2);
    const t = JSON.parse(readFileSync(join(runDir, 'traces', `${val[0].id}.json`), 'utf8'));
    expect(t.rounds.map((x: any) => x.briefs.length)).toEqual([4, 4]);
    // debater A read its opponents' briefs in the seeded order recorded in the trace
    expect(t.rounds[1].briefs[0].saw.slice().sort()).toEqual(['B', 'C', 'D']);
    expect(t.presentation.find((p: { kind: string; at?: string }) => p.kind === 'opponent briefs' && p.at === 'A round 2').order).toEqual(
      t.rounds[1].briefs[0].saw,
    );
    expect(t.judge.rationale).toHaveLength(3);
    expect(t.pool.length).toBeGreaterThan(0);
    expect(existsSync(join(runDir, 'mad-metrics.md'))).toBe(true);
    const config = JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8')).config;
    expect(config).toMatchObject({ system: 'mad/mad', rounds: 2, topology: 'full', crossExaminer: false, k: 2, method: 'bm25' });
    // no prompt carries the answer key: gold passages appear only if retrieved into the pool
    for (const q of val) {
      const g = goldText.get(q.goldPassageIds[0])!.slice(0, 60);
      const trace = JSON.parse(readFileSync(join(runDir, 'traces', `${q.id}.json`), 'utf8'));
      const inPool = trace.pool.some((p: { id: string }) => q.goldPassageIds.includes(p.id));
      const reqs = srv.requests.slice(before).filter((x) => x.text.includes(JSON.stringify(q.question).slice(1, 60)));
      expect(reqs.some((x) => x.text.includes(JSON.stringify(g).slice(1, -1)))).toBe(inPool);
    }
    const again = await cli(
      '--json',
      'run',
      'mad',
      '--index',
      index,
      '--limit',
      '2',
      '--rounds',
      '2',
      '--topology',
      'full',
      '-k',
      '2',
      '--run-dir',
      runDir,
      '--no-cache',
    );
    expect(JSON.parse(again.stdout)).toMatchObject({ ran: 0, skipped: 2 });
    expect(srv.requests.length - before).toBe(18);
    // the report shows the MAD section: per-round figures and the checklist rates
    const rep = await cli('report', runDir, '--iterations', '200');
    expect(rep.code).toBe(0);
    const md = readFileSync(join(runDir, 'report.md'), 'utf8');
    expect(md).toContain('MAD metrics');
    expect(md).toMatch(/\| 1 +\| +8 \| +0 \| +0 \| +8 \| +100\.0% \|/);
    expect(md).toMatch(/\| 2 +\| +8 \| +0 \| +0 \| +8 \| +100\.0% \|/);
    expect(md).toContain('opponent_addressed 0.0%');
  }, 60_000);

  it("a resume that adds items rewrites report.md and report.json from the whole run dir (before: run mad wrote none, so `lexcase report`'s n = 1 stayed beside 2 items)", async () => {
    useScriptedLlm();
    const runDir = join(dir, 'mad-grow-report');
    const run = (limit: string) =>
      cli('--json', 'run', 'mad', '--index', index, '--limit', limit, '--rounds', '1', '-k', '2', '--run-dir', runDir, '--no-cache');
    expect((await run('1')).code).toBe(0);
    // the first run writes its report, as every other system's run does
    const accuracy = () => JSON.parse(readFileSync(join(runDir, 'report.json'), 'utf8')).sections.accuracy;
    expect(accuracy()).toMatchObject({ n: 1, accuracy: 1 });
    expect((await cli('report', runDir)).code).toBe(0);
    expect(readFileSync(join(runDir, 'report.md'), 'utf8')).toMatch(/\| accuracy \| +1 \| +100\.0% \[20\.7, 100\.0\] \|/);
    const grown = await run('2');
    expect(JSON.parse(grown.stdout)).toMatchObject({ ran: 1, skipped: 1 });
    // 2 of 2 correct: Wilson [34.2, 100.0] (scipy: proportion_confint(2, 2, method="wilson"))
    expect(accuracy()).toMatchObject({ n: 2, accuracy: 1 });
    expect(readFileSync(join(runDir, 'report.md'), 'utf8')).toMatch(/\| accuracy \| +2 \| +100\.0% \[34\.2, 100\.0\] \|/);
  }, 60_000);

  it('baselines run on the same pool; `lexcase compare` pairs MAD with each; seeds give consistency', async () => {
    useScriptedLlm();
    const mad = join(dir, 'mad-sparse');
    expect((await cli('--json', 'run', 'mad', '--index', index, '--limit', '2', '--rounds', '1', '-k', '2', '--run-dir', mad, '--no-cache')).code).toBe(0);
    const single = join(dir, 'single');
    const rs = await cli('--json', 'run', 'mad', '--system', 'single-rag', '--index', index, '--limit', '2', '-k', '2', '--run-dir', single, '--no-cache');
    expect(rs.code).toBe(0);
    const js = JSON.parse(rs.stdout);
    expect(js.metrics.citations.exist).toEqual({ mean: 0, n: 2 }); // the analyst cites an id the index does not have
    const sc = join(dir, 'sc');
    const before = srv.requests.length;
    const scArgs = [
      '--json',
      'run',
      'mad',
      '--system',
      'self-consistency',
      '--samples',
      '3',
      '--index',
      index,
      '--limit',
      '2',
      '-k',
      '2',
      '--run-dir',
      sc,
      '--no-cache',
    ];
    const rsc = await cli(...scArgs);
    expect(rsc.code).toBe(0);
    expect(srv.requests.length - before).toBe(6);
    // self-consistency samples at temperature 0.7 unless configured (at 0 the samples would be identical)
    for (const r of srv.requests.slice(before)) expect(r.body.temperature).toBe(0.7);
    const scConfig = JSON.parse(readFileSync(join(sc, 'config.json'), 'utf8')).config;
    expect(scConfig.model).toMatchObject({ temperature: 0.7, paperDefaults: { system: 'self-consistency', fromPaper: [], lexcaseDefaults: ['temperature'] } });
    expect(scConfig.warnings).toBeUndefined();
    // the 0.7 given explicitly on a resume is what was sent: it resumes (it was refused on model.paperDefaults.lexcaseDefaults); 0.5 is refused naming both
    vi.stubEnv('LEXCASE_LLM_TEMPERATURE', '0.7');
    const again = await cli(...scArgs);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ ran: 0, skipped: 2 });
    vi.stubEnv('LEXCASE_LLM_TEMPERATURE', '0.5');
    const other = await cli(...scArgs);
    expect(other.code).not.toBe(0);
    expect(other.stderr).toContain('model.temperature 0.7 recorded, 0.5 now');
    expect(srv.requests.length - before).toBe(6);
    // a configured temperature 0 wins, and the degenerate vote is warned about on stderr and in config.json
    vi.stubEnv('LEXCASE_LLM_TEMPERATURE', '0');
    const sc0 = join(dir, 'sc0');
    const r0 = await cli(
      'run',
      'mad',
      '--system',
      'self-consistency',
      '--samples',
      '2',
      '--index',
      index,
      '--limit',
      '1',
      '-k',
      '2',
      '--run-dir',
      sc0,
      '--no-cache',
    );
    vi.stubEnv('LEXCASE_LLM_TEMPERATURE', '');
    expect(r0.code).toBe(0);
    expect(r0.stderr).toMatch(/self-consistency at temperature 0 draws 2 \(near-\)identical samples/);
    const sc0Config = JSON.parse(readFileSync(join(sc0, 'config.json'), 'utf8')).config;
    expect(sc0Config.model).toMatchObject({ temperature: 0, paperDefaults: { fromPaper: [] } });
    expect(sc0Config.warnings).toEqual([expect.stringMatching(/identical samples/)]);
    for (const base of [single, sc]) {
      const c = await cli('--json', 'compare', mad, base, '--iterations', '200');
      expect(c.code).toBe(0);
      const cj = JSON.parse(c.stdout);
      expect(cj.shared).toBe(2);
      // B − A (the baseline minus MAD) with the exact McNemar test; no interval on 2 items
      expect(cj.sign).toBe('B − A');
      expect(cj.primary).toMatchObject({ id: 'accuracy', n: 2, test: 'mcnemar-exact', lo: null, missing: 'n < 10' });
      expect(cj.primary.p).toBeGreaterThanOrEqual(0.5);
    }
    const seeds = await cli(
      '--json',
      'run',
      'mad',
      '--system',
      'single-rag',
      '--seeds',
      '1,2',
      '--index',
      index,
      '--limit',
      '2',
      '-k',
      '2',
      '--run-dir',
      join(dir, 'seeds'),
      '--no-cache',
    );
    expect(seeds.code).toBe(0);
    const sj = JSON.parse(seeds.stdout);
    expect(sj.runs.map((x: any) => x.runDir)).toEqual([join(dir, 'seeds-s1'), join(dir, 'seeds-s2')]);
    expect(sj.consistency).toMatchObject({ runs: 2, items: 2, pairwiseAgreement: 1, unanimous: 1 });
    expect(JSON.parse(readFileSync(join(dir, 'seeds-s1', 'consistency.json'), 'utf8')).seeds).toEqual([1, 2]);
    // each seed run's report.md has the consistency line, written after consistency.json (before: run mad wrote no report)
    for (const seed of [1, 2])
      expect(readFileSync(join(dir, `seeds-s${seed}`, 'report.md'), 'utf8')).toContain(
        'Consistency across 2 seeds (2 of 2 items answered in every run): pairwise agreement 100.0%, unanimous 100.0%',
      );
  }, 60_000);

  it('run mad counts the citations naming no handle shown as a recount of the accepted replies does (a refused brief counts none), and a gold id written out is not gold cited (before: "gold passage cited" 100%)', async () => {
    const q = val[0];
    const goldId = q.goldPassageIds[0];
    let refused = false;
    let recount = 0; // independently: each accepted reply's citations that are no "[Pn] " passage line of its request
    const shown = (req: RecordedRequest) => new Set([...humanText(req).matchAll(/^\[(P\d+)\] /gm)].map((m) => m[1]));
    const own = await startScriptedServer((req) => {
      const role = roleOf(req);
      if (role === 'judge') return judgeReply(q.answer);
      if (role !== 'debater') return { status: 500, error: 'unexpected request' };
      const letter = debaterLetter(req);
      const r = roundOf(req);
      const first = [...shown(req)][0];
      let cites = [first];
      if (letter === 'A' && r === 1 && !refused) {
        refused = true; // no argument: refused and asked again
        return { content: JSON.stringify({ claims: [{ text: 'x', cites: ['P1, P2'] }] }) };
      }
      if (letter === 'A' && r === 1) cites = ['P1 and P2', first];
      if (letter === q.answer) cites = [goldId]; // the gold passage's real id, which no prompt showed
      recount += cites.filter((c) => !shown(req).has(c)).length;
      return { content: JSON.stringify({ ...(r > 1 ? { rebuttal: 'fails' } : {}), argument: `ARG-${letter}-r${r}`, claims: [{ text: 'A claim', cites }] }) };
    });
    try {
      noLlm();
      vi.stubEnv('LEXCASE_LLM_BASE_URL', own.url);
      vi.stubEnv('LEXCASE_LLM_MODEL', 'scripted');
      const runDir = join(dir, 'mad-unresolved');
      const r = await cli('--json', 'run', 'mad', '--index', index, '--limit', '1', '--rounds', '2', '-k', '2', '--run-dir', runDir, '--no-cache');
      expect(r.code, r.stderr).toBe(0);
      expect(refused).toBe(true);
      const [res] = lines(join(runDir, 'results.jsonl')).map((l) => JSON.parse(l));
      expect(res.prediction).toBe(q.answer);
      expect(recount).toBeGreaterThan(1);
      expect(res.metrics.unresolvedCitations).toBe(recount);
      expect(res.metrics).toMatchObject({ goldCited: false, citationsExist: 0 });
      expect(JSON.parse(r.stdout).metrics.unresolvedCitations).toEqual({ citations: recount, items: 1 });
    } finally {
      await own.close();
    }
  }, 60_000);

  it("each run's summary prints the whole run's tokens, per seed (its own, not the whole call's), and after a resume with this call's 0", async () => {
    useScriptedLlm();
    const base = join(dir, 'tokens');
    const args = ['run', 'mad', '--system', 'single-rag', '--seeds', '1,2', '--index', index, '--limit', '2', '-k', '2', '--run-dir', base, '--no-cache'];
    const total = (seed: number) => lines(join(`${base}-s${seed}`, 'results.jsonl')).reduce((s, l) => s + JSON.parse(l).tokens.total, 0);
    const first = await cli(...args);
    expect(first.code, first.stderr).toBe(0);
    expect(total(1)).toBeGreaterThan(100);
    // before: "…-s1: ran 2, skipped 0 (already done), failed 0" and no token figure
    // the script's citations name no handle shown: the end line counts them after the tokens (run-counts.ts)
    const unresolved = (seed: number) => {
      const u = runUnresolvedCitations(lines(join(`${base}-s${seed}`, 'results.jsonl')).map((l) => JSON.parse(l)));
      return u.citations ? `; ${unresolvedCitationsText(u)}` : '';
    };
    for (const seed of [1, 2])
      expect(first.stdout).toContain(
        `${base}-s${seed}: ran 2, skipped 0 (already done), failed 0; tokens ${total(seed).toLocaleString('en-US')}${unresolved(seed)}\n`,
      );
    const again = await cli(...args);
    expect(again.code, again.stderr).toBe(0);
    for (const seed of [1, 2])
      expect(again.stdout).toContain(
        `${base}-s${seed}: ran 0, skipped 2 (already done), failed 0; tokens ${total(seed).toLocaleString('en-US')} (whole run; this call 0)`,
      );
    const j = JSON.parse((await cli('--json', ...args)).stdout);
    expect(j.runs.map((r: { runTokens: number; tokens: { total: number } }) => [r.runTokens, r.tokens.total])).toEqual([
      [total(1), 0],
      [total(2), 0],
    ]);
  }, 60_000);

  it('mad-metrics.md says which replies named another model and that the system_fingerprint changed, as report.md does (before: neither line)', async () => {
    // a router that answers with a smaller model, whose backend is reconfigured after the first request
    const routed = await startScriptedServer((req, i) => ({
      ...script(req),
      replyModel: 'llama-3.1-8b-instruct',
      systemFingerprint: i === 0 ? 'fp_44709d6fcb' : 'fp_b28b39ffa8',
    }));
    try {
      noLlm();
      vi.stubEnv('LEXCASE_LLM_BASE_URL', routed.url);
      vi.stubEnv('LEXCASE_LLM_MODEL', 'scripted');
      const runDir = join(dir, 'routed');
      const r = await cli('run', 'mad', '--system', 'single-rag', '--index', index, '--limit', '2', '-k', '2', '--run-dir', runDir, '--no-cache');
      expect(r.code, r.stderr).toBe(0);
      const md = readFileSync(join(runDir, 'mad-metrics.md'), 'utf8');
      expect(md).toContain('Replies named another model: llama-3.1-8b-instruct (2 of 2 LLM calls)');
      expect(md).toContain(
        "Replies carried 2 system_fingerprints: fp_44709d6fcb (1 of 2 LLM calls), fp_b28b39ffa8 (1 of 2 LLM calls) — the endpoint's backend configuration changed during the run",
      );
      const json = JSON.parse(readFileSync(join(runDir, 'mad-metrics.json'), 'utf8'));
      expect(json.replyModels).toMatchObject({ models: { 'llama-3.1-8b-instruct': 2 }, calls: 2 });
      expect(json.systemFingerprints).toMatchObject({ fingerprints: { fp_44709d6fcb: 1, fp_b28b39ffa8: 1 }, calls: 2 });
    } finally {
      await routed.close();
    }
  }, 60_000);

  it("records the Bar Exam QA file's path and sha256 in config.json, as LegalBench runs do (before: item checksums only)", async () => {
    useScriptedLlm();
    const runDir = join(dir, 'datafile');
    const r = await cli('run', 'mad', '--system', 'single-rag', '--index', index, '--limit', '1', '-k', '2', '--run-dir', runDir, '--no-cache');
    expect(r.code, r.stderr).toBe(0);
    const files = JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8')).config.dataFiles;
    expect(files).toEqual({
      val: { dataset: 'barexam', split: 'val', source: 'bundled', file: 'corpora/data/barexam/qa.jsonl.gz', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    expect(readFileSync(join(PACKAGE_ROOT, 'corpora', 'data', 'SHA256SUMS'), 'utf8')).toContain(`${files.val.sha256}  barexam/qa.jsonl.gz`);
  }, 60_000);

  it('MMLU-Pro law: one debater per option (up to 10)', async () => {
    useScriptedLlm();
    const q = (await loadQuestions('mmlu_pro_law', 'val'))[0];
    const before = srv.requests.length;
    const r = await cli(
      '--json',
      'run',
      'mad',
      '--dataset',
      'mmlu_pro_law',
      '--index',
      index,
      '--limit',
      '1',
      '--rounds',
      '1',
      '-k',
      '1',
      '--run-dir',
      join(dir, 'mmlu'),
      '--no-cache',
    );
    expect(r.code).toBe(0);
    const n = q.choices.filter((c) => c.trim()).length;
    expect(n).toBeGreaterThanOrEqual(3);
    expect(srv.requests.slice(before).filter((x) => roleOf(x) === 'debater')).toHaveLength(n);
  }, 60_000);

  it('a resume over the same --index path rebuilt from another corpus is refused (field "indexContent" differs): one run never mixes two corpora', async () => {
    useScriptedLlm();
    const idx2 = join(dir, 'idx-rebuilt');
    const build = async (corpus: string, n: number) => {
      await closeSparseIndexes();
      rmSync(idx2, { recursive: true, force: true });
      const passages: Passage[] = [];
      for await (const p of loadPassages(corpus)) if (passages.length < n) passages.push(p);
      await buildIndex(
        (async function* () {
          yield* passages;
        })(),
        { out: idx2, corpusName: corpus, workers: 0 },
      );
    };
    const run = (limit: string) =>
      cli('--json', 'run', 'mad', '--system', 'single-rag', '--index', idx2, '--limit', limit, '-k', '2', '--run-dir', join(dir, 'rebuilt'), '--no-cache');
    await build('barexam', 300);
    expect((await run('1')).code).toBe(0);
    await build('legal_corpus', 300);
    const r = await run('2');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /rebuilt: was started with a different config \(field "indexContent" differs: indexContent\.corpus "barexam" recorded, "legal_corpus" now; indexContent\.checksum\); use a new run dir/,
    );
    expect(lines(join(dir, 'rebuilt', 'results.jsonl'))).toHaveLength(1);
  }, 60_000);

  it('llm.seed is not what MAD sends: config.json records the per-role derived seeds and a warning (before it read only model.seed 7)', async () => {
    useScriptedLlm();
    vi.stubEnv('LEXCASE_LLM_SEED', '7');
    const runDir = join(dir, 'mad-llm-seed');
    const before = srv.requests.length;
    const r = await cli('run', 'mad', '--index', index, '--limit', '1', '--rounds', '1', '-k', '2', '--run-dir', runDir, '--no-cache');
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/\[warn\] llm\.seed \(7, from the config file or LEXCASE_LLM_SEED\) is not sent by MAD: .*--seed 13/);
    const sent = srv.requests.slice(before).map((x) => x.body.seed);
    expect(sent).toHaveLength(5); // 4 openings + the judge
    expect(sent).not.toContain(7);
    expect(new Set(sent).size).toBe(5);
    const config = JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8')).config;
    expect(config.model.seed).toBe(7);
    expect(config.requestSeeds).toMatch(/derived per item, role and call from the run seed.*llm\.seed is never sent/);
    expect(config.warnings).toContainEqual(expect.stringMatching(/^llm\.seed \(7, .*is not sent by MAD/));
  }, 60_000);

  it('a flag of another MAD system is said to be ignored (single-rag --rounds 3 --topology full ran one pass without a word)', async () => {
    useScriptedLlm();
    const runDir = join(dir, 'single-with-mad-flags');
    const r = await cli(
      'run',
      'mad',
      '--system',
      'single-rag',
      '--rounds',
      '3',
      '--topology',
      'full',
      '--samples',
      '4',
      '--index',
      index,
      '--limit',
      '1',
      '-k',
      '2',
      '--run-dir',
      runDir,
      '--no-cache',
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('[warn] --rounds is ignored: it applies to --system mad, not single-rag');
    expect(r.stderr).toContain('[warn] --topology is ignored: it applies to --system mad, not single-rag');
    expect(r.stderr).toContain('[warn] --samples is ignored: it applies to --system self-consistency, not single-rag');
    const config = JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8')).config;
    expect(config.rounds).toBeUndefined();
    expect(config.samples).toBeUndefined();
  });

  it('--seeds with a repeated seed (13,013) is refused naming it, before any request', async () => {
    useScriptedLlm();
    const before = srv.requests.length;
    const r = await cli('run', 'mad', '--index', index, '--limit', '1', '--seeds', '13,14,013', '--run-dir', join(dir, 'mad-dup-seeds'));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/invalid --seeds: "13" and "013" are both seed 13: .*give distinct seeds/);
    expect(srv.requests.length).toBe(before);
    expect(existsSync(join(dir, 'mad-dup-seeds-s13'))).toBe(false);
  });

  it('--seed beside --seeds is refused (it was dropped without a word: the runs recorded seeds 1 and 2)', async () => {
    useScriptedLlm();
    const before = srv.requests.length;
    const r = await cli('run', 'mad', '--index', index, '--limit', '1', '--seed', '7', '--seeds', '1,2', '--run-dir', join(dir, 'mad-seed-seeds'));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--seed 7 and --seeds 1,2: --seeds runs one run per seed, so --seed would be ignored/);
    expect(srv.requests.length).toBe(before);
    expect(existsSync(join(dir, 'mad-seed-seeds-s1'))).toBe(false);
  });

  it('stops at once without an LLM, and refuses --offline', async () => {
    noLlm();
    const r = await cli('run', 'mad', '--index', index, '--limit', '1', '--run-dir', join(dir, 'none'));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/LLM/);
    expect(existsSync(join(dir, 'none'))).toBe(false);
    const off = await cli('run', 'mad', '--offline', '--index', index, '--limit', '1');
    expect(off.code).not.toBe(0);
    expect(off.stderr).toMatch(/needs an LLM/);
    const bad = await cli('run', 'mad', '--topology', 'star', '--index', index);
    expect(bad.stderr).toMatch(/topology/);
  });
});
