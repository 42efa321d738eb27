package problem_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/diff/fd"

	"elmfbpinn/core/jet"
	"elmfbpinn/core/problem"
)

var (
	_ problem.Problem = (*problem.Oscillator)(nil)
	_ problem.Problem = (*problem.Laplace)(nil)
	_ problem.Problem = (*problem.Helmholtz)(nil)
	_ problem.Ansatz  = (*problem.Laplace)(nil)
	_ problem.Dropper = (*problem.Helmholtz)(nil)
)

// deriv returns fd first and second derivatives of f at x with steps h1 and
// h2 (central formulas).
func deriv(f func(float64) float64, x, h1, h2 float64) (d1, d2 float64) {
	d1 = fd.Derivative(f, x, &fd.Settings{Formula: fd.Central, Step: h1})
	d2 = fd.Derivative(f, x, &fd.Settings{Formula: fd.Central2nd, Step: h2})
	return d1, d2
}

// fdJet2 returns the finite-difference jet of a function of two variables.
// Step sizes: the functions here oscillate with angular frequency up to
// a ≈ 3π·4 ≈ 38 (Helmholtz ω=4) or 28π ≈ 88 (Laplace), so the second
// difference with step h has truncation ~h² a⁴/12 and round-off ~eps/h²;
// h = 1e-5 balances them to ~1e-5·a² at worst.
func fdJet2(f func(x []float64) float64, x []float64) jet.Jet {
	j := jet.Jet{V: f(x)}
	for i := range 2 {
		g := func(s float64) float64 {
			y := []float64{x[0], x[1]}
			y[i] = s
			return f(y)
		}
		j.D1[i], j.D2[i] = deriv(g, x[i], 1e-7, 1e-5)
	}
	return j
}

func TestOscillatorExact(t *testing.T) {
	for _, w0 := range []float64{80, 20, 5} {
		p := &problem.Oscillator{Omega0: w0}
		u := func(s float64) float64 { return p.Exact([]float64{s}) }
		// u(0) = 1 and u'(0) = 0.
		if v := u(0); math.Abs(v-1) > 1e-14 {
			t.Errorf("ω0=%g: u(0) = %.16g, want 1", w0, v)
		}
		// u' ~ ω0 in size; the central difference with h = 1e-7 is
		// accurate to ~1e-7 ω0.
		if d1, _ := deriv(u, 0, 1e-7, 1e-5); math.Abs(d1) > 1e-6*w0 {
			t.Errorf("ω0=%g: u'(0) = %.3g by fd, want 0 (tol %.3g)", w0, d1, 1e-6*w0)
		}
		// u'' + 4u' + ω0² u = 0. The terms are of size ω0², so the
		// residual is checked relative to ω0². The second difference at
		// h = 1e-5 has error ~h² ω0⁴/12 + 4 eps/h² ≈ 3.5e-4 at ω0 = 80,
		// i.e. ~5e-8 ω0²; the tolerance is 1e-6 ω0².
		for _, s := range []float64{0, 0.013, 0.2, 0.5, 0.77, 1} {
			d1, d2 := deriv(u, s, 1e-7, 1e-5)
			res := d2 + 4*d1 + w0*w0*u(s)
			if tol := 1e-6 * w0 * w0; math.Abs(res) > tol {
				t.Errorf("ω0=%g t=%g: u''+4u'+ω0²u = %.3g, want |.| <= %.3g", w0, s, res, tol)
			}
		}
	}
	// The solution decays like e^{-2t}: at t = 1 its envelope is e^{-2}/cos φ.
	p := &problem.Oscillator{Omega0: 80}
	if v := math.Abs(p.Exact([]float64{1})); v > math.Exp(-2)*1.001 {
		t.Errorf("|u(1)| = %g exceeds the envelope e^{-2}/cos φ ≈ %g", v, math.Exp(-2)*1.001)
	}
}

