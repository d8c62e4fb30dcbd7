/**
 * The run directory: config.json (resolved config + provenance), results.jsonl (one ResultRecord
 * per line, appended as items finish), traces/<id>.json (one per item, written before its result
 * line). Records are written and read through the zod schemas in records.ts. Reading tolerates a
 * truncated last line (a crash mid-write): it is dropped, and `repairResults` cuts it off the file
 * so a resumed run appends cleanly. A malformed line elsewhere is an error naming the line and field.
 * Whole files (config.json, traces, llm/ exchanges) are written atomically (temp file + rename);
 * temp files a killed process left behind are removed by `removeStaleTemps` when a run starts or
 * resumes; a run stopped by a signal removes its own (`removeOwnTemps`) before it exits.
 */
import { orderLike } from './key-order.js';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { appendFile, mkdir, readdir, rename, rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errors } from '../core/errors.js';
import { jsonLine } from '../core/jsonl.js';
import { readRegularFile } from '../core/read-regular.js';
import { redactValue } from '../core/log.js';
import { baseTraceSchema, firstIssue, resultRecordSchema, type TraceSchema } from './records.js';
import type { ResultRecord } from './types.js';
import { processAlive } from '../core/owned-dir.js';
import { RUN_FILES } from './run-files.js';
import { noteItemWritten, noteResultsDir, resultsWrite } from './results-writes.js';

export { RUN_FILES };

export const configPath = (dir: string) => join(dir, RUN_FILES.config);
export const resultsPath = (dir: string) => join(dir, RUN_FILES.results);
export const tracesDir = (dir: string) => join(dir, RUN_FILES.traces);

/** How a hashed file name ends: `-` and 10 hex digits of the id's sha256 (traceFileName). */
const HASHED_TAIL = /-[0-9a-f]{10}$/;

/**
 * A file name for an item id: the id itself when it is lower-case safe (letters a-z, digits, `._-`)
 * and does not end as a hashed name does (`-` and 10 hex digits), else a cleaned id plus a short hash
 * of the id. Two ids never get names that differ only in case (`q1` → `q1.json`, `Q1` →
 * `Q1-32d833f348.json`) or only in Unicode normalization (hashed as they are), so a case-insensitive
 * file system (macOS, Windows) keeps each item's trace and exchanges apart; and no id's own name is
 * another id's hashed one (`q1-32d833f348` is hashed too: before, it was its own name, which on such a
 * file system is `Q1`'s, and `a_b-<hash of "a b">` was `a b`'s on any).
 */
export function traceFileName(id: string): string {
  if (/^[a-z0-9._-]{1,120}$/.test(id) && !id.startsWith('.') && !HASHED_TAIL.test(id)) return `${id}.json`;
  const clean = id
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^\.+/, '')
    .slice(0, 80);
  const h = createHash('sha256').update(id).digest('hex').slice(0, 10);
  return `${clean}-${h}.json`;
}

/**
 * The name a lexcase before 2026-12-01 gave an id with upper-case letters, or one ending as a hashed
 * name does (the id itself), which traceFileName now hashes; undefined where the names agree. Read
 * only, as a fallback (itemFileToRead).
 */
export function legacyTraceFileName(id: string): string | undefined {
  return /^[A-Za-z0-9._-]{1,120}$/.test(id) && !id.startsWith('.') && traceFileName(id) !== `${id}.json` ? `${id}.json` : undefined;
}

/**
 * The file of an item to read in `folder`: `name` (traceFileName's) when there; else, in a run dir an
 * older lexcase wrote, its `legacy` name — only when the folder lists a file of exactly that name, so
 * a case-insensitive file system never hands over another id's file (`q1.json` for `Q1`).
 */
export function itemFileToRead(folder: string, name: string, legacy: string | undefined): string {
  const path = join(folder, name);
  if (!legacy || existsSync(path) || !existsSync(join(folder, legacy))) return path;
  try {
    return readdirSync(folder).includes(legacy) ? join(folder, legacy) : path;
  } catch {
    return path;
  }
}

/** Where item `id`'s trace is written. */
export const tracePath = (dir: string, id: string) => join(tracesDir(dir), traceFileName(id));
/** Where item `id`'s trace is read: tracePath, or an older run dir's name for it (itemFileToRead). */
export const traceReadPath = (dir: string, id: string) => itemFileToRead(tracesDir(dir), traceFileName(id), legacyTraceFileName(id));

const TMP_SUFFIX = /\.tmp-(\d+)$/;

