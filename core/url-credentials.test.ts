import { afterEach, describe, expect, it } from 'vitest';
import { redactValue } from './redact-value.js';
import { clearSecrets, maskSecrets } from './secrets.js';
import { redactUrl, redactUrlsInText, registerUrlSecrets } from './url-credentials.js';

afterEach(() => clearSecrets());

describe('credentials in an endpoint URL', () => {
  it('redactUrl masks every query value whatever its name and the userinfo; names and the fragment stay', () => {
    expect(redactUrl('http://127.0.0.1:8000/v1?pwd=hunter2&jwt=eyJhbGciOiJIUzI1NiJ9.e30.sig&api-version=2024-02-01')).toBe(
      'http://127.0.0.1:8000/v1?pwd=***&jwt=***&api-version=***',
    );
    expect(redactUrl('https://alice:s3cret@h.example/v1?sk-abc123#/runs')).toBe('https://***:***@h.example/v1?***#/runs');
    expect(redactUrl('http://localhost:8000/v1')).toBe('http://localhost:8000/v1');
  });

  it("a bare parameter that reads as a flag's name is printed as it is, a value given alone is masked", () => {
    // an index's vector source names its query parameters bare; a warning printed them "?***&***" before
    const source = 'endpoint http://127.0.0.1:47811/v1?api-key&deployment (query values sha256 a2412e938eab758fc484f86022de6907, not of api-key)';
    expect(redactUrlsInText(`its passage vectors came from ${source}, this search …`)).toBe(`its passage vectors came from ${source}, this search …`);
    expect(redactUrl('http://h:1/v1?api-key=K-9f8e7d6c&foo=bar&stream')).toBe('http://h:1/v1?api-key=***&foo=***&stream');
    expect(redactUrl('http://h:1/v1?sk-abc123def456&api-version')).toBe('http://h:1/v1?***&api-version');
    registerUrlSecrets('http://h:1/v1?sk-abc123def456&stream');
    expect(maskSecrets('GET /v1/models?sk-abc123def456&stream')).toBe('GET /v1/models?***&stream');
  });

  it('in running text every URL is redacted, its sentence punctuation kept', () => {
    expect(redactUrlsInText('the LLM endpoint http://h:1/v1?pwd=hunter2. (see https://x.example/a?b=c)')).toBe(
      'the LLM endpoint http://h:1/v1?pwd=***. (see https://x.example/a?b=***)',
    );
  });

  it('registered: a short query value is masked where it stands in a URL or an echoed path, and nowhere else', () => {
    registerUrlSecrets('http://127.0.0.1:8000/v1?pwd=hunter2&jwt=eyJhbGciOiJIUzI1NiJ9.e30.c2ln');
    expect(maskSecrets('no route POST /v1/chat/completions?pwd=hunter2&jwt=eyJhbGciOiJIUzI1NiJ9.e30.c2ln')).toBe(
      'no route POST /v1/chat/completions?pwd=***&jwt=***',
    );
    expect(maskSecrets('the jwt eyJhbGciOiJIUzI1NiJ9.e30.c2ln alone')).toBe('the jwt *** alone');
    const passage = { text: 'The password was hunter2; pwd=hunter2 in the note.' };
    expect(redactValue(passage)).toEqual(passage);
  });
});
