package fp_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"elmfbpinn/core/fp"
)

// TestDrainLanesSameBits checks DrainLanes on every kernel path against
// Tree's order written out, ((l0 + l4) + (l2 + l6)) + ((l1 + l5) + (l3 +
// l7)), bit for bit (any NaN for a NaN): every count to 40 and longer,
// lanes of mixed scales with zeros of both signs, subnormals, infinities and
// NaNs mixed in; the drained lanes must be +0 afterwards and the lanes past
// them untouched.
func TestDrainLanesSameBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 12))
	special := []float64{0, math.Copysign(0, -1), 5e-324, -1e-310, 1e300, -1e300, math.Inf(1), math.Inf(-1), math.NaN()}
	value := func(k int) float64 {
		if k == 1 && rng.IntN(4) == 0 {
			return special[rng.IntN(len(special))]
		}
		return rng.NormFloat64() * math.Pow(10, float64(rng.IntN(9)-4))
	}
	same := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
	}
	for _, path := range fp.KernelPaths() {
		func() {
			defer fp.SetKernelPath(fp.SetKernelPath(path))
			for n := range 41 {
				for _, n := range []int{n, n + 100} {
					for k := range 2 {
						l := make([]float64, fp.Lanes*n+5) // five lanes past the rows
						for i := range l {
							l[i] = value(k)
						}
						orig := append([]float64(nil), l...)
						dst := make([]float64, n)
						fp.DrainLanes(dst, l)
						for i := range n {
							s := orig[fp.Lanes*i : fp.Lanes*i+fp.Lanes]
							want := ((s[0] + s[4]) + (s[2] + s[6])) + ((s[1] + s[5]) + (s[3] + s[7]))
							if !same(dst[i], want) {
								t.Fatalf("path %s, n = %d, case %d: row %d = %v, want %v", path, n, k, i, dst[i], want)
							}
						}
						for i, v := range l {
							want := 0.0
							if i >= fp.Lanes*n {
								want = orig[i]
							}
							if !same(v, want) {
								t.Fatalf("path %s, n = %d, case %d: lane %d = %v after, want %v", path, n, k, i, v, want)
							}
						}
					}
				}
			}
		}()
	}
}
