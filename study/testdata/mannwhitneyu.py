# Writes mannwhitneyu.tsv, the reference values of TestMannWhitneyScipy
# (study/utest_test.go), from scipy.stats.mannwhitneyu. Run from this
# directory with Debian's scipy (apt-get install python3-scipy; 1.10.1):
#
#     /usr/bin/python3 mannwhitneyu.py > mannwhitneyu.tsv
#
# Columns: method (exact or asymptotic), x and y (comma-separated), U (the
# statistic of x) and the two-sided p-value, both with 17 significant digits.
# The exact cases have no ties (scipy's exact method ignores ties) and at most
# 50 pooled values (study.ExactMax); the asymptotic ones (the normal
# approximation with the tie correction and use_continuity=True) have more,
# with and without ties.
import random
import scipy
from scipy.stats import mannwhitneyu

rng = random.Random(33)

def sample(n, ties, shift):
    if ties:  # few distinct values: many ties
        return [float(rng.randint(0, 9) + shift) for _ in range(n)]
    return [round(rng.gauss(shift, 1), 9) for _ in range(n)]

cases = []
for n1, n2, shift in [(3, 3, 0), (5, 5, 0.5), (5, 5, 3), (4, 7, 1), (10, 10, 0.8), (12, 9, 0), (20, 20, 0.7), (25, 25, 0.3), (1, 8, 0), (30, 20, 0.5)]:
    cases.append(("exact", sample(n1, False, 0), sample(n2, False, shift)))
for n1, n2, ties, shift in [(26, 25, False, 0.5), (30, 30, True, 1), (60, 45, False, 0.2), (100, 80, True, 0), (200, 200, True, 0.3), (1000, 1000, False, 0.05), (1000, 1000, True, 0.2)]:
    cases.append(("asymptotic", sample(n1, ties, 0), sample(n2, ties, shift)))
print("# scipy %s: scipy.stats.mannwhitneyu(x, y, alternative='two-sided', method=M, use_continuity=True)" % scipy.__version__)
for method, x, y in cases:
    r = mannwhitneyu(x, y, alternative="two-sided", method=method, use_continuity=True)
    print("\t".join([method, ",".join(repr(v) for v in x), ",".join(repr(v) for v in y), "%.17g" % r.statistic, "%.17g" % r.pvalue]))
