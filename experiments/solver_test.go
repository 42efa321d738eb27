package experiments

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"elmfbpinn/core/elm"
	"elmfbpinn/core/metric"
	"elmfbpinn/core/sparse"
)

// TestSolverField checks the Spec's solver field: "" (the paper's LSQR) is
// left out of the encoding, so the keys of existing runs stay (TestKeyPinned
// pins two), a named solver is in the encoding and the key, and Validate
// accepts only a known name on an ELM-FBPINN solve.
func TestSolverField(t *testing.T) {
	base := Tables()[0].Rows[2].Spec(0)
	b, err := json.Marshal(base)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "solver") {
		t.Errorf("the paper's solver encodes as %s, want no solver key", b)
	}
	if !slices.Contains(SolverNames(), "lsqr-scaled") {
		t.Fatalf("SolverNames() = %v, want lsqr-scaled among them", SolverNames())
	}
	scaled := base
	scaled.Solver = "lsqr-scaled"
	if err := scaled.Validate(); err != nil {
		t.Errorf("%s: %v", scaled, err)
	}
	if b, _ := json.Marshal(scaled); !strings.Contains(string(b), `"solver":"lsqr-scaled"`) {
		t.Errorf("a named solver encodes as %s, want \"solver\":\"lsqr-scaled\"", b)
	}
	if scaled.Key() == base.Key() {
		t.Errorf("the solver is not part of the key")
	}
	if !strings.Contains(scaled.String(), "solver=lsqr-scaled") || strings.Contains(base.String(), "solver") {
		t.Errorf("names %q and %q: want the solver in the first only", scaled, base)
	}
	cases := []struct {
		name   string
		change func(*Spec)
		want   string
	}{
		{"unknown", func(s *Spec) { s.Solver = "qr" }, "unknown solver"},
		{"the paper's by name", func(s *Spec) { s.Solver = "lsqr" }, "unknown solver"},
		{"fbpinn", func(s *Spec) { s.Model = FBPINN }, "want model elm"},
		{"kappa only", func(s *Spec) { s.Iters, s.Kappa = 0, true }, "iters >= 1"},
	}
	for _, tc := range cases {
		s := scaled
		tc.change(&s)
		if err := s.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Validate() = %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}

// countingSolver is the paper's LSQR that counts its calls.
type countingSolver struct{ calls int }

func (c *countingSolver) Solve(m *sparse.BlockSparse, h []float64, iters int, progress func(int, []float64)) (*elm.Solution, error) {
	c.calls++
	sol, err := elm.LSQR{}.Solve(m, h, iters, progress)
	if sol != nil {
		sol.Status = "counted " + sol.Status
	}
	return sol, err
}

