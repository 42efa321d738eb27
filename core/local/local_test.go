package local_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/diff/fd"

	"elmfbpinn/core/jet"
	"elmfbpinn/core/local"
	"elmfbpinn/core/problem"
)

// coverCases are models with every feature of the localised model: several
// levels (1/L), a level of one subdomain (window 1), the hard-constraint
// ansatz with its output scale, dropped subdomains, and the global model.
var coverCases = []struct {
	name string
	p    problem.Problem
	js   []int // nil: the global model
	s    float64
	pts  []float64
}{
	{"oscillator J=[1,2,4]", &problem.Oscillator{Omega0: 20}, []int{1, 2, 4}, 1,
		[]float64{0, 0.137, 0.5, 0.91, 1}},
	{"laplace J=[3] ansatz, s=σ=0.75", &problem.Laplace{NOmega: 2}, []int{3}, 0.75,
		[]float64{0.2, 0.3, 0.71, 0.05, 0.5, 0.5, 0.93, 0.61}},
	{"laplace J=[1,2] ansatz", &problem.Laplace{NOmega: 1}, []int{1, 2}, 1,
		[]float64{0.2, 0.3, 0.71, 0.05, 0.45, 0.55}},
	{"helmholtz J=[1,2,4] dropped", &problem.Helmholtz{Omega: 1}, []int{1, 2, 4}, 1.5,
		[]float64{0.1, 0.2, 0.5, 0.9, 0.95, 0.3, 0.4, 0.45}},
	{"global laplace (PINN)", &problem.Laplace{NOmega: 3}, nil, 0.75,
		[]float64{0.2, 0.3, 0.6, 0.5, 0.03, 0.9}},
	{"global oscillator (PINN)", &problem.Oscillator{Omega0: 20}, nil, 1,
		[]float64{0, 0.3, 1}},
}

// coverOf returns the model and the cover of pts with scale s.
func coverOf(t *testing.T, p problem.Problem, js []int, pts []float64, s float64) (*local.Model, *local.Cover) {
	t.Helper()
	m := newModel(t, p, js)
	cov, err := m.Cover(pts, s)
	if err != nil {
		t.Fatalf("%s J=%v: %v", p.Name(), js, err)
	}
	return m, cov
}

