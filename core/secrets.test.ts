import { afterEach, describe, expect, it } from 'vitest';
import { redactValue } from './redact-value.js';
import { clearSecrets, maskSecrets, registerSecret } from './secrets.js';

afterEach(() => clearSecrets());

describe('registered secrets', () => {
  it('a key that occurs in text by chance (none, EMPTY, sk, password, a date) is not registered, and text keeps it', () => {
    for (const k of ['none', 'EMPTY', 'sk', 'x', 'ollama', 'password', 'changeme', '2024-02-01']) expect(registerSecret(k), k).toBe(false);
    const trace = { passages: [{ id: 'p1', text: 'In sum, none of the cases held the password was EMPTY on 2024-02-01.' }], dir: '/tmp/none/run-none' };
    expect(redactValue(trace)).toEqual(trace);
    expect(maskSecrets('resuming /tmp/none/A: none done')).toBe('resuming /tmp/none/A: none done');
  });

  it('a real key is masked where it stands as a whole token, not inside a longer token', () => {
    registerSecret('sk-live-4f9a8b7c6d');
    expect(maskSecrets('Bearer sk-live-4f9a8b7c6d. "sk-live-4f9a8b7c6d" key=sk-live-4f9a8b7c6d&x (sk-live-4f9a8b7c6d)')).toBe(
      'Bearer ***. "***" key=***&x (***)',
    );
    expect(maskSecrets('xsk-live-4f9a8b7c6d sk-live-4f9a8b7c6d9 sk-live-4f9a8b7c6d_v2')).toBe('xsk-live-4f9a8b7c6d sk-live-4f9a8b7c6d9 sk-live-4f9a8b7c6d_v2');
  });
});
