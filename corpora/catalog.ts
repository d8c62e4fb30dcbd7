/**
 * What is bundled: the corpora and question datasets under corpora/data/ (names, sizes, licences,
 * files, the record parser of each dataset). registry.ts loads them; this module reads no file and
 * loads no parser library, so the CLI's help can list the names at start-up.
 */
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../core/version.js';
import { barexamQuestion } from './barexam.js';
import { mmluProQuestion } from './mmlu-pro.js';
import type { Question } from './types.js';

export const DATA_DIR = join(PACKAGE_ROOT, 'corpora', 'data');

interface CorpusPart {
  file: string;
  /** `source` for records without one. */
  source: string;
}

export interface CorpusInfo {
  name: string;
  description: string;
  passages: number;
  licence: string;
  parts: CorpusPart[];
}

const BAREXAM_PASSAGES: CorpusPart = { file: 'barexam/passages.jsonl.gz', source: 'barexam_qa' };
const LEGAL_CORPUS: CorpusPart = { file: 'legal_corpus/passages.jsonl.gz', source: 'legal_corpus' };
const BAREXAM_PASSAGE_COUNT = 1149;
/** legal_corpus/SOURCE.md: 5,002 passages until four role-play rules (9 passages) were removed on 2026-11-28. */
const LEGAL_CORPUS_PASSAGE_COUNT = 4993;

export const CORPORA: Record<string, CorpusInfo> = {
  default: {
    name: 'default',
    description: 'Bar Exam QA gold passages + legal_corpus distractors (the demo corpus)',
    passages: BAREXAM_PASSAGE_COUNT + LEGAL_CORPUS_PASSAGE_COUNT,
    licence: 'CC BY-SA 4.0 (barexam part) + public domain (legal_corpus part)',
    parts: [BAREXAM_PASSAGES, LEGAL_CORPUS],
  },
  barexam: {
    name: 'barexam',
    description: 'Bar Exam QA public MBE subset: the 1,149 unique gold passages',
    passages: BAREXAM_PASSAGE_COUNT,
    licence: 'CC BY-SA 4.0',
    parts: [BAREXAM_PASSAGES],
  },
  legal_corpus: {
    name: 'legal_corpus',
    description: 'CAP Arkansas opinions, 50 SCOTUS opinions, FRE, FRCP, US Constitution (~100–200-word passages)',
    passages: LEGAL_CORPUS_PASSAGE_COUNT,
    licence: 'public domain texts',
    parts: [LEGAL_CORPUS],
  },
};

export interface DatasetInfo {
  name: string;
  description: string;
  file: string;
  questions: number;
  licence: string;
  /** Corpus whose passage ids the gold ids refer to (if any). */
  corpus?: string;
  parse: (rec: unknown, file: string, line: number) => Question;
  /** Fields of a record read as ids (question id, gold passage id): a JSON number there must keep the text the file holds (registry.ts). */
  idFields: readonly string[];
}

export const DATASETS: Record<string, DatasetInfo> = {
  barexam: {
    name: 'barexam',
    description: 'Bar Exam QA public MBE subset: 1,195 questions, one gold passage each',
    file: 'barexam/qa.jsonl.gz',
    questions: 1195,
    licence: 'CC BY-SA 4.0',
    corpus: 'barexam',
    parse: barexamQuestion,
    idFields: ['id', 'idx', 'gold_idx'],
  },
  mmlu_pro_law: {
    name: 'mmlu_pro_law',
    description: 'MMLU-Pro law category: 1,101 questions with 3–10 options (no gold passages)',
    file: 'mmlu_pro_law/law.jsonl.gz',
    questions: 1101,
    licence: 'MIT',
    parse: mmluProQuestion,
    idFields: ['question_id', 'id'],
  },
};

export const corpusNames = (): string[] => Object.keys(CORPORA);
export const datasetNames = (): string[] => Object.keys(DATASETS);
/** The bundled datasets whose questions name gold passages (of their `corpus`): the ones retrieval can be evaluated on. */
export const datasetsWithGold = (): string[] => datasetNames().filter((n) => DATASETS[n].corpus);

/** Is `name` a bundled corpus name (as opposed to a path)? */
export const isBundledCorpus = (name: string): boolean => Object.hasOwn(CORPORA, name);
