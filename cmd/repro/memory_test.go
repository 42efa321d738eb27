package main

import (
	"fmt"
	"math"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestResourceGuard checks that configurations too large for the machine,
// or whose sizes overflow, are refused before anything is allocated: exit
// status 2, one line with the estimate, well within 2 s.
func TestResourceGuard(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"solve", "-problem", "laplace", "-model", "elm", "-J", "5000"}, "needs an estimated 4.72 TiB of memory"},
		{[]string{"solve", "-problem", "laplace", "-model", "elm", "-K", "100000"}, "needs an estimated 479 TiB of memory"},
		{[]string{"solve", "-problem", "laplace", "-model", "pinn", "-width", "2000000000"}, "overflow"},
		{[]string{"solve", "-problem", "laplace", "-model", "pinn", "-width", "100000"}, "needs an estimated"},
		{[]string{"solve", "-problem", "laplace", "-model", "fbpinn", "-J", "3000"}, "needs an estimated"},
		{[]string{"solve", "-problem", "helmholtz", "-J", "1000000000000"}, "overflow"},
		{[]string{"solve", "-K", fmt.Sprint(math.MaxInt)}, "overflow"},
		{[]string{"solve", "-cond", "-kappa-cells", "1000000000000", "-J", "1000", "-K", "1000"}, "needs an estimated"},
		{[]string{"solve", "-max-mem", "1M"}, "above the limit of 1 MiB (-max-mem 1M)"},
		{[]string{"solve", "-max-mem", "0"}, "bad -max-mem"},
		{[]string{"solve", "-max-mem", "lots"}, "bad -max-mem"},
		{[]string{"run", "-tier", "quick", "-table", "osc-baseline", "-max-mem", "1M"}, "(and 7 more runs; narrow the selection"}, // 6 table runs and the solution figure's
	}
	for i, tc := range cases {
		dir := t.TempDir()
		args := tc.args
		if args[0] == "run" {
			args = append(args, "-results", filepath.Join(dir, "results"))
		}
		start := time.Now()
		checkUsageError(t, fmt.Sprintf("case %d (%v)", i, tc.args), dir, tc.want, args...)
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("case %d (%v): took %v, want under 2 s", i, tc.args, d)
		}
	}
}

// TestExecGuard: the child refuses a spec above -max-mem too (repro run
// passes its limit on), with status 2 and one line.
func TestExecGuard(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(repro, "exec", "-results", dir, "-max-mem", "1G")
	cmd.Stdin = strings.NewReader(`{"problem":"laplace","model":"elm","param":4,"J":[5000],"K":16,"delta":2.9,"R":1,"iters":1,"seed":0}`)
	out, err := cmd.CombinedOutput()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), "needs an estimated") || strings.Count(string(out), "\n") != 1 {
		t.Errorf("repro exec: %v, %q; want exit status 2 and one line with the estimate", err, out)
	}
}
