/**
 * `lexcase run emar` end to end in-process: real ChatOpenAI client configured through the
 * environment against the scripted server, and the real offline use-lite embedder for convergence.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadLegalBenchTask, resolveLegalBenchFile } from '../../../corpora/legalbench.js';
import { PACKAGE_ROOT } from '../../../core/version.js';
import { startScriptedServer, type RecordedRequest, type ScriptedServer, type ScriptReply } from '../../../tests/support/scripted-openai-server.js';
import { register } from './run-plugins.js';
import { expectResumeOnOtherServerRefused } from '../../../tests/support/resume-other-server.js';
import { programWith, runCli } from '../../../tests/support/run-cli.js';
import { createRng } from '../../../core/rng.js';
import { headlineFigures } from '../../../eval/systems.js';
import '../../../agents/systems.js'; // the agent systems' list, handed to eval (the explorer's figures)

/**
 * macro-F1's 95% percentile bootstrap interval, recomputed here from its definition and not through
 * eval/: the records in id order, B resamples of n indices drawn with core/rng (seed 13), each
 * resample's mean over the labels of F1 = 2·TP / (2·TP + FP + FN) (0 where that is 0/0), the
 * resamples sorted, the 2.5th and 97.5th percentiles with linear interpolation between ranks.
 */
function bootstrapMacroF1(records: { id: string; prediction: string | null; gold: string }[], labels: string[], iterations = 2000, seed = 13) {
  const rs = [...records].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const f1 = (idx: number[]) =>
    labels.reduce((sum, l) => {
      let tp = 0;
      let fp = 0;
      let fn = 0;
      for (const i of idx) {
        const { prediction: p, gold: g } = rs[i];
        if (p === l && g === l) tp++;
        else if (p === l) fp++;
        else if (g === l) fn++;
      }
      return sum + (tp ? (2 * tp) / (2 * tp + fp + fn) : 0);
    }, 0) / labels.length;
  const rng = createRng(seed);
  const samples: number[] = [];
  for (let b = 0; b < iterations; b++) samples.push(f1(rs.map(() => rng.int(0, rs.length - 1))));
  samples.sort((a, b) => a - b);
  const at = (q: number) => {
    const pos = (samples.length - 1) * q;
    const lo = Math.floor(pos);
    return samples[lo] + (samples[Math.ceil(pos)] - samples[lo]) * (pos - lo);
  };
  return { estimate: f1(rs.map((_, i) => i)), lo: at(0.025), hi: at(0.975) };
}

let dir: string;
let srv: ScriptedServer;

const sys = (r: RecordedRequest): string => r.body.messages[0].content;
const json = (o: unknown): ScriptReply => ({ content: JSON.stringify(o) });
const AGREED = 'The statement is not hearsay because it is not offered for the truth of the matter asserted.';

/** While set, the judge's requests fail (HTTP 500): every item fails. */
let judgeFails = false;
/** While set, the judge answers A (Yes) or B (No) by the case it is shown, fixed by its text: some right, some wrong. */
let judgeByCase = false;
const judgeLetter = (r: RecordedRequest) =>
  createHash('sha256')
    .update(JSON.stringify(r.body.messages.slice(1)))
    .digest()[0] %
    3 ===
  0
    ? 'A'
    : 'B';

