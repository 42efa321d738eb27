package elm

import (
	"fmt"
	"math"

	"elmfbpinn/core/fp"
	"elmfbpinn/core/lsqr"
	"elmfbpinn/core/sparse"
)

// Solver is a method for the least-squares problem of an assembled system,
//
//	min_a ||M a - h||².
//
// A new method is one type that implements it (and, to run it from a
// Spec, one name in experiments).
type Solver interface {
	// Solve starts from a = 0 and runs at most iters iterations (a method
	// without iterations counts its one solve as iteration 1). It calls
	// progress with 0 and the zero vector first, then with the iteration
	// number and the current coefficients after each iteration; progress
	// must neither keep nor modify x. Solve must not modify m or h.
	Solve(m *sparse.BlockSparse, h []float64, iters int, progress func(itn int, x []float64)) (*Solution, error)
}

// Solution is what a Solver returns.
type Solution struct {
	// X holds the final coefficients a, len = the columns of M.
	X []float64
	// Iterations is the number of iterations run.
	Iterations int
	// Status says how the solve ended, in words (LSQR's status name,
	// "IterLimit" for a forced run).
	Status string
	// LSQR is LSQR's own result (its status and estimates) for a solver
	// that runs lsqr.LSQR on M itself; nil otherwise.
	LSQR *lsqr.Result
	// At is the iteration whose iterate X is, for a rule that returns an
	// earlier iterate than its last (HeldOut); 0 means the last,
	// Iterations.
	At int
}

// LSQR is the paper's solver: lsqr.LSQR on M from a = 0 for exactly iters
// iterations, every convergence test ignored (Force), as the reference
// does. It is the zero value of Settings.Solver.
type LSQR struct{}

var _ Solver = LSQR{}

// Solve runs the forced LSQR.
func (LSQR) Solve(m *sparse.BlockSparse, h []float64, iters int, progress func(int, []float64)) (*Solution, error) {
	r, err := lsqr.LSQR(m, h, &lsqr.Settings{IterLim: iters, Force: true, Callback: progress})
	if err != nil {
		return nil, err
	}
	return &Solution{X: r.X, Iterations: r.Iterations, Status: r.Status.String(), LSQR: r}, nil
}

// ScaledLSQR is LSQR with column scaling, the diagonal right
// preconditioner of Paige and Saunders: it runs the forced LSQR on M D,
// D = diag(1/||M e_q||) (1 for a zero column), so that every column has
// norm 1, and returns a = D y. In exact arithmetic the solution set is
// unchanged; the iterates are not, since LSQR on M D works in other Krylov
// spaces, in which columns of very different norms (features of different
// steepness, rows of large constraint weight) converge together.
//
// M D is applied without a copy of M: M D y = M (D y) and (M D)ᵀ u =
// D (Mᵀ u), each scaling one product per entry, with the one-pass step of
// M (sparse.BlockSparse.BidiagStep). The column norms are FMA chains of the
// squares over the blocks in order, each block's rows in increasing order,
// and D_q = 1/sqrt of the sum.
type ScaledLSQR struct{}

var _ Solver = ScaledLSQR{}

// Solve runs the forced LSQR on M D and maps its iterates back by D.
func (ScaledLSQR) Solve(m *sparse.BlockSparse, h []float64, iters int, progress func(int, []float64)) (*Solution, error) {
	op := &scaled{m: m, d: columnScale(m)}
	_, n := m.Dims()
	op.dy = make([]float64, n)
	x := make([]float64, n)
	back := func(y []float64) []float64 {
		for q, v := range y {
			x[q] = op.d[q] * v
		}
		return x
	}
	r, err := lsqr.LSQR(op, h, &lsqr.Settings{IterLim: iters, Force: true, Callback: func(itn int, y []float64) {
		if progress != nil {
			progress(itn, back(y))
		}
	}})
	if err != nil {
		return nil, err
	}
	a := make([]float64, n)
	copy(a, back(r.X))
	return &Solution{X: a, Iterations: r.Iterations, Status: r.Status.String() + " (column-scaled)"}, nil
}

