/** Accuracy: share of items whose prediction equals the gold label (a null prediction is wrong). */
export function accuracy(predictions: readonly (string | null)[], golds: readonly string[]): number {
  if (predictions.length !== golds.length) throw new RangeError(`accuracy: ${predictions.length} predictions for ${golds.length} golds`);
  if (golds.length === 0) return 0;
  let ok = 0;
  for (let i = 0; i < golds.length; i++) if (predictions[i] === golds[i]) ok++;
  return ok / golds.length;
}

export function mean(values: readonly number[]): number {
  if (values.length === 0) return 0;
  let s = 0;
  for (const v of values) s += v;
  return s / values.length;
}
