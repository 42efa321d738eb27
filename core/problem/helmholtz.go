package problem

import (
	"fmt"
	"math"

	"elmfbpinn/core/fp"
	"elmfbpinn/core/jet"
)

// Helmholtz is the inhomogeneous Helmholtz problem on the L-shaped domain
// Ω = [0, 1]² minus {x > 0.5 and y > 0.5}:
//
//	Δu + k² u = f in Ω,  u = g on ∂Ω,  k = 1,
//	u = sin(a x) sin(2 a y) + sin(3 a x y),  a = π ω,
//
// with f = Δu + k²u and g = u on the boundary. The Dirichlet condition is soft
// with weight λ = 25 ω⁴. Subdomains centred in the removed quadrant are
// dropped. Use NewHelmholtz, which checks Omega.
type Helmholtz struct {
	Omega float64
}

// NewHelmholtz returns the Helmholtz problem of frequency omega, which must
// be finite and positive.
func NewHelmholtz(omega float64) (*Helmholtz, error) {
	if !(omega > 0) || math.IsInf(omega, 0) {
		return nil, fmt.Errorf("omega = %v must be positive", omega)
	}
	return &Helmholtz{Omega: omega}, nil
}

const helmholtzK = 1.0

// Name returns "helmholtz".
func (p *Helmholtz) Name() string { return "helmholtz" }

// Dim returns 2.
func (p *Helmholtz) Dim() int { return 2 }

// Box returns [0, 1]², the bounding box of the L.
func (p *Helmholtz) Box() (lo, hi []float64) { return []float64{0, 0}, []float64{1, 1} }

// Scale returns 1.
func (p *Helmholtz) Scale() float64 { return 1 }

// InL reports whether (x, y) lies in the closed L-shaped domain.
func InL(x, y float64) bool { return !(x > 0.5 && y > 0.5) }

// Drop reports whether a subdomain centre lies in the removed quadrant.
func (p *Helmholtz) Drop(c []float64) bool { return !InL(c[0], c[1]) }

// filterL keeps the points of a 2D point list that lie in the L.
func filterL(pts []float64) []float64 {
	out := pts[:0]
	for i := 0; i < len(pts); i += 2 {
		if InL(pts[i], pts[i+1]) {
			out = append(out, pts[i], pts[i+1])
		}
	}
	return out
}

// Boundary returns the boundary points for a finest level of j subdomains:
// with n = 5 j and b = ceil(n/2), linspace with endpoints along
// x=0 (n), x=0.5 for y in [0.5,1] (b), x=1 for y in [0,0.5] (b),
// y=0 (n), y=0.5 for x in [0.5,1] (b), y=1 for x in [0,0.5] (b).
// Corners repeat.
func (p *Helmholtz) Boundary(j int) []float64 {
	n := 5 * j
	b := (n + 1) / 2
	var pts []float64
	vertical := func(x, y0, y1 float64, m int) {
		for _, y := range Linspace(y0, y1, m) {
			pts = append(pts, x, y)
		}
	}
	horizontal := func(y, x0, x1 float64, m int) {
		for _, x := range Linspace(x0, x1, m) {
			pts = append(pts, x, y)
		}
	}
	vertical(0, 0, 1, n)
	vertical(0.5, 0.5, 1, b)
	vertical(1, 0, 0.5, b)
	horizontal(0, 0, 1, n)
	horizontal(0.5, 0.5, 1, b)
	horizontal(1, 0, 0.5, b)
	return pts
}

// Constraints returns the residual on the (5 j)² grid filtered to the L and
// the Dirichlet condition on the boundary points.
func (p *Helmholtz) Constraints(j, k int) []Constraint {
	g := Linspace(0, 1, 5*j)
	in := filterL(Grid(g, g))
	f := make([]float64, len(in)/2)
	for i := range f {
		f[i] = p.Source(in[2*i : 2*i+2])
	}
	bd := p.Boundary(j)
	gb := make([]float64, len(bd)/2)
	for i := range gb {
		gb[i] = p.Exact(bd[2*i : 2*i+2])
	}
	k2 := helmholtzK * helmholtzK
	w2 := p.Omega * p.Omega
	return []Constraint{
		{
			Name:   "residual",
			Points: in,
			RHS:    f,
			Weight: 1,
			Op:     func(u jet.Jet) float64 { return math.FMA(k2, u.V, u.D2[0]+u.D2[1]) },
		},
		{
			Name:   "dirichlet",
			Points: bd,
			RHS:    gb,
			Weight: 25 * w2 * w2,
			Op:     func(u jet.Jet) float64 { return u.V },
		},
	}
}

// Test returns the (6 j)² grid with endpoints, filtered to the L.
func (p *Helmholtz) Test(j int) []float64 {
	g := Linspace(0, 1, 6*j)
	return filterL(Grid(g, g))
}

// Exact returns u(x, y).
func (p *Helmholtz) Exact(x []float64) float64 {
	a := float64(math.Pi * p.Omega)
	return float64(fp.Sin(a*x[0])*fp.Sin(2*a*x[1])) + fp.Sin(3*a*x[0]*x[1])
}

// Source returns f = Δu + k²u at x:
//
//	f = -5a² sin(a x) sin(2a y) - 9a²(x² + y²) sin(3a x y) + k² u.
func (p *Helmholtz) Source(x []float64) float64 {
	a := float64(math.Pi * p.Omega)
	s1 := float64(fp.Sin(a*x[0]) * fp.Sin(2*a*x[1]))
	s2 := fp.Sin(3 * a * x[0] * x[1])
	r2 := math.FMA(x[0], x[0], float64(x[1]*x[1]))
	f := float64(-5 * a * a * s1)
	f = math.FMA(-9*a*a*r2, s2, f)
	return math.FMA(helmholtzK*helmholtzK, s1+s2, f)
}
