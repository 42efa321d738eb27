package train

import (
	"fmt"
	"testing"

	"elmfbpinn/core/nn"
	"elmfbpinn/core/problem"
)

// baselines are the paper's baseline models (Table rows "baseline"): the
// oscillator ω0 = 80 with J = 20, K = 12 (PINN [1, 64, 64, 1] on the same
// 260 points), the Laplacian n_ω = 4 (also its PINN [2, 64, 64, 1]) and the
// Helmholtz problem ω = 8 with J = 16, K = 16; the Helmholtz K = 14 row's
// PINN [2, 14, 14, 1], a width that is not a multiple of 4 or 8; and the
// largest FBPINN of the Helmholtz scaling table.
var baselines = []struct {
	name  string
	build func() (*model, schedule, error)
}{
	{"model=FBPINN/problem=oscillator/J=20/K=12", func() (*model, schedule, error) {
		return buildFBPINN(&problem.Oscillator{Omega0: 80}, FBPINNConfig{J: []int{20}, K: 12})
	}},
	{"model=PINN/problem=oscillator/J=20/K=12/width=64", func() (*model, schedule, error) {
		return buildPINN(&problem.Oscillator{Omega0: 80}, PINNConfig{J: 20, K: 12, Width: 64})
	}},
	{"model=PINN/problem=laplace/J=16/K=16/width=64", func() (*model, schedule, error) {
		return buildPINN(&problem.Laplace{NOmega: 4}, PINNConfig{J: 16, K: 16, Width: 64})
	}},
	{"model=PINN/problem=helmholtz/J=16/K=14/width=14", func() (*model, schedule, error) {
		return buildPINN(&problem.Helmholtz{Omega: 8}, PINNConfig{J: 16, K: 14, Width: 14})
	}},
	{"model=FBPINN/problem=laplace/J=16/K=16", func() (*model, schedule, error) {
		return buildFBPINN(&problem.Laplace{NOmega: 4}, FBPINNConfig{J: []int{16}, K: 16})
	}},
	{"model=FBPINN/problem=helmholtz/J=16/K=16", func() (*model, schedule, error) {
		return buildFBPINN(&problem.Helmholtz{Omega: 8}, FBPINNConfig{J: []int{16}, K: 16})
	}},
	// The scaling table's ω = 12, J = 24 (576 networks; their tanh values,
	// 14 MB, come from L3 in the backward pass).
	{"model=FBPINN/problem=helmholtz/omega=12/J=24/K=16", func() (*model, schedule, error) {
		return buildFBPINN(&problem.Helmholtz{Omega: 12}, FBPINNConfig{J: []int{24}, K: 16})
	}},
}

// BenchmarkStep times training steps (loss, gradient and Adam update) of
// the baselines, 20 steps per op, and reports milliseconds per step.
func BenchmarkStep(b *testing.B) {
	for _, bl := range baselines {
		b.Run(bl.name, func(b *testing.B) { benchSteps(b, bl.build) })
	}
}

// BenchmarkPINNWidth is BenchmarkStep for the PINN [d, w, w, 1] of each
// problem at widths that are not multiples of 8 (6, 14) and the next
// multiples (8, 16): the kernels' edges (masked tiles, the last units of
// the elementwise passes) against whole blocks.
func BenchmarkPINNWidth(b *testing.B) {
	for _, pr := range []struct {
		name string
		p    problem.Problem
		j, k int
	}{
		{"oscillator", &problem.Oscillator{Omega0: 80}, 20, 12},
		{"laplace", &problem.Laplace{NOmega: 4}, 16, 16},
		{"helmholtz", &problem.Helmholtz{Omega: 8}, 16, 16},
	} {
		for _, w := range []int{6, 8, 14, 16} {
			b.Run(fmt.Sprintf("problem=%s/width=%d", pr.name, w), func(b *testing.B) {
				benchSteps(b, func() (*model, schedule, error) {
					return buildPINN(pr.p, PINNConfig{J: pr.j, K: pr.k, Width: w})
				})
			})
		}
	}
}

// benchSteps times 20 training steps per op of the model build makes and
// reports milliseconds per step.
func benchSteps(b *testing.B, build func() (*model, schedule, error)) {
	const steps = 20
	m, _, err := build()
	if err != nil {
		b.Fatal(err)
	}
	adam := nn.NewAdam(len(m.params), nil)
	for b.Loop() {
		for range steps {
			m.lossGrad()
			adam.Step(m.params, m.grad)
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()*1e3/float64(b.N*steps), "ms/step")
}

// TestOscillatorBaseline runs the full oscillator baseline FBPINN (15000
// steps, seed 0; about 3 s) and checks its best test error against the
// band around the paper's median 1.3e-3 (a factor 3 either side).
func TestOscillatorBaseline(t *testing.T) {
	if testing.Short() {
		t.Skip("full 15000-step run")
	}
	res, err := FBPINN(&problem.Oscillator{Omega0: 80}, FBPINNConfig{J: []int{20}, K: 12})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.History) != 16 {
		t.Errorf("%d history entries, want 16 (steps 0, 1000, ..., 15000)", len(res.History))
	}
	if lo, hi := 4.3e-4, 3.9e-3; !(res.Best.EL1 >= lo && res.Best.EL1 <= hi) {
		t.Errorf("best e_L1 = %.3g at step %d, want in [%g, %g] (paper 1.3e-3)", res.Best.EL1, res.Best.Iter, lo, hi)
	}
}
