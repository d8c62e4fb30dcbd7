/**
 * What failed attempts spent stays in the run after a retry replaces them (audit: 8 MAD items, 4
 * failed; the retry replaced their lines, and report.md, the explorer and /v1 said 343,562 tokens
 * while 501,409 were spent — 157,847 on the failed attempts vanished from every total, config.json
 * said only `retried: 4`). The new line keeps how many attempts it replaced and their tokens
 * (`replacedAttempts`, not in its own `tokens`); report.md's Tokens section and the explorer's run
 * summary say how many tokens more were spent on them.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HumanMessage } from '@langchain/core/messages';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeChatModel } from '../tests/support/fake-chat-model.js';
import { runSummary } from '../web/server/run-summary-api.js';
import { caseMetrics, caseMetricsMarkdown } from '../agents/case/metrics.js';
import { readRun } from './report/read-run.js';
import { tokensSection } from './report/sections/tokens.js';
import { readResults } from './run-dir.js';
import { replyFlagsText, runReplyFlags, runTokensText } from './run-counts.js';
import { contextFrom, runExperiment } from './runner.js';
import type { AgentSystem } from './types.js';

interface Q {
  id: string;
  answer: string;
}
const ITEMS: Q[] = ['mbe_137', 'mbe_581', 'mbe_682', 'mbe_866'].map((id, i) => ({ id, answer: 'ABCD'[i] }));

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-retried-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Two debate turns per item (1,000 in + 100 out each); the items in `down` then fail. */
function debate(down: string[]): AgentSystem<Q> {
  return async (item, ctx) => {
    for (const turn of [1, 2]) await ctx.llm!.invoke([new HumanMessage(`[${item.id}] turn ${turn}`)]);
    return down.includes(item.id) ? { prediction: null, trace: {}, error: 'LLM_REQUEST_FAILED: HTTP 400 bad request' } : { prediction: item.answer, trace: {} };
  };
}

const llm = new FakeChatModel(() => ({ content: 'argued', usage: { input: 1000, output: 100 } }));
const run = (down: string[]) =>
  runExperiment({
    runDir: dir,
    system: debate(down),
    items: ITEMS,
    gold: (q) => q.answer,
    makeContext: contextFrom({ llm }),
    config: { system: 'debate' },
    seed: 1,
  });

describe('tokens of failed attempts a retry replaced', () => {
  it('stay on the new line, in report.md and in the explorer summary; each item keeps its own tokens', async () => {
    expect(await run(['mbe_581', 'mbe_682'])).toMatchObject({ failed: 2 });
    expect(await run(['mbe_682'])).toMatchObject({ retried: 2, failed: 1 }); // mbe_682 fails again
    expect(await run([])).toMatchObject({ retried: 1, failed: 0 });

    const byId = new Map((await readResults(dir)).records.map((r) => [r.id, r]));
    for (const r of byId.values()) expect(r.tokens).toMatchObject({ calls: 2, total: 2200 }); // the recorded attempt's own
    expect(byId.get('mbe_137')!.replacedAttempts).toBeUndefined();
    expect(byId.get('mbe_581')!.replacedAttempts).toMatchObject({ attempts: 1, tokens: { calls: 2, total: 2200 } });
    expect(byId.get('mbe_682')!.replacedAttempts).toMatchObject({ attempts: 2, tokens: { calls: 4, total: 4400 } });

    // before: the Tokens section said 8,800 and nothing else, while 15,400 were spent
    const section = (await tokensSection(await readRun(dir), {} as never))!;
    expect(section.json).toMatchObject({ total: 8800, replacedAttempts: { items: 2, attempts: 3, total: 6600, calls: 6 } });
    expect(section.markdown).toContain(
      "**6,600 tokens more (6 LLM calls) were spent on 3 failed attempts that a retry replaced** (2 items; not in the figures above, which are each item's recorded attempt): 15,400 tokens were spent in all.",
    );

    const summary = await runSummary({ id: 'r', dir, root: dir, kind: 'run', items: 4, correct: 4, graphs: 0 });
    expect(summary).toMatchObject({ tokens: 8800, retriedTokens: 6600 });

    // the end-of-run line and CASE's Tokens line (its --json metrics too): before, "tokens 8,800" alone, below the first run's
    // 8,800 + nothing though the resumes only added spending
    const records = [...byId.values()];
    expect(runTokensText(records, 2200)).toMatch(
      /^tokens 8,800 \(whole run; this call 2,200\); plus 6,600 tokens \(6 LLM calls\) spent on 3 failed attempts a retry replaced \(not in the total, which counts each item's recorded attempt\)/,
    );
    const m = caseMetrics(records, new Map());
    expect(m.tokens).toMatchObject({ total: 8800, replacedAttempts: { items: 2, attempts: 3, total: 6600, calls: 6 } });
    expect(caseMetricsMarkdown(m)).toContain('; plus 6,600 tokens (6 LLM calls) spent on 3 failed attempts a retry replaced');
  });

  it('a run without retries, or one written before the field existed, shows nothing more', async () => {
    await run([]);
    expect(runTokensText((await readResults(dir)).records, 8800)).not.toMatch(/retry replaced/);
    const section = (await tokensSection(await readRun(dir), {} as never))!;
    expect(section.json).not.toHaveProperty('replacedAttempts');
    expect(section.markdown).not.toMatch(/retry replaced/);
    expect(await runSummary({ id: 'r', dir, root: dir, kind: 'run', items: 4, correct: 4, graphs: 0 })).toMatchObject({ retriedTokens: 0 });
  });

  it("says what the replaced attempts' replies flagged (cut short, no usage): the summary line counted them, report.md said nothing of them", async () => {
    // mbe_581's recorded attempt is clean; the attempt a retry replaced had a reply cut short at the token limit and one without usage
    const line = (id: string, replaced?: object) =>
      JSON.stringify({
        id,
        prediction: 'A',
        gold: 'A',
        correct: true,
        ms: 5,
        tokens: { input: 1000, output: 100, total: 1100, calls: 1, cached: 0 },
        ...(replaced ? { replacedAttempts: { attempts: 1, tokens: replaced } } : {}),
      });
    writeFileSync(
      join(dir, 'results.jsonl'),
      `${line('mbe_137')}\n${line('mbe_581', { input: 1500, output: 50, total: 1550, calls: 2, cached: 0, cutShort: 1, unreported: 1 })}\n`,
    );
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ seed: 1, config: { system: 'debate' }, provenance: { items: 2 } }));
    const records = (await readResults(dir)).records;
    // the summary line: the whole run's replies, the replaced attempts' among them
    expect(runTokensText(records, 2200)).toContain('; 1 of 4 LLM calls reported no token usage');
    expect(runTokensText(records, 2200)).toContain('; 1 reply cut short at the token limit');
    const section = (await tokensSection(await readRun(dir), {} as never))!;
    // the rows are the recorded attempts' (none flagged); the replaced attempts' note says theirs (before: nowhere)
    expect(section.markdown).not.toMatch(/\| replies cut short/);
    expect(section.markdown).toContain(
      `**1,550 tokens more (2 LLM calls${replyFlagsText(runReplyFlags(records, 'replaced'))}) were spent on 1 failed attempt that a retry replaced**`,
    );
    expect(replyFlagsText(runReplyFlags(records, 'replaced'))).toBe(
      '; 1 of 2 LLM calls reported no token usage (the endpoint sent none; not in the total); 1 reply cut short at the token limit (finish_reason "length")',
    );
  });
});
