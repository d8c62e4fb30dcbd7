/**
 * What an index build may replace: the shared output-dir rule (core/out-dir-rule.ts) with the
 * index's own kind. A build writes `<out>.tmp-<pid>` and renames it over `out`; the directory it
 * replaces is removed. So besides a new or empty directory, `out` may only be a lexcase index
 * (manifest.json parses as a lexcase index manifest) holding nothing but index entries, **at every
 * depth**: the files the manifest lists (docs/…, sparse/…), manifest.json, the marker, the dense
 * build state, and LanceDB's own layout under dense/ and lancedb-fts/. A user's file anywhere
 * inside (`notes.txt`, `docs/notes.txt`, an empty `sparse/mydata/`) makes the index refused, so it
 * is never deleted; the same predicate decides what the removal of the old index may delete
 * (`indexLayout`, used with core/owned-dir.ts `removeOwnedTree`).
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { checkOutputDir, isWithin, listed, realpathLoose, type ProtectedDir } from '../core/out-dir-rule.js';
import { foreignEntries, OWNER_MARKER, type LayoutPredicate } from '../core/owned-dir.js';
import { MANIFEST_FORMAT } from './manifest.js';
import { BLOCKS_FILE } from './block-checksums.js';

export { isWithin, realpathLoose };

/** What the output checks read of a manifest: enough to tell a lexcase index and its own files. */
interface LooseManifest {
  format: typeof MANIFEST_FORMAT;
  version: number;
  corpus: { name: string };
  checksums?: Record<string, string>;
  sizes?: Record<string, number>;
  dense?: { uri: string };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const recordOf = (v: unknown, type: 'string' | 'number') => v === undefined || (isObject(v) && Object.values(v).every((x) => typeof x === type));

/**
 * `v` as a loose manifest (other keys allowed), else undefined. Checked by hand, not with zod: every
 * command that writes a file asks it (core/out-dir-rule.ts, through INDEX_DIR), and a single
 * `lexcase search` or `search --topics` should not load zod for six fields (its full schema is
 * manifest-schema.ts, read when an index is opened for use).
 */
function asLooseManifest(v: unknown): LooseManifest | undefined {
  if (!isObject(v) || v.format !== MANIFEST_FORMAT || !Number.isInteger(v.version)) return undefined;
  if (!isObject(v.corpus) || typeof v.corpus.name !== 'string') return undefined;
  if (!recordOf(v.checksums, 'string') || !recordOf(v.sizes, 'number')) return undefined;
  if (v.dense !== undefined && !(isObject(v.dense) && typeof v.dense.uri === 'string')) return undefined;
  return v as unknown as LooseManifest;
}

/** Top-level files of an index dir besides its data files. */
const TOP_FILES = new Set(['manifest.json', OWNER_MARKER, 'dense-build.json', BLOCKS_FILE]);
/** Directories LanceDB owns inside an index dir (dense vectors, lancedb-fts). */
const LANCE_DIRS = new Set(['dense', 'lancedb-fts']);
/** LanceDB's layout inside a dataset dir (`<table>.lance/`) or its `__manifest/`. */
const LANCE_SUBDIR = /^(_[a-z_]+|data|[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12})$/;
const LANCE_FILE = /^[\w.-]+\.(lance|txn|manifest|json|arrow|idx|bin|binpb)$/;

function lancePath(parts: string[], isDir: boolean): boolean {
  // parts[0] is the LanceDB dir itself (dense/, lancedb-fts/): inside it, `<table>.lance/` and `__manifest/`.
  if (parts.length === 1) return isDir;
  if (parts.length === 2) return isDir && (/^[\w.-]+\.lance$/.test(parts[1]) || parts[1] === '__manifest');
  const name = parts[parts.length - 1];
  return isDir ? LANCE_SUBDIR.test(name) : LANCE_FILE.test(name);
}

/**
 * The layout of an index dir with this manifest: which paths (relative, `/`-separated) are the
 * index's own. `build` adds what a build's temp dir holds before it is complete (segments).
 */
export function indexLayout(manifest: Pick<LooseManifest, 'checksums' | 'sizes' | 'dense'> | undefined, o: { build?: boolean } = {}): LayoutPredicate {
  const files = new Set([...Object.keys(manifest?.checksums ?? {}), ...Object.keys(manifest?.sizes ?? {})]);
  const lance = new Set(LANCE_DIRS);
  const uri = manifest?.dense?.uri;
  if (uri && !/^[a-z][a-z0-9+.-]*:\/\//i.test(uri) && !isAbsolute(uri)) lance.add(uri.split(/[\\/]/)[0]);
  return (rel, isDir) => {
    const parts = rel.split('/');
    if (lance.has(parts[0])) return lancePath(parts, isDir);
    if (parts.length === 1) {
      if (isDir) return parts[0] === 'docs' || parts[0] === 'sparse' || (!!o.build && parts[0] === 'segments');
      return TOP_FILES.has(rel) || rel.startsWith('manifest.json.tmp-');
    }
    if (isDir) return false;
    if (files.has(rel)) return true;
    // A temp dir holds data files before any manifest lists them: the build's own file names.
    if (!o.build) return false;
    if (parts.length !== 2) return false;
    if (parts[0] === 'segments') return /^(w\d+-\d+\.seg|range-\d+[\w.-]*)$/.test(parts[1]);
    return (parts[0] === 'docs' || parts[0] === 'sparse') && /^[\w-]+\.[\w]+$/.test(parts[1]);
  };
}

/** The manifest of an index dir read loosely (format, corpus, files), or undefined when it is not one. */
export function readLooseManifest(dir: string): LooseManifest | undefined {
  try {
    return asLooseManifest(JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')));
  } catch {
    return undefined;
  }
}

/** A lexcase index (its manifest.json reads as one): no output of any command is written inside it. */
export const INDEX_DIR: ProtectedDir = { what: 'a lexcase index', is: (dir) => readLooseManifest(dir) !== undefined };

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
  const r = checkOutputDir(
    out,
    {
      what: 'an index',
      hint: 'choose a new or empty directory, or an existing lexcase index to replace',
      existing: (target, entries) => {
        if (!entries.includes('manifest.json'))
          return { reason: `it is a non-empty directory that is not a lexcase index (no manifest.json; it holds ${listed(entries)})` };
        const manifest = readLooseManifest(target);
        if (!manifest)
          return {
            reason: 'its manifest.json is not a readable lexcase index manifest',
            hint: 'if it is a damaged index you no longer need, delete it yourself and rebuild',
          };
        const foreign = foreignEntries(target, indexLayout(manifest));
        if (foreign.length)
          return {
            reason: `it is a lexcase index that also holds files that are not part of it (${listed(foreign)})`,
            hint: 'move those files out first, or choose another directory',
          };
        return undefined;
      },
    },
    inputs,
    [INDEX_DIR],
  );
  return { target: r.target, replaces: r.existing };
}
