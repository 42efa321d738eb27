package main

import (
	"strings"
	"testing"

	"elmfbpinn/experiments"
)

// TestCheckFingerprints: results of one fingerprint pass; mixed ones are
// refused with both fingerprints named, unless allowed.
func TestCheckFingerprints(t *testing.T) {
	res := func(key, fp string) *experiments.Result {
		r := &experiments.Result{Key: key}
		r.Env.Numerics = fp
		return r
	}
	one := map[string]*experiments.Result{"a": res("a", "f1"), "b": res("b", "f1")}
	if err := checkFingerprints(one, false); err != nil {
		t.Errorf("one fingerprint: %v, want no error", err)
	}
	mixed := map[string]*experiments.Result{"a": res("a", "f1"), "b": res("b", ""), "c": res("c", "f2")}
	err := checkFingerprints(mixed, false)
	if err == nil {
		t.Fatal("mixed fingerprints: no error, want a refusal")
	}
	for _, want := range []string{"f1: 1 runs (e.g. a.json)", "f2: 1 runs (e.g. c.json)", "made before fingerprints", "-allow-mixed"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	if err := checkFingerprints(mixed, true); err != nil {
		t.Errorf("mixed with -allow-mixed: %v, want no error", err)
	}
}
