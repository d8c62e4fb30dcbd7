/**
 * Deep redaction of a JSON-able value, for everything lexcase writes (traces, results, config.json,
 * reports). It works on the structure, never on serialised JSON, so its output is always valid JSON
 * and text that holds no secret is left exactly as it was:
 *  - the value of a field whose key names a credential (apiKey, api_key, authorization, password,
 *    secret, accessToken, ...) becomes "***";
 *  - every registered secret (core/secrets.ts) is masked where it stands as a whole token in a
 *    string, keys included, and every registered URL credential where it stands in a URL; a value
 *    that could occur in text by chance (`none`) is never registered, so passages, paths and
 *    replies are written as they are.
 * Same JSON semantics as a JSON round trip (undefined dropped, toJSON honoured).
 */
import { maskSecrets, SECRET_MASK } from './secrets.js';

/** Keys whose values are credentials, whatever they hold. */
const SECRET_KEY =
  /^(?:api[_-]?key|x[_-]api[_-]key|authorization|proxy[_-]authorization|password|passwd|secret|client[_-]?secret|access[_-]?token|refresh[_-]?token|bearer[_-]?token|auth[_-]?token)$/i;

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

export function redactValue<T>(value: T): T {
  const text = JSON.stringify(value, function (this: unknown, key: string, val: unknown) {
    if (key !== '' && !Array.isArray(this) && isSecretKey(key) && val !== undefined && val !== null) return SECRET_MASK;
    if (typeof val === 'string') return maskSecrets(val);
    if (val && typeof val === 'object' && !Array.isArray(val)) {
      const entries = Object.entries(val as Record<string, unknown>);
      if (entries.some(([k]) => maskSecrets(k) !== k)) return Object.fromEntries(entries.map(([k, v]) => [maskSecrets(k), v]));
    }
    return val;
  });
  return (text === undefined ? undefined : JSON.parse(text)) as T;
}
