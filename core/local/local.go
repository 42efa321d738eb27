// Package local is the localised model that the ELM-FBPINN and the FBPINN
// share, the paper's multilevel solution (its eq. multilevel_solution):
//
//	û(x) = A(x) (1/L) Σ_ℓ Σ_j w_j^(ℓ)(x) N_j^(ℓ)(x),
//
// a sum over the subdomains of every level of a subdomain function N_j,
// weighted by its partition-of-unity window w_j (core/domain) and by 1/L,
// times the hard-constraint factor A of a problem that has one (A = 1
// otherwise). The methods differ only in N_j: a combination of fixed random
// features with output scale σ for the ELM-FBPINN (core/basis, core/elm), a
// trainable network times σ for the FBPINN (core/nn, core/train). The PINN
// is the same model with one global function of window 1 (Global).
//
// Both are fitted to the same loss, the problem's constraints stacked as
// rows (Stack),
//
//	Σ_c (λ_c/N_c) Σ_{i ∈ c} (Op_c[û](x_i) - RHS_i)²,
//
// by least squares on rows scaled by sqrt(λ_c/N_c) (the ELM-FBPINN) or by
// gradient descent (the FBPINN). Since every Op_c is linear and the weight
// A w_j/L of N_j does not depend on the unknowns, the model is fixed by one
// thing per (point, subdomain) pair, the jet of that weight, which Cover
// computes once for both methods; each applies it to the jet of its own N_j
// (by jet.Mul, or through channel coefficients).
//
// The package does no I/O.
package local

import (
	"fmt"
	"math"

	"elmfbpinn/core/domain"
	"elmfbpinn/core/jet"
	"elmfbpinn/core/problem"
)

// Model is the localised model of one problem: its subdomains and, with
// the problem, its windows and hard-constraint factor.
type Model struct {
	Problem problem.Problem
	// Decomposition holds the subdomains level by level (their order is
	// the order of the subdomain functions); nil for the model of one
	// global function with window 1 (Global).
	Decomposition *domain.Decomposition
}

// New returns the localised model of p on its multilevel decomposition
// with js[ℓ] subdomains per dimension at level ℓ and width ratio delta (0
// means problem.DefaultDelta), without the subdomains p drops
// (problem.Decompose).
func New(p problem.Problem, js []int, delta float64) (*Model, error) {
	d, err := problem.Decompose(p, js, delta)
	if err != nil {
		return nil, err
	}
	return &Model{Problem: p, Decomposition: d}, nil
}

// Global returns the model of one function over the whole domain, window
// 1 and L = 1 (the PINN): û = A N.
func Global(p problem.Problem) (*Model, error) {
	if dim := p.Dim(); dim < 1 || dim > jet.MaxDim {
		return nil, fmt.Errorf("local: problem dimension %d not in 1..%d", dim, jet.MaxDim)
	}
	return &Model{Problem: p}, nil
}

// Parts returns the number of subdomain functions N_j: the kept subdomains
// of every level, or 1 for a global model.
func (m *Model) Parts() int {
	if m.Decomposition == nil {
		return 1
	}
	return len(m.Decomposition.Subdomains)
}

// Levels returns the number of levels L (1 for a global model).
func (m *Model) Levels() int {
	if m.Decomposition == nil {
		return 1
	}
	return len(m.Decomposition.Levels)
}

// Cover is the sparse (point, subdomain function) structure of a point set
// with the weight of each subdomain function in û at each of its points.
type Cover struct {
	// Points lists per subdomain function (ascending) the indices of the
	// points in its closed box.
	Points [][]int32
	// Weights holds per subdomain function, at those points, the jet of
	// its weight in û,
	//
	//	u_j(x) = A(x) · (s · (w_j(x)/L)),
	//
	// so that û(x) = Σ_j Mul(u_j(x), N_j(x)/s) over the subdomains whose
	// box holds x (s is Cover's argument).
	Weights [][]jet.Jet
}