// scaled is the operator M D.
type scaled struct {
	m  *sparse.BlockSparse
	d  []float64 // the column scales
	dy []float64 // scratch: D y
}

var _ lsqr.StepOperator = (*scaled)(nil)

func (s *scaled) Dims() (int, int) { return s.m.Dims() }

// scale sets s.dy = D y.
func (s *scaled) scale(y []float64) []float64 {
	for q, v := range y {
		s.dy[q] = s.d[q] * v
	}
	return s.dy
}

func (s *scaled) MulVec(dst, y []float64) { s.m.MulVec(dst, s.scale(y)) }

func (s *scaled) MulTransVec(dst, u []float64) {
	s.m.MulTransVec(dst, u)
	for q := range dst {
		dst[q] *= s.d[q]
	}
}

func (s *scaled) BidiagStep(u, atu, v []float64, alpha float64) {
	s.m.BidiagStep(u, atu, s.scale(v), alpha)
	for q := range atu {
		atu[q] *= s.d[q]
	}
}

// columnScale returns D_q = 1/||M e_q||₂ per column q of m, 1 for a column
// that is zero, with ||M e_q||² summed as one FMA chain over the blocks in
// order and each block's rows in increasing order.
func columnScale(m *sparse.BlockSparse) []float64 {
	_, n := m.Dims()
	ss := make([]float64, n)
	for b := range m.Blocks() {
		sh := m.Shape(b)
		blk := m.Block(b)
		for r := range sh.Rows {
			row := blk[r*sh.NCol : (r+1)*sh.NCol]
			for k, v := range row {
				ss[sh.Col0+k] = math.FMA(v, v, ss[sh.Col0+k])
			}
		}
	}
	for q, v := range ss {
		if v == 0 {
			ss[q] = 1
		} else {
			ss[q] = 1 / math.Sqrt(v)
		}
	}
	return ss
}

// Stop is LSQR's own stopping rule, SciPy's tests (see lsqr.Settings):
// with r = h − M a and the running estimates of ‖M‖_F and cond(M), stop
// when
//
//	‖r‖ ≤ BTol ‖h‖ + ATol ‖M‖ ‖a‖      (ResidualSmall: a compatible system),
//	‖Mᵀr‖ ≤ ATol ‖M‖ ‖r‖               (LeastSquaresSmall: the normal equations),
//	cond(M) ≥ ConLim                    (CondLimit),
//
// or when the same tests hold with ε for the tolerances. None of them
// reads the test set. Zero fields take SciPy's defaults.
type Stop struct {
	// ATol and BTol are the relative tolerances of the tests above; 0
	// means DefaultATol and DefaultBTol, 1e-6 (SciPy's atol and btol). A
	// tolerance below ε acts as ε.
	ATol, BTol float64
	// ConLim is the condition limit; 0 means DefaultConLim, 1e8 (SciPy's
	// conlim). The
	// ELM-FBPINN systems have κ(M) up to 1e19, so a run that wants the
	// residual tests alone gives a large ConLim (1e300).
	ConLim float64
}

// The defaults of Stop's zero fields, SciPy's, and of HeldOut's.
const (
	DefaultATol     = 1e-6
	DefaultBTol     = 1e-6
	DefaultConLim   = 1e8
	DefaultEvery    = 100
	DefaultPatience = 10
)

// settings returns the LSQR settings of the stopping rule for at most
// iters iterations.
func (s Stop) settings(iters int, progress func(int, []float64)) *lsqr.Settings {
	or := func(v, def float64) float64 {
		if v == 0 {
			return def
		}
		return v
	}
	return &lsqr.Settings{ATol: or(s.ATol, DefaultATol), BTol: or(s.BTol, DefaultBTol), ConLim: or(s.ConLim, DefaultConLim),
		IterLim: iters, Callback: progress}
}

