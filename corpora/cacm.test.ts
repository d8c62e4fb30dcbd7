/**
 * Reading the user's CACM copy (corpora/cacm.ts, corpora/tar.ts) as Anserini reads it: HTML pages
 * from cacm.tar.gz or a folder, text as Jsoup's text(), docids from the file names, sorted; topics
 * as CacmTopicReader reads them; a missing file is one error saying what is missing and where to
 * get it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cacmChecksums, cacmDifferences, htmlText, locateCacm, readCacmDocuments, readCacmTopics } from './cacm.js';
import { readTar } from './tar.js';
import { tarGz } from './test-support/tar-writer.js';

const dir = mkdtempSync(join(tmpdir(), 'lexcase-cacm-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const page = (title: string, body: string) => `<html>\n<pre>\n\n\n${title}\n\n${body}\n</pre>\n</html>\n`;

describe('CACM documents', () => {
  it('text as Jsoup gives it: tags gone, entities decoded, whitespace collapsed; "1 <= m <= n" kept', () => {
    expect(htmlText(page('Partitions &amp; Sets', 'into m or fewer sets (1 <= m <= n), and\n\t m>n;  a<b?'))).toBe(
      'Partitions & Sets into m or fewer sets (1 <= m <= n), and m>n; a',
    );
    expect(htmlText('<p>x&#65;&#x42;&nbsp;y<!-- c --></p>')).toBe('xAB y'); // Jsoup counts a no-break space as whitespace
  });

  it('from cacm.tar.gz (any order, long names) and from a folder: same documents, sorted by docid', () => {
    const files = [
      { name: 'CACM-0002.html', data: page('Second', 'b text') },
      { name: 'CACM-0001.html', data: page('First', 'a text') },
      { name: `${'deep/'.repeat(20)}CACM-0003.html`, data: page('Third', 'c text') },
      { name: 'README', data: 'not a page' },
    ];
    writeFileSync(join(dir, 'cacm.tar.gz'), tarGz(files));
    expect(readTar(tarGz(files), 'x').map((e) => e.name)).toEqual(files.map((f) => f.name));
    const fromTar = readCacmDocuments(join(dir, 'cacm.tar.gz'));
    expect(fromTar).toEqual([
      { id: 'CACM-0001', text: 'First a text', source: 'cacm' },
      { id: 'CACM-0002', text: 'Second b text', source: 'cacm' },
      { id: 'CACM-0003', text: 'Third c text', source: 'cacm' },
    ]);
    const folder = join(dir, 'pages');
    mkdirSync(folder);
    for (const f of files.slice(0, 2)) writeFileSync(join(folder, f.name), f.data);
    expect(readCacmDocuments(folder)).toEqual(fromTar.slice(0, 2));
  });
});

describe('CACM topics and the folder', () => {
  it('topics: qid from <DOCNO>, the lines up to </DOC> as the query', () => {
    const f = join(dir, 'topics.cacm.txt');
    writeFileSync(
      f,
      '<DOC>\n<DOCNO> 1 </DOCNO>\n\n\n What articles exist which deal with TSS (Time Sharing System), an\noperating system for IBM computers?\n\n \n</DOC>\n<DOC>\n<DOCNO> 02 </DOCNO>\n I am interested in Prieve\n\nPrieve, B.\n</DOC>\n',
    );
    expect(readCacmTopics(f)).toEqual([
      { id: '1', text: 'What articles exist which deal with TSS (Time Sharing System), an operating system for IBM computers?' },
      { id: '2', text: 'I am interested in Prieve Prieve, B.' },
    ]);
  });

  it('a missing folder or file is one error naming what is missing and where to get it', () => {
    expect(() => locateCacm(undefined)).toThrow(/needs your copy of CACM: pass --data FOLDER[\s\S]*castorini\/anserini/);
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    expect(() => locateCacm(empty)).toThrow(/lacks cacm\.tar\.gz \(or the CACM-\*\.html files\), topics\.cacm\.txt, qrels\.cacm\.txt[\s\S]*anserini-tools/);
    writeFileSync(join(dir, 'qrels.cacm.txt'), '1 Q0 CACM-0001 1\n');
    expect(locateCacm(dir)).toMatchObject({ collection: join(dir, 'cacm.tar.gz'), topics: join(dir, 'topics.cacm.txt'), qrels: join(dir, 'qrels.cacm.txt') });
  });

  it("files that are not Anserini's (by sha256) are named; a folder of pages has no published sum to compare", () => {
    const files = locateCacm(dir);
    expect(cacmDifferences(files, cacmChecksums(files))).toEqual(['cacm.tar.gz', 'topics.cacm.txt', 'qrels.cacm.txt']);
    const pages = { ...files, collection: join(dir, 'pages') };
    expect(cacmDifferences(pages, cacmChecksums(pages))).toEqual(['topics.cacm.txt', 'qrels.cacm.txt']);
  });
});