/** Write a whole file as a temp file renamed into place: a reader sees the old file or the new one, never part of one. */
export async function writeAtomic(file: string, text: string | Uint8Array): Promise<void> {
  const tmp = `${file}.tmp-${process.pid}`;
  try {
    await writeFile(tmp, text);
    await rename(tmp, file);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}

/**
 * Remove `*.tmp-<pid>` files (in the run dir, traces/ and llm/) left by a process that died between
 * writing a temp file and renaming it. Temp files of a live process are left alone. Returns the
 * number removed.
 */
export async function removeStaleTemps(dir: string): Promise<number> {
  let removed = 0;
  for (const d of [dir, tracesDir(dir), join(dir, RUN_FILES.llm)]) {
    let names: string[];
    try {
      names = await readdir(d);
    } catch {
      continue;
    }
    for (const name of names) {
      const m = TMP_SUFFIX.exec(name);
      if (!m || processAlive(Number(m[1]))) continue;
      await rm(join(d, name), { force: true });
      removed++;
    }
  }
  return removed;
}

/**
 * Remove this process's own `*.tmp-<pid>` files (in the run dir, traces/ and llm/): the temp files of
 * whole-file writes (a trace, an exchange) under way when the run is stopped (Ctrl-C, SIGTERM) and exits
 * from its signal handler, which would otherwise stay until the next resume. Synchronous (the process
 * exits next). Returns the number removed.
 */
export function removeOwnTemps(dir: string): number {
  let removed = 0;
  for (const d of [dir, tracesDir(dir), join(dir, RUN_FILES.llm)]) {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      continue;
    }
    for (const name of names) {
      if (Number(TMP_SUFFIX.exec(name)?.[1]) !== process.pid) continue;
      rmSync(join(d, name), { force: true });
      removed++;
    }
  }
  return removed;
}

export async function writeJsonAtomic(file: string, value: unknown): Promise<void> {
  await writeAtomic(file, JSON.stringify(redactValue(value), null, 2) + '\n');
}

/**
 * Write traces/<id>.json (redacted) after checking it against `schema`; a trace that does not
 * match throws RUN_INVALID naming the item and field, and nothing is written.
 */
export async function writeTrace(dir: string, id: string, trace: unknown, schema: TraceSchema = baseTraceSchema as unknown as TraceSchema): Promise<void> {
  const value = redactValue(trace);
  const r = schema.safeParse(value);
  if (!r.success) throw errors.runInvalid(tracePath(dir, id), `trace of item "${id}" does not match its schema: ${firstIssue(r.error)}`);
  await writeAtomic(tracePath(dir, id), JSON.stringify(value) + '\n');
}

export type TraceRead = { trace: Record<string, unknown> } | { trace?: undefined; problem: string };

/** Read traces/<id>.json through `schema`: the trace, or why it cannot be used (missing, not JSON, wrong shape). */
export async function readTraceChecked(dir: string, id: string, schema: TraceSchema = baseTraceSchema as unknown as TraceSchema): Promise<TraceRead> {
  let text: string;
  try {
    text = await readRegularFile(traceReadPath(dir, id));
  } catch {
    return { problem: 'missing' };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { problem: `not valid JSON (${(e as Error).message})` };
  }
  const r = schema.safeParse(json);
  return r.success ? { trace: r.data } : { problem: firstIssue(r.error) };
}

/**
 * Why a trace is not the one of its results.jsonl line (undefined when it is): its `runner` block
 * holds another prediction, error or time. The runner writes an item's trace before its line, so a
 * retry killed between the two (a kill -9, a Ctrl-C of `lexcase run`) leaves the new attempt's
 * trace (and llm/<id>.jsonl) beside the earlier failed line, until a resume retries the item again.
 */
export function traceMismatch(trace: Record<string, unknown>, record: ResultRecord): string | undefined {
  const runner = trace.runner as { prediction?: unknown; error?: unknown; ms?: unknown } | undefined;
  if (!runner) return undefined;
  if (runner.prediction === record.prediction && runner.error === record.error && runner.ms === record.ms) return undefined;
  return 'it is from another attempt than its results.jsonl line (a retry stopped between the two writes; resume the run to redo the item)';
}

/**
 * An item's trace checked against its results.jsonl line: a trace of another attempt than the line
 * (`traceMismatch`) is a problem, as `lexcase report` reads it, so every surface shows the same trace
 * or none with the same reason.
 */