// Parties agree on hearsay items (convergence); on bar-exam items they never do (depth 3).
function script(r: RecordedRequest): ScriptReply {
  const s = sys(r);
  const hearsay = JSON.stringify(r.body.messages).includes('is the evidence described above hearsay');
  if (s.startsWith('You are a fact-finding clerk')) return json({ facts: ['a statement was made'] });
  if (s.startsWith('You are the Proponent')) return json({ answer: 'B', claim: AGREED, argument: 'r', evidence: [] });
  if (s.startsWith('You are the Opponent'))
    return hearsay
      ? json({ answer: 'B', claim: AGREED, argument: 'agreed', evidence: [] })
      : json({ answer: 'C', claim: 'Weather patterns in the valley made the crop fail before the contract was signed.', argument: 'x', evidence: [] });
  if (s.startsWith('You are a neutral Judge') && judgeFails) return { status: 500 };
  if (s.startsWith('You are a neutral Judge')) return json({ established_facts: ['x'], answer: judgeByCase ? judgeLetter(r) : 'B', rationale: 'r' });
  return { status: 500 };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'emar-cli-'));
  srv = await startScriptedServer(script);
  Object.assign(process.env, { LEXCASE_LLM_BASE_URL: srv.url, LEXCASE_LLM_MODEL: 'scripted', LEXCASE_LLM_MAX_RETRIES: '0' });
});
afterAll(async () => {
  // the LLM_* variables set here are put back by the per-file reset (tests/support/shared-state-setup.ts)
  await srv.close();
  rmSync(dir, { recursive: true, force: true });
});

const cli = (...args: string[]) => runCli(args, programWith(register));

