package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"elmfbpinn/experiments"
)

// TestHostileCommandLines runs the malformed command lines of issue 33
// (defects 3, 4, 5, 7, 13, 14): each is refused at once with one line that
// names what is wrong, the exit status of its kind (2 bad input, 3
// storage), and no terminal escape echoed raw.
func TestHostileCommandLines(t *testing.T) {
	dir := t.TempDir()
	res := filepath.Join(dir, "results")
	locked := filepath.Join(dir, "locked")
	if err := os.MkdirAll(locked, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(locked, ".locks"), nil, 0o644); err != nil { // touch R/.locks
		t.Fatal(err)
	}
	q := []string{"-tier", "quick", "-table", "osc-K"}
	cases := []struct {
		args []string
		code int
		want string
	}{
		{append([]string{"run", "-results", res, "-shard", "0/9223372036854775807"}, q...), 2, "9223372036854775807 shards for 42 runs; want n at most 42"},
		{append([]string{"run", "-results", res, "-shard", "0/10000000000"}, q...), 2, "want n at most 42"},
		{append([]string{"run", "-results", res, "-shard", "5/1000000000"}, q...), 2, "want n at most 42"},
		{append([]string{"run", "-results", res, "-shard", "0 /2"}, q...), 2, `bad -shard "0 /2"`},
		{[]string{"list", "-results", res, "-table", ""}, 2, `invalid value "" for flag -table: empty`},
		{[]string{"list", "-results", res, "-table", "osc-K\n"}, 2, `invalid value "osc-K\n" for flag -table: holds a control character`},
		{[]string{"list", "-results", res, "-where", ";"}, 2, `-where ";": an empty item`},
		{[]string{"list", "-results", res, "-where", "K=8;;"}, 2, `-where "K=8;;": an empty item`},
		{[]string{"list", "-results", res, "-where", "K=8,,16"}, 2, `has an empty value`},
		{[]string{"list", "-results", res, "-seeds", ""}, 2, `invalid value "" for flag -seeds: empty`},
		{[]string{"list", "-results", res, "-table", "osc-K,"}, 2, `-table "osc-K,": an empty item`},
		{[]string{"list", "-results", "\x1b]0;pwned\a\x1b[2J"}, 2, `invalid value "\x1b]0;pwned\a\x1b[2J" for flag -results`},
		{[]string{"compare", "\x1b[2J", res}, 2, `argument "\x1b[2J"`},
		{[]string{"solve", "-problem", "oscillator", "-delta", "1e308"}, 2, "delta = 1e+308: the width ratio must be at most 1e+06"},
		{[]string{"solve", "-problem", "oscillator", "-R", "1e308"}, 2, "R = 1e+308: the weight scale must be at most 1e+06"},
		{[]string{"solve", "-problem", "oscillator", "-omega0", "1e300"}, 2, "omega0 = 1e+300: must be at most 1e+06"},
		{[]string{"slurm", "-tier", "quick", "-results", "", "-out", filepath.Join(dir, "j.sbatch")}, 2, `invalid value "" for flag -results: empty`},
		{[]string{"slurm", "-tier", "quick", "-report-out", "", "-out", filepath.Join(dir, "j.sbatch")}, 2, `invalid value "" for flag -report-out: empty`},
		{append([]string{"run", "-results", locked}, q...), 3, "cannot make its lock directory .locks: not a directory"},
	}
	for i, c := range cases {
		start := time.Now()
		_, stderr, code := runRepro(t, c.args...)
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("case %d (%q): took %v, want it refused at once", i, c.args, d)
		}
		if code != c.code || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 || strings.ContainsAny(stderr, "\x1b\a") {
			t.Errorf("case %d (%q): exit %d, stderr %q; want exit %d and one line, no raw escape, containing %q", i, c.args, code, stderr, c.code, c.want)
		}
	}
	if _, err := os.Stat(res); err == nil {
		t.Errorf("a refused command made %s", res)
	}
}

