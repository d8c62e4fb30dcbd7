/**
 * runDemo: run the demo steps in order and write <dir>/report.md and <dir>/report.json; <dir> must
 * be new, empty or an earlier demo's (src/demo/demo-dir.ts).
 * Defaults: corpus "default" (Bar Exam QA gold passages + legal_corpus), methods bm25 and qld,
 * Bar Exam QA val split (124 questions, split seed 13), 2,000 bootstrap resamples (seed 13).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { VERSION } from '../../core/version.js';
import { DEFAULT_SPLIT_SEED } from '../../corpora/splits.js';
import type { DemoContext, DemoStep } from '../../eval/demo/types.js';
import { DEMO_STEPS } from './steps.js';
import { checkDemoDir, DEMO_FILES } from './demo-dir.js';

export interface DemoOptions extends Partial<Omit<DemoContext, 'sections' | 'data' | 'say' | 'indexDir'>> {
  say?: (line: string) => void;
  steps?: DemoStep[];
}

export interface DemoResult {
  dir: string;
  markdown: string;
  json: Record<string, unknown>;
  reportMd: string;
  reportJson: string;
}

export async function runDemo(opts: DemoOptions = {}): Promise<DemoResult> {
  const dir = resolve(opts.dir ?? join('.lexcase', 'demo'));
  // Never over files the demo did not make (src/demo/demo-dir.ts): checked before any step runs.
  checkDemoDir(dir);
  const ctx: DemoContext = {
    dir,
    indexDir: join(dir, DEMO_FILES.index),
    corpus: opts.corpus ?? 'default',
    indexMethods: opts.indexMethods ?? ['bm25', 'qld'],
    evalMethods: opts.evalMethods ?? ['bm25', 'qld'],
    denseOptions: opts.denseOptions,
    dataset: opts.dataset ?? 'barexam',
    split: opts.split ?? 'val',
    splitSeed: opts.splitSeed ?? DEFAULT_SPLIT_SEED,
    seed: opts.seed ?? 13,
    iterations: opts.iterations ?? 2000,
    rebuild: opts.rebuild ?? false,
    say: opts.say ?? (() => {}),
    signal: opts.signal,
    sections: [],
    data: {},
  };
  await mkdir(dir, { recursive: true });
  const t0 = performance.now();
  const steps = opts.steps ?? DEMO_STEPS;
  for (const step of steps) {
    ctx.signal?.throwIfAborted();
    await step.run(ctx);
  }
  const seconds = (performance.now() - t0) / 1000;
  const markdown = [
    `# lexcase demo`,
    ``,
    `lexcase ${VERSION} · ${new Date().toISOString()} · steps: ${steps.map((s) => s.name).join(', ')} · ${seconds.toFixed(1)} s`,
    ``,
    ...ctx.sections.flatMap((s) => [`## ${s.title}`, ``, s.markdown, ``]),
  ].join('\n');
  const json = { kind: 'lexcase-demo', lexcaseVersion: VERSION, createdAt: new Date().toISOString(), seconds, steps: steps.map((s) => s.name), ...ctx.data };
  const reportMd = join(dir, DEMO_FILES.reportMd);
  const reportJson = join(dir, DEMO_FILES.reportJson);
  await writeFile(reportMd, markdown);
  await writeFile(reportJson, JSON.stringify(json, null, 2) + '\n');
  return { dir, markdown, json, reportMd, reportJson };
}
