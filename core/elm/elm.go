// Package elm assembles and solves the (multilevel) ELM-FBPINN least-squares
// system of the paper,
//
//	min_a ||M a - h||²,  M = [N; B],  h = [f; g],
//
// whose column q = (ℓ, j, k) holds the problem's operators applied to the
// localised random feature (1/L) w_j^(ℓ) φ_jk^(ℓ) (times the hard-constraint
// factor where the problem has one), each constraint block scaled by
// sqrt(λ/N): the localised model of core/local with fixed random features
// (core/basis) as the subdomain functions. The system is block-sparse, one
// dense block per subdomain, and is solved by a Solver, by default the
// paper's forced LSQR, while the test error is recorded every few
// iterations. The package does no I/O.
//
// # Solvers
//
// Every solver starts from a = 0 and works with products by M and Mᵀ (or by
// a matrix formed from M once):
//
//   - LSQR, the paper's: LSQR on M (the Golub–Kahan bidiagonalisation,
//     a_k minimising ‖M a − h‖ over the Krylov space
//     K_k(MᵀM, Mᵀh)), forced to run every iteration.
//   - StopLSQR: the same iterates, stopped by LSQR's own tests (SciPy's
//     atol, btol, conlim; Stop), which read only M and h, never the test
//     set.
//   - StopLSQR with LSMR: lsqr.LSMR's iterates (a_k minimising ‖Mᵀ(M a − h)‖
//     over the same Krylov space), stopped by the same tests.
//   - ScaledLSQR: LSQR on M D, D = diag(1/‖M e_q‖), a = D y.
//   - BlockLSQR: LSQR on M P, P = diag(P_j) block-diagonal over the
//     subdomains (every level's), with B_j = Q_j R_j, R_j V_j = U_j Σ_j and
//     P_j = V_k Σ_k⁻¹ on the directions with σ > tau σ_max(B_j), so that
//     each subdomain's columns of M P are orthonormal; a = P y. Forced, or
//     stopped by Stop on M P, and/or by HeldOut: ρ_k = ‖M_v a_k − h_v‖ on
//     rows at collocation points the fit does not use (System.HeldOut),
//     returning the iterate of the least ρ.
//
// For a = P y with P of full column rank r, min_y ‖M P y − h‖ is the least
// squares over range(P): the same minimum as over all a when range(P)
// contains range(Mᵀ) (no direction of any block with σ > 0 is dropped),
// else the minimum over the kept directions. The iterates differ: LSQR on
// M P works in K_k((MP)ᵀMP, (MP)ᵀh), in which the redundancy within a
// subdomain (κ(B_j) up to 1e18) no longer slows it.
package elm

import (
	"fmt"
	"math"
	"slices"
	"time"

	"gonum.org/v1/gonum/mat"

	"elmfbpinn/core/basis"
	"elmfbpinn/core/domain"
	"elmfbpinn/core/jet"
	"elmfbpinn/core/local"
	"elmfbpinn/core/lsqr"
	"elmfbpinn/core/metric"
	"elmfbpinn/core/problem"
	"elmfbpinn/core/sparse"
)

var _ lsqr.Operator = (*sparse.BlockSparse)(nil)

// Config fixes one ELM-FBPINN model.
type Config struct {
	// J lists the subdomains per dimension of each level, coarse to fine,
	// e.g. [20] or [1, 10, 20]. Point counts follow the last (finest) level.
	J []int
	// K is the number of tanh features per subdomain (K+1 basis functions
	// with the constant).
	K int
	// Delta is the width ratio δ; 0 means 2.9.
	Delta float64
	// R is the weight scale of the LeCun-uniform initialisation; 0 means 1.
	R float64
	// Seed seeds the random features.
	Seed uint64
}

// System is an assembled ELM-FBPINN least-squares problem together with the
// matrix that evaluates the model at the test points.
type System struct {
	Problem       problem.Problem
	Config        Config
	Model         *local.Model          // the localised model the columns belong to
	Decomposition *domain.Decomposition // Model.Decomposition
	Bases         []*basis.Basis        // one per kept subdomain, in column order
	Constraints   []problem.Constraint

	M   *sparse.BlockSparse // (rows, cols) system matrix
	RHS []float64           // (rows) right-hand side h

	Test  *sparse.BlockSparse // (test points, cols): û = Test a
	Exact []float64           // exact solution at the test points
}

