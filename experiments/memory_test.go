package experiments

import (
	"math"
	"strings"
	"testing"
)

// TestMemoryEstimate checks Memory against the peak resident size of repro
// solve measured once (GNU time's %M, one iteration or step, AMD EPYC,
// 2026-11-25; the PINN's on an Intel Xeon, 2026-11-25, after its training
// pass went in parts): the estimate must stay within a factor 1.5 either
// way, so a change to the formula that loses a term shows here.
func TestMemoryEstimate(t *testing.T) {
	lap := func(m string, j []int, k, w int) Spec {
		return Spec{Problem: Laplace, Model: m, Param: 4, J: j, K: k, Width: w, Delta: 2.9, R: 1, Iters: 1}
	}
	cases := []struct {
		s      Spec
		rssMiB float64 // measured
	}{
		{lap(ELM, []int{16}, 16, 0), 61},
		{lap(ELM, []int{32}, 16, 0), 216},
		{lap(ELM, []int{16}, 64, 0), 293},
		{Spec{Problem: Helmholtz, Model: ELM, Param: 8, J: []int{1, 16, 32}, K: 16, Delta: 2.9, R: 1, Iters: 1}, 362},
		{lap(FBPINN, []int{16}, 16, 0), 62}, // 2026-11-26, 185729c: the networks share their forward scratch
		{lap(PINN, []int{16}, 16, 64), 19.7},
		{lap(PINN, []int{16}, 16, 1024), 78},
		{Spec{Problem: Oscillator, Model: ELM, Param: 80, J: []int{20}, K: 12, Delta: 2.9, R: 1, Iters: 1, Kappa: true}, 14},
	}
	for i, tc := range cases {
		got, err := Memory(tc.s, nil)
		if err != nil {
			t.Errorf("case %d (%s): %v", i, tc.s, err)
			continue
		}
		want := tc.rssMiB * (1 << 20)
		if r := got / want; !(r >= 1/1.5 && r <= 1.5) {
			t.Errorf("case %d (%s): estimate %s, measured %s: ratio %.2f, want within 1.5", i, tc.s, FormatBytes(got), FormatBytes(want), r)
		}
	}
}

// TestMemoryOverflow: sizes no run could index are errors, huge but
// representable ones are estimates, and nothing is allocated either way.
func TestMemoryOverflow(t *testing.T) {
	cases := []struct {
		s       Spec
		wantErr string
		atLeast float64
	}{
		{Spec{Problem: Laplace, Model: ELM, Param: 4, J: []int{5000}, K: 16, Delta: 2.9, R: 1, Iters: 1}, "", 1e12},
		{Spec{Problem: Laplace, Model: ELM, Param: 4, J: []int{16}, K: 100000, Delta: 2.9, R: 1, Iters: 1}, "", 1e12},
		{Spec{Problem: Laplace, Model: PINN, Param: 4, J: []int{16}, K: 16, Width: 100000, Delta: 2.9, R: 1, Iters: 1}, "", 1e11},
		{Spec{Problem: Laplace, Model: PINN, Param: 4, J: []int{16}, K: 16, Width: 2000000000, Delta: 2.9, R: 1, Iters: 1}, "overflow", 0},
		{Spec{Problem: Laplace, Model: PINN, Param: 4, J: []int{16}, K: 16, Width: math.MaxInt, Delta: 2.9, R: 1, Iters: 1}, "overflow", 0},
		{Spec{Problem: Laplace, Model: ELM, Param: 4, J: []int{16}, K: math.MaxInt, Delta: 2.9, R: 1, Iters: 1}, "overflow", 0},
		{Spec{Problem: Helmholtz, Model: FBPINN, Param: 8, J: []int{1 << 40}, K: 16, Delta: 2.9, R: 1, Iters: 1}, "overflow", 0},
	}
	for i, tc := range cases {
		got, err := Memory(tc.s, nil)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("case %d (%s): error %v, want one containing %q", i, tc.s, err, tc.wantErr)
			}
			continue
		}
		if err != nil || !(got >= tc.atLeast) || math.IsInf(got, 0) {
			t.Errorf("case %d (%s): %s, %v; want at least %g bytes", i, tc.s, FormatBytes(got), err, tc.atLeast)
		}
	}
}
