package nn

import (
	"math/rand/v2"
	"testing"

	"elmfbpinn/core/fp"
)

// BenchmarkOne times Forward and Backward of the FBPINN's subdomain
// network [2, 16, 1] on 224 points (about a 2D baseline subdomain's share)
// on every kernel path, in ns per (point, network) pair.
func BenchmarkOne(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 224
	m := New([]int{2, 16, 1}, nil, []float64{0, 0}, []float64{1, 1})
	m.Init(rng, nil)
	x := make([]float64, 2*n)
	for i := range x {
		x[i] = 2*rng.Float64() - 1
	}
	gout := make([]float64, 5*n)
	for i := range gout {
		gout[i] = rng.Float64()
	}
	grad := make([]float64, len(m.Params))
	bt := NewBatch(m, n)
	for _, path := range fp.KernelPaths() {
		b.Run("op=Forward/path="+path, func(b *testing.B) {
			defer fp.SetKernelPath(fp.SetKernelPath(path))
			for b.Loop() {
				bt.Forward(m, x)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/pair")
		})
		b.Run("op=Backward/path="+path, func(b *testing.B) {
			defer fp.SetKernelPath(fp.SetKernelPath(path))
			bt.Forward(m, x)
			for b.Loop() {
				bt.Backward(m, gout, grad)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/pair")
		})
	}
}
