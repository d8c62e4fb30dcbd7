/**
 * The one home for lexcase's errors. Every error a user can cause is a LexcaseError with a stable
 * `code` and a message that names the file, line or field at fault. The CLI prints `message` and
 * exits non-zero (stack traces only with --debug). Create errors through the factories below so
 * messages stay consistent; add a factory here rather than throwing ad-hoc Errors.
 */
import { join } from 'node:path';
import { didYouMean } from './did-you-mean.js';

export type ErrorCode =
  | 'USAGE'
  | 'CORPUS_PARSE'
  | 'CORPUS_NOT_FOUND'
  | 'FILE_PARSE'
  | 'DUPLICATE_ID'
  | 'INDEX_MISSING'
  | 'INDEX_INCOMPATIBLE'
  | 'INDEX_CORRUPT'
  | 'METHOD_UNAVAILABLE'
  | 'DIMENSION_MISMATCH'
  | 'EMBEDDER_UNAVAILABLE'
  | 'CONFIG_INVALID'
  | 'LLM_NOT_CONFIGURED'
  | 'LLM_OUTPUT_INVALID'
  | 'LLM_REQUEST_FAILED'
  | 'LLM_UNAVAILABLE'
  | 'LLM_REPLAY_MISMATCH'
  | 'LLM_RECORDING_ALTERED'
  | 'DATASET_UNKNOWN'
  | 'RUN_INVALID'
  | 'NOT_FOUND'
  | 'INVALID_INPUT'
  | 'OUT_DIR_REFUSED'
  | 'OUT_FILE_REFUSED'
  | 'CORPUS_EMPTY'
  | 'INTERRUPTED'
  | 'LOCKED'
  | 'REVISION_CONFLICT'
  | 'RUN_WRITE_FAILED'
  | 'INDEX_WRITE_FAILED';

export interface ErrorDetails {
  file?: string;
  line?: number;
  field?: string;
  hint?: string;
  cause?: unknown;
  /** INTERRUPTED: the signal that stopped the step (the CLI exits 128 + its number: SIGINT 130, SIGTERM 143). */
  signal?: NodeJS.Signals;
}

export class LexcaseError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails;

  constructor(code: ErrorCode, message: string, details: ErrorDetails = {}) {
    super(message + (details.hint ? `\n  hint: ${details.hint}` : ''), details.cause ? { cause: details.cause } : undefined);
    this.name = 'LexcaseError';
    this.code = code;
    this.details = details;
  }
}

export const isLexcaseError = (e: unknown): e is LexcaseError => e instanceof LexcaseError;

/**
 * The text of an error as lexcase shows and records it: its message without the "Troubleshooting
 * URL: https://docs.langchain.com/…" paragraph LangChain appends to the errors it wraps (401, 404,
 * 429, output parsing, …), which names LangChain's docs, not what to do in lexcase.
 */
export function errorMessage(e: unknown): string {
  return withoutTroubleshootingUrl((e as Error)?.message ?? String(e));
}

/**
 * A failure as an item's `error` records it: "CODE: message" for a lexcase error (the report groups
 * failed items by that code), the message alone otherwise. The one rule for the runner and every system.
 */
export function errorText(e: unknown): string {
  return isLexcaseError(e) ? `${e.code}: ${errorMessage(e)}` : errorMessage(e);
}

/** `text` without LangChain's "Troubleshooting URL: …" paragraph (see `errorMessage`). */
export function withoutTroubleshootingUrl(text: string): string {
  if (!text.includes('Troubleshooting URL:')) return text;
  return text.replace(/\s*Troubleshooting URL: \S+\s*/g, (s, at: number) => (at + s.length >= text.length ? '' : ' ')).trimEnd();
}

/** How to add a method to an existing index dir (dense and lancedb-fts without a rebuild). */
function addMethodHint(method: string, dir: string): string {
  if (method === 'dense') return `add it with: lexcase index dense ${dir}`;
  if (method === 'lancedb-fts') return `add it with: lexcase index lancedb-fts ${dir}`;
  if (method === 'hybrid') return `hybrid needs dense vectors; add them with: lexcase index dense ${dir}`;
  return `rebuild with --methods ${method}`;
}