// TestProbesCleaned: a probe left by a killed repro run (.probe-<pid>-*,
// its pid gone; issue 33, defect 9) is removed by the next run's probe, a
// live process's is kept, and both are temporary files, not archives.
func TestProbesCleaned(t *testing.T) {
	dir := t.TempDir()
	dead := filepath.Join(dir, experiments.ProbePrefix(1<<22+12345)+"x") // above pid_max's default
	live := filepath.Join(dir, experiments.ProbePrefix(os.Getpid())+"y")
	for _, p := range []string{dead, live} {
		if err := os.WriteFile(p, []byte("probe\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := checkWritable(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dead); err == nil {
		t.Errorf("the dead writer's probe %s is left", dead)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("the live writer's probe was removed: %v", err)
	}
	if !experiments.IsTemp(filepath.Base(live)) {
		t.Errorf("IsTemp(%q) = false", filepath.Base(live))
	}
}

// TestReportFilesHostile: a .report-files that is a FIFO, a link to
// /dev/zero or a 20 MB line (issue 33, defect 15: a hang, exit 1 after
// writing, 556 MB) stops repro report at once with one line, before it
// writes anything.
func TestReportFilesHostile(t *testing.T) {
	results := filepath.Join("..", "..", "reports", "testdata", "results")
	cases := []struct {
		name string
		make func(path string) error
		want string
	}{
		{"FIFO", func(p string) error { return syscall.Mkfifo(p, 0o644) }, "not a regular file: a named pipe (FIFO)"},
		{"link to /dev/zero", func(p string) error { return os.Symlink("/dev/zero", p) }, "not a regular file: a symbolic link"},
		{"a 20 MB line", func(p string) error { return os.WriteFile(p, []byte(strings.Repeat("x", 20<<20)), 0o644) }, "is more than 1048576 bytes"},
	}
	for _, c := range cases {
		out := filepath.Join(t.TempDir(), "report")
		if err := os.MkdirAll(out, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := c.make(filepath.Join(out, reportFiles)); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		_, stderr, code := runRepro(t, "report", "-tier", "quick", "-table", "osc-baseline", "-results", results, "-out", out, "-format", "md")
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s: took %v", c.name, d)
		}
		if code != 2 || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%s: exit %d, stderr %q; want 2 and one line containing %q", c.name, code, stderr, c.want)
		}
		if _, err := os.Stat(filepath.Join(out, "REPORT.md")); err == nil {
			t.Errorf("%s: the report was written", c.name)
		}
	}
}

// TestPublishDamagedArchive: a damaged published archive (issue 33, defect
// 8: its message promised that -prune would replace it, and -prune failed
// the same way) is bad input naming it, and -prune replaces it.
func TestPublishDamagedArchive(t *testing.T) {
	results := filepath.Join("..", "..", "reports", "testdata", "results")
	out := filepath.Join(t.TempDir(), "pub")
	pub := func(extra ...string) (string, int) {
		_, stderr, code := runRepro(t, append([]string{"publish", "-table", "osc-baseline", "-results", results, "-out", out}, extra...)...)
		return stderr, code
	}
	if stderr, code := pub(); code != 0 {
		t.Fatalf("publish: exit %d: %s", code, stderr)
	}
	archive := filepath.Join(out, "results", "osc-baseline"+experiments.ArchiveExt)
	if err := os.WriteFile(archive, []byte("junk"), 0o644); err != nil {
		t.Fatal(err)
	}
	if stderr, code := pub(); code != 2 || !strings.Contains(stderr, archive+" cannot be read") || !strings.Contains(stderr, "pass -prune to replace it") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("damaged archive: exit %d, stderr %q; want 2 and one line naming it and -prune", code, stderr)
	}
	if stderr, code := pub("-prune"); code != 0 {
		t.Errorf("-prune: exit %d, stderr %q; want the archive replaced", code, stderr)
	}
	if _, err := experiments.Archives(archive); err != nil {
		t.Error(err)
	}
	f, err := os.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if rs, err := experiments.ReadArchive(f); err != nil || len(rs) == 0 {
		t.Errorf("the replaced archive: %d results, %v", len(rs), err)
	}
}