export async function readTraceFor(dir: string, record: ResultRecord, schema?: TraceSchema): Promise<TraceRead> {
  const t = await readTraceChecked(dir, record.id, schema);
  const problem = t.trace ? traceMismatch(t.trace, record) : undefined;
  return problem ? { problem } : t;
}

export async function readTrace(dir: string, id: string, schema?: TraceSchema): Promise<Record<string, unknown> | undefined> {
  return (await readTraceChecked(dir, id, schema)).trace;
}

export interface ParsedResults {
  records: ResultRecord[];
  /** Byte length of the valid prefix (everything before a truncated last line). */
  validBytes: number;
  /** True when a truncated/unparseable last line was dropped. */
  droppedTail: boolean;
}

export function parseResults(text: string, file = RUN_FILES.results): ParsedResults {
  const records: ResultRecord[] = [];
  const lines = text.split('\n');
  let offset = 0;
  let validBytes = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    // The last segment has no newline after it: it is '' for a well-formed file, else either a
    // complete record missing its newline or a line a crash cut short.
    const isLast = i === lines.length - 1;
    offset += Buffer.byteLength(line) + (isLast ? 0 : 1);
    if (line.trim() === '') {
      validBytes = offset;
      continue;
    }
    let value: unknown;
    let problem = 'not valid JSON';
    try {
      value = JSON.parse(line);
    } catch {
      value = undefined;
    }
    const r = value === undefined ? undefined : resultRecordSchema.safeParse(value);
    if (r && !r.success) problem = firstIssue(r.error);
    if (!r?.success) {
      if (isLast) return { records, validBytes, droppedTail: true };
      throw errors.runInvalid(file, `line ${i + 1} is not a valid result record (${problem})`);
    }
    records.push(orderLike(value, r.data as ResultRecord)); // as written, not in the schema's key order
    validBytes = offset;
  }
  return { records, validBytes, droppedTail: false };
}

/**
 * The text of a file of run dir `dir` (core/read-regular.ts: a FIFO, socket or device is never
 * opened for a blocking read): anything but a regular file is RUN_INVALID naming it.
 */
export async function readRunFile(dir: string, file: string): Promise<string> {
  try {
    return await readRegularFile(file);
  } catch (e) {
    throw runFileReadError(dir, file, e);
  }
}

/** The error a run file that could not be read is reported with (a FIFO, socket or device where a file belongs: RUN_INVALID saying so). */
export function runFileReadError(dir: string, file: string, e: unknown): unknown {
  return (e as NodeJS.ErrnoException).code === 'ENOTREGULAR'
    ? errors.runInvalid(dir, `${file} is not a regular file (a FIFO, socket or device); a run dir holds only files: not read`)
    : e;
}

export async function readResults(dir: string): Promise<ParsedResults> {
  const file = resultsPath(dir);
  if (!existsSync(file)) return { records: [], validBytes: 0, droppedTail: false };
  return parseResults(await readRunFile(dir, file), file);
}

/** A truncated last line of results.jsonl that `repairResults` cut off: its size and, when its start shows it, the item. */
export interface CutTail {
  bytes: number;
  /** The item id the line starts with (a record line begins `{"id":…`), when that much was written. */
  id?: string;
}

/** "a truncated last line (212 bytes, item "mbe_12")": the one wording of a cut tail. */
export const describeCutTail = (t: CutTail): string => `a truncated last line (${t.bytes} bytes${t.id !== undefined ? `, item ${JSON.stringify(t.id)}` : ''})`;

function cutTailOf(tail: string): CutTail {
  const m = /^\{"id":("(?:[^"\\]|\\.)*")/.exec(tail);
  let id: string | undefined;
  try {
    id = m ? (JSON.parse(m[1]) as string) : undefined;
  } catch {
    id = undefined;
  }
  return { bytes: Buffer.byteLength(tail), ...(id !== undefined ? { id } : {}) };
}

/**
 * Make results.jsonl safe to append to: drop a truncated last line (a write a kill, a full disk or
 * a file-size limit stopped midway). A last line that parses but lacks its newline is such a line too:
 * the runner writes each line with its newline in one append, so the write stopped one byte short (a
 * file-size limit at that byte), before the item's exchanges were put in place and its sent-requests
 * file dropped; before 2026-12-05 it was kept as done, its requests counted again as under way at an
 * interrupt and its llm/<item>.jsonl missing. Returns the records kept and, when a line was cut, what it
 * was (`cut`), for the caller to say.
 * `{ write: false }`: the same answer, the file left as it is (a resume reads it before it is accepted).
 */
