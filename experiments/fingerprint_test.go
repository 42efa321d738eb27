package experiments

import "testing"

// TestFingerprint: each model's fingerprint is stable within a process, hex,
// made from canaries that all run (a failing canary would show in its text),
// and its own: the three models compute different things. An unknown model
// has none.
func TestFingerprint(t *testing.T) {
	seen := map[string]string{}
	for _, m := range Models {
		f := Fingerprint(m)
		if len(f) != 16 || f != Fingerprint(m) {
			t.Fatalf("Fingerprint(%s) = %q, want 16 stable hex digits", m, f)
		}
		for _, c := range f {
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
				t.Fatalf("Fingerprint(%s) = %q: not hex (a canary failed?)", m, f)
			}
		}
		if o, ok := seen[f]; ok {
			t.Errorf("Fingerprint(%s) = Fingerprint(%s) = %s, want one per model", m, o, f)
		}
		seen[f] = m
	}
	if f := Fingerprint("nope"); f != "" {
		t.Errorf("Fingerprint(nope) = %q, want none", f)
	}
	for _, s := range canaries {
		if err := s.Validate(); err != nil {
			t.Errorf("canary %s: %v", s, err)
		}
	}
}

// TestInspectStale: a result is Done only with its own model's fingerprint
// in this binary; with another model's, the fingerprint of the numerics
// before per-model fingerprints (fd613ab79ffe4697, that of every published
// result at the time), or none, it is Stale.
func TestInspectStale(t *testing.T) {
	rows := Tables()[0].Rows // osc-baseline: one row per model
	for _, r := range rows {
		for _, c := range []struct {
			numerics string
			want     State
		}{
			{Fingerprint(r.Model), Done},
			{Fingerprint(otherModel(r.Model)), Stale},
			{"fd613ab79ffe4697", Stale},
			{"", Stale},
		} {
			res := resultOf(0, 1e-3)
			res.Spec = r.Spec(0)
			res.Spec.Iters = 100 // the history's schedule (resultOf)
			res.Key = res.Spec.Key()
			res.Env.Numerics = c.numerics
			dir := t.TempDir()
			if err := Save(dir, res); err != nil {
				t.Fatal(err)
			}
			if st, err := Inspect(dir, res.Spec, nil); st != c.want || err != nil {
				t.Errorf("%s with numerics %q: Inspect = %v, %v; want %v", r.Model, c.numerics, st, err, c.want)
			}
		}
	}
}

// otherModel returns a model other than m.
func otherModel(m string) string {
	if m == ELM {
		return PINN
	}
	return ELM
}
