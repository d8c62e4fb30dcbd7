import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { redactValue } from './redact-value.js';
import { clearSecrets, maskableAsToken, registerSecret } from './secrets.js';

afterEach(() => clearSecrets());

/** Every string (keys and values) in a JSON value. */
function strings(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap(strings);
  if (v && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => [k, ...strings(x)]);
  return [];
}

// Text an attacker (or a corpus) can put in a passage: quotes, backslashes, braces, key=value
// shapes that the old regex-over-JSON redaction mangled, unicode.
const hostile = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('apikey="demo"', 'api_key: "x", "y"', '"apiKey":"', 'Bearer ', '\\"', '"}', '{"a":', 'sk-', '\u2028', '\\u0000'),
  fc.array(fc.constantFrom('apikey=', '"', '\\', '}', ',', ':', ' ', 'demo', 'api-key', 'Bearer x', '{', 'sk-abc'), { maxLength: 12 }).map((a) => a.join('')),
);
const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, hostile, fc.integer(), fc.boolean(), fc.constant(null), tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(fc.oneof(hostile, fc.constantFrom('text', 'passage', 'note')), tie('value'), { maxKeys: 4 }),
})).value;
// Realistic key material: what API keys are made of (specific enough to be masked by value: core/secrets.ts).
const secret = fc.stringMatching(/^[A-Za-z0-9._-]{8,40}$/).filter(maskableAsToken);

describe('redactValue', () => {
  it('keeps a passage holding apikey="demo" as valid, unchanged JSON (the run-crashing case)', () => {
    const trace = { passages: [{ id: 'p1', text: 'The config said apikey="demo", then "quoted" text.' }], note: 'api_key: {x}' };
    const out = redactValue(trace);
    expect(out).toEqual(trace);
    expect(JSON.parse(JSON.stringify(out))).toEqual(trace);
  });

  it('masks fields named like credentials, and a registered key wherever it occurs', () => {
    registerSecret('sk-live-4f9a8b7c6d');
    const out = redactValue({
      llm: { apiKey: 'anything', baseUrl: 'http://h' },
      headers: { Authorization: 'Bearer t0k3n' },
      msg: 'key sk-live-4f9a8b7c6d used',
      ['sk-live-4f9a8b7c6d']: 1,
    });
    expect(out).toEqual({ llm: { apiKey: '***', baseUrl: 'http://h' }, headers: { Authorization: '***' }, msg: 'key *** used', '***': 1 });
  });

  it('fuzz: output is valid JSON, the secret never appears, text without the secret is unchanged', () => {
    fc.assert(
      fc.property(jsonValue, secret, fc.nat(3), (value, key, where) => {
        clearSecrets();
        registerSecret(key);
        // Plant the secret inside some strings (at the start, middle or end of hostile text).
        const planted = JSON.parse(JSON.stringify({ v: value, s: ['', 'x"', '\\', 'apikey="'][where] + key + '"}' }));
        const out = redactValue(planted);
        const text = JSON.stringify(out);
        expect(() => JSON.parse(text)).not.toThrow();
        expect(text).not.toContain(key);
        for (const s of strings(out)) expect(s).not.toContain(key);
        // Strings that never held the secret come back byte for byte.
        const clean = JSON.parse(JSON.stringify(value));
        if (!strings(clean).some((s) => s.includes(key)) && !JSON.stringify(clean).match(/"(api[_-]?key|authorization|password|secret)"/i))
          expect(redactValue(clean)).toEqual(clean);
      }),
      { numRuns: 500, seed: 13 },
    );
  });
});
