package experiments

import (
	"fmt"
	"slices"
)

// SolutionIters returns the LSQR iterations of the solution figures' runs
// in a tier: the paper's 15000 in the full tier; in the quick tier 15000
// for the oscillator (under a second) and 3000 for the 2D problems (a few
// seconds instead of 15-25 s each). The figures say which was used.
func SolutionIters(tier, prob string) int {
	if tier == QuickTier && prob != Oscillator {
		return 3000
	}
	return FullIters
}

// SolutionSpec returns the run of the paper's solution figure of a problem
// (seed 0, keeping its coefficients: Spec.Coef): the oscillator with
// ω0 = 80, J = [1, 10, 20], K = 12; the Laplacian with n_ω = 4 and the
// Helmholtz problem with ω = 8, both J = [1, 8, 16], K = 16.
func SolutionSpec(prob string, iters int) (Spec, error) {
	s := Spec{Problem: prob, Model: ELM, Delta: 2.9, R: 1, Iters: iters, Coef: true}
	switch prob {
	case Oscillator:
		s.Param, s.J, s.K = 80, []int{1, 10, 20}, 12
	case Laplace:
		s.Param, s.J, s.K = 4, []int{1, 8, 16}, 16
	case Helmholtz:
		s.Param, s.J, s.K = 8, []int{1, 8, 16}, 16
	default:
		return s, fmt.Errorf("no solution figure for problem %q", prob)
	}
	return s, s.Validate()
}

// SolutionRuns returns the runs of the solution figures that belong to the
// given tables in a tier: one per problem whose baseline table (one problem
// parameter, no K, J or R sweep) has an ELM-FBPINN row in the tier, tied
// to that row. repro run makes them beside the table runs; the report reads
// them like any result.
func SolutionRuns(tables []*Table, tier string) ([]Run, error) {
	var runs []Run
	done := map[string]bool{}
	for _, t := range tables {
		if !IsBaseline(t) {
			continue
		}
		i := slices.IndexFunc(t.Rows, func(r Row) bool { return r.Model == ELM && t.InTier(tier, r) })
		if i < 0 || done[t.Rows[i].Problem] {
			continue
		}
		prob := t.Rows[i].Problem
		s, err := SolutionSpec(prob, SolutionIters(tier, prob))
		if err != nil {
			return nil, err
		}
		done[prob] = true
		runs = append(runs, Run{t, i, s})
	}
	return runs, nil
}

// IsBaseline reports whether t compares models at one configuration rather
// than sweeping a parameter: no K, J or R sweep and one problem parameter.
func IsBaseline(t *Table) bool {
	if t.Param == "K" || t.Param == "J" || t.Param == "R" || len(t.Rows) == 0 {
		return false
	}
	for _, r := range t.Rows[1:] {
		if r.Param != t.Rows[0].Param {
			return false
		}
	}
	return true
}
