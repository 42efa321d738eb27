package experiments

import (
	"math"
	"testing"

	"elmfbpinn/core/problem"
)

// TestProblemRegistry checks each registry entry against the core problem
// it constructs: the counts Points and Subdomains give (what Cost and
// Memory start from) are the points the problem samples and the subdomains
// its decomposition keeps; Inside agrees with the subdomains the problem
// drops; the outline is closed and inside the box; the baseline and the
// solution figure's run are valid specs; the flags are distinct.
func TestProblemRegistry(t *testing.T) {
	flags := map[string]bool{}
	for _, p := range Problems {
		if flags[p.Param.Flag] {
			t.Errorf("%s: flag -%s is taken by another problem", p.Name, p.Param.Flag)
		}
		flags[p.Param.Flag] = true
		core, err := p.New(p.Base.Param)
		if err != nil {
			t.Fatalf("%s: baseline parameter %g: %v", p.Name, p.Base.Param, err)
		}
		if core.Dim() != p.Dim || core.Name() != p.Name {
			t.Errorf("%s: core problem %q of dimension %d, registry says %q, %d", p.Name, core.Name(), core.Dim(), p.Name, p.Dim)
		}
		for _, jk := range [][2]int{{1, 1}, {2, 4}, {4, 8}, {6, 3}} {
			j, k := jk[0], jk[1]
			var n int
			for _, c := range core.Constraints(j, k) {
				n += c.N(p.Dim)
			}
			tn := len(core.Test(j)) / p.Dim
			gn, gt := p.Points(j, k)
			// The counts are the core's, exactly, but for the L-shape's,
			// which take 3/4 of the square's grid (within 10% at j >= 2).
			tol := 0.0
			if p.Inside != nil {
				tol = 0.1 * float64(n)
				if j == 1 {
					tol = float64(n)
				}
			}
			if math.Abs(gn-float64(n)) > tol || math.Abs(gt-float64(tn)) > 2*tol {
				t.Errorf("%s J=%d K=%d: Points = %g, %g; the core samples %d, %d", p.Name, j, k, gn, gt, n, tn)
			}
			d, err := problem.Decompose(core, []int{2 * j}, 0)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := p.Subdomains(2*j), len(d.Subdomains); math.Abs(float64(got-want)) > 0.1*float64(want)+1 {
				t.Errorf("%s J=%d: Subdomains = %d, the decomposition keeps %d", p.Name, 2*j, got, want)
			}
		}
		if dr, ok := core.(problem.Dropper); ok != (p.Inside != nil) {
			t.Errorf("%s: Inside set %v, core drops subdomains %v", p.Name, p.Inside != nil, ok)
		} else if ok {
			for _, x := range [][2]float64{{0.2, 0.2}, {0.7, 0.2}, {0.2, 0.7}, {0.7, 0.7}, {0.5, 0.5}, {0.51, 0.51}} {
				if p.Inside(x[0], x[1]) == dr.Drop(x[:]) {
					t.Errorf("%s: Inside(%v) = %v but Drop = %v", p.Name, x, p.Inside(x[0], x[1]), dr.Drop(x[:]))
				}
			}
		}
		if p.Dim == 2 {
			o := p.Outline
			if len(o) < 4 || o[0] != o[len(o)-1] {
				t.Errorf("%s: outline %v is not a closed polygon", p.Name, o)
			}
			lo, hi := core.Box()
			for _, v := range o {
				if v[0] < lo[0] || v[0] > hi[0] || v[1] < lo[1] || v[1] > hi[1] {
					t.Errorf("%s: outline vertex %v outside the box", p.Name, v)
				}
			}
		}
		for _, tier := range Tiers {
			s, err := SolutionSpec(p.Name, SolutionIters(tier, p.Name))
			if err != nil {
				t.Errorf("%s: solution run in the %s tier: %v", p.Name, tier, err)
			} else if s.Key() == "" {
				t.Errorf("%s: no key", p.Name)
			}
		}
	}
	if _, err := ProblemNamed("wave"); err == nil {
		t.Error(`ProblemNamed("wave") found a problem`)
	}
}
