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

/**
 * `x` to `digits` decimals as C's printf("%.*f") and Python's format() write it — trec_eval's
 * `%.4f` — where `toFixed` differs: a value exactly halfway (a binary fraction such as 29/32 =
 * 0.90625) rounds to the even last digit, where `toFixed` rounds it away from zero. Other values,
 * which are never exactly halfway, read as `toFixed` writes them; a value rounding to zero has no sign.
 *
 *   fixedHalfEven(0.90625, 4) → "0.9062" (toFixed: "0.9063")   fixedHalfEven(0.03125, 4) → "0.0312"
 *   fixedHalfEven(0.96875, 4) → "0.9688"                       fixedHalfEven(0.1, 4) → "0.1000"
 */
export function fixedHalfEven(x: number, digits: number): string {
  const s = fixed(x, digits);
  if (!Number.isFinite(x) || Math.abs(x) >= 1e21 || digits >= 100) return s;
  // the exact decimal expansion of a double of this size ends within 100 digits: a tie is "…5" then zeros
  const exact = Math.abs(x).toFixed(100);
  const at = exact.indexOf('.') + 1 + digits;
  if (exact[at] !== '5' || !/^0*$/.test(exact.slice(at + 1))) return s;
  const down = exact.slice(0, digits ? at : at - 1);
  const last = Number(down[down.length - 1]);
  if (last % 2 === 1) return s; // toFixed rounded it away from zero, to the even digit
  const t = `${x < 0 ? '-' : ''}${down}`;
  return /^-0(\.0*)?$/.test(t) ? t.slice(1) : t;
}
