package experiments

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"elmfbpinn/core/elm"
	"elmfbpinn/core/metric"
	"elmfbpinn/core/problem"
	"elmfbpinn/core/train"
)

// The names of the solvers with options, and of the named forced LSQR.
const (
	// ForcedSolver is the paper's forced LSQR (elm.LSQR) under a name of
	// its own: the same bits as the default, other run keys.
	ForcedSolver = "lsqr-forced"
	// StopSolver is LSQR on M stopped by its own tests (elm.StopLSQR):
	// options ATol, BTol, ConLim.
	StopSolver = "lsqr-stop"
	// LSMRSolver is LSMR on M stopped by its own tests (elm.StopLSQR with
	// LSMR): options ATol, BTol, ConLim.
	LSMRSolver = "lsmr-stop"
	// BlockSolver is LSQR with the subdomain block preconditioner
	// (elm.BlockLSQR): options Tau, Stop with ATol, BTol, ConLim, HeldOut
	// with Patience, and LSMR.
	BlockSolver = "lsqr-block"
)

// solver is a least-squares method a Spec may name: how to make it from
// its options for an assembled system, and which options it takes.
type solver struct {
	make func(o SolverOpts, sys *elm.System) (elm.Solver, error)
	// tau: it takes Tau; stop: it takes Stop; tols: it takes ATol, BTol
	// and ConLim (with stop, only when Stop is set); heldout: it takes
	// HeldOut, Patience and LSMR (the options of the block solver).
	tau, stop, tols, heldout bool
}

// solvers are the least-squares methods a Spec may name besides the
// paper's forced LSQR (Spec.Solver ""): a new method is one elm.Solver and
// one entry here.
var solvers = map[string]solver{
	// ForcedSolver is the paper's forced LSQR under a name: the same
	// iterations and bits as Spec.Solver "", but runs of keys of their own,
	// so that a study of solvers times them afresh, beside the others, on
	// one machine, instead of sharing the paper tables' results.
	ForcedSolver:  {make: func(SolverOpts, *elm.System) (elm.Solver, error) { return elm.LSQR{}, nil }},
	"lsqr-scaled": {make: func(SolverOpts, *elm.System) (elm.Solver, error) { return elm.ScaledLSQR{}, nil }},
	StopSolver: {make: func(o SolverOpts, _ *elm.System) (elm.Solver, error) {
		return elm.StopLSQR{Stop: o.rule()}, nil
	}, tols: true},
	LSMRSolver: {make: func(o SolverOpts, _ *elm.System) (elm.Solver, error) {
		return elm.StopLSQR{Stop: o.rule(), LSMR: true}, nil
	}, tols: true},
	BlockSolver: {make: func(o SolverOpts, sys *elm.System) (elm.Solver, error) {
		b := elm.BlockLSQR{Tau: o.Tau, LSMR: o.LSMR}
		if o.Stop {
			r := o.rule()
			b.Stop = &r
		}
		if o.HeldOut {
			m, h, err := sys.HeldOut()
			if err != nil {
				return nil, err
			}
			b.HeldOut = &elm.HeldOut{M: m, H: h, Patience: o.Patience}
		}
		return b, nil
	}, tau: true, stop: true, tols: true, heldout: true},
}

// rule returns LSQR's stopping rule of the options.
func (o SolverOpts) rule() elm.Stop { return elm.Stop{ATol: o.ATol, BTol: o.BTol, ConLim: o.ConLim} }

// Canonical returns the options with every field that equals the solver's
// default set to 0, and nil if none is left: the form a Spec holds, so
// that one run has one key however its options were spelt (-tau 1e-8 and
// no -tau are the same run). Validate refuses options that are not
// canonical.
func (o *SolverOpts) Canonical() *SolverOpts {
	if o == nil {
		return nil
	}
	c := *o
	zero := func(v *float64, def float64) {
		if *v == def {
			*v = 0
		}
	}
	zero(&c.Tau, elm.DefaultTau)
	zero(&c.ATol, elm.DefaultATol)
	zero(&c.BTol, elm.DefaultBTol)
	zero(&c.ConLim, elm.DefaultConLim)
	if c.Patience == elm.DefaultPatience {
		c.Patience = 0
	}
	if c == (SolverOpts{}) {
		return nil
	}
	return &c
}