func TestOscillatorConstraints(t *testing.T) {
	p := &problem.Oscillator{Omega0: 80}
	if p.Dim() != 1 || p.Name() != "oscillator" || p.Scale() != 1 {
		t.Errorf("Dim %d Name %q Scale %g, want 1 \"oscillator\" 1", p.Dim(), p.Name(), p.Scale())
	}
	if lo, hi := p.Box(); len(lo) != 1 || lo[0] != 0 || hi[0] != 1 {
		t.Errorf("Box = %v, %v, want [0], [1]", lo, hi)
	}
	cs := p.Constraints(20, 12)
	if len(cs) != 3 {
		t.Fatalf("%d constraints, want 3 (residual, u(0), u'(0))", len(cs))
	}
	// (K+1) J = 13·20 = 260 residual points; one point each for the ICs.
	wantN := []int{260, 1, 1}
	wantW := []float64{1, math.Pow(80, 4), 80 * 80}
	for i, c := range cs {
		if c.N(1) != wantN[i] || len(c.RHS) != wantN[i] {
			t.Errorf("constraint %d (%s): %d points, %d RHS, want %d", i, c.Name, c.N(1), len(c.RHS), wantN[i])
		}
		if c.Weight != wantW[i] {
			t.Errorf("constraint %d (%s): weight %g, want %g", i, c.Name, c.Weight, wantW[i])
		}
	}
	if pts := cs[0].Points; pts[0] != 0 || pts[len(pts)-1] != 1 {
		t.Errorf("residual points span [%g, %g], want [0, 1]", pts[0], pts[len(pts)-1])
	}
	if cs[1].Points[0] != 0 || cs[1].RHS[0] != 1 || cs[2].Points[0] != 0 || cs[2].RHS[0] != 0 {
		t.Errorf("initial conditions: %v→%v and %v→%v, want u(0)=1 and u'(0)=0", cs[1].Points, cs[1].RHS, cs[2].Points, cs[2].RHS)
	}
	// Operators on a test jet u = 2, u' = 3, u'' = 5.
	u := jet.Jet{V: 2, D1: [2]float64{3}, D2: [2]float64{5}}
	for i, want := range []float64{5 + 4*3 + 6400*2, 2, 3} {
		if got := cs[i].Op(u); got != want {
			t.Errorf("constraint %d (%s): Op(%+v) = %g, want %g", i, cs[i].Name, u, got, want)
		}
	}
	// The residual operator applied to the fd jet of the exact solution
	// vanishes (relative to ω0² = 6400) at the collocation points, and
	// the residual RHS is zero.
	f := func(s float64) float64 { return p.Exact([]float64{s}) }
	for i := 0; i < len(cs[0].Points); i += 37 {
		s := cs[0].Points[i]
		d1, d2 := deriv(f, s, 1e-7, 1e-5)
		j := jet.Jet{V: f(s), D1: [2]float64{d1}, D2: [2]float64{d2}}
		if r := cs[0].Op(j) - cs[0].RHS[i]; math.Abs(r) > 1e-6*6400 {
			t.Errorf("residual at t=%g: %.3g, want ~0", s, r)
		}
	}
	if n := len(p.Test(20)); n != 1000 {
		t.Errorf("Test(20) has %d points, want 50·20 = 1000", n)
	}
}

func TestLaplaceExactMatchesRHS(t *testing.T) {
	for _, nw := range []int{1, 2, 4, 7} {
		p := &problem.Laplace{NOmega: nw}
		cs := p.Constraints(4, 8)
		if len(cs) != 1 {
			t.Fatalf("n_ω=%d: %d constraints, want 1 (the residual; the BC is hard)", nw, len(cs))
		}
		c := cs[0]
		// Scale of Δu: up to 2 (max ω π)².
		wmax := problem.LaplaceOmegas[nw-1] * math.Pi
		n := c.N(2)
		for i := 0; i < n; i += 7 {
			x := c.Points[2*i : 2*i+2]
			j := fdJet2(p.Exact, x)
			if tol := 1e-5 * wmax * wmax; math.Abs(j.Laplacian()-c.RHS[i]) > tol {
				t.Errorf("n_ω=%d x=%v: fd Δu = %.8g, RHS = %.8g, want equal within %.3g", nw, x, j.Laplacian(), c.RHS[i], tol)
			}
			if got := c.Op(j); got != j.D2[0]+j.D2[1] {
				t.Errorf("n_ω=%d: Op(jet) = %g, want the Laplacian %g", nw, got, j.D2[0]+j.D2[1])
			}
		}
		// Exact vanishes on the boundary.
		for _, x := range [][]float64{{0, 0.3}, {1, 0.71}, {0.42, 0}, {0.9, 1}} {
			if v := p.Exact(x); math.Abs(v) > 1e-13 {
				t.Errorf("n_ω=%d: u(%v) = %g, want 0 on the boundary", nw, x, v)
			}
		}
	}
}

