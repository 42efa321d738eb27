#!/usr/bin/env python3
"""Time SciPy's LSQR on a system written by `repro solve -system FILE`.

usage: scipy-lsqr.py FILE [ITERS]

Reads M (FILE) and h (FILE.rhs) in Matrix Market format, makes M a CSR
matrix, and times scipy.sparse.linalg.lsqr(M, h, atol=0, btol=0, conlim=0,
iter_lim=ITERS) (default 15000: the paper's forced iteration count; with
the tests off every iteration is run), the call alone, on one BLAS thread.
Prints one JSON object: seconds, istop, itn, the residual norm, SciPy's and
NumPy's versions. Run it pinned to a core (taskset -c 0) beside
`repro solve` on the same system: scripts/scipy-ratio.sh does both.
"""
import json
import os
import sys
import time

for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[var] = "1"

import numpy as np  # noqa: E402
import scipy  # noqa: E402
import scipy.io  # noqa: E402
from scipy.sparse.linalg import lsqr  # noqa: E402


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: scipy-lsqr.py FILE [ITERS]")
    path = sys.argv[1]
    iters = int(sys.argv[2]) if len(sys.argv) == 3 else 15000
    m = scipy.io.mmread(path).tocsr()
    h = np.asarray(scipy.io.mmread(path + ".rhs")).ravel()
    start = time.perf_counter()
    r = lsqr(m, h, atol=0, btol=0, conlim=0, iter_lim=iters)
    seconds = time.perf_counter() - start
    print(json.dumps({"seconds": seconds, "istop": int(r[1]), "itn": int(r[2]), "r1norm": float(r[3]),
                      "rows": m.shape[0], "cols": m.shape[1], "nnz": int(m.nnz),
                      "scipy": scipy.__version__, "numpy": np.__version__}))


if __name__ == "__main__":
    main()
