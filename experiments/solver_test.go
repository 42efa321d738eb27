package experiments

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"elmfbpinn/core/elm"
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
	solvers["counting"] = c
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
