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
// accumulating, k = 0, and contractions cut into blocks of p (k above 256,
// with and without a partial last block).
func TestGemm(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, sh := range [][3]int{{1, 1, 1}, {2, 3, 3}, {5, 7, 4}, {6, 64, 65}, {9, 2, 8}, {4, 5, 1},
		{6, 8, 1}, {10, 16, 7}, {13, 17, 33}, {64, 64, 786}, {786, 64, 64}, {3, 9, 0}, {11, 24, 5},
		{10, 16, 513}, {4, 8, 256}, {6, 8, 257}, {12, 40, 300}, {20, 24, 9}} {
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
						gemm(c, ldc, a, b, ldb, m, n, k, acc, make([]float64, m*n))
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

// TestBatchPathsSameBits checks that Forward and Backward give the same
// bits on every kernel path: one-hidden-layer networks (the FBPINN's, whose
// 2D kernels work across points and units), deeper ones (the products), at
// point counts around the vector widths.
func TestBatchPathsSameBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, sizes := range [][]int{{2, 16, 1}, {2, 12, 1}, {2, 20, 1}, {2, 7, 1}, {2, 3, 1}, {1, 12, 1}, {2, 64, 64, 1}, {1, 64, 64, 1}, {2, 5, 3, 1}} {
		d := sizes[0]
		centre, half := make([]float64, d), make([]float64, d)
		for i := range d {
			centre[i], half[i] = rng.Float64(), 0.5+rng.Float64()
		}
		m := New(sizes, nil, centre, half)
		m.Init(rng, nil)
		for _, n := range []int{1, 3, 4, 9, 13, 225} {
			x := make([]float64, n*d)
			for i := range x {
				x[i] = 4*rng.Float64() - 2
			}
			gout := make([]float64, n*Channels(d))
			for i := range gout {
				gout[i] = 2*rng.Float64() - 1
			}
			var wantOut, wantGrad []float64
			for _, path := range fp.KernelPaths() {
				grad := make([]float64, len(m.Params))
				for i := range grad {
					grad[i] = float64(i%7) - 3 // Backward adds to it
				}
				var out []float64
				func() {
					defer fp.SetKernelPath(fp.SetKernelPath(path))
					b := NewBatch(m, n)
					out = append([]float64(nil), b.Forward(m, x)...)
					b.Backward(m, gout, grad)
				}()
				if wantOut == nil {
					wantOut, wantGrad = out, grad
					continue
				}
				for i := range out {
					if math.Float64bits(out[i]) != math.Float64bits(wantOut[i]) {
						t.Fatalf("sizes %v, %d points: path %s: out[%d] = %x, path %s: %x", sizes, n, path, i, out[i], fp.KernelPaths()[0], wantOut[i])
					}
				}
				for i := range grad {
					if math.Float64bits(grad[i]) != math.Float64bits(wantGrad[i]) {
						t.Fatalf("sizes %v, %d points: path %s: grad[%d] = %x, path %s: %x", sizes, n, path, i, grad[i], fp.KernelPaths()[0], wantGrad[i])
					}
				}
			}
		}
	}
}
