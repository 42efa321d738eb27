package nn

import (
	"fmt"
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

// BenchmarkAdam times Adam's update of the Laplacian FBPINN baseline's
// 16640 parameters on every kernel path, in ns per parameter.
func BenchmarkAdam(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n = 16640
	params, grad := make([]float64, n), make([]float64, n)
	for i := range params {
		params[i], grad[i] = rng.NormFloat64(), 0.1*rng.NormFloat64()
	}
	for _, path := range fp.KernelPaths() {
		b.Run("path="+path, func(b *testing.B) {
			defer fp.SetKernelPath(fp.SetKernelPath(path))
			a := NewAdam(n, nil)
			for b.Loop() {
				a.Step(params, grad)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/param")
		})
	}
}

// BenchmarkGemm times the dense products of a hidden layer of width 64 over
// 262 points with 3 jet channels (the oscillator PINN's 786 rows) and over
// 6400 points with 5 (the 2D PINN's 32000 rows), and of widths 14 and 6 (PINNs
// of the 2D K tables, whose last 6 columns the vector kernels compute in
// masked tiles or padded) over 340 rows (a part of 68 points), in the three
// forms a training step uses, on every kernel path, in GFLOP/s (2 flops a multiply-add).
func BenchmarkGemm(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, sh := range []struct{ h, rows int }{{64, 786}, {64, 32000}, {14, 340}, {6, 340}} {
		h, rows := sh.h, sh.rows
		hm, gz := make([]float64, rows*h), make([]float64, rows*h)
		w, wt, c := make([]float64, h*h), make([]float64, h*h), make([]float64, rows*h)
		for _, v := range [][]float64{hm, gz, w} {
			for i := range v {
				v[i] = 2*rng.Float64() - 1
			}
		}
		gw, tmp := make([]float64, h*h), make([]float64, h*h)
		for _, op := range []struct {
			name string
			f    func()
		}{
			{"Z=HWt", func() { gemm(c, h, rowMajor(hm, h), wt, h, rows, h, h, nil, false, nil) }},
			{"gW+=gzT.H", func() { gemm(gw, h, transposed(gz, h), hm, h, h, h, rows, nil, true, tmp) }},
			{"gH=gz.W", func() { gemm(c, h, rowMajor(gz, h), w, h, rows, h, h, nil, false, nil) }},
		} {
			for _, path := range fp.KernelPaths() {
				b.Run(fmt.Sprintf("width=%d/rows=%d/op=%s/path=%s", h, rows, op.name, path), func(b *testing.B) {
					defer fp.SetKernelPath(fp.SetKernelPath(path))
					for b.Loop() {
						op.f()
					}
					b.ReportMetric(2*float64(rows*h*h)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
				})
			}
		}
	}
}