func TestLaplaceAnsatz(t *testing.T) {
	for _, nw := range []int{1, 3, 7} {
		p := &problem.Laplace{NOmega: nw}
		inv := problem.LaplaceOmegas[nw-1] // 1/s
		a := func(x []float64) float64 {
			return math.Tanh(x[0]*inv) * math.Tanh((1-x[0])*inv) * math.Tanh(x[1]*inv) * math.Tanh((1-x[1])*inv)
		}
		for _, x := range [][]float64{{0.5, 0.5}, {0.01, 0.3}, {0.2, 0.97}, {0.003, 0.999}, {0.77, 0.05}} {
			got := p.Ansatz(x)
			want := fdJet2(a, x)
			// Derivatives scale like (1/s)^n.
			tols := [3]float64{1e-14, 1e-6 * inv, 1e-5 * inv * inv}
			if math.Abs(got.V-want.V) > tols[0] {
				t.Errorf("n_ω=%d x=%v: A = %.16g, want %.16g", nw, x, got.V, want.V)
			}
			for i := range 2 {
				if math.Abs(got.D1[i]-want.D1[i]) > tols[1] {
					t.Errorf("n_ω=%d x=%v: ∂A/∂x_%d = %.10g, want %.10g (tol %.3g)", nw, x, i, got.D1[i], want.D1[i], tols[1])
				}
				if math.Abs(got.D2[i]-want.D2[i]) > tols[2] {
					t.Errorf("n_ω=%d x=%v: ∂²A/∂x_%d² = %.10g, want %.10g (tol %.3g)", nw, x, i, got.D2[i], want.D2[i], tols[2])
				}
			}
			if !(got.V > 0) {
				t.Errorf("n_ω=%d x=%v: A = %g, want > 0 inside the square", nw, x, got.V)
			}
		}
		for _, x := range [][]float64{{0, 0.5}, {1, 0.5}, {0.3, 0}, {0.3, 1}, {0, 0}, {1, 1}} {
			if v := p.Ansatz(x).V; math.Abs(v) > 1e-15 {
				t.Errorf("n_ω=%d: A(%v) = %g, want 0 on the boundary", nw, x, v)
			}
		}
	}
}

func TestLaplaceCounts(t *testing.T) {
	p := &problem.Laplace{NOmega: 4}
	if p.Scale() != 0.75 || p.Dim() != 2 || p.Name() != "laplace" {
		t.Errorf("Scale %g Dim %d Name %q, want 0.75 2 \"laplace\"", p.Scale(), p.Dim(), p.Name())
	}
	cases := []struct{ j, k, want int }{
		{16, 16, 80 * 80}, // ceil(sqrt(17)) = 5, 5·16 = 80
		{3, 3, 6 * 6},     // ceil(sqrt(4)) = 2
		{4, 8, 12 * 12},   // ceil(sqrt(9)) = 3
		{2, 9, 8 * 8},     // ceil(sqrt(10)) = 4
	}
	for i, tc := range cases {
		if n := p.Constraints(tc.j, tc.k)[0].N(2); n != tc.want {
			t.Errorf("case %d (J=%d K=%d): %d collocation points, want %d", i, tc.j, tc.k, n, tc.want)
		}
	}
	if n := len(p.Test(16)) / 2; n != 96*96 {
		t.Errorf("Test(16): %d points, want 96² = %d", n, 96*96)
	}
}

// inLByHand is the closed L: the unit square minus the open quadrant
// (0.5, 1] × (0.5, 1].
func inLByHand(x, y float64) bool {
	return x >= 0 && x <= 1 && y >= 0 && y <= 1 && (x <= 0.5 || y <= 0.5)
}

// onLBoundary reports whether (x, y) lies on one of the six edges of the L.
func onLBoundary(x, y float64) bool {
	const e = 1e-15
	on := func(a, b float64) bool { return math.Abs(a-b) <= e }
	between := func(a, lo, hi float64) bool { return a >= lo-e && a <= hi+e }
	return on(x, 0) && between(y, 0, 1) ||
		on(y, 0) && between(x, 0, 1) ||
		on(x, 1) && between(y, 0, 0.5) ||
		on(y, 1) && between(x, 0, 0.5) ||
		on(x, 0.5) && between(y, 0.5, 1) ||
		on(y, 0.5) && between(x, 0.5, 1)
}

