package train

import (
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/diff/fd"

	"elmfbpinn/core/fp"
	"elmfbpinn/core/jet"
	"elmfbpinn/core/metric"
	"elmfbpinn/core/nn"
	"elmfbpinn/core/problem"
)

// modelCase is a small model whose loss is checked. The FBPINN cases run the
// baselines' code path (windows, partition of unity, 1/L, output scale,
// ansatz, dropped subdomains), only smaller.
type modelCase struct {
	name  string
	p     problem.Problem
	build func() (*model, error)
}

func fbpinnCase(name string, p problem.Problem, c FBPINNConfig) modelCase {
	return modelCase{name, p, func() (*model, error) { m, _, err := buildFBPINN(p, c); return m, err }}
}

func pinnCase(name string, p problem.Problem, c PINNConfig) modelCase {
	return modelCase{name, p, func() (*model, error) { m, _, err := buildPINN(p, c); return m, err }}
}

var modelCases = []modelCase{
	// Three levels, soft initial conditions on u and u' (weights ω0⁴, ω0²).
	fbpinnCase("FBPINN/oscillator/J=[1,2,3]", &problem.Oscillator{Omega0: 6}, FBPINNConfig{J: []int{1, 2, 3}, K: 3, Seed: 1}),
	// Hard-constraint ansatz and output scale 0.75.
	fbpinnCase("FBPINN/laplace/J=[3]", &problem.Laplace{NOmega: 1}, FBPINNConfig{J: []int{3}, K: 3, Seed: 2}),
	// Two levels with the ansatz.
	fbpinnCase("FBPINN/laplace/J=[1,2]", &problem.Laplace{NOmega: 1}, FBPINNConfig{J: []int{1, 2}, K: 2, Seed: 3}),
	// Soft Dirichlet boundary on the L-shaped domain; one subdomain dropped.
	fbpinnCase("FBPINN/helmholtz/J=[3]", &problem.Helmholtz{Omega: 1}, FBPINNConfig{J: []int{3}, K: 3, Seed: 4}),
	pinnCase("PINN/oscillator", &problem.Oscillator{Omega0: 6}, PINNConfig{J: 2, K: 2, Width: 4, Seed: 5}),
	pinnCase("PINN/laplace", &problem.Laplace{NOmega: 1}, PINNConfig{J: 2, K: 3, Width: 3, Seed: 6}),
	pinnCase("PINN/helmholtz", &problem.Helmholtz{Omega: 1}, PINNConfig{J: 2, K: 2, Width: 3, Seed: 7}),
}

// TestLossGradient checks the gradient of the full training loss against
// fd.Gradient (central differences, h = 1e-6: truncation ~h² L⁽³⁾/6,
// round-off ~eps |L|/h ≈ 2e-10 |L|) to 1e-6 relative to the gradient's
// largest entry. The losses here are O(1) to O(1e5) with gradients of the
// same order, so the fd error is far below the tolerance.
func TestLossGradient(t *testing.T) {
	for _, tc := range modelCases {
		m, err := tc.build()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		l := m.lossGrad()
		if l0 := m.loss(); l0 != l {
			t.Errorf("%s: lossGrad = %.17g, loss = %.17g, want the same", tc.name, l, l0)
		}
		got := append([]float64(nil), m.grad...)
		theta := append([]float64(nil), m.params...)
		want := fd.Gradient(nil, func(p []float64) float64 {
			copy(m.params, p)
			return m.loss()
		}, theta, &fd.Settings{Formula: fd.Central, Step: 1e-6})
		copy(m.params, theta)
		var gmax float64
		for _, g := range want {
			gmax = math.Max(gmax, math.Abs(g))
		}
		if gmax == 0 {
			t.Fatalf("%s: zero fd gradient", tc.name)
		}
		tol := 1e-6 * gmax
		bad := 0
		for k := range got {
			if math.Abs(got[k]-want[k]) > tol {
				if bad < 5 {
					t.Errorf("%s: ∂L/∂θ[%d] = %.12g, fd gives %.12g, want within %.3g (loss %.6g, %d parameters)", tc.name, k, got[k], want[k], tol, l, len(got))
				}
				bad++
			}
		}
	}
}

// valueAt returns the model's û(y) through the test-point code path.
func (m *model) valueAt(y []float64) float64 {
	set, err := m.pairs(y, valueCoef)
	if err != nil {
		panic(err)
	}
	out := make([]float64, 1)
	m.eval(set, out)
	return out[0]
}

