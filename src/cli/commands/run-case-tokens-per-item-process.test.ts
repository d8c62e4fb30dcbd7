/**
 * One token figure per item, printed one way: the built CLI (a child process) runs `run case` on 3
 * Bar Exam val items against an OpenAI-compatible server on 127.0.0.1 that reports each reply's usage
 * (advocates' searches and picks, jurors' votes) and refuses the second juror of the third item (HTTP
 * 400: that item fails, having spent its advocates' and its first juror's tokens). The run's own
 * output, report.md (its CASE section and its Tokens table), report.json and `--json` must give the
 * same tokens per item, over the same items (the failed one included), recounted from results.jsonl.
 * Then one results line is stripped of its tokens (as an older lexcase wrote it) and `lexcase report`
 * must say, in both places, that the figure is over the 2 of 3 items whose lines record tokens.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { perItemTokensText } from '../../../eval/tokens-per-item.js';
import { factsOf } from '../../../agents/common/question-text.js';
import { caseScriptedRun } from '../../../tests/support/case-scripted-run.js';
import { runBuiltCli } from '../../../tests/support/run-built-cli.js';

const N = 3;
const jurorCalls = new Map<number, number>();

const run = caseScriptedRun({
  prefix: 'lexcase-tokens-per-item-',
  items: N,
  searchK: 3,
  usage: { search: { prompt_tokens: 700, completion_tokens: 31 }, pick: { prompt_tokens: 900, completion_tokens: 58 } },
  juror: (all, val) => {
    if (!/juror on a panel/.test(all)) return undefined;
    const item = val.findIndex((q) => all.includes(factsOf(q)));
    const n = (jurorCalls.get(item) ?? 0) + 1;
    jurorCalls.set(item, n);
    if (item === N - 1 && n === 2) return { status: 400, error: 'this juror is refused' };
    return { json: { reasoning: 'weighing the evidence', vote: 'A' }, usage: { prompt_tokens: 1200, completion_tokens: 41 } };
  },
});
const { env } = run;
/** The CASE Tokens line's total and per-item figure, and what follows "per item" up to the stages. */
const caseLine = (s: string) => /^Tokens: ([\d,]+) total, ([\d.]+) per item([^(]*)\(/m.exec(s);
/** report.md's Tokens table: its total row's total and per-item cells. */
const tableRow = (md: string) => /^\| total +\| +([\d,]+) +\| +([\d.]+) +\|$/m.exec(md);

describe('run case: tokens per item', () => {
  it('the run output, report.md (CASE section and Tokens table), report.json and --json give one figure over the same items, a failed one included', async () => {
    const runDir = join(run.dir, 'run');
    const args = ['run', 'case', '--index', run.index, '--limit', String(N), '--tools', 'bm25', '--k', '2', '--run-dir', runDir, '--no-cache'];
    const r = await runBuiltCli(args, { cwd: run.dir, env: env(), timeoutMs: 240_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(jurorCalls.get(N - 1)).toBe(2);

    // recounted from results.jsonl: every line records tokens, the failed item's too
    const results = readFileSync(join(runDir, 'results.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id: string; error?: string; tokens: { total: number } });
    expect(results.filter((x) => x.error).map((x) => x.id)).toEqual([run.val[N - 1].id]);
    const total = results.reduce((s, x) => s + x.tokens.total, 0);
    expect(total % N).not.toBe(0); // a figure with a fraction, which rounding shows
    const perItem = perItemTokensText(total / N);

    const printed = caseLine(r.stdout);
    expect(printed, r.stdout).not.toBeNull();
    // before: "Tokens: 27724 total, 9241 per question" here beside report.md's Tokens table's "27,724 | 9241.3"
    expect([printed![1], printed![2], printed![3].trim()]).toEqual([total.toLocaleString('en-US'), perItem, '']);
    const md = readFileSync(join(runDir, 'report.md'), 'utf8');
    expect(caseLine(md)?.slice(1, 3)).toEqual([total.toLocaleString('en-US'), perItem]);
    expect(tableRow(md)?.slice(1, 3)).toEqual([total.toLocaleString('en-US'), perItem]);

    const report = JSON.parse(readFileSync(join(runDir, 'report.json'), 'utf8'));
    expect(report.sections.tokens).toMatchObject({ items: N, perItem: total / N });
    expect(report.sections.case.tokens).toMatchObject({ total, items: N, perItem: total / N });
    // the --json summary (a resume keeping the failed item failed: no request sent)
    const sent = run.srv.requests.length;
    const j = await runBuiltCli(['--json', ...args, '--no-retry-failed'], { cwd: run.dir, env: env(), timeoutMs: 240_000 });
    expect(j.code, j.stderr).toBe(0);
    expect(run.srv.requests.length).toBe(sent);
    expect(JSON.parse(j.stdout).metrics.tokens).toMatchObject({ total, items: N, perItem: total / N });

    // a line an older lexcase wrote without tokens: in neither figure, and both say so
    const lines = readFileSync(join(runDir, 'results.jsonl'), 'utf8').split('\n').filter(Boolean);
    const first = JSON.parse(lines[0]);
    const left = total - first.tokens.total;
    delete first.tokens;
    writeFileSync(join(runDir, 'results.jsonl'), `${[JSON.stringify(first), ...lines.slice(1)].join('\n')}\n`);
    const rep = await runBuiltCli(['report', runDir], { cwd: run.dir, env: env() });
    expect(rep.code, rep.stderr).toBe(0);
    const md2 = readFileSync(join(runDir, 'report.md'), 'utf8');
    const over = perItemTokensText(left / (N - 1));
    expect(caseLine(md2)?.slice(1, 4)).toEqual([
      left.toLocaleString('en-US'),
      over,
      ` over the ${N - 1} of ${N} items whose results.jsonl lines record tokens `,
    ]);
    expect(tableRow(md2)?.slice(1, 3)).toEqual([left.toLocaleString('en-US'), over]);
    expect(md2).toContain(`**Per item: over the ${N - 1} of ${N} items whose results.jsonl lines record tokens**`);
  }, 300_000);
});