func newModel(t *testing.T, p problem.Problem, js []int) *local.Model {
	t.Helper()
	var (
		m   *local.Model
		err error
	)
	if js == nil {
		m, err = local.Global(p)
	} else {
		m, err = local.New(p, js, 0)
	}
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestCoverValues checks the weights against the model's definition,
// computed here independently of core/domain and core/jet:
//
//	u_j(x) = A(x) s (1/L) ŵ_j(x) / Σ_{j' in j's level} ŵ_j'(x),
//
// with ŵ the product of ((1 + cos(π (x_i - c_i)/s_i))/2)² over the box
// (window 1 on a level of one subdomain and for the global model), to
// 1e-14 relative, and that the covered subdomains are those whose closed
// box holds the point.
func TestCoverValues(t *testing.T) {
	bump := func(x, c, s float64) float64 {
		if math.Abs(x-c) > s {
			return 0
		}
		h := (1 + math.Cos(math.Pi*(x-c)/s)) / 2
		return h * h
	}
	for _, tc := range coverCases {
		m, cov := coverOf(t, tc.p, tc.js, tc.pts, tc.s)
		dim := tc.p.Dim()
		if len(cov.Points) != m.Parts() || len(cov.Weights) != m.Parts() {
			t.Fatalf("%s: cover of %d, %d parts, want %d", tc.name, len(cov.Points), len(cov.Weights), m.Parts())
		}
		n := len(tc.pts) / dim
		for pi := range n {
			x := tc.pts[pi*dim : (pi+1)*dim]
			a := 1.0
			if an, ok := tc.p.(problem.Ansatz); ok {
				a = an.Ansatz(x).V
			}
			want := make([]float64, m.Parts())
			inBox := make([]bool, m.Parts())
			if d := m.Decomposition; d == nil {
				want[0], inBox[0] = a*tc.s, true
			} else {
				raw := make([]float64, len(d.Subdomains))
				sum := make([]float64, len(d.Levels))
				for g, sub := range d.Subdomains {
					inBox[g] = sub.Contains(x)
					raw[g] = 1
					if d.Levels[sub.Level].J > 1 {
						for i := range dim {
							raw[g] *= bump(x[i], sub.Centre[i], sub.Half[i])
						}
					} else if !inBox[g] {
						raw[g] = 0
					}
					sum[sub.Level] += raw[g]
				}
				for g, sub := range d.Subdomains {
					want[g] = a * tc.s * raw[g] / sum[sub.Level] / float64(m.Levels())
				}
			}
			for g := range m.Parts() {
				q, found := slices.BinarySearch(cov.Points[g], int32(pi))
				if found != inBox[g] {
					t.Errorf("%s: point %v in the cover of part %d: %v, in its box: %v", tc.name, x, g, found, inBox[g])
					continue
				}
				if !found {
					continue
				}
				if got := cov.Weights[g][q].V; math.Abs(got-want[g]) > 1e-14*math.Max(1, math.Abs(want[g])) {
					t.Errorf("%s: weight of part %d at %v = %.16g, want %.16g", tc.name, g, x, got, want[g])
				}
			}
		}
		if p := cov.Pairs(); p < n {
			t.Errorf("%s: %d pairs for %d points; every point is covered at least once", tc.name, p, n)
		}
	}
}

// TestCoverDerivatives checks the derivatives in the weight jets against
// finite differences of their values (gonum's fd.Central, h = 1e-6, for
// the first; fd.Central2nd at h = 1e-3 and h/2 with one Richardson step
// for the second: the fourth derivative of the windows, (π/s)⁴ ≈ 2000 for
// the half-widths here, would leave ~1e-6 in the plain second difference).
// Tolerance 1e-6 relative to the jet's largest entry. Points within 5e-3 of
// a subdomain edge (where the windows are only C²) are skipped.
func TestCoverDerivatives(t *testing.T) {
	for _, tc := range coverCases {
		m, cov := coverOf(t, tc.p, tc.js, tc.pts, tc.s)
		dim := tc.p.Dim()
		value := func(g int, y []float64) float64 {
			c, err := m.Cover(y, tc.s)
			if err != nil {
				t.Fatalf("%s: Cover(%v): %v", tc.name, y, err)
			}
			if len(c.Points[g]) == 0 {
				return 0
			}
			return c.Weights[g][0].V
		}
		checked := 0
		for g, rows := range cov.Points {
			for q, row := range rows {
				x := tc.pts[int(row)*dim : (int(row)+1)*dim]
				if m.Decomposition != nil && m.Decomposition.EdgeDistance(x) < 5e-3 {
					t.Logf("%s: skipping %v, near a subdomain edge", tc.name, x)
					continue
				}
				u := cov.Weights[g][q]
				scale := math.Abs(u.V)
				for i := range dim {
					scale = max(scale, math.Abs(u.D1[i]), math.Abs(u.D2[i]))
				}
				for i := range dim {
					y := slices.Clone(x)
					f := func(v float64) float64 { y[i] = v; return value(g, y) }
					d1 := fd.Derivative(f, x[i], &fd.Settings{Formula: fd.Central, Step: 1e-6})
					const h = 1e-3
					a := fd.Derivative(f, x[i], &fd.Settings{Formula: fd.Central2nd, Step: h})
					b := fd.Derivative(f, x[i], &fd.Settings{Formula: fd.Central2nd, Step: h / 2})
					d2 := (4*b - a) / 3
					tol := 1e-6 * max(scale, 1e-3)
					if math.Abs(u.D1[i]-d1) > tol || math.Abs(u.D2[i]-d2) > tol {
						t.Errorf("%s: part %d at %v, dimension %d: jet D1 %.10g D2 %.10g, fd %.10g %.10g (tol %.3g)", tc.name, g, x, i, u.D1[i], u.D2[i], d1, d2, tol)
					}
					checked++
				}
			}
		}
		if checked < 3 {
			t.Errorf("%s: only %d derivatives checked", tc.name, checked)
		}
	}
}

// TestCoverBits pins the order of the weight's operations, on which the
// bits of every ELM-FBPINN and FBPINN result depend: the normalised window
// of core/domain, then jet.Scale by 1/L, jet.Scale by s, and jet.Mul with
// the ansatz's jet as the first factor.
func TestCoverBits(t *testing.T) {
	for _, tc := range coverCases {
		if tc.js == nil {
			continue
		}
		m := newModel(t, tc.p, tc.js)
		cov, err := m.Cover(tc.pts, tc.s)
		if err != nil {
			t.Fatal(err)
		}
		mem, err := m.Decomposition.Windows(tc.pts)
		if err != nil {
			t.Fatal(err)
		}
		dim := tc.p.Dim()
		an, hard := tc.p.(problem.Ansatz)
		for g, rows := range mem.Points {
			if !slices.Equal(rows, cov.Points[g]) {
				t.Fatalf("%s: part %d covers %v, its window %v", tc.name, g, cov.Points[g], rows)
			}
			for q, row := range rows {
				want := jet.Scale(tc.s, jet.Scale(1/float64(len(tc.js)), mem.Windows[g][q]))
				if hard {
					want = jet.Mul(an.Ansatz(tc.pts[int(row)*dim:(int(row)+1)*dim]), want)
				}
				if got := cov.Weights[g][q]; got != want {
					t.Errorf("%s: part %d, point %d: weight %+v, want the bits %+v", tc.name, g, row, got, want)
				}
			}
		}
	}
}

// TestCoverOutside checks that a point outside every subdomain of a level
// is an error (the partition of unity is undefined there).
func TestCoverOutside(t *testing.T) {
	m := newModel(t, &problem.Oscillator{Omega0: 20}, []int{4})
	if _, err := m.Cover([]float64{0.5, 2}, 1); err == nil {
		t.Errorf("Cover at t = 2, outside every subdomain: no error, want one")
	}
}

func TestGlobal(t *testing.T) {
	m := newModel(t, &problem.Laplace{NOmega: 1}, nil)
	if m.Parts() != 1 || m.Levels() != 1 || m.Decomposition != nil {
		t.Errorf("global model: %d parts, %d levels, decomposition %v; want 1, 1, nil", m.Parts(), m.Levels(), m.Decomposition)
	}
	if _, err := local.Global(&cube{}); err == nil || !strings.Contains(err.Error(), "dimension 3") {
		t.Errorf("Global of a 3D problem: error %v, want one about dimension 3", err)
	}
	d := newModel(t, &problem.Helmholtz{Omega: 1}, []int{1, 4})
	if got, want := d.Parts(), 1+12; got != want || d.Levels() != 2 {
		t.Errorf("helmholtz J=[1,4]: %d parts and %d levels, want %d (4 of the 16 fine subdomains dropped) and 2", got, d.Levels(), want)
	}
}

// cube is a problem of dimension 3, which the jets do not carry.
type cube struct{ problem.Laplace }

func (*cube) Dim() int { return 3 }

// TestStack checks the stacked rows of the oscillator (a residual and two
// one-point initial conditions) and the Helmholtz problem.
func TestStack(t *testing.T) {
	for _, p := range []problem.Problem{&problem.Oscillator{Omega0: 20}, &problem.Helmholtz{Omega: 2}} {
		cons := p.Constraints(3, 4)
		dim := p.Dim()
		r, err := local.Stack(cons, dim)
		if err != nil {
			t.Fatalf("%s: %v", p.Name(), err)
		}
		row := 0
		for ci, con := range cons {
			n := con.N(dim)
			if w := con.Weight / float64(n); r.Weight[ci] != w {
				t.Errorf("%s: weight of %q = %g, want λ/N = %g", p.Name(), con.Name, r.Weight[ci], w)
			}
			if s := r.Scale()[ci]; s != math.Sqrt(con.Weight/float64(n)) {
				t.Errorf("%s: scale of %q = %g, want sqrt(λ/N)", p.Name(), con.Name, s)
			}
			for i := range n {
				if r.Con[row] != ci || r.RHS[row] != con.RHS[i] ||
					!slices.Equal(r.Points[row*dim:(row+1)*dim], con.Points[i*dim:(i+1)*dim]) {
					t.Errorf("%s: row %d is constraint %d, RHS %g, point %v; want %q's point %d", p.Name(), row, r.Con[row], r.RHS[row], r.Points[row*dim:(row+1)*dim], con.Name, i)
				}
				row++
			}
		}
		if r.Len() != row || len(r.Points) != row*dim || len(r.RHS) != row {
			t.Errorf("%s: %d rows, %d coordinates, %d right-hand sides; want %d rows", p.Name(), r.Len(), len(r.Points), len(r.RHS), row)
		}
	}
	bad := []problem.Constraint{
		{Name: "empty", Weight: 1},
		{Name: "short RHS", Points: []float64{0, 1}, RHS: []float64{0}, Weight: 1},
	}
	for _, con := range bad {
		if _, err := local.Stack([]problem.Constraint{con}, 1); err == nil || !strings.Contains(err.Error(), con.Name) {
			t.Errorf("Stack of %q: error %v, want one naming it", con.Name, err)
		}
	}
}

func TestExact(t *testing.T) {
	p := &problem.Laplace{NOmega: 2}
	pts := p.Test(2)
	u := local.Exact(p, pts)
	if len(u) != len(pts)/2 {
		t.Fatalf("%d values for %d points", len(u), len(pts)/2)
	}
	for i := range u {
		if u[i] != p.Exact(pts[2*i:2*i+2]) {
			t.Errorf("Exact[%d] = %g, want p.Exact = %g", i, u[i], p.Exact(pts[2*i:2*i+2]))
		}
	}
}