const where = (file?: string, line?: number) => (file ? `${file}${line !== undefined ? `:${line}` : ''}: ` : '');

export const errors = {
  usage: (message: string, hint?: string) => new LexcaseError('USAGE', message, { hint }),

  invalidInput: (field: string, message: string) => new LexcaseError('INVALID_INPUT', `invalid ${field}: ${message}`, { field }),

  /** An item whose options a system cannot offer (fewer than 2 with text, more than 10): one failed item naming its id and field; the run goes on. */
  itemOptions: (id: string, field: string, message: string) => new LexcaseError('INVALID_INPUT', `question ${id}: field "${field}" ${message}`, { field }),

  corpusParse: (file: string, line: number, message: string, cause?: unknown) =>
    new LexcaseError('CORPUS_PARSE', `${where(file, line)}${message}`, { file, line, cause }),

  corpusField: (file: string, field: string, message: string) => new LexcaseError('CORPUS_PARSE', `${file}: field "${field}": ${message}`, { file, field }),

  /** A malformed line in a topics, qrels or TREC run file. */
  fileParse: (file: string, line: number | undefined, message: string, hint?: string) =>
    new LexcaseError('FILE_PARSE', `${where(file, line)}${message}`, { file, line, hint }),

  /** A topics / qrels / run file that does not exist or cannot be read. */
  fileNotFound: (what: string, file: string) => new LexcaseError('NOT_FOUND', `${what} not found: ${file}`, { file }),

  /** A path given as a file (a run, qrels, topics file) that is a directory (or a FIFO, a device): not "not found". */
  notAFile: (what: string, file: string, isa: 'a directory' | 'not a regular file') =>
    new LexcaseError('NOT_FOUND', `${what} ${file} is ${isa === 'a directory' ? 'a directory, not a file' : 'not a regular file (a FIFO, socket or device)'}`, {
      file,
      hint: isa === 'a directory' ? `give the ${what} inside it` : undefined,
    }),

  recipeNotFound: (name: string, file: string, known: string[]) =>
    new LexcaseError('NOT_FOUND', `recipe "${name}" not found: ${file}`, {
      file,
      hint: `${didYouMean(name, known)}recipes: ${known.join(', ')} (\`lexcase reproduce\` lists them); or give a path to a recipe .json`,
    }),

  /** A corpus folder that holds no passages file (not "corpus not found": the folder is there). */
  corpusFolderEmpty: (dir: string, names: readonly string[]) =>
    new LexcaseError('CORPUS_NOT_FOUND', `${dir} is a folder without a passages file (looked for ${names.join(', ')})`, {
      file: dir,
      hint: 'pass the passages file itself (.jsonl, .jsonl.gz, .csv, .tsv or .parquet), or name it passages.jsonl in the folder',
    }),

  /** A corpus folder holding more than one passages file: which one is meant is not guessed (and they are not merged). */
  corpusFolderAmbiguous: (dir: string, files: readonly string[]) =>
    new LexcaseError('USAGE', `${dir} is a folder with ${files.length} passages files (${files.join(', ')}); a folder is read only when it holds one`, {
      file: dir,
      hint: `pass the file to index, e.g. ${join(dir, files[0])}; to index them together, merge them into one file`,
    }),

  /** A bundled corpus name that is also a file or folder here: which one is meant is not guessed. */
  corpusNameShadowed: (name: string) =>
    new LexcaseError('USAGE', `"${name}" is both a bundled corpus and a file or folder here (./${name})`, {
      file: name,
      hint: `for the file or folder, pass ./${name} (or its full path); for the bundled corpus, run from another directory or rename ./${name}`,
    }),

  corpusNotFound: (nameOrPath: string, known: string[] = []) =>
    new LexcaseError('CORPUS_NOT_FOUND', `corpus not found: ${nameOrPath}`, {
      hint: known.length
        ? `${didYouMean(nameOrPath, known)}bundled corpora: ${known.join(', ')}; or pass a path to a .jsonl, .csv, .tsv or .parquet file`
        : undefined,
    }),

  duplicateId: (id: string, file?: string, line?: number) =>
    new LexcaseError('DUPLICATE_ID', `${where(file, line)}duplicate passage id "${id}"`, { file, line, field: 'id' }),

  /** `isFile`: `dir` is a file (a corpus given as --index): say so, and never suggest building into it. */
  indexMissing: (dir: string, isFile = false) =>
    isFile
      ? new LexcaseError('INDEX_MISSING', `${dir} is a file, not a lexcase index (an index is a directory holding manifest.json)`, {
          file: dir,
          hint: `give the index directory; to build one from this file: lexcase index build ${dir} --out DIR`,
        })
      : new LexcaseError('INDEX_MISSING', `no lexcase index at ${dir} (manifest.json not found)`, {
          file: dir,
          hint: `build one with: lexcase index build <corpus> --out ${dir}`,
        }),

  indexIncompatible: (dir: string, message: string) =>
    new LexcaseError('INDEX_INCOMPATIBLE', `index at ${dir} is incompatible: ${message}`, {
      file: dir,
      hint: 'rebuild it with this version of lexcase',
    }),

  /** An opened index whose manifest.json was rewritten since (rebuilt in place, a method added): what was opened is no longer what is on disk. */
  indexReplaced: (dir: string) =>
    new LexcaseError(
      'INDEX_INCOMPATIBLE',
      `the index at ${dir} changed on disk after this process opened it (its manifest.json or a data file it lists was rewritten: rebuilt, a method added, a file replaced); answering from the index as it was would give figures of an index that is no longer there`,
      { file: dir, hint: 'restart the server (or open the index again) to search the index as it is now' },
    ),

  /** An index replaced (rebuilt, a method added) while this process was opening it: its parts would come from two indexes. */
  indexReplacedWhileOpening: (dir: string) =>
    new LexcaseError(
      'INDEX_INCOMPATIBLE',
      `the index at ${dir} was replaced while this process opened it (a build or \`index dense\` rewrote its manifest.json meanwhile); its parts would come from two different indexes, so nothing was read from it`,
      { file: dir, hint: 'run the command again (once the build has finished) to use the index as it is now' },
    ),

  /** A part of an index read while a writer (`index dense`, a build) holds its lock and rewrites it: not damage, a writer at work. */
  indexBeingWritten: (dir: string, where: string, writer: string, problem: string) =>
    new LexcaseError('INDEX_INCOMPATIBLE', `${where}: ${dir} is being written by ${writer} now (${problem}); nothing was searched in it`, {
      file: dir,
      hint: 'wait for that command to finish, then run this again',
    }),

  /** An index's lancedb-fts table from before its checksum was recorded whose rows are not the doc store's ids, titles and texts (indexer/lancedb-fts-adopt.ts): nothing is recorded for it. */
  lanceFtsUnconfirmed: (dir: string, problem: string) =>
    new LexcaseError(
      'INDEX_INCOMPATIBLE',
      `index at ${dir}: its lancedb-fts table was built before lexcase recorded what the table indexes, and ${problem}; no checksum was recorded and the table was not changed`,
      { file: dir, hint: `rebuild the table from the doc store: lexcase index lancedb-fts ${dir} --rebuild` },
    ),

  indexCorrupt: (
    file: string,
    message: string,
    hint = 'rebuild the index (lexcase index build … --out DIR); lexcase index verify DIR lists every damaged file',
  ) => new LexcaseError('INDEX_CORRUPT', `${file}: index file is corrupt: ${message}`, { file, hint }),

  methodUnavailable: (method: string, dir: string, available: string[], neededBy?: string) =>
    new LexcaseError(
      'METHOD_UNAVAILABLE',
      `${neededBy ? `method "${neededBy}" needs "${method}", which` : `method "${method}"`} is not available in index ${dir}`,
      {
        hint: `available: ${available.join(', ') || 'none'}; ${addMethodHint(method, dir)}`,
      },
    ),

  /**
   * A method name lexcase does not know at all (a typo), with the closest known name; asked of a
   * served index (MCP, /v1: `index`), also the methods that index has. The hint travels in the
   * message (LexcaseError), which is what the CLI prints, /v1 answers and MCP's tool error shows.
   */
  methodUnknown: (method: string, known: readonly string[], index?: { name: string; methods: readonly string[] }) =>
    new LexcaseError('METHOD_UNAVAILABLE', `method "${method}" is not a lexcase retrieval method`, {
      field: 'method',
      hint: `${didYouMean(method, known)}known methods: ${known.join(', ')}${index ? `; index "${index.name}" has: ${index.methods.join(', ') || 'none'}` : ''}`,
    }),

  /** A source filter naming sources the index does not hold (it would keep nothing of them, and say nothing). */
  unknownSources: (field: string, unknown: readonly string[], held: readonly string[], listMax = 30) =>
    new LexcaseError(
      'INVALID_INPUT',
      `invalid ${field}: ${unknown.map((n) => `"${n}"`).join(', ')} ${unknown.length > 1 ? 'are not sources' : 'is not a source'} of this index; ` +
        `${didYouMean(unknown[0], held)}its sources: ${held.length > listMax ? `${held.slice(0, listMax).join(', ')}, … (${held.length} in all)` : held.join(', ')}`,
      { field },
    ),

  /** An evaluation or run that would cover no items at all. */
  nothingToEvaluate: (message: string, hint?: string) => new LexcaseError('INVALID_INPUT', message, { hint }),

  dimensionMismatch: (expected: number, got: number, context: string) =>
    new LexcaseError('DIMENSION_MISMATCH', `${context}: vector dimension ${got} does not match the index (${expected})`, {
      field: 'dimension',
    }),

  embedderUnavailable: (message: string, hint?: string) => new LexcaseError('EMBEDDER_UNAVAILABLE', message, { hint }),

  /** A dense store in object storage that does not answer (an unreachable endpoint, refused credentials): the store, its endpoint and the cause once. */
  denseStoreUnreachable: (uri: string, endpoint: string, cause: string) =>
    new LexcaseError('EMBEDDER_UNAVAILABLE', `cannot reach the dense store ${uri} at ${endpoint}: ${cause}; nothing was built`, {
      hint: 'check the endpoint and credentials (AWS_ENDPOINT, AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, AWS_ALLOW_HTTP for http://; docs/dense.md "Object storage")',
    }),

  /** An embedder's optional npm package is absent or does not load (e.g. a native part failed to install). */
  embedderPackageMissing: (provider: string, pkg: string, cause: unknown, alternatives: string) =>
    new LexcaseError(
      'EMBEDDER_UNAVAILABLE',
      `the "${provider}" embedder needs the optional package ${pkg}, which is not installed or could not be loaded` +
        `: ${String((cause as Error)?.message ?? cause).split('\n')[0]}`,
      { hint: `run \`npm install ${pkg}\` in your project (lexcase lists it as an optional dependency); or use ${alternatives}`, cause },
    ),

  configInvalid: (file: string | undefined, field: string, message: string) =>
    new LexcaseError('CONFIG_INVALID', `${where(file)}config field "${field}": ${message}`, { file, field }),

  llmNotConfigured: () =>
    new LexcaseError('LLM_NOT_CONFIGURED', 'this command needs an LLM, and no endpoint is configured', {
      hint:
        'set LEXCASE_LLM_BASE_URL (any OpenAI-compatible endpoint), LEXCASE_LLM_MODEL and, if needed, LEXCASE_LLM_API_KEY; ' +
        'or put an "llm" section in lexcase.config.json; or run a GGUF model in this process with --model-file path/to/model.gguf (docs/llm.md); ' +
        'commands with an offline heuristic path (run case, evidence) also accept --offline',
    }),

  /** The preflight request before an LLM run (core/llm/preflight.ts) found the endpoint unusable. */
  llmUnavailable: (message: string, hint: string) => new LexcaseError('LLM_UNAVAILABLE', `${message}; nothing was run`, { hint }),

  llmOutputInvalid: (what: string, message: string) =>
    new LexcaseError('LLM_OUTPUT_INVALID', `LLM output for ${what} could not be parsed: ${message}`, { field: what }),

  /** An agent loop got a reply repeating a message or tool-call id of its conversation (merging it would lose messages). */
  llmTranscriptConflict: (what: string, problem: string) =>
    new LexcaseError('LLM_OUTPUT_INVALID', `LLM reply in ${what} cannot join the conversation: ${problem}`, {
      field: what,
      hint: 'the model client gives every reply unique ids (core/llm/reply-ids.ts); a model made outside createChatModel must do the same',
    }),

  llmRequestFailed: (message: string, cause?: unknown) => new LexcaseError('LLM_REQUEST_FAILED', `LLM request failed: ${message}`, { cause }),

  /** The `local` LLM provider (core/llm/local/) cannot run: its package, a fitting binary or the model file is missing. */
  localLlmUnavailable: (message: string, hint: string, cause?: unknown) =>
    new LexcaseError('LLM_UNAVAILABLE', `the local LLM provider: ${message}`, { hint, ...(cause !== undefined ? { cause } : {}) }),

  /** `--llm-provider local` without a model file. */
  localModelFileMissing: () =>
    new LexcaseError('LLM_NOT_CONFIGURED', 'the local LLM provider needs a GGUF model file, and none is given', {
      field: 'modelFile',
      hint: 'pass --model-file path/to/model.gguf (or set LEXCASE_LLM_MODEL_FILE, or llm.modelFile in lexcase.config.json); docs/llm.md lists models that fit each paper on a CPU laptop',
    }),

  /** A replayed run asked for an exchange its recording does not hold. */
  llmReplayMismatch: (dir: string, item: string, message: string) =>
    new LexcaseError('LLM_REPLAY_MISMATCH', `replay of ${dir}, item ${item}: ${message}`, {
      file: dir,
      hint: 'replay with the flags of the recorded run (its config.json) and the same index, data and lexcase version',
    }),

  /** A recorded exchange (llm/<item>.jsonl) that does not match the hashes written with it, or has none. */
  llmRecordingAltered: (file: string, line: number, message: string, hint: string) =>
    new LexcaseError('LLM_RECORDING_ALTERED', `${where(file, line)}${message}`, { file, line, hint }),

  /** A replay's llm/<item>.jsonl whose exchanges are not those its results.jsonl line was written with (eval/llm-exchanges.ts exchangesDigest). */
  llmRecordingOtherExchanges: (file: string, itemId: string, lineDigest: string, fileDigest: string) =>
    new LexcaseError(
      'LLM_RECORDING_ALTERED',
      `${where(file)}item ${JSON.stringify(itemId)}: these exchanges are not those its results.jsonl line was recorded with (the line records exchangesSha256 ${lineDigest}, the file's exchanges have ${fileDigest}): another attempt's or another run's replies, so a replay would not reproduce the recorded line`,
      { file, hint: "replay a recording whose llm/ files are the ones written with its results.jsonl (put the item's own file back), or record the run again" },
    ),

  datasetUnknown: (name: string, known: string[]) =>
    new LexcaseError('DATASET_UNKNOWN', `unknown dataset "${name}"`, { hint: `${didYouMean(name, known)}known datasets: ${known.join(', ')}` }),

  runInvalid: (dir: string, message: string) => new LexcaseError('RUN_INVALID', `run ${dir}: ${message}`, { file: dir }),

  /** The server described the model otherwise during a run (eval/server-identities.ts): the run stopped rather than mix two models' replies. */
  serverChanged: (dir: string, message: string) =>
    new LexcaseError('RUN_INVALID', `run ${dir}: ${message}`, {
      file: dir,
      hint: 'run the new model into a new --run-dir (or serve the earlier model again and run the same command to resume); --allow-server-change goes on and records the items answered under each (results.jsonl "serverIdentities", report.md)',
    }),

  notFound: (what: string, id: string) => new LexcaseError('NOT_FOUND', `${what} not found: ${id}`),

  /** `what`: what would be written there ("an index", "a run", "the merged reproduction"). */
  outDirRefused: (dir: string, reason: string, hint?: string, what = 'an index') =>
    new LexcaseError('OUT_DIR_REFUSED', `refusing to write ${what} to ${dir}: ${reason}`, {
      file: dir,
      field: 'out',
      hint: hint ?? 'choose a new or empty directory, or an existing lexcase index to replace',
    }),

  /** An output file (--out, --run-file, --plot, …) that cannot be written where it was asked for. */
  outFileRefused: (flag: string, file: string, reason: string, hint?: string) =>
    new LexcaseError('OUT_FILE_REFUSED', `${flag} ${file}: ${reason}`, { file, field: flag, ...(hint ? { hint } : {}) }),

  /** Another writer (a live process) holds the advisory lock of `dir` (core/dir-lock.ts). */
  locked: (dir: string, reason: string, hint?: string) => new LexcaseError('LOCKED', `${dir} is locked: ${reason}`, { file: dir, hint }),

  /** A write of a run dir failed (full disk, quota, read-only, I/O error): the run stopped there. */
  runWriteFailed: (dir: string, cause: unknown, done: number, total: number) =>
    new LexcaseError(
      'RUN_WRITE_FAILED',
      `cannot write the run dir ${dir}: ${String((cause as Error)?.message ?? cause).split('\n')[0]}; the run stopped after ${done} of ${total} items (free space or fix the disk, then run the same command again to resume)`,
      { file: dir, cause },
    ),

  /** A write of an index build failed (full disk, file-size limit, quota, read-only, I/O error): nothing was swapped in. */
  indexWriteFailed: (dir: string, cause: unknown, hadIndex: boolean) =>
    new LexcaseError(
      'INDEX_WRITE_FAILED',
      `cannot build the index ${dir}: ${String((cause as Error)?.message ?? cause).split('\n')[0]}; ${hadIndex ? `the index already at ${dir} is intact (the new one was built beside it and not swapped in)` : `no index was written at ${dir}`}`,
      { file: dir, cause, hint: 'free space or raise the file-size limit (ulimit -f), or build with --out on another disk, then run the same command again' },
    ),

  /** A read-modify-write found the record at another revision than the one it read or was told (compare-and-set). */
  revisionConflict: (file: string, expected: number, found: number) =>
    new LexcaseError('REVISION_CONFLICT', `${file} is at revision ${found}, not ${expected}: it was changed meanwhile; nothing was written`, {
      file,
      hint: 'look at it again (lexcase acal show) and repeat the action if it still applies',
    }),

  corpusEmpty: (corpus: string) => new LexcaseError('CORPUS_EMPTY', `${corpus}: the corpus holds no passages; nothing to index`, { file: corpus }),

  lineTooLong: (file: string, line: number, limitBytes: number) =>
    new LexcaseError('CORPUS_PARSE', `${file}:${line}: line is longer than the limit of ${limitBytes.toLocaleString('en-US')} bytes`, {
      file,
      line,
      hint: 'split the record, or raise the limit (LEXCASE_MAX_LINE_MB or the maxLineBytes option)',
    }),

  interrupted: (what: string, signal: NodeJS.Signals, note = 'nothing was changed') =>
    new LexcaseError('INTERRUPTED', `${what} interrupted by ${signal}; ${note}`, { signal }),
};
