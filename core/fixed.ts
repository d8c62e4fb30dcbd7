/**
 * `x.toFixed(digits)` for display, without the sign of a value that rounds to zero: a tiny negative
 * (a float sum's −1e-17, a cosine of −0.00001) reads "0.0000", not "-0.0000". Only the text
 * changes; the number itself (in --json, report.json, results) is never touched.
 *
 *   fixed(-1e-17, 4) → "0.0000"   fixed(-0.00006, 4) → "-0.0001"   fixed(0.5, 1) → "0.5"
 */
export function fixed(x: number, digits: number): string {
  const s = x.toFixed(digits);
  return /^-0(\.0*)?$/.test(s) ? s.slice(1) : s;
}