// StopLSQR is lsqr.LSQR on M from a = 0 with its stopping rule instead of
// forced iterations: it ends at the first iteration whose tests hold (Stop),
// or at the iteration limit. Solution.Status names the test (LSQR's status:
// ResidualSmall, LeastSquaresSmall, CondLimit, the ε variants, IterLimit),
// Solution.Iterations where it fired.
type StopLSQR struct {
	// Stop is the rule; its zero value is SciPy's.
	Stop Stop
	// LSMR runs lsqr.LSMR (the same rule, on its own estimates) instead
	// of LSQR.
	LSMR bool
}

// method returns lsqr.LSMR if lsmr is set, else lsqr.LSQR.
func method(lsmr bool) func(lsqr.Operator, []float64, *lsqr.Settings) (*lsqr.Result, error) {
	if lsmr {
		return lsqr.LSMR
	}
	return lsqr.LSQR
}

var _ Solver = StopLSQR{}

// Solve runs LSQR on M until its rule stops it.
func (s StopLSQR) Solve(m *sparse.BlockSparse, h []float64, iters int, progress func(int, []float64)) (*Solution, error) {
	r, err := method(s.LSMR)(m, h, s.Stop.settings(iters, progress))
	if err != nil {
		return nil, err
	}
	status := r.Status.String()
	if s.LSMR {
		status += " (LSMR)"
	}
	return &Solution{X: r.X, Iterations: r.Iterations, Status: status, LSQR: r}, nil
}

// DefaultTau is BlockLSQR's default drop tolerance: a block's directions
// with σ ≤ 1e-8 σ_max are dropped. About √ε: LSQR fits M P y, but the model
// is evaluated at a = P y, and the two products differ by rounding of order
// ε ‖M‖ ‖P‖ ‖y‖ ≤ ε/tau (‖M‖/σ_max) ‖y‖; with tau = 1e-8 that is 1e-8 of
// the fit, far below the errors of the paper's tables (1e-6 and up), while
// it still drops the near-duplicate features that make κ(M) reach 1e18.
const DefaultTau = 1e-8

// BlockLSQR is LSQR with a subdomain block right preconditioner. Each
// block B_j of M (subdomain j's K+1 columns on the rows of its support, on
// every level of a multilevel model) is factorised,
//
//	B_j = Q_j R_j (Householder),  R_j V_j = U_j Σ_j (one-sided Jacobi),
//
// and P_j = V_k Σ_k⁻¹ keeps the block's numerically independent
// directions, k = { i : σ_i > Tau σ_max(B_j) }, so that B_j P_j has
// orthonormal columns. With P = diag(P_j) (block-diagonal, since the
// blocks' columns are disjoint), LSQR runs on
//
//	min_y ‖M P y − h‖²,  a = P y,
//
// forced for the given iterations (Stop nil) or until its rule stops it.
// M P's columns within one subdomain are orthonormal, so what is left for
// LSQR is the coupling between overlapping subdomains and levels; the
// redundancy within a block (κ(B_j) up to 1e18 for large K) is removed by
// dropping, which restricts a to range(P). Keeping every direction (Tau
// below every block's σ_min/σ_max) is block-column whitening; ScaledLSQR is
// the diagonal case, one column per block.
//
// M P is formed once, block by block, (M P)_j = B_j P_j, with the same rows
// and r_j ≤ K+1 columns: each LSQR iteration is then a product with a
// block-sparse matrix no larger than M, with the same kernels
// (BidiagStep), which is faster than applying P and Pᵀ around M's step at
// every iteration (two more passes over the coefficients, and no saving
// from dropped directions): BenchmarkBlockStep measured 1.6 times faster
// steps on the Helmholtz baseline, 2.8 times on the oscillator's, for a
// one-time cost of about (K+1)/2 products with M. The iterates map back,
// a = P y, block by block. The set-up (the factorisations and M P) is part
// of Solve, so part of the run's solve time; the history's first record
// (iteration 0) comes after it.
//
// The factorisation is this package's own (blocksvd.go: explicit FMA,
// fixed orders), not gonum's, so that P has the same bits on every
// platform; (M P)_j entries and a = P y are FMA chains over the block's
// columns in increasing order.
type BlockLSQR struct {
	// Tau is the drop tolerance relative to each block's largest
	// singular value; 0 means DefaultTau. It must be in [0, 1).
	Tau float64
	// Stop, if set, is LSQR's stopping rule on M P; nil forces every
	// iteration, as the paper's LSQR.
	Stop *Stop
	// HeldOut, if set, also stops the solve by the residual at held-out
	// collocation points, and returns the iterate where it was least.
	HeldOut *HeldOut
	// LSMR runs lsqr.LSMR on M P instead of LSQR.
	LSMR bool
}

