package fp

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestScaleRowsBitExact checks ScaleRows on every kernel path against the
// plain product s[idx[q]] x[w q + j], bit for bit (NaN as NaN): rows of 5
// (the vector kernel's) and of 3 and 7, every row count 0..40 and longer,
// indices in any order and repeated, factors and values among zeros of both
// signs, subnormals, huge values, infinities and NaN; and that an index out
// of range panics on every path, after the rows before it are done.
func TestScaleRowsBitExact(t *testing.T) {
	for _, p := range []string{AVX512, AVX2} {
		if !slices.Contains(KernelPaths(), p) {
			t.Logf("kernel path %s does not run here: not tested", p)
		}
	}
	special := []float64{0, math.Copysign(0, -1), 5e-324, -2.5e-310, 1e-300, 1e300, -math.MaxFloat64,
		math.Inf(1), math.Inf(-1), math.NaN(), 1, -3}
	rng := rand.New(rand.NewPCG(13, 14))
	val := func() float64 {
		if rng.IntN(4) == 0 {
			return special[rng.IntN(len(special))]
		}
		return rng.NormFloat64() * math.Exp2(float64(rng.IntN(40)-20))
	}
	same := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
	}
	counts := []int{77, 300}
	for n := range 41 {
		counts = append(counts, n)
	}
	for _, w := range []int{5, 3, 7} {
		for _, n := range counts {
			s := make([]float64, 50)
			for i := range s {
				s[i] = val()
			}
			x, idx := make([]float64, w*n+3), make([]int32, n)
			for i := range x {
				x[i] = val()
			}
			for q := range idx {
				idx[q] = int32(rng.IntN(len(s)))
			}
			for _, p := range KernelPaths() {
				dst := make([]float64, w*n+3)
				func() {
					defer SetKernelPath(SetKernelPath(p))
					ScaleRows(dst, x, w, s, idx)
				}()
				for i := range w * n {
					if want := s[idx[i/w]] * x[i]; !same(dst[i], want) {
						t.Fatalf("path %s, w %d, %d rows: dst[%d] = %x, want %x", p, w, n, i, dst[i], want)
					}
				}
				for i := w * n; i < len(dst); i++ {
					if dst[i] != 0 {
						t.Fatalf("path %s, w %d, %d rows: dst[%d] = %v written past the rows", p, w, n, i, dst[i])
					}
				}
			}
		}
	}
	for _, p := range KernelPaths() {
		for _, bad := range []int32{-1, 3, math.MaxInt32} {
			x, dst, s := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, make([]float64, 10), []float64{2, 3, 4}
			func() {
				defer SetKernelPath(SetKernelPath(p))
				defer func() {
					if recover() == nil {
						t.Errorf("path %s: index %d of 3 factors did not panic", p, bad)
					}
					if dst[0] != 3 || dst[4] != 15 {
						t.Errorf("path %s: the row before index %d is %v, want [3 6 9 12 15]", p, bad, dst[:5])
					}
				}()
				ScaleRows(dst, x, 5, s, []int32{1, bad})
			}()
		}
	}
}
