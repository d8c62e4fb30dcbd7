/**
 * Raw lines of a data file bundled under corpora/data/ (gunzipped when it ends in .gz), for tests
 * that need real legal text: the repository's own copies, never anything outside the checkout.
 *
 *   bundledLines('legal_corpus/passages.jsonl.gz') → ['{"id":…}', …, ''] (split on '\n', like the plain file)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { DATA_DIR } from '../../corpora/registry.js';

export function bundledLines(file: string): string[] {
  const bytes = readFileSync(join(DATA_DIR, file));
  return (file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8').split('\n');
}

/** The bundled Bar Exam QA gold passages (= upstream barexam_qa/passages.jsonl). */
export const BAREXAM_PASSAGES = 'barexam/passages.jsonl.gz';
/** The bundled Bar Exam QA questions (= upstream barexam_qa/qa.jsonl). */
export const BAREXAM_QA = 'barexam/qa.jsonl.gz';
/** The bundled legal_corpus passages (= upstream legal_corpus/passages.jsonl). */
export const LEGAL_CORPUS_PASSAGES = 'legal_corpus/passages.jsonl.gz';
