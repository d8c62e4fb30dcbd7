/**
 * `lexcase run acal` end to end in-process: real ChatOpenAI client (configured through the
 * environment, as a user would) against the scripted server; then `lexcase acal contest` on a
 * saved graph.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../../core/version.js';
import { runUnresolvedCitations, unresolvedCitationsText } from '../../../eval/run-counts.js';
import { readAudit, readGraph } from '../../../agents/acal/graph/store.js';
import { scriptedArena } from '../../../agents/acal/test-support/scripted-arena.js';
import { startScriptedServer, type ScriptedServer } from '../../../tests/support/scripted-openai-server.js';
import { expectResumeOnOtherServerRefused } from '../../../tests/support/resume-other-server.js';
import { runCli } from '../../../tests/support/run-cli.js';
import { runSummary } from '../../../web/server/run-summary-api.js';

let dir: string;
let srv: ScriptedServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'acal-cli-run-'));
  srv = await startScriptedServer(scriptedArena());
  Object.assign(process.env, { LEXCASE_LLM_BASE_URL: srv.url, LEXCASE_LLM_MODEL: 'scripted', LEXCASE_LLM_MAX_RETRIES: '0' });
});
afterAll(async () => {
  // the LLM_* variables set here are put back by the per-file reset (tests/support/shared-state-setup.ts)
  await srv.close();
  rmSync(dir, { recursive: true, force: true });
});

const cli = (...args: string[]) => runCli(args);

describe('lexcase run acal', () => {
  it('runs hearsay, saves graphs and a report; acal contest then changes a graph and logs it', async () => {
    const out = join(dir, 'run');
    const r = await cli(
      '--json',
      'run',
      'acal',
      '--task',
      'hearsay',
      '--limit',
      '3',
      '--run-dir',
      out,
      '--iterations',
      '100',
      '--no-cache',
      '--semantics',
      'acal-compat',
      '-k',
      '0',
      '--passage-chars',
      '1500',
    );
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(j.metrics.n).toBe(3);
    expect(JSON.parse(readFileSync(join(out, 'config.json'), 'utf8')).config.passageChars).toBe(1500);
    expect(readFileSync(join(out, 'acal-report.md'), 'utf8')).toMatch(/# ACAL on LegalBench hearsay/);
    const g = readGraph(out, 'hearsay-test-0');
    expect(g.settings.semantics).toBe('acal-compat');
    expect(g.clash.clamp).toEqual([0.1, 0.95]);
    expect(r.err).toMatch(/-k 0: no retrieved evidence/);

    const first = g.arguments[0].id;
    const c = await cli(
      '--json',
      'acal',
      'contest',
      out,
      '--item',
      'hearsay-test-0',
      '--action',
      'set-base',
      '--arg',
      first,
      '--base',
      '0.05',
      '--who',
      'reviewer',
    );
    expect(c.code).toBe(0);
    const e = JSON.parse(c.out).entry;
    expect(e).toMatchObject({ who: 'reviewer', revision: 1, before: { id: first, humanBase: null } });
    expect(readAudit(out, 'hearsay-test-0')).toHaveLength(1);
    expect(readGraph(out, 'hearsay-test-0').result!.effectiveBase[first]).toBe(0.05);
  });

  it("the summary prints the whole run's tokens (summed from results.jsonl), and after a resume with this call's 0", async () => {
    const out = join(dir, 'tokens');
    const args = ['run', 'acal', '--task', 'hearsay', '--limit', '3', '--run-dir', out, '--iterations', '100', '--no-cache', '-k', '0'];
    const first = await cli(...args);
    expect(first.code, first.err).toBe(0);
    const total = readFileSync(join(out, 'results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .reduce((s, l) => s + JSON.parse(l).tokens.total, 0);
    expect(total).toBeGreaterThan(1000);
    // before: "run dir: …: ran 3, skipped 0 (already done), failed 0" and no token figure
    // with -k 0 no passage is shown: every citation the server writes names no handle, counted after the tokens (run-counts.ts)
    const u = runUnresolvedCitations(
      readFileSync(join(out, 'results.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    );
    const unresolved = u.citations ? `; ${unresolvedCitationsText(u)}` : '';
    expect(first.out).toContain(`run dir: ${out}: ran 3, skipped 0 (already done), failed 0; tokens ${total.toLocaleString('en-US')}${unresolved}\n`);
    const again = await cli(...args);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toContain(`run dir: ${out}: ran 0, skipped 3 (already done), failed 0; tokens ${total.toLocaleString('en-US')} (whole run; this call 0)`);
    expect(JSON.parse((await cli('--json', ...args)).out)).toMatchObject({ runTokens: total, tokens: { total: 0 } });
  });

  // --limit 40: hearsay's first 33 test items are all "No", where macro-F1 over {Yes, No} is 50 % on
  // every resample (no spread, no interval); items 34-40 hold "Yes" ones, so the interval has a width.
  it('a run with --seed 14 prints the macro-F1 interval `lexcase report` and the explorer compute (the shared bootstrap seed), and its footnote names the resamples it used', async () => {
    const out = join(dir, 'seed14');
    const r = await cli(
      '--json',
      'run',
      'acal',
      '--task',
      'hearsay',
      '--system',
      'sp',
      '--limit',
      '40',
      '--seed',
      '14',
      '--iterations',
      '500',
      '--run-dir',
      out,
      '--no-cache',
      '-k',
      '0',
    );
    expect(r.code).toBe(0);
    const figure = (file: string) =>
      (JSON.parse(readFileSync(file, 'utf8')).sections.figures.figures as { id: string; lo: number; hi: number }[]).find((f) => f.id === 'macro-f1');
    const asRun = figure(join(out, 'report.json'));
    expect(asRun).toMatchObject({ interval: 'bootstrap', n: 40, seed: 13, iterations: 500 });
    // the run's own acal-report.json: the same interval as report.json
    expect(JSON.parse(readFileSync(join(out, 'acal-report.json'), 'utf8')).metrics.macroF1).toMatchObject({
      lo: asRun?.lo,
      hi: asRun?.hi,
      seed: 13,
      iterations: 500,
    });
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toMatch(/This run: 500 resamples, seed 13\./);
    expect(readFileSync(join(out, 'acal-report.md'), 'utf8')).toMatch(/Wilson score interval[\s\S]*This run: 500 resamples, seed 13\./);
    // `lexcase report --iterations 500` on the same results: the same interval (it printed the run seed's before)
    const again = await cli('--json', 'report', out, '--iterations', '500');
    expect(again.code).toBe(0);
    expect(figure(join(out, 'report.json'))).toEqual(asRun);
  });

  it('run acal --iterations is recorded in config.json: lexcase report and the explorer/v1 summary compute the interval the run printed; a resume may change it', async () => {
    const out = join(dir, 'iter200');
    const run = (iterations: string, limit = '40') =>
      cli(
        '--json',
        'run',
        'acal',
        '--task',
        'hearsay',
        '--system',
        'sp',
        '--limit',
        limit,
        '--iterations',
        iterations,
        '--run-dir',
        out,
        '--no-cache',
        '-k',
        '0',
      );
    expect((await run('200')).code).toBe(0);
    const config = () => JSON.parse(readFileSync(join(out, 'config.json'), 'utf8'));
    expect(config().config.bootstrap).toEqual({ iterations: 200 });
    const macroF1 = (figures: { id: string; lo?: number | null; hi?: number | null }[]) => figures.find((f) => f.id === 'macro-f1');
    const reportFigure = () => macroF1(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')).sections.figures.figures);
    const asRun = reportFigure();
    expect(asRun).toMatchObject({ interval: 'bootstrap', iterations: 200 });
    // `lexcase report` without --iterations: the run's 200, and its footnote says so (it recomputed with 2,000 before)
    const rep = await cli('report', out);
    expect(rep.code, rep.err).toBe(0);
    expect(reportFigure()).toEqual(asRun);
    expect(rep.out).toMatch(/This run: 200 resamples, seed 13\./);
    // the explorer's /api/run/summary and /v1/run (both runSummary)
    const entry = { id: 'iter200', dir: out, root: dir, kind: 'run' as const, items: 40, correct: 0, graphs: 0 };
    expect(macroF1((await runSummary(entry)).figures)).toMatchObject({ lo: asRun?.lo, hi: asRun?.hi, iterations: 200 });
    // an explicit --iterations still wins
    await cli('report', out, '--iterations', '2000');
    expect(reportFigure()).toMatchObject({ iterations: 2000 });
    // a resume with another --iterations: its report and config.json say the new value, the resume entry the change
    const resumed = await run('300', '41');
    expect(resumed.code, resumed.err).toBe(0);
    expect(config().config.bootstrap).toEqual({ iterations: 300 });
    expect(config().resumes.at(-1).changed).toEqual({ bootstrap: { from: { iterations: 200 }, to: { iterations: 300 } } });
    expect(reportFigure()).toMatchObject({ iterations: 300 });
  });

  it('config.json records the endpoint and sampling: a resume against another server is refused (field "model" differs)', async () => {
    const out = join(dir, 'endpoint');
    await expectResumeOnOtherServerRefused(
      {
        other: await startScriptedServer(scriptedArena()),
        primary: srv.url,
        out,
        run: (limit) =>
          cli(
            '--json',
            'run',
            'acal',
            '--task',
            'hearsay',
            '--system',
            'cot',
            '--limit',
            limit,
            '--run-dir',
            out,
            '--iterations',
            '100',
            '--no-cache',
            '-k',
            '0',
          ),
      },
      (model) => expect(model).toMatchObject({ temperature: 0 }),
    );
  });

  it('records which LegalBench file it read (bundled or $LEXCASE_LEGALBENCH_DIR) and its sha256, shows it in report.md, and refuses a resume reading a copy with one label flipped', async () => {
    const bundled = join(PACKAGE_ROOT, 'corpora', 'data', 'legalbench', 'hearsay', 'test.jsonl');
    const bytes = readFileSync(bundled);
    // a user's copy with the third row's label flipped (an item past --limit 2: the recorded items' check cannot see it)
    const rows = bytes.toString('utf8').split('\n');
    const third = JSON.parse(rows[2]);
    rows[2] = JSON.stringify({ ...third, answer: third.answer === 'Yes' ? 'No' : 'Yes' });
    const flipped = join(dir, 'lb-flipped');
    const same = join(dir, 'lb-same');
    mkdirSync(join(flipped, 'hearsay'), { recursive: true });
    mkdirSync(join(same, 'hearsay'), { recursive: true });
    writeFileSync(join(flipped, 'hearsay', 'test.jsonl'), rows.join('\n'));
    writeFileSync(join(same, 'hearsay', 'test.jsonl'), bytes);
    const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
    const saveDir = process.env.LEXCASE_LEGALBENCH_DIR;
    const run = (out: string, limit: string, env?: string) => {
      if (env) process.env.LEXCASE_LEGALBENCH_DIR = env;
      else delete process.env.LEXCASE_LEGALBENCH_DIR;
      return cli('--json', 'run', 'acal', '--task', 'hearsay', '--limit', limit, '--run-dir', out, '--iterations', '100', '--no-cache', '-k', '0');
    };
    const configOf = (out: string) => JSON.parse(readFileSync(join(out, 'config.json'), 'utf8'));
    try {
      const a = join(dir, 'lb-bundled');
      const b = join(dir, 'lb-env');
      expect((await run(a, '2')).code).toBe(0);
      expect((await run(b, '2', flipped)).code).toBe(0);
      const [ra, rb] = [configOf(a).config.dataFiles.test, configOf(b).config.dataFiles.test];
      expect(ra).toEqual({ task: 'hearsay', split: 'test', source: 'bundled', file: 'corpora/data/legalbench/hearsay/test.jsonl', sha256: sha(bytes) });
      expect(rb).toEqual({
        task: 'hearsay',
        split: 'test',
        source: 'LEXCASE_LEGALBENCH_DIR',
        file: join(flipped, 'hearsay', 'test.jsonl'),
        sha256: sha(rows.join('\n')),
      });
      expect(rb.sha256).not.toBe(ra.sha256);
      // the same two items, the same gold labels: only the file's record tells the runs apart
      expect(configOf(b).provenance.datasetChecksum).toBe(configOf(a).provenance.datasetChecksum);
      expect(readFileSync(join(a, 'report.md'), 'utf8')).toContain(
        `- **data file (test)**: hearsay test: bundled corpora/data/legalbench/hearsay/test.jsonl, sha256 ${sha(bytes)}\n`,
      );
      expect(readFileSync(join(b, 'report.md'), 'utf8')).toContain(
        `- **data file (test)**: hearsay test: LEXCASE_LEGALBENCH_DIR ${rb.file}, sha256 ${rb.sha256}`,
      );

      // the bundled run resumed (and grown to the flipped item) over the user's copy: refused, naming both files
      const before = readFileSync(join(a, 'results.jsonl'), 'utf8');
      const r = await run(a, '3', flipped);
      expect(r.code).toBe(1);
      expect(r.err).toContain(
        `run ${a}: read hearsay test from bundled corpora/data/legalbench/hearsay/test.jsonl (sha256 ${sha(bytes).slice(0, 16)}…), the command now reads LEXCASE_LEGALBENCH_DIR ${rb.file} (sha256 ${rb.sha256.slice(0, 16)}…): another data file (its sha256 differs)`,
      );
      expect(readFileSync(join(a, 'results.jsonl'), 'utf8')).toBe(before);

      // the same bytes from another place: resumed, the resume records where they were read from
      expect((await run(a, '3', same)).code).toBe(0);
      const ca = configOf(a);
      expect(ca.config.dataFiles.test).toEqual(ra);
      expect(ca.resumes.at(-1).changed).toEqual({
        'dataFiles.test': { from: 'bundled corpora/data/legalbench/hearsay/test.jsonl', to: `LEXCASE_LEGALBENCH_DIR ${join(same, 'hearsay', 'test.jsonl')}` },
      });
    } finally {
      if (saveDir) process.env.LEXCASE_LEGALBENCH_DIR = saveDir;
      else delete process.env.LEXCASE_LEGALBENCH_DIR;
    }
  });

  it('refuses learned_hands_courts without --data (not bundled: CC BY-NC-SA)', async () => {
    const saveDir = process.env.LEXCASE_LEGALBENCH_DIR;
    delete process.env.LEXCASE_LEGALBENCH_DIR;
    const r = await cli('run', 'acal', '--task', 'learned_hands_courts', '--run-dir', join(dir, 'lhc'), '--no-cache');
    if (saveDir) process.env.LEXCASE_LEGALBENCH_DIR = saveDir;
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/CC BY-NC-SA 4.0 and is not bundled; pass --data DIR/);
  });

  it('rejects an unknown semantics with the list of names', async () => {
    const r = await cli('run', 'acal', '--task', 'hearsay', '--semantics', 'euler', '--no-cache');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/unknown "euler"[\s\S]*quadratic, dfquad, acal-compat/);
  });

  it('warns of each flag the chosen system does not read (before: cot -k 5 --no-clash ran silently and recorded k 5)', async () => {
    const out = join(dir, 'cot-flags');
    const r = await cli(
      'run',
      'acal',
      '--task',
      'hearsay',
      '--system',
      'cot',
      '--limit',
      '2',
      '--run-dir',
      out,
      '--iterations',
      '100',
      '--no-cache',
      '-k',
      '5',
      '--semantics',
      'acal-compat',
      '--no-clash',
      '--no-escalation',
      '--passage-chars',
      '300',
      '--index',
      join(dir, 'no-such-index'),
      '--seed',
      '999',
    );
    expect(r.code, r.err).toBe(0);
    // cot draws nothing and sends no seed: --seed 13 and --seed 999 sent the same prompts (before: no word)
    expect(r.err).toContain('[warn] --seed is ignored: it applies to --system acal, not cot (cot draws nothing, and its requests carry no seed');
    for (const flag of ['--semantics', '--no-clash', '--no-escalation'])
      expect(r.err).toContain(`[warn] ${flag} is ignored: it applies to --system acal, not cot`);
    expect(r.err).toContain("[warn] -k is ignored: it applies to --system acal and rag, not cot (cot searches nothing; config.json's k is unused)");
    for (const flag of ['--index', '--passage-chars']) expect(r.err).toContain(`[warn] ${flag} is ignored: it applies to --system acal and rag, not cot`);
    const config = JSON.parse(readFileSync(join(out, 'config.json'), 'utf8')).config;
    expect(config).not.toHaveProperty('semantics');
    expect(config.index).toBeNull();
    // rag reads -k, --index and --passage-chars: only the argumentation flags are warned of
    const rag = await cli(
      'run',
      'acal',
      '--task',
      'hearsay',
      '--system',
      'rag',
      '--limit',
      '1',
      '--run-dir',
      join(dir, 'rag-flags'),
      '--no-cache',
      '--iterations',
      '100',
      '-k',
      '0',
      '--no-clash',
    );
    expect(rag.err).toContain('[warn] --no-clash is ignored: it applies to --system acal, not rag');
    expect(rag.err).not.toContain('-k is ignored');
  });
});
