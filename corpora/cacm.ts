/**
 * CACM (3,204 abstracts of Communications of the ACM, 1958–1979; 64 topics, 52 with judgements) as
 * Anserini ships it, read from the user's copy — lexcase does not bundle it: neither the collection
 * nor its topics/qrels carry a licence that allows redistribution (see docs/reproductions.md).
 *
 * A CACM folder (`--data DIR`) holds:
 *   cacm.tar.gz        castorini/anserini src/main/resources/cacm/cacm.tar.gz (CACM-0001.html …),
 *                      or those .html files themselves (in DIR or DIR/cacm/)
 *   topics.cacm.txt    castorini/anserini-tools topics/topics.cacm.txt
 *   qrels.cacm.txt     castorini/anserini-tools qrels/qrels.cacm.txt
 *
 * Documents as Anserini's HtmlCollection makes them: the file name without ".html" is the docid,
 * the text is the HTML's text (Jsoup's `text()`: tags dropped, entities decoded, whitespace
 * collapsed); passages come sorted by docid, so index order = docid order (the tie order of
 * Anserini's runs). Topics as CacmTopicReader reads them: `<DOC>`, `<DOCNO> n </DOCNO>`, the lines
 * up to `</DOC>` are the title (the query).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { basename, join } from 'node:path';
import { errors } from '../core/errors.js';
import { readTar } from './tar.js';
import type { Passage } from './types.js';
import type { Topic } from './topics.js';

export const CACM_SOURCES = {
  collection: 'https://github.com/castorini/anserini/raw/master/src/main/resources/cacm/cacm.tar.gz',
  topics: 'https://github.com/castorini/anserini-tools/raw/master/topics/topics.cacm.txt',
  qrels: 'https://github.com/castorini/anserini-tools/raw/master/qrels/qrels.cacm.txt',
} as const;

/**
 * sha256 of Anserini's own files — castorini/anserini src/main/resources/cacm/cacm.tar.gz (unchanged
 * since 2019) and castorini/anserini-tools topics/topics.cacm.txt, qrels/qrels.cacm.txt — the copy
 * whose published figures `reproduce anserini-cacm` compares with.
 */
export const ANSERINI_CACM_SHA256 = {
  collection: '4e318d8920a384dfe11f81410abdc19d96a0e23e5fb7832c385be75c7cb75bf9',
  topics: '1dc7b94fbf4adeb0c49be44fc6d7802ddc7bc4ad1b869013af10d09b44019799',
  qrels: '359f77ee6aab89333745a7f25f56370268a493abe1baff76979ad37a4d5428ef',
} as const;

/** Which of a folder's files (by cacmChecksums) are not Anserini's; a folder of .html pages is not compared. */
export function cacmDifferences(files: CacmFiles, checksums: Record<string, string>): string[] {
  const differ: string[] = [];
  if (!statSync(files.collection).isDirectory() && checksums.collection !== ANSERINI_CACM_SHA256.collection) differ.push(basename(files.collection));
  if (checksums.topics !== ANSERINI_CACM_SHA256.topics) differ.push(basename(files.topics));
  if (checksums.qrels !== ANSERINI_CACM_SHA256.qrels) differ.push(basename(files.qrels));
  return differ;
}

export interface CacmFiles {
  dir: string;
  /** cacm.tar.gz, or a folder of CACM-*.html files. */
  collection: string;
  topics: string;
  qrels: string;
}

const HOW_TO_GET = `CACM is not bundled (no licence to redistribute it). Put in one folder: cacm.tar.gz (${CACM_SOURCES.collection}), topics.cacm.txt (${CACM_SOURCES.topics}) and qrels.cacm.txt (${CACM_SOURCES.qrels}), then pass --data FOLDER`;

const hasHtml = (d: string) => existsSync(d) && statSync(d).isDirectory() && readdirSync(d).some((f) => /^CACM-\d+\.html$/.test(f));

