/** The files a run dir holds (eval/run-dir.ts); a module of its own so the output checks (run-dir-guard.ts) read the names without the run records' schemas. */
export const RUN_FILES = {
  config: 'config.json',
  results: 'results.jsonl',
  traces: 'traces',
  llm: 'llm',
  reportMd: 'report.md',
  reportJson: 'report.json',
  underWay: 'under-way',
};
