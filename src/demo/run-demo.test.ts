import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDemo } from './run-demo.js';
import { DEMO_STEPS } from './steps.js';
import type { DemoStep } from '../../eval/demo/types.js';

describe('runDemo', () => {
  it('builds the index once, evaluates bm25 and qld on the barexam val split, writes report.md/json, then reuses the index', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-demo-'));
    const said: string[] = [];
    // The barexam gold-passage corpus (1,149 passages) keeps the test fast; `lexcase demo` uses "default".
    // The dense step (use-lite embedding, minutes on 2 cores) is tested in eval/demo/dense-step.test.ts.
    const steps = DEMO_STEPS.filter((s) => s.name !== 'dense');
    const first = await runDemo({ dir, corpus: 'barexam', iterations: 100, steps, say: (l) => said.push(l) });
    expect(said[0]).toMatch(/building the barexam index/);
    const md = await readFile(join(dir, 'report.md'), 'utf8');
    expect(md).toBe(first.markdown);
    expect(md).toContain('Corpus: **barexam** (1,149 passages)');
    expect(md).toContain('split **val** (n = 124, split seed 13');
    expect(md).toContain('856,835-passage pool');
    expect(md).toMatch(/\| method +\| +Recall@1 \| +Recall@10 \| +Recall@100 \| +Recall@1000 \| +MRR@10 \| +nDCG@10 \| p50 ms \|/);
    expect(md).toMatch(/\| bm25 +\| \d\.\d{3} \[/);
    expect(md).toMatch(/\| qld +\| \d\.\d{3} \[/);
    // the Recall@k plot: an SVG beside report.md, embedded in it, one curve per method
    expect(md).toContain('![Recall@k per method with 95% interval bands (Wilson for 0/1 recall, bootstrap for graded)](recall-at-k.svg)');
    const svg = await readFile(join(dir, 'recall-at-k.svg'), 'utf8');
    expect(svg.startsWith('<svg')).toBe(true);
    for (const m of ['>bm25<', '>qld<', 'Recall@k']) expect(svg).toContain(m);
    const json = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8'));
    expect(json.index).toMatchObject({ built: true, corpus: { name: 'barexam', passages: 1149 } });
    const results = json.retrieval.results as Array<{ method: string; n: number; metrics: Record<string, { estimate: number }> }>;
    expect(results.map((r) => [r.method, r.n])).toEqual([
      ['bm25', 124],
      ['qld', 124],
    ]);
    // Every gold passage is in this corpus and it has only 1,149 passages: Recall@1000 must be high.
    for (const r of results) expect(r.metrics['recall@1000'].estimate).toBeGreaterThan(0.9);
    // the curve agrees with the table at the table's k
    const curves = json.retrieval.curves as Array<{ method: string; k: number; recall: number }>;
    for (const r of results)
      for (const k of [1, 10, 100]) expect(curves.find((c) => c.method === r.method && c.k === k)!.recall).toBeCloseTo(r.metrics[`recall@${k}`].estimate, 10);

    const again = await runDemo({ dir, corpus: 'barexam', iterations: 100, steps });
    expect((again.json.index as { built: boolean }).built).toBe(false);
    type R = { results: Array<{ method: string; metrics: unknown }> };
    const metricsOf = (x: unknown) => (x as R).results.map((r) => [r.method, r.metrics]);
    expect(metricsOf(again.json.retrieval)).toEqual(metricsOf(first.json.retrieval));
  }, 240_000); // builds an index and evaluates two methods: ~20 s idle, over 60 s at load 15

  it('runs extra steps in order with the shared context (how dense/CASE steps plug in)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-demo-'));
    const order: string[] = [];
    const first: DemoStep = {
      name: 'first',
      async run(ctx) {
        ctx.evalMethods.push('dense');
        ctx.data.first = { ok: true };
      },
    };
    const extra: DemoStep = {
      name: 'extra',
      async run(ctx) {
        order.push(`extra saw ${ctx.evalMethods.join(',')} and ${JSON.stringify(ctx.data.first)}`);
        ctx.sections.push({ title: 'Extra', markdown: 'extra section' });
      },
    };
    const r = await runDemo({ dir, steps: [first, extra] });
    expect(order).toEqual(['extra saw bm25,qld,dense and {"ok":true}']);
    expect(r.markdown).toContain('## Extra\n\nextra section');
    expect(r.json.steps).toEqual(['first', 'extra']);
    expect(r.json.first).toEqual({ ok: true });
    expect(DEMO_STEPS.slice(0, 3).map((x) => x.name)).toEqual(['build-index', 'dense', 'retrieval-eval']);
  });
});
