/**
 * The one output-directory rule every writing command shares (`index build`, `run <system>`,
 * `reproduce`, `merge`): where lexcase may write a directory of some kind.
 *
 * Accepted: a path that does not exist yet, an empty directory, or (when the kind allows it) a
 * directory that already is one of that kind and holds nothing else (an index to replace, a run
 * to resume, a reproduction to continue). Always refused, with OUT_DIR_REFUSED naming the
 * directory and the reason, before anything is written: the working directory or any of its
 * parents (`.`, `..`); a path the command reads (an input corpus) or a folder containing one; a
 * file; a non-empty directory that is not of the kind. Paths are compared after resolving
 * symbolic links. No option widens this: to reuse another directory, empty or delete it yourself.
 */
import { lstatSync, readdirSync, realpathSync } from 'node:fs';
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

/** Names, for messages: the first three and a count. */
export function listed(names: string[]): string {
  const shown = names.slice(0, 3).join(', ');
  return names.length > 3 ? `${shown} and ${names.length - 3} more` : shown;
}

/** Throws OUT_DIR_REFUSED unless `out` may be written as `kind` (see the module doc); `inputs` are paths the command reads. */
export function checkOutputDir(out: string, kind: OutputKind, inputs: string[] = []): OutputDirCheck {
  const refuse = (reason: string, hint?: string) => errors.outDirRefused(out, reason, hint ?? kind.hint ?? 'choose a new or empty directory', kind.what);
  const target = realpathLoose(out);
  const cwd = realpathLoose(process.cwd());
  if (isWithin(cwd, target)) throw refuse(target === cwd ? 'it is the working directory' : `it contains the working directory (${cwd})`);
  for (const input of inputs) {
    const real = realpathLoose(input);
    if (isWithin(real, target)) {
      throw refuse(real === target ? 'it is the input corpus itself' : `it contains the input corpus (${input})`, 'write to a new directory, e.g. beside the corpus or inside its folder');
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
