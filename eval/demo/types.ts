/**
 * The demo is an ordered list of steps (src/demo/steps.ts) sharing one context. A step reads and
 * extends the context (e.g. the dense step adds "dense" to `indexMethods` and `evalMethods`) and
 * appends a Markdown section and a JSON entry to the report. Adding a step = one file + one line.
 */
import type { Split } from '../../corpora/types.js';
import type { BuildOptions } from '../../indexer/build.js';

export interface DemoSection {
  title: string;
  markdown: string;
}

export interface DemoContext {
  /** Demo dir (default .lexcase/demo under the cwd); report.md and report.json go here. */
  dir: string;
  /** Index dir of the demo corpus (<dir>/index). */
  indexDir: string;
  /** Bundled corpus to index (default "default" = Bar Exam QA gold passages + legal_corpus). */
  corpus: string;
  /** Methods the index must have; steps may add some (e.g. "dense"). */
  indexMethods: string[];
  /** Retrieval methods to evaluate, in table order; steps may add some (e.g. "dense", "hybrid"). */
  evalMethods: string[];
  /** Options passed to buildIndex as `dense` when "dense" is in indexMethods. */
  denseOptions?: BuildOptions['dense'];
  dataset: string;
  split: Split;
  splitSeed: number;
  /** Bootstrap seed and resamples. */
  seed: number;
  iterations: number;
  /** Rebuild the index even if a matching one exists. */
  rebuild: boolean;
  /** Human progress line (stderr; silent with --json/--quiet). */
  say(line: string): void;
  signal?: AbortSignal;
  /** Report pieces, in step order. */
  sections: DemoSection[];
  data: Record<string, unknown>;
}

export interface DemoStep {
  name: string;
  run(ctx: DemoContext): Promise<void>;
}