func TestHelmholtzSource(t *testing.T) {
	for _, w := range []float64{1, 2, 4} {
		p := &problem.Helmholtz{Omega: w}
		a := 3 * math.Pi * w // largest angular frequency of u
		for _, x := range [][]float64{{0.1, 0.2}, {0.45, 0.9}, {0.8, 0.3}, {0.5, 0.5}, {0.01, 0.99}, {0.33, 0.07}} {
			j := fdJet2(p.Exact, x)
			want := j.Laplacian() + j.V // k = 1
			if tol := 1e-5 * a * a; math.Abs(p.Source(x)-want) > tol {
				t.Errorf("ω=%g x=%v: Source = %.10g, fd Δu + u = %.10g (tol %.3g)", w, x, p.Source(x), want, tol)
			}
		}
	}
}

func TestHelmholtzConstraints(t *testing.T) {
	p := &problem.Helmholtz{Omega: 2}
	if p.Scale() != 1 || p.Dim() != 2 || p.Name() != "helmholtz" {
		t.Errorf("Scale %g Dim %d Name %q, want 1 2 \"helmholtz\"", p.Scale(), p.Dim(), p.Name())
	}
	cs := p.Constraints(16, 16)
	if len(cs) != 2 {
		t.Fatalf("%d constraints, want 2 (residual, dirichlet)", len(cs))
	}
	in, bd := cs[0], cs[1]
	// 80² grid minus the 40² points with x > 0.5 and y > 0.5 (i/79 > 0.5
	// for i >= 40).
	if n := in.N(2); n != 4800 {
		t.Errorf("interior points at J=16: %d, want 4800", n)
	}
	// n = 80 and b = 40: 80 + 40 + 40 + 80 + 40 + 40.
	if n := bd.N(2); n != 320 {
		t.Errorf("boundary points at J=16: %d, want 320", n)
	}
	if in.Weight != 1 || bd.Weight != 25*math.Pow(2, 4) {
		t.Errorf("weights %g and %g, want 1 and 25 ω⁴ = %g", in.Weight, bd.Weight, 25*math.Pow(2, 4))
	}
	for i := range in.N(2) {
		x := in.Points[2*i : 2*i+2]
		if !inLByHand(x[0], x[1]) {
			t.Errorf("interior point %v is outside the L", x)
		}
		if in.RHS[i] != p.Source(x) {
			t.Errorf("interior RHS at %v = %g, want Source = %g", x, in.RHS[i], p.Source(x))
		}
	}
	for i := range bd.N(2) {
		x := bd.Points[2*i : 2*i+2]
		if !onLBoundary(x[0], x[1]) {
			t.Errorf("boundary point %v is not on the boundary of the L", x)
		}
		if bd.RHS[i] != p.Exact(x) {
			t.Errorf("boundary RHS at %v = %g, want Exact = %g", x, bd.RHS[i], p.Exact(x))
		}
	}
	u := jet.Jet{V: 2, D1: [2]float64{3, 4}, D2: [2]float64{5, 7}}
	if got, want := in.Op(u), 5.0+7+2; got != want {
		t.Errorf("residual Op(%+v) = %g, want Δu + u = %g", u, got, want)
	}
	if got := bd.Op(u); got != 2 {
		t.Errorf("dirichlet Op(%+v) = %g, want u = 2", u, got)
	}
	// Test points: the 96² grid with endpoints, counted by brute force.
	want := 0
	for i := range 96 {
		for j := range 96 {
			if inLByHand(float64(i)/95, float64(j)/95) {
				want++
			}
		}
	}
	test := p.Test(16)
	if n := len(test) / 2; n != want {
		t.Errorf("Test(16): %d points, want %d (96² grid points in the L)", n, want)
	}
	for i := 0; i < len(test); i += 2 {
		if !inLByHand(test[i], test[i+1]) {
			t.Errorf("test point (%g, %g) is outside the L", test[i], test[i+1])
			break
		}
	}
	// Drop follows the L: centres in the removed quadrant only.
	for _, tc := range []struct {
		c    []float64
		want bool
	}{{[]float64{0.5, 0.5}, false}, {[]float64{0.51, 0.51}, true}, {[]float64{0.9, 0.2}, false}, {[]float64{0.2, 1}, false}, {[]float64{1, 0.5001}, true}} {
		if got := p.Drop(tc.c); got != tc.want {
			t.Errorf("Drop(%v) = %v, want %v", tc.c, got, tc.want)
		}
	}
}

