package fp_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"elmfbpinn/core/fp"
)

// TestDotPathsSameBits checks Dot (and so SumSq and Norm) on every kernel
// path against its definition, lane i mod 8 the chain FMA(x_i, y_i, lane)
// and the lanes added by Tree, bit for bit: every length to 40 and longer,
// values of mixed scales with zeros of both signs, subnormals, infinities
// and NaNs mixed in.
func TestDotPathsSameBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 9))
	special := []float64{0, math.Copysign(0, -1), 5e-324, -1e-310, 1e300, -1e300, math.Inf(-1), math.NaN()}
	value := func(k int) float64 {
		if k == 1 && rng.IntN(5) == 0 {
			return special[rng.IntN(len(special))]
		}
		return rng.NormFloat64() * math.Pow(10, float64(rng.IntN(9)-4))
	}
	for _, path := range fp.KernelPaths() {
		func() {
			defer fp.SetKernelPath(fp.SetKernelPath(path))
			for _, n := range []int{0, 1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 23, 24, 25, 31, 32, 33, 39, 40, 100, 1001} {
				for k := range 2 {
					x, y := make([]float64, n), make([]float64, n+3) // y may be longer
					for i := range x {
						x[i], y[i] = value(k), value(k)
					}
					var l [fp.Lanes]float64
					for i := range x {
						l[i%fp.Lanes] = math.FMA(x[i], y[i], l[i%fp.Lanes])
					}
					want, got := fp.Tree(&l), fp.Dot(x, y)
					if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
						t.Fatalf("path %s, n = %d, case %d: Dot = %v, want %v", path, n, k, got, want)
					}
				}
			}
		}()
	}
}
