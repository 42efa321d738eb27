package experiments

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"elmfbpinn/core/metric"
)

// validResult returns a valid solve result of the oscillator baseline's
// ELM-FBPINN row for seed 0, and its JSON.
func validResult(t *testing.T) (*Result, []byte) {
	t.Helper()
	s := Tables()[0].Rows[2].Spec(0)
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
	// The valid file loads, and so does one whose e_L1 is 0 and thus
	// omitted (omitempty), its history's minimum being 0.
	dir := t.TempDir()
	os.WriteFile(Path(dir, r.Spec), good, 0o644)
	if _, ok, err := Load(dir, r.Spec); !ok || err != nil {
		t.Errorf("the valid result: ok %v, error %v", ok, err)
	}
	zero := edit(t, good, func(m map[string]any) {
		delete(m, "eL1")
		m["history"].([]any)[1].(map[string]any)["eL1"] = 0
	})
	os.WriteFile(Path(dir, r.Spec), zero, 0o644)
	if _, ok, err := Load(dir, r.Spec); !ok || err != nil {
		t.Errorf("e_L1 = 0: ok %v, error %v", ok, err)
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

	// A result file that is a directory cannot be read.
	if err := os.Mkdir(filepath.Join(dir, key(7)+".json"), 0o755); err != nil {
		t.Fatal(err)
	}
	same("a directory for a file", dir, runs, 0, 0, key(7)+".json")
}
