/** `lexcase/eval`: metrics, the statistics module (eval/stats: one interval method per measure kind, paired tests), bootstrap CIs, retrieval evaluation, TREC tooling, the experiment runner and reports (eval/). */
import '../../agents/systems.js';
export type * from '../../eval/types.js';
export { resultRecordSchema, registerTraceSchema, traceSchemaFor, baseTraceSchema } from '../../eval/records.js';
export * from '../../eval/metrics/index.js';
export {
  bootstrapCi,
  bootstrapStatisticCi,
  pairedBootstrap,
  unpairedBootstrap,
  percentile,
  type Ci,
  type DiffCi,
  type BootstrapOptions,
} from '../../eval/bootstrap.js';
export { wilsonCi, type WilsonCi } from '../../eval/wilson.js';
export {
  proportionInterval,
  meanInterval,
  statisticInterval,
  perItemInterval,
  pairedDifference,
  mcnemarExact,
  signFlipTest,
  outsideInterval,
  figureText,
  methodLabel,
  INTERVAL_METHOD,
  METHOD_LABEL,
  MIN_N,
  type Interval,
  type MeasureKind,
  type PairedDifference,
  METRIC_KINDS,
  type MetricKind,
  type MetricKinds,
} from '../../eval/stats/index.js';
export { evalRetrieval, parseKs, DEFAULT_KS, type RetrievalEvalOptions, type RetrievalEvalResult, type QueryResult } from '../../eval/retrieval-eval.js';
export { evalRetrievalOnIndex, type IndexEvalOptions, type RetrievalReport } from '../../eval/retrieval-eval-index.js';
export { formatRetrievalReport, retrievalTable } from '../../eval/retrieval-eval-format.js';
export { TrecRunWriter, trecRunLines, trecQrelsLines } from '../../eval/retrieval-eval-run-file.js';
export * from '../../eval/trec/index.js';
export type { DemoStep, DemoContext } from '../../eval/demo/types.js';
export {
  runExperiment,
  contextFrom,
  type ContextParts,
  type RunExperimentOptions,
  type RunExperimentResult,
  type RunConfigFile,
  type RunProgress,
} from '../../eval/runner.js';
export { readResults, traceFileName, RUN_FILES } from '../../eval/run-dir.js';
export { gitSha, provenance, type Provenance } from '../../eval/provenance.js';
export {
  readRun,
  buildReport,
  writeReport,
  registerReportSection,
  compareRuns,
  compareRunData,
  formatComparison,
  toolCallsOf,
  type Comparison,
  type Report,
  type RunData,
  type ReportSection,
  type SectionBuilder,
} from '../../eval/report/index.js';
