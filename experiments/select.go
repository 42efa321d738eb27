package experiments

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Selection narrows the runs of a set of tables in a tier: the rows of some
// models, the rows a Where expression matches, and the seeds to run. Its
// zero value selects everything at the tier's seeds.
type Selection struct {
	// Models keeps the rows of these models (ELM, FBPINN, PINN); nil keeps
	// every model.
	Models []string
	// Where keeps the rows it matches; the zero Where matches every row.
	Where Where
	// Seeds replaces the tier's seeds of every selected row (Table.Seeds);
	// nil keeps the tier's.
	Seeds []int
}

// FormatInts writes non-negative integers in increasing order as repro's
// -seeds and -cpus flags take them, each run of consecutive values as a
// range: "0-4", "0,2", "0-2,7"; "" for none.
func FormatInts(xs []int) string {
	var parts []string
	for i := 0; i < len(xs); {
		j := i
		for j+1 < len(xs) && xs[j+1] == xs[j]+1 {
			j++
		}
		part := strconv.Itoa(xs[i])
		if j > i {
			part += "-" + strconv.Itoa(xs[j])
		}
		parts, i = append(parts, part), j+1
	}
	return strings.Join(parts, ",")
}

// WhereKeys are the row parameters a Where expression may test:
//
//	problem  oscillator, laplace or helmholtz
//	param    the problem's parameter (ω0, n_ω or ω)
//	J        subdomains per dimension of the finest level
//	L        the number of levels
//	K        features per subdomain
//	width    the PINN's hidden width (0 for the other models)
//	R        the weight scale
//	delta    the width ratio of the subdomains
//	row      the row's index in its table, from 0
//	solver   the ELM-FBPINN's least-squares method (lsqr: the paper's
//	         forced LSQR, which the other models' rows count as too)
var WhereKeys = []string{"problem", "param", "J", "L", "K", "width", "R", "delta", "row", "solver"}

// Where is a conjunction of clauses over a row's parameters, written
//
//	key=v1,v2;key=v3
//
// A clause holds if the row's value of key equals one of its values
// (numbers compare as numbers: 0.5 matches .5); a row matches if every
// clause holds. Keys are WhereKeys (case-sensitive: J and K as in the
// paper); blanks around keys and values are ignored. The zero Where has no
// clauses and matches every row.
type Where struct {
	clauses []clause
}

// clause is one key=v1,v2 of a Where.
type clause struct {
	key  string
	text string    // the clause as written, for messages
	nums []float64 // the values of a numeric key
	strs []string  // the values of problem
}

// ParseWhere parses a Where expression; "" gives the zero Where.
func ParseWhere(s string) (Where, error) {
	var w Where
	if strings.TrimSpace(s) == "" {
		return w, nil
	}
	for part := range strings.SplitSeq(s, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		key, vals, ok := strings.Cut(part, "=")
		key = strings.TrimSpace(key)
		if !ok {
			return Where{}, fmt.Errorf("bad -where clause %q: want key=value[,value...], e.g. K=8,16;J=4", part)
		}
		if !slices.Contains(WhereKeys, key) {
			return Where{}, fmt.Errorf("bad -where clause %q: unknown key %q (keys: %s)", part, key, strings.Join(WhereKeys, ", "))
		}
		c := clause{key: key}
		var texts []string
		for v := range strings.SplitSeq(vals, ",") {
			v = strings.TrimSpace(v)
			texts = append(texts, v)
			if v == "" {
				return Where{}, fmt.Errorf("bad -where clause %q: empty value", part)
			}
			if key == "problem" {
				if _, err := ProblemNamed(v); err != nil {
					return Where{}, fmt.Errorf("bad -where clause %q: %w", part, err)
				}
				c.strs = append(c.strs, v)
				continue
			}
			if key == "solver" {
				if v != "lsqr" && !slices.Contains(SolverNames(), v) {
					return Where{}, fmt.Errorf("bad -where clause %q: unknown solver %q (want lsqr or one of %s)", part, v, strings.Join(SolverNames(), ", "))
				}
				c.strs = append(c.strs, v)
				continue
			}
			x, err := strconv.ParseFloat(v, 64)
			if err != nil || x != x {
				return Where{}, fmt.Errorf("bad -where clause %q: %q is not a number", part, v)
			}
			c.nums = append(c.nums, x)
		}
		// The values as parsed (trimmed): messages quote the clause on one
		// line.
		c.text = key + "=" + strings.Join(texts, ",")
		w.clauses = append(w.clauses, c)
	}
	return w, nil
}

// String returns the expression in a canonical form ("" for the zero Where).
func (w Where) String() string {
	parts := make([]string, len(w.clauses))
	for i, c := range w.clauses {
		parts[i] = c.text
	}
	return strings.Join(parts, ";")
}

// Match reports whether row i of a table, r, matches every clause.
func (w Where) Match(i int, r Row) bool {
	for _, c := range w.clauses {
		if !c.match(i, r) {
			return false
		}
	}
	return true
}

func (c clause) match(i int, r Row) bool {
	switch c.key {
	case "problem":
		return slices.Contains(c.strs, r.Problem)
	case "solver":
		return slices.Contains(c.strs, r.solverName())
	}
	return slices.Contains(c.nums, c.value(i, r))
}

