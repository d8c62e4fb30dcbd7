/**
 * What the explorer's replies are reduced to before they leave the process: known directories by
 * short names (whole path names only), endpoint and cache keys dropped, run configs relative.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createScrubber, publicRunConfig } from './public-json.js';

const tmp = mkdtempSync(join(tmpdir(), 'lexcase-public-json-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('explorer reply scrubbing', () => {
  const runs = join(tmp, 'work', 'runs');
  const index = join(tmp, 'indexes', 'barexam');
  const scrub = createScrubber([
    [runs, 'runs'],
    [index, 'barexam'],
  ]);

  it('replaces the runs root, the index, the working and home directories wherever they occur in strings', () => {
    const out = scrub({
      error: `run invalid: ${runs}/acal-run/acal/x.graph.json: bad field`,
      nested: [{ note: `index ${index} opened; cwd ${process.cwd()}/runs; cache ${homedir()}/.cache/lexcase` }],
    }) as { error: string; nested: { note: string }[] };
    expect(out.error).toBe('run invalid: runs/acal-run/acal/x.graph.json: bad field');
    expect(out.nested[0].note).toBe('index barexam opened; cwd ./runs; cache ~/.cache/lexcase');
  });

  it('replaces whole path names only: a longer name or a URL path that starts the same is kept', () => {
    const text = `${runs}-old/x, ${runs}2, https://example.com${runs}/y, ${runs}`;
    expect(scrub(text)).toBe(`${runs}-old/x, ${runs}2, https://example.com${runs}/y, runs`);
  });

  it('a directory reached through a symlink is replaced under both names', () => {
    mkdirSync(runs, { recursive: true });
    const link = join(tmp, 'link-to-work');
    symlinkSync(join(tmp, 'work'), link);
    const viaLink = createScrubber([[join(link, 'runs'), 'runs']]);
    expect(viaLink(`${join(link, 'runs')}/a`)).toBe('runs/a');
    expect(viaLink(`${realpathSync(runs)}/b`)).toBe('runs/b');
  });

  it('drops baseUrl, baseUrlQuery, cacheDir and apiKey at any depth, keeps the rest (including a "__proto__" key as data)', () => {
    const value = JSON.parse(
      '{"config":{"model":{"baseUrl":"http://10.0.0.9/v1?deployment=***","baseUrlQuery":"0f3a9c","CacheDir":"/x","apiKey":"***","model":"m"},"__proto__":{"polluted":true}}}',
    );
    const out = scrub(value) as Record<string, any>;
    expect(out.config.model).toEqual({ model: 'm' });
    expect(Object.hasOwn(out.config, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("masks an older lexcase's digest over an embedding endpoint's key in a run config's vector source (config.json before 2026-12-01)", () => {
    const older = 'endpoint http://127.0.0.1:47941/v1?api-key&deployment (query values sha256 f9f2c879815b4f33acce87e9cea42c19)';
    const cfg = { system: 'case', indexContent: { corpus: 'barexam', dense: { embedder: 'openai', model: 'm', vectors: { source: older } } } };
    const masked =
      "endpoint http://127.0.0.1:47941/v1?api-key&deployment (query values sha256 withheld: an older lexcase's digest, which covered the value of api-key too)";
    // before: both served the source as recorded, the key's digest in it
    for (const out of [publicRunConfig(cfg), scrub(cfg)]) expect((out as typeof cfg).indexContent.dense.vectors.source).toBe(masked);
    expect(scrub.text(`field indexContent differs: ${older}`)).not.toContain('f9f2c879');
    // a resume's record of the LLM endpoint's query digest (an older one covered the key too) is dropped as baseUrlQuery is
    const resumes = [
      {
        at: '2026-12-01T09:00:00Z',
        changed: { 'model.baseUrlQuery': { from: '0a40d7390239735c191fcccbf8bb6dec', to: null }, 'model.maxRetries': { from: 2, to: 4 } },
      },
    ];
    expect(scrub({ resumes })).toEqual({ resumes: [{ at: '2026-12-01T09:00:00Z', changed: { 'model.maxRetries': { from: 2, to: 4 } } }] });
  });

  it('a run config shows absolute paths by their last name', () => {
    expect(
      publicRunConfig({
        index: '/srv/indexes/barexam-bm25',
        dataset: 'barexam',
        k: 5,
        tools: ['bm25', '/opt/tool'],
        model: { baseUrl: 'http://h/v1', model: 'q' },
      }),
    ).toEqual({
      index: 'barexam-bm25',
      dataset: 'barexam',
      k: 5,
      tools: ['bm25', 'tool'],
      model: { model: 'q' },
    });
  });
});