/** Where the CACM files of a folder are, or an error naming what is missing and where to get it. */
export function locateCacm(dir: string | undefined): CacmFiles {
  if (!dir) throw errors.usage('the CACM recipe needs your copy of CACM: pass --data FOLDER', HOW_TO_GET);
  if (!existsSync(dir)) throw errors.fileNotFound('CACM folder (--data)', dir);
  const collection = [join(dir, 'cacm.tar.gz'), join(dir, 'cacm', 'cacm.tar.gz')].find(existsSync) ?? [dir, join(dir, 'cacm')].find(hasHtml);
  const topics = [join(dir, 'topics.cacm.txt'), join(dir, 'topics', 'topics.cacm.txt')].find(existsSync);
  const qrels = [join(dir, 'qrels.cacm.txt'), join(dir, 'qrels', 'qrels.cacm.txt')].find(existsSync);
  const missing = [!collection && 'cacm.tar.gz (or the CACM-*.html files)', !topics && 'topics.cacm.txt', !qrels && 'qrels.cacm.txt'].filter(Boolean);
  if (missing.length) throw errors.usage(`${dir} lacks ${missing.join(', ')}`, HOW_TO_GET);
  return { dir, collection: collection!, topics: topics!, qrels: qrels! };
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Jsoup's Document.text() for plain HTML pages: tags and comments dropped, entities decoded, whitespace collapsed, trimmed. */
export function htmlText(html: string): string {
  return html
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[A-Za-z/!?][^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
      if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
      return ENTITIES[e.toLowerCase()] ?? m;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/** The CACM documents, sorted by docid. */
export function readCacmDocuments(collection: string): Passage[] {
  const pages: { name: string; html: string }[] = [];
  if (statSync(collection).isDirectory()) {
    for (const f of readdirSync(collection)) if (f.endsWith('.html')) pages.push({ name: f, html: readFileSync(join(collection, f), 'utf8') });
  } else {
    for (const e of readTar(readFileSync(collection), collection))
      if (e.name.endsWith('.html')) pages.push({ name: basename(e.name), html: e.data.toString('utf8') });
  }
  if (!pages.length) throw errors.fileParse(collection, undefined, 'no .html documents in the CACM collection');
  const docs = pages.map((p) => ({ id: p.name.replace(/\.html$/, ''), text: htmlText(p.html), source: 'cacm' }));
  return docs.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** CACM topics (CacmTopicReader): qid = the DOCNO as an integer, text = the lines before </DOC>. */
export function readCacmTopics(file: string): Topic[] {
  const lines = readFileSync(file, 'utf8').split(/\r?\n/);
  const topics: Topic[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].trim().startsWith('<DOC>')) continue;
    let j = i + 1;
    while (j < lines.length && !lines[j].startsWith('<DOCNO>')) j++;
    const m = /<DOCNO>\s*(.*?)\s*<\/DOCNO>/.exec(lines[j] ?? '');
    if (!m || !/^\d+$/.test(m[1])) throw errors.fileParse(file, j + 1, 'expected "<DOCNO> number </DOCNO>"');
    const body: string[] = [];
    for (j++; j < lines.length && !lines[j].startsWith('</DOC>'); j++) body.push(lines[j]);
    const text = body.join('\n').replace(/\s+/g, ' ').trim();
    if (text) topics.push({ id: String(Number(m[1])), text });
    i = j;
  }
  if (!topics.length) throw errors.fileParse(file, undefined, 'no CACM topics (<DOC> <DOCNO> n </DOCNO> … </DOC>) in the file');
  return topics;
}

/** sha256 of each file (a collection folder: of its .html files in name order), for the run's config. */
export function cacmChecksums(files: CacmFiles): Record<string, string> {
  const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
  const coll = statSync(files.collection).isDirectory()
    ? sha(
        readdirSync(files.collection)
          .filter((f) => f.endsWith('.html'))
          .sort()
          .map((f) => `${f}\n${sha(readFileSync(join(files.collection, f)))}`)
          .join('\n'),
      )
    : sha(readFileSync(files.collection));
  return { collection: coll, topics: sha(readFileSync(files.topics)), qrels: sha(readFileSync(files.qrels)) };
}
