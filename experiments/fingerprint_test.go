package experiments

import "testing"

// TestFingerprint: the fingerprint is stable within a process, hex, and made
// from canaries that all run (a failing canary would show in its text).
func TestFingerprint(t *testing.T) {
	f := Fingerprint()
	if len(f) != 16 || f != Fingerprint() {
		t.Fatalf("Fingerprint() = %q, want 16 stable hex digits", f)
	}
	for _, c := range f {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			t.Fatalf("Fingerprint() = %q: not hex (a canary failed?)", f)
		}
	}
	for _, s := range canaries {
		if err := s.Validate(); err != nil {
			t.Errorf("canary %s: %v", s, err)
		}
	}
}