// directValue returns û(y) from its definition, independently of the pair
// and coefficient machinery: for the FBPINN
//
//	û = A σ (1/L) Σ_ℓ Σ_{j ∈ ℓ, y ∈ box_j} ŵ_j N_j / Σ_{j ∈ ℓ, y ∈ box_j} ŵ_j,
//
// with the raw windows ŵ of core/domain; for the PINN û = A σ N.
func directValue(m *model, y []float64) float64 {
	a := 1.0
	if an, ok := m.p.(problem.Ansatz); ok {
		a = an.Ansatz(y).V
	}
	a *= m.p.Scale()
	value := func(net *nn.MLP) float64 { return nn.NewBatch(net, 1).Forward(net, y)[0] }
	if m.dec == nil {
		return a * value(m.nets[0])
	}
	levels := len(m.dec.Levels)
	num, den := make([]float64, levels), make([]float64, levels)
	for g := range m.dec.Subdomains {
		s := &m.dec.Subdomains[g]
		if !s.Contains(y) {
			continue
		}
		w := s.RawWindow(y).V
		if m.dec.Levels[s.Level].J == 1 {
			w = 1
		}
		num[s.Level] += w * value(m.nets[g])
		den[s.Level] += w
	}
	var u float64
	for l := range levels {
		u += num[l] / den[l]
	}
	return a * u / float64(levels)
}

// TestLossRows checks what the loss is made of. (1) The value path equals
// û from its definition (relative 1e-12). (2) Each training row, the
// operator applied to û through the precomputed channel coefficients,
// equals the operator applied to the finite-difference jet of the value
// path: first derivatives by fd.Central (h = 1e-6), second by fd.Central2nd
// at h = 1e-3 and h/2 with one Richardson step. The windows are only C² at
// a subdomain's edge, so points within 2e-3 of an edge are skipped; the
// tolerance is 1e-6 relative to the sum of the magnitudes of the operator's
// terms.
func TestLossRows(t *testing.T) {
	for _, tc := range modelCases {
		m, err := tc.build()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		m.eval(m.train, m.r)
		dim := m.dim
		row := 0
		checked := 0
		for _, con := range m.constraints {
			n := con.N(dim)
			for i := 0; i < n; i++ {
				x := con.Points[i*dim : (i+1)*dim]
				r := row + i
				if i%3 != 0 && n > 3 {
					continue
				}
				if v, want := m.valueAt(x), directValue(m, x); math.Abs(v-want) > 1e-12*math.Max(1, math.Abs(want)) {
					t.Errorf("%s: û(%v) = %.16g by the model, %.16g by definition", tc.name, x, v, want)
				}
				if m.dec != nil && m.dec.EdgeDistance(x) < 2e-3 {
					continue
				}
				u := fdJet(m, x)
				want := con.Op(u)
				var mag float64
				c, _ := opCoef(con.Op, dim)
				for ch := range c {
					mag += math.Abs(c[ch] * chanOf(u, ch, dim))
				}
				if tol := 1e-6 * math.Max(mag, 1e-3); math.Abs(m.r[r]-want) > tol {
					t.Errorf("%s: constraint %q at %v: row %.12g, Op of the fd jet %.12g, want within %.3g", tc.name, con.Name, x, m.r[r], want, tol)
				}
				checked++
			}
			row += n
		}
		if checked < 3 {
			t.Errorf("%s: only %d rows checked", tc.name, checked)
		}
	}
}

// fdJet returns the finite-difference jet of the model's value at x.
func fdJet(m *model, x []float64) jet.Jet {
	u := jet.Jet{V: m.valueAt(x)}
	for i := range x {
		f := func(s float64) float64 {
			y := append([]float64(nil), x...)
			y[i] = s
			return m.valueAt(y)
		}
		u.D1[i] = fd.Derivative(f, x[i], &fd.Settings{Formula: fd.Central, Step: 1e-6})
		const h = 1e-3
		a := fd.Derivative(f, x[i], &fd.Settings{Formula: fd.Central2nd, Step: h})
		b := fd.Derivative(f, x[i], &fd.Settings{Formula: fd.Central2nd, Step: h / 2})
		u.D2[i] = (4*b - a) / 3
	}
	return u
}

