package bench

import (
	"fmt"
	"testing"

	"elmfbpinn/core/elm"
	"elmfbpinn/core/fp"
	"elmfbpinn/core/lsqr"
	"elmfbpinn/core/problem"
)

// baselines are the three problems at their baseline ELM-FBPINN (one level),
// and the largest three-level systems of the scaling tables, which do not
// fit in a core's L3 cache (46 MB of entries: most of the full tier's
// ELM-FBPINN time, with the solver study's runs on the same systems). A
// change to the products that is faster on the baselines can be slower on
// these: compare both.
var baselines = []struct {
	name string
	p    problem.Problem
	j    []int
	k    int
}{
	{"problem=oscillator/J=20/K=12", &problem.Oscillator{Omega0: 80}, []int{20}, 12},
	{"problem=laplace/J=16/K=16", &problem.Laplace{NOmega: 4}, []int{16}, 16},
	{"problem=helmholtz/J=16/K=16", &problem.Helmholtz{Omega: 8}, []int{16}, 16},
	{"problem=laplace/nomega=7/J=1,14,28/K=16", &problem.Laplace{NOmega: 7}, []int{1, 14, 28}, 16},
	{"problem=helmholtz/omega=16/J=1,16,32/K=16", &problem.Helmholtz{Omega: 16}, []int{1, 16, 32}, 16},
}

// BenchmarkLSQRIteration times LSQR iterations on the assembled matrix of
// each problem's baseline and reports GFLOP/s of the two block-sparse
// products per iteration (4 flops per stored entry: a multiply and an add in
// M v and in Mᵀ u) and GB/s of stored entries (8 bytes each, read once per
// iteration by the one-pass Golub–Kahan step), on every kernel path; compare
// with BenchmarkStream.
func BenchmarkLSQRIteration(b *testing.B) {
	for _, c := range baselines {
		b.Run(c.name, func(b *testing.B) {
			sys, err := elm.Build(c.p, elm.Config{J: c.j, K: c.k})
			if err != nil {
				b.Fatal(err)
			}
			const iters = 100
			for _, path := range fp.KernelPaths() {
				b.Run("path="+path, func(b *testing.B) {
					defer fp.SetKernelPath(fp.SetKernelPath(path))
					for b.Loop() {
						if _, err := lsqr.LSQR(sys.M, sys.RHS, &lsqr.Settings{IterLim: iters, Force: true}); err != nil {
							b.Fatal(err)
						}
					}
					perIter := b.Elapsed().Seconds() / float64(b.N*iters)
					b.ReportMetric(perIter*1e6, "µs/iter")
					b.ReportMetric(4*float64(sys.M.NNZ())/perIter/1e9, "GFLOP/s")
					b.ReportMetric(8*float64(sys.M.NNZ())/perIter/1e9, "GB/s")
				})
			}
		})
	}
}

// BenchmarkAssemble times building the baseline systems (bases, windows, M
// and the test matrix).
func BenchmarkAssemble(b *testing.B) {
	for _, c := range baselines {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := elm.Build(c.p, elm.Config{J: c.j, K: c.k}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkProducts times the block-sparse products of each baseline's
// system: M v, Mᵀ u, and both in one pass (BidiagStep, what LSQR runs), with
// the rate at which the matrix's entries are read (GB/s: 8 bytes per stored
// entry per pass; the packed copy that is streamed holds exactly the stored
// entries), to compare with BenchmarkStream.
func BenchmarkProducts(b *testing.B) {
	for _, c := range baselines {
		sys, err := elm.Build(c.p, elm.Config{J: c.j, K: c.k})
		if err != nil {
			b.Fatal(err)
		}
		m, n := sys.M.Dims()
		u, v, w := make([]float64, m), make([]float64, n), make([]float64, n)
		for i := range v {
			v[i] = 1 / float64(i+1)
		}
		bytes := 8 * float64(sys.M.NNZ())
		for _, op := range []struct {
			name string
			f    func()
		}{
			{"MulVec", func() { sys.M.MulVec(u, v) }},
			{"MulTransVec", func() { sys.M.MulTransVec(w, u) }},
			{"BidiagStep", func() { sys.M.BidiagStep(u, w, v, 0.5) }},
		} {
			for _, path := range fp.KernelPaths() {
				b.Run(c.name+"/op="+op.name+"/path="+path, func(b *testing.B) {
					defer fp.SetKernelPath(fp.SetKernelPath(path))
					op.f()
					for b.Loop() {
						op.f()
					}
					per := b.Elapsed().Seconds() / float64(b.N)
					b.ReportMetric(per*1e6, "µs/op")
					b.ReportMetric(bytes/per/1e9, "GB/s")
				})
			}
		}
	}
}

// BenchmarkStream measures how fast one core reads an array front to back
// (GB/s), from cache (8 MiB, the size of a 2D baseline's packed matrix) and
// from memory (64 MiB): the ceiling for BenchmarkProducts and
// BenchmarkLSQRIteration's rates. One op is ten reads after a warm-up one,
// so that make bench's single op measures the streaming, not the first
// touch.
func BenchmarkStream(b *testing.B) {
	const reps = 10
	for _, mib := range []int{8, 64} {
		x := make([]float64, mib<<20/8)
		for i := range x {
			x[i] = float64(i & 7)
		}
		for _, path := range fp.KernelPaths() {
			b.Run(fmt.Sprintf("size=%dMiB/path=%s", mib, path), func(b *testing.B) {
				defer fp.SetKernelPath(fp.SetKernelPath(path))
				s := streamRead(x)
				for b.Loop() {
					for range reps {
						s += streamRead(x)
					}
				}
				if s < 0 {
					b.Fatal("negative sum")
				}
				b.ReportMetric(float64(8*len(x)*reps)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
			})
		}
	}
}