export async function repairResults(dir: string, o: { write?: boolean } = {}): Promise<{ records: ResultRecord[]; cut?: CutTail }> {
  const file = resultsPath(dir);
  if (!existsSync(file)) return { records: [] };
  const text = await readRunFile(dir, file);
  const parsed = parseResults(text, file);
  const write = o.write !== false;
  if (parsed.droppedTail) {
    const cut = cutTailOf(Buffer.from(text).subarray(parsed.validBytes).toString('utf8'));
    if (write) await truncate(file, parsed.validBytes);
    return { records: parsed.records, cut };
  }
  const lastStart = text.lastIndexOf('\n') + 1;
  const last = text.slice(lastStart);
  if (last.trim() !== '' && parsed.records.length) {
    const keptBytes = Buffer.byteLength(text.slice(0, lastStart));
    if (write) await truncate(file, keptBytes);
    return { records: parsed.records.slice(0, -1), cut: cutTailOf(last) };
  }
  if (write && text.length > 0 && !text.endsWith('\n')) await appendFile(file, '\n');
  return { records: parsed.records };
}

function resultLine(record: ResultRecord): string {
  const value = redactValue(record);
  const r = resultRecordSchema.safeParse(value);
  if (!r.success) throw errors.runInvalid(RUN_FILES.results, `result of item "${record.id}" does not match the record schema: ${firstIssue(r.error)}`);
  return jsonLine(value);
}

export async function appendResult(dir: string, record: ResultRecord): Promise<void> {
  await appendFile(resultsPath(dir), resultLine(record));
}

/**
 * results.jsonl as a run writes it: one line per item at every moment. `lines` must be what the
 * file holds (one record per item, in file order). An item without a line gets one appended; an
 * item that has one (a failed item being retried) has it replaced: the file is rewritten atomically
 * (temp file + rename) with the old line dropped and the new one last. A run interrupted, crashed or
 * killed at any point so leaves each item its earlier line or its new one, never neither.
 * Calls must not overlap (the runner chains them).
 */
export class ResultsWriter {
  private lines: Map<string, string>;

  constructor(
    private readonly dir: string,
    records: readonly ResultRecord[],
    /** Called inside the write, once the item's line is in the file (the runner drops its sent-requests file: eval/sent-journal.ts). */
    private readonly afterWrite?: (id: string) => void,
  ) {
    this.lines = new Map(records.map((r) => [r.id, resultLine(r)]));
    noteResultsDir(dir);
  }

  /**
   * One line for the record: appended, or (an item already recorded) the file rewritten atomically. A signal's hold (results-writes.ts) lets it finish, or keeps it from starting.
   * `written`: called once the line is in the file, before anything else (the runner puts the item's staged exchanges in place: llm-exchanges.ts stageExchanges).
   */
  write(record: ResultRecord, written?: () => void): Promise<void> {
    return resultsWrite(async () => {
      const line = resultLine(record);
      if (!this.lines.has(record.id)) {
        await appendFile(resultsPath(this.dir), line);
        written?.();
        this.lines.set(record.id, line);
        noteItemWritten(this.dir, record.id);
        this.afterWrite?.(record.id);
        return;
      }
      const next = new Map(this.lines);
      next.delete(record.id);
      next.set(record.id, line);
      await writeAtomic(resultsPath(this.dir), [...next.values()].join(''));
      written?.();
      this.lines = next;
      noteItemWritten(this.dir, record.id);
      this.afterWrite?.(record.id);
    });
  }
}

/** Replace results.jsonl with `records` (one line each) atomically: temp file + rename. */
export function rewriteResults(dir: string, records: ResultRecord[]): Promise<void> {
  return resultsWrite(() => writeAtomic(resultsPath(dir), records.map(resultLine).join('')));
}

export async function ensureRunDir(dir: string): Promise<void> {
  await mkdir(tracesDir(dir), { recursive: true });
}

export async function readConfig(dir: string): Promise<Record<string, unknown> | undefined> {
  const file = configPath(dir);
  if (!existsSync(file)) return undefined;
  return parseConfig(dir, await readRunFile(dir, file));
}

/** config.json's text as `readConfig` reads it: RUN_INVALID when it is not JSON. */
export function parseConfig(dir: string, text: string): Record<string, unknown> {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw errors.runInvalid(dir, `config.json is not valid JSON: ${(e as Error).message}`);
  }
}