// HeldOut is a stopping rule on held-out collocation points (rows that the
// fit does not use, System.HeldOut): every Every iterations it computes
//
//	ρ_k = ‖M_v a_k − h_v‖₂  (fp.Norm, M_v a_k by sparse.BlockSparse.MulVec),
//
// and stops when ρ has not fallen below its least value for Patience
// checks in a row; the solve returns the iterate of the least ρ (Solution.At).
// It reads neither the test set nor the exact solution, and catches LSQR's
// semi-convergence on M P (the error falls, then rises as the iterates fit
// the rows more closely than the features can resolve), which the residual
// tests of Stop, on the fitted rows, do not see.
type HeldOut struct {
	// M and H are the held-out rows and their right-hand side.
	M *sparse.BlockSparse
	H []float64
	// Every is the checking interval in iterations; 0 means DefaultEvery,
	// 100.
	Every int
	// Patience is the number of checks without a new least ρ before the
	// solve stops; 0 means DefaultPatience, 10.
	Patience int
}

// rule returns the lsqr.Settings.Halt of the rule on a = back(y), and a
// function that gives the least ρ's iterate and iteration (nil, 0 before
// any check).
func (ho *HeldOut) rule(back func([]float64) []float64) (halt func(int, []float64) bool, best func() ([]float64, int)) {
	every, patience := ho.Every, ho.Patience
	if every == 0 {
		every = DefaultEvery
	}
	if patience == 0 {
		patience = DefaultPatience
	}
	rows, _ := ho.M.Dims()
	r := make([]float64, rows)
	var least []float64
	leastRho, leastItn, since := math.Inf(1), 0, 0
	halt = func(itn int, y []float64) bool {
		if itn%every != 0 {
			return false
		}
		a := back(y)
		ho.M.MulVec(r, a)
		for i, v := range ho.H {
			r[i] -= v
		}
		rho := fp.Norm(r)
		if rho < leastRho {
			leastRho, leastItn, since = rho, itn, 0
			least = append(least[:0], a...)
			return false
		}
		since++
		return since >= patience
	}
	return halt, func() ([]float64, int) { return least, leastItn }
}

var _ Solver = BlockLSQR{}

