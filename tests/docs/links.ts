/**
 * Relative links in the docs: every `[text](path)` and `[text](path#anchor)` of README.md and
 * docs/**\/*.md (outside code) must name a file of the checkout and, with an anchor into a Markdown
 * file, one of its headings (GitHub's slug rule). External links (http:, https:, mailto:) are not
 * followed: nothing here touches the network.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fencedBlocks, maskCode } from './markdown.js';

export interface Link {
  file: string;
  line: number;
  target: string;
}

/** GitHub's anchor for a heading: lower case, markup and punctuation dropped, spaces → '-'. */
export function slug(heading: string): string {
  return heading
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors a Markdown file defines (its headings, numbered -1, -2 … when repeated; HTML ids). */
export function anchors(text: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  const code = new Set<number>();
  for (const b of fencedBlocks('', text)) {
    const n = b.body === '' ? 0 : b.body.split('\n').length;
    for (let i = b.line - 1; i <= b.line + n; i++) code.add(i);
  }
  text.split('\n').forEach((l, i) => {
    if (code.has(i)) return;
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(l);
    if (h) {
      const s = slug(h[1]);
      const k = seen.get(s) ?? 0;
      seen.set(s, k + 1);
      out.add(k === 0 ? s : `${s}-${k}`);
    }
    for (const m of l.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) out.add(m[1]);
  });
  return out;
}

/** The relative links of a Markdown text, outside fenced blocks and inline code. */
export function relativeLinks(file: string, text: string): Link[] {
  const out: Link[] = [];
  maskCode(text)
    .split('\n')
    .forEach((l, i) => {
      for (const m of l.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
        const target = m[1];
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
        out.push({ file, line: i + 1, target });
      }
    });
  return out;
}

/** Problems with one link, relative to the checkout root (empty when it resolves). */
export function checkLink(root: string, link: Link, read: (path: string) => string = (p) => readFileSync(p, 'utf8')): string[] {
  const [path, anchor] = link.target.split('#', 2) as [string, string | undefined];
  const where = `${link.file}:${link.line}: ${link.target}`;
  const file = path === '' ? link.file : normalize(join(dirname(link.file), decodeURIComponent(path)));
  if (file.startsWith('..')) return [`${where}: points outside the checkout`];
  const abs = join(root, file);
  if (!existsSync(abs)) return [`${where}: no such file ${file}`];
  if (anchor === undefined || anchor === '') return [];
  if (statSync(abs).isDirectory() || !file.endsWith('.md')) return [];
  return anchors(read(abs)).has(anchor.toLowerCase()) ? [] : [`${where}: ${file} has no heading with anchor #${anchor}`];
}
