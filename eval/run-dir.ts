/**
 * The run directory: config.json (resolved config + provenance), results.jsonl (one ResultRecord
 * per line, appended as items finish), traces/<id>.json (one per item, written before its result
 * line). Reading tolerates a truncated last line (a crash mid-write): it is dropped, and
 * `repairResults` cuts it off the file so a resumed run appends cleanly. A malformed line elsewhere
 * is an error naming the line.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { appendFile, mkdir, readFile, rename, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errors } from '../src/errors.js';
import { redactValue } from '../src/log.js';
import type { ResultRecord } from './types.js';

export const RUN_FILES = { config: 'config.json', results: 'results.jsonl', traces: 'traces', reportMd: 'report.md', reportJson: 'report.json' };

export const configPath = (dir: string) => join(dir, RUN_FILES.config);
export const resultsPath = (dir: string) => join(dir, RUN_FILES.results);
export const tracesDir = (dir: string) => join(dir, RUN_FILES.traces);

/** A file name for an item id: the id itself when safe, else a cleaned id plus a short hash. */
export function traceFileName(id: string): string {
  if (/^[A-Za-z0-9._-]{1,120}$/.test(id) && !id.startsWith('.')) return `${id}.json`;
  const clean = id.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '').slice(0, 80);
  const h = createHash('sha256').update(id).digest('hex').slice(0, 10);
  return `${clean}-${h}.json`;
}

export const tracePath = (dir: string, id: string) => join(tracesDir(dir), traceFileName(id));

async function writeAtomic(file: string, text: string): Promise<void> {
  const tmp = `${file}.tmp-${process.pid}`;
  await writeFile(tmp, text);
  await rename(tmp, file);
}

export async function writeJsonAtomic(file: string, value: unknown): Promise<void> {
  await writeAtomic(file, JSON.stringify(redactValue(value), null, 2) + '\n');
}

export async function writeTrace(dir: string, id: string, trace: unknown): Promise<void> {
  await writeAtomic(tracePath(dir, id), JSON.stringify(redactValue(trace)) + '\n');
}

export async function readTrace(dir: string, id: string): Promise<Record<string, unknown> | undefined> {
  try {
    return JSON.parse(await readFile(tracePath(dir, id), 'utf8'));
  } catch {
    return undefined;
  }
}

export interface ParsedResults {
  records: ResultRecord[];
  /** Byte length of the valid prefix (everything before a truncated last line). */
  validBytes: number;
  /** True when a truncated/unparseable last line was dropped. */
  droppedTail: boolean;
}

function isRecord(v: unknown): v is ResultRecord {
  const r = v as ResultRecord;
  return !!r && typeof r === 'object' && typeof r.id === 'string' && 'prediction' in r && typeof r.correct === 'boolean';
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
    try {
      value = JSON.parse(line);
    } catch {
      value = undefined;
    }
    if (!isRecord(value)) {
      if (isLast) return { records, validBytes, droppedTail: true };
      throw errors.runInvalid(file, `line ${i + 1} is not a valid result record`);
    }
    records.push(value);
    validBytes = offset;
  }
  return { records, validBytes, droppedTail: false };
}

export async function readResults(dir: string): Promise<ParsedResults> {
  const file = resultsPath(dir);
  if (!existsSync(file)) return { records: [], validBytes: 0, droppedTail: false };
  return parseResults(await readFile(file, 'utf8'), file);
}

/**
 * Make results.jsonl safe to append to: drop a truncated last line, and add the newline a
 * complete last line may lack. Returns the records kept.
 */
export async function repairResults(dir: string): Promise<ResultRecord[]> {
  const file = resultsPath(dir);
  if (!existsSync(file)) return [];
  const text = await readFile(file, 'utf8');
  const parsed = parseResults(text, file);
  if (parsed.droppedTail) await truncate(file, parsed.validBytes);
  else if (text.length > 0 && !text.endsWith('\n')) await appendFile(file, '\n');
  return parsed.records;
}

export async function appendResult(dir: string, record: ResultRecord): Promise<void> {
  await appendFile(resultsPath(dir), JSON.stringify(redactValue(record)) + '\n');
}

export async function ensureRunDir(dir: string): Promise<void> {
  await mkdir(tracesDir(dir), { recursive: true });
}

export async function readConfig(dir: string): Promise<Record<string, unknown> | undefined> {
  const file = configPath(dir);
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch (e) {
    throw errors.runInvalid(dir, `config.json is not valid JSON: ${(e as Error).message}`);
  }
}
