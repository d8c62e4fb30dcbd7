/**
 * An embedding endpoint's query digest as a lexcase before 2026-12-01 recorded it: an index's
 * vector source (manifest `dense.source`, dense-build.json, and every run's config.json
 * `indexContent.dense.vectors.source`) read
 *
 *   endpoint http://host/v1?api-key&deployment (query values sha256 f9f2c879815b4f33acce87e9cea42c19)
 *
 * the digest an unsalted sha256 over every query value, the key's too: whoever holds a copy of the
 * index or of a run dir can test guessed keys against it offline. Today's form leaves those values
 * out and says so (`…, not of api-key)`; indexer/embed/vector-source.ts). Such a digest is kept on
 * disk (a resume and a search over the same endpoint match it: olderVectorSources) but never shown
 * or served: `withoutKeyedQueryDigests` masks each one in a text — where the parameter names it
 * records include one named like a credential, or where the names cannot be read (then whether it
 * covered a key cannot be told) — for log lines (core/log.ts), `lexcase index info` and the explorer.
 */
import { credentialNamed } from './url-credentials.js';

// `endpoint <url>?<names> (query values sha256 <hex>)`: a digest that names no parameter it leaves out
const SOURCE_DIGEST = /(endpoint (\S+)) \(query values sha256 [0-9a-f]{8,64}\)/g;

const decoded = (s: string): string => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** The credential-named parameters a recorded source's digest covered, [] where it covered none, undefined where its names cannot be read. */
function keyedParams(url: string): string[] | undefined {
  const q = url.indexOf('?');
  if (q < 0) return undefined;
  const names = url.slice(q + 1).split('&');
  if (!names.length || names.some((n) => !n || n.includes('='))) return undefined;
  return names.map(decoded).filter(credentialNamed);
}

/** What stands in a masked digest's place. */
function withheld(params: string[] | undefined): string {
  return params
    ? `(query values sha256 withheld: an older lexcase's digest, which covered the value of ${params.join(', ')} too)`
    : "(query values sha256 withheld: an older lexcase's digest, which may have covered a key's value too)";
}

/** Whether `text` holds an older lexcase's query digest that covered (or may have covered) a key's value. */
export function hasKeyedQueryDigest(text: string): boolean {
  return withoutKeyedQueryDigests(text) !== text;
}

/** `text` with each older lexcase's query digest over a key's value (or one that cannot be told) masked; today's forms unchanged. */
export function withoutKeyedQueryDigests(text: string): string {
  if (!text.includes('query values sha256')) return text;
  return text.replace(SOURCE_DIGEST, (whole, head: string, url: string) => {
    const params = keyedParams(url);
    return params && !params.length ? whole : `${head} ${withheld(params)}`;
  });
}
