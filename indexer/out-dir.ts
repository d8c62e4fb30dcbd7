/**
 * What an index build may replace. A build writes `<out>.tmp-<pid>` and renames it over `out`; the
 * directory it replaces is deleted. So `out` must be one of:
 *   - a path that does not exist yet, or an empty directory;
 *   - a lexcase index: manifest.json parses as a lexcase index manifest, and the directory holds
 *     nothing but index entries (manifest, docs/, sparse/, dense/, lancedb-fts/, ...), so a file a
 *     user put beside the index is never deleted with it.
 * And never the working directory or one of its parents, nor a path the build reads (the input
 * corpus) or a parent of one. Symbolic links are resolved first (the link's target is what gets
 * replaced). No option widens this: to reuse another directory, empty or delete it yourself.
 */
import { lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { z } from 'zod';
import { errors } from '../core/errors.js';
import { MANIFEST_FORMAT } from './manifest.js';

/** Entries an index dir may hold (besides manifest.json.tmp-* left by an interrupted manifest write). */
const INDEX_ENTRIES = new Set(['manifest.json', 'docs', 'sparse', 'dense', 'dense-build.json', 'lancedb-fts']);

const looseManifest = z.looseObject({
  format: z.literal(MANIFEST_FORMAT),
  version: z.number().int(),
  corpus: z.looseObject({ name: z.string() }),
  dense: z.looseObject({ uri: z.string() }).optional(),
});

/** realpath of `p`, or of its nearest existing ancestor joined with the rest when `p` does not exist. */
export function realpathLoose(p: string): string {
  const abs = resolve(p);
  try {
    return realpathSync(abs);
  } catch {
    const parent = dirname(abs);
    if (parent === abs) return abs;
    return join(realpathLoose(parent), basename(abs));
  }
}

/** Is `inner` equal to `outer` or inside it? (both absolute, real paths) */
export function isWithin(inner: string, outer: string): boolean {
  const rel = relative(outer, inner);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

export interface OutDirCheck {
  /** The real path to build into (symlinks resolved). */
  target: string;
  /** Whether an index is there now (to be replaced). */
  replaces: boolean;
}

/**
 * Throws OUT_DIR_REFUSED unless an index may be written to `out` (see the file comment);
 * `inputs` are the paths the build reads (files or folders).
 */
export function checkOutDir(out: string, inputs: string[] = []): OutDirCheck {
  const shown = out;
  const target = realpathLoose(out);
  const cwd = realpathLoose(process.cwd());
  if (isWithin(cwd, target)) {
    throw errors.outDirRefused(shown, target === cwd ? 'it is the working directory' : `it contains the working directory (${cwd})`);
  }
  for (const input of inputs) {
    const real = realpathLoose(input);
    if (isWithin(real, target)) {
      throw errors.outDirRefused(shown, real === target ? 'it is the input corpus itself' : `it contains the input corpus (${input})`, 'write the index to a new directory, e.g. beside the corpus or inside its folder');
    }
  }
  let st;
  try {
    st = lstatSync(target);
  } catch {
    return { target, replaces: false };
  }
  if (!st.isDirectory()) throw errors.outDirRefused(shown, 'it is a file, not a directory');
  const entries = readdirSync(target);
  if (entries.length === 0) return { target, replaces: false };
  if (!entries.includes('manifest.json')) {
    throw errors.outDirRefused(shown, `it is a non-empty directory that is not a lexcase index (no manifest.json; it holds ${listed(entries)})`);
  }
  let manifest: z.infer<typeof looseManifest>;
  try {
    manifest = looseManifest.parse(JSON.parse(readFileSync(join(target, 'manifest.json'), 'utf8')));
  } catch {
    throw errors.outDirRefused(shown, 'its manifest.json is not a readable lexcase index manifest', 'if it is a damaged index you no longer need, delete it yourself and rebuild');
  }
  const allowed = new Set(INDEX_ENTRIES);
  const uri = manifest.dense?.uri;
  if (uri && !/^[a-z][a-z0-9+.-]*:\/\//i.test(uri) && !isAbsolute(uri)) allowed.add(uri.split(/[\\/]/)[0]);
  const foreign = entries.filter((e) => !allowed.has(e) && !e.startsWith('manifest.json.tmp-'));
  if (foreign.length) {
    throw errors.outDirRefused(shown, `it is a lexcase index that also holds files that are not part of it (${listed(foreign)})`, 'move those files out first, or choose another directory');
  }
  return { target, replaces: true };
}

function listed(names: string[]): string {
  const shown = names.slice(0, 3).join(', ');
  return names.length > 3 ? `${shown} and ${names.length - 3} more` : shown;
}
