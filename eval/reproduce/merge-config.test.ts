/**
 * `lexcase merge` compares the LegalBench files the shards read (config.json `dataFiles`) by their
 * sha256: two hosts that read the same bytes from their own $LEXCASE_LEGALBENCH_DIR merge (each
 * shard's own path recorded in its `settings`), a shard that read other bytes does not.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import '../../agents/systems.js'; // the system list: config `system` names are read as one
import { PACKAGE_ROOT } from '../../core/version.js';
import { firstDifference } from '../resume-config.js';
import { mergeComparable, shardProvenance } from './merge-config.js';

const bytes = readFileSync(join(PACKAGE_ROOT, 'corpora', 'data', 'legalbench', 'hearsay', 'test.jsonl'));
const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const acal = (file: Record<string, unknown>, shard: number) => ({
  system: 'acal/acal',
  task: 'hearsay',
  split: 'test',
  limit: 20,
  dataFiles: { test: { task: 'hearsay', split: 'test', ...file } },
  k: 0,
  shard: { index: shard, count: 2 },
});

describe('merge compares the LegalBench files the shards read by sha256', () => {
  const host1 = acal({ source: 'bundled', file: 'corpora/data/legalbench/hearsay/test.jsonl', sha256: sha(bytes) }, 1);
  const host2 = acal({ source: 'LEXCASE_LEGALBENCH_DIR', file: '/srv/h2/legalbench/hearsay/test.jsonl', sha256: sha(bytes) }, 2);

  it("the same bytes read from another place compare equal; the shard's own file is in its settings", () => {
    expect(firstDifference(mergeComparable(host1), mergeComparable(host2))).toBeUndefined();
    const { shard: _s, ...merged } = host1;
    expect(shardProvenance({ config: host2 }, merged).settings).toEqual({ dataFiles: host2.dataFiles });
  });

  it('a copy with one label flipped (another sha256) differs in dataFiles', () => {
    const rows = bytes.toString('utf8').split('\n');
    const r = JSON.parse(rows[0]);
    rows[0] = JSON.stringify({ ...r, answer: r.answer === 'Yes' ? 'No' : 'Yes' });
    const flipped = acal({ source: 'LEXCASE_LEGALBENCH_DIR', file: '/srv/h2/legalbench/hearsay/test.jsonl', sha256: sha(rows.join('\n')) }, 2);
    expect(firstDifference(mergeComparable(host1), mergeComparable(flipped))).toBe('dataFiles');
  });
});

describe('merge compares the endpoint query digest the shards recorded', () => {
  const model = (baseUrlQuery: string, timeoutMs: number) => ({
    baseUrl: 'https://gw.example.org/openai/v1?deployment=***',
    baseUrlQuery,
    model: 'm',
    temperature: 0,
    timeoutMs,
  });
  const shardOf = (m: Record<string, unknown>, shard: number) => ({ ...acal({ source: 'bundled', sha256: sha(bytes) }, shard), model: m });

  it('two deployments behind one masked URL differ in model (a resume only warns); another timeout does not', () => {
    const a = shardOf(model('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 60_000), 1);
    expect(firstDifference(mergeComparable(a), mergeComparable(shardOf(model('bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', 60_000), 2)))).toBe('model');
    expect(firstDifference(mergeComparable(a), mergeComparable(shardOf(model('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 5_000), 2)))).toBeUndefined();
  });
});