func TestLinspace(t *testing.T) {
	cases := []struct {
		a, b float64
		n    int
	}{
		{0, 1, 2}, {0, 1, 80}, {0, 1, 7}, {-0.3, 0.7, 13}, {0, 1, 1000}, {2, -1, 5}, {0.1, 0.7, 3},
		// Cases where a + (n-1)·((b-a)/(n-1)) rounds away from b, so the
		// last point must be set to b explicitly.
		{0, 1, 50}, {0, 1, 99}, {0.1, 0.7, 38},
	}
	for i, tc := range cases {
		x := problem.Linspace(tc.a, tc.b, tc.n)
		if len(x) != tc.n {
			t.Errorf("case %d: %d points, want %d", i, len(x), tc.n)
			continue
		}
		if x[0] != tc.a || x[tc.n-1] != tc.b {
			t.Errorf("case %d: endpoints %.17g, %.17g, want exactly %g, %g", i, x[0], x[tc.n-1], tc.a, tc.b)
		}
		h := (tc.b - tc.a) / float64(tc.n-1)
		for k := range x {
			if w := tc.a + float64(k)*h; math.Abs(x[k]-w) > 4e-16*(math.Abs(tc.a)+math.Abs(tc.b)) {
				t.Errorf("case %d: x[%d] = %.17g, want %.17g", i, k, x[k], w)
			}
		}
	}
	if x := problem.Linspace(0.25, 1, 1); len(x) != 1 || x[0] != 0.25 {
		t.Errorf("Linspace(0.25, 1, 1) = %v, want [0.25]", x)
	}
}

func TestGrid(t *testing.T) {
	got := problem.Grid([]float64{1, 2}, []float64{5, 6, 7})
	want := []float64{1, 5, 1, 6, 1, 7, 2, 5, 2, 6, 2, 7}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Grid = %v, want %v (x outer)", got, want)
	}
}

// ExampleLinspace shows numpy-style spacing with both endpoints.
func ExampleLinspace() {
	fmt.Println(problem.Linspace(0, 1, 5))
	// Output: [0 0.25 0.5 0.75 1]
}

// TestConstructors: each constructor refuses the parameters its problem
// cannot take (where the struct would give NaN or panic) with an error
// naming the parameter, and returns the problem for a valid one.
func TestConstructors(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, tc := range []struct {
		name string
		make func() (problem.Problem, error)
		ok   bool
		word string // in the error
	}{
		{"oscillator 80", func() (problem.Problem, error) { return problem.NewOscillator(80) }, true, ""},
		{"oscillator 2.001", func() (problem.Problem, error) { return problem.NewOscillator(2.001) }, true, ""},
		{"oscillator 2", func() (problem.Problem, error) { return problem.NewOscillator(2) }, false, "under-damped"},
		{"oscillator -5", func() (problem.Problem, error) { return problem.NewOscillator(-5) }, false, "omega0"},
		{"oscillator NaN", func() (problem.Problem, error) { return problem.NewOscillator(nan) }, false, "omega0"},
		{"oscillator Inf", func() (problem.Problem, error) { return problem.NewOscillator(inf) }, false, "omega0"},
		{"laplace 1", func() (problem.Problem, error) { return problem.NewLaplace(1) }, true, ""},
		{"laplace 7", func() (problem.Problem, error) { return problem.NewLaplace(7) }, true, ""},
		{"laplace 0", func() (problem.Problem, error) { return problem.NewLaplace(0) }, false, "nomega"},
		{"laplace 8", func() (problem.Problem, error) { return problem.NewLaplace(8) }, false, "from 1 to 7"},
		{"helmholtz 8", func() (problem.Problem, error) { return problem.NewHelmholtz(8) }, true, ""},
		{"helmholtz 0", func() (problem.Problem, error) { return problem.NewHelmholtz(0) }, false, "positive"},
		{"helmholtz NaN", func() (problem.Problem, error) { return problem.NewHelmholtz(nan) }, false, "omega"},
		{"helmholtz -Inf", func() (problem.Problem, error) { return problem.NewHelmholtz(-inf) }, false, "omega"},
	} {
		p, err := tc.make()
		switch {
		case tc.ok && err != nil:
			t.Errorf("%s: %v, want a problem", tc.name, err)
		case tc.ok:
			// A valid problem evaluates to finite numbers.
			x := make([]float64, p.Dim())
			for i := range x {
				x[i] = 0.3
			}
			if v := p.Exact(x); math.IsNaN(v) || math.IsInf(v, 0) {
				t.Errorf("%s: Exact(%v) = %v, want a finite value", tc.name, x, v)
			}
		case err == nil:
			t.Errorf("%s: accepted, want an error containing %q", tc.name, tc.word)
		case !strings.Contains(err.Error(), tc.word):
			t.Errorf("%s: error %q, want it to contain %q", tc.name, err, tc.word)
		}
	}
}
