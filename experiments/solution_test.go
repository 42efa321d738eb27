package experiments

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// TestSolutionRuns: a baseline table with an ELM-FBPINN row in the tier
// brings the run of its problem's solution figure (coefficients kept, the
// tier's iterations); a sweep brings none, nor a baseline whose ELM row the
// selection left out. The flag leaves every table run's key as it was.
func TestSolutionRuns(t *testing.T) {
	for _, tc := range []struct {
		tables string
		tier   string
		want   []string // the specs' String
	}{
		{"osc-baseline", QuickTier, []string{"oscillator/elm param=80 J=[1,10,20] K=12 iters=15000 seed=0 coef"}},
		{"laplace-baseline,osc-K", QuickTier, []string{"laplace/elm param=4 J=[1,8,16] K=16 iters=3000 seed=0 coef"}},
		{"helmholtz-baseline", Full, []string{"helmholtz/elm param=8 J=[1,8,16] K=16 iters=15000 seed=0 coef"}},
		{"osc-K,osc-J,weight-scaling", Full, nil},
	} {
		tables, err := Lookup(tc.tables)
		if err != nil {
			t.Fatal(err)
		}
		runs, err := SolutionRuns(tables, tc.tier)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range runs {
			got = append(got, r.Spec.String())
			if !r.Spec.Coef || r.Table.Rows[r.Row].Model != ELM {
				t.Errorf("%s: run %s of row %d", tc.tables, r.Spec, r.Row)
			}
		}
		if strings.Join(got, "; ") != strings.Join(tc.want, "; ") {
			t.Errorf("%s (%s): runs %q, want %q", tc.tables, tc.tier, got, tc.want)
		}
	}
	// Without its ELM-FBPINN row (e.g. -model pinn) a baseline has none.
	base, _ := Lookup("osc-baseline")
	pinn := *base[0]
	pinn.Rows = []Row{base[0].Rows[0]}
	if runs, _ := SolutionRuns([]*Table{&pinn}, Full); len(runs) != 0 {
		t.Errorf("a baseline without its ELM-FBPINN row: %d solution runs", len(runs))
	}
	// Coef off is left out of the encoding: the key is the one without it.
	s := base[0].Rows[2].Spec(0)
	c := s
	c.Coef = true
	if s.Key() == c.Key() || strings.Contains(string(mustJSON(t, s)), "coef") {
		t.Errorf("keys %s and %s; spec %s", s.Key(), c.Key(), mustJSON(t, s))
	}
}

// TestCoef: a run with Spec.Coef keeps one finite coefficient per column of
// M; Validate refuses it for a gradient-trained model or a κ-only run, and
// Check refuses coefficients that are missing, of the wrong count, not
// finite, or not asked for.
func TestCoef(t *testing.T) {
	s := Spec{Problem: Oscillator, Model: ELM, Param: 20, J: []int{1, 2}, K: 4, Delta: 2.9, R: 1, Iters: 20, Coef: true}
	r, err := Execute(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Coef) != r.Cols || r.Cols == 0 {
		t.Fatalf("%d coefficients for %d columns", len(r.Coef), r.Cols)
	}
	if err := Check(r, s.Key()); err != nil {
		t.Errorf("Check: %v", err)
	}
	for _, bad := range []Spec{
		{Problem: Oscillator, Model: PINN, Param: 20, J: []int{2}, K: 4, Width: 8, Delta: 2.9, R: 1, Iters: 20, Coef: true},
		{Problem: Oscillator, Model: ELM, Param: 20, J: []int{2}, K: 4, Delta: 2.9, R: 1, Iters: 0, Coef: true},
	} {
		if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "coef") {
			t.Errorf("%s: Validate = %v, want an error about coef", bad, err)
		}
	}
	for name, f := range map[string]func(r *Result){
		"none":      func(r *Result) { r.Coef = nil },
		"one short": func(r *Result) { r.Coef = r.Coef[1:] },
		"NaN":       func(r *Result) { r.Coef = append([]float64{nan()}, r.Coef[1:]...) },
	} {
		c := *r
		c.Coef = append([]float64(nil), r.Coef...)
		f(&c)
		if err := Check(&c, s.Key()); err == nil {
			t.Errorf("%s: Check accepted %d coefficients", name, len(c.Coef))
		}
	}
	v, _ := validResult(t)
	v.Coef = []float64{1}
	if err := Check(v, v.Key); err == nil || !strings.Contains(err.Error(), "does not ask") {
		t.Errorf("coefficients not asked for: Check = %v", err)
	}
}

func nan() float64 { return math.NaN() }

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
