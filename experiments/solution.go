package experiments

import (
	"fmt"
	"slices"
)

// SolutionIters returns the LSQR iterations of a problem's solution-figure
// run in a tier: the paper's 15000, or in the quick tier the problem's
// QuickIters if it has any (3000 for the 2D problems: a few seconds instead
// of 15-25 s each). The figures say which was used.
func SolutionIters(tier, prob string) int {
	if p, err := ProblemNamed(prob); err == nil && tier == QuickTier && p.QuickIters > 0 {
		return p.QuickIters
	}
	return FullIters
}

// SolutionSpec returns the run of the paper's solution figure of a problem
// (its Solution configuration, seed 0, keeping its coefficients:
// Spec.Coef): the oscillator with ω0 = 80, J = [1, 10, 20], K = 12; the
// Laplacian with n_ω = 4 and the Helmholtz problem with ω = 8, both
// J = [1, 8, 16], K = 16.
func SolutionSpec(prob string, iters int) (Spec, error) {
	p, err := ProblemNamed(prob)
	if err != nil {
		return Spec{}, fmt.Errorf("no solution figure: %w", err)
	}
	c := p.Solution
	s := Spec{Problem: prob, Model: ELM, Param: c.Param, J: slices.Clone(c.J), K: c.K, Delta: fullDelta, R: fullR,
		Iters: iters, Coef: true}
	return s, s.Validate()
}

// SolutionRuns returns the runs of the solution figures that belong to the
// given tables in a tier: one per problem whose baseline table has an ELM-FBPINN row in the tier, tied
// to that row. repro run makes them beside the table runs; the report reads
// them like any result.
func SolutionRuns(tables []*Table, tier string) ([]Run, error) {
	var runs []Run
	done := map[string]bool{}
	for _, t := range tables {
		if t.Kind != Baseline {
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
