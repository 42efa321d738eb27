package experiments

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"time"

	"elmfbpinn/core/elm"
	"elmfbpinn/core/metric"
	"elmfbpinn/core/problem"
	"elmfbpinn/core/train"
)

// solvers are the least-squares methods a Spec may name besides the
// paper's forced LSQR (Spec.Solver ""): a new method is one elm.Solver and
// one entry here.
var solvers = map[string]elm.Solver{
	"lsqr-scaled": elm.ScaledLSQR{},
}

// SolverNames returns the names a Spec's Solver may take besides "", sorted.
func SolverNames() []string {
	return slices.Sorted(maps.Keys(solvers))
}

// RecordEvery returns the interval, in iterations (LSQR) or steps (Adam), of
// the test-error history of a run of model: the history records iteration
// 0, every RecordEvery and the last (the reference's rule: every 100 LSQR
// iterations, every 1000 Adam steps). Execute passes it to the core, and
// Check reads a result's history by it.
func RecordEvery(model string) int {
	if model == ELM {
		return 100
	}
	return 1000
}

// ELMConfig returns the ELM-FBPINN model a Spec names.
func ELMConfig(s Spec) elm.Config {
	return elm.Config{J: s.J, K: s.K, Delta: s.Delta, R: s.R, Seed: uint64(s.Seed)}
}

// progress returns the hook of the core's Progress settings for a run of
// iters iterations, or nil if set has none.
func (set *Settings) progress(iters int) func([]metric.Record) {
	if set == nil || set.Progress == nil {
		return nil
	}
	return func(h []metric.Record) { set.Progress(iters, h) }
}

// Execute runs one Spec in the calling goroutine and returns its result
// (without Env, which the caller fills in), made with set (nil: the
// defaults).
func Execute(s Spec, set *Settings) (*Result, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	p, err := NewProblem(s)
	if err != nil {
		return nil, err
	}
	if s.Model != ELM {
		return executeTrained(p, s, set.progress(s.Iters))
	}
	start := time.Now()
	sys, err := elm.Build(p, ELMConfig(s))
	if err != nil {
		return nil, err
	}
	res := &Result{Key: s.Key(), Spec: s}
	res.Time.Assembly = time.Since(start).Seconds()
	res.Rows, res.Cols = sys.M.Dims()
	res.NNZ = sys.M.NNZ()

	if s.Iters > 0 {
		t := time.Now()
		sol, err := sys.Solve(&elm.Settings{Iters: s.Iters, Every: RecordEvery(s.Model), Solver: solvers[s.Solver], Progress: set.progress(s.Iters)})
		if err != nil {
			return nil, err
		}
		res.Time.Solve = time.Since(t).Seconds()
		res.EL1, res.EL1Final, res.BestIter = sol.Best.EL1, sol.Final, sol.Best.Iter
		res.History = sol.History
		res.Status = sol.Status
		if s.Coef {
			res.Coef = sol.Coef
		}
	}
	res.Time.Total = res.Time.Assembly + res.Time.Solve

	if s.Kappa {
		cells := set.Cells()
		res.KappaCells = cells
		if n := res.Rows * res.Cols; n > cells {
			res.KappaNote = fmt.Sprintf("not computed: M is %d x %d (%d cells), above the cap of %d cells (raise it with -kappa-cells)", res.Rows, res.Cols, n, cells)
		} else {
			t := time.Now()
			k, err := elm.Kappa(sys.M)
			res.Time.Kappa = time.Since(t).Seconds()
			switch {
			case err != nil:
				res.KappaNote = "not computed: " + err.Error()
			case math.IsInf(k, 0) || math.IsNaN(k):
				res.KappaNote = "infinite: the smallest singular value is 0"
			default:
				res.Kappa = &k
			}
		}
	}
	return res, nil
}

// executeTrained trains a PINN or an FBPINN with Adam. Its time is all
// "solve": setting up the networks and the window coefficients is part of
// the training call. progress, if set, sees each record of the history.
func executeTrained(p problem.Problem, s Spec, progress func([]metric.Record)) (*Result, error) {
	start := time.Now()
	var (
		tr  *train.Result
		err error
	)
	switch s.Model {
	case FBPINN:
		tr, err = train.FBPINN(p, train.FBPINNConfig{J: s.J, K: s.K, Delta: s.Delta, R: s.R, Seed: uint64(s.Seed), Steps: s.Iters, Every: RecordEvery(s.Model), Progress: progress})
	case PINN:
		tr, err = train.PINN(p, train.PINNConfig{J: s.J[len(s.J)-1], K: s.K, Width: s.Width, R: s.R, Seed: uint64(s.Seed), Steps: s.Iters, Every: RecordEvery(s.Model), Progress: progress})
	}
	if err != nil {
		return nil, err
	}
	res := &Result{Key: s.Key(), Spec: s}
	res.Time.Solve = time.Since(start).Seconds()
	res.Time.Total = res.Time.Solve
	res.EL1, res.EL1Final, res.BestIter = tr.Best.EL1, tr.Final, tr.Best.Iter
	res.History = tr.History
	res.Status = fmt.Sprintf("%d Adam steps", tr.Steps)
	if tr.Diverged {
		res.Status += fmt.Sprintf(", diverged (non-finite loss) at step %d", tr.Steps+1)
	}
	res.Params = tr.Params
	return res, nil
}
