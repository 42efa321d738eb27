package problem

import (
	"fmt"
	"math"

	"elmfbpinn/core/fp"
	"elmfbpinn/core/jet"
)

// LaplaceOmegas is the list of frequencies of the multi-scale Laplacian; a
// problem with n_ω components uses the first n_ω.
var LaplaceOmegas = []float64{4, 8, 12, 16, 20, 24, 28}

// Laplace is the multi-scale Laplacian on [0, 1]²:
//
//	Δu = f,  f = -(2/n) Σ_i (ω_i π)² sin(ω_i π x) sin(ω_i π y),  u = 0 on ∂Ω,
//
// with exact solution u = (1/n) Σ_i sin(ω_i π x) sin(ω_i π y). The boundary
// condition is hard: û = A(x, y) · (network sum) with
//
//	A = tanh(x/s) tanh((1-x)/s) tanh(y/s) tanh((1-y)/s),  s = 1/max ω_i,
//
// and the output scale is 0.75. Use NewLaplace, which checks NOmega (a
// value outside 1..7 makes every method panic).
type Laplace struct {
	NOmega int // number of frequency components, 1..7
}

// NewLaplace returns the Laplacian of nOmega frequency components, from 1
// to len(LaplaceOmegas) = 7.
func NewLaplace(nOmega int) (*Laplace, error) {
	if nOmega < 1 || nOmega > len(LaplaceOmegas) {
		return nil, fmt.Errorf("nomega = %d: must be an integer from 1 to %d", nOmega, len(LaplaceOmegas))
	}
	return &Laplace{NOmega: nOmega}, nil
}

func (p *Laplace) omegas() []float64 { return LaplaceOmegas[:p.NOmega] }

// Name returns "laplace".
func (p *Laplace) Name() string { return "laplace" }

// Dim returns 2.
func (p *Laplace) Dim() int { return 2 }

// Box returns [0, 1]².
func (p *Laplace) Box() (lo, hi []float64) { return []float64{0, 0}, []float64{1, 1} }

// Scale returns 0.75.
func (p *Laplace) Scale() float64 { return 0.75 }

// Constraints returns the residual on the (ceil(sqrt(k+1)) j)² grid with
// endpoints; there is no boundary loss.
func (p *Laplace) Constraints(j, k int) []Constraint {
	n := int(math.Ceil(math.Sqrt(float64(k+1)))) * j
	g := Linspace(0, 1, n)
	pts := Grid(g, g)
	rhs := make([]float64, len(pts)/2)
	ws := p.omegas()
	for i := range rhs {
		x, y := pts[2*i], pts[2*i+1]
		var f float64
		for _, w := range ws {
			a := w * math.Pi
			f += float64(a * a * fp.Sin(a*x) * fp.Sin(a*y))
		}
		rhs[i] = -2 / float64(len(ws)) * f
	}
	return []Constraint{{
		Name:   "residual",
		Points: pts,
		RHS:    rhs,
		Weight: 1,
		Op:     func(u jet.Jet) float64 { return u.D2[0] + u.D2[1] },
	}}
}

// Test returns the (6 j)² grid with endpoints.
func (p *Laplace) Test(j int) []float64 {
	g := Linspace(0, 1, 6*j)
	return Grid(g, g)
}

// Exact returns u(x, y).
func (p *Laplace) Exact(x []float64) float64 {
	ws := p.omegas()
	var u float64
	for _, w := range ws {
		u += float64(fp.Sin(w*math.Pi*x[0]) * fp.Sin(w*math.Pi*x[1]))
	}
	return u / float64(len(ws))
}

// Ansatz returns the jet of the hard-constraint factor A at x.
func (p *Laplace) Ansatz(x []float64) jet.Jet {
	ws := p.omegas()
	inv := ws[len(ws)-1] // 1/s = max ω
	var f [2]float64
	var f1, f2 [2]float64
	for i := range 2 {
		a, a1, a2 := tanhJet(inv, 0, x[i])
		b, b1, b2 := tanhJet(-inv, inv, x[i])
		f[i] = a * b
		f1[i] = math.FMA(a, b1, float64(a1*b))
		f2[i] = math.FMA(a, b2, math.FMA(2*a1, b1, float64(a2*b)))
	}
	return jet.Jet{
		V:  f[0] * f[1],
		D1: [jet.MaxDim]float64{f1[0] * f[1], f[0] * f1[1]},
		D2: [jet.MaxDim]float64{f2[0] * f[1], f[0] * f2[1]},
	}
}
