package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"elmfbpinn/experiments"
)

// calibrationDir is the folder of a results directory that keeps the
// factors of calibration runs, one file per machine and kernel path.
const calibrationDir = ".calibration"

// minCalibrationResults is how many finished runs of a class a factor
// from results needs; a class with fewer is calibrated by runs.
const minCalibrationResults = 3

// calibrator makes a Calibration of this machine for the runs in a results
// directory.
type calibrator struct {
	dir         string // the results directory
	exe, commit string
	cpu         int // the core the calibration runs are pinned to
	pin         bool
	log         io.Writer
}

// calibrationFile is where the factors of this machine's calibration runs
// are kept.
func (c *calibrator) calibrationFile() string {
	name := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' {
			return r
		}
		return '-'
	}, thisMachine().ID()+"-"+experiments.KernelPath())
	return filepath.Join(c.dir, calibrationDir, name+".json")
}

// calibrate returns the factors of this machine and kernel path for the
// runs todo: those of its finished runs (done: timed cleanly on this kind of
// core with this kernel path) where a class has at least
// minCalibrationResults, else those of the calibration runs kept in the
// results directory; with runs, the classes neither covers are calibrated
// by calibration runs made now (a few seconds, pinned to one core like a
// run), kept for next time.
func (c *calibrator) calibrate(done []*experiments.Result, todo []experiments.Spec, runs bool) *experiments.Calibration {
	cal := c.fromResults(done).Merge(c.load())
	if !runs || covers(cal, todo) {
		return cal
	}
	made, err := c.runCalibration()
	if err != nil {
		fmt.Fprintf(c.log, "repro: calibration runs failed (%v): estimates are of the machine the cost model was fitted on\n", err)
		return cal
	}
	return cal.Merge(made)
}

// fromResults returns the factors of the finished runs done that were
// timed cleanly on this kind of core with this kernel path and ran their
// whole budget (Cost counts every iteration; a solver that stops early
// takes less), for the classes with at least minCalibrationResults of
// them.
func (c *calibrator) fromResults(done []*experiments.Result) *experiments.Calibration {
	id, kern := thisMachine().ID(), experiments.KernelPath()
	var ms []experiments.Measured
	for _, r := range done {
		if r.Env.Machine == nil || r.Env.Machine.ID() != id || r.Env.Kernel != kern || r.Env.Contended {
			continue
		}
		if n := len(r.History); n > 0 && r.History[n-1].Iter < r.Spec.Iters {
			continue // stopped early: Cost counts every iteration of the budget
		}
		ms = append(ms, experiments.Measured{Spec: r.Spec, Sec: r.Time.Total + r.Time.Kappa})
	}
	return experiments.NewCalibration(id, kern, fmt.Sprintf("%d finished runs", len(ms)), ms, minCalibrationResults)
}

// machineShort names this machine in a line: its model name and
// microarchitecture, "AMD EPYC (Zen 4)".
func machineShort() string {
	m := thisMachine()
	name := cmp.Or(m.Name, m.Vendor, runtime.GOARCH)
	if m.Uarch != "" {
		name += " (" + m.Uarch + ")"
	}
	return name
}

// covers reports whether cal has a factor for the class of every run (a
// nil cal, no calibration at all, covers none).
func covers(cal *experiments.Calibration, todo []experiments.Spec) bool {
	if cal == nil {
		return len(todo) == 0
	}
	for _, s := range todo {
		if _, ok := cal.Scale[experiments.CostClass(s)]; !ok {
			return false
		}
	}
	return true
}

// load returns the kept calibration of this machine, nil if there is none
// (or it does not read as one).
func (c *calibrator) load() *experiments.Calibration {
	b, err := experiments.ReadRegular(c.calibrationFile(), 1<<16)
	if err != nil {
		return nil
	}
	var cal experiments.Calibration
	if err := json.Unmarshal(b, &cal); err != nil ||
		cal.Model != experiments.CostModel || cal.Machine != thisMachine().ID() || cal.Kernel != experiments.KernelPath() || len(cal.Scale) == 0 {
		return nil
	}
	return &cal
}

// runCalibration makes the calibration runs (experiments.CalibrationSpecs)
// one after the other as children pinned to the calibrator's core, into a
// scratch folder it removes, and keeps their factors in the results
// directory.
func (c *calibrator) runCalibration() (*experiments.Calibration, error) {
	if err := os.MkdirAll(filepath.Join(c.dir, calibrationDir), 0o755); err != nil {
		return nil, err
	}
	scratch, err := os.MkdirTemp(filepath.Join(c.dir, calibrationDir), "runs-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(scratch)
	start := time.Now()
	fmt.Fprintf(c.log, "repro: calibrating the cost estimates to this machine (%s, %s kernels): a few seconds of small runs, kept in %s\n",
		machineShort(), experiments.KernelPath(), filepath.Join(c.dir, calibrationDir))
	var ms []experiments.Measured
	shared := 0
	for _, s := range experiments.CalibrationSpecs() {
		if err := runChild(c.exe, s, nil, scratch, c.commit, "", c.cpu, c.pin, false, func(progressReport) {}); err != nil {
			return nil, fmt.Errorf("%s: %w", s, err)
		}
		r, ok, err := experiments.Load(scratch, s)
		if err != nil || !ok {
			return nil, fmt.Errorf("%s: no result (%v)", s, err)
		}
		sec := r.Time.Total + r.Time.Kappa
		if r.Env.Contended {
			// Its core was shared: the CPU time it had is nearer its time
			// alone than its wall time.
			shared++
			if sh := r.Env.CPUShare; sh > 0 && sh < 1 {
				sec *= sh
			}
		}
		ms = append(ms, experiments.Measured{Spec: s, Sec: sec})
	}
	cal := experiments.NewCalibration(thisMachine().ID(), experiments.KernelPath(), "calibration runs", ms, 1)
	fmt.Fprintf(c.log, "repro: calibrated in %s: measured/estimated %s\n", fmtDuration(time.Since(start).Seconds()), cal)
	if shared > 0 {
		fmt.Fprintf(c.log, "repro: warning: %d of the %d calibration runs shared their core (a busy machine; their CPU time is used): remove %s to calibrate again on a quiet machine\n",
			shared, len(ms), c.calibrationFile())
	}
	b, err := json.MarshalIndent(cal, "", "  ")
	if err != nil {
		return nil, err
	}
	return cal, experiments.WriteFile(c.calibrationFile(), append(b, '\n'))
}