// Solve factorises the blocks, runs LSQR on M P and maps its iterates back.
func (s BlockLSQR) Solve(m *sparse.BlockSparse, h []float64, iters int, progress func(int, []float64)) (*Solution, error) {
	tau := s.Tau
	if tau == 0 {
		tau = DefaultTau
	}
	if !(tau >= 0 && tau < 1) {
		return nil, fmt.Errorf("block preconditioner: tau = %v, want 0 <= tau < 1", tau)
	}
	pre := newPreconditioner(m, tau)
	_, n := m.Dims()
	x := make([]float64, n)
	cb := func(itn int, y []float64) {
		if progress != nil {
			progress(itn, pre.back(x, y))
		}
	}
	set := &lsqr.Settings{IterLim: iters, Force: true, Callback: cb}
	if s.Stop != nil {
		set = s.Stop.settings(iters, cb)
	}
	var best func() ([]float64, int)
	if s.HeldOut != nil {
		if rows, cols := s.HeldOut.M.Dims(); cols != n || len(s.HeldOut.H) != rows {
			panic(fmt.Sprintf("elm: held-out rows of %d columns and %d right-hand sides, for %d columns and %d rows", cols, len(s.HeldOut.H), n, rows))
		}
		ha := make([]float64, n)
		set.Halt, best = s.HeldOut.rule(func(y []float64) []float64 { return pre.back(ha, y) })
	}
	r, err := method(s.LSMR)(pre.mp, h, set)
	if err != nil {
		return nil, err
	}
	a := make([]float64, n)
	pre.back(a, r.X)
	_, kept := pre.mp.Dims()
	name := "block-preconditioned"
	if s.LSMR {
		name = "LSMR, " + name
	}
	sol := &Solution{X: a, Iterations: r.Iterations,
		Status: fmt.Sprintf("%s (%s, %d of %d directions kept)", r.Status, name, kept, n)}
	if best != nil {
		if least, at := best(); least != nil && at != r.Iterations {
			copy(sol.X, least)
			sol.At = at
			sol.Status += fmt.Sprintf(", held-out residual least at iteration %d: its iterate returned", at)
		}
	}
	return sol, nil
}

// preconditioner is P = diag(P_j) and the formed M P.
type preconditioner struct {
	mp    *sparse.BlockSparse
	p     [][]float64 // P_j, (NCol_j, r_j) row-major
	shape []sparse.Shape
	ycol  []int // first column of block j in y
}

// newPreconditioner factorises every block of m and forms M P.
func newPreconditioner(m *sparse.BlockSparse, tau float64) *preconditioner {
	rows, _ := m.Dims()
	nb := m.Blocks()
	pre := &preconditioner{p: make([][]float64, nb), shape: make([]sparse.Shape, nb), ycol: make([]int, nb)}
	shapes := make([]sparse.Shape, nb)
	ny := 0
	for j := range nb {
		sh := m.Shape(j)
		pm, r := blockPrec(m.Block(j), len(sh.Rows), sh.NCol, tau)
		pre.p[j], pre.shape[j], pre.ycol[j] = pm, sh, ny
		shapes[j] = sparse.Shape{Rows: sh.Rows, Col0: ny, NCol: r}
		if r == 0 {
			shapes[j].Rows = nil // a block that keeps nothing has no entries
		}
		ny += r
	}
	pre.mp = sparse.New(rows, ny, shapes)
	for j := range nb {
		sh, r := pre.shape[j], shapes[j].NCol
		if r == 0 {
			continue
		}
		b, pm, dst := m.Block(j), pre.p[j], pre.mp.Block(j)
		for i := range sh.Rows {
			row := b[i*sh.NCol : (i+1)*sh.NCol]
			for k := range r {
				t := 0.0
				for c, v := range row {
					t = math.FMA(v, pm[c*r+k], t)
				}
				dst[i*r+k] = t
			}
		}
	}
	return pre
}

// back sets a = P y (a FMA chain over each block's kept directions in
// increasing order) and returns a.
func (pre *preconditioner) back(a, y []float64) []float64 {
	for j, sh := range pre.shape {
		pm := pre.p[j]
		if len(pm) == 0 {
			clear(a[sh.Col0 : sh.Col0+sh.NCol])
			continue
		}
		r := len(pm) / sh.NCol
		yj := y[pre.ycol[j] : pre.ycol[j]+r]
		for c := range sh.NCol {
			t := 0.0
			for k, v := range yj {
				t = math.FMA(pm[c*r+k], v, t)
			}
			a[sh.Col0+c] = t
		}
	}
	return a
}
