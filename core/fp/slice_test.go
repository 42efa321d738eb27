package fp

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestTanhSliceBitExact checks that TanhSlice gives the bits of Tanh on
// every element, on every kernel path this build and CPU run (make test
// also runs it in a build without vector kernels): random values of every
// magnitude, both sides of the points where Tanh's reduction changes k
// (|x| = ln 2 / 4, 3 ln 2 / 4) and where it clamps 2|x| to 40, zeros,
// subnormals, infinities and NaN, at lengths that are and are not
// multiples of 4 and 8.
func TestTanhSliceBitExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	var x []float64
	for _, v := range []float64{0, math.Copysign(0, -1), math.Ln2 / 4, math.Nextafter(math.Ln2/4, 0), 3 * math.Ln2 / 4,
		math.Nextafter(3*math.Ln2/4, 0), 20, math.Nextafter(20, 0), 22, 5e-324, -5e-324, 1e-310, math.Inf(1),
		math.Inf(-1), math.NaN(), 1, -1, 0.5, 19.1, 40} {
		x = append(x, v, -v)
	}
	for range 200000 {
		v := (2*rng.Float64() - 1) * math.Exp2(float64(rng.IntN(70)-60))
		x = append(x, v)
	}
	for _, p := range KernelPaths() {
		prev := SetKernelPath(p)
		for _, n := range []int{len(x), len(x) - 3, 7, 3, 1, 0} {
			dst := make([]float64, n)
			TanhSlice(dst, x[:n])
			if !HighZMMZero() {
				SetKernelPath(prev)
				t.Fatalf("path %s: TanhSlice left Z16-Z31 dirty", p)
			}
			for i, v := range x[:n] {
				if want := Tanh(v); math.Float64bits(dst[i]) != math.Float64bits(want) {
					SetKernelPath(prev)
					t.Fatalf("path %s: TanhSlice(%v)[%d] = %x, Tanh = %x: want the same bits", p, v, i, dst[i], want)
				}
			}
		}
		SetKernelPath(prev)
	}
	t.Logf("kernel paths: %v", KernelPaths())
}

// BenchmarkTanhSlice times TanhSlice on every kernel path.
func BenchmarkTanhSlice(b *testing.B) {
	x := make([]float64, 1024)
	rng := rand.New(rand.NewPCG(1, 1))
	for i := range x {
		x[i] = -4 + 8*rng.Float64()
	}
	dst := make([]float64, len(x))
	for _, p := range KernelPaths() {
		b.Run("path="+p, func(b *testing.B) {
			defer SetKernelPath(SetKernelPath(p))
			for b.Loop() {
				TanhSlice(dst, x)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(x)), "ns/value")
		})
	}
}
