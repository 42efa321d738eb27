package problem

import (
	"fmt"
	"math"

	"elmfbpinn/core/fp"
	"elmfbpinn/core/jet"
)

// Oscillator is the damped harmonic oscillator on t in [0, 1]:
//
//	m u'' + μ u' + k u = 0,  u(0) = 1,  u'(0) = 0,
//
// with m = 1, μ = 4 and k = ω0². The initial conditions are soft, one-point
// constraints with weights λ = ω0⁴ for u(0) = 1 and ω0² for u'(0) = 0. The
// exact solution is u(t) = e^{-δt} (cos ωt + (δ/ω) sin ωt), δ = μ/2m,
// ω = sqrt(ω0² - δ²) (the reference's e^{-δt} 2A cos(φ + ωt) with
// φ = atan(-δ/ω), A = 1/(2 cos φ), expanded: no arctangent is needed).
//
// Use NewOscillator, which checks Omega0: at Omega0 <= 2 the oscillator is
// not under-damped and Exact is NaN.
type Oscillator struct {
	Omega0 float64
}

// NewOscillator returns the oscillator of natural frequency omega0, which
// must be finite and above μ/2m = 2 (under-damped).
func NewOscillator(omega0 float64) (*Oscillator, error) {
	if !(omega0 > oscMu/(2*oscMass)) || math.IsInf(omega0, 0) {
		return nil, fmt.Errorf("omega0 = %v: the oscillator must be under-damped (omega0 > 2)", omega0)
	}
	return &Oscillator{Omega0: omega0}, nil
}

const (
	oscMass = 1.0
	oscMu   = 4.0
)

// Name returns "oscillator".
func (o *Oscillator) Name() string { return "oscillator" }

// Dim returns 1.
func (o *Oscillator) Dim() int { return 1 }

// Box returns [0, 1].
func (o *Oscillator) Box() (lo, hi []float64) { return []float64{0}, []float64{1} }

// Scale returns 1.
func (o *Oscillator) Scale() float64 { return 1 }

// Constraints returns the residual on (k+1) j points of linspace(0, 1) and
// the two initial conditions at t = 0.
func (o *Oscillator) Constraints(j, k int) []Constraint {
	n := (k + 1) * j
	kk := o.Omega0 * o.Omega0
	return []Constraint{
		{
			Name:   "residual",
			Points: Linspace(0, 1, n),
			RHS:    make([]float64, n),
			Weight: 1,
			Op:     func(u jet.Jet) float64 { return math.FMA(kk, u.V, math.FMA(oscMu, u.D1[0], float64(oscMass*u.D2[0]))) },
		},
		{
			Name:   "u(0)=1",
			Points: []float64{0},
			RHS:    []float64{1},
			Weight: kk * kk,
			Op:     func(u jet.Jet) float64 { return u.V },
		},
		{
			Name:   "u'(0)=0",
			Points: []float64{0},
			RHS:    []float64{0},
			Weight: kk,
			Op:     func(u jet.Jet) float64 { return u.D1[0] },
		},
	}
}

// Test returns 50 j points of linspace(0, 1).
func (o *Oscillator) Test(j int) []float64 { return Linspace(0, 1, 50*j) }

// Exact returns the exact displacement at t = x[0].
func (o *Oscillator) Exact(x []float64) float64 {
	d := oscMu / (2 * oscMass)
	w := math.Sqrt(float64(o.Omega0*o.Omega0) - float64(d*d))
	s, c := fp.Sincos(w * x[0])
	return fp.Exp(-d*x[0]) * math.FMA(d/w, s, c)
}
