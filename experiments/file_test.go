package experiments

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// runKeys returns the keys of a table's runs in a tier, in order.
func runKeys(t *testing.T, tb *Table, tier string) []string {
	t.Helper()
	runs, err := tb.Runs(tier)
	if err != nil {
		t.Fatal(err)
	}
	keys := make([]string, len(runs))
	for i, r := range runs {
		keys[i] = r.Spec.Key()
	}
	return keys
}

// TestExportRoundTrip: every paper table, exported and read back, has the
// same kind, title, rows, reference values (the paper's rows) and runs with
// the same keys in both tiers, so the Go declarations and the file
// vocabulary cannot drift apart.
func TestExportRoundTrip(t *testing.T) {
	for _, tb := range Tables() {
		var b bytes.Buffer
		if err := Export(&b, tb); err != nil {
			t.Fatalf("%s: export: %v", tb.ID, err)
		}
		got, err := ParseFile(tb.ID+".toml", b.Bytes())
		if err != nil {
			t.Fatalf("%s: reading the export back: %v\n%s", tb.ID, err, b.String())
		}
		if len(got) != 1 {
			t.Fatalf("%s: read %d tables, want 1", tb.ID, len(got))
		}
		ft := got[0]
		if ft.ID != tb.ID || ft.Title != tb.Title || ft.Kind != tb.Kind || ft.NoKappa {
			t.Errorf("%s: read back id %q title %q kind %v kappa %v", tb.ID, ft.ID, ft.Title, ft.Kind, !ft.NoKappa)
		}
		if len(ft.Rows) != len(tb.Rows) {
			t.Fatalf("%s: %d rows read back, want %d", tb.ID, len(ft.Rows), len(tb.Rows))
		}
		for i, r := range tb.Rows {
			fr := ft.Rows[i]
			want, gotRef := r, fr
			gotRef.Ref, gotRef.Seeds = nil, nil
			if !reflect.DeepEqual(gotRef, want) {
				t.Errorf("%s row %d: read back %+v, want %+v", tb.ID, i, gotRef, want)
			}
			pw, okw := tb.PaperRow(r)
			pg, okg := ft.PaperRow(fr)
			if okw != okg || okw && (pw.EL1Median != pg.EL1Median || pw.EL1Range != pg.EL1Range || pw.TimeMean != pg.TimeMean || pg.Table != tb.Paper) {
				t.Errorf("%s row %d: reference %v %+v, want the paper's %v %+v", tb.ID, i, okg, pg, okw, pw)
			}
			if okw && !slices.Equal(pg.J, pw.J) || okw && pg.K != pw.K {
				t.Errorf("%s row %d: reference keys J=%v K=%d, want the paper's J=%v K=%d", tb.ID, i, pg.J, pg.K, pw.J, pw.K)
			}
		}
		for _, tier := range Tiers {
			if w, g := runKeys(t, tb, tier), runKeys(t, ft, tier); !slices.Equal(w, g) {
				t.Errorf("%s, %s tier: %d runs read back, want the paper table's %d with the same keys", tb.ID, tier, len(g), len(w))
			}
		}
		// The export is compact: a sweep is one row of the file (a
		// scaling table varies the parameter and J together, a baseline the
		// model: a row each).
		if n := strings.Count(b.String(), "[[table.rows]]"); n >= len(tb.Rows) && tb.Kind != Scaling && tb.Kind != Baseline {
			t.Errorf("%s: %d rows written for %d rows: no sweep found", tb.ID, n, len(tb.Rows))
		}
	}
}

// TestReadFilesDuplicateID: a file table may not take a paper table's id,
// nor another file's; a directory reads every .toml in it.
func TestReadFilesDuplicateID(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	const tmpl = "[[table]]\nid = %q\nkind = \"K\"\nproblem = \"oscillator\"\n[[table.rows]]\nmodel = \"elm\"\nK = [2, 4]\n"
	a := write("a.toml", strings.Replace(tmpl, "%q", `"mine"`, 1))
	_, err := ReadFiles([]string{write("paper.toml", strings.Replace(tmpl, "%q", `"osc-K"`, 1))})
	if err == nil || !strings.Contains(err.Error(), "paper.toml:2: table osc-K: id") || !strings.Contains(err.Error(), "a table of the paper") {
		t.Errorf("a paper id: %v, want an error at paper.toml:2 naming the paper", err)
	}
	os.Remove(filepath.Join(dir, "paper.toml"))
	b := write("b.toml", "\n"+strings.Replace(tmpl, "%q", `"mine"`, 1))
	_, err = ReadFiles([]string{a, b})
	if err == nil || !strings.Contains(err.Error(), "b.toml:3: table mine: id") || !strings.Contains(err.Error(), "a.toml:2") {
		t.Errorf("an id in two files: %v, want an error at b.toml:3 naming a.toml:2", err)
	}
	os.Remove(b)
	write("c.toml", strings.Replace(tmpl, "%q", `"other"`, 1))
	write("notes.txt", "not an experiment")
	ts, err := ReadFiles([]string{dir, a}) // a is in dir too: read once
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, tb := range ts {
		ids = append(ids, tb.ID)
		if tb.Source == nil || len(tb.Source.SHA256) != 64 {
			t.Errorf("table %s: source %+v, want the file's path and SHA-256", tb.ID, tb.Source)
		}
	}
	if !slices.Equal(ids, []string{"mine", "other"}) {
		t.Errorf("directory read as tables %v, want [mine other]", ids)
	}
}

