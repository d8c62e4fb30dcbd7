/**
 * Run directories: one writer at a time, and only directories that are runs (issue 26, items 8 and
 * the output-dir rule of item 3), through the built CLI:
 *  - two `run case --offline --limit 60 --run-dir two` at once: the second stops with LOCKED naming
 *    the first; results.jsonl has exactly one line per item (it had 117 lines for 60 items, 57 run
 *    twice); a later resume works and the lock is gone;
 *  - `--run-dir .` and a non-empty folder that is not a run are refused and left as they were.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPassages, loadQuestions } from '../corpora/registry.js';
import type { Passage } from '../corpora/types.js';
import { buildIndex } from '../indexer/build.js';
import { cliChild, startCli } from '../tests/support/cli-child.js';

let dir: string;
let index: string;
const NO_LLM = { LEXCASE_LLM_BASE_URL: '', OPENAI_BASE_URL: '', LEXCASE_LLM_MODEL: '' };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-runlock-'));
  index = join(dir, 'idx');
  const gold = new Set((await loadQuestions('barexam', 'val')).slice(0, 60).flatMap((q) => q.goldPassageIds));
  const passages: Passage[] = [];
  for await (const p of loadPassages('barexam')) if (gold.has(p.id)) passages.push(p);
  let n = 0;
  for await (const p of loadPassages('legal_corpus')) if (n++ < 1500) passages.push(p);
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out: index, corpusName: 'test', workers: 0 },
  );
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const lines = (f: string) => readFileSync(f, 'utf8').split('\n').filter(Boolean);
// an option given twice is refused (src/cli/lexcase-command.ts): `limit` replaces the default 60
const runCase = (runDir: string, extra: string[] = [], limit = '60') => [
  'run',
  'case',
  '--offline',
  '--index',
  index,
  '--limit',
  limit,
  '--run-dir',
  runDir,
  ...extra,
];

describe('two runs of one run dir at once (item 8)', () => {
  it('the second gets LOCKED naming the first; results.jsonl holds one line per item; a later resume skips all 60', async () => {
    const runDir = join(dir, 'two');
    const first = startCli(runCase(runDir), { cwd: dir, env: NO_LLM });
    // Start the second once the first is running items.
    const results = join(runDir, 'results.jsonl');
    for (let i = 0; i < 2400 && !(existsSync(results) && lines(results).length > 0); i++) await new Promise((r) => setTimeout(r, 25));
    const second = await cliChild(runCase(runDir), { cwd: dir, env: NO_LLM });
    const one = await first.done;
    expect(lines(results)).toHaveLength(60); // 117 lines before the lock: 57 items ran twice
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(new RegExp(`two is locked: it is in use by run case \\(pid ${first.child.pid}, since `));
    expect(one.code).toBe(0);
    const ids = lines(results).map((l) => JSON.parse(l).id);
    expect(new Set(ids).size).toBe(60);
    expect(JSON.parse(readFileSync(join(runDir, 'report.json'), 'utf8')).sections.accuracy.n).toBe(60);
    expect(existsSync(join(runDir, 'run.lock'))).toBe(false);
    const again = await cliChild(['--json', ...runCase(runDir)], { cwd: dir, env: NO_LLM });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ ran: 0, skipped: 60 });
    expect(lines(join(runDir, 'results.jsonl'))).toHaveLength(60);
  }, 300_000);
});

describe('what --run-dir may be (item 3: the shared output-dir rule)', () => {
  it('`--run-dir .` and a non-empty folder that is not a run are refused before anything is written', async () => {
    const work = join(dir, 'work');
    mkdirSync(work);
    writeFileSync(join(work, 'thesis.txt'), 'mine\n');
    const dot = await cliChild(runCase('.', [], '2'), { cwd: work, env: NO_LLM });
    expect(dot.code).toBe(1);
    expect(dot.stderr).toMatch(/refusing to write a run to \.: it is the working directory/);
    const user = await cliChild(runCase(work, [], '2'), { cwd: dir, env: NO_LLM });
    expect(user.code).toBe(1);
    expect(user.stderr).toMatch(
      /refusing to write a run to .*work: it is a non-empty directory that is not a lexcase run \(no config\.json; it holds thesis\.txt\)/,
    );
    expect(readdirSync(work)).toEqual(['thesis.txt']);
  }, 120_000);
});
