/**
 * Registered secrets (API keys, tokens, the credentials of an endpoint URL): masked wherever
 * lexcase prints or writes text (log lines, config.json, reports, traces, recorded exchanges).
 *
 *  - A secret is masked as a whole token only: where neither neighbour is a letter, digit, `_` or
 *    `-` (`Bearer sk-live-4f9a.` and `"sk-live-4f9a"` are masked, `xsk-live-4f9a` is not), and
 *    repeatedly, so no occurrence survives.
 *  - A value that occurs in ordinary text by chance is never masked by value: shorter than 8
 *    characters (`none`, `EMPTY`, `sk`, `x`), a word of letters only up to 11 characters
 *    (`password`, `changeme`), or digits and separators only (`2024-02-01`, `1.0`). Masking `none`
 *    rewrote "none of the cases" to "*** of the cases" in stored passages and corrupted run-dir
 *    paths. Such a value is masked only where it is named as a credential: fields named like
 *    `apiKey` (redact-value.ts), `Bearer …` and `api_key=…` in log lines (log.ts), and the
 *    userinfo and query values of URLs (url-credentials.ts), which also registers each query
 *    parameter as a pattern here (`?pwd=…` → `?pwd=***`), whatever its value.
 *  - A key lexcase sends to an endpoint (its Authorization header: the LLM's and the embedder's API
 *    key) is also registered as a sent key (`registerSentKey`), whatever its length: what that
 *    endpoint answers to a failed request (an error body quoting the key, as gateways do: `Incorrect
 *    API key provided: abc`) is masked by its exact value (`maskSentKeys`), as a whole token, before
 *    it becomes an error message. Only there: such a body is the endpoint's words about the request,
 *    not data, so a short key (`abc`, `k9#Z2`) is masked in it and nowhere else.
 */
import { escapeRegExp } from './regexp-escape.js';

const secrets = new Set<string>();
const sentKeys = new Set<string>();
const patterns = new Map<string, { re: RegExp; to: string }>();
let tokenRe: RegExp | undefined;

export const SECRET_MASK = '***';

const WEAK = [/^[\s\S]{0,7}$/, /^[A-Za-z]{1,11}$/, /^[\d\s.,:;/_+-]+$/];

/** True when `value` is specific enough to be masked wherever it stands as a token (see the module doc). */
export function maskableAsToken(value: string): boolean {
  return !WEAK.some((re) => re.test(value));
}

const KEY_CHAR = '[\\p{L}\\p{N}_-]';

/**
 * Register a secret value (e.g. an API key) so it is masked wherever it stands as a token. A value
 * that could occur in text by chance is not registered (returns false; see the module doc).
 */
export function registerSecret(value: string | undefined): boolean {
  if (!value || !maskableAsToken(value)) return false;
  if (!secrets.has(value)) {
    secrets.add(value);
    const alts = [...secrets].sort((a, b) => b.length - a.length).map(escapeRegExp);
    tokenRe = new RegExp(`(?<!${KEY_CHAR})(?:${alts.join('|')})(?!${KEY_CHAR})`, 'gu');
  }
  return true;
}

/** Register a pattern whose matches are replaced by `to` wherever they occur (url-credentials.ts: `?name=value`, `//user:pass@`). */
export function registerSecretPattern(re: RegExp, to: string): void {
  const flags = re.flags.includes('g') ? re.flags : `${re.flags}g`;
  patterns.set(`${re.source}/${flags}→${to}`, { re: new RegExp(re.source, flags), to });
}

/**
 * Register a key lexcase sends to an endpoint (an API key in the Authorization header), whatever its
 * length, for `maskSentKeys`; it is also registered as a secret where it is specific enough (registerSecret).
 */
export function registerSentKey(value: string | undefined): void {
  if (!value) return;
  sentKeys.add(value);
  registerSecret(value);
}

/**
 * `text`, an endpoint's reply to a failed request (an error body, the message made of it), with
 * every sent key (registerSentKey) masked where it stands as a whole token, whatever its length: as
 * sent, JSON-escaped (a body quoting it in a JSON string) and percent-encoded (a body quoting a URL).
 */
export function maskSentKeys(text: string): string {
  let out = text;
  for (const key of [...sentKeys].sort((a, b) => b.length - a.length)) {
    const forms = new Set([key, JSON.stringify(key).slice(1, -1), encodeURIComponent(key)]);
    for (const form of forms) out = out.replace(new RegExp(`(?<!${KEY_CHAR})${escapeRegExp(form)}(?!${KEY_CHAR})`, 'gu'), SECRET_MASK);
  }
  return out;
}

/** Forget every registered secret (tests). */
export function clearSecrets(): void {
  secrets.clear();
  sentKeys.clear();
  patterns.clear();
  tokenRe = undefined;
}

/** `text` with every registered pattern and every registered secret (as a whole token) masked. */
export function maskSecrets(text: string): string {
  let out = text;
  for (const { re, to } of patterns.values()) out = out.replace(re, to);
  if (!tokenRe) return out;
  for (let i = 0; i < 8; i++) {
    const next = out.replace(tokenRe, SECRET_MASK);
    if (next === out) break;
    out = next;
  }
  return out;
}
