// Package problem defines the linear PDE problems of the paper: the 1D damped
// harmonic oscillator, the 2D multi-scale Laplacian with a hard boundary
// constraint and the 2D Helmholtz equation on an L-shaped domain, each with
// its exact solution and the collocation and test point rules of the
// reference implementation. The package does no I/O.
package problem

import (
	"math"

	"elmfbpinn/core/fp"
	"elmfbpinn/core/jet"
)

// Constraint is one block of the physics-informed loss,
//
//	λ/N Σ_i (Op[û](x_i) - RHS_i)²,
//
// so that its rows of the least-squares system are scaled by sqrt(λ/N).
type Constraint struct {
	Name   string
	Points []float64               // (N, Dim) row-major
	RHS    []float64               // (N)
	Weight float64                 // λ
	Op     func(u jet.Jet) float64 // the linear operator applied to the jet of û at a point
}

// N returns the number of points of the constraint.
func (c *Constraint) N(dim int) int { return len(c.Points) / dim }

// Problem is a linear PDE problem on a box with the reference
// implementation's sampling rules.
type Problem interface {
	// Name is a short identifier ("oscillator", "laplace", "helmholtz").
	Name() string
	// Dim is the input dimension.
	Dim() int
	// Box returns the bounding box [lo, hi] the decompositions cover.
	Box() (lo, hi []float64)
	// Constraints returns the loss blocks (interior first) sampled for a
	// finest level of j subdomains per dimension and k features.
	Constraints(j, k int) []Constraint
	// Test returns the test points ((M, Dim) row-major) for a finest level
	// of j subdomains per dimension.
	Test(j int) []float64
	// Exact returns the exact solution at x.
	Exact(x []float64) float64
	// Scale is the output scale σ that multiplies every basis function.
	Scale() float64
}

// Ansatz is implemented by problems with a hard constraint
// û = A(x) · (network sum); the columns of the system include A's jet.
type Ansatz interface {
	Ansatz(x []float64) jet.Jet
}

// Dropper is implemented by problems on non-box domains: subdomains whose
// centre satisfies Drop are removed from every level.
type Dropper interface {
	Drop(centre []float64) bool
}

// Linspace returns n points evenly spaced on [a, b] with both endpoints
// (numpy's linspace); n = 1 gives a and n <= 0 an empty slice.
func Linspace(a, b float64, n int) []float64 {
	if n <= 0 {
		return nil
	}
	x := make([]float64, n)
	if n == 1 {
		x[0] = a
		return x
	}
	step := (b - a) / float64(n-1)
	for i := range x {
		x[i] = math.FMA(float64(i), step, a)
	}
	x[n-1] = b
	return x
}

// Grid returns the tensor grid of xs × ys as (len(xs)·len(ys), 2) row-major,
// x outer.
func Grid(xs, ys []float64) []float64 {
	g := make([]float64, 0, 2*len(xs)*len(ys))
	for _, x := range xs {
		for _, y := range ys {
			g = append(g, x, y)
		}
	}
	return g
}

// tanhJet returns tanh(a x + b) and its first and second derivatives in x.
func tanhJet(a, b, x float64) (v, d1, d2 float64) {
	t := fp.Tanh(math.FMA(a, x, b))
	d := 1 - float64(t*t)
	return t, a * d, -2 * a * a * t * d
}
