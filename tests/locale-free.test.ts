/**
 * No ordering or number text of the project follows the machine's locale: a bare `localeCompare(b)`
 * sorts in the collation of LANG/LC_ALL (Hawaiian puts vowels first, Uzbek "ch" after "z", Danish
 * "aa" after "z"), and a bare `toLocaleString()` writes "6.142" under de_DE. Sorted keys feed hashes
 * that config.json records (the request fingerprint `prompts`, the LLM cache key) and the order of
 * passages in a prompt, so the same command on another machine recorded or sent something else
 * (agents/requests.test.ts and agents/mad/cited-evidence.test.ts run them under haw_US.UTF-8).
 * Every such call names its locale ('en': the order every run recorded so far under an English or
 * C locale), or compares code units.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readSources } from './support/import-layers.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The argument text of each `.localeCompare(` call (balanced parentheses). */
function localeCompareArgs(text: string): { at: number; args: string }[] {
  const out: { at: number; args: string }[] = [];
  for (let i = text.indexOf('.localeCompare('); i >= 0; i = text.indexOf('.localeCompare(', i + 1)) {
    const start = i + '.localeCompare('.length;
    let depth = 1;
    let j = start;
    for (; j < text.length && depth > 0; j++) {
      if ('([{'.includes(text[j])) depth++;
      else if (')]}'.includes(text[j])) depth--;
    }
    out.push({ at: i, args: text.slice(start, j - 1) });
  }
  return out;
}

/** Whether the argument text holds a second argument that is a locale (a comma at the top level, not `undefined`). */
function namesLocale(args: string): boolean {
  let depth = 0;
  for (let k = 0; k < args.length; k++) {
    const c = args[k];
    if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (c === ',' && depth === 0) return !/^\s*undefined\b/.test(args.slice(k + 1));
  }
  return false;
}

/** `file:line: call` for every locale-following call in the sources. */
function localeFollowingCalls(files: Map<string, string>): string[] {
  const found: string[] = [];
  const line = (text: string, at: number) => text.slice(0, at).split('\n').length;
  for (const [file, text] of files) {
    if (file.endsWith('.test.ts')) continue;
    for (const { at, args } of localeCompareArgs(text)) if (!namesLocale(args)) found.push(`${file}:${line(text, at)}: localeCompare(${args})`);
    for (const m of text.matchAll(/\.(toLocaleString|toLocaleDateString|toLocaleTimeString|toLocaleLowerCase|toLocaleUpperCase)\(\s*(undefined\b[^)]*)?\)/g))
      found.push(`${file}:${line(text, m.index)}: ${m[0]}`);
  }
  return found;
}

describe('locale-free ordering and numbers', () => {
  it('every localeCompare and toLocale… call of the project names its locale', () => {
    const files = readSources(root);
    expect(files.size).toBeGreaterThan(300);
    expect(localeFollowingCalls(files)).toEqual([]);
  });

  it('flags a bare localeCompare, one with an undefined locale, and a bare toLocaleString', () => {
    const files = new Map([
      ['eval/report/sections/a.ts', "rows.sort(([a], [b]) => a.localeCompare(b));\nkeys.sort((x, y) => String(x.at).localeCompare(String(y.at), 'en'));"],
      ['web/app/b.ts', 'const c = String(x).localeCompare(String(y), undefined, { numeric: true });\nconst n = count.toLocaleString();'],
      ['eval/c.ts', "const s = n.toLocaleString('en-US');"],
      ['eval/c.test.ts', 'a.localeCompare(b);'],
    ]);
    expect(localeFollowingCalls(files)).toEqual([
      'eval/report/sections/a.ts:1: localeCompare(b)',
      'web/app/b.ts:1: localeCompare(String(y), undefined, { numeric: true })',
      'web/app/b.ts:2: .toLocaleString()',
    ]);
  });
});
