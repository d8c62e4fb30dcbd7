/**
 * The one output-path rule every writing command shares: where lexcase may write a directory
 * (`index build --out`, `run <system> --run-dir`, `reproduce`, `merge`, `demo --dir`) or a file
 * (`--run-file`, `--out`, `--plot`, `--qrels-file` of `search` and `eval retrieval`).
 *
 * A directory: accepted when it does not exist yet, is empty, or (when the kind allows it) already
 * is one of that kind that lexcase made and holds nothing else (an index to replace, a run to
 * resume, a reproduction to continue, a demo dir to refresh). A file: accepted when it is a new
 * path or an existing regular file the user names with the flag (it is replaced).
 *
 * Always refused, with OUT_DIR_REFUSED / OUT_FILE_REFUSED naming the path and the reason, before
 * anything is written: a path the command reads (an input corpus, the index it searches, a topics
 * or qrels file) or a folder containing one; a path inside a protected directory (a lexcase index
 * or a run dir, recognised by its own files: `ProtectedDir`) — so no output ever lands in an index
 * or run dir, whichever command reads it; for a directory, the working directory or any of its
 * parents, a file, a non-empty directory that is not of the kind; for a file, a directory, a path
 * under a file, a folder that is not writable, and two outputs of one command naming the same file.
 * Paths are compared after resolving symbolic links. No option widens this: to reuse another
 * directory, empty or delete it yourself.
 */
import { accessSync, constants, lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { errors } from './errors.js';

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

export interface OutputKind {
  /** What would be written, for messages: "an index", "a run", "the merged reproduction". */
  what: string;
  /**
   * For an existing non-empty directory: undefined when it is one of this kind that may be
   * written (replaced or resumed), else why not. Absent: every non-empty directory is refused.
   */
  existing?: (dir: string, entries: string[]) => { reason: string; hint?: string } | undefined;
  /** The hint for a refused non-empty directory. */
  hint?: string;
}

export interface OutputDirCheck {
  /** The real path to write (symlinks resolved). */
  target: string;
  /** Whether a directory of the kind is there already (to replace or resume). */
  existing: boolean;
}

/**
 * A kind of directory no output may be written inside: a lexcase index, a run dir. `is` recognises
 * one by its own files (an index's manifest.json, a run's config.json). The kinds are defined in
 * their own layers (indexer/out-dir.ts INDEX_DIR, eval/run-dir-guard.ts RUN_DIR) and passed in.
 */
export interface ProtectedDir {
  /** For messages: "a lexcase index", "a lexcase run dir". */
  what: string;
  is(dir: string): boolean;
}

/** The nearest directory at or above `start` (a real path) that is one of `kinds`, if any. */
export function enclosingProtected(start: string, kinds: readonly ProtectedDir[]): { dir: string; what: string } | undefined {
  if (!kinds.length) return undefined;
  for (let dir = start; ; dir = dirname(dir)) {
    for (const k of kinds) if (k.is(dir)) return { dir, what: k.what };
    if (dirname(dir) === dir) return undefined;
  }
}

/** Names, for messages: the first three and a count. */
export function listed(names: string[]): string {
  const shown = names.slice(0, 3).join(', ');
  return names.length > 3 ? `${shown} and ${names.length - 3} more` : shown;
}

/** Throws OUT_DIR_REFUSED unless `out` may be written as `kind` (see the module doc); `inputs` are paths the command reads. */
export function checkOutputDir(out: string, kind: OutputKind, inputs: string[] = [], protect: readonly ProtectedDir[] = []): OutputDirCheck {
  const refuse = (reason: string, hint?: string) => errors.outDirRefused(out, reason, hint ?? kind.hint ?? 'choose a new or empty directory', kind.what);
  const target = realpathLoose(out);
  const around = enclosingProtected(dirname(target), protect);
  if (around) throw refuse(`it lies inside ${around.what} (${around.dir})`, `write ${kind.what} outside it`);
  const cwd = realpathLoose(process.cwd());
  if (isWithin(cwd, target)) throw refuse(target === cwd ? 'it is the working directory' : `it contains the working directory (${cwd})`);
  for (const input of inputs) {
    const real = realpathLoose(input);
    if (isWithin(real, target)) {
      throw refuse(
        real === target ? 'it is the input corpus itself' : `it contains the input corpus (${input})`,
        'write to a new directory, e.g. beside the corpus or inside its folder',
      );
    }
  }
  let st;
  try {
    st = lstatSync(target);
  } catch {
    return { target, existing: false };
  }
  if (!st.isDirectory()) throw refuse('it is a file, not a directory');
  const entries = readdirSync(target);
  if (entries.length === 0) return { target, existing: false };
  if (!kind.existing) throw refuse(`it is a non-empty directory (it holds ${listed(entries)})`);
  const no = kind.existing(target, entries);
  if (no) throw refuse(no.reason, no.hint);
  return { target, existing: true };
}

/** One output file a command is asked to write: the flag that names it and the path. */
export interface OutputFile {
  flag: string;
  file: string | undefined;
  /** For the hint when the path is a directory: `e.g. --run-file DIR/run.txt`. */
  example?: string;
}

function statOrNull(p: string) {
  try {
    return statSync(p);
  } catch {
    return null;
  }
}

/**
 * Throws OUT_FILE_REFUSED unless every named file may be written (see the module doc): `inputs` are
 * the files and directories the command reads (the index, topics, qrels), `protect` the kinds of
 * directory no output may lie inside. Checked before any work starts, so a mistake costs nothing.
 */
export function checkOutputFiles(outputs: readonly OutputFile[], inputs: readonly string[] = [], protect: readonly ProtectedDir[] = []): void {
  const seen = new Map<string, string>();
  for (const { flag, file, example = 'out.json' } of outputs) {
    if (file === undefined) continue;
    if (file === '') throw errors.outFileRefused(flag, '""', 'empty path');
    const s = statOrNull(file);
    if (s?.isDirectory()) throw errors.outFileRefused(flag, file, 'is a directory; give a file path', `e.g. ${flag} ${file.replace(/\/+$/, '')}/${example}`);
    const target = realpathLoose(file);
    for (const input of inputs) {
      const real = realpathLoose(input);
      if (isWithin(target, real))
        throw errors.outFileRefused(
          flag,
          file,
          real === target ? `it is ${input}, which this command reads` : `it lies inside ${input}, which this command reads`,
          'write it outside what the command reads',
        );
    }
    const around = enclosingProtected(dirname(target), protect);
    if (around)
      throw errors.outFileRefused(
        flag,
        file,
        `it lies inside ${around.what} (${around.dir}); lexcase never writes into one`,
        'write it outside, e.g. beside it',
      );
    const other = seen.get(target);
    if (other) throw errors.outFileRefused(flag, file, `${other} names the same file`, 'give each output its own file');
    seen.set(target, `${flag} ${file}`);
    let dir = dirname(resolve(file));
    for (;;) {
      const d = statOrNull(dir);
      if (d) {
        if (!d.isDirectory()) throw errors.outFileRefused(flag, file, `${dir} is a file, not a folder, so ${basename(file)} cannot be written under it`);
        try {
          accessSync(dir, constants.W_OK);
        } catch {
          throw errors.outFileRefused(flag, file, `the folder ${dir} is not writable`);
        }
        break;
      }
      const up = dirname(dir);
      if (up === dir) break;
      dir = up;
    }
  }
}
