/**
 * `lexcase demo [--dir .lexcase/demo]`: build the bundled default index if missing, evaluate bm25
 * and qld on the Bar Exam QA val split, print the Markdown table, write report.md/report.json.
 * The steps live in src/demo/steps.ts.
 */
import type { Command } from 'commander';
import { log } from '../../../core/log.js';
import { CORPORA } from '../../../corpora/catalog.js';
import { resamplesOpt } from '../numeric-options.js';
import { action, output, parseIntOpt, type GlobalOpts } from '../action.js';

interface DemoFlags {
  dir: string;
  rebuild?: boolean;
  iterations: number;
}

export function register(program: Command): void {
  program
    .command('demo')
    .description(
      `offline demo: build the bundled default corpus index (Bar Exam QA gold passages + public-domain legal_corpus, ${CORPORA.default.passages.toLocaleString('en-US')} passages) if missing, ` +
        "add a use-lite dense index (bundled model; the default corpus's vectors ship prebuilt; LEXCASE_DEMO_DENSE=0 skips it), evaluate bm25, qld, dense and hybrid on the Bar Exam QA val split " +
        '(seeded; the original split membership is not available), run the offline CASE advocates (heuristic, no LLM), print the report and write report.md/report.json',
    )
    .option('--dir <dir>', 'demo directory (index in <dir>/index)', '.lexcase/demo')
    .option('--rebuild', 'rebuild the index even if a matching one exists')
    .option('--iterations <n>', 'bootstrap resamples', resamplesOpt(), 2000)
    .action(
      action(async (flags: DemoFlags, cmd: Command) => {
        const g = cmd.optsWithGlobals() as GlobalOpts;
        const [{ runDemo }, { whileInterruptible }] = await Promise.all([import('../../demo/run-demo.js'), import('../../../core/interrupt.js')]);
        await whileInterruptible('demo', {}, async (signal) => {
          const r = await runDemo({ dir: flags.dir, rebuild: flags.rebuild, iterations: flags.iterations, signal, say: (l) => log.info(l) });
          output(g, { ...r.json, reportMd: r.reportMd, reportJson: r.reportJson }, () => `${r.markdown}\nwrote ${r.reportMd} and ${r.reportJson}`);
        });
      }),
    );
}
