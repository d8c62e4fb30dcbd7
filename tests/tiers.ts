/**
 * The two test tiers. `npm test` runs the fast tier (unit and in-process integration tests: under
 * 8 minutes on 2 cores); `npm run test:slow` runs the slow tier: every test file that starts a child
 * process (the built `lexcase`, a server, `npm pack`, Java for the Lucene reference) or a browser, and
 * the in-process files that took over ~15 s under a loaded 2-core machine (whole systems run end to
 * end, reproduction grids, fault injection). CI (`bash .ci/run`) runs both; `npm run test:all` too.
 *
 * tests/tiers.test.ts keeps the rule true: a test file that imports a child-process helper, node:child_process
 * or Playwright must be listed in PROCESS_TESTS, and every listed file must exist.
 */

/** Files that start a child process or a browser (checked by tests/tiers.test.ts). */
export const PROCESS_TESTS: readonly string[] = [
  'agents/mad/cited-evidence.test.ts',
  'agents/mad/snippet-handle-order.test.ts',
  'agents/requests.test.ts',
  'bench/peak-rss.test.ts',
  'bench/scale.test.ts',
  'bench/startup.test.ts',
  'core/config.test.ts',
  'core/llm/disk-cache-full.test.ts',
  'core/process-identity.test.ts',
  'corpora/legal-corpus-roleplay.test.ts',
  'corpora/unsafe-ids.test.ts',
  'eval/provenance.test.ts',
  'eval/reference/stats-agreement.test.ts',
  'eval/replay-fifo-process.test.ts',
  'eval/replay-refused.test.ts',
  'eval/run-dir-lock.test.ts',
  'eval/run-disk-full.test.ts',
  'eval/run-retry-interrupted.test.ts',
  'indexer/block-checksums.test.ts',
  'indexer/build-disk-full.test.ts',
  'indexer/build-interrupted.test.ts',
  'indexer/build-killed-midway.test.ts',
  'indexer/build-owned-dirs.test.ts',
  'indexer/dense/s3-object-storage.test.ts',
  'indexer/integrity.test.ts',
  'retrieval/dense-ties.test.ts',
  'retrieval/lance-relative-path.test.ts',
  'retrieval/lancedb-fts-large.test.ts',
  'retrieval/self-retrieval.test.ts',
  'serve/query/rm3-explain.test.ts',
  'serve/query/source-filter.test.ts',
  'src/api/api.test.ts',
  'src/cli/api-token-process.test.ts',
  'src/cli/cli-process.test.ts',
  'src/cli/commands/acal-contest-concurrent.test.ts',
  'src/cli/commands/eval-run-interrupt-process.test.ts',
  'src/cli/commands/index-build-process.test.ts',
  'src/cli/commands/index-dense-openai-process.test.ts',
  'src/cli/commands/index-dense-two-process.test.ts',
  'src/cli/commands/index-rebuild-process.test.ts',
  'src/cli/commands/reproduce-anserini.test.ts',
  'src/cli/commands/reproduce-offline.test.ts',
  'src/cli/llm-endpoint-process.test.ts',
  'src/cli/llm-faults.test.ts',
  'src/cli/llm-process.test.ts',
  'src/cli/long-waits-process.test.ts',
  'src/cli/messages-process.test.ts',
  'src/cli/output-paths-process.test.ts',
  'src/cli/reply-size-process.test.ts',
  'src/cli/run-interrupt-process.test.ts',
  'src/cli/search-large-passage.test.ts',
  'src/library-log-level.test.ts',
  'src/mcp/mcp.test.ts',
  'src/mcp/stdio-long-message.test.ts',
  'tests/cli/demo.test.ts',
  'tests/cli/eval.test.ts',
  'tests/cli/index-search.test.ts',
  'tests/cli/paper-schemas.test.ts',
  'tests/cli/reproduce.test.ts',
  'tests/cli/run-offline-modules.test.ts',
  'tests/cli/run.test.ts',
  'tests/cli/search-rm3-threads-topics.test.ts',
  'tests/cli/serve.test.ts',
  'tests/cli/stats-surfaces.test.ts',
  'tests/contract-fuzz.test.ts',
  'tests/docs/figures-run.test.ts',
  'tests/installed-package.test.ts',
  'tests/local-model.test.ts',
  'tests/lucene/lucene-reference.test.ts',
  'tests/package-exports.test.ts',
  'tests/package-files.test.ts',
  'tests/readme-library-example.test.ts',
  'tests/repeated-ids.test.ts',
  'tests/replay.test.ts',
  'tests/self-contained.test.ts',
  'tests/unbounded-numbers.test.ts',
  'web/explorer-browser.test.ts',
  'web/explorer-layout-compare.test.ts',
  'web/explorer-layout-pages.test.ts',
  'web/explorer-layout-runs.test.ts',
  'web/explorer-run-states-browser.test.ts',
  'web/llm-inspector.test.ts',
  'web/server/fifo-run.test.ts',
];

/**
 * Other slow files (over ~15 s each under load): whole systems against local servers, reproduction
 * grids, fault matrices, and browser tests that start Chromium through a shared helper.
 */
export const HEAVY_TESTS: readonly string[] = [
  'agents/case/experiment-index-content.test.ts',
  'bench/embed-scale.test.ts',
  'bench/run.test.ts',
  'eval/demo/build-index-step.test.ts',
  'eval/demo/dense-step.test.ts',
  'eval/fusion-sweep.test.ts',
  'eval/reproduce/reproduce-index-content.test.ts',
  'indexer/embed/use-lite-direct.test.ts',
  'indexer/embed/use-lite-tokenizer.test.ts',
  'src/cli/commands/index-dense.test.ts',
  'src/cli/commands/reproduce-llm.test.ts',
  'src/cli/commands/run-case.test.ts',
  'src/cli/commands/run-emar.test.ts',
  'src/demo/run-demo.test.ts',
  'tests/provider-presets.test.ts',
  'tests/toy-system.test.ts',
  'web/server/api.test.ts',
];

/** The slow tier: `npm run test:slow`. */
export const SLOW_TESTS: readonly string[] = [...PROCESS_TESTS, ...HEAVY_TESTS];