describe('lexcase run emar', () => {
  it('runs LegalBench hearsay: converged parties, labels as predictions, accuracy from the gold labels', async () => {
    const out = join(dir, 'hearsay');
    const r = await cli('--json', 'run', 'emar', '--dataset', 'hearsay', '--split', 'train', '--run-dir', out, '--no-cache');
    expect(r.code, r.err).toBe(0);
    const j = JSON.parse(r.out);
    const gold = await loadLegalBenchTask('hearsay', { split: 'train' });
    expect(j).toMatchObject({ ran: gold.length, failed: 0, metrics: { failed: 0, convergenceRate: 1, meanDepth: 1 } });
    expect(j.metrics.accuracy).toBeCloseTo(gold.filter((g) => g.label === 'No').length / gold.length);
    const results = readFileSync(join(out, 'results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(results.every((x) => x.prediction === 'No')).toBe(true);
    const trace = JSON.parse(readFileSync(join(out, 'traces', `${results[0].id}.json`), 'utf8'));
    expect(trace).toMatchObject({ system: 'emar', stop: 'convergence', embedder: 'use-lite:universal-sentence-encoder-lite' });
    expect(trace.rounds[0].similarity).toBeGreaterThanOrEqual(0.85);
    const rj = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(rj.sections.emar).toMatchObject({ n: gold.length, convergenceRate: 1 });
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toMatch(/## EMAR: accuracy, F1 and recursion[\s\S]*\| hearsay\/train \|/);
    // the paper's sampling settings reach the endpoint
    expect(srv.requests[0].body).toMatchObject({ temperature: 0.1, top_p: 0.9 });
    expect(srv.requests[0].body.max_tokens ?? srv.requests[0].body.max_completion_tokens).toBe(2048);
    // …and config.json says where they came from
    const cfg = JSON.parse(readFileSync(join(out, 'config.json'), 'utf8')).config;
    expect(cfg).toMatchObject({ temperature: 0.1, topP: 0.9, maxTokens: 2048, sampling: { fromPaper: ['temperature', 'topP', 'maxTokens'], given: [] } });
    expect(cfg.sampling.source).toMatch(/EMAR \(paper 004\).*temperature 0\.1, top-p 0\.9, max_tokens 2048/);
    // …and which LegalBench file the items came from ($LEXCASE_LEGALBENCH_DIR is read before the bundled copy), with its sha256
    const env = process.env.LEXCASE_LEGALBENCH_DIR;
    const file = env ? resolve(resolveLegalBenchFile('hearsay', { split: 'train' })) : 'corpora/data/legalbench/hearsay/train.jsonl';
    expect(cfg.dataFiles).toEqual({
      train: {
        task: 'hearsay',
        split: 'train',
        source: env ? 'LEXCASE_LEGALBENCH_DIR' : 'bundled',
        file,
        sha256: createHash('sha256')
          .update(readFileSync(env ? file : join(PACKAGE_ROOT, file)))
          .digest('hex'),
      },
    });
  });

  it('macro-F1 has its 95% bootstrap interval (seed 13, 2,000 resamples, not the run seed) in the CLI summary, --json, report.md, report.json and the explorer', async () => {
    const out = join(dir, 'hearsay-ci');
    const args = ['run', 'emar', '--dataset', 'hearsay', '--split', 'test', '--limit', '12', '--seed', '7', '--run-dir', out, '--no-cache'];
    judgeByCase = true;
    try {
      const r = await cli(...args);
      expect(r.code, r.err).toBe(0);
      const results = readFileSync(join(out, 'results.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(new Set(results.map((x) => x.prediction))).toEqual(new Set(['Yes', 'No']));
      const want = bootstrapMacroF1(results, ['Yes', 'No']);
      expect(want.lo).toBeLessThan(want.estimate);
      expect(want.hi).toBeGreaterThan(want.estimate);
      const text = `${(100 * want.estimate).toFixed(1)}% [${(100 * want.lo).toFixed(1)}, ${(100 * want.hi).toFixed(1)}]`;
      // the run table: the CLI summary and report.md's EMAR section (before: "| 12 | … | 58.3% |", no interval)
      const row = (md: string) => md.split('\n').find((l) => l.startsWith('| hearsay/test'))!;
      const header = (md: string) => md.split('\n').find((l) => l.startsWith('| dataset'))!;
      for (const md of [r.out, readFileSync(join(out, 'report.md'), 'utf8')]) {
        expect(header(md)).toMatch(/\| macro-F1 \[95% bootstrap\] +\|/);
        expect(row(md).split('|')[4].trim()).toBe(text);
      }
      // --json and report.json's EMAR section: the interval with its resamples and seed
      const ci = { estimate: want.estimate, lo: want.lo, hi: want.hi, method: 'bootstrap', iterations: 2000, seed: 13, n: 12 };
      const close = (x: { estimate: number; lo: number; hi: number }) => [x.estimate, x.lo, x.hi].map((v) => v.toFixed(12));
      const json = JSON.parse((await cli('--json', ...args)).out);
      const section = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')).sections.emar;
      for (const got of [json.metrics.macroF1Ci, section.macroF1Ci]) {
        expect(got).toMatchObject({ method: ci.method, iterations: ci.iterations, seed: ci.seed, n: ci.n });
        expect(close(got)).toEqual(close(ci));
      }
      // the explorer's and /v1's headline figure (web/server/run-summary-api.ts): the same interval
      const figure = headlineFigures('emar', results, { config: JSON.parse(readFileSync(join(out, 'config.json'), 'utf8')).config }).find(
        (f) => f.id === 'macro-f1',
      )!;
      expect(close(figure as { estimate: number; lo: number; hi: number })).toEqual(close(ci));
      expect(figure.text).toBe(text);
    } finally {
      judgeByCase = false;
    }
  });

  it("a resumed run's summary prints the whole run's tokens (report.md's total), not this call's 0", async () => {
    const out = join(dir, 'hearsay');
    const args = ['run', 'emar', '--dataset', 'hearsay', '--split', 'train', '--run-dir', out, '--no-cache'];
    const r = await cli(...args);
    expect(r.code, r.err).toBe(0);
    const lines = readFileSync(join(out, 'results.jsonl'), 'utf8').trim().split('\n');
    const total = lines.reduce((s, l) => s + JSON.parse(l).tokens.total, 0);
    expect(total).toBeGreaterThan(1000);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toMatch(new RegExp(`\\| total +\\| +${total.toLocaleString('en-US')} \\|`));
    // before: "run dir: … (ran 0, resumed past N, failed 0); tokens 0"
    expect(r.out).toContain(
      `run dir: ${out}: ran 0, skipped ${lines.length} (already done), failed 0; tokens ${total.toLocaleString('en-US')} (whole run; this call 0)`,
    );
    expect(JSON.parse((await cli('--json', ...args)).out)).toMatchObject({ runTokens: total, tokens: { total: 0 } });
  });

  it("--json's failed is this call's, as ran and skipped are: a resume that keeps the failed items says failed 0 (it said the run's 12), the run's under metrics", async () => {
    const out = join(dir, 'hearsay-failed');
    const args = ['run', 'emar', '--dataset', 'hearsay', '--split', 'train', '--run-dir', out, '--no-cache'];
    judgeFails = true;
    try {
      const first = await cli('--json', ...args);
      expect(first.code).toBe(1); // no item succeeded
      const n = readFileSync(join(out, 'results.jsonl'), 'utf8').trim().split('\n').length;
      expect(JSON.parse(first.out)).toMatchObject({ ran: n, skipped: 0, failed: n, metrics: { n, failed: n } });
      const kept = await cli('--json', ...args, '--no-retry-failed');
      const j = JSON.parse(kept.out);
      expect(j).toMatchObject({ ran: 0, skipped: n, keptFailed: n, failed: 0, metrics: { n, failed: n, answered: 0 } });
      // the text's counts line says the same
      expect((await cli(...args, '--no-retry-failed')).out).toContain(
        `ran 0, skipped ${n} (already done; ${n} failed earlier, kept as failed by --no-retry-failed), failed 0`,
      );
    } finally {
      judgeFails = false;
    }
  });

  it("config.json names a sampling setting given on the command line as given, not the paper's", async () => {
    const out = join(dir, 'hearsay-t');
    const r = await cli(
      '--json',
      'run',
      'emar',
      '--dataset',
      'hearsay',
      '--split',
      'train',
      '--limit',
      '1',
      '--temperature',
      '0.1',
      '--run-dir',
      out,
      '--no-cache',
    );
    expect(r.code, r.err).toBe(0);
    const cfg = JSON.parse(readFileSync(join(out, 'config.json'), 'utf8')).config;
    expect(cfg.sampling).toMatchObject({ fromPaper: ['topP', 'maxTokens'], given: ['temperature (--temperature)'] });
  });

  it("a temperature set in the config file or environment wins over the paper's 0.1 (even 0), and config.json says so", async () => {
    const cfgFile = join(dir, 'lexcase.config.json');
    writeFileSync(cfgFile, JSON.stringify({ llm: { temperature: 0.6 } }));
    const run = async (name: string, ...extra: string[]) => {
      const out = join(dir, name);
      const from = srv.requests.length;
      const r = await cli('--json', 'run', 'emar', '--dataset', 'hearsay', '--split', 'train', '--limit', '1', '--run-dir', out, '--no-cache', ...extra);
      expect(r.code, r.err).toBe(0);
      return { sent: new Set(srv.requests.slice(from).map((q) => q.body.temperature)), cfg: JSON.parse(readFileSync(join(out, 'config.json'), 'utf8')).config };
    };
    const file = await run('t-file', '--config', cfgFile);
    expect(file.sent).toEqual(new Set([0.6]));
    expect(file.cfg).toMatchObject({ temperature: 0.6, sampling: { fromPaper: ['topP', 'maxTokens'], given: ['temperature (llm.temperature)'] } });
    expect(file.cfg.model).toMatchObject({ temperature: 0.6, paperDefaults: { system: 'emar', fromPaper: ['topP', 'maxTokens'] } });
    process.env.LEXCASE_LLM_TEMPERATURE = '0';
    try {
      const env = await run('t-env');
      expect(env.sent).toEqual(new Set([0]));
      expect(env.cfg).toMatchObject({ temperature: 0, sampling: { given: ['temperature (llm.temperature)'] } });
      // the flag wins over both
      const flag = await run('t-flag', '--config', cfgFile, '--temperature', '0.2');
      expect(flag.sent).toEqual(new Set([0.2]));
      expect(flag.cfg).toMatchObject({ temperature: 0.2, sampling: { given: ['temperature (--temperature)'] } });
    } finally {
      delete process.env.LEXCASE_LLM_TEMPERATURE;
    }
  });

  it('the logged paper-values line says where the temperature came from and its value: --temperature, the environment, the config file, or the paper', async () => {
    const cfgFile = join(dir, 'lexcase.config.json');
    writeFileSync(cfgFile, JSON.stringify({ llm: { temperature: 0.6 } }));
    const line = async (name: string, ...extra: string[]) => {
      const r = await cli('run', 'emar', '--dataset', 'hearsay', '--split', 'train', '--limit', '1', '--run-dir', join(dir, name), '--no-cache', ...extra);
      expect(r.code, r.err).toBe(0);
      return r.err.split('\n').find((l) => l.startsWith('emar: '));
    };
    const rest = "topP 0.9, maxTokens 2048 (the paper's; set llm.topP to override)";
    // before: "emar: topP 0.9, maxTokens 2048 (the paper's; set llm.topP to override)", the temperature sent unsaid
    expect(await line('line-flag', '--config', cfgFile, '--temperature', '0.2')).toBe(`emar: temperature 0.2 (--temperature; the paper's 0.1); ${rest}`);
    expect(await line('line-file', '--config', cfgFile)).toBe(`emar: temperature 0.6 (llm.temperature in ${cfgFile}; the paper's 0.1); ${rest}`);
    process.env.LEXCASE_LLM_TEMPERATURE = '0';
    try {
      expect(await line('line-env', '--config', cfgFile)).toBe(`emar: temperature 0 (LEXCASE_LLM_TEMPERATURE; the paper's 0.1); ${rest}`);
    } finally {
      delete process.env.LEXCASE_LLM_TEMPERATURE;
    }
    // before: "… (the paper's; set llm.temperature to override)", the flag unnamed
    expect(await line('line-paper')).toBe("emar: temperature 0.1, topP 0.9, maxTokens 2048 (the paper's; set --temperature or llm.temperature to override)");
  });

  it('without --split, hearsay runs on its test split (LegalBench has no val) and Bar Exam QA on val; --help says so (before: hearsay refused a "val" nobody typed)', async () => {
    const out = join(dir, 'hearsay-default-split');
    const r = await cli('--json', 'run', 'emar', '--dataset', 'hearsay', '--limit', '2', '--run-dir', out, '--no-cache');
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ ran: 2, metrics: { n: 2 } });
    const config = JSON.parse(readFileSync(join(out, 'config.json'), 'utf8')).config;
    expect(config).toMatchObject({ dataset: 'hearsay', split: 'test' });
    const gold = (await loadLegalBenchTask('hearsay', { split: 'test' })).slice(0, 2).map((t) => t.id);
    const ids = readFileSync(join(out, 'results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).id);
    expect(ids.sort()).toEqual([...gold].sort());
    const bar = join(dir, 'bar-default-split');
    const b = await cli('--json', 'run', 'emar', '--limit', '1', '--run-dir', bar, '--no-cache');
    expect(b.code, b.err).toBe(0);
    expect(JSON.parse(readFileSync(join(bar, 'config.json'), 'utf8')).config).toMatchObject({ dataset: 'barexam', split: 'val' });
    expect((await cli('run', 'emar', '--help')).out.replace(/\s+/g, ' ')).toContain('hearsay: train | test (default test');
  });

  it('runs Bar Exam QA val with --limit: parties that never converge stop at depth 3', async () => {
    const r = await cli('--json', 'run', 'emar', '--dataset', 'barexam', '--split', 'val', '--limit', '1', '--run-dir', join(dir, 'bar'), '--no-cache');
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ ran: 1, metrics: { n: 1, meanDepth: 3, convergenceRate: 0 } });
  });

  it("records the Bar Exam QA file's path and sha256 in config.json dataFiles (as CASE, MAD and hearsay runs do), said in report.md and checked on resume (before: none)", async () => {
    const out = join(dir, 'bar-datafile');
    const args = ['--json', 'run', 'emar', '--dataset', 'barexam', '--split', 'val', '--run-dir', out, '--no-cache'];
    const r = await cli(...args, '--limit', '1');
    expect(r.code, r.err).toBe(0);
    // the sha256 corpora/data/SHA256SUMS lists for the file (of its decompressed content)
    const sums = readFileSync(join(PACKAGE_ROOT, 'corpora', 'data', 'SHA256SUMS'), 'utf8');
    const sha256 = /^([0-9a-f]{64}) {2}barexam\/qa\.jsonl\.gz$/m.exec(sums)![1];
    const cfgFile = join(out, 'config.json');
    const cfg = JSON.parse(readFileSync(cfgFile, 'utf8'));
    expect(cfg.config.dataFiles).toEqual({ val: { dataset: 'barexam', split: 'val', source: 'bundled', file: 'corpora/data/barexam/qa.jsonl.gz', sha256 } });
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain(
      `- **data file (val)**: barexam val: bundled corpora/data/barexam/qa.jsonl.gz, sha256 ${sha256}`,
    );
    // a run dir that read another file (its sha256 differs) is refused on resume, naming both
    cfg.config.dataFiles.val.sha256 = '0'.repeat(64);
    writeFileSync(cfgFile, JSON.stringify(cfg));
    const refused = await cli(...args, '--limit', '2');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(
      `read barexam val from bundled corpora/data/barexam/qa.jsonl.gz (sha256 0000000000000000…), the command now reads bundled corpora/data/barexam/qa.jsonl.gz (sha256 ${sha256.slice(0, 16)}…)`,
    );
  });

  it('config.json records the endpoint and sampling: a resume against another server is refused (field "model" differs)', async () => {
    const out = join(dir, 'endpoint');
    await expectResumeOnOtherServerRefused(
      {
        other: await startScriptedServer(script),
        primary: srv.url,
        out,
        run: (limit) => cli('--json', 'run', 'emar', '--dataset', 'hearsay', '--split', 'train', '--limit', limit, '--run-dir', out, '--no-cache'),
      },
      (model) => expect(model).toMatchObject({ temperature: 0.1, topP: 0.9, maxTokens: 2048 }),
    );
  });

  it('reads --split dev as val (as every other command) and records the Bar Exam QA split seed in config.json; --split-seed draws another split', async () => {
    const out = join(dir, 'bar-dev');
    // before: "--split for barexam must be train, val, test or all, got \"dev\"", and config.json held no splitSeed
    const r = await cli('--json', 'run', 'emar', '--dataset', 'barexam', '--split', 'dev', '--limit', '1', '--run-dir', out, '--no-cache');
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(readFileSync(join(out, 'config.json'), 'utf8')).config).toMatchObject({ dataset: 'barexam', split: 'val', splitSeed: 13 });
    const other = join(dir, 'bar-seed7');
    expect((await cli('--json', 'run', 'emar', '--split', 'val', '--split-seed', '7', '--limit', '1', '--run-dir', other, '--no-cache')).code).toBe(0);
    const cfg = JSON.parse(readFileSync(join(other, 'config.json'), 'utf8')).config;
    expect(cfg.splitSeed).toBe(7);
    const first = (d: string) => JSON.parse(readFileSync(join(d, 'results.jsonl'), 'utf8').split('\n')[0]).id;
    expect(first(other)).not.toBe(first(out));
    const h = await cli('run', 'emar', '--dataset', 'hearsay', '--split', 'train', '--split-seed', '7');
    expect(h.code).toBe(1);
    expect(h.err).toMatch(/--split-seed applies to barexam only/);
  });

  it('rejects a split the dataset does not have', async () => {
    const r = await cli('run', 'emar', '--dataset', 'hearsay', '--split', 'val');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/hearsay must be train or test/);
  });
});
