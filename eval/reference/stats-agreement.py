"""The reference side of eval/reference/stats-agreement.ts: every statistic recomputed with scipy and
numpy (no lexcase code), compared with the values lexcase computed on the same inputs.

argv: spec.json (inputs, lexcase's values, paths of binary blobs: resample indices as uint16,
flip signs as uint8, lexcase's resampled statistics as float64) and the output path (a JSON list
of table rows)."""
import json
import sys

import numpy as np
from scipy import stats

spec = json.load(open(sys.argv[1]))
LEVEL = spec["level"]
B = spec["iterations"]
A = (1 - LEVEL) / 2  # the tails, as lexcase computes them
rng = np.random.default_rng(20261130)
# Monte-Carlo agreement with scipy's own resamples, as a share of lexcase's interval width: one end of
# a 95% percentile interval from 2,000 resamples moves by about 1.5% of the width from one seed to the next
# (more where the statistic takes few values: n = 10, few discordant pairs); 8% is over 4 such steps
MC = 0.08
rows = []


def row(statistic, lexcase, reference, diffs, tolerance):
    d = [abs(x) for x in diffs]
    m = max(d) if d else 0.0
    rows.append(dict(statistic=statistic, lexcase=lexcase, reference=reference, cases=len(d), maxAbsDiff=float(m), tolerance=tolerance, agree=bool(m <= tolerance)))


def pair_diff(lex, ref):
    """lexcase's lo/hi (None where it gives no interval) against the reference's: a missing interval on one side only is an infinite difference."""
    if lex is None or ref is None:
        return 0.0 if lex is None and ref is None else float("inf")
    return lex - ref


def no_spread(lo, hi):
    return abs(hi - lo) <= 1e-12 * max(1, abs(lo), abs(hi))


def seq_means(values, idx):
    """Means of values[idx] per resample, summed left to right as lexcase does (np.cumsum is sequential)."""
    return np.cumsum(values[idx], axis=1)[:, -1] / idx.shape[1]


def load(path, dtype, n):
    return np.fromfile(path, dtype=dtype).reshape(-1, n)


# 1. Wilson score interval (no continuity correction)
w = spec["wilson"]
dl, dh = [], []
for c in w:
    ci = stats.binomtest(c["k"], c["n"]).proportion_ci(confidence_level=LEVEL, method="wilson")
    dl.append(c["lo"] - ci.low)
    dh.append(c["hi"] - ci.high)
row("Wilson interval, lower bound", "proportionInterval", "scipy binomtest(k, n).proportion_ci(method='wilson')", dl, 1e-12)
row("Wilson interval, upper bound", "proportionInterval", "scipy binomtest(k, n).proportion_ci(method='wilson')", dh, 1e-12)

# 2. exact McNemar
d = []
for c in spec["mcnemar"]:
    m = c["aOnly"] + c["bOnly"]
    ref = 1.0 if m == 0 else stats.binomtest(c["bOnly"], m, 0.5, alternative="two-sided").pvalue
    d.append(c["p"] - ref)
row("exact McNemar p (two-sided)", "mcnemarExact", "scipy binomtest(bOnly, aOnly + bOnly, 0.5).pvalue", d, 1e-12)

# 3. paired bootstrap of B − A: identical resamples, then scipy's own
est, same_lo, same_hi, sc_lo, sc_hi = [], [], [], [], []
for k, c in enumerate(spec["paired"]):
    a = np.array(c["a"], dtype=float)
    b = np.array(c["b"], dtype=float)
    est.append(c["estimate"] - (b.mean() - a.mean()))
    dd = np.sort(b - a)
    if c["idx"]:
        s = np.sort(seq_means(dd, load(c["idx"], np.uint16, c["n"]).astype(np.intp)))
        lo, hi = np.quantile(s, [A, 1 - A], method="linear")
        ref = (None, None) if no_spread(lo, hi) else (lo, hi)
        same_lo.append(pair_diff(c["lo"], ref[0]))
        same_hi.append(pair_diff(c["hi"], ref[1]))
    if c["lo"] is not None and k % 4 == 0:
        r = stats.bootstrap((b, a), lambda x, y, axis: x.mean(axis=axis) - y.mean(axis=axis), paired=True, vectorized=True, n_resamples=20000, method="percentile", confidence_level=LEVEL, rng=rng)
        w = c["hi"] - c["lo"]
        sc_lo.append((c["lo"] - r.confidence_interval.low) / w)
        sc_hi.append((c["hi"] - r.confidence_interval.high) / w)
