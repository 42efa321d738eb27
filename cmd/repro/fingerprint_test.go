package main

import (
	"strings"
	"testing"

	"elmfbpinn/experiments"
)

// TestCheckFingerprints: results of one fingerprint per model pass, also
// when the models' fingerprints differ; a model with mixed ones is refused
// with its fingerprints named, unless allowed.
func TestCheckFingerprints(t *testing.T) {
	res := func(key, model, fp string) *experiments.Result {
		r := &experiments.Result{Key: key}
		r.Spec.Model = model
		r.Env.Numerics = fp
		return r
	}
	one := map[string]*experiments.Result{"a": res("a", experiments.ELM, "f1"), "b": res("b", experiments.ELM, "f1"),
		"c": res("c", experiments.PINN, "f2")}
	if err := checkFingerprints(one, false); err != nil {
		t.Errorf("one fingerprint per model: %v, want no error", err)
	}
	mixed := map[string]*experiments.Result{"a": res("a", experiments.ELM, "f1"), "b": res("b", experiments.ELM, ""),
		"c": res("c", experiments.ELM, "f2"), "d": res("d", experiments.PINN, "f3")}
	err := checkFingerprints(mixed, false)
	if err == nil {
		t.Fatal("mixed fingerprints: no error, want a refusal")
	}
	for _, want := range []string{"elm f1: 1 runs (e.g. a.json)", "elm f2: 1 runs (e.g. c.json)", "made before fingerprints", "-allow-mixed"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "pinn f3") {
		t.Errorf("error %q names the PINN's fingerprint, which is not mixed", err)
	}
	if err := checkFingerprints(mixed, true); err != nil {
		t.Errorf("mixed with -allow-mixed: %v, want no error", err)
	}
}
