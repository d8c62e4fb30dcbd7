/**
 * findEvidence refuses an option it does not read, naming each with the option meant: before,
 * { stance: 'against' } returned supporting evidence, { topK: 3 } five passages and { methods: ['qld'] }
 * bm25's ranking, as if the option had not been given.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeSparseIndexes } from '../../retrieval/open.js';
import { buildSmallBarexamIndex } from '../../tests/support/small-barexam-index.js';
import { findEvidence, type FindEvidenceOptions } from './find-evidence.js';

const HYPOTHESIS = 'A statement made out of court offered to prove the truth of the matter asserted is inadmissible hearsay';
const FACTS = 'The prosecution offered a police report written by an officer who did not testify.';

let dir: string;
let index: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-find-evidence-options-'));
  index = join(dir, 'idx');
  await buildSmallBarexamIndex(index, { items: 2 });
}, 60_000);
afterAll(async () => {
  await closeSparseIndexes();
  rmSync(dir, { recursive: true, force: true });
});

const ask = (o: Record<string, unknown>) => findEvidence({ hypothesis: HYPOTHESIS, facts: FACTS, index, ...o } as FindEvidenceOptions);

describe('findEvidence options', () => {
  it('stance, topK and methods are refused (INVALID_INPUT) naming the option meant: against, k, use', async () => {
    await expect(ask({ stance: 'against' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      details: { field: 'option "stance"' },
      message: expect.stringContaining('findEvidence takes no such option: "stance" (did you mean "against"? against: true finds counter-evidence)'),
    });
    await expect(ask({ topK: 3 })).rejects.toThrow(/"topK" \(did you mean "k"\?\)/);
    await expect(ask({ methods: ['qld'] })).rejects.toThrow(/"methods" \(did you mean "use"\?\)/);
    // a spelling slip is matched; several are named together; the options are listed
    const e = (await ask({ hypotesis: 'x', maxStep: 2 }).catch((x: Error) => x)) as Error;
    expect(e.message).toMatch(
      /invalid options "hypotesis", "maxStep": findEvidence takes no such option: "hypotesis" \(did you mean "hypothesis"\?\), "maxStep" \(did you mean "maxSteps"\?\)/,
    );
    expect(e.message).toContain('the options are hypothesis, index, facts, against, k,');
  });

  it('the options meant do what was asked: against: true, k: 3, use: ["qld"]', async () => {
    const r = await ask({ against: true, k: 3, use: ['qld'] });
    expect(r.stance).toBe('against');
    expect(r.evidence).toHaveLength(3);
    expect(new Set(r.toolCalls.map((c) => c.tool))).toEqual(new Set(['qld_search']));
  });
});
