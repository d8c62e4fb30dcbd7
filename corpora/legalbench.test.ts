import { existsSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadLegalBenchTask, resolveLegalBenchFile } from './legalbench.js';

const SHARED = resolve(import.meta.dirname, '../../shared/data/legalbench');
const tmp = mkdtempSync(join(tmpdir(), 'legalbench-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('LegalBench loader', () => {
  it('loads the bundled hearsay test set: 94 items, 41 Yes / 53 No, with slices', async () => {
    const xs = await loadLegalBenchTask('hearsay', { env: {} });
    expect(xs).toHaveLength(94);
    expect(xs.filter((x) => x.label === 'Yes')).toHaveLength(41);
    expect(xs[0]).toMatchObject({ id: 'hearsay-test-0', label: 'No', meta: { slice: 'Non-assertive conduct', index: '0' } });
    expect(await loadLegalBenchTask('hearsay', { split: 'train', env: {} })).toHaveLength(5);
  });

  it.skipIf(!existsSync(SHARED))('bundled hearsay is identical to the shared copy', async () => {
    const a = await loadLegalBenchTask('hearsay', { env: {} });
    const b = await loadLegalBenchTask('hearsay', { dir: SHARED });
    expect(a).toEqual(b);
  });

  it('does not ship learned_hands_courts (CC BY-NC-SA): a clear error says to pass --data', () => {
    expect(() => resolveLegalBenchFile('learned_hands_courts', { env: {} })).toThrow(/not found[\s\S]*CC BY-NC-SA 4.0 and is not bundled; pass --data DIR/);
  });

  it.skipIf(!existsSync(SHARED))('loads learned_hands_courts from a user-supplied directory: 192 items, balanced', async () => {
    const xs = await loadLegalBenchTask('learned_hands_courts', { dir: SHARED });
    expect(xs).toHaveLength(192);
    expect(xs.filter((x) => x.label === 'Yes')).toHaveLength(96);
    expect(xs[0].id).toBe('learned_hands_courts-test-0');
  });

  it('reads the LegalBench repository TSV layout and names the file and line of a bad row', async () => {
    mkdirSync(join(tmp, 'hearsay'));
    writeFileSync(join(tmp, 'hearsay', 'test.tsv'), 'answer\tindex\ttext\nYes\t0\tShe said it rained.\nMaybe\t1\tHe nodded.\n');
    await expect(loadLegalBenchTask('hearsay', { dir: tmp })).rejects.toThrow(/hearsay[/\\]test.tsv:3: field "answer" must be "Yes" or "No", got "Maybe"/);
    writeFileSync(join(tmp, 'hearsay.test.jsonl'), '{"index":"0","answer":"Yes","text":"a"}\n{oops\n');
    await expect(loadLegalBenchTask('hearsay', { dir: tmp })).rejects.toThrow(/hearsay.test.jsonl:2: invalid JSON/);
  });

  it('rejects an unknown task with the known names', () => {
    expect(() => resolveLegalBenchFile('contract_nli')).toThrow(/unknown dataset "contract_nli"[\s\S]*hearsay, learned_hands_courts/);
  });
});
