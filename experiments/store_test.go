package experiments

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"elmfbpinn/core/metric"
)

// validResult returns a valid solve result of the oscillator baseline's
// ELM-FBPINN row for seed 0, solved in 200 iterations (so that its history
// of three records is its whole schedule), and its JSON.
func validResult(t *testing.T) (*Result, []byte) {
	t.Helper()
	s := Tables()[0].Rows[2].Spec(0)
	s.Iters = 200
	r := &Result{Key: s.Key(), Spec: s, EL1: 1e-4, EL1Final: 2e-4, BestIter: 100,
		History: []metric.Record{{Iter: 0, EL1: 1}, {Iter: 100, EL1: 1e-4}, {Iter: 200, EL1: 2e-4}},
		Status:  "IterLimit", Time: Timing{Assembly: 0.01, Solve: 0.05, Total: 0.06}}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return r, b
}

// edit returns the JSON of the valid result after f changed its decoded
// form (a generic map, so that fields can be removed or given wrong types).
func edit(t *testing.T, b []byte, f func(m map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	f(m)
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestLoadBad checks that every kind of bad result file is a
// *BadResultError naming the file and the fault, on one line, and never a
// result.
func TestLoadBad(t *testing.T) {
	r, good := validResult(t)
	other := Tables()[0].Rows[2].Spec(1)
	cases := []struct {
		name string
		data []byte
		want string // a part of the reason
	}{
		{"empty", nil, "empty file"},
		{"blank", []byte(" \n"), "empty file"},
		{"{}", []byte("{}"), `field "key" missing`},
		{"null", []byte("null"), "null"},
		{"array", []byte("[1,2]"), "not a JSON object"},
		{"truncated", good[:len(good)/2], "not a JSON object"},
		{"garbage", []byte{0x00, 0xff, 0x13, 0x37, 'x'}, "not a JSON object"},
		{"wrong schema: eL1 a string", edit(t, good, func(m map[string]any) { m["eL1"] = "small" }), "wrong schema"},
		{"wrong schema: spec a list", edit(t, good, func(m map[string]any) { m["spec"] = []int{1} }), "wrong schema"},
		{"no time", edit(t, good, func(m map[string]any) { delete(m, "time") }), `field "time" missing`},
		{"no history", edit(t, good, func(m map[string]any) { delete(m, "history") }), `field "history" missing`},
		{"empty history", edit(t, good, func(m map[string]any) { m["history"] = []any{} }), "empty history"},
		{"eL1 < 0", edit(t, good, func(m map[string]any) { m["eL1"] = -1e-4 }), "eL1 = -0.0001"},
		{"eL1 = 1e308", edit(t, good, func(m map[string]any) { m["eL1"] = 1e308 }), "eL1 = 1e+308"},
		{"eL1 not the history's minimum", edit(t, good, func(m map[string]any) { m["eL1"] = 3e-4 }), "history's minimum"},
		{"best_iter not the minimum's", edit(t, good, func(m map[string]any) { m["best_iter"] = 200 }), "history's minimum"},
		{"negative time", edit(t, good, func(m map[string]any) { m["time"].(map[string]any)["total_s"] = -1 }), "total_s"},
		{"key of another run", edit(t, good, func(m map[string]any) { m["key"] = other.Key() }), "file's name"},
		{"spec of another run", edit(t, good, func(m map[string]any) { m["spec"].(map[string]any)["seed"] = 1 }), "its spec"},
		{"invalid spec", edit(t, good, func(m map[string]any) { m["spec"].(map[string]any)["K"] = 0 }), "its spec"},
		// The impossible results of issue 33 (defect 2): each passed Check.
		{"one record [{}], eL1 0", edit(t, good, func(m map[string]any) {
			m["history"] = []any{map[string]any{}}
			delete(m, "eL1")
			delete(m, "eL1_final")
			delete(m, "best_iter")
		}), "eL1 = 0, want between 1e-18"},
		{"one record at 0, the solve not stopped early", edit(t, good, func(m map[string]any) {
			m["history"] = []any{map[string]any{"iter": 0, "eL1": 1e-4}}
			m["eL1"], m["eL1_final"], m["best_iter"] = 1e-4, 1e-4, 0
		}), `ends at iteration 0 of 200, but the status "IterLimit"`},
		{"eL1_final = -1", edit(t, good, func(m map[string]any) { m["eL1_final"] = -1 }), "eL1_final = -1, but the history's last record (iteration 200) is 0.0002"},
		{"total_s = 1e6, the parts 0.06", edit(t, good, func(m map[string]any) { m["time"].(map[string]any)["total_s"] = 1e6 }), "total_s = 1e+06, but assembly_s + solve_s = 0.06"},
		{"eL1 = 1e-300", edit(t, good, func(m map[string]any) {
			m["eL1"] = 1e-300
			m["history"].([]any)[1].(map[string]any)["eL1"] = 1e-300
		}), "eL1 = 1e-300"},
		{"a history record of 1e-300", edit(t, good, func(m map[string]any) {
			m["history"].([]any)[0].(map[string]any)["eL1"] = 1e-300
		}), "history record 0 (iteration 0): eL1 = 1e-300"},
		{"a record off the schedule", edit(t, good, func(m map[string]any) { m["history"].([]any)[1].(map[string]any)["iter"] = 50 }), "history record 1 is at iteration 50, want 100"},
		{"the last record beyond the budget", edit(t, good, func(m map[string]any) { m["history"].([]any)[2].(map[string]any)["iter"] = 250 }), "last record is at iteration 250"},
		{"more records than the budget makes", edit(t, good, func(m map[string]any) {
			h := m["history"].([]any)
			for i := 3; i < 9; i++ {
				h = append(h, map[string]any{"iter": i * 100, "eL1": 2e-4})
			}
			m["history"] = h
		}), "a history of 9 records, but 200 iterations recorded every 100 make at most 4"},
		{"kappa 0.5", edit(t, good, func(m map[string]any) { m["kappa"] = 0.5 }), "kappa = 0.5, want finite and at least 1"},
		{"a time of 1e8 s", edit(t, good, func(m map[string]any) {
			tm := m["time"].(map[string]any)
			tm["solve_s"], tm["total_s"] = 1e8, 1e8+0.01
		}), "solve_s = 1e+08"},
		{"larger than any result of its spec", edit(t, good, func(m map[string]any) { m["status"] = strings.Repeat("x", 100000) }), "above the cap"},
	}
	for i, tc := range cases {
		dir := t.TempDir()
		if err := os.WriteFile(Path(dir, r.Spec), tc.data, 0o644); err != nil {
			t.Fatal(err)
		}
		got, ok, err := Load(dir, r.Spec)
		var bad *BadResultError
		if got != nil || ok || !errors.As(err, &bad) {
			t.Errorf("case %d (%s): result %v, ok %v, error %v; want a *BadResultError", i, tc.name, got, ok, err)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, Path(dir, r.Spec)) || !strings.Contains(msg, tc.want) || strings.Contains(msg, "\n") {
			t.Errorf("case %d (%s): error %q, want one line with the path and %q", i, tc.name, msg, tc.want)
		}
		if st, _ := Inspect(dir, r.Spec, nil); st != Bad {
			t.Errorf("case %d (%s): Inspect = %v, want Bad", i, tc.name, st)
		}
		res, badList, err := LoadAll(dir, []Run{{Spec: r.Spec}, {Spec: r.Spec}})
		if err != nil || len(res) != 0 || len(badList) != 1 {
			t.Errorf("case %d (%s): LoadAll gave %d results, %d bad files, error %v; want 0, 1 (once), nil", i, tc.name, len(res), len(badList), err)
		}
	}
	// The valid file loads, and so do a solve that stopped early and says
	// so (LSQR's breakdown: a history shorter than the budget, its last
	// record off the schedule) and a total of 15 significant digits.
	dir := t.TempDir()
	os.WriteFile(Path(dir, r.Spec), good, 0o644)
	if _, ok, err := Load(dir, r.Spec); !ok || err != nil {
		t.Errorf("the valid result: ok %v, error %v", ok, err)
	}
	for _, v := range []struct {
		name string
		data []byte
	}{
		{"breakdown at 150", edit(t, good, func(m map[string]any) {
			m["status"] = "Breakdown"
			m["history"].([]any)[2].(map[string]any)["iter"] = 150
		})},
		{"total of 15 digits", edit(t, good, func(m map[string]any) {
			tm := m["time"].(map[string]any)
			tm["assembly_s"], tm["solve_s"], tm["total_s"] = 0.1, 0.2, 0.300000000000000
		})},
	} {
		os.WriteFile(Path(dir, r.Spec), v.data, 0o644)
		if _, ok, err := Load(dir, r.Spec); !ok || err != nil {
			t.Errorf("%s: ok %v, error %v; want the result", v.name, ok, err)
		}
	}
}

// TestSaveChecks: Save refuses a result Load would refuse, and writes
// nothing.
func TestSaveChecks(t *testing.T) {
	r, _ := validResult(t)
	r.EL1 = -1
	dir := filepath.Join(t.TempDir(), "results")
	if err := Save(dir, r); err == nil {
		t.Error("Save of e_L1 < 0: no error")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("Save left %d files", len(entries))
	}
}

// TestQuarantine moves a bad file into .bad/ keeping its name, and a second
// bad file of the same run beside it with a timestamp suffix.
func TestQuarantine(t *testing.T) {
	r, _ := validResult(t)
	dir := t.TempDir()
	var dsts []string
	for i, data := range []string{"{", "null"} {
		if err := os.WriteFile(Path(dir, r.Spec), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		dst, err := Quarantine(dir, r.Spec)
		if err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(dst); string(b) != data {
			t.Errorf("move %d: %s holds %q, want %q", i, dst, b, data)
		}
		if Exists(dir, r.Spec) {
			t.Errorf("move %d: the bad file is still in the store", i)
		}
		dsts = append(dsts, dst)
	}
	if want := filepath.Join(dir, BadDir, r.Key+".json"); dsts[0] != want {
		t.Errorf("first move to %s, want %s", dsts[0], want)
	}
	if b := filepath.Base(dsts[1]); dsts[1] == dsts[0] || !strings.HasPrefix(b, r.Key+".") || !strings.HasSuffix(b, ".json") {
		t.Errorf("second move to %s, want %s.<time>.json", dsts[1], r.Key)
	}
}

// TestRemoveTemps removes the temporary files of writers that are gone and
// keeps those of a live writer and those that name no writer.
func TestRemoveTemps(t *testing.T) {
	dir := t.TempDir()
	key := "0123456789abcdef"
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	files := map[string]bool{ // name → kept
		tempPrefix(key, dead.Process.Pid) + "123":              false,
		tempPrefix(key, os.Getpid()) + "456":                   true,
		".tmp-" + key + "-789":                                 true, // no pid: whose is unknown
		tempPrefix("fedcba9876543210", dead.Process.Pid) + "1": true, // another run
	}
	for name := range files {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if n := RemoveTemps(dir, key); n != 1 {
		t.Errorf("removed %d files, want 1", n)
	}
	for name, kept := range files {
		if _, err := os.Stat(filepath.Join(dir, name)); (err == nil) != kept {
			t.Errorf("%s: kept %v, want %v", name, err == nil, kept)
		}
	}
}

// TestLoadAllIsLoad checks that LoadAll, and a Listing's Load and Inspect,
// give what Load and Inspect give run by run, on a store of result files,
// archives, bad files, temporary files and missing runs: which results are
// found, which files are bad and why, a result file before an archive's
// line of the run (a bad file too), and the errors of archives that
// disagree or are damaged, and of a run whose file cannot be read.
func TestLoadAllIsLoad(t *testing.T) {
	var runs []Run
	for seed := range 8 {
		runs = append(runs, Run{Spec: resultOf(seed, 0.1).Spec})
	}
	runs = append(runs, runs[1], runs[6]) // a run of two tables is read once
	key := func(seed int) string { return runs[seed].Spec.Key() }
	dir := t.TempDir()
	write := func(name string, b []byte) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Seeds 1-4 are archived; 0 and 2 have a result file, 3 and 5 a bad
	// file; 6 has only a temporary file; 7 nothing.
	if err := SaveArchive(filepath.Join(dir, "a"+ArchiveExt), []*Result{resultOf(1, 0.1), resultOf(2, 0.2), resultOf(3, 0.3), resultOf(4, 0.4)}); err != nil {
		t.Fatal(err)
	}
	for _, r := range []*Result{resultOf(0, 0.01), resultOf(2, 0.02)} {
		if err := Save(dir, r); err != nil {
			t.Fatal(err)
		}
	}
	write(key(3)+".json", []byte("{"))
	write(key(5)+".json", nil)
	b, err := json.Marshal(resultOf(6, 0.6))
	if err != nil {
		t.Fatal(err)
	}
	write(tempPrefix(key(6), 1)+"x", b)
	write(".tmp-b"+ArchiveExt, []byte("junk")) // a temporary file, not an archive
	if err := os.Mkdir(filepath.Join(dir, "c"+ArchiveExt), 0o755); err != nil {
		t.Fatal(err)
	}

	same := func(name, dir string, runs []Run, wantResults, wantBad int, wantErr string) {
		t.Helper()
		got, gotBad, gotErr := LoadAll(dir, runs)
		want, bad, err := loadAll(runs, func(s Spec) (*Result, bool, error) { return Load(dir, s) })
		if fmt.Sprint(gotErr) != fmt.Sprint(err) || !reflect.DeepEqual(got, want) || fmt.Sprint(gotBad) != fmt.Sprint(bad) {
			t.Errorf("%s: LoadAll = %d results, bad %v, error %v; Load run by run: %d results, bad %v, error %v",
				name, len(got), gotBad, gotErr, len(want), bad, err)
		}
		for _, e := range gotBad {
			if b := (*BadResultError)(nil); !errors.As(e, &b) {
				t.Errorf("%s: bad file %v is not a *BadResultError", name, e)
			}
		}
		if len(want) != wantResults || len(bad) != wantBad || (err == nil) != (wantErr == "") || err != nil && !strings.Contains(err.Error(), wantErr) {
			t.Errorf("%s: Load run by run gave %d results, %d bad files, error %v; want %d, %d, %q", name, len(want), len(bad), err, wantResults, wantBad, wantErr)
		}
		l := List(dir)
		for _, r := range runs {
			st, err := Inspect(dir, r.Spec, nil)
			if gotSt, gotErr := l.Inspect(r.Spec, nil); gotSt != st || fmt.Sprint(gotErr) != fmt.Sprint(err) {
				t.Errorf("%s: seed %d: Listing.Inspect = %v, %v; Inspect = %v, %v", name, r.Spec.Seed, gotSt, gotErr, st, err)
			}
		}
	}
	same("the store", dir, runs, 4, 2, "")
	if got, _, _ := LoadAll(dir, runs); got[key(2)].EL1 != 0.02 || got[key(1)].EL1 != 0.1 {
		t.Errorf("seed 2: e_L1 %v, want the result file's 0.02; seed 1: %v, want the archive's 0.1", got[key(2)].EL1, got[key(1)].EL1)
	}
	same("an archive named as the store", filepath.Join(dir, "a"+ArchiveExt), runs, 4, 0, "")
	same("no store", filepath.Join(dir, "none"), runs, 0, 0, "")
	same("no runs", dir, nil, 0, 0, "")

	// A second archive holding seed 1: a run without a file is an error;
	// runs that all have one are read.
	if err := SaveArchive(filepath.Join(dir, "b"+ArchiveExt), []*Result{resultOf(1, 0.1)}); err != nil {
		t.Fatal(err)
	}
	same("two archives of a run", dir, runs, 0, 0, "both hold run "+key(1))
	same("two archives, runs with files", dir, []Run{runs[0], runs[2], runs[3]}, 2, 1, "")
	write("b"+ArchiveExt, []byte("junk"))
	same("a damaged archive", dir, runs, 0, 0, "bad result archive "+filepath.Join(dir, "b"+ArchiveExt))
	os.Remove(filepath.Join(dir, "b"+ArchiveExt))

	// A result file that is a directory is a bad file (issue 33: it
	// stopped every command), like the bad files of seeds 3 and 5.
	if err := os.Mkdir(filepath.Join(dir, key(7)+".json"), 0o755); err != nil {
		t.Fatal(err)
	}
	same("a directory for a file", dir, runs, 4, 3, "")
}

// TestLoadIrregular checks that a result file that is not a regular file
// (issue 33, defects 1 and 10: a FIFO hung list, a link to /dev/zero grew
// without bound, a directory stopped every command) or that is larger than
// any result of its run (a 200 MB history) is a bad file, named with what
// it is, at once and without reading it; and that Quarantine moves each
// into .bad/.
func TestLoadIrregular(t *testing.T) {
	r, good := validResult(t)
	cases := []struct {
		name string
		make func(path string) error
		want string
	}{
		{"directory", func(p string) error { return os.Mkdir(p, 0o755) }, "not a regular file: a directory"},
		{"FIFO", func(p string) error { return syscall.Mkfifo(p, 0o644) }, "not a regular file: a named pipe (FIFO)"},
		{"link to /dev/zero", func(p string) error { return os.Symlink("/dev/zero", p) }, "not a regular file: a symbolic link"},
		{"link to a valid result", func(p string) error {
			other := filepath.Join(filepath.Dir(p), "elsewhere.json")
			if err := os.WriteFile(other, good, 0o644); err != nil {
				return err
			}
			return os.Symlink(other, p)
		}, "not a regular file: a symbolic link"},
		{"socket", func(p string) error {
			l, err := net.Listen("unix", p)
			if err == nil {
				t.Cleanup(func() { l.Close() })
			}
			return err
		}, "not a regular file: a socket"},
		{"200 MB (sparse)", func(p string) error {
			f, err := os.Create(p)
			if err != nil {
				return err
			}
			defer f.Close()
			return f.Truncate(200 << 20)
		}, fmt.Sprintf("too large: 209715200 bytes or more, above the cap of %d bytes", ResultCap(r.Spec))},
	}
	for _, tc := range cases {
		// A short directory name: a socket's path has at most 107 bytes.
		dir, err := os.MkdirTemp("", "irr")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(dir)
		path := Path(dir, r.Spec)
		if err := tc.make(path); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		start := time.Now()
		got, ok, err := Load(dir, r.Spec)
		var bad *BadResultError
		if got != nil || ok || !errors.As(err, &bad) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: Load = %v, %v, %v; want a bad file naming %s and %q", tc.name, got, ok, err, path, tc.want)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("%s: Load took %v, want well under a second", tc.name, d)
		}
		if st, _ := List(dir).Inspect(r.Spec, nil); st != Bad {
			t.Errorf("%s: Listing.Inspect = %v, want Bad", tc.name, st)
		}
		dst, err := Quarantine(dir, r.Spec)
		if err != nil || Exists(dir, r.Spec) {
			t.Errorf("%s: Quarantine = %q, %v; still in place: %v", tc.name, dst, err, Exists(dir, r.Spec))
		} else if fi, err := os.Lstat(dst); err != nil || fi.Mode().Type() == 0 && tc.name != "200 MB (sparse)" {
			t.Errorf("%s: moved to %s, which is %v (%v)", tc.name, dst, fi, err)
		}
	}
}

// TestResultCap checks that the cap of every declared run of both tiers
// (and of their solution figures) is below MaxResultBytes, which is thus the
// cap of the largest legitimate result, and at least twice the size Save
// gives a result of a full history in the indented form.
func TestResultCap(t *testing.T) {
	for _, tier := range Tiers {
		runs, err := SolutionRuns(Tables(), tier)
		if err != nil {
			t.Fatal(err)
		}
		for _, tab := range Tables() {
			rs, err := tab.Runs(tier)
			if err != nil {
				t.Fatal(err)
			}
			runs = append(runs, rs...)
		}
		for _, run := range runs {
			if c := ResultCap(run.Spec); c >= MaxResultBytes {
				t.Errorf("%s: cap %d, want below MaxResultBytes %d", run.Spec, c, MaxResultBytes)
			}
		}
	}
	// A full history of 15000 LSQR iterations, errors of 17 digits, the
	// env of a machine of 1024 CPUs.
	s := Tables()[0].Rows[2].Spec(0)
	r := &Result{Key: s.Key(), Spec: s, Status: "IterLimit", Time: Timing{Assembly: 0.123456789012345, Solve: 1.23456789012345, Total: 1.358024679135795}}
	for i := range historyLen(s) - 1 {
		r.History = append(r.History, metric.Record{Iter: i * 100, EL1: 1.2345678901234567e-05 * float64(i+1)})
	}
	r.EL1, r.BestIter, r.EL1Final = r.History[0].EL1, 0, r.History[len(r.History)-1].EL1
	for i := range 1024 {
		r.Env.Affinity = append(r.Env.Affinity, i)
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if c := ResultCap(s); int64(2*len(b)) > c {
		t.Errorf("a full result of %s takes %d bytes, more than half its cap %d", s, len(b), c)
	}
}

// TestCheckStoppingSolvers: a solver that stops by a test of its own may
// end its history before the budget, with a status that says so, and the
// held-out rule returns one of its history's iterates; the paper's forced
// LSQR may do neither.
func TestCheckStoppingSolvers(t *testing.T) {
	base := Spec{Problem: Oscillator, Model: ELM, Param: 80, J: []int{4}, K: 4, Delta: 2.9, R: 1, Iters: 3000}
	stop := base
	stop.Solver = StopSolver
	held := base
	held.Solver, held.SolverOpts = BlockSolver, &SolverOpts{HeldOut: true, Patience: 2}
	for _, s := range []Spec{stop, held} {
		r, err := Execute(s, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := Check(r, s.Key()); err != nil {
			t.Errorf("%s: %v (status %q, last record %d)", s, err, r.Status, r.History[len(r.History)-1].Iter)
		}
		if last := r.History[len(r.History)-1].Iter; last == s.Iters {
			t.Logf("%s ran its whole budget: the early-end case is not exercised", s)
		}
		forced := *r
		forced.Spec = base
		forced.Key = base.Key()
		if last := r.History[len(r.History)-1].Iter; last < s.Iters {
			if err := Check(&forced, base.Key()); err == nil || !strings.Contains(err.Error(), "does not say the solve stopped early") {
				t.Errorf("%s's history as the forced LSQR's: %v, want refused", s, err)
			}
		}
		if last := r.History[len(r.History)-1].Iter; last < s.Iters {
			for _, status := range []string{"IterLimit", "done", ""} {
				unknown := *r
				unknown.Status = status
				if err := Check(&unknown, s.Key()); err == nil || !strings.Contains(err.Error(), "does not say the solve stopped early") {
					t.Errorf("%s's early end with status %q: %v, want refused", s, status, err)
				}
			}
		}
		bad := *r
		bad.EL1Final = r.EL1Final * 1.5
		if err := Check(&bad, s.Key()); err == nil {
			t.Errorf("%s: an eL1_final of no record accepted", s)
		}
	}
}
