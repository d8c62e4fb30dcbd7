/**
 * Credentials inside an endpoint URL (`http://alice:PASS@host/v1`, Azure-style `?api-key=`,
 * `?pwd=`, `?jwt=`, signed `?sig=` URLs): `redactUrl` masks them for anything written or shown
 * (run config.json, report.json, logs), and `registerUrlSecrets` registers them (core/secrets.ts)
 * so they are masked wherever else they would appear (traces, recorded exchanges, error messages
 * that echo the request path).
 *
 * Every query value is treated as a credential, whatever its name (a list of names missed `pwd`
 * and `jwt`), and so are the user name and password of the userinfo part (a token is often given
 * as the user name). Parameter names are kept, so a reader still sees which parameters the
 * endpoint took (`?api-key=***&api-version=***`); a bare parameter (no `=`) that reads as a flag's
 * name (letters, `-`, `_`, `.`: `?api-key&deployment`, the form an index's vector source names its
 * parameters in) is kept as it is, any other bare part (`?sk-abc123`, which may be a token given
 * alone) is masked whole; the fragment (never sent to a server: an explorer route) is kept as it is.
 */
import { registerSecret, registerSecretPattern, SECRET_MASK } from './secrets.js';
import { escapeRegExp } from './regexp-escape.js';

function parse(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

const decoded = (raw: string): string => {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
};

/** The raw `name=value` (or bare `name`) parts of a URL's query string. */
function queryParts(u: URL): { name: string; value?: string }[] {
  if (u.search.length <= 1) return [];
  return u.search
    .slice(1)
    .split('&')
    .filter(Boolean)
    .map((p) => {
      const i = p.indexOf('=');
      return i < 0 ? { name: p } : { name: p.slice(0, i), value: p.slice(i + 1) };
    });
}

/** A bare query part (no `=`) that reads as a flag's name, not as a value given alone: letters, `-`, `_`, `.`. */
const bareFlag = (name: string): boolean => /^[A-Za-z][A-Za-z_.-]*$/.test(name);

/** The credential values inside `url` (userinfo, every query value, a bare part but a flag's name), raw and decoded. */
export function urlSecrets(url: string | undefined): string[] {
  const u = url ? parse(url) : undefined;
  if (!u) return [];
  const out = new Set<string>();
  const add = (raw: string | undefined) => {
    if (!raw) return;
    out.add(raw);
    out.add(decoded(raw));
  };
  add(u.username);
  add(u.password);
  for (const p of queryParts(u)) add(p.value ?? (bareFlag(p.name) ? undefined : p.name));
  return [...out];
}

// where a query value ends: the next parameter, the fragment, or the end of the URL in running text
const VALUE_END = `(?=$|[&#;\\s"'<>()\\[\\]{},\`])`;

/**
 * Register the credentials of `url` as secrets: each value as a token (when specific enough,
 * core/secrets.ts), and each query parameter as `name=value` after `?`, `&` or `;` — masked to
 * `name=***` whatever the value, so a short one (`?pwd=hunter2`) is masked where it stands in a
 * URL and nowhere else — and the userinfo as `//user:pass@`.
 */
export function registerUrlSecrets(url: string | undefined): void {
  const u = url ? parse(url) : undefined;
  if (!u) return;
  for (const s of urlSecrets(url)) registerSecret(s);
  for (const p of queryParts(u)) {
    const values = new Set([p.value ?? '', decoded(p.value ?? ''), encodeURIComponent(decoded(p.value ?? ''))].filter(Boolean));
    if (p.value === undefined && !bareFlag(p.name)) registerSecretPattern(new RegExp(`(?<=[?&;])${escapeRegExp(p.name)}${VALUE_END}`), SECRET_MASK);
    for (const v of values) registerSecretPattern(new RegExp(`(?<=[?&;])(${escapeRegExp(p.name)})=${escapeRegExp(v)}${VALUE_END}`), `$1=${SECRET_MASK}`);
  }
  if (u.username || u.password) {
    const userinfo = `${u.username}${u.password ? `:${u.password}` : ''}@`;
    registerSecretPattern(new RegExp(`(?<=//)${escapeRegExp(userinfo)}`), `${SECRET_MASK}:${SECRET_MASK}@`);
  }
}

/** `url` with its userinfo and every query value replaced by `***`, a bare flag's name kept (unparseable or credential-free input comes back unchanged). */
export function redactUrl(url: string): string {
  const u = parse(url);
  if (!u) return url;
  const parts = queryParts(u);
  const hadUser = !!u.username || !!u.password;
  if (!hadUser && parts.length === 0) return url;
  const search = parts.map((p) => (p.value !== undefined ? `${p.name}=${SECRET_MASK}` : bareFlag(p.name) ? p.name : SECRET_MASK)).join('&');
  const hash = u.hash;
  u.username = '';
  u.password = '';
  u.search = '';
  u.hash = '';
  let s = u.toString();
  if (hadUser) s = s.replace(/^([a-z][a-z0-9+.-]*:\/\/)/i, `$1${SECRET_MASK}:${SECRET_MASK}@`);
  return `${s}${search ? `?${search}` : ''}${hash}`;
}

/** Query parameter names that say the value is a credential (`api-key`, `access_token`, `sig`, `pwd`, `jwt`, …). */
const CREDENTIAL_NAME = /key|token|secret|sig|pass|pwd|jwt|auth|credential|session/i;

/** A query parameter's (decoded) name says its value is a credential (`api-key`, `sig`, `pwd`, …). */
export const credentialNamed = (name: string): boolean => CREDENTIAL_NAME.test(name);

/**
 * The names of the query parameters of `url` named like a credential (`api-key`, `sig`), never their values:
 * for a warning that a command line (readable by every user in ps) holds them. Other query values
 * (`?api-version=`) are masked wherever written too (registerUrlSecrets) but are not named here;
 * a userinfo (`user:pass@`) is refused before any request (core/llm/preflight.ts), with its own hint.
 */
export function urlCredentialParams(url: string): string[] {
  const u = parse(url);
  if (!u) return [];
  return queryParts(u)
    .filter((p) => CREDENTIAL_NAME.test(decoded(p.name)))
    .map((p) => p.name);
}

// a URL in running text (log lines, error messages): scheme://… up to white space or a quote
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;

/** Every URL in `text` through `redactUrl` (trailing punctuation of a sentence left outside the URL). For log lines and messages, not stored data. */
export function redactUrlsInText(text: string): string {
  return text.replace(URL_IN_TEXT, (m) => {
    const tail = /[).,;:!?\]}]+$/.exec(m)?.[0] ?? '';
    const url = tail ? m.slice(0, -tail.length) : m;
    return redactUrl(url) + tail;
  });
}
