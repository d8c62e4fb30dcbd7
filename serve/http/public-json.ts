/**
 * What leaves the explorer is stripped of server-side locations and endpoint settings: every API
 * reply (and error message) has the absolute directories it knows — the runs root, the index, the
 * working and home directories — replaced by short names ("runs", "index", ".", "~"), and keys that
 * carry endpoint or cache settings (baseUrl, baseUrlQuery, cacheDir, apiKey, …) dropped at any depth. A run's
 * config.json is further reduced to relative names (publicRunConfig). An older lexcase's digest of an
 * embedding endpoint's query values that covered a key's value (a run dir's or index's vector source
 * recorded before 2026-12-01: core/older-query-digest.ts) is masked in every string sent.
 */
import { homedir } from 'node:os';
import { basename, isAbsolute, resolve } from 'node:path';
import { realpathSync } from 'node:fs';
import { withoutKeyedQueryDigests } from '../../core/older-query-digest.js';

/** Keys never sent to the browser, at any depth (compared case-insensitively); baseUrlQuery: the digest of the endpoint's query values (core/config.ts publicLlmConfig). */
const PRIVATE_KEYS = new Set(['baseurl', 'baseurlquery', 'cachedir', 'apikey', 'api_key']);
// a dotted path's last name counts too: config.json `resumes[].changed["model.baseUrlQuery"]`
const privateKey = (k: string): boolean => PRIVATE_KEYS.has(k.toLowerCase()) || PRIVATE_KEYS.has(k.toLowerCase().split('.').pop()!);
const publicEntries = (o: object, f: (v: unknown) => unknown) => Object.fromEntries(Object.entries(o).flatMap(([k, x]) => (privateKey(k) ? [] : [[k, f(x)]])));

export interface Scrubber {
  /** The value with directories replaced and private keys dropped (as it would go on the wire). */
  (value: unknown): unknown;
  /** One message (an error) with the directories replaced. */
  text(message: string): string;
}

/** Both the given and the resolved real form of a directory (a symlinked tmp dir has two names). */
function forms(dir: string): string[] {
  const abs = resolve(dir);
  let real = abs;
  try {
    real = realpathSync(abs);
  } catch {
    /* not there (yet): the given form only */
  }
  return [...new Set([abs, real])];
}

/**
 * A scrubber for the given directories: `[absolute dir, shown name]` pairs, longest path first so
 * a runs root inside the working directory shows as "runs", not "./runs".
 */
export function createScrubber(dirs: [string | undefined, string][]): Scrubber {
  const pairs: [string, string][] = [];
  for (const [dir, name] of [...dirs, [process.cwd(), '.'], [homedir(), '~']] as [string | undefined, string][]) {
    if (!dir) continue;
    for (const f of forms(dir)) if (f !== '/' && f.length > 1) pairs.push([f, name]);
  }
  pairs.sort((a, b) => b[0].length - a[0].length);
  // whole path names only: "/home/al" is not replaced inside "/home/alice" or "x.com/home/al"
  const patterns = pairs.map(([abs, name]) => [abs, new RegExp(`(?<![\\w.-])${abs.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w.-])`, 'g'), name] as const);
  const scrubString = (s: string): string => {
    let out = withoutKeyedQueryDigests(s);
    for (const [abs, re, name] of patterns) if (out.includes(abs)) out = out.replace(re, () => name);
    return out;
  };
  const walk = (value: unknown): unknown => {
    // toJSON first (dates), as JSON.stringify will on the wire
    const v = value && typeof (value as { toJSON?: unknown }).toJSON === 'function' ? (value as { toJSON(): unknown }).toJSON() : value;
    if (typeof v === 'string') return scrubString(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return publicEntries(v, walk);
    return v;
  };
  return Object.assign(walk, { text: scrubString });
}

/** A run's config.json for the browser: private keys dropped, absolute paths reduced to their last name. */
export function publicRunConfig(cfg: unknown): unknown {
  if (typeof cfg === 'string') return isAbsolute(cfg) ? basename(cfg) : withoutKeyedQueryDigests(cfg);
  if (Array.isArray(cfg)) return cfg.map(publicRunConfig);
  if (cfg && typeof cfg === 'object') return publicEntries(cfg, publicRunConfig);
  return cfg;
}