// TestParseFileErrors: each malformed file is refused with one line naming
// the file, the line and the field.
func TestParseFileErrors(t *testing.T) {
	const head = "[[table]]\nid = \"t\"\nkind = \"K\"\nproblem = \"oscillator\"\n"
	cases := []struct {
		name, body, want string
	}{
		{"syntax", "[[table]]\nid = \"t\n", "f.toml:2: TOML:"},
		{"no table", "title = \"x\"\n", "f.toml:1: title: unknown key"},
		{"empty", "", "f.toml: no [[table]] entry"},
		{"unknown table key", head + "colour = \"red\"\n[[table.rows]]\nmodel = \"elm\"\n", "f.toml:5: table t: colour: unknown key"},
		{"unknown row key", head + "[[table.rows]]\nmodel = \"elm\"\nkk = 3\n", "f.toml:7: table t, row 1: kk: unknown key"},
		{"missing id", "[[table]]\nkind = \"K\"\n", "f.toml:1: table: id: missing"},
		{"bad id", "[[table]]\nid = \"a b\"\nkind = \"K\"\n", "f.toml:2: table: id:"},
		{"unknown kind", "[[table]]\nid = \"t\"\nkind = \"X\"\n", "f.toml:3: table t: kind: unknown kind \"X\""},
		{"no rows", head, "f.toml:1: table t: no [[table.rows]] entry"},
		{"missing model", head + "[[table.rows]]\nK = 4\n", "f.toml:5: table t, row 1: model: missing"},
		{"unknown model", head + "[[table.rows]]\nmodel = \"elmo\"\n", "f.toml:6: table t, row 1: model: unknown model \"elmo\""},
		{"wrong type", head + "[[table.rows]]\nmodel = \"elm\"\nK = \"eight\"\n", "f.toml:7: table t, row 1: K: want an integer, got the string \"eight\""},
		{"float for int", head + "[[table.rows]]\nmodel = \"elm\"\nK = 8.5\n", "f.toml:7: table t, row 1: K: want an integer, got the float 8.5"},
		{"two sweeps", head + "[[table.rows]]\nmodel = \"elm\"\nK = [2, 4]\nR = [1, 2]\n", "f.toml:8: table t, row 1: R: a row sweeps one field, and K (line 7) is swept too"},
		{"out of range", head + "[[table.rows]]\nmodel = \"elm\"\nK = [2, 0]\n", "f.toml:7: table t, row 1: K: 0: need at least 1 feature"},
		{"bad param", "[[table]]\nid = \"t\"\nkind = \"J\"\nproblem = \"laplace\"\n[[table.rows]]\nmodel = \"elm\"\nparam = 9\n", "f.toml:7: table t, row 1: param: nomega = 9: must be an integer from 1 to 7"},
		{"negative delta", head + "[[table.rows]]\nmodel = \"elm\"\ndelta = -1\n", "f.toml:7: table t, row 1: delta: -1: the width ratio must be positive"},
		{"width of elm", head + "[[table.rows]]\nmodel = \"elm\"\nwidth = 8\n", "f.toml:7: table t, row 1: width: applies to the PINN only"},
		{"unknown solver", head + "[[table.rows]]\nmodel = \"elm\"\nsolver = \"magic\"\n", "f.toml:7: table t, row 1: solver: unknown solver \"magic\""},
		{"J not levels", head + "[[table.rows]]\nmodel = \"elm\"\nJ = 20\n", "f.toml:7: table t, row 1: J: want subdomains per level"},
		{"J zero", head + "[[table.rows]]\nmodel = \"elm\"\nJ = [[2], [0]]\n", "f.toml:7: table t, row 1: J: 0: every level needs at least 1 subdomain"},
		{"duplicate row", head + "[[table.rows]]\nmodel = \"elm\"\nK = [2, 4]\n[[table.rows]]\nmodel = \"elm\"\nK = 4\n", "f.toml:8: table t, row 2: declares a row that row 1 declares already"},
		{"duplicate id", head + "[[table.rows]]\nmodel = \"elm\"\n" + head + "[[table.rows]]\nmodel = \"elm\"\n", "f.toml:8: table t: id: \"t\" is declared twice in this file (also at line 2)"},
		{"ref count", head + "[[table.rows]]\nmodel = \"elm\"\nK = [2, 4]\nref = [{ median = 1, range = 0, source = \"s\" }]\n", "f.toml:8: table t, row 1: ref: the row sweeps K over 2 values: want a list of 2"},
		{"ref median", head + "[[table.rows]]\nmodel = \"elm\"\nref = { median = -1, range = 0, source = \"s\" }\n", "f.toml:7: table t, row 1: ref.median: -1: want the median e_L1, a positive number"},
		{"ref source", head + "[[table.rows]]\nmodel = \"elm\"\nref = { median = 1, range = 0 }\n", "f.toml:7: table t, row 1: ref: source: missing"},
		{"quick model", head + "[table.quick]\nelmo = { seeds = [0] }\n[[table.rows]]\nmodel = \"elm\"\n", "f.toml:6: table t: quick: elmo: unknown key"},
		{"quick seeds", head + "[table.quick]\nelm = { iters = 3 }\n[[table.rows]]\nmodel = \"elm\"\n", "f.toml:6: table t: quick.elm.seeds: missing"},
		{"seed twice", head + "seeds = [0, 1, 0]\n[[table.rows]]\nmodel = \"elm\"\n", "f.toml:5: table t: seeds: seed 0 is listed twice"},
		{"negative seed", head + "[[table.rows]]\nmodel = \"elm\"\nseeds = [-1]\n", "f.toml:7: table t, row 1: seeds: want non-negative integers"},
		{"kappa type", head + "kappa = \"no\"\n[[table.rows]]\nmodel = \"elm\"\n", "f.toml:5: table t: kappa: want true or false"},
		{"no problem", "[[table]]\nid = \"t\"\nkind = \"K\"\n[[table.rows]]\nmodel = \"elm\"\n", "f.toml:4: table t, row 1: problem: no problem"},
		{"control character", "[[table]]\nid = \"t\"\nkind = \"K\"\ntitle = \"a\\u001b[2Jb\"\n", "f.toml:4: table t: title: \"a\\x1b[2Jb\" holds a control character"},
		{"solver of a pinn", head + "[[table.rows]]\nmodel = \"pinn\"\nsolver = \"lsqr-scaled\"\n", "f.toml:7: table t, row 1: solver: solver lsqr-scaled solves the ELM-FBPINN's least squares"},
		{"width zero", head + "[[table.rows]]\nmodel = \"pinn\"\nwidth = [8, 0]\n", "f.toml:7: table t, row 1: width: 0: the PINN needs at least 1 hidden unit"},
		{"solver option of another", head + "[[table.rows]]\nmodel = \"elm\"\nsolver = \"lsqr-scaled\"\nsolver_opts = { tau = 1e-6 }\n", "table t, row 1:"},
		{"solver option type", head + "[[table.rows]]\nmodel = \"elm\"\nsolver = \"lsqr-block\"\nsolver_opts = { stop = 1 }\n", "f.toml:8: table t, row 1: solver_opts.stop: want true or false"},
		{"iters zero", head + "[[table.rows]]\nmodel = \"pinn\"\niters = 0\n", "f.toml:7: table t, row 1: iters: 0: want at least 1"},
	}
	for _, tc := range cases {
		_, err := ParseFile("f.toml", []byte(tc.body))
		var fe *FileError
		switch {
		case err == nil:
			t.Errorf("%s: no error, want %q", tc.name, tc.want)
		case !errors.As(err, &fe):
			t.Errorf("%s: error %T %v, want a *FileError", tc.name, err, err)
		case !strings.Contains(err.Error(), tc.want):
			t.Errorf("%s: error %q, want it to contain %q", tc.name, err, tc.want)
		case strings.Contains(err.Error(), "\n"):
			t.Errorf("%s: error %q is not one line", tc.name, err)
		}
	}
}

