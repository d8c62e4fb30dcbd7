/**
 * An index or run dir written before 2026-12-01 records its embedding endpoint's source with an
 * unsalted sha256 over every query value, the key's too. It is never printed: every log line (the
 * search's "another source" warning, a refusal naming the index content) shows it masked, while
 * today's form (`…, not of api-key`) and a digest over no credential-named parameter stay as they are.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { redact } from './log.js';
import { hasKeyedQueryDigest, withoutKeyedQueryDigests } from './older-query-digest.js';

const digest = (pairs: [string, string[]][]) => createHash('sha256').update(JSON.stringify(pairs)).digest('hex').slice(0, 32);
// what lexcase recorded for LEXCASE_EMBED_BASE_URL='http://127.0.0.1:47941/v1?deployment=d1&api-key=QKEY-9f8e7d6c5b4a'
const keyed = digest([
  ['api-key', ['QKEY-9f8e7d6c5b4a']],
  ['deployment', ['d1']],
]);
const older = `endpoint http://127.0.0.1:47941/v1?api-key&deployment (query values sha256 ${keyed})`;

describe("an older lexcase's query digest over a key", () => {
  it('is masked, naming the parameter whose value it covered', () => {
    expect(keyed).toBe('f9f2c879815b4f33acce87e9cea42c19');
    expect(withoutKeyedQueryDigests(older)).toBe(
      "endpoint http://127.0.0.1:47941/v1?api-key&deployment (query values sha256 withheld: an older lexcase's digest, which covered the value of api-key too)",
    );
    expect(hasKeyedQueryDigest(older)).toBe(true);
  });

  it('in every log line: the warning a search over another deployment prints', () => {
    const warning = `[warn] dense index idx: its passage vectors came from ${older}, this search embeds queries by endpoint http://127.0.0.1:47941/v1?api-key&deployment (query values sha256 d06422ac58ab383dd2611e0195e77b25, not of api-key); scores …`;
    const printed = redact(warning);
    // before: the whole warning as written, f9f2c879815b4f33acce87e9cea42c19 in it
    expect(printed).not.toContain(keyed);
    expect(printed).toContain('(query values sha256 withheld: ');
    expect(printed).toContain('(query values sha256 d06422ac58ab383dd2611e0195e77b25, not of api-key)');
  });

  it("leaves today's form and a digest over no credential-named parameter as they are; masks one whose names cannot be read", () => {
    const today = `endpoint http://127.0.0.1:47941/v1?api-key&deployment (query values sha256 ${digest([['deployment', ['d1']]])}, not of api-key)`;
    expect(withoutKeyedQueryDigests(today)).toBe(today);
    const plain = `endpoint http://gpu-b.lab:8080/v1?deployment (query values sha256 ${digest([['deployment', ['x']]])})`;
    expect(withoutKeyedQueryDigests(plain)).toBe(plain);
    expect(hasKeyedQueryDigest(plain)).toBe(false);
    expect(withoutKeyedQueryDigests(`endpoint http://h/v1 (query values sha256 ${keyed})`)).toBe(
      "endpoint http://h/v1 (query values sha256 withheld: an older lexcase's digest, which may have covered a key's value too)",
    );
  });
});