// TestRun checks the schedule of the history, the result fields and that
// short runs learn: the loss falls by at least a factor 2 within 300 steps
// and the best test error is below the initial one (η = 1e-2 where 1e-3
// moves too little in 300 steps).
func TestRun(t *testing.T) {
	cases := []struct {
		name       string
		run        func() (*Result, error)
		iters      []int
		params     int
		lossFactor float64
	}{
		{"FBPINN/oscillator", func() (*Result, error) {
			return FBPINN(&problem.Oscillator{Omega0: 10}, FBPINNConfig{J: []int{1, 2, 3}, K: 3, Steps: 300, Every: 120})
		}, []int{0, 120, 240, 300}, 6 * (3 + 3 + 3 + 1), 0.5},
		{"FBPINN/laplace", func() (*Result, error) {
			return FBPINN(&problem.Laplace{NOmega: 1}, FBPINNConfig{J: []int{3}, K: 4, Steps: 300, Every: 100, Seed: 3, LR: 1e-2})
		}, []int{0, 100, 200, 300}, 9 * (8 + 4 + 4 + 1), 0.5},
		{"FBPINN/helmholtz", func() (*Result, error) {
			return FBPINN(&problem.Helmholtz{Omega: 1}, FBPINNConfig{J: []int{3}, K: 4, Steps: 300, Every: 150, LR: 1e-2})
		}, []int{0, 150, 300}, 8 * (8 + 4 + 4 + 1), 0.5},
		{"PINN/oscillator", func() (*Result, error) {
			return PINN(&problem.Oscillator{Omega0: 3}, PINNConfig{J: 2, K: 4, Width: 8, Steps: 300, Every: 300, LR: 1e-2})
		}, []int{0, 300}, nn.NumParams([]int{1, 8, 8, 1}), 0.5},
	}
	for _, tc := range cases {
		res, err := tc.run()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var iters []int
		for _, h := range res.History {
			iters = append(iters, h.Iter)
		}
		if !slices.Equal(iters, tc.iters) || len(res.Loss) != len(iters) {
			t.Errorf("%s: history at %v with %d losses, want at %v", tc.name, iters, len(res.Loss), tc.iters)
		}
		if res.Params != tc.params {
			t.Errorf("%s: %d parameters, want %d", tc.name, res.Params, tc.params)
		}
		if res.Steps != tc.iters[len(tc.iters)-1] {
			t.Errorf("%s: Steps = %d, want %d", tc.name, res.Steps, tc.iters[len(tc.iters)-1])
		}
		if res.Final != res.History[len(res.History)-1].EL1 {
			t.Errorf("%s: Final = %g, want the last history entry %g", tc.name, res.Final, res.History[len(res.History)-1].EL1)
		}
		for _, h := range res.History {
			if h.EL1 < res.Best.EL1 {
				t.Errorf("%s: Best = %+v but the history holds %+v", tc.name, res.Best, h)
			}
		}
		if l0, l1 := res.Loss[0], res.Loss[len(res.Loss)-1]; !(l1 < tc.lossFactor*l0) {
			t.Errorf("%s: loss %.4g → %.4g, want a reduction by at least %g", tc.name, l0, l1, 1/tc.lossFactor)
		}
		if !(res.Best.EL1 < res.History[0].EL1) {
			t.Errorf("%s: best e_L1 %.4g, want below the initial %.4g", tc.name, res.Best.EL1, res.History[0].EL1)
		}
	}
}