row("paired Δ = mean(B) − mean(A)", "pairedDifference", "numpy mean(b) − mean(a)", est, 1e-12)
row("paired bootstrap Δ interval, same resamples", "pairedDifference", "numpy quantile(method='linear') of numpy resample means", same_lo + same_hi, 0.0)
row("paired bootstrap Δ interval vs scipy (÷ interval width)", "pairedDifference", "scipy bootstrap(paired=True, method='percentile', 20,000 resamples)", sc_lo + sc_hi, MC)

# 4. paired sign-flip test
ex, mc_same, mc_scipy = [], [], []
for c in spec["signFlip"]:
    nz = np.sort(np.array([x for x in c["diffs"] if x != 0], dtype=float))
    if len(nz) == 0:
        ex.append(c["p"] - 1.0)
        continue
    sumstat = lambda x, axis: np.sum(x, axis=axis)
    if c["exact"]:
        # The differences of reciprocal ranks 1/r − 1/s (r, s ≤ 10) are whole multiples of 1/2520 (lcm of 1..10):
        # scaled to integers, scipy's sums are exact and its ties are true ties. On the floats themselves
        # scipy's tie tolerance (100·eps·|observed|) misses rounding when the observed sum is near 0
        # (Σd = 1/420: p = 1 exactly, scipy 0.992).
        ints = np.round(nz * 2520)
        assert np.allclose(ints / 2520, nz, rtol=0, atol=1e-12), "a difference is no multiple of 1/2520"
        if len(nz) == 1:
            ex.append(c["p"] - 1.0)  # both sign vectors reach |d|: p = 2/2 (scipy's permutation_test needs two observations)
        else:
            r = stats.permutation_test((ints,), sumstat, permutation_type="samples", vectorized=True, n_resamples=np.inf, alternative="two-sided")
            ex.append(c["p"] - r.pvalue)
    else:
        signs = load(c["signs"], np.uint8, len(nz)).astype(float) * 2 - 1
        sums = np.cumsum(signs * nz, axis=1)[:, -1]
        obs = abs(nz.sum())
        count = np.sum(np.abs(sums) >= obs - 1e-12 * np.abs(nz).sum())
        mc_same.append(c["p"] - (count + 1) / (len(sums) + 1))
        r = stats.permutation_test((nz,), sumstat, permutation_type="samples", vectorized=True, n_resamples=spec["permutations"], alternative="two-sided", rng=rng)
        mc_scipy.append(c["p"] - r.pvalue)
row("sign-flip p, exact (≤ 20 differing items)", "signFlipTest", "scipy permutation_test(permutation_type='samples', n_resamples=inf) on the differences × 2520 (exact integers)", ex, 1e-12)
row("sign-flip p, seeded flips, same flips", "signFlipTest", "numpy (#{|Σ±d| ≥ |Σd|} + 1) / (B + 1) on lexcase's flips", mc_same, 1e-12)
row("sign-flip p, seeded flips vs scipy", "signFlipTest", "scipy permutation_test(n_resamples=10,000)", mc_scipy, 0.03)

# 5. mean of graded values (MRR@10 per topic): identical resamples, then scipy
est, same, sc = [], [], []
for c in spec["means"]:
    v = np.array(c["values"], dtype=float)
    est.append(c["estimate"] - v.mean())
    s = np.sort(seq_means(np.sort(v), load(c["idx"], np.uint16, len(v)).astype(np.intp)))
    lo, hi = np.quantile(s, [A, 1 - A], method="linear")
    ref = (None, None) if no_spread(lo, hi) else (lo, hi)
    same += [pair_diff(c["lo"], ref[0]), pair_diff(c["hi"], ref[1])]
    r = stats.bootstrap((v,), np.mean, vectorized=True, n_resamples=20000, method="percentile", confidence_level=LEVEL, rng=rng)
    w = c["hi"] - c["lo"]
    sc += [(c["lo"] - r.confidence_interval.low) / w, (c["hi"] - r.confidence_interval.high) / w]
