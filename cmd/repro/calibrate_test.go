package main

import (
	"io"
	"testing"

	"elmfbpinn/experiments"
)

// TestCalibrateNothingKept checks that a results directory with no finished
// run and no kept calibration gives no calibration (nil: the cost model's
// estimates as fitted) when no calibration runs are allowed, and that covers
// takes a nil calibration as covering no run instead of crashing on it, as
// it did when a run of more than ten minutes into a new directory asked
// whether calibration runs were needed.
func TestCalibrateNothingKept(t *testing.T) {
	todo := []experiments.Spec{{Problem: "oscillator", Model: experiments.ELM, J: []int{20}, K: 12, Iters: 15000}}
	c := &calibrator{dir: t.TempDir(), log: io.Discard}
	if cal := c.calibrate(nil, todo, false); cal != nil {
		t.Errorf("calibration %v from nothing", cal)
	}
	if covers(nil, todo) || !covers(nil, nil) {
		t.Error("no calibration covers runs, or fails to cover none")
	}
}
