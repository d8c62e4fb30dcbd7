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
    expect(redactUrl('https://alice:s3cret@h.example/v1?token#/runs')).toBe('https://***:***@h.example/v1?***#/runs');
    expect(redactUrl('http://localhost:8000/v1')).toBe('http://localhost:8000/v1');
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
