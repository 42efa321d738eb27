package experiments

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestCostFit compares Cost, less runOverhead, with the measured Total +
// Kappa of the runs of a results directory (the runs of every table timed
// on a core of their own: contended runs are left out, and κ runs made
// with another cap than the default), per model and problem: the median,
// least and greatest ratio measured/estimated. It is how the constants of
// Cost are refitted:
//
//	COST_RESULTS=results go test ./experiments -run TestCostFit -v
//
// COST_CALIBRATION names a machine's calibration (the JSON file repro run
// keeps in <results>/.calibration/): the estimates are then Cost scaled by
// it, and the test also reports, per model, how many runs lie within 1.5x
// of their estimate (how the calibration is checked).
//
// COST_CPU keeps only the results made on a CPU whose name contains it,
// COST_KERNEL those made on that kernel path (results of several machines
// differ in speed; two CPUs may have one name). Skipped without
// COST_RESULTS. It fails if a group's median ratio is
// outside [0.5, 2] (the estimate's promise).
func TestCostFit(t *testing.T) {
	dir := os.Getenv("COST_RESULTS")
	if dir == "" {
		t.Skip("set COST_RESULTS to a results directory")
	}
	var runs []Run
	for _, tb := range Tables() {
		rs, err := tb.Runs(Full)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, rs...)
	}
	results, _, err := LoadAll(dir, runs)
	if err != nil {
		t.Fatal(err)
	}
	var cal *Calibration
	if path := os.Getenv("COST_CALIBRATION"); path != "" {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		cal = new(Calibration)
		if err := json.Unmarshal(b, cal); err != nil {
			t.Fatal(err)
		}
	}
	within := map[string][2]int{} // model -> runs within 1.5x, runs
	ratios := map[string][]float64{}
	var est, meas float64
	cpu, kernel := os.Getenv("COST_CPU"), os.Getenv("COST_KERNEL")
	for _, r := range results {
		if r.Env.Contended || r.Time.Total <= 0 || !strings.Contains(r.Env.CPU, cpu) || (kernel != "" && r.Env.Kernel != kernel) {
			continue
		}
		if r.Spec.Kappa && r.KappaCells != DefaultKappaCells {
			continue // Cost assumes the default cap
		}
		k := fmt.Sprintf("%s/%s", r.Spec.Model, r.Spec.Problem)
		if r.Spec.Iters == 0 {
			k += "/kappa"
		}
		// Cost estimates the run's whole time, κ included, and the
		// process around it; Total leaves κ out (as the paper's times do)
		// and the process is not timed.
		e, w := cal.Cost(r.Spec)-runOverhead, r.Time.Total+r.Time.Kappa
		ratios[k] = append(ratios[k], w/e)
		c := within[r.Spec.Model]
		if q := w / e; q >= 1/1.5 && q <= 1.5 {
			c[0]++
		}
		c[1]++
		within[r.Spec.Model] = c
		est += e
		meas += w
	}
	keys := make([]string, 0, len(ratios))
	for k := range ratios {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v := ratios[k]
		slices.Sort(v)
		med := v[len(v)/2]
		t.Logf("%-22s %4d runs: measured/estimated median %.2f, range %.2f-%.2f", k, len(v), med, v[0], v[len(v)-1])
		if !(med >= 0.5 && med <= 2) || math.IsNaN(med) {
			t.Errorf("%s: median ratio %.2f outside [0.5, 2]", k, med)
		}
	}
	for _, m := range Models {
		if c := within[m]; c[1] > 0 {
			t.Logf("%s: %d of %d runs within 1.5x of the estimate", m, c[0], c[1])
		}
	}
	t.Logf("all %s: measured %.2f h, estimated %.2f h", filepath.Base(dir), meas/3600, est/3600)
}
