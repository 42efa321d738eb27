package nn

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"elmfbpinn/core/fp"
)

// TestAdamPathsSameBits checks Adam.Step on every kernel path against the
// update rule written as plainly as possible (the loop Step was before its
// vector kernels), bit for bit in the parameters and both moments: every
// length 0..40 (the kernels' blocks of four and eight and their tails) and
// longer ones, three steps and a step late in a run (t = 15000, where the
// bias corrections are near 1), other settings, and special values: zero
// and negative-zero gradients, gradients whose square is subnormal or
// underflows, subnormal and huge ones, tiny and zero second moments,
// infinities and NaN (compared as NaN).
func TestAdamPathsSameBits(t *testing.T) {
	for _, p := range []string{fp.AVX512, fp.AVX2} {
		if !slices.Contains(fp.KernelPaths(), p) {
			t.Logf("kernel path %s does not run here: not tested", p)
		}
	}
	specials := []float64{0, math.Copysign(0, -1), 1e-170, -3e-160, 5e-324, -2.5e-310, 1e-300,
		1e150, -1e200, math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN(), 1, -1}
	rng := rand.New(rand.NewPCG(3, 4))
	lengths := []int{67, 128, 1001}
	for n := 40; n >= 0; n-- {
		lengths = append(lengths, n)
	}
	settings := []*AdamSettings{nil, {LR: 0.5, Eps: 1}, {LR: 3e-4, Beta1: 0.5, Beta2: 0.9, Eps: 1e-12}}
	same := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
	}
	for si, s := range settings {
		for _, n := range lengths {
			for _, t0 := range []int{0, 14999} {
				params0, m0, v0 := make([]float64, n), make([]float64, n), make([]float64, n)
				grads := make([][]float64, 3)
				for i := range n {
					params0[i] = 4*rng.Float64() - 2
					if t0 > 0 {
						m0[i], v0[i] = 0.1*rng.NormFloat64(), 0.01*rng.Float64()
						if i%5 == 0 {
							v0[i] = []float64{0, 5e-324, 1e-310, 1e-200}[i/5%4] // tiny v
						}
					}
				}
				for k := range grads {
					grads[k] = make([]float64, n)
					for i := range n {
						grads[k][i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(7)-4))
						if (i+k)%3 == 0 {
							grads[k][i] = specials[(i+7*k+si)%len(specials)]
						}
					}
				}
				// The reference: the plain update rule.
				a := NewAdam(n, s)
				want, wm, wv := slices.Clone(params0), slices.Clone(m0), slices.Clone(v0)
				for k, g := range grads {
					tk := t0 + k + 1
					c1, c2 := 1-powInt(a.Beta1, tk), 1-powInt(a.Beta2, tk)
					for i := range n {
						wm[i] = math.FMA(a.Beta1, wm[i], float64((1-a.Beta1)*g[i]))
						wv[i] = math.FMA(a.Beta2, wv[i], float64((1-a.Beta2)*g[i]*g[i]))
						want[i] -= a.LR * (wm[i] / c1) / (math.Sqrt(wv[i]/c2) + a.Eps)
					}
				}
				for _, path := range fp.KernelPaths() {
					a := NewAdam(n, s)
					a.T = t0
					copy(a.m, m0)
					copy(a.v, v0)
					params := slices.Clone(params0)
					func() {
						defer fp.SetKernelPath(fp.SetKernelPath(path))
						for _, g := range grads {
							a.Step(params, g)
						}
					}()
					for i := range n {
						if !same(params[i], want[i]) || !same(a.m[i], wm[i]) || !same(a.v[i], wv[i]) {
							t.Fatalf("path %s, settings %d, n %d, t0 %d: [%d] θ %x m %x v %x, want %x %x %x (g %v)", path, si, n, t0, i,
								params[i], a.m[i], a.v[i], want[i], wm[i], wv[i], []float64{grads[0][i], grads[1][i], grads[2][i]})
						}
					}
				}
			}
		}
	}
}
