/**
 * The parts of the project's Markdown that the docs check reads (docs/docs-check.md is the
 * contributor's guide):
 *
 * - fenced blocks (``` or ~~~, any indentation) with their language, body, line and the
 *   `<!-- docs-check: … -->` marker right above them (blank lines allowed in between);
 * - shell blocks (bash, sh, shell, console, zsh) split into commands: `\` continuations joined,
 *   comment-only and blank lines dropped; in a `console` block only `$ ` lines are commands and
 *   the lines after one (up to the next `$ `) are its expected output;
 * - figure regions `<!-- figures:NAME … -->` … `<!-- /figures:NAME -->` that `npm run
 *   docs:figures` writes from a run and the docs check compares with a run.
 *
 * Pure functions on text: no file system, no processes (tests/docs/markdown.test.ts).
 */

export const SHELL_LANGS = new Set(['bash', 'sh', 'shell', 'console', 'zsh']);

export type Marker = { kind: 'skip'; reason: string } | { kind: 'bad'; text: string };

export interface Block {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The info string's first word, lower case ('' when untagged). */
  lang: string;
  body: string;
  marker?: Marker;
}

export interface Command {
  /** 1-based line in the file where the command starts. */
  line: number;
  text: string;
  /** console blocks: the lines shown after the command (its expected stdout), if any. */
  expected?: string[];
}

export interface Region {
  file: string;
  name: string;
  /** Free text after the name in the opening comment (e.g. a note on what is an example). */
  note: string;
  /** 1-based line of the opening comment. */
  line: number;
  /** The text between the opening and the closing comment (without them). */
  content: string;
  /** Character offsets of content in the file (for rewriting). */
  start: number;
  end: number;
}

const MARKER = /^\s*<!--\s*docs-check:\s*(.*?)\s*-->\s*$/;

function parseMarker(text: string): Marker {
  const m = /^skip\s*\((.+)\)$/s.exec(text);
  if (m && m[1].trim()) return { kind: 'skip', reason: m[1].trim() };
  return { kind: 'bad', text };
}

/** Every fenced block of a Markdown file, in order. */
export function fencedBlocks(file: string, text: string): Block[] {
  const lines = text.split('\n');
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([^`\s]*)?.*$/.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, info = ''] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const l = lines[j];
      if (
        l.trim().startsWith(fence[0].repeat(fence.length)) &&
        l
          .trim()
          .replace(new RegExp(`^\\${fence[0]}+`), '')
          .trim() === ''
      )
        break;
      body.push(l.startsWith(indent) ? l.slice(indent.length) : l.trimStart());
    }
    let k = i - 1;
    while (k >= 0 && lines[k].trim() === '') k--;
    const mk = k >= 0 ? MARKER.exec(lines[k]) : null;
    out.push({ file, line: i + 1, lang: info.toLowerCase(), body: body.join('\n'), ...(mk ? { marker: parseMarker(mk[1]) } : {}) });
    i = j;
  }
  return out;
}

/**
 * The text with fenced blocks' bodies and inline code spans blanked (same length, newlines kept),
 * so that markers and regions quoted as code are not read as markers and regions.
 */
export function maskCode(text: string): string {
  const blank = (t: string) => t.replace(/[^\n]/g, ' ');
  const lines = text.split('\n');
  for (const b of fencedBlocks('', text)) {
    const n = b.body === '' ? 0 : b.body.split('\n').length;
    for (let i = b.line; i < b.line + n && i < lines.length; i++) lines[i] = blank(lines[i]);
  }
  return lines.join('\n').replace(/(`+)(?!`)([^\n]*?[^`\n]|[^`\n])\1(?!`)/g, (m) => blank(m));
}

/** `<!-- docs-check: … -->` comments that are not right above a fenced block (a misplaced marker is an error). */
export function strayMarkers(file: string, text: string): { line: number; text: string }[] {
  const blocks = new Set(
    fencedBlocks(file, text)
      .filter((b) => b.marker)
      .map((b) => b.line),
  );
  const lines = maskCode(text).split('\n');
  const out: { line: number; text: string }[] = [];
  lines.forEach((l, i) => {
    if (!MARKER.test(l)) return;
    let k = i + 1;
    while (k < lines.length && lines[k].trim() === '') k++;
    if (!blocks.has(k + 1)) out.push({ line: i + 1, text: l.trim() });
  });
  return out;
}

