/**
 * The one warning a resume gives when the LLM endpoint's query values differ from those the run's
 * latest attempt ran with (config.json `model.baseUrlQuery`: a digest of the values of the query
 * parameters not named like a credential, core/llm/endpoint.ts deploymentQueryDigest; the values are
 * masked in `model.baseUrl`). Since 2026-12-01 the digest covers no key, so a difference is another
 * `?deployment=`, `?api-version=` or model chosen by the query: it can change replies, and the
 * resume's items would be counted with the earlier ones. A digest an older lexcase wrote (an attempt
 * before 2026-12-01T08:43:54Z whose endpoint had a credential-named parameter) covered the key's
 * value too: a rotated key changed it as another deployment does, and which of the two it is cannot
 * be told; the warning says so. Compared with the latest attempt (the start, or the last resume that
 * changed it, `resumes[].changed`), so the resumes after one that changed it say nothing again.
 */
import { credentialNamed } from '../core/url-credentials.js';

type Resume = { at?: string; changed?: Record<string, { from: unknown; to: unknown }> };

/** When config.json's `model.baseUrlQuery` stopped covering credential-named parameters' values (commit 18a1f96f). */
export const KEYLESS_QUERY_DIGEST_SINCE = '2026-12-01T08:43:54Z';

const KEY = 'model.baseUrlQuery';

/** The names of a (redacted) base URL's query parameters: those the digest covers and those it leaves out. */
function paramNames(baseUrl: unknown): { covered: string[]; credentials: string[] } {
  if (typeof baseUrl !== 'string' || !URL.canParse(baseUrl)) return { covered: [], credentials: [] };
  const names = [...new Set(new URL(baseUrl).searchParams.keys())].sort();
  return { covered: names.filter((n) => !credentialNamed(n)), credentials: names.filter(credentialNamed) };
}

const list = (names: string[]): string => names.join(', ');

/**
 * Whether a digest written by an attempt made at `at` over an endpoint whose recorded (redacted) URL is
 * `baseUrl` is an older lexcase's over a key's value too (or cannot be told: no time recorded). It is
 * never printed (core/older-query-digest.ts says why).
 */
export function keyedDigest(at: string | null | undefined, baseUrl: unknown): boolean {
  return paramNames(baseUrl).credentials.length > 0 && (!at || at < KEYLESS_QUERY_DIGEST_SINCE);
}

/** What a log line shows for an older lexcase's digest over a key's value. */
export const WITHHELD_DIGEST = "an older lexcase's digest over the key's value too, not shown";

/** The model.baseUrlQuery the run's latest attempt ran with (the last resume that changed it, else the start's), and when that attempt was made. */
function lastAttemptQuery(
  resumes: readonly Resume[],
  recorded: { baseUrlQuery?: unknown; createdAt?: string | null },
): { value: unknown; at?: string | null; what: string } {
  for (let i = resumes.length - 1; i >= 0; i--) {
    const c = resumes[i].changed?.[KEY];
    if (c) return { value: c.to, at: resumes[i].at, what: 'its last resume ran with' };
  }
  return { value: recorded.baseUrlQuery, at: recorded.createdAt, what: 'it was started with' };
}

/**
 * Whether a resume runs with the model.baseUrlQuery the run's latest attempt ran with (`now`), where it
 * differs from the start's (`resumes[].changed` records it again): the "resuming … with" line then leaves
 * it out. Before, every resume after the one that changed it said "model.baseUrlQuery … (as the last
 * resume; …)" again, though nothing had changed, while the warning was said once.
 */
export function queryAsLastAttempt(resumes: readonly Resume[], recorded: { baseUrlQuery?: unknown }, now: { baseUrlQuery?: unknown }): boolean {
  return JSON.stringify(lastAttemptQuery(resumes, recorded).value ?? null) === JSON.stringify(now.baseUrlQuery ?? null);
}

/**
 * The warning for a resume whose model.baseUrlQuery (`now.baseUrlQuery`) differs from the one the
 * latest attempt ran with, or undefined where it is the same (or the start recorded none).
 */
export function endpointQueryWarning(
  runDir: string,
  resumes: readonly Resume[],
  recorded: { baseUrl?: unknown; baseUrlQuery?: unknown; createdAt?: string | null },
  now: { baseUrl?: unknown; baseUrlQuery?: unknown },
): string | undefined {
  if (recorded.baseUrlQuery === undefined || recorded.baseUrlQuery === null) return undefined; // an older lexcase's run: nothing to compare with
  const q = { to: now.baseUrlQuery ?? null };
  const last = lastAttemptQuery(resumes, recorded);
  if (JSON.stringify(last.value ?? null) === JSON.stringify(q.to ?? null)) return undefined;
  const names = paramNames(now.baseUrl);
  const before = paramNames(recorded.baseUrl);
  const covered = names.covered.length ? names.covered : before.covered;
  const leftOut = [...new Set([...names.credentials, ...before.credentials])];
  const field =
    `model.baseUrlQuery, the digest of the values of ${covered.length ? list(covered) : 'its query parameters'}` +
    `${leftOut.length ? ` (never of ${list(leftOut)})` : ''}, is ${JSON.stringify(q.to)} now, ${keyedDigest(last.at, recorded.baseUrl) ? 'another' : JSON.stringify(last.value)} as ${last.what}; the values are masked in model.baseUrl`;
  const keyed = keyedDigest(last.at, recorded.baseUrl);
  const effect = keyed
    ? `the recorded digest was written by a lexcase before 2026-12-01, whose digest covered the value of ${list(before.credentials)} too: a rotated key changed it as another deployment does, and which of the two it is cannot be told from the run dir. If the values of ${covered.length ? list(covered) : 'the other query parameters'} are those ${last.what}, nothing that changes replies differs; if not, the replies may come from another deployment or model, and its items would be counted with the earlier ones: use a new run dir`
    : `another value of ${covered.length ? list(covered) : 'a query parameter'} (a deployment, API version or model chosen by the query) can change the replies, and this resume's items would be counted with the earlier ones: use a new run dir if it is another model`;
  return `resuming ${runDir} against the endpoint with other query values than ${last.what}: ${field}. ${effect[0].toUpperCase()}${effect.slice(1)}`;
}
