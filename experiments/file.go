package experiments

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"

	"elmfbpinn/paperdata"
)

// This file reads and writes experiment files: tables declared in TOML, in
// the vocabulary of Table and Row, so that a user runs, caches, reports and
// compares an experiment of their own without editing Go. The layout:
//
//	[[table]]
//	id = "osc-K-wide"            # unique among the paper's tables and every file's
//	title = "Damped oscillator, K beyond the paper"
//	description = "..."          # optional prose, printed under the title
//	kind = "K"                   # baseline, K, J, scaling, R or solver: the table's axis and figures
//	problem = "oscillator"       # the rows' problem (a row may set its own)
//	param = 80                   # the rows' parameter (default: the problem's baseline)
//	seeds = [0, 1, 2, 3, 4]      # the rows' seeds in the full tier (default 0-4)
//	kappa = true                 # the κ(M) run (seed 5) of each ELM-FBPINN row in the full tier
//
//	[table.quick]                # the quick tier; without it the table has no quick runs
//	elm = { seeds = [0, 1] }     # per model: seeds and iters (0 or absent: the full budget)
//	fbpinn = { seeds = [0], iters = 1000 }
//
//	[[table.rows]]
//	model = "elm"                # elm, fbpinn or pinn
//	J = [20]                     # subdomains per level: [20] one level, [1, 10, 20] three
//	K = [20, 24, 32]             # a list sweeps: one row per value
//	ref = [{ median = 1e-4, range = 5e-5, time = 5.4, source = "..." }, ...]
//
// A row's fields are model, problem, param, J, K, width (the PINN's hidden
// width), R, delta, iters (the full budget), solver, solver_opts (its
// options: tau, stop, atol, btol, conlim, heldout, patience, lsmr; see
// SolverOpts), seeds, quick (false leaves the row out of the quick tier)
// and ref; every field but model has
// a default (the problem's baseline J and K, width 64 for the PINN, R 1,
// delta 2.9, iters 15000, the paper's forced LSQR). One of param, J (a list
// of lists), K, width, R, delta, iters and solver may be a list, which
// sweeps it: the row stands for one row per value, in order, and its ref,
// if any, is a list of as many reference values. ref's median and range
// (e_L1) are judged by the paper's rule (paperdata.Judge), its time (mean
// seconds, optional) gives the speed-up; source says where they come from.
//
// Reading is strict: an unknown key, a value of the wrong type or outside
// what a run accepts (Spec.Validate), a sweep of two fields, a duplicate
// id or row is an error that names the file, the line and the field.

// MaxFileBytes bounds the size of an experiment file: a larger one is
// refused before it is parsed.
const MaxFileBytes = 1 << 20

// FileExt is the extension of experiment files, as a directory given to
// ReadFiles is searched for them.
const FileExt = ".toml"

// FileError is an error in an experiment file, at a line (0 if the error
// is about the file as a whole), naming the field it concerns.
type FileError struct {
	Path  string
	Line  int
	Field string // e.g. "table osc-K-wide, row 2: K"; "" for a syntax error
	Msg   string
}