/** The commands of a shell block. */
export function shellCommands(block: Block): Command[] {
  const lines = block.body.split('\n');
  const out: Command[] = [];
  const consoleBlock = block.lang === 'console';
  let cur: { line: number; parts: string[] } | undefined;
  let last: Command | undefined;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i];
    const lineNo = block.line + 1 + i;
    if (cur) {
      cur.parts.push(raw);
      if (!/\\\s*$/.test(raw)) {
        last = { line: cur.line, text: cur.parts.join('\n') };
        out.push(last);
        cur = undefined;
      }
      continue;
    }
    let l = raw;
    if (consoleBlock) {
      if (!/^\s*\$ /.test(l)) {
        if (last && (l.trim() !== '' || last.expected)) (last.expected ??= []).push(l);
        continue;
      }
      l = l.replace(/^\s*\$ /, '');
    }
    if (l.trim() === '' || /^\s*#/.test(l)) continue;
    if (/\\\s*$/.test(l)) {
      cur = { line: lineNo, parts: [l] };
      continue;
    }
    last = { line: lineNo, text: l };
    out.push(last);
  }
  if (cur) out.push({ line: cur.line, text: cur.parts.join('\n') });
  for (const c of out) if (c.expected) while (c.expected.length && c.expected[c.expected.length - 1].trim() === '') c.expected.pop();
  return out;
}

/** Lines of a non-shell block that read like commands (so an untagged one is caught). */
export function commandLines(body: string): string[] {
  return body.split('\n').filter((l) => /^(\$ )?(npx |lexcase |npm |node |export [A-Z_]+=)/.test(l));
}

/** Figure regions: `<!-- figures:NAME note -->` … `<!-- /figures:NAME -->`. */
export function figureRegions(file: string, text: string): Region[] {
  const out: Region[] = [];
  const masked = maskCode(text);
  const open = /<!--\s*figures:([a-z0-9-]+)([^>]*?)-->/g;
  for (let m = open.exec(masked); m; m = open.exec(masked)) {
    const name = m[1];
    const close = new RegExp(`<!--\\s*/figures:${name}\\s*-->`, 'g');
    close.lastIndex = m.index + m[0].length;
    const c = close.exec(masked);
    if (!c) throw new Error(`${file}:${text.slice(0, m.index).split('\n').length}: <!-- figures:${name} --> has no closing <!-- /figures:${name} -->`);
    const start = m.index + m[0].length;
    out.push({ file, name, note: m[2].trim(), line: text.slice(0, m.index).split('\n').length, content: text.slice(start, c.index), start, end: c.index });
    open.lastIndex = c.index + c[0].length;
  }
  return out;
}

/** Replace the content of every region named `name` (returns the new text). */
export function replaceRegion(text: string, name: string, content: string): string {
  const regions = figureRegions('', text).filter((r) => r.name === name);
  for (const r of regions.reverse()) text = text.slice(0, r.start) + content + text.slice(r.end);
  return text;
}

/**
 * A Markdown table's rows as cells (header first; the alignment row dropped). Lines that are not
 * table rows end the table.
 */
export function tableRows(text: string): string[][] {
  const rows: string[][] = [];
  for (const l of text.split('\n')) {
    const t = l.trim();
    if (!t.startsWith('|')) {
      if (rows.length) break;
      continue;
    }
    const cells = t
      .replace(/^\|/, '')
      .replace(/\|$/, '')
      .split('|')
      .map((c) => c.trim());
    if (cells.every((c) => /^:?-+:?$/.test(c))) continue;
    rows.push(cells);
  }
  return rows;
}

/** Does `actual` (lines) match `expected` (lines, where a line `…` or `...` matches any run of lines)? Trailing spaces ignored. */
export function matchLines(expected: string[], actual: string[]): boolean {
  const e = expected.map((l) => l.trimEnd());
  const a = actual.map((l) => l.trimEnd());
  const memo = new Map<string, boolean>();
  const go = (i: number, j: number): boolean => {
    const key = `${i},${j}`;
    if (memo.has(key)) return memo.get(key)!;
    let r: boolean;
    if (i === e.length) r = j === a.length;
    else if (e[i].trim() === '…' || e[i].trim() === '...') r = go(i + 1, j) || (j < a.length && go(i, j + 1));
    else r = j < a.length && e[i] === a[j] && go(i + 1, j + 1);
    memo.set(key, r);
    return r;
  };
  return go(0, 0);
}
