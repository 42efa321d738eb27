package nn

import (
	"math"
	"math/rand/v2"
	"testing"

	"elmfbpinn/core/fp"
)

// TestGemm checks the products on every kernel path against the plainest
// loops of the arithmetic gemm defines (one FMA chain per entry, p
// ascending, then one addition when accumulating), bit for bit: shapes that
// exercise every remainder of the 6 × 8 and 4 × 8 tiles, row-major and
// transposed views of a, rows of c and b longer than n, overwriting and
// accumulating, and k = 0.
func TestGemm(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, sh := range [][3]int{{1, 1, 1}, {2, 3, 3}, {5, 7, 4}, {6, 64, 65}, {9, 2, 8}, {4, 5, 1},
		{6, 8, 1}, {10, 16, 7}, {13, 17, 33}, {64, 64, 786}, {786, 64, 64}, {3, 9, 0}, {11, 24, 5}} {
		m, n, k := sh[0], sh[1], sh[2]
		for _, trans := range []bool{false, true} {
			ldc, ldb := n+3, n+1
			av := make([]float64, m*k+5)
			b := make([]float64, max(k, 1)*ldb)
			for i := range av {
				av[i] = 2*rng.Float64() - 1
			}
			for i := range b {
				b[i] = 2*rng.Float64() - 1
			}
			a := rowMajor(av, k)
			if trans {
				a = transposed(av, m)
			}
			for _, acc := range []bool{false, true} {
				c0 := make([]float64, m*ldc)
				for i := range c0 {
					c0[i] = 2*rng.Float64() - 1
				}
				want := append([]float64(nil), c0...)
				for i := range m {
					for j := range n {
						var s float64
						for p := range k {
							s = math.FMA(a.at(i, p), b[p*ldb+j], s)
						}
						if acc {
							want[i*ldc+j] += s
						} else {
							want[i*ldc+j] = s
						}
					}
				}
				for _, path := range fp.KernelPaths() {
					c := append([]float64(nil), c0...)
					func() {
						defer fp.SetKernelPath(fp.SetKernelPath(path))
						gemm(c, ldc, a, b, ldb, m, n, k, acc)
					}()
					for i := range c {
						if math.Float64bits(c[i]) != math.Float64bits(want[i]) {
							t.Fatalf("path %s, shape %v, transposed %v, acc %v: c[%d] = %x, want %x", path, sh, trans, acc, i, c[i], want[i])
						}
					}
				}
			}
		}
	}
}
