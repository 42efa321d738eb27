package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRunUnwritable: a -results that is not a writable directory stops run
// before any run starts, with one line and exit status 3, within a second.
func TestRunUnwritable(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	ro := filepath.Join(dir, "ro")
	if err := os.Mkdir(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, results, want string
		skip                string
	}{
		{"a file", file, "is not a directory", ""},
		{"under a file", filepath.Join(file, "results"), "not a directory", ""},
		{"read-only directory", ro, "permission denied", rootSkip()},
		{"under a read-only directory", filepath.Join(ro, "results"), "permission denied", rootSkip()},
		// Even root cannot create files in sysfs: the read-only case
		// where permissions do not bite.
		{"sysfs", "/sys/kernel", "not writable", sysfsSkip()},
	}
	for i, tc := range cases {
		if tc.skip != "" {
			t.Logf("case %d (%s): skipped: %s", i, tc.name, tc.skip)
			continue
		}
		start := time.Now()
		stdout, stderr, code := runRepro(t, "run", "-table", "osc-baseline", "-tier", "quick", "-results", tc.results)
		el := time.Since(start)
		if code != exitStorage || stdout != "" || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("case %d (%s): exit %d, stdout %q, stderr %q; want status %d and one line containing %q", i, tc.name, code, stdout, stderr, exitStorage, tc.want)
		}
		if el > time.Second {
			t.Errorf("case %d (%s): took %v, want under a second", i, tc.name, el)
		}
	}
	if entries, _ := os.ReadDir(ro); len(entries) != 0 {
		t.Errorf("%d entries left in the read-only directory", len(entries))
	}
}

func rootSkip() string {
	if os.Geteuid() == 0 {
		return "running as root: permissions do not bite"
	}
	return ""
}

func sysfsSkip() string {
	f, err := os.CreateTemp("/sys/kernel", ".probe-*")
	if err == nil {
		f.Close()
		os.Remove(f.Name())
		return "/sys/kernel is writable here"
	}
	if _, err := os.Stat("/sys/kernel"); err != nil {
		return "no /sys/kernel"
	}
	return ""
}
