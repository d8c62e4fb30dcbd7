"""The reference side of eval/reference/macro-swap-agreement.test.ts: the p-value of the paired swap
test of a macro-F1 difference, by scipy.stats.permutation_test (permutation_type='samples': each item's
two predictions swapped between the runs, the pairing kept), with macro-F1 in plain numpy under
scikit-learn's definition (f1_score(average='macro', labels=…, zero_division=0)). No lexcase code.

stdin: {"cases": [{"name", "labels", "gold": [..], "a": [..], "b": [..] (null: no prediction), "resamples": null | int}]}
(resamples null: every arrangement, exact). stdout: [{"name", "p", "exact", "resamples"}]."""
import json
import sys

import numpy as np
from scipy import stats


def macro_f1(pred, gold, n_labels):
    f1 = []
    for label in range(n_labels):
        tp = np.sum((pred == label) & (gold == label))
        fp = np.sum((pred == label) & (gold != label))
        fn = np.sum((pred != label) & (gold == label))
        p = tp / (tp + fp) if tp + fp else 0.0
        r = tp / (tp + fn) if tp + fn else 0.0
        f1.append(2 * p * r / (p + r) if p + r else 0.0)
    return float(np.mean(f1))


out = []
for c in json.load(sys.stdin)["cases"]:
    labels = c["labels"]
    code = lambda xs: np.array([labels.index(x) if x in labels else -1 for x in xs])
    gold, a, b = code(c["gold"]), code(c["a"]), code(c["b"])
    L = len(labels)
    # the statistic of B − A on the items in place: a 'samples' permutation swaps x[i] and y[i], so gold[i] stays item i's
    stat = lambda x, y: macro_f1(y, gold, L) - macro_f1(x, gold, L)
    n_res = np.inf if c["resamples"] is None else c["resamples"]
    res = stats.permutation_test((a, b), stat, permutation_type="samples", vectorized=False, n_resamples=n_res, alternative="two-sided", random_state=np.random.default_rng(20261202))
    out.append(dict(name=c["name"], p=float(res.pvalue), exact=c["resamples"] is None, resamples=int(len(res.null_distribution))))
json.dump(out, sys.stdout)