// Cover returns the cover of the points pts ((n, Dim) row-major) with the
// weights scaled by s: the output scale σ where N_j is a network, 1 where
// σ is part of the features (the ELM-FBPINN's). Per pair the jet is
// computed in the order of the formula of Cover.Weights, each step one
// jet operation (jet.Scale by 1/L, by s, then jet.Mul(A, ·)); a global
// model has w = 1 and L = 1. It returns an error if a point lies in no
// subdomain of some level (domain.Decomposition.Windows).
func (m *Model) Cover(pts []float64, s float64) (*Cover, error) {
	dim := m.Problem.Dim()
	if len(pts)%dim != 0 {
		panic("local: len(pts) is not a multiple of the dimension")
	}
	n := len(pts) / dim
	var c Cover
	if m.Decomposition == nil {
		rows := make([]int32, n)
		ws := make([]jet.Jet, n)
		for i := range rows {
			rows[i] = int32(i)
			ws[i] = jet.Const(1)
		}
		c.Points, c.Weights = [][]int32{rows}, [][]jet.Jet{ws}
	} else {
		mem, err := m.Decomposition.Windows(pts)
		if err != nil {
			return nil, err
		}
		c.Points, c.Weights = mem.Points, mem.Windows
	}
	ansatz, hard := m.Problem.(problem.Ansatz)
	var a []jet.Jet
	if hard {
		a = make([]jet.Jet, n)
		for i := range a {
			a[i] = ansatz.Ansatz(pts[i*dim : (i+1)*dim])
		}
	}
	invL := 1 / float64(m.Levels())
	for g, rows := range c.Points {
		ws := c.Weights[g]
		for q, row := range rows {
			u := jet.Scale(s, jet.Scale(invL, ws[q]))
			if hard {
				u = jet.Mul(a[row], u)
			}
			ws[q] = u
		}
	}
	return &c, nil
}

// Pairs returns the number of (point, subdomain function) pairs.
func (c *Cover) Pairs() int {
	n := 0
	for _, p := range c.Points {
		n += len(p)
	}
	return n
}

// Rows is a problem's constraints stacked as the rows of the loss,
// constraint after constraint in the problem's order (interior first).
type Rows struct {
	Constraints []problem.Constraint
	// Points holds the point of every row, (n, Dim) row-major.
	Points []float64
	// RHS holds the right-hand side of every row, unscaled.
	RHS []float64
	// Con holds the index in Constraints of every row's constraint.
	Con []int
	// Weight holds per constraint c the weight of each of its rows in the
	// loss, λ_c/N_c (the least-squares rows are scaled by its square root).
	Weight []float64
}

// Stack stacks the constraints cons of a problem of dimension dim. A
// constraint without points, or with as many right-hand sides as points,
// is an error.
func Stack(cons []problem.Constraint, dim int) (*Rows, error) {
	r := &Rows{Constraints: cons, Weight: make([]float64, len(cons))}
	for ci, con := range cons {
		n := con.N(dim)
		if n == 0 || len(con.Points) != n*dim || len(con.RHS) != n {
			return nil, fmt.Errorf("local: constraint %q: %d coordinates and %d right-hand sides for dimension %d; want N >= 1 points and N right-hand sides", con.Name, len(con.Points), len(con.RHS), dim)
		}
		r.Weight[ci] = con.Weight / float64(n)
		r.Points = append(r.Points, con.Points...)
		r.RHS = append(r.RHS, con.RHS...)
		for range n {
			r.Con = append(r.Con, ci)
		}
	}
	return r, nil
}

// Len returns the number of rows.
func (r *Rows) Len() int { return len(r.Con) }

// Scale returns per constraint the scale of its least-squares rows,
// sqrt(λ_c/N_c).
func (r *Rows) Scale() []float64 {
	s := make([]float64, len(r.Weight))
	for c, w := range r.Weight {
		s[c] = math.Sqrt(w)
	}
	return s
}

// Exact returns the exact solution of p at the points pts ((n, Dim)
// row-major).
func Exact(p problem.Problem, pts []float64) []float64 {
	dim := p.Dim()
	u := make([]float64, len(pts)/dim)
	for i := range u {
		u[i] = p.Exact(pts[i*dim : (i+1)*dim])
	}
	return u
}
