/** `lexcase/corpora`: bundled corpora and datasets, passage files, splits, topics and qrels (corpora/). */
export type * from '../../corpora/types.js';
export {
  loadTradeSecretModel,
  formatFactor,
  type Factor,
  type TradeSecretCase,
  type TradeSecretModel,
  type Side as TradeSecretSide,
} from '../../corpora/trade-secret.js';
export {
  loadPassages,
  loadQuestions,
  datasetChecksum,
  fileChecksum,
  corpusNames,
  datasetNames,
  CORPORA,
  DATASETS,
  type LoadPassagesOptions,
  type LoadQuestionsOptions,
} from '../../corpora/registry.js';
export { loadPassageFile, formatFromPath, PASSAGE_FORMATS, type PassageFormat, type FileLoadOptions } from '../../corpora/load-passages.js';
export { readJsonl, loadJsonlPassages } from '../../corpora/jsonl.js';
export { readCsvRows, loadCsvPassages } from '../../corpora/csv.js';
export { readParquetRows, loadParquetPassages } from '../../corpora/parquet.js';
export { type FieldMapping } from '../../corpora/field-map.js';
export { retrievalQuery } from '../../corpora/barexam.js';
export { selectSplit, splitSizes, parseSplit, DEFAULT_SPLIT_SEED, BAREXAM_SPLIT_SIZES } from '../../corpora/splits.js';
export { loadLegalBenchTask, resolveLegalBenchFile, LEGALBENCH_TASKS } from '../../corpora/legalbench.js';