// check returns an error, in one line, if the options are not ones the
// solver named (already known to be "" or one of solvers) takes.
func (o *SolverOpts) check(name string) error {
	if o == nil {
		return nil
	}
	if name == "" {
		return fmt.Errorf("solver options need a solver (one of %s); the paper's forced LSQR has none", strings.Join(SolverNames(), ", "))
	}
	if *o == (SolverOpts{}) {
		return fmt.Errorf("solver_opts sets no option; leave it out for %s's defaults", name)
	}
	if c := o.Canonical(); c == nil || *c != *o {
		return fmt.Errorf("solver_opts spells a default (tau %g, atol and btol %g, conlim %g, patience %d); leave it out (0), so that the run has one key", elm.DefaultTau, elm.DefaultATol, elm.DefaultConLim, elm.DefaultPatience)
	}
	sv := solvers[name]
	switch {
	case o.Tau != 0 && !sv.tau:
		return fmt.Errorf("tau applies to %s, not %s", BlockSolver, name)
	case !(o.Tau >= 0 && o.Tau < 1):
		return fmt.Errorf("tau = %v: want 0 <= tau < 1 (0: the default, %g)", o.Tau, elm.DefaultTau)
	case o.Stop && !sv.stop:
		return fmt.Errorf("stop applies to %s (%s and %s always stop, the others never)", BlockSolver, StopSolver, LSMRSolver)
	case (o.ATol != 0 || o.BTol != 0 || o.ConLim != 0) && !(sv.tols && (o.Stop || !sv.stop)):
		return fmt.Errorf("atol, btol and conlim are LSQR's stopping tolerances: they apply to %s, %s, or %s with stop, not %s", StopSolver, LSMRSolver, BlockSolver, name)
	case o.HeldOut && !sv.heldout:
		return fmt.Errorf("heldout applies to %s, not %s", BlockSolver, name)
	case o.LSMR && !sv.heldout:
		return fmt.Errorf("lsmr applies to %s (for LSMR on M itself name %s), not %s", BlockSolver, LSMRSolver, name)
	case o.Patience != 0 && !o.HeldOut:
		return fmt.Errorf("patience = %d counts held-out checks; it needs heldout", o.Patience)
	case o.Patience < 0:
		return fmt.Errorf("patience = %d must be positive (0: the default, 10)", o.Patience)
	}
	for _, t := range []struct {
		name string
		v    float64
	}{{"atol", o.ATol}, {"btol", o.BTol}, {"conlim", o.ConLim}} {
		if !(t.v >= 0) || math.IsInf(t.v, 0) {
			return fmt.Errorf("%s = %v: want a finite tolerance >= 0 (0: the default)", t.name, t.v)
		}
	}
	if o.ConLim != 0 && o.ConLim <= 1 {
		return fmt.Errorf("conlim = %v: a condition number limit is above 1 (0: the default, 1e8)", o.ConLim)
	}
	return nil
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
		var method elm.Solver // nil: the paper's forced LSQR
		if s.Solver != "" {
			var o SolverOpts
			if s.SolverOpts != nil {
				o = *s.SolverOpts
			}
			if method, err = solvers[s.Solver].make(o, sys); err != nil {
				return nil, err
			}
		}
		sol, err := sys.Solve(&elm.Settings{Iters: s.Iters, Every: RecordEvery(s.Model), Solver: method, Timed: true, Progress: set.progress(s.Iters)})
		if err != nil {
			return nil, err
		}
		res.Time.Solve = time.Since(t).Seconds()
		res.EL1, res.EL1Final, res.BestIter = sol.Best.EL1, sol.Final, sol.Best.Iter
		res.setHistory(sol.History)
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
		tr, err = train.FBPINN(p, train.FBPINNConfig{J: s.J, K: s.K, Delta: s.Delta, R: s.R, Seed: uint64(s.Seed), Steps: s.Iters, Every: RecordEvery(s.Model), Progress: progress, Timed: true})
	case PINN:
		tr, err = train.PINN(p, train.PINNConfig{J: s.J[len(s.J)-1], K: s.K, Width: s.Width, R: s.R, Seed: uint64(s.Seed), Steps: s.Iters, Every: RecordEvery(s.Model), Progress: progress, Timed: true})
	}
	if err != nil {
		return nil, err
	}
	res := &Result{Key: s.Key(), Spec: s}
	res.Time.Solve = time.Since(start).Seconds()
	res.Time.Total = res.Time.Solve
	res.EL1, res.EL1Final, res.BestIter = tr.Best.EL1, tr.Final, tr.Best.Iter
	res.setHistory(tr.History)
	res.Status = fmt.Sprintf("%d Adam steps", tr.Steps)
	if tr.Diverged {
		res.Status += fmt.Sprintf(", diverged (non-finite loss) at step %d", tr.Steps+1)
	}
	res.Params = tr.Params
	return res, nil
}
