/**
 * The stamp beside a `trec` run's collection index (`<collection>-<analyzer>.data.json`, trec-run.ts):
 * what the index was built from — the documents file's sha256, the analyzer, the index format and the
 * lexcase that built it — and why an index found there cannot be reused, naming what differs. The
 * topics and qrels are no part of it: editing either leaves the index as it is (each run's config.json
 * records their checksums, and a resume over other ones is refused naming the file). Before, the stamp
 * held every data file's checksum, so a topics or qrels edit rebuilt the index, saying only "its stamp
 * records other data, another analyzer or another lexcase".
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AnalyzerConfig } from '../../indexer/manifest.js';
import { deepDifferences, stableJson } from '../resume-config.js';

export interface CollectionStamp {
  /** The file the documents are read from (its name) and its sha256. */
  documents: { file: string; sha256: string };
  analyzer: AnalyzerConfig;
  /** The index format and the lexcase that build the index. */
  index: { format: string; version: number; lexcaseVersion: string };
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const short = (sha: unknown) => (typeof sha === 'string' ? `${sha.slice(0, 12)}…` : 'none recorded');
const value = (v: unknown) => (v === undefined ? '(unset)' : stableJson(v));

/** The documents' sha256 a stamp records: today's `documents`, or an older stamp's `checksums.collection`. */
function recordedDocuments(stamp: Record<string, unknown>): unknown {
  if (isObject(stamp.documents)) return stamp.documents.sha256;
  return isObject(stamp.checksums) ? stamp.checksums.collection : undefined;
}

/**
 * Why the collection's index in `dir` cannot be reused: 'absent' (none yet), what differs (the
 * documents file, the analyzer, or the lexcase and index format that built it: its stamp or its
 * manifest.json says so), or undefined when it can.
 */
export async function staleCollectionIndex(dir: string, stampFile: string, want: CollectionStamp): Promise<string | undefined> {
  if (!existsSync(join(dir, 'manifest.json')) || !existsSync(stampFile)) return 'absent';
  let m: { format?: unknown; version?: unknown; lexcaseVersion?: unknown } = {};
  try {
    m = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
  } catch {
    return 'its manifest.json is not JSON';
  }
  const { index } = want;
  const now = `this is lexcase ${index.lexcaseVersion} (${index.format} v${index.version})`;
  if (m.format !== index.format || m.version !== index.version || m.lexcaseVersion !== index.lexcaseVersion)
    return `it was built by lexcase ${String(m.lexcaseVersion ?? '?')} (${String(m.format ?? '?')} v${String(m.version ?? '?')}); ${now}`;
  let had: unknown;
  try {
    had = JSON.parse(await readFile(stampFile, 'utf8'));
  } catch {
    return `its stamp ${stampFile} is not JSON`;
  }
  if (!isObject(had)) return `its stamp ${stampFile} is not a JSON object`;
  if (had.index === undefined)
    return `its stamp records the data and analyzer but not the lexcase and index format that built it (an older lexcase stamped it); ${now}`;
  const sha = recordedDocuments(had);
  if (sha !== want.documents.sha256)
    return `its collection ${want.documents.file} is another file (sha256 ${short(sha)} when built, ${short(want.documents.sha256)} now)`;
  const analyzer = deepDifferences(had.analyzer, want.analyzer, 'analyzer');
  if (analyzer.length)
    return `it was built with another analyzer (${analyzer.map((d) => `${d.path} ${value(d.before)} then, ${value(d.after)} now`).join('; ')})`;
  if (stableJson(had.index) !== stableJson(index)) return `its stamp records another lexcase or index format (${stableJson(had.index)}); ${now}`;
  return undefined;
}
