/**
 * Credentials inside an endpoint URL (`http://alice:PASS@host/v1?api-key=K`, Azure-style
 * `?api-key=`, signed `?sig=` URLs): `redactUrl` masks them for anything written or shown (run
 * config.json, report.json, logs), and `urlSecrets` lists them so they are registered as secrets
 * and masked wherever else they would appear. The user name and password of the userinfo part are
 * both masked (a token is often given as the user name); query values are masked when their name
 * says they hold a credential.
 */
import { SECRET_MASK } from './secrets.js';

const CREDENTIAL_PARAM = /key|token|secret|pass|auth|sig|signature|credential|session|code/i;

function parse(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/** The credential values inside `url` (userinfo, credential-named query values), decoded and raw. */
export function urlSecrets(url: string | undefined): string[] {
  const u = url ? parse(url) : undefined;
  if (!u) return [];
  const out = new Set<string>();
  const add = (raw: string) => {
    if (!raw) return;
    out.add(raw);
    try {
      out.add(decodeURIComponent(raw));
    } catch {
      /* keep the raw form */
    }
  };
  add(u.username);
  add(u.password);
  for (const [k, v] of u.searchParams) if (CREDENTIAL_PARAM.test(k)) (add(v), add(encodeURIComponent(v)));
  return [...out];
}

/** `url` with its credentials replaced by `***` (unparseable input comes back unchanged). */
export function redactUrl(url: string): string {
  const u = parse(url);
  if (!u) return url;
  const hadUser = !!u.username || !!u.password;
  let changed = false;
  for (const k of [...u.searchParams.keys()]) {
    if (CREDENTIAL_PARAM.test(k)) {
      u.searchParams.set(k, SECRET_MASK);
      changed = true;
    }
  }
  if (!hadUser && !changed) return url;
  u.username = '';
  u.password = '';
  let s = u.toString().replace(/%2A%2A%2A/g, SECRET_MASK);
  if (hadUser) s = s.replace(/^([a-z][a-z0-9+.-]*:\/\/)/i, `$1${SECRET_MASK}:${SECRET_MASK}@`);
  return s;
}
