package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"elmfbpinn/experiments"
	"elmfbpinn/paperdata"
)

// problemFlags maps each problem to its parameter flag.
var problemFlags = map[string]string{
	experiments.Oscillator: "omega0",
	experiments.Laplace:    "nomega",
	experiments.Helmholtz:  "omega",
}

func cmdSolve(args []string) error {
	fs := newFlags("solve", "-problem P -model M [flags] [-json]")
	prob := fs.String("problem", experiments.Oscillator, "problem: oscillator, laplace or helmholtz")
	model := fs.String("model", experiments.ELM, "model: elm, fbpinn or pinn")
	omega0 := fs.Float64("omega0", 80, "oscillator: natural frequency omega0")
	nomega := fs.Int("nomega", 4, "laplace: number of frequency components n_omega (1..7)")
	omega := fs.Float64("omega", 8, "helmholtz: frequency omega")
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
	cells := fs.Int("kappa-cells", experiments.DefaultKappaCells, "largest dense M (rows x cols) whose kappa is computed")
	asJSON := fs.Bool("json", false, "print one JSON object")
	maxMem := addMemFlag(fs)
	if err := parse(fs, args); err != nil {
		return ignoreHelp(err)
	}
	pf, ok := problemFlags[*prob]
	if !ok {
		return usagef("unknown problem %q: want oscillator, laplace or helmholtz", *prob)
	}
	var bad error
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "K" && *k < 1 && bad == nil {
			bad = usagef("-K %d: need at least 1 feature per subdomain", *k)
		}
		for p, name := range problemFlags {
			if f.Name == name && p != *prob && bad == nil {
				bad = usagef("-%s applies to -problem %s, not %s", name, p, *prob)
			}
		}
	})
	if bad != nil {
		return bad
	}
	s := experiments.Spec{Problem: *prob, Model: *model, K: *k, Delta: *delta, R: *r, Iters: *iters, Seed: *seed}
	switch pf {
	case "omega0":
		s.Param = *omega0
	case "nomega":
		s.Param = float64(*nomega)
	case "omega":
		s.Param = *omega
	}
	base := map[string][2]int{experiments.Oscillator: {20, 12}, experiments.Laplace: {16, 16}, experiments.Helmholtz: {16, 16}}[*prob]
	if *js == "" {
		s.J = []int{base[0]}
	} else {
		J, err := parseJ(*js)
		if err != nil {
			return err
		}
		s.J = J
	}
	if s.K == 0 {
		s.K = base[1]
	}
	if *steps != 0 {
		if s.Model == experiments.ELM {
			return usagef("-steps counts Adam steps (fbpinn, pinn); use -iters for the ELM's LSQR iterations")
		}
		s.Iters = *steps
	}
	if s.Model == experiments.PINN {
		s.Width = *width
	}
	if *iters < 1 || *steps < 0 {
		return usagef("-iters and -steps must be positive")
	}
	if *cells < 0 {
		return usagef("-kappa-cells %d must not be negative", *cells)
	}
	s.Kappa = *cond
	s.Solver = *solver
	set := &experiments.Settings{KappaCells: *cells}
	if err := s.Validate(); err != nil {
		return usageError{err.Error()}
	}
	limit, why, err := memLimit(*maxMem)
	if err != nil {
		return err
	}
	if err := checkMemory(s, set, limit, why); err != nil {
		return err
	}

	start := time.Now()
	res, err := experiments.Execute(s, set)
	if err != nil {
		return err
	}
	res.Env = environment(start)
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