// value is the row's value of a numeric key.
func (c clause) value(i int, r Row) float64 {
	switch c.key {
	case "param":
		return r.Param
	case "J":
		if len(r.J) == 0 {
			return 0
		}
		return float64(r.J[len(r.J)-1])
	case "L":
		return float64(len(r.J))
	case "K":
		return float64(r.K)
	case "width":
		return float64(r.Width)
	case "R":
		return r.R
	case "delta":
		return r.Delta
	case "row":
		return float64(i)
	}
	return 0
}

// show is the row's value of the clause's key as a message shows it.
func (c clause) show(i int, r Row) string {
	switch c.key {
	case "problem":
		return r.Problem
	case "solver":
		return r.solverName()
	}
	return strconv.FormatFloat(c.value(i, r), 'g', -1, 64)
}

// Select returns copies of the tables that keep the rows of the tier that
// sel selects, with sel.Seeds as their seeds; tables the filters leave
// without rows are dropped, and tables with no runs in the tier are kept as
// they are (they add no run; a report says the tier skips them). A selection that matches no run is an error that names the
// filter that emptied it and the values available at that point.
func Select(tables []*Table, tier string, sel Selection) ([]*Table, error) {
	for _, m := range sel.Models {
		if !slices.Contains(Models, m) {
			return nil, fmt.Errorf("unknown model %q (want %s)", m, strings.Join(Models, ", "))
		}
	}
	if !slices.Contains(Tiers, tier) {
		return nil, fmt.Errorf("unknown tier %q (want %s)", tier, strings.Join(Tiers, " or "))
	}
	// keep[t][i]: row i of table t is still selected.
	keep := make([][]bool, len(tables))
	outside := make([]bool, len(tables)) // no row of the table is in the tier
	n := 0
	var ids []string
	for ti, t := range tables {
		keep[ti] = make([]bool, len(t.Rows))
		outside[ti] = true
		for i, r := range t.Rows {
			if t.InTier(tier, r) {
				keep[ti][i] = true
				outside[ti] = false
				n++
			}
		}
		ids = append(ids, t.ID)
	}
	if n == 0 {
		var with []string
		for _, t := range Tables() {
			if slices.ContainsFunc(t.Rows, func(r Row) bool { return t.InTier(tier, r) }) {
				with = append(with, t.ID)
			}
		}
		return nil, fmt.Errorf("tables %s have no runs in the %s tier (tables with some: %s)", strings.Join(ids, ","), tier, strings.Join(with, ","))
	}
	// filter applies one test to the rows still kept; if none is left it
	// returns an error naming the values of the rows before the test.
	filter := func(what string, test func(i int, r Row) bool, show func(i int, r Row) string) error {
		seen := map[string]bool{}
		var avail []string
		left := 0
		for ti, t := range tables {
			for i, r := range t.Rows {
				if !keep[ti][i] {
					continue
				}
				if v := show(i, r); !seen[v] {
					seen[v] = true
					avail = append(avail, v)
				}
				if test(i, r) {
					left++
				} else {
					keep[ti][i] = false
				}
			}
		}
		if left == 0 {
			sortValues(avail)
			return fmt.Errorf("%s matches no run of tables %s in the %s tier (available: %s)", what, strings.Join(ids, ","), tier, strings.Join(avail, ", "))
		}
		return nil
	}
	if sel.Models != nil {
		err := filter("-model "+strings.Join(sel.Models, ","),
			func(_ int, r Row) bool { return slices.Contains(sel.Models, r.Model) },
			func(_ int, r Row) string { return r.Model })
		if err != nil {
			return nil, err
		}
	}
	for _, c := range sel.Where.clauses {
		if err := filter("-where "+c.text, c.match, func(i int, r Row) string { return c.key + "=" + c.show(i, r) }); err != nil {
			return nil, err
		}
	}
	var out []*Table
	for ti, t := range tables {
		if outside[ti] {
			// Kept as it is: it has no runs in the tier, and a report
			// says so.
			out = append(out, t)
			continue
		}
		c := *t
		c.Rows = nil
		for i, r := range t.Rows {
			if keep[ti][i] {
				c.Rows = append(c.Rows, r)
			}
		}
		if len(c.Rows) == 0 {
			continue
		}
		if sel.Seeds != nil {
			c.Seeds = slices.Clone(sel.Seeds)
		}
		out = append(out, &c)
	}
	return out, nil
}

// solverName is the row's solver as -where names it: lsqr for the paper's.
func (r Row) solverName() string {
	if r.Solver == "" {
		return "lsqr"
	}
	return r.Solver
}

// sortValues sorts values of the form "key=x" numerically where x is a
// number, else as strings.
func sortValues(vs []string) {
	num := func(s string) (float64, bool) {
		_, v, _ := strings.Cut(s, "=")
		x, err := strconv.ParseFloat(v, 64)
		return x, err == nil
	}
	slices.SortFunc(vs, func(a, b string) int {
		x, okx := num(a)
		y, oky := num(b)
		if okx && oky {
			switch {
			case x < y:
				return -1
			case x > y:
				return 1
			}
			return 0
		}
		return strings.Compare(a, b)
	})
}
