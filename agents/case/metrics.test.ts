import { describe, expect, it } from 'vitest';
import type { ResultRecord } from '../../eval/types.js';
import { toolUsageSection } from '../../eval/report/sections/tool-usage.js';
import { tokensSection } from '../../eval/report/sections/tokens.js';
import { caseMetrics, caseMetricsMarkdown } from './metrics.js';

const rec = (id: string, correct: boolean, confidence: string, m: Record<string, boolean | null>, total = 100): ResultRecord => ({
  id,
  prediction: correct ? 'A' : 'B',
  gold: 'A',
  correct,
  confidence,
  metrics: m,
  tokens: { input: total - 10, output: 10, total, calls: 5, cached: 0, retried: 0 },
  ms: 1,
});
const trace = (calls: [string, string[]][]) => ({
  mode: 'llm',
  advocates: [{ toolCalls: calls.map(([tool, ids]) => ({ tool, ids })) }],
  tokens: { advocates: 60, jury: 40, total: 100 },
  jurors: [{ abstained: false }, { abstained: true }, { abstained: false }],
});

describe('caseMetrics', () => {
  const records = [
    rec('q1', true, 'high', { goldInCorrectEvidence: true, goldInAnyEvidence: true, goldEverReturned: true }),
    rec('q2', true, 'low', { goldInCorrectEvidence: false, goldInAnyEvidence: true, goldEverReturned: true }),
    rec('q3', false, 'low', { goldInCorrectEvidence: false, goldInAnyEvidence: false, goldEverReturned: true }),
    rec('q4', false, 'tie', { goldInCorrectEvidence: false, goldInAnyEvidence: false, goldEverReturned: false }),
    rec('q5', true, 'high', { goldInCorrectEvidence: null, goldInAnyEvidence: null, goldEverReturned: null }),
  ];
  const traces = new Map(
    records.map((r) => [
      r.id,
      trace([
        ['bm25_search', ['p1', 'p2']],
        ['qld_search', ['p2', 'p3']],
      ]),
    ]),
  );
  const m = caseMetrics(records, traces);

  it('accuracy and confidence strata, with CIs', () => {
    expect(m.accuracy.rate).toBeCloseTo(3 / 5);
    expect(m.accuracy.ci!.lo).toBeLessThanOrEqual(0.6);
    expect(m.accuracy.ci!.hi).toBeGreaterThanOrEqual(0.6);
    expect(m.byConfidence.high.rate).toBe(1);
    expect(m.byConfidence.low).toMatchObject({ n: 2, rate: 0.5 });
    expect(m.byConfidence.tie).toMatchObject({ n: 1, rate: 0 });
  });
  it('lists the confidence strata low → high (tie, low, high), the order of report.md’s "Accuracy by confidence" and its plot, not A→Z', () => {
    expect(Object.keys(m.byConfidence)).toEqual(['tie', 'low', 'high']);
    expect(caseMetricsMarkdown(m).match(/accuracy, \w+ confidence/g)).toEqual([
      'accuracy, tie confidence',
      'accuracy, low confidence',
      'accuracy, high confidence',
    ]);
  });
  it('lists an offline run’s strata none, tie, offline (a single best-scoring option), as its report and plot do', () => {
    const off = caseMetrics(
      [rec('q1', true, 'offline', {}), rec('q2', false, 'tie', {}), rec('q3', false, 'none', {}), rec('q4', true, 'offline', {})],
      new Map(),
    );
    expect(Object.keys(off.byConfidence)).toEqual(['none', 'tie', 'offline']);
  });
  it("gives the paper's low confidence (Table 4): every item that is not unanimous, the 1–1–1 tie and a failed item included", () => {
    const failed: ResultRecord = { ...rec('q6', false, 'tie', {}), prediction: null, error: 'no valid juror vote' };
    delete failed.confidence; // failed before the jury sat: no label
    const withFailed = caseMetrics([...records, failed], traces);
    expect(withFailed.notUnanimous).toMatchObject({ n: 4, rate: 0.25 }); // q2 right; q3, q4 (tie), q6 (failed) wrong
    expect(withFailed.byConfidence.high.n + withFailed.notUnanimous!.n).toBe(withFailed.accuracy.n);
    expect(caseMetricsMarkdown(withFailed)).toMatch(/\| accuracy, not unanimous \(low \+ tie \+ failed: the paper's low confidence\) +\| 25\.0%/);
    // an offline run has no jury: no such figure
    expect(caseMetrics([rec('o1', true, 'offline', {}), rec('o2', false, 'tie', {})], new Map()).notUnanimous).toBeUndefined();
  });
  it('evidence recall over questions with gold (nulls excluded)', () => {
    expect(m.evidenceRecall.goldInCorrectEvidence).toMatchObject({ n: 4, rate: 0.25 });
    expect(m.evidenceRecall.goldInAnyEvidence.rate).toBe(0.5);
    expect(m.evidenceRecall.goldEverReturned.rate).toBe(0.75);
    expect(m.evidenceRecall.goldInContext.n).toBe(0);
  });
  it('tool usage, tokens and abstentions from traces', () => {
    expect(m.tools.calls).toEqual({ bm25_search: 5, qld_search: 5 });
    expect(m.tools.callsPerQuestion).toBe(2);
    expect(m.tools.distinctPassagesPerQuestion).toBe(3);
    expect(m.tokens).toMatchObject({ total: 500, perItem: 100, items: 5, byStage: { advocates: 300, jury: 200 } });
    expect(m.abstentions).toBe(5);
    const md = caseMetricsMarkdown(m);
    expect(md).toMatch(/\| accuracy +\| 60\.0%/);
    expect(md).toMatch(/\| gold in correct hypothesis's evidence +\| 25\.0%/);
    expect(md).toContain('bm25_search 5');
  });
  it('tokens are what the run spent (the runner\'s count): 0 for a run the cache answered, whatever the traces kept; what no stage counted is "other"', () => {
    const cached = records.map((r) => ({ ...r, tokens: { input: 0, output: 0, total: 0, calls: 5, cached: 5, retried: 0 } }));
    // before: a total of 0 fell back to the traces' stages (500 tokens printed for a run that spent none)
    expect(caseMetrics(cached, traces).tokens.total).toBe(0);
    // and the Tokens line says why (before: no Tokens line at all)
    expect(caseMetricsMarkdown(caseMetrics(cached, traces))).toContain('Tokens: 0 total, 0.0 per item; 25 cache hits (no tokens).');
    // the query-rewrite tool's calls are in the runner's count but in no stage: 120 a question here
    const more = records.map((r) => ({ ...r, tokens: { ...r.tokens!, total: 220 } }));
    expect(caseMetrics(more, traces).tokens).toMatchObject({ total: 1100, byStage: { advocates: 300, jury: 200, other: 600 } });
    // records without the runner's count (older runs): the stages
    expect(
      caseMetrics(
        records.map(({ tokens, ...r }) => r),
        traces,
      ).tokens.total,
    ).toBe(500);
  });
  it('the Tokens line says how many requests were cut off when their item ended (a failed advocate cut its siblings off; before: in no count)', () => {
    const cut = records.map((r, i) => (i === 0 ? { ...r, correct: false, error: 'LLM request failed: HTTP 400', tokens: { ...r.tokens!, abandoned: 2 } } : r));
    expect(caseMetrics(cut, traces).tokens).toMatchObject({ total: 500, cutOff: 2 });
    expect(caseMetricsMarkdown(caseMetrics(cut, traces))).toMatch(
      /^Tokens: 500 total, 100.0 per item \(.*\); 2 requests cut off when their item ended \(their usage is in no total\)\.$/m,
    );
    expect(caseMetrics(records, traces).tokens).not.toHaveProperty('cutOff');
  });
  it("tool calls are the runner's record of each item, as the report's Tool usage section counts them (a failed item's advocates and the query-rewrite tool included)", async () => {
    const runnerCalls = [
      { tool: 'bm25_search', ids: ['p1', 'p2'] },
      { tool: 'rewrite_query', ids: [] },
      { tool: 'qld_search', ids: ['p3'] },
    ];
    // the advocates' own lists hold only the calls of those that finished
    const withRunner = new Map(records.map((r) => [r.id, { ...trace([['bm25_search', ['p1', 'p2']]]), runner: { toolCalls: runnerCalls } }]));
    const cm = caseMetrics(records, withRunner);
    const section = await toolUsageSection({ traces: withRunner } as never, {} as never);
    const usage = section!.json as { totalCalls: number; distinctPassagesPerItem: number; tools: Record<string, { calls: number }> };
    // before: bm25_search 5 only (1 a question) beside the section's 15 calls (3 a question)
    expect(cm.tools.calls).toEqual(Object.fromEntries(Object.entries(usage.tools).map(([t, e]) => [t, e.calls])));
    expect(cm.tools.callsPerQuestion).toBe(3);
    expect(cm.tools.distinctPassagesPerQuestion).toBe(usage.distinctPassagesPerItem);
  });
  it("tool calls per item are over the items whose traces were read, as the Tool usage section divides, and both say so when a recorded item's trace was not read", async () => {
    // q4 and q5: a retry stopped between its trace and its line (the trace is another attempt's: not read)
    const read = new Map([...traces].filter(([id]) => id !== 'q4' && id !== 'q5'));
    const cm = caseMetrics(records, read);
    const section = await toolUsageSection({ results: records, traces: read } as never, {} as never);
    const usage = section!.json as { items: number; itemsWithoutTrace?: number; callsPerItem: number; distinctPassagesPerItem: number };
    expect(usage).toMatchObject({ items: 3, itemsWithoutTrace: 2, callsPerItem: 2, distinctPassagesPerItem: 3 });
    // before: 1.2 per question and 1.8 distinct passages (6 calls over all 5 records) beside the section's 2.00 calls / item
    expect(cm.tools).toMatchObject({
      callsPerQuestion: usage.callsPerItem,
      distinctPassagesPerQuestion: usage.distinctPassagesPerItem,
      items: 3,
      itemsWithoutTrace: 2,
    });
    const over = "over the 3 of 5 items whose traces were read (2 not read: another attempt's, missing or of the wrong shape; their calls are in no figure)";
    expect(caseMetricsMarkdown(cm)).toContain(`(2.0 per item, 3.0 distinct passages returned per item; ${over}).`);
    expect(section!.markdown).toContain(`6 calls over 3 items; 3.0 distinct passages returned per item; calls / item and this figure ${over}.`);
    // every trace read: no such words, and the same figures
    expect(caseMetrics(records, traces).tools).not.toHaveProperty('itemsWithoutTrace');
    expect(caseMetricsMarkdown(caseMetrics(records, traces))).toContain('(2.0 per item, 3.0 distinct passages returned per item).');
  });
});

describe("caseMetrics: tokens per item, report.md's Tokens table's figure", () => {
  it('is one figure over one set of items (those whose lines record tokens, a failed one included), printed as the table prints it; lines an older lexcase wrote without tokens are named, and their stages left out', async () => {
    const failed: ResultRecord = { ...rec('mbe_3', false, 'low', {}, 1116), prediction: null, error: 'LLM_REQUEST_FAILED: HTTP 500' };
    delete failed.confidence;
    const older = (id: string): ResultRecord => {
      const { tokens: _none, ...r } = rec(id, true, 'high', {});
      return r;
    };
    const recs = [rec('mbe_1', true, 'high', {}, 1000), rec('mbe_2', false, 'low', {}, 1201), failed, older('mbe_4'), older('mbe_5')];
    const traces = new Map(recs.map((r) => [r.id, trace([])]));
    const m = caseMetrics(recs, traces);
    const table = (await tokensSection({ dir: 'run', config: {}, results: recs, traces, droppedTail: false } as never, {} as never))!;
    const json = table.json as { items: number; perItem: number; itemsWithoutTokens?: number };
    // before: 3,317 tokens over all 5 items, "663 per question", beside the table's 1105.7 per item over the 3 that record them
    expect(m.tokens).toMatchObject({ total: 3317, items: 3, itemsWithoutTokens: 2, perItem: json.perItem });
    expect(json).toMatchObject({ items: 3, itemsWithoutTokens: 2 });
    expect(table.markdown).toMatch(/\| total +\| 3,317 +\| +1105\.7 +\|/);
    expect(table.markdown).toContain('**Per item: over the 3 of 5 items whose results.jsonl lines record tokens**');
    expect(caseMetricsMarkdown(m)).toMatch(/^Tokens: 3,317 total, 1105\.7 per item over the 3 of 5 items whose results\.jsonl lines record tokens \(/m);
    // the stages of the items the total counts: the parts add up to it (before, the older items' 200 stage tokens were added to them)
    expect(Object.values(m.tokens.byStage).reduce((a, b) => a + b, 0)).toBe(m.tokens.total);
    // every line records tokens: no words beside the figure
    const all = caseMetrics(recs.slice(0, 3), traces);
    expect(all.tokens).not.toHaveProperty('itemsWithoutTokens');
    expect(caseMetricsMarkdown(all)).toMatch(/^Tokens: 3,317 total, 1105\.7 per item \(/m);
  });
});

describe('caseMetrics: exploratory hypotheses mapped to no option', () => {
  it('counts the hypotheses equally close to several options (credited to none) and prints the count; direct runs get no row', () => {
    const records = [rec('q1', true, 'tie', {}), rec('q2', false, 'low', {})];
    const traces = new Map<string, Record<string, unknown>>([
      [
        'q1',
        {
          ...trace([]),
          hypotheses: [
            { key: 'H1', letter: null, tiedLetters: ['C', 'D'] },
            { key: 'H2', letter: 'B' },
          ],
        },
      ],
      [
        'q2',
        {
          ...trace([]),
          hypotheses: [
            { key: 'H1', letter: 'A' },
            { key: 'H2', letter: null },
          ],
        },
      ],
    ]);
    const m = caseMetrics(records, traces);
    expect(m.tiedHypotheses).toEqual({ tied: 1, of: 4 });
    expect(caseMetricsMarkdown(m)).toMatch(/\| exploratory hypotheses equally close to several options \(credited to none\) +\| 1 of 4 +\|/);
    // q2's H2 shares no word with any option: credited to none too, counted apart (before: in no count)
    expect(m.unmappedHypotheses).toEqual({ unmapped: 1, of: 4 });
    expect(caseMetricsMarkdown(m)).toMatch(/\| exploratory hypotheses close to no option \(sharing no word with any; credited to none\) +\| 1 of 4 +\|/);
    const direct = new Map<string, Record<string, unknown>>([['q1', { ...trace([]), hypotheses: [{ key: 'A', letter: 'A' }] }]]);
    expect(caseMetrics([records[0]], direct).tiedHypotheses).toBeUndefined();
    expect(caseMetrics([records[0]], direct).unmappedHypotheses).toBeUndefined();
  });
});

describe('caseMetrics: the gold rows over failed items', () => {
  it('say the failed items count as misses (12 items failed before any tool call: 0.0% would read as measured)', () => {
    const failed: ResultRecord[] = Array.from({ length: 12 }, (_, i) => ({
      id: `mbe_${i}`,
      prediction: null,
      gold: 'C',
      correct: false,
      ms: 1,
      error: 'LLM_REQUEST_FAILED: HTTP 500',
      metrics: { goldInCorrectEvidence: false, goldInAnyEvidence: false, goldEverReturned: false, goldInIndex: true },
    }));
    // before: the rows "0.0% [0.0, 24.2] 95% Wilson (n=12)" with nothing saying the 12 never searched
    expect(caseMetricsMarkdown(caseMetrics(failed, new Map()))).toContain('Gold rows: 12 failed items count as misses, as accuracy counts them as wrong.');
  });

  it('say which rows count a failed item as a hit (its advocates found the gold before a juror\'s request failed; before: "count as misses")', () => {
    const records: ResultRecord[] = [
      rec('mbe_1', false, 'low', { goldInCorrectEvidence: false, goldInAnyEvidence: false, goldEverReturned: false, goldInIndex: true }),
      {
        id: 'mbe_222',
        prediction: null,
        gold: 'C',
        correct: false,
        ms: 1,
        error: 'LLM_REQUEST_FAILED: HTTP 500',
        metrics: { goldInCorrectEvidence: true, goldInAnyEvidence: true, goldEverReturned: true, goldInIndex: true },
      },
    ];
    const m = caseMetrics(records, new Map());
    expect(m.evidenceRecall.goldInAnyEvidence).toMatchObject({ rate: 0.5, n: 2 });
    expect(m.failedGoldHits).toEqual({ goldInCorrectEvidence: 1, goldInAnyEvidence: 1, goldEverReturned: 1 });
    const md = caseMetricsMarkdown(m);
    expect(md).toContain(
      `Gold rows: 1 failed item counts with what its advocates found before it failed, while accuracy counts it as wrong: "gold in correct hypothesis's evidence" counts 1 of them as a hit, "gold in any advocate's evidence" counts 1 of them as a hit, "gold ever returned by a tool call" counts 1 of them as a hit.`,
    );
    expect(md).not.toContain('count as misses');
  });
});

describe('caseMetrics: a jury run whose every item was a tie', () => {
  it('keeps its "not unanimous" row (the paper\'s low confidence), read from the traces\' panels (before: left out)', () => {
    const records = ['1', '2', '3', '4'].map((i) => rec(`mbe_${i}`, i === '1', 'tie', {}));
    const traces = new Map(records.map((r) => [r.id, { panel: ['Lawyer', 'Judge', 'Student'] }]));
    const m = caseMetrics(records, traces);
    expect(m.notUnanimous).toMatchObject({ rate: 0.25, n: 4 });
    expect(caseMetricsMarkdown(m)).toContain("accuracy, not unanimous (low + tie + failed: the paper's low confidence)");
    // an offline run (no panel) has none
    expect(caseMetrics(records, new Map()).notUnanimous).toBeUndefined();
  });
});

describe('caseMetrics: items with no answer', () => {
  it('name their stratum "items with no answer", not "none confidence" (every juror of all 8 items failed)', () => {
    const none: ResultRecord[] = Array.from({ length: 8 }, (_, i) => ({ ...rec(`mbe_${i}`, false, 'none', {}), prediction: null }));
    const md = caseMetricsMarkdown(caseMetrics(none, new Map()));
    expect(md).toMatch(/\| accuracy, items with no answer \(confidence "none"; counted wrong\) +\| 0\.0%/);
    expect(md).not.toContain('none confidence');
  });
});

describe('caseMetrics: evidence cited as no passage handle shown', () => {
  it('is counted in report.json and as a row beside the gold-in-evidence rows it leaves out (before 2026-12-01: uncounted)', () => {
    const recs = [
      { ...rec('q1', true, 'high', { goldInAnyEvidence: false }), metrics: { goldInAnyEvidence: false, unresolvedCitations: 3 } },
      { ...rec('q2', true, 'high', { goldInAnyEvidence: true }), metrics: { goldInAnyEvidence: true, unresolvedCitations: 0 } },
      { ...rec('q3', false, 'high', { goldInAnyEvidence: false }), metrics: { goldInAnyEvidence: false, unresolvedCitations: 1 } },
    ];
    const m = caseMetrics(recs, new Map());
    expect(m.unresolvedCitations).toEqual({ citations: 4, items: 2 });
    expect(caseMetricsMarkdown(m)).toMatch(/\| evidence cited as no passage handle shown \(dropped from the evidence\) +\| 4 in 2 items +\|/);
    // one item: "1 item", not "1 items"
    expect(caseMetricsMarkdown(caseMetrics(recs.slice(0, 2), new Map()))).toMatch(
      /\| evidence cited as no passage handle shown \(dropped from the evidence\) +\| 3 in 1 item +\|/,
    );
    // a run that records none (before 2026-12-01) says nothing
    expect(
      caseMetrics(
        recs.slice(0, 2).map((r) => ({ ...r, metrics: { goldInAnyEvidence: true } })),
        new Map(),
      ),
    ).not.toHaveProperty('unresolvedCitations');
  });
});

describe('caseMetrics: advocate picks beyond k', () => {
  it('counts them beside the picks naming no handle, and names the items of a resumed older run dir that were not counted', () => {
    const recs: ResultRecord[] = [
      { ...rec('q1', true, 'high', {}), metrics: { abstentions: 0, picksBeyondK: 3 } },
      { ...rec('q2', true, 'high', {}), metrics: { abstentions: 0, picksBeyondK: 0 } },
      { ...rec('q3', false, 'high', {}), metrics: { abstentions: 1 } }, // written before the count
    ];
    const m = caseMetrics(recs, new Map());
    expect(m.picksBeyondK).toEqual({ picks: 3, items: 1, uncounted: 1 });
    expect(caseMetricsMarkdown(m)).toMatch(
      /\| advocate picks beyond k \(dropped from the evidence\) +\| 3 in 1 item \(1 item from before the count not counted\) +\|/,
    );
    // a run that records none (before 2026-12-01, offline) says nothing
    expect(caseMetrics([recs[2]], new Map())).not.toHaveProperty('picksBeyondK');
  });
});
