package lsqr

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"elmfbpinn/core/fp"
)

// vectorCases are the lengths and values the vector updates are checked on:
// every length to 40 (each tail of 0 to 7 after whole blocks) and longer,
// values of mixed scales with zeros of both signs, subnormals, infinities
// and NaNs mixed in.
func vectorCases() [][]float64 {
	rng := rand.New(rand.NewPCG(34, 8))
	special := []float64{0, math.Copysign(0, -1), 5e-324, -1e-310, 1e300, -1e300, math.Inf(1), math.NaN()}
	var cases [][]float64
	for _, n := range append(slices.Collect(func(yield func(int) bool) {
		for n := range 41 {
			if !yield(n) {
				return
			}
		}
	}), 100, 1001) {
		for k := range 2 {
			x := make([]float64, n)
			for i := range x {
				x[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(7)-3))
				if k == 1 && rng.IntN(5) == 0 {
					x[i] = special[rng.IntN(len(special))]
				}
			}
			cases = append(cases, x)
		}
	}
	return cases
}

// TestVectorUpdatesSameBits checks updateXW, subNorm and scal on every
// kernel path against the scalar rules they are defined by (each entry one
// FMA or one product, lane i mod 8 of the sums of squares, the lanes added
// by fp.Tree), bit for bit, NaNs by position.
func TestVectorUpdatesSameBits(t *testing.T) {
	same := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
	}
	sameVec := func(name string, got, want []float64) {
		t.Helper()
		for i := range want {
			if !same(got[i], want[i]) {
				t.Fatalf("%s[%d] = %v, want %v", name, i, got[i], want[i])
			}
		}
	}
	cases := vectorCases()
	for _, path := range fp.KernelPaths() {
		func() {
			defer fp.SetKernelPath(fp.SetKernelPath(path))
			for ci, w := range cases {
				n := len(w)
				x, v := slices.Clone(cases[(ci+1)%len(cases)]), slices.Clone(cases[(ci+3)%len(cases)])
				x, v = append(x, make([]float64, max(0, n-len(x)))...)[:n], append(v, make([]float64, max(0, n-len(v)))...)[:n]
				const t1, t2, rinv, alpha = 0.3125, -1.7, 3.3, 0.6

				// updateXW.
				var l [fp.Lanes]float64
				wx, ww := slices.Clone(x), slices.Clone(w)
				for i, wi := range w {
					d := rinv * wi
					l[i%fp.Lanes] = math.FMA(d, d, l[i%fp.Lanes])
					wx[i] = math.FMA(t1, wi, wx[i])
					ww[i] = math.FMA(t2, wi, v[i])
				}
				gx, gw := slices.Clone(x), slices.Clone(w)
				got := updateXW(gx, gw, v, t1, t2, rinv)
				name := fmt.Sprintf("path %s, case %d (n = %d): updateXW", path, ci, n)
				if !same(got, fp.Tree(&l)) {
					t.Fatalf("%s: returned %v, want %v", name, got, fp.Tree(&l))
				}
				sameVec(name+": x", gx, wx)
				sameVec(name+": w", gw, ww)

				// subNorm.
				l = [fp.Lanes]float64{}
				wy := slices.Clone(w)
				for i := range wy {
					wy[i] = math.FMA(-alpha, wy[i], v[i])
					l[i%fp.Lanes] = math.FMA(wy[i], wy[i], l[i%fp.Lanes])
				}
				gy := slices.Clone(w)
				got = subNorm(gy, v, alpha)
				name = fmt.Sprintf("path %s, case %d (n = %d): subNorm", path, ci, n)
				if want := math.Sqrt(fp.Tree(&l)); !same(got, want) {
					t.Fatalf("%s: returned %v, want %v", name, got, want)
				}
				sameVec(name+": y", gy, wy)

				// scal.
				ws, gs := slices.Clone(w), slices.Clone(w)
				for i := range ws {
					ws[i] *= alpha
				}
				scal(alpha, gs)
				sameVec(fmt.Sprintf("path %s, case %d (n = %d): scal", path, ci, n), gs, ws)
			}
		}()
	}
}
