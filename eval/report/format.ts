/** Small Markdown helpers for reports. */
export const pct = (x: number | null | undefined, digits = 1): string => (x === null || x === undefined || Number.isNaN(x) ? '–' : `${(x * 100).toFixed(digits)}%`);

export const ciText = (ci: { lo: number; hi: number } | undefined, asPct = true, digits = 1): string =>
  !ci ? '–' : asPct ? `[${pct(ci.lo, digits)}, ${pct(ci.hi, digits)}]` : `[${ci.lo.toFixed(digits + 2)}, ${ci.hi.toFixed(digits + 2)}]`;

export const num = (x: number, digits = 0): string => (Number.isInteger(x) && digits === 0 ? x.toLocaleString('en-US') : x.toFixed(digits));

/** A Markdown table; cells are escaped for pipes. */
export function table(header: string[], rows: (string | number)[][]): string {
  const esc = (c: string | number) => String(c).replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const lines = [`| ${header.map(esc).join(' | ')} |`, `| ${header.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`];
  for (const r of rows) lines.push(`| ${r.map(esc).join(' | ')} |`);
  return lines.join('\n');
}