row("mean (MRR@10 per topic)", "meanInterval", "numpy mean", est, 1e-12)
row("mean bootstrap interval, same resamples", "meanInterval", "numpy quantile(method='linear') of numpy resample means", same, 0.0)
row("mean bootstrap interval vs scipy (÷ interval width)", "meanInterval", "scipy bootstrap(method='percentile', 20,000 resamples)", sc, MC)


# 6. macro / micro figures, scikit-learn's definitions (zero_division=0) in plain numpy
def sk_scores(p, g, L):
    """p, g: integer codes (−1 = no prediction), shape (..., n); returns macro P, R, F1 and micro-F1 over labels 0..L−1."""
    tp = np.stack([np.sum((p == l) & (g == l), axis=-1) for l in range(L)], axis=-1).astype(float)
    fp = np.stack([np.sum((p == l) & (g != l), axis=-1) for l in range(L)], axis=-1).astype(float)
    fn = np.stack([np.sum((g == l) & (p != l), axis=-1) for l in range(L)], axis=-1).astype(float)
    div = lambda x, y: np.divide(x, y, out=np.zeros_like(x), where=y > 0)
    # sklearn ≥ 1.3: F = (1 + β²)·tp / ((1 + β²)·tp + β²·fn + fp), 0 where that is 0/0
    return div(tp, tp + fp).mean(-1), div(tp, tp + fn).mean(-1), div(2 * tp, 2 * tp + fp + fn).mean(-1), div(2 * tp.sum(-1), 2 * tp.sum(-1) + fp.sum(-1) + fn.sum(-1))


keys = ["macroPrecision", "macroRecall", "macroF1", "microF1"]
det = {k: [] for k in keys}
step_exact, per_resample, own, sc = [], [], [], []
for c in spec["macro"]:
    L = len(c["labels"])
    code = {l: i for i, l in enumerate(c["labels"])}
    p = np.array([-1 if x is None else code[x] for x in c["preds"]])
    g = np.array([code[x] for x in c["golds"]])
    ref = sk_scores(p, g, L)
    for k, r in zip(keys, ref):
        det[k].append(c["report"][k] - r)
    if "ci" in c:
        ci = c["ci"]
        n = len(g)
        idx = load(ci["idx"], np.uint16, n).astype(np.intp)
        lex_stats = np.fromfile(ci["stats"], dtype=np.float64)
        s = np.sort(lex_stats)
        lo, hi = np.quantile(s, [A, 1 - A], method="linear")
        step_exact += [pair_diff(ci["lo"], lo), pair_diff(ci["hi"], hi)]
        mine = sk_scores(p[idx], g[idx], L)[2]
        per_resample.append(np.max(np.abs(mine - lex_stats)))
        lo2, hi2 = np.quantile(np.sort(mine), [A, 1 - A], method="linear")
        own += [pair_diff(ci["lo"], lo2), pair_diff(ci["hi"], hi2)]
        r = stats.bootstrap((p, g), lambda x, y: sk_scores(x, y, L)[2], paired=True, vectorized=False, n_resamples=5000, method="percentile", confidence_level=LEVEL, rng=rng)
        w = ci["hi"] - ci["lo"]
        sc += [(ci["lo"] - r.confidence_interval.low) / w, (ci["hi"] - r.confidence_interval.high) / w]
for k, name in zip(keys, ["macro precision", "macro recall", "macro-F1", "micro-F1"]):
    row(name, "classificationReport", f"numpy, scikit-learn's {'f1' if 'F1' in k else k[5:].lower()} definition (zero_division=0)", det[k], 1e-12)
row("macro-F1 per resample, same resamples", "classificationReport on lexcase's resamples", "numpy sklearn macro-F1 of the same resamples", per_resample, 1e-12)
row("macro-F1 bootstrap interval, percentile step", "macroScores", "numpy quantile(method='linear') of lexcase's resample statistics", step_exact, 0.0)
row("macro-F1 bootstrap interval, same resamples", "macroScores", "numpy quantile of numpy's resample macro-F1", own, 1e-12)
row("macro-F1 bootstrap interval vs scipy (÷ interval width)", "macroScores", "scipy bootstrap(paired, method='percentile', 5,000 resamples)", sc, MC)

json.dump(rows, open(sys.argv[2], "w"))