// Build assembles the system of problem p for the model c.
func Build(p problem.Problem, c Config) (*System, error) {
	if len(c.J) == 0 {
		return nil, fmt.Errorf("elm: no levels")
	}
	if c.K < 1 {
		return nil, fmt.Errorf("elm: K = %d features; K must be at least 1", c.K)
	}
	r, err := basis.WeightScale(c.R)
	if err != nil {
		return nil, fmt.Errorf("elm: %w", err)
	}
	model, err := local.New(p, c.J, c.Delta)
	if err != nil {
		return nil, err
	}
	d := model.Decomposition
	jFine := c.J[len(c.J)-1]
	rows, err := local.Stack(p.Constraints(jFine, c.K), p.Dim())
	if err != nil {
		return nil, fmt.Errorf("elm: %w", err)
	}
	s := &System{
		Problem:       p,
		Config:        c,
		Model:         model,
		Decomposition: d,
		Bases:         basis.RandomSet(c.Seed, len(d.Subdomains), p.Dim(), c.K, r),
		Constraints:   rows.Constraints,
		RHS:           make([]float64, rows.Len()),
	}

	s.M, err = s.system(rows, s.RHS)
	if err != nil {
		return nil, err
	}
	test := p.Test(jFine)
	s.Exact = local.Exact(p, test)
	s.Test, err = s.Values(test)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// system assembles the least-squares rows of the stacked constraints and
// sets rhs (len = rows) to their right-hand side: row i is constraint c's
// operator scaled by sqrt(λ_c/N_c), its right-hand side scaled alike.
func (s *System) system(rows *local.Rows, rhs []float64) (*sparse.BlockSparse, error) {
	scales := rows.Scale()
	for i, ci := range rows.Con {
		rhs[i] = scales[ci] * rows.RHS[i]
	}
	return s.assemble(rows.Points, func(row int, u jet.Jet) float64 {
		c := rows.Con[row]
		return scales[c] * rows.Constraints[c].Op(u)
	})
}

// HeldOut returns the system's rows at held-out collocation points, for a
// stopping rule that reads neither the test set nor the fit's own rows: the
// problem's constraints sampled as for J+1 subdomains on the finest level
// (its sampling grid refined by one subdomain's worth: mostly other points),
// without the points the fit uses (the ends of the grid lines, the initial
// point), each constraint's rows scaled by sqrt(λ/N) of its own count, as the
// fit's are, and their right-hand side. Build's system is not changed.
func (s *System) HeldOut() (*sparse.BlockSparse, []float64, error) {
	dim := s.Problem.Dim()
	used := map[[3]float64]bool{}
	key := func(x []float64) (k [3]float64) {
		copy(k[:], x)
		return k
	}
	for _, c := range s.Constraints {
		for i := 0; i < len(c.Points); i += dim {
			used[key(c.Points[i:i+dim])] = true
		}
	}
	var cons []problem.Constraint
	for _, c := range s.Problem.Constraints(s.Config.J[len(s.Config.J)-1]+1, s.Config.K) {
		kept := c
		kept.Points, kept.RHS = nil, nil
		for i := range c.N(dim) {
			x := c.Points[i*dim : (i+1)*dim]
			if !used[key(x)] {
				kept.Points = append(kept.Points, x...)
				kept.RHS = append(kept.RHS, c.RHS[i])
			}
		}
		if len(kept.RHS) > 0 {
			cons = append(cons, kept)
		}
	}
	rows, err := local.Stack(cons, dim)
	if err != nil {
		return nil, nil, fmt.Errorf("elm: held-out points: %w", err)
	}
	h := make([]float64, rows.Len())
	m, err := s.system(rows, h)
	if err != nil {
		return nil, nil, err
	}
	return m, h, nil
}

// Cols returns the number of unknowns, Σ_ℓ J_ℓ (K+1) over kept subdomains.
func (s *System) Cols() int { _, n := s.M.Dims(); return n }

// Values returns the block-sparse matrix that maps coefficients to the model's
// values at the points pts ((n, Dim) row-major).
func (s *System) Values(pts []float64) (*sparse.BlockSparse, error) {
	return s.assemble(pts, func(_ int, u jet.Jet) float64 { return u.V })
}

// assemble builds the block-sparse matrix with entry op(row, jet of the
// column's localised feature at the row's point): the feature's jet
// (σ included) times its weight in the model (local.Cover with s = 1).
func (s *System) assemble(pts []float64, op func(row int, u jet.Jet) float64) (*sparse.BlockSparse, error) {
	p, d := s.Problem, s.Decomposition
	dim := p.Dim()
	cov, err := s.Model.Cover(pts, 1)
	if err != nil {
		return nil, err
	}
	nb := s.Config.K + 1
	shapes := make([]sparse.Shape, len(d.Subdomains))
	for g := range shapes {
		shapes[g] = sparse.Shape{Rows: cov.Points[g], Col0: g * nb, NCol: nb}
	}
	m := sparse.New(len(pts)/dim, len(shapes)*nb, shapes)
	sigma := p.Scale()
	phi := make([]jet.Jet, nb)
	for g := range shapes {
		sub := &d.Subdomains[g]
		blk := m.Block(g)
		for r, row := range cov.Points[g] {
			x := pts[int(row)*dim : (int(row)+1)*dim]
			w := cov.Weights[g][r]
			s.Bases[g].Jets(phi, x, &sub.Centre, &sub.Half, sigma)
			for k := range nb {
				blk[r*nb+k] = op(int(row), jet.Mul(w, phi[k]))
			}
		}
	}
	return m, nil
}

// Settings controls the solve. The zero value is the paper's solver.
type Settings struct {
	// Iters is the number of iterations, all of which are run by the
	// paper's LSQR; 0 means 15000.
	Iters int
	// Every is the interval of the test-error history; 0 means 100.
	Every int
	// Solver is the least-squares method; nil means LSQR{}, the paper's
	// forced LSQR.
	Solver Solver
	// Timed stamps each record of the history with the seconds since Solve
	// began (metric.Record.T; the solver's set-up, such as a
	// preconditioner's factorisations, included). Off, the records carry
	// no time, and two solves give equal histories.
	Timed bool
	// Progress, if set, is called each time the history gains a record,
	// with the history so far (the new record last), from the goroutine
	// of Solve. The slice is the solve's own: it is read during the call
	// only. It observes only: the solution does not depend on it.
	Progress func(history []metric.Record)
}

// Result is the outcome of a solve.
type Result struct {
	Coef    []float64       // the final coefficients a
	History []metric.Record // test e_L1 at iteration 0 and every Settings.Every
	Best    metric.Record   // the minimum over History: the run's error
	Final   float64         // test e_L1 of the returned coefficients Coef (the last iterate's, or the one Solution.At names)
	Status  string          // how the solver ended (Solution.Status)
	LSQR    *lsqr.Result    // LSQR's status and estimates; nil for a solver that is not LSQR
}

// Solve runs the solver (by default LSQR from a = 0 for exactly
// Settings.Iters iterations, no early stop), recording the test error as it
// goes: at iteration 0, every Settings.Every iterations and at the last.
// A solver that reports or returns coefficients of another length than
// the columns of M is a bug, and Solve panics.
func (s *System) Solve(set *Settings) (*Result, error) {
	if set == nil {
		set = &Settings{}
	}
	iters, every := set.Iters, set.Every
	if iters == 0 {
		iters = 15000
	}
	if every == 0 {
		every = 100
	}
	if iters < 0 || every < 0 {
		return nil, fmt.Errorf("elm: iterations %d and history interval %d must be positive", iters, every)
	}
	solver := set.Solver
	if solver == nil {
		solver = LSQR{}
	}
	start := time.Now()
	pred := make([]float64, len(s.Exact))
	var clean []float64
	res := &Result{}
	last := -1
	_, cols := s.M.Dims()
	record := func(itn int, x []float64) {
		if len(x) != cols {
			panic(fmt.Sprintf("elm: the solver reported %d coefficients for %d columns", len(x), cols))
		}
		if slices.ContainsFunc(x, math.IsNaN) {
			// As the reference: NaNs in the iterate count as 0.
			clean = append(clean[:0], x...)
			for i, v := range clean {
				if math.IsNaN(v) {
					clean[i] = 0
				}
			}
			x = clean
		}
		s.Test.MulVec(pred, x)
		rec := metric.Record{Iter: itn, EL1: metric.EL1(pred, s.Exact)}
		if set.Timed {
			rec.T = time.Since(start).Seconds()
		}
		res.History = append(res.History, rec)
		last = itn
		if set.Progress != nil {
			set.Progress(res.History)
		}
	}
	sol, err := solver.Solve(s.M, s.RHS, iters, func(itn int, x []float64) {
		if itn%every == 0 {
			record(itn, x)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("elm: %w", err)
	}
	if len(sol.X) != cols {
		panic(fmt.Sprintf("elm: the solver returned %d coefficients for %d columns", len(sol.X), cols))
	}
	if last != sol.Iterations {
		record(sol.Iterations, sol.X)
	}
	res.Coef, res.Status, res.LSQR = sol.X, sol.Status, sol.LSQR
	res.Final = res.History[len(res.History)-1].EL1
	if sol.At != 0 && sol.At != sol.Iterations {
		// An earlier iterate returned: its error, not the last record's.
		s.Test.MulVec(pred, sol.X)
		res.Final = metric.EL1(pred, s.Exact)
	}
	res.Best, _ = metric.Best(res.History)
	return res, nil
}

// Kappa returns the 2-norm condition number s_max/s_min of the dense form of
// m from the singular values of a dense SVD (values only). A numerically
// rank-deficient matrix gives a huge value (about 1/ε or more), +Inf only if a
// singular value is exactly 0; the SVD failing is an error.
func Kappa(m *sparse.BlockSparse) (float64, error) {
	var svd mat.SVD
	if !svd.Factorize(m.Dense(), mat.SVDNone) {
		return 0, fmt.Errorf("elm: SVD did not converge")
	}
	v := svd.Values(nil)
	if len(v) == 0 {
		return math.NaN(), nil
	}
	return slices.Max(v) / slices.Min(v), nil
}