// TestDeterminism checks that the same seed gives a bit-identical history
// and loss, and that another seed gives another.
func TestDeterminism(t *testing.T) {
	runs := []struct {
		name string
		run  func(seed uint64, progress func([]metric.Record)) (*Result, error)
	}{
		{"FBPINN", func(seed uint64, progress func([]metric.Record)) (*Result, error) {
			return FBPINN(&problem.Laplace{NOmega: 1}, FBPINNConfig{J: []int{1, 3}, K: 3, Steps: 40, Every: 10, Seed: seed, Progress: progress})
		}},
		{"PINN", func(seed uint64, progress func([]metric.Record)) (*Result, error) {
			return PINN(&problem.Oscillator{Omega0: 10}, PINNConfig{J: 2, K: 4, Width: 6, Steps: 40, Every: 10, Seed: seed, Progress: progress})
		}},
	}
	for _, tc := range runs {
		a, err := tc.run(7, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		// The second run is watched: Progress sees the history as each
		// record is made, and changes nothing.
		var seen []metric.Record
		b, _ := tc.run(7, func(h []metric.Record) {
			if len(h) != len(seen)+1 || !slices.Equal(h[:len(seen)], seen) {
				t.Errorf("%s: Progress saw the history %v after %v, want one record more", tc.name, h, seen)
			}
			seen = append(seen, h[len(h)-1])
		})
		c, _ := tc.run(8, nil)
		if !slices.Equal(a.History, b.History) || !slices.Equal(a.Loss, b.Loss) {
			t.Errorf("%s: seed 7 twice gives %v / %v and %v / %v, want bit-identical", tc.name, a.History, a.Loss, b.History, b.Loss)
		}
		if !slices.Equal(seen, b.History) {
			t.Errorf("%s: Progress saw %v, want the history %v", tc.name, seen, b.History)
		}
		if slices.Equal(a.Loss, c.Loss) {
			t.Errorf("%s: seeds 7 and 8 give the same losses %v, want different initialisations", tc.name, a.Loss)
		}
	}
}

// nanProblem is the oscillator with a NaN right-hand side, so that the loss
// is NaN from the first step.
type nanProblem struct{ problem.Oscillator }

func (p *nanProblem) Constraints(j, k int) []problem.Constraint {
	cs := p.Oscillator.Constraints(j, k)
	cs[0].RHS[3] = math.NaN()
	return cs
}

// squareProblem has a nonlinear operator, which the coefficient reduction
// cannot represent.
type squareProblem struct{ problem.Oscillator }

func (p *squareProblem) Constraints(j, k int) []problem.Constraint {
	cs := p.Oscillator.Constraints(j, k)
	cs[0].Op = func(u jet.Jet) float64 { return u.D2[0] + u.V*u.V }
	return cs
}

// TestErrors checks that bad configurations and a NaN loss are errors that
// say what was wrong.
func TestErrors(t *testing.T) {
	osc := &problem.Oscillator{Omega0: 10}
	good := FBPINNConfig{J: []int{2}, K: 2, Steps: 2}
	goodP := PINNConfig{J: 2, K: 2, Width: 3, Steps: 2}
	cases := []struct {
		name string
		run  func() (*Result, error)
		want string
	}{
		{"no levels", func() (*Result, error) { c := good; c.J = nil; return FBPINN(osc, c) }, "no levels"},
		{"J=0", func() (*Result, error) { c := good; c.J = []int{2, 0}; return FBPINN(osc, c) }, "J = 0"},
		{"K=0", func() (*Result, error) { c := good; c.K = 0; return FBPINN(osc, c) }, "K = 0"},
		{"steps<0", func() (*Result, error) { c := good; c.Steps = -1; return FBPINN(osc, c) }, "must not be negative"},
		{"every<0", func() (*Result, error) { c := good; c.Every = -1; return FBPINN(osc, c) }, "must not be negative"},
		{"lr<0", func() (*Result, error) { c := good; c.LR = -1; return FBPINN(osc, c) }, "must not be negative"},
		{"R<0", func() (*Result, error) { c := good; c.R = -1; return FBPINN(osc, c) }, "R = -1"},
		{"delta<0", func() (*Result, error) { c := good; c.Delta = -1; return FBPINN(osc, c) }, "delta"},
		{"PINN width 0", func() (*Result, error) { c := goodP; c.Width = 0; return PINN(osc, c) }, "Width = 0"},
		{"PINN J 0", func() (*Result, error) { c := goodP; c.J = 0; return PINN(osc, c) }, "J = 0"},
		{"PINN K 0", func() (*Result, error) { c := goodP; c.K = 0; return PINN(osc, c) }, "K = 0"},
		{"NaN loss FBPINN", func() (*Result, error) { return FBPINN(&nanProblem{*osc}, good) }, "loss is NaN at the initial parameters"},
		{"NaN loss PINN", func() (*Result, error) { return PINN(&nanProblem{*osc}, goodP) }, "loss is NaN at the initial parameters"},
		{"nonlinear operator", func() (*Result, error) { return FBPINN(&squareProblem{*osc}, good) }, "not linear"},
	}
	for _, tc := range cases {
		res, err := tc.run()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
		if err != nil && res != nil {
			t.Errorf("%s: a result with the error, want nil", tc.name)
		}
	}
	if res, err := FBPINN(osc, good); err != nil || len(res.History) != 2 {
		t.Errorf("the good config: %v, %v; want a two-entry history and no error", res, err)
	}
}

// TestStepNoAllocs checks that a training step (loss, gradient, Adam update)
// allocates nothing.
func TestStepNoAllocs(t *testing.T) {
	for _, tc := range modelCases {
		m, err := tc.build()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		adam := nn.NewAdam(len(m.params), nil)
		if a := testing.AllocsPerRun(5, func() {
			m.lossGrad()
			adam.Step(m.params, m.grad)
		}); a != 0 {
			t.Errorf("%s: %v allocations per step, want 0", tc.name, a)
		}
	}
}

// cube is a problem of dimension 3, which the jets do not carry.
type cube struct{ problem.Laplace }

func (*cube) Dim() int                { return 3 }
func (*cube) Box() (lo, hi []float64) { return []float64{0, 0, 0}, []float64{1, 1, 1} }

// TestDimensionError checks that an unsupported dimension is an error, not
// a panic.
func TestDimensionError(t *testing.T) {
	if _, err := PINN(&cube{}, PINNConfig{J: 2, K: 2, Width: 3, Steps: 1}); err == nil || !strings.Contains(err.Error(), "dimension 3") {
		t.Errorf("PINN on a 3D problem: error %v, want one about dimension 3", err)
	}
	if _, err := FBPINN(&cube{}, FBPINNConfig{J: []int{2}, K: 2, Steps: 1}); err == nil || !strings.Contains(err.Error(), "dimension 3") {
		t.Errorf("FBPINN on a 3D problem: error %v, want one about dimension 3", err)
	}
}

// TestCombineScale checks the written-out per-pair loops against the loops
// they replace (combine: the FMA chain over the channels from +0; scale:
// rho c per channel, now fp.ScaleRows), bit for bit, for the 1D, 2D and other channel counts,
// with signed zeros, subnormals and infinities among the values.
func TestCombineScale(t *testing.T) {
	special := []float64{0, math.Copysign(0, -1), 5e-324, -2.5e-310, math.Inf(1), 1e308, -3}
	val := func(i int) float64 {
		if i%3 == 0 {
			return special[(i/3)%len(special)]
		}
		return math.Sin(float64(i)*1.7) * math.Exp(float64(i%11-5))
	}
	for _, nc := range []int{3, 5, 7} {
		const pairs = 200
		coef, out, rho := make([]float64, pairs*nc), make([]float64, pairs*nc), make([]float64, pairs)
		rows := make([]int32, pairs)
		for i := range coef {
			coef[i], out[i] = val(i), val(7*i+1)
		}
		for ch := range nc { // pair 0: every product −0, whose chain from +0 ends at +0
			coef[ch], out[ch] = math.Copysign(0, -1), 1
		}
		for q := range rows {
			rows[q] = int32(pairs - 1 - q)
			rho[q] = val(5*q + 2)
		}
		got := make([]float64, pairs*nc)
		fp.ScaleRows(got, coef, nc, rho, rows)
		for q, row := range rows {
			c, o := coef[q*nc:(q+1)*nc], out[q*nc:(q+1)*nc]
			var want float64 // +0, as the loop it replaces started
			for ch := range c {
				want = math.FMA(c[ch], o[ch], want)
			}
			if v := combine(c, o); math.Float64bits(v) != math.Float64bits(want) {
				t.Fatalf("nc %d, pair %d: combine %v, the channel loop %v", nc, q, v, want)
			}
			for ch := range c {
				if w := rho[row] * c[ch]; math.Float64bits(got[q*nc+ch]) != math.Float64bits(w) {
					t.Fatalf("nc %d, pair %d, channel %d: scale %v, want %v", nc, q, ch, got[q*nc+ch], w)
				}
			}
		}
	}
}

// TestTimed checks the Timed setting of both trainings: each record
// carries a positive, non-decreasing time, and the steps and errors are
// those of an untimed run, whose records carry none.
func TestTimed(t *testing.T) {
	p := &problem.Oscillator{Omega0: 10}
	runs := []struct {
		name string
		run  func(timed bool) (*Result, error)
	}{
		{"fbpinn", func(timed bool) (*Result, error) {
			return FBPINN(p, FBPINNConfig{J: []int{2}, K: 4, Steps: 40, Every: 10, Seed: 1, Timed: timed})
		}},
		{"pinn", func(timed bool) (*Result, error) {
			return PINN(p, PINNConfig{J: 2, K: 4, Width: 6, Steps: 40, Every: 10, Seed: 1, Timed: timed})
		}},
	}
	for _, tc := range runs {
		timed, err := tc.run(true)
		if err != nil {
			t.Fatal(err)
		}
		plain, err := tc.run(false)
		if err != nil {
			t.Fatal(err)
		}
		if len(timed.History) != len(plain.History) {
			t.Fatalf("%s: %d timed records, %d untimed", tc.name, len(timed.History), len(plain.History))
		}
		for i, r := range timed.History {
			q := plain.History[i]
			if r.Iter != q.Iter || r.EL1 != q.EL1 || q.T != 0 || !(r.T > 0) || i > 0 && r.T < timed.History[i-1].T {
				t.Errorf("%s: record %d timed %+v, untimed %+v; want equal steps and errors, a positive non-decreasing time, none untimed", tc.name, i, r, q)
			}
		}
	}
}
