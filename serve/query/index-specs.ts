/**
 * `--index DIR` / `--index NAME=DIR` flags (repeatable) → named index specs for the query service.
 * A bare DIR is named after its last path part (characters outside [A-Za-z0-9._-] become "-");
 * two indexes with one name are refused, with the NAME=DIR form as the way out.
 */
import { basename, resolve } from 'node:path';
import { errors } from '../../core/errors.js';

export interface IndexSpec {
  /** Name clients address the index by (letters, digits, ".", "_", "-"). */
  name: string;
  dir: string;
}

export const INDEX_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

export function indexSpec(value: string): IndexSpec {
  const m = /^([A-Za-z0-9][A-Za-z0-9._-]*)=(.+)$/.exec(value);
  if (m) {
    if (!INDEX_NAME.test(m[1])) throw errors.invalidInput('--index', `name "${m[1]}" is over 100 characters`);
    return { name: m[1], dir: m[2] };
  }
  const base = basename(resolve(value))
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 100);
  return { name: base || 'index', dir: value };
}

export function indexSpecs(values: readonly string[]): IndexSpec[] {
  const specs = values.map(indexSpec);
  const seen = new Set<string>();
  for (const s of specs) {
    if (seen.has(s.name))
      throw errors.usage(`two --index values are both named "${s.name}"`, 'name them: --index NAME=DIR (e.g. --index fre=idx/fre --index cases=idx/cases)');
    seen.add(s.name);
  }
  return specs;
}