// TestExecuteSolver checks that Execute solves with the solver the Spec
// names, and with the paper's LSQR when it names none: a new method is one
// elm.Solver and one entry in solvers.
func TestExecuteSolver(t *testing.T) {
	c := &countingSolver{}
	solvers["counting"] = solver{make: func(SolverOpts, *elm.System) (elm.Solver, error) { return c, nil }}
	defer delete(solvers, "counting")
	s := Spec{Problem: Oscillator, Model: ELM, Param: 20, J: []int{4}, K: 4, Delta: 2.9, R: 1, Iters: 50}
	plain, err := Execute(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Solver = "counting"
	counted, err := Execute(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.calls != 1 {
		t.Errorf("the named solver ran %d times, want once", c.calls)
	}
	if counted.Status != "counted "+plain.Status || plain.Status != "IterLimit" {
		t.Errorf("statuses %q and %q, want IterLimit and the named solver's", plain.Status, counted.Status)
	}
	if !slices.Equal(counted.History, plain.History) || counted.Key == plain.Key {
		t.Errorf("the counting LSQR's history differs from the paper's, or the keys are equal")
	}
}

// untimed returns a copy of a history without the records' times, which
// differ from one run to the next (a result keeps them in Elapsed).
func untimed(h []metric.Record) []metric.Record {
	u := slices.Clone(h)
	for i := range u {
		u[i].T = 0
	}
	return u
}

// TestSolverOpts checks the options of the solvers: nil is left out of the
// encoding (no existing key changes), options are in the key and the name,
// and Validate accepts exactly the options each solver takes, with one-line
// errors that say what is wrong.
func TestSolverOpts(t *testing.T) {
	base := Tables()[0].Rows[2].Spec(0)
	base.Solver = BlockSolver
	plain := base
	plain.Solver = ""
	if b, _ := json.Marshal(plain); strings.Contains(string(b), "solver") {
		t.Errorf("the paper's solver encodes as %s, want no solver key", b)
	}
	if b, _ := json.Marshal(base); strings.Contains(string(b), "solver_opts") {
		t.Errorf("a solver without options encodes as %s, want no solver_opts", b)
	}
	tau := base
	tau.SolverOpts = &SolverOpts{Tau: 1e-10}
	if b, _ := json.Marshal(tau); !strings.Contains(string(b), `"solver_opts":{"tau":1e-10}`) {
		t.Errorf("tau encodes as %s, want \"solver_opts\":{\"tau\":1e-10}", b)
	}
	if tau.Key() == base.Key() || !strings.Contains(tau.String(), "solver=lsqr-block tau=1e-10") {
		t.Errorf("an option is not in the key or the name (%s)", tau)
	}
	cases := []struct {
		solver string
		opts   SolverOpts
		want   string // "" valid, else part of the error
	}{
		{BlockSolver, SolverOpts{Tau: 1e-12}, ""},
		{BlockSolver, SolverOpts{Stop: true}, ""},
		{BlockSolver, SolverOpts{Stop: true, ATol: 1e-8, BTol: 1e-8, ConLim: 1e300}, ""},
		{StopSolver, SolverOpts{ATol: 1e-10}, ""},
		{StopSolver, SolverOpts{ConLim: 1e12}, ""},
		{BlockSolver, SolverOpts{HeldOut: true}, ""},
		{BlockSolver, SolverOpts{HeldOut: true, Patience: 3, Stop: true}, ""},
		{BlockSolver, SolverOpts{Patience: 3}, "needs heldout"},
		{BlockSolver, SolverOpts{HeldOut: true, Patience: -1}, "must be positive"},
		{StopSolver, SolverOpts{HeldOut: true}, "heldout applies to lsqr-block"},
		{LSMRSolver, SolverOpts{ATol: 1e-9}, ""},
		{BlockSolver, SolverOpts{LSMR: true, Stop: true}, ""},
		{LSMRSolver, SolverOpts{LSMR: true}, "lsmr applies to lsqr-block"},
		{BlockSolver, SolverOpts{}, "sets no option"},
		{BlockSolver, SolverOpts{Tau: 1}, "0 <= tau < 1"},
		{BlockSolver, SolverOpts{Tau: -1e-9}, "0 <= tau < 1"},
		{BlockSolver, SolverOpts{ATol: 1e-8}, "with stop"},
		{StopSolver, SolverOpts{Tau: 1e-7}, "tau applies to lsqr-block"},
		{StopSolver, SolverOpts{Stop: true}, "always stop"},
		{StopSolver, SolverOpts{ATol: -1}, "atol = -1"},
		{StopSolver, SolverOpts{BTol: math.Inf(1)}, "btol = +Inf"},
		{StopSolver, SolverOpts{ConLim: 0.5}, "above 1"},
		{"lsqr-scaled", SolverOpts{ATol: 1e-8}, "not lsqr-scaled"},
		{"", SolverOpts{Tau: 1e-7}, "need a solver"},
		{BlockSolver, SolverOpts{Tau: 1e-8}, "spells a default"},
		{StopSolver, SolverOpts{ATol: 1e-6, BTol: 1e-9}, "spells a default"},
		{BlockSolver, SolverOpts{HeldOut: true, Patience: 10}, "spells a default"},
	}
	for i, tc := range cases {
		s := base
		s.Solver, s.SolverOpts = tc.solver, &tc.opts
		err := s.Validate()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("case %d (%s %+v): %v, want valid", i, tc.solver, tc.opts, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n")):
			t.Errorf("case %d (%s %+v): Validate() = %v, want one line containing %q", i, tc.solver, tc.opts, err, tc.want)
		}
	}
}

// TestExecuteOptions runs the solvers with options through Execute: the
// options reach the solver (a stopping block solve stops early by LSQR's
// tests and says so; a larger tau keeps fewer directions), and an ELM
// solve's history is timed, positive and non-decreasing.
func TestExecuteOptions(t *testing.T) {
	s := Spec{Problem: Oscillator, Model: ELM, Param: 20, J: []int{1, 4}, K: 8, Delta: 2.9, R: 1, Iters: 2000, Solver: BlockSolver}
	forced, err := Execute(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.SolverOpts = &SolverOpts{Stop: true}
	stopped, err := Execute(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.SolverOpts = &SolverOpts{Tau: 1e-3}
	coarse, err := Execute(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	last := func(r *Result) int { return r.History[len(r.History)-1].Iter }
	if last(forced) != 2000 || !strings.HasPrefix(forced.Status, "IterLimit") {
		t.Errorf("forced block solve: last iteration %d, status %q; want 2000, IterLimit", last(forced), forced.Status)
	}
	if last(stopped) >= 2000 || strings.HasPrefix(stopped.Status, "IterLimit") {
		t.Errorf("stopping block solve: last iteration %d, status %q; want an earlier stop by a test", last(stopped), stopped.Status)
	}
	kept := func(status string) int {
		var k, n int
		i := strings.Index(status, "(block-preconditioned, ")
		if i < 0 {
			return -1
		}
		fmt.Sscanf(status[i:], "(block-preconditioned, %d of %d", &k, &n)
		return k
	}
	if !(kept(coarse.Status) < kept(forced.Status)) {
		t.Errorf("tau 1e-3 kept %q, the default %q: want fewer directions with the larger tau", coarse.Status, forced.Status)
	}
	// The times are kept apart from the history (Elapsed), whose records
	// hold none: History is the same bits in every run.
	if len(forced.Elapsed) != len(forced.History) {
		t.Fatalf("%d times for %d history records", len(forced.Elapsed), len(forced.History))
	}
	for i, e := range forced.Elapsed {
		if !(e > 0) || i > 0 && e < forced.Elapsed[i-1] || forced.History[i].T != 0 {
			t.Errorf("record %d: elapsed %g, t %g; want elapsed positive and non-decreasing, t 0", i, e, forced.History[i].T)
		}
	}
	if h := forced.TimedHistory(); h[len(h)-1].T != forced.Elapsed[len(h)-1] {
		t.Errorf("TimedHistory's last time %g, want Elapsed's %g", h[len(h)-1].T, forced.Elapsed[len(h)-1])
	}
}

// TestCanonical checks SolverOpts.Canonical: defaults spelt out become 0
// (nil when nothing else is left), other values stay, and the canonical
// form is what Validate accepts.
func TestCanonical(t *testing.T) {
	cases := []struct {
		in, want *SolverOpts
	}{
		{nil, nil},
		{&SolverOpts{Tau: elm.DefaultTau}, nil},
		{&SolverOpts{Tau: elm.DefaultTau, Stop: true, ATol: 1e-6, BTol: 1e-6, ConLim: 1e8}, &SolverOpts{Stop: true}},
		{&SolverOpts{Tau: 1e-10, ATol: 1e-6}, &SolverOpts{Tau: 1e-10}},
		{&SolverOpts{HeldOut: true, Patience: 10}, &SolverOpts{HeldOut: true}},
		{&SolverOpts{HeldOut: true, Patience: 3}, &SolverOpts{HeldOut: true, Patience: 3}},
	}
	for i, tc := range cases {
		got := tc.in.Canonical()
		if (got == nil) != (tc.want == nil) || got != nil && *got != *tc.want {
			t.Errorf("case %d: Canonical(%+v) = %+v, want %+v", i, tc.in, got, tc.want)
		}
	}
}
