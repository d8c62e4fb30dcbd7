/**
 * `lexcase reproduce anserini-cacm` says when an RM3 run's topic gained no feedback term
 * (retrieval/rm3-no-feedback.ts), as `search --topics --rm3` does: on a CACM-format folder of the
 * filler corpus (tests/support/rm3-filler-corpus.ts), the topic "filler" finds only passages whose
 * terms are each in more than 10 % of the documents, so its bm25-rm3 and ql-rm3 rankings are the
 * base runs'. Before, the recipe's RM3 rows printed those figures with no word; now each RM3 run
 * warns, naming the topic, and the plain runs do not.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeSparseIndexes } from '../../../retrieval/open.js';
import { runCli } from '../../../tests/support/run-cli.js';
import { FILLER_PASSAGES, FILLER_TOPICS } from '../../../tests/support/rm3-filler-corpus.js';

const dir = mkdtempSync(join(tmpdir(), 'lexcase-repro-rm3-nofb-'));
const data = join(dir, 'cacm');
const docid = (i: number) => `CACM-${String(i + 1).padStart(4, '0')}`;

beforeAll(() => {
  mkdirSync(data);
  // the collection as a folder of CACM-*.html pages (corpora/cacm.ts reads them as a tarball's)
  FILLER_PASSAGES.forEach((p, i) => writeFileSync(join(data, `${docid(i)}.html`), `<html>\n<pre>\n\n\n${p.text}\n</pre>\n</html>\n`));
  writeFileSync(join(data, 'topics.cacm.txt'), FILLER_TOPICS.map((t, i) => `<DOC>\n<DOCNO> ${i + 1} </DOCNO>\n\n ${t.text}\n\n</DOC>\n`).join(''));
  // every topic judged (trec_eval's topics are those with judgements): topic 2 is "filler"
  writeFileSync(join(data, 'qrels.cacm.txt'), `1 Q0 ${docid(3)} 1\n2 Q0 ${docid(30)} 1\n3 Q0 ${docid(0)} 1\n`);
});
afterAll(async () => {
  await closeSparseIndexes();
  rmSync(dir, { recursive: true, force: true });
});

describe('reproduce anserini-cacm on topics that gain no RM3 feedback term', () => {
  it('each RM3 run warns, naming the topic; the plain runs do not', async () => {
    const r = await runCli(['reproduce', 'anserini-cacm', '--data', data, '--run-dir', join(dir, 'repro')]);
    expect(r.code, r.stderr).toBe(0);
    const said = r.stderr.split('\n').filter((l) => /gained no RM3 feedback term/.test(l));
    expect(said.length).toBeGreaterThan(0);
    for (const l of said) expect(l).toMatch(/^\[warn\] run \S+-rm3: 1 of 3 topics gained no RM3 feedback term \(e\.g\. 2\): /);
    expect(said.some((l) => l.startsWith('[warn] run bm25-rm3: '))).toBe(true);
  }, 120_000);
});
