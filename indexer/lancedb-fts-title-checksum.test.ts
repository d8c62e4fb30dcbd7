/**
 * The lancedb-fts table indexes each passage's title + text, while the corpus checksum covers ids and
 * texts only. Built with the CLI (a child process) from a JSONL file, then rebuilt after a title-only
 * change: the manifest records what the table indexes (`lancedbFts.textChecksum`), so the index's
 * recorded content (`indexContent`, what a run records and a resume or merge compares) differs. Before,
 * both builds had the same indexContent: a run resumed over the rebuilt index mixed items searched in
 * two full-text indexes, and nothing said so.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuiltCli } from '../tests/support/run-built-cli.js';
import { indexContent, readManifest } from './manifest.js';

const passages = (contractTitle: string) => [
  { id: 'p-hearsay', title: 'Evidence', text: 'Hearsay is an out of court statement offered to prove the truth of the matter asserted.' },
  { id: 'p-contract', title: contractTitle, text: 'A contract needs offer, acceptance and consideration to be enforceable.' },
];

let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'lexcase-fts-title-'));
}, 60_000);
afterAll(() => rm(cwd, { recursive: true, force: true }));

async function build(contractTitle: string) {
  await writeFile(
    join(cwd, 'p.jsonl'),
    `${passages(contractTitle)
      .map((p) => JSON.stringify(p))
      .join('\n')}\n`,
  );
  const b = await runBuiltCli(['index', 'build', 'p.jsonl', '--out', 'idx', '--workers', '0', '--methods', 'bm25,qld,lancedb-fts', '--title-field', 'title'], {
    cwd,
  });
  expect(b.code, b.stderr).toBe(0);
  return readManifest(join(cwd, 'idx'));
}

describe('an index with lancedb-fts rebuilt after a title-only change', () => {
  it('records another lancedbFts.textChecksum, so its indexContent differs though the corpus checksum is the same', async () => {
    const before = await build('Contracts');
    const after = await build('Sales of goods');
    expect(after.corpus.checksum).toBe(before.corpus.checksum); // texts unchanged: the corpus checksum cannot see it
    expect(before.lancedbFts?.textChecksum).toMatch(/^[0-9a-f]{64}$/);
    expect(after.lancedbFts?.textChecksum).not.toBe(before.lancedbFts?.textChecksum);
    expect(indexContent(after)).not.toEqual(indexContent(before)); // before: equal, a resume over it was accepted
    expect(indexContent(after).lancedbFts).toEqual({ textChecksum: after.lancedbFts?.textChecksum });
  }, 180_000);
});
