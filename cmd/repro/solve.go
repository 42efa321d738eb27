package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"elmfbpinn/core/metric"
	"elmfbpinn/experiments"
	"elmfbpinn/paperdata"
)

func cmdSolve(args []string) error {
	fs := newFlags("solve", "-problem P -model M [-omega0|-nomega|-omega X] [-J LIST] [-K N] [-width N] [-R X] [-delta X] [-iters N] [-steps N] [-seed N] [-solver NAME] [-tau X] [-stop] [-atol X] [-btol X] [-conlim X] [-heldout] [-patience N] [-lsmr] [-cond] [-kappa-cells N] [-max-mem SIZE] [-progress D] [-json] [-system FILE]")
	names := experiments.ProblemNames()
	prob := fs.String("problem", names[0], "problem: "+strings.Join(names, ", "))
	model := fs.String("model", experiments.ELM, "model: elm, fbpinn or pinn")
	// One flag per problem's parameter, its default the problem's baseline.
	params := map[string]*float64{}
	for _, p := range experiments.Problems {
		params[p.Name] = fs.Float64(p.Param.Flag, p.Base.Param, p.Param.Usage)
	}
	js := fs.String("J", "", "subdomains per dimension of each level, e.g. 20 or 1,10,20 (default: the problem's baseline)")
	k := fs.Int("K", 0, "features per subdomain (default: the problem's baseline)")
	width := fs.Int("width", 64, "pinn: hidden width")
	r := fs.Float64("R", 1, "weight scale of the random initialisation")
	delta := fs.Float64("delta", 2.9, "width ratio of the subdomains")
	seed := fs.Int("seed", 0, "random seed")
	iters := fs.Int("iters", experiments.FullIters, "LSQR iterations (elm) or Adam steps")
	steps := fs.Int("steps", 0, "Adam steps (fbpinn, pinn); overrides -iters")
	cond := fs.Bool("cond", false, "also compute kappa(M) by a dense SVD")
	solver := fs.String("solver", "", "elm: least-squares method, one of "+strings.Join(experiments.SolverNames(), ", ")+" (default: the paper's forced LSQR)")
	var opts experiments.SolverOpts
	fs.Float64Var(&opts.Tau, "tau", 0, "lsqr-block: drop a block's directions with sigma <= tau sigma_max (0: the default, 1e-8)")
	fs.BoolVar(&opts.Stop, "stop", false, "lsqr-block: stop by LSQR's tests on M P instead of running every iteration")
	fs.Float64Var(&opts.ATol, "atol", 0, "lsqr-stop, lsmr-stop, lsqr-block -stop: LSQR's atol (0: SciPy's 1e-6)")
	fs.Float64Var(&opts.BTol, "btol", 0, "lsqr-stop, lsmr-stop, lsqr-block -stop: LSQR's btol (0: SciPy's 1e-6)")
	fs.Float64Var(&opts.ConLim, "conlim", 0, "lsqr-stop, lsmr-stop, lsqr-block -stop: LSQR's condition limit (0: SciPy's 1e8)")
	fs.BoolVar(&opts.HeldOut, "heldout", false, "lsqr-block: stop by the residual at held-out collocation points and return the iterate where it was least")
	fs.BoolVar(&opts.LSMR, "lsmr", false, "lsqr-block: run LSMR on M P instead of LSQR")
	fs.IntVar(&opts.Patience, "patience", 0, "lsqr-block -heldout: checks (every 100 iterations) without a new least before stopping (0: 10)")
	cells := fs.Int("kappa-cells", experiments.DefaultKappaCells, "largest dense M (rows x cols) whose kappa is computed")
	asJSON := fs.Bool("json", false, "print one JSON object")
	system := fs.String("system", "", "elm: write the assembled system to this file (M) and FILE.rhs (h) in Matrix Market format before solving, for an outside solver (scripts/scipy-lsqr.py)")
	every := fs.Duration("progress", 10*time.Second, "print the iteration and test error on stderr at most this often (0: never)")
	maxMem := addMemFlag(fs)
	if err := parse(fs, args); err != nil {
		return ignoreHelp(err)
	}
	p, err := experiments.ProblemNamed(*prob)
	if err != nil {
		return usageError{err.Error()}
	}
	var bad error
	stepsSet := false
	fs.Visit(func(f *flag.Flag) {
		stepsSet = stepsSet || f.Name == "steps"
		if f.Name == "K" && *k < 1 && bad == nil {
			bad = usagef("-K %d: need at least 1 feature per subdomain", *k)
		}
		for _, q := range experiments.Problems {
			if f.Name == q.Param.Flag && q != p && bad == nil {
				bad = usagef("-%s applies to -problem %s, not %s", f.Name, q.Name, p.Name)
			}
		}
	})
	if bad != nil {
		return bad
	}
	s := experiments.Spec{Problem: p.Name, Model: *model, Param: *params[p.Name], K: *k, Delta: *delta, R: *r,
		Iters: *iters, Seed: *seed}
	if *js == "" {
		s.J = slices.Clone(p.Base.J)
	} else {
		J, err := parseJ(*js)
		if err != nil {
			return err
		}
		s.J = J
	}
	if s.K == 0 {
		s.K = p.Base.K
	}
	if stepsSet {
		if s.Model == experiments.ELM {
			return usagef("-steps counts Adam steps (fbpinn, pinn); use -iters for the ELM's LSQR iterations")
		}
		s.Iters = *steps
	}
	if s.Model == experiments.PINN {
		s.Width = *width
	}
	if s.Iters < 1 {
		return usagef("-iters and -steps must be positive")
	}
	if *cells < 0 {
		return usagef("-kappa-cells %d must not be negative", *cells)
	}
	if *every < 0 {
		return usagef("-progress %v must not be negative", *every)
	}
	s.Kappa = *cond
	s.Solver = *solver
	s.SolverOpts = opts.Canonical() // a default spelt out is the same run
	set := &experiments.Settings{KappaCells: *cells}
	if err := s.Validate(); err != nil {
		return usageError{err.Error()}
	}
	if *system != "" && s.Model != experiments.ELM {
		return usagef("-system writes an ELM-FBPINN's least-squares system: it needs -model elm")
	}
	limit, why, err := memLimit(*maxMem)
	if err != nil {
		return err
	}
	if err := checkMemory(s, set, limit, why); err != nil {
		return err
	}

	if *system != "" {
		if err := writeSystem(*system, s); err != nil {
			return fmt.Errorf("-system %q: %w", *system, err)
		}
	}

	// A long run says first what to expect, then how it gets on: the
	// record of its history last made, at most every -progress.
	if est := experiments.Cost(s); est >= 10 {
		fmt.Fprintf(os.Stderr, "repro solve: %s: about %s (experiments.Cost's estimate, fitted on one Zen 3 core with AVX2); the result follows at the end\n", s, fmtDuration(est))
	}
	start, cpu0 := time.Now(), cpuTime()
	if *every > 0 {
		set.Progress = throttled(*every, start, func(iters int, last, best metric.Record) {
			fmt.Fprintf(os.Stderr, "repro solve: %s %d/%d: test e_L1 %.3e (best %.3e), %s elapsed\n",
				stepWord(s), last.Iter, iters, last.EL1, best.EL1, fmtETA(time.Since(start).Seconds()))
		})
	}
	res, err := experiments.Execute(s, set)
	if err != nil {
		return err
	}
	res.Env = environment(s.Model, start, cpu0)
	if *asJSON {
		out := map[string]any{
			"eL1":       res.EL1,
			"eL1_final": res.EL1Final,
			"time_s":    res.Time.Total,
			"rows":      res.Rows,
			"cols":      res.Cols,
			"nnz":       res.NNZ,
			"result":    res,
		}
		if res.Params > 0 {
			out["params"] = res.Params
		}
		if res.Kappa != nil {
			out["kappa"] = *res.Kappa
		} else if res.KappaNote != "" {
			out["kappa_note"] = res.KappaNote
		}
		enc := json.NewEncoder(os.Stdout)
		return enc.Encode(out)
	}
	fmt.Printf("%s\n", s)
	fmt.Printf("  eL1       %.3e (best, at iteration %d)\n", res.EL1, res.BestIter)
	fmt.Printf("  eL1 final %.3e\n", res.EL1Final)
	fmt.Printf("  time      %.3f s (assembly %.3f s, solve %.3f s)\n", res.Time.Total, res.Time.Assembly, res.Time.Solve)
	if s.Solver != "" {
		fmt.Printf("  solver    %s: %s; stopped at iteration %d\n", s.Solver, res.Status, res.History[len(res.History)-1].Iter)
	}
	if s.Model == experiments.ELM {
		fmt.Printf("  M         %d x %d, %d non-zeros, J = %s\n", res.Rows, res.Cols, res.NNZ, paperdata.FormatJ(s.J))
	} else {
		fmt.Printf("  network   %d trainable parameters, %s\n", res.Params, res.Status)
	}
	if res.Kappa != nil {
		fmt.Printf("  kappa(M)  %.2e\n", *res.Kappa)
	} else if res.KappaNote != "" {
		fmt.Printf("  kappa(M)  %s\n", res.KappaNote)
	}
	return nil
}