func (e *FileError) Error() string {
	var b strings.Builder
	b.WriteString(e.Path)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Field != "" {
		b.WriteString(e.Field + ": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// ReadFiles reads experiment files and returns their tables in order; a
// path that is a directory stands for every *.toml file in it, in name
// order. An id may appear once among the paper's tables and the files'.
func ReadFiles(paths []string) ([]*Table, error) {
	var files []string
	for _, p := range paths {
		if p == "" {
			return nil, errors.New("-experiments is empty: name a .toml file or a directory of them")
		}
		st, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("experiment file %q: %w", p, UnwrapPath(err))
		}
		if !st.IsDir() {
			files = append(files, p)
			continue
		}
		matches, err := filepath.Glob(filepath.Join(globEscape(p), "*"+FileExt))
		if err != nil {
			return nil, err
		}
		if len(matches) == 0 {
			return nil, fmt.Errorf("experiment directory %q holds no *%s file", p, FileExt)
		}
		sort.Strings(matches)
		files = append(files, matches...)
	}
	ids := map[string]string{} // id -> where it is declared
	for _, t := range Tables() {
		ids[t.ID] = "a table of the paper"
	}
	var out []*Table
	seen := map[string]bool{}
	for _, f := range files {
		abs, err := filepath.Abs(f)
		if err == nil && seen[abs] {
			continue // named twice (a file and its directory): read once
		}
		seen[abs] = true
		data, err := readFileCapped(f)
		if err != nil {
			return nil, err
		}
		ts, err := ParseFile(f, data)
		if err != nil {
			return nil, err
		}
		for _, t := range ts {
			if where, ok := ids[t.ID]; ok {
				return nil, &FileError{f, t.Source.Line, "table " + t.ID + ": id", fmt.Sprintf("%q is already %s; choose another id", t.ID, where)}
			}
			ids[t.ID] = "declared at " + f + ":" + strconv.Itoa(t.Source.Line)
		}
		out = append(out, ts...)
	}
	return out, nil
}

// globEscape escapes the metacharacters of filepath.Match in a directory
// name, so that it is matched literally.
func globEscape(dir string) string {
	r := strings.NewReplacer(`\`, `\\`, `*`, `\*`, `?`, `\?`, `[`, `\[`)
	return r.Replace(dir)
}

// readFileCapped reads a regular file of at most MaxFileBytes (a link to
// one is followed) with ReadRegular.
func readFileCapped(path string) ([]byte, error) {
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil, fmt.Errorf("experiment file %q: %w", path, UnwrapPath(err))
	}
	data, err := ReadRegular(target, MaxFileBytes)
	if err != nil {
		return nil, fmt.Errorf("experiment file %q: %w", path, err)
	}
	return data, nil
}

// idPattern is what a table id may be: it names files of the report.
var idPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// Keys of the layout, at each level.
var (
	tableKeys = []string{"id", "title", "description", "kind", "problem", "param", "seeds", "kappa", "quick", "rows"}
	rowKeys   = []string{"model", "problem", "param", "J", "K", "width", "R", "delta", "iters", "solver", "solver_opts", "seeds", "quick", "ref"}
	// solverOptKeys are the keys of solver_opts, as SolverOpts encodes them.
	solverOptKeys = []string{"tau", "stop", "atol", "btol", "conlim", "heldout", "patience", "lsmr"}
	// sweepKeys are the row fields a list sweeps.
	sweepKeys  = []string{"param", "J", "K", "width", "R", "delta", "iters", "solver"}
	budgetKeys = []string{"seeds", "iters"}
	refKeys    = []string{"median", "range", "time", "source"}
)

// maxSweep bounds the rows one row of a file stands for, and maxRows the
// rows of a table.
const (
	maxSweep = 1000
	maxRows  = 10000
)

// ParseFile parses the bytes of an experiment file (path names it in
// errors and in each table's Source) into its tables.
func ParseFile(path string, data []byte) ([]*Table, error) {
	if len(data) > MaxFileBytes {
		return nil, &FileError{Path: path, Msg: fmt.Sprintf("larger than %d bytes: not an experiment file", MaxFileBytes)}
	}
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, _ := de.Position()
			return nil, &FileError{Path: path, Line: line, Msg: "TOML: " + strings.TrimPrefix(de.Error(), "toml: ")}
		}
		return nil, &FileError{Path: path, Msg: "TOML: " + strings.TrimPrefix(err.Error(), "toml: ")}
	}
	sum := sha256.Sum256(data)
	p := &fileParser{path: path, lines: lineIndex(data), sha: hex.EncodeToString(sum[:])}
	return p.parse(doc)
}

// fileParser turns a decoded document into tables, naming the line of
// every error.
type fileParser struct {
	path  string
	sha   string
	lines map[string]int // key path ("table.0.rows.2.K") -> line
}

// errAt returns a FileError at the line of the key path at (or of the
// nearest enclosing path that has one).
func (p *fileParser) errAt(at, field, format string, args ...any) error {
	return &FileError{Path: p.path, Line: p.line(at), Field: field, Msg: fmt.Sprintf(format, args...)}
}

func (p *fileParser) line(at string) int {
	for {
		if l, ok := p.lines[at]; ok {
			return l
		}
		i := strings.LastIndexByte(at, '.')
		if i < 0 {
			return 0
		}
		at = at[:i]
	}
}

func (p *fileParser) parse(doc map[string]any) ([]*Table, error) {
	for _, k := range sortedKeys(doc) {
		if k != "table" {
			return nil, p.errAt(k, k, "unknown key (a file holds [[table]] entries only)")
		}
	}
	list, ok := doc["table"].([]any)
	if !ok || len(list) == 0 {
		if _, has := doc["table"]; has {
			return nil, p.errAt("table", "table", "want [[table]] entries (an array of tables)")
		}
		return nil, &FileError{Path: p.path, Msg: "no [[table]] entry: a file declares at least one table"}
	}
	var out []*Table
	ids := map[string]int{}
	for i, v := range list {
		at := "table." + strconv.Itoa(i)
		m, ok := v.(map[string]any)
		if !ok {
			return nil, p.errAt(at, "table", "want a table, got %s", typeName(v))
		}
		t, err := p.table(at, m)
		if err != nil {
			return nil, err
		}
		if prev, dup := ids[t.ID]; dup {
			return nil, p.errAt(at+".id", "table "+t.ID+": id", "%q is declared twice in this file (also at line %d)", t.ID, prev)
		}
		ids[t.ID] = p.line(at + ".id")
		out = append(out, t)
	}
	return out, nil
}

// table parses one [[table]] entry at key path at.
func (p *fileParser) table(at string, m map[string]any) (*Table, error) {
	id, err := p.str(at, "table", m, "id", true)
	if err != nil {
		return nil, err
	}
	if !idPattern.MatchString(id) {
		return nil, p.errAt(at+".id", "table: id", "%q: want letters, digits, '.', '_' or '-', starting with a letter or digit, at most 64", id)
	}
	name := "table " + id
	if err := p.known(at, name, m, tableKeys); err != nil {
		return nil, err
	}
	t := &Table{ID: id, Source: &Source{Path: p.path, SHA256: p.sha, Line: p.line(at + ".id")}}
	if t.Title, err = p.str(at, name, m, "title", false); err != nil {
		return nil, err
	}
	if t.Title == "" {
		t.Title = id
	}
	if t.Description, err = p.text(at, name, m, "description"); err != nil {
		return nil, err
	}
	kind, err := p.str(at, name, m, "kind", true)
	if err != nil {
		return nil, err
	}
	if t.Kind, err = ParseKind(kind); err != nil {
		return nil, p.errAt(at+".kind", name+": kind", "%v", err)
	}
	def := rowDefaults{}
	if def.problem, err = p.str(at, name, m, "problem", false); err != nil {
		return nil, err
	}
	if def.problem != "" {
		if _, err := ProblemNamed(def.problem); err != nil {
			return nil, p.errAt(at+".problem", name+": problem", "%v", err)
		}
	}
	if v, ok := m["param"]; ok {
		x, err := p.float(at+".param", name+": param", v)
		if err != nil {
			return nil, err
		}
		def.param = &x
	}
	if v, ok := m["seeds"]; ok {
		if def.seeds, err = p.seeds(at+".seeds", name+": seeds", v); err != nil {
			return nil, err
		}
	}
	if v, ok := m["kappa"]; ok {
		b, ok := v.(bool)
		if !ok {
			return nil, p.errAt(at+".kappa", name+": kappa", "want true or false, got %s", typeName(v))
		}
		t.NoKappa = !b
	}
	var quickBudgets map[string]Budget
	if v, ok := m["quick"]; ok {
		if quickBudgets, err = p.quick(at+".quick", name+": quick", v); err != nil {
			return nil, err
		}
	}
	rows, ok := m["rows"].([]any)
	if !ok || len(rows) == 0 {
		if _, has := m["rows"]; has {
			return nil, p.errAt(at+".rows", name+": rows", "want [[table.rows]] entries (an array of tables)")
		}
		return nil, p.errAt(at, name, "no [[table.rows]] entry: a table has at least one row")
	}
	noQuick := map[string]bool{} // rows out of the quick tier, by the key of their seed-0 run
	seen := map[string]int{}
	for i, v := range rows {
		rat := at + ".rows." + strconv.Itoa(i)
		rname := fmt.Sprintf("%s, row %d", name, i+1)
		rm, ok := v.(map[string]any)
		if !ok {
			return nil, p.errAt(rat, rname, "want a table, got %s", typeName(v))
		}
		rs, quick, err := p.row(rat, rname, rm, def)
		if err != nil {
			return nil, err
		}
		for _, r := range rs {
			k := r.Spec(0).Key()
			if prev, dup := seen[k]; dup {
				return nil, p.errAt(rat, rname, "declares a row that row %d declares already (the same runs)", prev)
			}
			seen[k] = i + 1
			if !quick {
				noQuick[k] = true
			}
		}
		t.Rows = append(t.Rows, rs...)
		if len(t.Rows) > maxRows {
			return nil, p.errAt(rat, rname, "the table has more than %d rows", maxRows)
		}
	}
	if quickBudgets != nil {
		t.Quick = &Quick{Budgets: quickBudgets}
		if len(noQuick) > 0 {
			t.Quick.Only = func(r Row) bool { return !noQuick[r.Spec(0).Key()] }
		}
	}
	return t, nil
}

// rowDefaults are a table's values for its rows.
type rowDefaults struct {
	problem string
	param   *float64
	seeds   []int
}

// row parses one [[table.rows]] entry into the rows it stands for, and
// whether they are in the quick tier.
func (p *fileParser) row(at, name string, m map[string]any, def rowDefaults) ([]Row, bool, error) {
	if err := p.known(at, name, m, rowKeys); err != nil {
		return nil, false, err
	}
	model, err := p.str(at, name, m, "model", true)
	if err != nil {
		return nil, false, err
	}
	if !slices.Contains(Models, model) {
		return nil, false, p.errAt(at+".model", name+": model", "unknown model %q (want one of %s)", model, strings.Join(Models, ", "))
	}
	problemName := def.problem
	if _, ok := m["problem"]; ok {
		if problemName, err = p.str(at, name, m, "problem", true); err != nil {
			return nil, false, err
		}
	}
	if problemName == "" {
		return nil, false, p.errAt(at, name+": problem", "no problem: set problem in the row or in its table (one of %s)", strings.Join(ProblemNames(), ", "))
	}
	prob, err := ProblemNamed(problemName)
	if err != nil {
		return nil, false, p.errAt(at+".problem", name+": problem", "%v", err)
	}
	base := Row{Problem: prob.Name, Model: model, Param: prob.Base.Param, J: slices.Clone(prob.Base.J), K: prob.Base.K,
		R: fullR, Delta: fullDelta, Seeds: slices.Clone(def.seeds)}
	if def.param != nil {
		base.Param = *def.param
	}
	if model == PINN {
		base.Width = fullWidth
	}
	if v, ok := m["seeds"]; ok {
		if base.Seeds, err = p.seeds(at+".seeds", name+": seeds", v); err != nil {
			return nil, false, err
		}
	}
	if v, ok := m["solver_opts"]; ok {
		if base.SolverOpts, err = p.solverOpts(at+".solver_opts", name+": solver_opts", v); err != nil {
			return nil, false, err
		}
	}
	quick := true
	if v, ok := m["quick"]; ok {
		b, ok := v.(bool)
		if !ok {
			return nil, false, p.errAt(at+".quick", name+": quick", "want true or false, got %s", typeName(v))
		}
		quick = b
	}
	// The swept field, if any, and its values.
	var swept []string
	for _, k := range sweepKeys {
		if v, ok := m[k]; ok && p.isSweep(k, v) {
			swept = append(swept, k)
		}
	}
	slices.SortStableFunc(swept, func(a, b string) int { return p.line(at+"."+a) - p.line(at+"."+b) })
	if len(swept) > 1 {
		k := swept[1]
		return nil, false, p.errAt(at+"."+k, name+": "+k, "a row sweeps one field, and %s (line %d) is swept too: write one row per value of one of them", swept[0], p.line(at+"."+swept[0]))
	}
	sweep, n := "", 1
	if len(swept) == 1 {
		sweep, n = swept[0], len(m[swept[0]].([]any))
		if n == 0 {
			return nil, false, p.errAt(at+"."+sweep, name+": "+sweep, "an empty list sweeps nothing: give at least one value")
		}
		if n > maxSweep {
			return nil, false, p.errAt(at+"."+sweep, name+": "+sweep, "sweeps %d values, more than %d", n, maxSweep)
		}
	}
	rows := make([]Row, n)
	for i := range rows {
		rows[i] = base
		rows[i].J = slices.Clone(base.J)
		rows[i].Seeds = slices.Clone(base.Seeds)
	}
	for _, k := range sweepKeys {
		v, ok := m[k]
		if !ok {
			continue
		}
		for i := range rows {
			x, fat := v, at+"."+k
			if k == sweep {
				x, fat = v.([]any)[i], fat+"."+strconv.Itoa(i)
			}
			if err := p.set(&rows[i], k, fat, name+": "+k, x); err != nil {
				return nil, false, err
			}
		}
	}
	if v, ok := m["ref"]; ok {
		refs := []any{v}
		if sweep != "" {
			l, ok := v.([]any)
			if !ok || len(l) != n {
				return nil, false, p.errAt(at+".ref", name+": ref", "the row sweeps %s over %d values: want a list of %d reference values, one per value", sweep, n, n)
			}
			refs = l
		}
		for i, rv := range refs {
			rat := at + ".ref"
			if sweep != "" {
				rat += "." + strconv.Itoa(i)
			}
			ref, err := p.ref(rat, name+": ref", rv, rows[i])
			if err != nil {
				return nil, false, err
			}
			rows[i].Ref = ref
		}
	}
	for i, r := range rows {
		for _, s := range []Spec{r.Spec(0), r.KappaSpec()} {
			if s.Kappa && r.Model != ELM {
				continue
			}
			if err := s.Validate(); err != nil {
				fat, field := at, name
				if sweep != "" {
					fat, field = at+"."+sweep+"."+strconv.Itoa(i), fmt.Sprintf("%s: %s = %s", name, sweep, sweepValue(r, sweep))
				}
				return nil, false, p.errAt(fat, field, "%v", err)
			}
		}
	}
	return rows, quick, nil
}

// sweepValue writes row r's value of a swept field.
func sweepValue(r Row, k string) string {
	switch k {
	case "param":
		return num(r.Param)
	case "J":
		return paperdata.FormatJ(r.J)
	case "K":
		return strconv.Itoa(r.K)
	case "width":
		return strconv.Itoa(r.Width)
	case "R":
		return num(r.R)
	case "delta":
		return num(r.Delta)
	case "iters":
		return strconv.Itoa(r.Budget())
	}
	return strconv.Quote(r.Solver)
}

// num writes a number in the fewest digits that read back as the same
// float64 ("80", "0.125", "1e-05": TOML reads each as that number).
func num(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// isSweep reports whether a row's value of key k is a list of its values:
// any list but J's, which sweeps as a list of lists.
func (p *fileParser) isSweep(k string, v any) bool {
	l, ok := v.([]any)
	if !ok {
		return false
	}
	if k != "J" {
		return true
	}
	return len(l) > 0 && isList(l[0])
}

func isList(v any) bool { _, ok := v.([]any); return ok }

// set sets one field of r from a value of the file.
func (p *fileParser) set(r *Row, k, at, field string, v any) error {
	var err error
	switch k {
	case "param":
		r.Param, err = p.float(at, field, v)
	case "J":
		r.J, err = p.levels(at, field, v)
	case "K":
		r.K, err = p.int(at, field, v)
	case "width":
		r.Width, err = p.int(at, field, v)
		if err == nil && r.Model != PINN {
			return p.errAt(at, field, "applies to the PINN only (the %s has one network per subdomain of K features)", PaperModel(r.Model))
		}
	case "R":
		r.R, err = p.float(at, field, v)
	case "delta":
		r.Delta, err = p.float(at, field, v)
	case "iters":
		r.Iters, err = p.int(at, field, v)
		if err == nil && r.Iters < 1 {
			return p.errAt(at, field, "%d: want at least 1 iteration", r.Iters)
		}
	case "solver":
		s, ok := v.(string)
		if !ok {
			return p.errAt(at, field, "want a solver name (a string), got %s", typeName(v))
		}
		if s == "lsqr" {
			s = "" // the paper's forced LSQR, the default
		}
		r.Solver = s
	}
	if err != nil {
		return err
	}
	if msg := fieldProblem(*r, k); msg != "" {
		return p.errAt(at, field, "%s", msg)
	}
	return nil
}

// fieldProblem says what is wrong with row r's value of field k alone, ""
// if nothing (Spec.Validate then checks the row as a whole), so that an
// error names the field's own line.
func fieldProblem(r Row, k string) string {
	switch k {
	case "param":
		if _, err := knownProblem(r.Problem).New(r.Param); err != nil {
			return err.Error()
		}
	case "K":
		if r.K < 1 {
			return fmt.Sprintf("%d: need at least 1 feature per subdomain", r.K)
		}
	case "width":
		if r.Width < 1 {
			return fmt.Sprintf("%d: the PINN needs at least 1 hidden unit", r.Width)
		}
	case "R":
		if !(r.R > 0) {
			return fmt.Sprintf("%v: the weight scale must be positive", r.R)
		}
	case "delta":
		if !(r.Delta > 0) {
			return fmt.Sprintf("%v: the width ratio must be positive", r.Delta)
		}
	case "solver":
		switch {
		case r.Solver != "" && !slices.Contains(SolverNames(), r.Solver):
			return fmt.Sprintf("unknown solver %q (want lsqr, the paper's forced LSQR, or one of %s)", r.Solver, strings.Join(SolverNames(), ", "))
		case r.Solver != "" && r.Model != ELM:
			return fmt.Sprintf("solver %s solves the ELM-FBPINN's least squares; the %s is trained by Adam", r.Solver, PaperModel(r.Model))
		}
	}
	return ""
}

// ref parses reference values for row r.
func (p *fileParser) ref(at, field string, v any, r Row) (*paperdata.Row, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, p.errAt(at, field, "want a table like { median = 1e-3, range = 2e-4, time = 5.4, source = \"...\" }, got %s", typeName(v))
	}
	if err := p.known(at, field, m, refKeys); err != nil {
		return nil, err
	}
	param, J, K := r.PaperKey()
	ref := &paperdata.Row{Model: PaperModel(r.Model), ParamName: knownProblem(r.Problem).Param.Name, Param: param,
		J: slices.Clone(J), K: K, Delta: r.Delta, Kappa: math.NaN()}
	ref.H = 1
	if r.Model == PINN {
		ref.H = 2
	}
	ref.Optimiser, _ = Optimiser(r.Model)
	var err error
	if ref.Table, err = p.str(at, field, m, "source", true); err != nil {
		return nil, err
	}
	get := func(k string, required bool, ok func(float64) bool, want string) (float64, error) {
		x, has := m[k]
		if !has {
			if required {
				return 0, p.errAt(at, field+"."+k, "missing: give %s", want)
			}
			return 0, nil
		}
		f, err := p.float(at+"."+k, field+"."+k, x)
		if err == nil && !ok(f) {
			return 0, p.errAt(at+"."+k, field+"."+k, "%v: want %s", f, want)
		}
		return f, err
	}
	positive := func(x float64) bool { return x > 0 && !math.IsInf(x, 0) }
	nonNeg := func(x float64) bool { return x >= 0 && !math.IsInf(x, 0) }
	if ref.EL1Median, err = get("median", true, positive, "the median e_L1, a positive number"); err != nil {
		return nil, err
	}
	if ref.EL1Range, err = get("range", true, nonNeg, "the range (max - min) of e_L1, a number >= 0"); err != nil {
		return nil, err
	}
	if ref.TimeMean, err = get("time", false, nonNeg, "the mean time in seconds, a number >= 0"); err != nil {
		return nil, err
	}
	return ref, nil
}

// knownProblem returns a problem known to exist.
func knownProblem(name string) *Problem {
	p, err := ProblemNamed(name)
	if err != nil {
		panic(err)
	}
	return p
}

// solverOpts parses a row's solver options (SolverOpts: tau, stop, atol,
// btol, conlim, heldout, patience, lsmr); the solver checks which it takes
// (Spec.Validate).
func (p *fileParser) solverOpts(at, field string, v any) (*SolverOpts, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, p.errAt(at, field, "want a table like { tau = 1e-8, stop = true }, got %s", typeName(v))
	}
	if err := p.known(at, field, m, solverOptKeys); err != nil {
		return nil, err
	}
	var o SolverOpts
	for _, k := range sortedKeys(m) {
		kat, kf := at+"."+k, field+"."+k
		var err error
		switch k {
		case "tau":
			o.Tau, err = p.float(kat, kf, m[k])
		case "atol":
			o.ATol, err = p.float(kat, kf, m[k])
		case "btol":
			o.BTol, err = p.float(kat, kf, m[k])
		case "conlim":
			o.ConLim, err = p.float(kat, kf, m[k])
		case "patience":
			o.Patience, err = p.int(kat, kf, m[k])
		default: // stop, heldout, lsmr
			b, ok := m[k].(bool)
			if !ok {
				return nil, p.errAt(kat, kf, "want true or false, got %s", typeName(m[k]))
			}
			switch k {
			case "stop":
				o.Stop = b
			case "heldout":
				o.HeldOut = b
			case "lsmr":
				o.LSMR = b
			}
		}
		if err != nil {
			return nil, err
		}
	}
	return &o, nil
}

// quick parses a table's quick-tier budgets.
func (p *fileParser) quick(at, field string, v any) (map[string]Budget, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, p.errAt(at, field, "want a table of budgets per model, like { elm = { seeds = [0, 1] } }, got %s", typeName(v))
	}
	if err := p.known(at, field, m, Models); err != nil {
		return nil, err
	}
	out := map[string]Budget{}
	for _, model := range sortedKeys(m) {
		bat, bfield := at+"."+model, field+"."+model
		bm, ok := m[model].(map[string]any)
		if !ok {
			return nil, p.errAt(bat, bfield, "want { seeds = [...], iters = N }, got %s", typeName(m[model]))
		}
		if err := p.known(bat, bfield, bm, budgetKeys); err != nil {
			return nil, err
		}
		var b Budget
		sv, ok := bm["seeds"]
		if !ok {
			return nil, p.errAt(bat, bfield+".seeds", "missing: give the quick tier's seeds, e.g. seeds = [0]")
		}
		var err error
		if b.Seeds, err = p.seeds(bat+".seeds", bfield+".seeds", sv); err != nil {
			return nil, err
		}
		if iv, ok := bm["iters"]; ok {
			if b.Iters, err = p.int(bat+".iters", bfield+".iters", iv); err != nil {
				return nil, err
			}
			if b.Iters < 0 {
				return nil, p.errAt(bat+".iters", bfield+".iters", "%d: want 0 (the full budget) or more", b.Iters)
			}
		}
		out[model] = b
	}
	return out, nil
}

// known returns an error naming the first key of m (in line order) that
// is not one of keys.
func (p *fileParser) known(at, field string, m map[string]any, keys []string) error {
	var bad []string
	for k := range m {
		if !slices.Contains(keys, k) {
			bad = append(bad, k)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	slices.SortFunc(bad, func(a, b string) int { return p.line(at+"."+a) - p.line(at+"."+b) })
	return p.errAt(at+"."+bad[0], field+": "+bad[0], "unknown key (keys here: %s)", strings.Join(keys, ", "))
}

// str returns the string value of key k of m; a missing required key is an
// error, a missing optional one "".
func (p *fileParser) str(at, field string, m map[string]any, k string, required bool) (string, error) {
	v, ok := m[k]
	if !ok {
		if required {
			return "", p.errAt(at, field+": "+k, "missing")
		}
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", p.errAt(at+"."+k, field+": "+k, "want a string, got %s", typeName(v))
	}
	if strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return "", p.errAt(at+"."+k, field+": "+k, "%q holds a control character", s)
	}
	if required && s == "" {
		return "", p.errAt(at+"."+k, field+": "+k, "empty")
	}
	return s, nil
}

// text returns the string value of an optional key of prose: line breaks
// and tabs are allowed (a TOML multi-line string) and read as spaces;
// other control characters are refused.
func (p *fileParser) text(at, field string, m map[string]any, k string) (string, error) {
	v, ok := m[k]
	if !ok {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", p.errAt(at+"."+k, field+": "+k, "want a string, got %s", typeName(v))
	}
	if strings.ContainsFunc(s, func(r rune) bool { return (r < 0x20 || r == 0x7f) && r != '\n' && r != '\t' && r != '\r' }) {
		return "", p.errAt(at+"."+k, field+": "+k, "holds a control character")
	}
	return strings.Join(strings.Fields(s), " "), nil
}

// float returns a number (an integer or a float) as a float64.
func (p *fileParser) float(at, field string, v any) (float64, error) {
	switch x := v.(type) {
	case int64:
		return float64(x), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, p.errAt(at, field, "%v: want a finite number", x)
		}
		return x, nil
	}
	return 0, p.errAt(at, field, "want a number, got %s", typeName(v))
}

// int returns an integer value.
func (p *fileParser) int(at, field string, v any) (int, error) {
	x, ok := v.(int64)
	if !ok {
		return 0, p.errAt(at, field, "want an integer, got %s", typeName(v))
	}
	if x < math.MinInt32 || x > math.MaxInt32 {
		return 0, p.errAt(at, field, "%d is out of range", x)
	}
	return int(x), nil
}

// levels returns subdomains per level, a list of positive integers.
func (p *fileParser) levels(at, field string, v any) ([]int, error) {
	l, ok := v.([]any)
	if !ok || len(l) == 0 {
		return nil, p.errAt(at, field, "want subdomains per level, a list like [20] or [1, 10, 20], got %s", typeName(v))
	}
	out := make([]int, len(l))
	for i, x := range l {
		j, err := p.int(at, field, x)
		if err != nil {
			return nil, p.errAt(at, field, "want subdomains per level, a list of integers like [20] or [1, 10, 20] (a list of such lists sweeps J)")
		}
		if j < 1 {
			return nil, p.errAt(at, field, "%d: every level needs at least 1 subdomain", j)
		}
		out[i] = j
	}
	return out, nil
}

// seeds returns a list of distinct non-negative seeds.
func (p *fileParser) seeds(at, field string, v any) ([]int, error) {
	l, ok := v.([]any)
	if !ok || len(l) == 0 {
		return nil, p.errAt(at, field, "want a non-empty list of seeds like [0, 1, 2, 3, 4], got %s", typeName(v))
	}
	if len(l) > maxSweep {
		return nil, p.errAt(at, field, "%d seeds, more than %d", len(l), maxSweep)
	}
	out := make([]int, len(l))
	for i, x := range l {
		s, err := p.int(at, field, x)
		if err != nil || s < 0 {
			return nil, p.errAt(at, field, "want non-negative integers like [0, 1, 2, 3, 4]")
		}
		if slices.Contains(out[:i], s) {
			return nil, p.errAt(at, field, "seed %d is listed twice", s)
		}
		out[i] = s
	}
	return out, nil
}

// typeName names the TOML type of a decoded value for messages.
func typeName(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("the string %q", x)
	case int64:
		return fmt.Sprintf("the integer %d", x)
	case float64:
		return fmt.Sprintf("the float %v", x)
	case bool:
		return fmt.Sprintf("%v", x)
	case []any:
		return "a list"
	case map[string]any:
		return "a table"
	}
	return fmt.Sprintf("a %T", v)
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// ParseKind returns the Kind a name (Kind.String) stands for.
func ParseKind(name string) (Kind, error) {
	var names []string
	for k := Baseline; k <= Solvers; k++ {
		if k.String() == name {
			return k, nil
		}
		names = append(names, k.String())
	}
	return 0, fmt.Errorf("unknown kind %q (want one of %s)", name, strings.Join(names, ", "))
}

// lineIndex maps the key path of every key and value of a TOML document
// ("table.0.rows.2.K", "table.0.rows.2.K.1" for a list's element) to its
// line, from go-toml's parser (the decoder gives values without places).
// Array-of-tables elements are numbered as the decoder numbers them. A
// document that does not parse gives what was indexed before the error
// (the decoder reports the error itself).
func lineIndex(data []byte) map[string]int {
	idx := map[string]int{}
	var p unstable.Parser
	p.Reset(data)
	count := map[string]int{} // array-of-tables path -> elements so far
	line := func(n *unstable.Node) int {
		if n == nil || n.Raw.Length == 0 && n.Raw.Offset == 0 {
			return 0
		}
		return p.Shape(n.Raw).Start.Line
	}
	// resolve returns the path of a header's dotted key under the root,
	// stepping into the last element of every array of tables on the way;
	// array says the header opens a new element of the last part.
	resolve := func(e *unstable.Node, array bool) (string, int) {
		path, ln := "", 0
		it := e.Key()
		var parts []*unstable.Node
		for it.Next() {
			parts = append(parts, it.Node())
		}
		for i, k := range parts {
			if path != "" {
				path += "."
			}
			path += string(k.Data)
			ln = line(k)
			if i == len(parts)-1 && array {
				count[path]++
				path += "." + strconv.Itoa(count[path]-1)
			} else if c := count[path]; c > 0 {
				path += "." + strconv.Itoa(c-1)
			}
		}
		return path, ln
	}
	var value func(path string, v *unstable.Node, ln int)
	keyValue := func(prefix string, kv *unstable.Node) {
		path, ln := prefix, 0
		it := kv.Key()
		for it.Next() {
			k := it.Node()
			if path != "" {
				path += "."
			}
			path += string(k.Data)
			ln = line(k)
			if _, ok := idx[path]; !ok {
				idx[path] = ln
			}
		}
		value(path, kv.Value(), ln)
	}
	value = func(path string, v *unstable.Node, ln int) {
		if v == nil {
			return
		}
		if l := line(v); l > 0 {
			ln = l
		}
		if _, ok := idx[path]; !ok {
			idx[path] = ln
		}
		switch v.Kind {
		case unstable.InlineTable:
			it := v.Children()
			for it.Next() {
				keyValue(path, it.Node())
			}
		case unstable.Array:
			it := v.Children()
			for i := 0; it.Next(); i++ {
				value(path+"."+strconv.Itoa(i), it.Node(), ln)
			}
		}
	}
	cur := ""
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			var ln int
			cur, ln = resolve(e, e.Kind == unstable.ArrayTable)
			idx[cur] = ln
		case unstable.KeyValue:
			keyValue(cur, e)
		}
	}
	return idx
}

// Export writes tables as an experiment file that ReadFiles reads back into
// the same rows, runs and run keys, the paper's values of a paper table
// written as each row's reference values (source: the paper's label). Rows
// in a run that differ in one field only are written as one row that
// sweeps it; a value equal to its default is left out.
func Export(w io.Writer, tables ...*Table) error {
	var b strings.Builder
	for i, t := range tables {
		if i > 0 {
			b.WriteString("\n")
		}
		if err := exportTable(&b, t); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func exportTable(b *strings.Builder, t *Table) error {
	if t.Seeds != nil {
		return fmt.Errorf("table %s: a selection's seeds replace the rows' in every tier; export the table as declared", t.ID)
	}
	fmt.Fprintf(b, "[[table]]\nid = %s\ntitle = %s\nkind = %s\n", tomlString(t.ID), tomlString(t.Title), tomlString(t.Kind.String()))
	if t.Description != "" {
		fmt.Fprintf(b, "description = %s\n", tomlString(t.Description))
	}
	if t.Paper != "" {
		fmt.Fprintf(b, "# exported from the paper's table %s: ref holds its published values\n", t.Paper)
	}
	problem := ""
	if len(t.Rows) > 0 && !slices.ContainsFunc(t.Rows, func(r Row) bool { return r.Problem != t.Rows[0].Problem }) {
		problem = t.Rows[0].Problem
		fmt.Fprintf(b, "problem = %s\n", tomlString(problem))
	}
	if t.NoKappa {
		b.WriteString("kappa = false\n")
	}
	if q := t.Quick; q != nil && len(q.Budgets) > 0 {
		b.WriteString("\n[table.quick]\n")
		for _, m := range Models {
			bu, ok := q.Budgets[m]
			if !ok {
				continue
			}
			fmt.Fprintf(b, "%s = { seeds = %s", m, tomlInts(bu.Seeds))
			if bu.Iters > 0 {
				fmt.Fprintf(b, ", iters = %d", bu.Iters)
			}
			b.WriteString(" }\n")
		}
	}
	for _, g := range sweepGroups(t) {
		b.WriteString("\n[[table.rows]]\n")
		r := g.rows[0]
		fields := rowFields(t, r, problem)
		for _, f := range fields {
			if f.key == g.field {
				vals := make([]string, len(g.rows))
				for i, gr := range g.rows {
					vals[i] = fieldValue(gr, f.key)
				}
				fmt.Fprintf(b, "%s = [%s]\n", f.key, strings.Join(vals, ", "))
				continue
			}
			fmt.Fprintf(b, "%s = %s\n", f.key, f.value)
		}
		if g.field != "" && !slices.ContainsFunc(fields, func(f kv) bool { return f.key == g.field }) {
			vals := make([]string, len(g.rows))
			for i, gr := range g.rows {
				vals[i] = fieldValue(gr, g.field)
			}
			fmt.Fprintf(b, "%s = [%s]\n", g.field, strings.Join(vals, ", "))
		}
		if t.Quick != nil && t.Quick.Only != nil && !t.Quick.Only(r) {
			b.WriteString("quick = false\n")
		}
		var refs []string
		for _, gr := range g.rows {
			if p, ok := t.PaperRow(gr); ok {
				refs = append(refs, tomlRef(p))
			}
		}
		switch {
		case len(refs) == 0:
		case g.field == "":
			fmt.Fprintf(b, "ref = %s\n", refs[0])
		default:
			fmt.Fprintf(b, "ref = [\n  %s,\n]\n", strings.Join(refs, ",\n  "))
		}
	}
	return nil
}

// kv is one key = value line of a row.
type kv struct{ key, value string }

// rowFields returns the fields of row r to write: model, and every other
// one whose value differs from its default in the file (problem: the
// table's).
func rowFields(t *Table, r Row, problem string) []kv {
	out := []kv{{"model", tomlString(r.Model)}}
	if r.Problem != problem {
		out = append(out, kv{"problem", tomlString(r.Problem)})
	}
	out = append(out, kv{"param", fieldValue(r, "param")}, kv{"J", fieldValue(r, "J")}, kv{"K", fieldValue(r, "K")})
	if r.Model == PINN {
		out = append(out, kv{"width", fieldValue(r, "width")})
	}
	if r.R != fullR {
		out = append(out, kv{"R", fieldValue(r, "R")})
	}
	if r.Delta != fullDelta {
		out = append(out, kv{"delta", fieldValue(r, "delta")})
	}
	if r.Budget() != FullIters {
		out = append(out, kv{"iters", fieldValue(r, "iters")})
	}
	if r.Solver != "" {
		out = append(out, kv{"solver", fieldValue(r, "solver")})
	}
	if r.SolverOpts != nil {
		out = append(out, kv{"solver_opts", tomlSolverOpts(*r.SolverOpts)})
	}
	if r.Seeds != nil {
		out = append(out, kv{"seeds", tomlInts(r.Seeds)})
	}
	return out
}

// fieldValue writes row r's value of a field in TOML.
func fieldValue(r Row, k string) string {
	switch k {
	case "J":
		return tomlInts(r.J)
	case "solver":
		return tomlString(r.Solver)
	}
	return sweepValue(r, k) // numbers as num writes them: TOML reads them back exactly
}

// group is rows written as one row of the file: a row alone (field "") or
// consecutive rows that differ in field only.
type group struct {
	field string
	rows  []Row
}

// sweepGroups splits a table's rows into groups.
func sweepGroups(t *Table) []group {
	var out []group
	for _, r := range t.Rows {
		if n := len(out); n > 0 {
			g := &out[n-1]
			if f, ok := differsIn(t, g.rows[0], r); ok && (g.field == "" || g.field == f) {
				// Every row of the group differs from its first in f only,
				// so from each other too; values must stay distinct.
				if !slices.ContainsFunc(g.rows, func(x Row) bool { return fieldValue(x, f) == fieldValue(r, f) }) {
					g.field, g.rows = f, append(g.rows, r)
					continue
				}
			}
		}
		out = append(out, group{rows: []Row{r}})
	}
	return out
}

// differsIn returns the one sweepable field in which rows a and b differ,
// if they differ in exactly one and agree in everything else that a file
// row writes (model, problem, seeds, quick, whether each has reference
// values).
func differsIn(t *Table, a, b Row) (string, bool) {
	if a.Model != b.Model || a.Problem != b.Problem || !slices.Equal(a.Seeds, b.Seeds) ||
		(a.SolverOpts == nil) != (b.SolverOpts == nil) || a.SolverOpts != nil && *a.SolverOpts != *b.SolverOpts {
		return "", false
	}
	if t.Quick != nil && t.Quick.Only != nil && t.Quick.Only(a) != t.Quick.Only(b) {
		return "", false
	}
	_, ra := t.PaperRow(a)
	_, rb := t.PaperRow(b)
	if ra != rb {
		return "", false
	}
	field := ""
	for _, k := range sweepKeys {
		if fieldValue(a, k) != fieldValue(b, k) {
			if field != "" {
				return "", false
			}
			field = k
		}
	}
	return field, field != ""
}

// tomlSolverOpts writes solver options as an inline table of the options
// set.
func tomlSolverOpts(o SolverOpts) string {
	var parts []string
	add := func(k, v string) { parts = append(parts, k+" = "+v) }
	if o.Tau != 0 {
		add("tau", num(o.Tau))
	}
	if o.Stop {
		add("stop", "true")
	}
	if o.ATol != 0 {
		add("atol", num(o.ATol))
	}
	if o.BTol != 0 {
		add("btol", num(o.BTol))
	}
	if o.ConLim != 0 {
		add("conlim", num(o.ConLim))
	}
	if o.HeldOut {
		add("heldout", "true")
	}
	if o.Patience != 0 {
		add("patience", strconv.Itoa(o.Patience))
	}
	if o.LSMR {
		add("lsmr", "true")
	}
	return "{ " + strings.Join(parts, ", ") + " }"
}

// tomlRef writes reference values as an inline table.
func tomlRef(p paperdata.Row) string {
	s := fmt.Sprintf("{ median = %s, range = %s", num(p.EL1Median), num(p.EL1Range))
	if p.TimeMean > 0 {
		s += ", time = " + num(p.TimeMean)
	}
	return s + ", source = " + tomlString(p.Table) + " }"
}

// tomlString writes a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// tomlInts writes a list of integers.
func tomlInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
