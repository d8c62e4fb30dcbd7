/**
 * Numbers as a user types them: decimal notation only. `Number()` alone also reads `0x10` as 16,
 * `0b11` as 3, `0o7` as 7 and a blank string as 0, so a value typed by mistake ran as another
 * number with exit 0. Every number read from a flag, an environment variable or a comma list goes
 * through these.
 *
 *   parseDecimal('0.7') → 0.7   parseDecimal('1e-1') → 0.1   parseDecimal('0x10') → NaN   parseDecimal(' ') → NaN
 *   parseDecimalInt('12') → 12  parseDecimalInt('1e2') → NaN  parseDecimalInt('1.5') → NaN
 */

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const INTEGER = /^[+-]?\d+$/;

/** The finite number `text` writes in decimal notation (surrounding whitespace ignored), else NaN. */
export function parseDecimal(text: string): number {
  const t = text.trim();
  if (!DECIMAL.test(t)) return NaN;
  const n = Number(t);
  return Number.isFinite(n) ? n : NaN;
}

/** The integer `text` writes as decimal digits (an optional sign; surrounding whitespace ignored), else NaN. */
export function parseDecimalInt(text: string): number {
  const t = text.trim();
  return INTEGER.test(t) ? Number(t) : NaN;
}