// TestRunBadFilesMoved: repro run moves a result file that is a FIFO, a
// link to /dev/zero or a directory (issue 33, defects 1 and 10) into .bad/,
// naming each, without blocking; a .bad/ that cannot be made is a storage
// error (exit 3, one line).
func TestRunBadFilesMoved(t *testing.T) {
	runs := quickRuns(t, "osc-K")
	dir := filepath.Join(t.TempDir(), "results")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	makes := []func(string) error{
		func(p string) error { return syscall.Mkfifo(p, 0o644) },
		func(p string) error { return os.Symlink("/dev/zero", p) },
		func(p string) error { return os.Mkdir(p, 0o755) },
	}
	for i, mk := range makes {
		if err := mk(experiments.Path(dir, runs[i].Spec)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, experiments.BadDir), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, stderr, code := runRepro(t, "run", "-tier", "quick", "-table", "osc-K", "-results", dir)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("run took %v", d)
	}
	if code != 3 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "moving it aside") {
		t.Errorf(".bad a file: exit %d, stderr %q; want 3 and one line", code, stderr)
	}
	if err := os.Remove(filepath.Join(dir, experiments.BadDir)); err != nil {
		t.Fatal(err)
	}
	// Now the bad files move, and the quick tier of osc-K runs (seconds).
	if testing.Short() {
		t.Skip("the quick tier of osc-K: skipped in -short mode")
	}
	_, stderr, code = runRepro(t, "run", "-tier", "quick", "-table", "osc-K", "-results", dir, "-jobs", "1")
	if code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	for i, want := range []string{"a named pipe (FIFO)", "a symbolic link", "a directory"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("run %d: stderr does not name %q: %s", i, want, stderr)
		}
		if _, err := os.Lstat(filepath.Join(dir, experiments.BadDir, runs[i].Spec.Key()+".json")); err != nil {
			t.Errorf("run %d: not moved to .bad/: %v", i, err)
		}
		if _, ok, err := experiments.Load(dir, runs[i].Spec); !ok || err != nil {
			t.Errorf("run %d: made again: %v, %v", i, ok, err)
		}
	}
}

// TestPrintable: the last guard of every error line escapes control, bidi
// and invisible characters and leaves other text, Greek included, as is.
func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"plain ω0 = 80, e_L1 ≤ 1e-4":    "plain ω0 = 80, e_L1 ≤ 1e-4",
		"\x1b]0;pwned\a\x1b[2J":         `\x1b]0;pwned\a\x1b[2J`,
		"line\nbreak\r":                 `line\nbreak\r`,
		"go1.26\u202e1.og \u200b\u2028": `go1.26\u202e1.og \u200b\u2028`,
		"bad \xff byte":                 `bad \ufffd byte`,
	} {
		if got := printable(in); got != want {
			t.Errorf("printable(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestLockFailureIsStorage: a lock file that cannot be opened in the middle
// of a run (here a directory in its place; a filesystem turned read-only or
// full does the same; issue 33, defect 4: one FAIL line per run and exit 1)
// stops the run with one storage error line, exit 3.
func TestLockFailureIsStorage(t *testing.T) {
	runs := quickRuns(t, "osc-baseline")
	dir := filepath.Join(t.TempDir(), "results")
	if err := os.MkdirAll(filepath.Join(dir, ".locks", runs[0].Spec.Key()+".lock"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runRepro(t, "run", "-tier", "quick", "-table", "osc-baseline", "-results", dir, "-jobs", "1")
	if code != 3 || strings.Count(stderr, "cannot open the lock file") != 1 || strings.Contains(stderr, "FAIL") {
		t.Errorf("exit %d, stderr %q; want 3 and one line naming the lock file", code, stderr)
	}
}

// quickRuns returns the runs of table id in the quick tier.
func quickRuns(t *testing.T, id string) []experiments.Run {
	t.Helper()
	tabs, err := experiments.Lookup(id)
	if err != nil {
		t.Fatal(err)
	}
	runs, err := tabs[0].Runs(experiments.QuickTier)
	if err != nil {
		t.Fatal(err)
	}
	return runs
}
