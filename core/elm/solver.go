package elm

import (
	"math"

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
