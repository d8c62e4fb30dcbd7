/**
 * Text as pdflatex reads it with no package and its default encodings (OT1 text, 7-bit input):
 * LaTeX's special characters escaped, and every character beyond ASCII written as the command that
 * prints it — `−` `≥` `≤` `Δ` `±` `×` as math (`$-$`, `$\geq$`, …), dashes, quotes and `…` as
 * their ASCII ligatures and commands, accented letters as accent commands (`é` → `\'{e}`). A
 * character with no such command (an emoji, CJK) is written as its code point, `U+26A0`, so the
 * file still compiles and shows what stood there. Before, these characters were copied as they
 * were and pdflatex stopped at the first one ("Unicode character − (U+2212) not set up for use
 * with LaTeX", or dropped it silently with an older inputenc).
 */
const ASCII_SPECIAL: Record<string, string> = {
  '\\': '\\textbackslash{}',
  '&': '\\&',
  '%': '\\%',
  $: '\\$',
  '#': '\\#',
  _: '\\_',
  '{': '\\{',
  '}': '\\}',
  '~': '\\textasciitilde{}',
  '^': '\\textasciicircum{}',
  // in LaTeX's default OT1 font encoding these print as ¡ ¿ —: "p < 0.001" read "p ¡ 0.001"
  '<': '\\textless{}',
  '>': '\\textgreater{}',
  '|': '\\textbar{}',
};

/** Beyond ASCII: the commands of base LaTeX that print each character. */
const NON_ASCII: Record<string, string> = {
  // math signs and arrows
  '−': '$-$',
  '≥': '$\\geq$',
  '≤': '$\\leq$',
  '≠': '$\\neq$',
  '≈': '$\\approx$',
  '±': '$\\pm$',
  '×': '$\\times$',
  '÷': '$\\div$',
  '·': '$\\cdot$',
  '∞': '$\\infty$',
  '√': '$\\surd$',
  '∑': '$\\sum$',
  '→': '$\\rightarrow$',
  '←': '$\\leftarrow$',
  '↔': '$\\leftrightarrow$',
  '↑': '$\\uparrow$',
  '↓': '$\\downarrow$',
  '⇒': '$\\Rightarrow$',
  '°': '$^\\circ$',
  '½': '$\\frac{1}{2}$',
  '¼': '$\\frac{1}{4}$',
  '¾': '$\\frac{3}{4}$',
  '⁰': '$^{0}$',
  '¹': '$^{1}$',
  '²': '$^{2}$',
  '³': '$^{3}$',
  '⁴': '$^{4}$',
  '⁵': '$^{5}$',
  '⁶': '$^{6}$',
  '⁷': '$^{7}$',
  '⁸': '$^{8}$',
  '⁹': '$^{9}$',
  '✓': '$\\surd$',
  '✗': '$\\times$',
  '›': '$\\rangle$',
  '‹': '$\\langle$',
  '«': '$\\ll$',
  '»': '$\\gg$',
  '▲': '$\\bigtriangleup$',
  '▼': '$\\bigtriangledown$',
  '◇': '$\\diamond$',
  // punctuation
  '–': '--',
  '—': '---',
  '‐': '-',
  '‑': '-',
  '…': '\\ldots{}',
  '‘': '`',
  '’': "'",
  '‚': ',',
  '“': '``',
  '”': "''",
  '„': ',,',
  '†': '\\dag{}',
  '‡': '\\ddag{}',
  '§': '\\S{}',
  '¶': '\\P{}',
  '©': '\\copyright{}',
  '£': '\\pounds{}',
  '¡': '!`',
  '¿': '?`',
  '\u00a0': '~',
  '\u2009': '\\,',
  '\u202f': '\\,',
  '\u200b': '',
  '\u00ad': '',
  '\ufeff': '',
  // letters without an accent command
  ß: '\\ss{}',
  æ: '\\ae{}',
  Æ: '\\AE{}',
  œ: '\\oe{}',
  Œ: '\\OE{}',
  ø: '\\o{}',
  Ø: '\\O{}',
  ł: '\\l{}',
  Ł: '\\L{}',
  ı: '\\i{}',
  // Greek, as math
  ...greek(),
};

/** α–ω and Α–Ω: math commands, and the capitals LaTeX has none for (they look like Latin ones) as those letters. */
function greek(): Record<string, string> {
  const lower = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi o pi rho varsigma sigma tau upsilon phi chi psi omega';
  const upper = 'A B Gamma Delta E Z H Theta I K Lambda M N Xi O Pi P - Sigma T Upsilon Phi X Psi Omega';
  const out: Record<string, string> = {};
  lower.split(' ').forEach((n, i) => (out[String.fromCodePoint(0x3b1 + i)] = n.length === 1 ? n : `$\\${n}$`));
  upper.split(' ').forEach((n, i) => {
    if (n !== '-') out[String.fromCodePoint(0x391 + i)] = n.length === 1 ? n : `$\\${n}$`;
  });
  return out;
}

/** Combining marks (after NFD) and the accent command that puts each on a letter. */
const ACCENT: Record<string, string> = {
  '\u0300': '\\`',
  '\u0301': "\\'",
  '\u0302': '\\^',
  '\u0303': '\\~',
  '\u0304': '\\=',
  '\u0306': '\\u',
  '\u0307': '\\.',
  '\u0308': '\\"',
  '\u030a': '\\r',
  '\u030b': '\\H',
  '\u030c': '\\v',
  '\u0327': '\\c',
  '\u0328': '\\k',
};

/** An accented letter (é, ñ, Ü, ç, ő) as accent commands on its ASCII letter, else undefined. */
function accented(c: string): string | undefined {
  const [base, ...marks] = [...c.normalize('NFD')];
  if (!/^[A-Za-z]$/.test(base) || marks.length === 0 || !marks.every((m) => ACCENT[m])) return undefined;
  return marks.reduce((s, m) => `${ACCENT[m]}{${s}}`, base === 'i' || base === 'j' ? `\\${base}` : base);
}

const nonAscii = (c: string): string => NON_ASCII[c] ?? accented(c) ?? `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** `s` as pdflatex text: specials escaped, line breaks as spaces, every non-ASCII character a command (the result is ASCII). */
export const latexEscape = (s: string): string =>
  s
    .normalize('NFC')
    .replace(/\r?\n/g, ' ')
    .replace(/[\\&%$#_{}~^<>|]|[^\x00-\x7f]/gu, (c) => ASCII_SPECIAL[c] ?? nonAscii(c));
