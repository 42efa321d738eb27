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