// TestParseFileSweeps: the layout's defaults and sweeps give the rows a
// user means, with reference values judged per row.
func TestParseFileSweeps(t *testing.T) {
	const body = `
[[table]]
id = "mine"
kind = "J"
problem = "laplace"
seeds = [0, 1]

[table.quick]
elm = { seeds = [0] }
pinn = { seeds = [0], iters = 20 }

[[table.rows]]
model = "elm"
J = [[2], [1, 2, 4]]
solver = "lsqr-scaled"
ref = [{ median = 1e-2, range = 1e-3, time = 3, source = "us" }, { median = 2e-2, range = 0, source = "us" }]

[[table.rows]]
model = "elm"
J = [2]
solver = "lsqr-block"
solver_opts = { stop = true, tau = 1e-6 }

[[table.rows]]
model = "pinn"
param = 2
R = [0.5, 1]
iters = 500
quick = false
seeds = [3]
`
	ts, err := ParseFile("m.toml", []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	tb := ts[0]
	want := []Row{
		{Problem: Laplace, Model: ELM, Param: 4, J: []int{2}, K: 16, R: 1, Delta: 2.9, Solver: "lsqr-scaled", Seeds: []int{0, 1}},
		{Problem: Laplace, Model: ELM, Param: 4, J: []int{1, 2, 4}, K: 16, R: 1, Delta: 2.9, Solver: "lsqr-scaled", Seeds: []int{0, 1}},
		{Problem: Laplace, Model: ELM, Param: 4, J: []int{2}, K: 16, R: 1, Delta: 2.9, Solver: "lsqr-block", SolverOpts: &SolverOpts{Stop: true, Tau: 1e-6}, Seeds: []int{0, 1}},
		{Problem: Laplace, Model: PINN, Param: 2, J: []int{16}, K: 16, Width: 64, R: 0.5, Delta: 2.9, Iters: 500, Seeds: []int{3}},
		{Problem: Laplace, Model: PINN, Param: 2, J: []int{16}, K: 16, Width: 64, R: 1, Delta: 2.9, Iters: 500, Seeds: []int{3}},
	}
	if l := tb.Rows[2].Label(); l != "ELM-FBPINN (lsqr-block+stop+tau=1e-06)" {
		t.Errorf("the solver row's label %q", l)
	}
	for i := range want {
		got := tb.Rows[i]
		got.Ref = nil
		if !reflect.DeepEqual(got, want[i]) {
			t.Errorf("row %d: %+v, want %+v", i, got, want[i])
		}
	}
	if r := tb.Rows[1].Ref; r == nil || r.EL1Median != 2e-2 || r.Table != "us" || r.TimeMean != 0 || !slices.Equal(r.J, []int{1, 2, 4}) {
		t.Errorf("row 1's reference: %+v", r)
	}
	full, err := tb.Runs(Full)
	if err != nil {
		t.Fatal(err)
	}
	// Two ELM rows of seeds 0, 1 (no κ run: the seeds leave out 5), two
	// PINN rows of seed 3.
	var got []string
	for _, r := range full {
		got = append(got, r.Spec.String())
	}
	if len(full) != 8 || full[0].Spec.Solver != "lsqr-scaled" || full[4].Spec.SolverOpts == nil || full[6].Spec.Iters != 500 || full[6].Spec.Seed != 3 {
		t.Errorf("full tier runs:\n%s", strings.Join(got, "\n"))
	}
	quick, _ := tb.Runs(QuickTier)
	if len(quick) != 3 || quick[0].Spec.Seed != 0 || quick[1].Spec.J[2] != 4 {
		t.Errorf("quick tier: %d runs %v, want the two ELM rows' seed 0 (the PINN rows are out)", len(quick), quick)
	}
}

// FuzzParseFile: no input panics the reader, and whatever it accepts
// exports and reads back to the same runs.
func FuzzParseFile(f *testing.F) {
	for _, tb := range Tables()[:6] {
		var b bytes.Buffer
		if err := Export(&b, tb); err != nil {
			f.Fatal(err)
		}
		f.Add(b.Bytes())
	}
	f.Add([]byte("[[table]]\nid = \"t\"\nkind = \"K\"\nproblem = \"oscillator\"\n[[table.rows]]\nmodel = \"elm\"\nK = [2, 4]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ts, err := ParseFile("fuzz.toml", data)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error of more than one line: %q", err)
			}
			return
		}
		for _, tb := range ts {
			var b bytes.Buffer
			if err := Export(&b, tb); err != nil {
				t.Fatal(err)
			}
			back, err := ParseFile("back.toml", b.Bytes())
			if err != nil {
				t.Fatalf("export of an accepted table does not read back: %v\n%s", err, b.String())
			}
			for _, tier := range Tiers {
				if w, g := runKeys(t, tb, tier), runKeys(t, back[0], tier); !slices.Equal(w, g) {
					t.Fatalf("%s tier: the export reads back to other runs", tier)
				}
			}
		}
	})
}

// TestExamples: every file of examples/ reads, and has runs in the quick
// tier (README: each runs in the quick tier in seconds).
func TestExamples(t *testing.T) {
	ts, err := ReadFiles([]string{filepath.Join("..", "examples")})
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) < 3 {
		t.Errorf("%d example tables, want the three of examples/", len(ts))
	}
	for _, tb := range ts {
		if runs := runKeys(t, tb, QuickTier); len(runs) == 0 {
			t.Errorf("example %s has no quick-tier runs", tb.ID)
		}
	}
}
