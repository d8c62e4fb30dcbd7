/**
 * Every agent system's request fingerprint (config.json `prompts`, eval/request-fingerprint.ts) is
 * made by the one helper from what the system sends: the same settings give the same value, each
 * system and variant its own, and a changed template or schema changes it.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadTradeSecretModel } from '../corpora/trade-secret.js';
import { requestFingerprint } from '../eval/request-fingerprint.js';
import { acalRequests } from './acal/requests.js';
import { baselineRequests, caseRequests } from './case/requests.js';
import { emarRequests } from './emar/requests.js';
import { madRequests } from './mad/requests.js';
import { threeplyRequests } from './threeply/requests.js';
import { createRetrievalTools } from '../retrieval/tools/index.js';
import { keywordRetriever, PASSAGES } from './case/test-support/fixtures.js';

const tools = createRetrievalTools({ retrievers: { bm25: keywordRetriever('bm25', PASSAGES) }, docs: { get: async () => undefined } as never });
const factors = loadTradeSecretModel();
const all = () => ({
  case: caseRequests({ k: 5, tools, hypotheses: 'direct' }),
  'case exploratory': caseRequests({ k: 5, tools, hypotheses: 'exploratory' }),
  'baseline/llm-only': baselineRequests('llm-only'),
  'baseline/bm25-rag': baselineRequests('bm25-rag'),
  'mad/mad': madRequests('mad', { passageChars: 500, tools }),
  'mad/single-rag': madRequests('single-rag', { passageChars: 500, tools }),
  'acal/acal': acalRequests('acal', { task: 'hearsay', passageChars: 700 }),
  'acal/sp': acalRequests('sp', { task: 'hearsay', passageChars: 700 }),
  'acal/cot': acalRequests('cot', { task: 'hearsay', passageChars: 700 }),
  'acal/rag': acalRequests('rag', { task: 'hearsay', passageChars: 700 }),
  emar: emarRequests(),
  'threeply/reflective': threeplyRequests('reflective', factors),
  'threeply/single': threeplyRequests('single', factors),
  'threeply/single-enhanced': threeplyRequests('single-enhanced', factors),
  'threeply/multi-no-reflection': threeplyRequests('multi-no-reflection', factors),
});

describe('the request fingerprint of every agent system', () => {
  it('the same settings give the same value; every system and variant has its own', () => {
    const a = Object.fromEntries(Object.entries(all()).map(([k, v]) => [k, requestFingerprint(v)]));
    const b = Object.fromEntries(Object.entries(all()).map(([k, v]) => [k, requestFingerprint(v)]));
    expect(b).toEqual(a);
    expect(new Set(Object.values(a).map((f) => f.sha256)).size).toBe(Object.keys(a).length);
  });

  it('a changed template, schema or tool changes it, in the part that changed', () => {
    const parts = madRequests('mad', { passageChars: 500, tools });
    const before = requestFingerprint(parts);
    const judge = parts.judge as unknown[];
    const prompt = requestFingerprint({ ...parts, judge: [`${judge[0]} Be brief.`, ...judge.slice(1)] });
    expect(prompt.parts.judge).not.toBe(before.parts.judge);
    expect({ ...prompt.parts, judge: '' }).toEqual({ ...before.parts, judge: '' });
    const schema = requestFingerprint({ ...parts, judge: [...judge.slice(0, -1), z.object({ verdict: z.string() })] });
    expect(schema.parts.judge).not.toBe(before.parts.judge);
    expect(requestFingerprint({ ...parts, tools: tools.slice(0, 0) }).parts.tools).not.toBe(before.parts.tools);
  });

  it('is the same on a machine whose locale collates otherwise (LANG=haw_US.UTF-8 sorts vowels first, uz_UZ puts "ch" after "z")', async () => {
    // config.json records it, and a resume or a merge of shards refuses a different one: a run started
    // under LANG=C and resumed under LANG=haw_US.UTF-8 was refused ("field prompts differs") with
    // nothing changed, as the keys of the schemas were sorted in the machine's locale
    const script = `
      const { requestFingerprint } = await import('./eval/request-fingerprint.ts');
      const { acalRequests } = await import('./agents/acal/requests.ts');
      const { madRequests } = await import('./agents/mad/requests.ts');
      const { emarRequests } = await import('./agents/emar/requests.ts');
      const { threeplyRequests } = await import('./agents/threeply/requests.ts');
      const { loadTradeSecretModel } = await import('./corpora/trade-secret.ts');
      console.log(JSON.stringify([
        requestFingerprint(acalRequests('acal', { task: 'hearsay', passageChars: 700 })),
        requestFingerprint(madRequests('mad', { passageChars: 500, tools: [] })),
        requestFingerprint(emarRequests()),
        requestFingerprint(threeplyRequests('reflective', loadTradeSecretModel())),
      ]));`;
    const here = [
      requestFingerprint(acalRequests('acal', { task: 'hearsay', passageChars: 700 })),
      requestFingerprint(madRequests('mad', { passageChars: 500, tools: [] })),
      requestFingerprint(emarRequests()),
      requestFingerprint(threeplyRequests('reflective', factors)),
    ];
    for (const lang of ['haw_US.UTF-8', 'uz_UZ.UTF-8', 'C']) {
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        cwd: join(import.meta.dirname, '..'),
        env: { ...process.env, LANG: lang, LC_ALL: lang },
      });
      expect({ lang, fingerprints: JSON.parse(stdout.trim().split('\n').pop()!) }).toEqual({ lang, fingerprints: here });
    }
  }, 60_000);
});
