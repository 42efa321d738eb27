package reports

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"elmfbpinn/experiments"
)

// This file recomputes the paper's qualitative summary table
// (tab:summary-takeaways, "Qualitative comparison across experiments") from
// table rows. Each cell of that table (an aspect for a model, e.g. "Runtime
// efficiency" for the ELM-FBPINN: "Fastest") is made of checks with a
// numerical rule. Every check is evaluated twice: on our results and on the
// paper's own published rows, so that a claim the paper's numbers do not
// bear out is told apart from a disagreement of ours. A check needs every
// row it reads to be complete at the paper's budget; otherwise it is not
// evaluated and says which runs are missing.

// Thresholds of the checks.
const (
	// convergedEL1: a run "converges" when its median e_L1 is below this.
	convergedEL1 = 0.05
	// catastrophicEL1: a scaling row "fails catastrophically" at or above
	// this (the PINN's failures sit at 0.6-0.8; the paper's worst FBPINN
	// scaling row is 0.14).
	catastrophicEL1 = 0.2
	// poorFactor: the PINN is "poor" when its error is this many times the
	// best decomposed model's.
	poorFactor = 10
	// lowFactor: in 2D the ELM-FBPINN is "low" when within this factor of
	// the FBPINN ("within the same order of magnitude").
	lowFactor = 10
	// mlTimeFactor: the multilevel model is "fast" when it takes at most
	// this many times the one-level ELM-FBPINN's time ("only slightly more").
	mlTimeFactor = 3
	// earlyIter is where "fast initial convergence" is read off the
	// histories: the FBPINN's first record after the start.
	earlyIter = 1000
)

// Status is the outcome of a check or a claim.
type Status int

const (
	NotEvaluated Status = iota // rows are missing
	Holds                      // the numbers bear the claim out
	Fails                      // the numbers contradict the claim
	NoCheck                    // the paper gives no data to check the claim against
)

// String returns the status as the report words it: "holds", "does not
// hold", "no check" or "not evaluated".
func (s Status) String() string {
	switch s {
	case Holds:
		return "holds"
	case Fails:
		return "does not hold"
	case NoCheck:
		return "no check"
	}
	return "not evaluated"
}

// Outcome is a check evaluated on one set of rows.
type Outcome struct {
	Status  Status
	Detail  string   // the numbers behind the status (of the parts evaluated)
	Missing []string // the runs missing for the rest, grouped by table
}

// missingRuns is the outcome of a check that lacks runs.
func missingRuns(what ...string) Outcome { return Outcome{Status: NotEvaluated, Missing: what} }

// String renders the outcome's numbers and what is missing.
func (o Outcome) String() string {
	parts := []string{}
	if o.Detail != "" {
		parts = append(parts, o.Detail)
	}
	if len(o.Missing) > 0 {
		parts = append(parts, "missing runs: "+strings.Join(o.Missing, "; "))
	}
	return strings.Join(parts, "; ")
}

// CheckResult is one check of a claim, on our results and on the paper's.
type CheckResult struct {
	Rule  string // the rule in words
	Ours  Outcome
	Paper Outcome
}

// Disagrees reports whether our results decide the check otherwise than the
// paper's numbers, or fail a check the paper's numbers cannot decide.
func (c CheckResult) Disagrees() bool {
	switch c.Ours.Status {
	case Fails:
		return c.Paper.Status != Fails
	case Holds:
		return c.Paper.Status == Fails
	}
	return false
}

// ClaimResult is one cell of the paper's summary table, recomputed.
type ClaimResult struct {
	Aspect string // the row of the paper's table
	Model  string // the column
	Paper  string // the paper's entry
	Checks []CheckResult
}

// Ours aggregates the checks on our results: Fails if any fails, Holds if
// all hold, NoCheck if there is nothing to check, else NotEvaluated.
func (c ClaimResult) Ours() Status {
	return aggregate(c.Checks, func(r CheckResult) Status { return r.Ours.Status })
}

// PaperStatus aggregates the checks on the paper's numbers.
func (c ClaimResult) PaperStatus() Status {
	return aggregate(c.Checks, func(r CheckResult) Status { return r.Paper.Status })
}

func aggregate(cs []CheckResult, f func(CheckResult) Status) Status {
	if len(cs) == 0 {
		return NoCheck
	}
	all, none := true, true
	for _, c := range cs {
		switch f(c) {
		case Fails:
			return Fails
		case Holds:
			none = false
		case NoCheck:
		default:
			all = false
			none = false
		}
	}
	switch {
	case none:
		return NoCheck
	case all:
		return Holds
	}
	return NotEvaluated
}

// Columns and aspects of the paper's summary table, in its order.
var (
	ClaimModels  = []string{"PINN", "FBPINN", "ELM-FBPINN", "Multilevel ELM-FBPINN"}
	ClaimAspects = []string{"Multi-scale convergence", "Final error (1D)", "Final error (2D)",
		"Scalability (frequency)", "Runtime efficiency"}
)

// obs is one table row as the checks see it: ours or the paper's.
type obs struct {
	table, key string  // table id; model key: pinn, fbpinn, elm, elm-ml
	x          float64 // the row's position on the table's swept axis
	name       string
	ok         bool   // complete at the paper's budget (ours) or published (paper)
	why        string // why not ok
	el1, time  float64
	band       Band // ours only
}

// evidence is every row the checks may read, ours or the paper's.
type evidence struct {
	paper  bool
	rows   map[string][]obs  // by table id
	absent map[string]string // table id → why it has no rows here
}

func modelKey(r experiments.Row) string {
	if r.Model == experiments.ELM && len(r.J) > 1 {
		return "elm-ml"
	}
	return r.Model
}

// oursEvidence builds the evidence of the reported tables.
func oursEvidence(trs []*TableReport, results map[string]*experiments.Result) *evidence {
	e := &evidence{rows: map[string][]obs{}, absent: map[string]string{}}
	for _, t := range experiments.Tables() {
		e.absent[t.ID] = "table not in this report"
	}
	for _, tr := range trs {
		delete(e.absent, tr.Table.ID)
		groups, _ := groupRuns(tr.Table, tr.Tier, results)
		for i, s := range tr.Rows {
			o := obs{table: tr.Table.ID, key: modelKey(s.Row), x: finalX(tr.Table, s.Row), name: rowLabel(s),
				el1: s.EL1Median, time: s.TimeMean}
			switch {
			case s.Want == 0:
				o.why = "not in the " + tr.Tier + " tier"
			case !s.Complete():
				o.why = s.seedCount()
			case s.Reduced:
				o.why = fmt.Sprintf("shortened run of %d steps in this tier", s.Iters)
			default:
				o.ok = true
			}
			if o.ok && groups != nil {
				o.band = groups[i].band()
			}
			e.rows[tr.Table.ID] = append(e.rows[tr.Table.ID], o)
		}
	}
	return e
}

// paperEvidence builds the evidence of the paper's published rows of every
// table.
func paperEvidence() *evidence {
	e := &evidence{paper: true, rows: map[string][]obs{}, absent: map[string]string{}}
	for _, t := range experiments.Tables() {
		for _, r := range t.Rows {
			o := obs{table: t.ID, key: modelKey(r), x: finalX(t, r), name: rowLabel(RowStats{Table: t, Row: r})}
			if p, ok := t.PaperRow(r); ok {
				o.ok, o.el1, o.time = true, p.EL1Median, p.TimeMean
			} else {
				o.why = "no published row"
			}
			e.rows[t.ID] = append(e.rows[t.ID], o)
		}
	}
	return e
}

// need returns the rows of a model in a table and, if some are not usable,
// the outcome that says which are missing.
func (e *evidence) need(table string, keys ...string) ([]obs, *Outcome) {
	if why, ok := e.absent[table]; ok {
		o := missingRuns(table + " (" + why + ")")
		return nil, &o
	}
	var rows, missing []obs
	for _, o := range e.rows[table] {
		if !slices.Contains(keys, o.key) {
			continue
		}
		if !o.ok {
			missing = append(missing, o)
			continue
		}
		rows = append(rows, o)
	}
	if len(missing) > 0 {
		o := missingRuns(describeMissing(missing)...)
		return nil, &o
	}
	if len(rows) == 0 {
		// A selection (repro report -model, -where) left these rows out.
		o := missingRuns(fmt.Sprintf("%s (no %s rows selected)", table, strings.Join(keys, "/")))
		return nil, &o
	}
	return rows, nil
}

// needPair returns the rows of two models in a table, keyed by their swept
// value, or the outcome that says which rows are missing.
func (e *evidence) needPair(table, a, b string) (ma, mb map[float64]obs, miss *Outcome) {
	ra, miss := e.need(table, a)
	if miss != nil {
		return nil, nil, miss
	}
	rb, miss := e.need(table, b)
	if miss != nil {
		return nil, nil, miss
	}
	return byX(ra), byX(rb), nil
}

// describeMissing groups missing rows by table and reason.
func describeMissing(ms []obs) []string {
	type group struct {
		table, why string
		names      []string
	}
	var gs []*group
	for _, m := range ms {
		i := slices.IndexFunc(gs, func(g *group) bool { return g.table == m.table && g.why == m.why })
		if i < 0 {
			gs = append(gs, &group{table: m.table, why: m.why})
			i = len(gs) - 1
		}
		gs[i].names = append(gs[i].names, m.name)
	}
	var parts []string
	for _, g := range gs {
		if len(g.names) <= 2 {
			parts = append(parts, fmt.Sprintf("%s %s (%s)", g.table, strings.Join(g.names, ", "), g.why))
		} else {
			parts = append(parts, fmt.Sprintf("%s %d rows (%s)", g.table, len(g.names), g.why))
		}
	}
	return parts
}

// merge combines the outcomes of the parts of a check that must all hold:
// a part that fails fails the check (a counterexample decides it even when
// other parts lack runs); otherwise a part without its runs leaves the
// check not evaluated, with the numbers of the parts that were.
func merge(parts []Outcome) Outcome {
	var details, missing []string
	failed := false
	for _, p := range parts {
		if p.Status == Fails {
			failed = true
		}
		if p.Detail != "" {
			details = append(details, p.Detail)
		}
		for _, m := range p.Missing {
			if !slices.Contains(missing, m) {
				missing = append(missing, m)
			}
		}
	}
	out := Outcome{Status: Holds, Detail: strings.Join(details, "; "), Missing: missing}
	switch {
	case failed:
		out.Status = Fails
	case len(missing) > 0:
		out.Status = NotEvaluated
	}
	return out
}

// byX indexes rows by their swept value.
func byX(rows []obs) map[float64]obs {
	m := map[float64]obs{}
	for _, o := range rows {
		m[o.x] = o
	}
	return m
}

func sortedX(m map[float64]obs) []float64 {
	var xs []float64
	for x := range m {
		xs = append(xs, x)
	}
	sort.Float64s(xs)
	return xs
}

// tableProblem returns the short problem name of a table id.
func tableProblem(id string) string { return strings.SplitN(id, "-", 2)[0] }

var (
	baselines     = []string{"osc-baseline", "laplace-baseline", "helmholtz-baseline"}
	scalings      = []string{"osc-scaling", "laplace-scaling", "helmholtz-scaling"}
	oscTables     = []string{"osc-baseline", "osc-K", "osc-J", "osc-scaling"}
	twoDBaselines = []string{"laplace-baseline", "helmholtz-baseline"}
	twoDTables    = []string{"laplace-baseline", "laplace-K", "laplace-J", "laplace-scaling",
		"helmholtz-baseline", "helmholtz-K", "helmholtz-J", "helmholtz-scaling"}
)

// check is one rule of a claim.
type check struct {
	rule    string
	history bool // needs error histories: evaluated on our results only
	eval    func(e *evidence) Outcome
}

// claim is one cell of the paper's table with its checks.
type claim struct {
	aspect, model, paper string
	checks               []check
}

// perTable evaluates f on each table and merges the outcomes.
func perTable(e *evidence, tables []string, f func(table string) Outcome) Outcome {
	var parts []Outcome
	for _, t := range tables {
		parts = append(parts, f(t))
	}
	return merge(parts)
}

// below checks el1 of every row of keys in the tables against a bound.
func allBelow(e *evidence, tables []string, bound float64, keys ...string) Outcome {
	return perTable(e, tables, func(t string) Outcome {
		rows, miss := e.need(t, keys...)
		if miss != nil {
			return *miss
		}
		worst := obs{el1: math.Inf(-1)}
		for _, o := range rows {
			if !(o.el1 < worst.el1) {
				worst = o
			}
		}
		if len(rows) == 0 {
			return missingRuns(t + " (no rows)")
		}
		d := fmt.Sprintf("%s worst %s", tableProblem(t), sci(worst.el1))
		if len(rows) == 1 {
			d = fmt.Sprintf("%s %s", tableProblem(t), sci(worst.el1))
		}
		if worst.el1 < bound {
			return Outcome{Status: Holds, Detail: d}
		}
		return Outcome{Status: Fails, Detail: d + " (" + worst.name + ")"}
	})
}

// value is the statistic a comparison reads.
type value func(o obs) float64

func el1Of(o obs) float64  { return o.el1 }
func timeOf(o obs) float64 { return o.time }

// compareAt checks, at every configuration of the tables where both keys
// have rows, that rel holds between the values of keys a and b; what names
// the relation in the detail.
func compareAt(e *evidence, tables []string, a, b string, v value, rel func(va, vb float64) bool, what string) Outcome {
	var missing []Outcome
	var counts, bad []string
	for _, t := range tables {
		ma, mb, miss := e.needPair(t, a, b)
		if miss != nil {
			missing = append(missing, *miss)
			continue
		}
		n, ok := 0, 0
		for _, x := range sortedX(ma) {
			ob, has := mb[x]
			if !has {
				continue
			}
			n++
			if rel(v(ma[x]), v(ob)) {
				ok++
			} else {
				bad = append(bad, fmt.Sprintf("%s %s: %s vs %s", t, ma[x].name, sci(v(ma[x])), sci(v(ob))))
			}
		}
		if n == 0 {
			missing = append(missing, missingRuns(t+" (no matching rows)"))
			continue
		}
		counts = append(counts, fmt.Sprintf("%s %d/%d", t, ok, n))
	}
	out := merge(missing)
	if len(counts) > 0 {
		out.Detail = what + ": " + strings.Join(counts, ", ")
	}
	if len(bad) > 0 {
		out.Status = Fails
		out.Detail += " (not at " + strings.Join(bad, "; ") + ")"
	}
	return out
}

// mostly checks that el1(a) < el1(b) at the baseline and at more than half
// of the matched configurations over the baseline and the tables.
func mostly(e *evidence, base string, tables []string, a, b string) Outcome {
	var missing []Outcome
	wins, n := 0, 0
	var baseBad string
	for _, t := range append([]string{base}, tables...) {
		ma, mb, miss := e.needPair(t, a, b)
		if miss != nil {
			missing = append(missing, *miss)
			continue
		}
		for _, x := range sortedX(ma) {
			ob, ok := mb[x]
			if !ok {
				continue
			}
			n++
			if ma[x].el1 < ob.el1 {
				wins++
			} else if t == base {
				baseBad = fmt.Sprintf("not at the baseline %s (%s vs %s)", t, sci(ma[x].el1), sci(ob.el1))
			}
		}
	}
	if len(missing) > 0 {
		return merge(missing)
	}
	if n == 0 {
		return missingRuns(base + " (no matching rows)")
	}
	d := fmt.Sprintf("%s: lower at %d of %d matched configurations", tableProblem(base), wins, n)
	switch {
	case baseBad != "":
		return Outcome{Status: Fails, Detail: d + "; " + baseBad}
	case 2*wins > n:
		return Outcome{Status: Holds, Detail: d}
	}
	return Outcome{Status: Fails, Detail: d}
}

// early checks that the median error of key a at earlyIter is below key b's
// at every configuration of the tables (our histories only).
func early(e *evidence, tables []string, a, b string) Outcome {
	if e.paper {
		return Outcome{Status: NoCheck, Detail: "the paper shows the histories only in its figures"}
	}
	return perTable(e, tables, func(t string) Outcome {
		ma, mb, miss := e.needPair(t, a, b)
		if miss != nil {
			return *miss
		}
		var parts []string
		ok := true
		for _, x := range sortedX(ma) {
			ob, has := mb[x]
			if !has {
				continue
			}
			va, _, _, okA := ma[x].band.At(earlyIter)
			vb, _, _, okB := ob.band.At(earlyIter)
			if !okA || !okB {
				return missingRuns(fmt.Sprintf("%s (no error history at iteration %d)", t, earlyIter))
			}
			parts = append(parts, fmt.Sprintf("%s vs %s", sci(va), sci(vb)))
			if !(va < vb) {
				ok = false
			}
		}
		if len(parts) == 0 {
			return missingRuns(t + " (no matching rows)")
		}
		d := tableProblem(t) + " " + strings.Join(parts, ", ")
		if ok {
			return Outcome{Status: Holds, Detail: d}
		}
		return Outcome{Status: Fails, Detail: d}
	})
}

func lt(a, b float64) bool { return a < b }
func gt(a, b float64) bool { return a > b }

// claims is the paper's summary table as checks.
var claims = []claim{
	{"Multi-scale convergence", "PINN", "Poor", []check{{
		rule: fmt.Sprintf("at each baseline the PINN's median e_L1 is at least %dx the best decomposed model's", poorFactor),
		eval: func(e *evidence) Outcome {
			return perTable(e, baselines, func(t string) Outcome {
				p, miss := e.need(t, "pinn")
				if miss != nil {
					return *miss
				}
				d, miss := e.need(t, "fbpinn", "elm")
				if miss != nil {
					return *miss
				}
				best := math.Inf(1)
				for _, o := range d {
					best = math.Min(best, o.el1)
				}
				r := p[0].el1 / best
				out := Outcome{Status: Holds, Detail: fmt.Sprintf("%s %sx", tableProblem(t), sig2(r))}
				if !(r >= poorFactor) {
					out.Status = Fails
				}
				return out
			})
		}}}},
	{"Multi-scale convergence", "FBPINN", "Stable", []check{{
		rule: fmt.Sprintf("the FBPINN converges at each baseline (median e_L1 < %g)", convergedEL1),
		eval: func(e *evidence) Outcome { return allBelow(e, baselines, convergedEL1, "fbpinn") }}}},
	{"Multi-scale convergence", "ELM-FBPINN", "Stable (fast initial)", []check{
		{rule: fmt.Sprintf("the ELM-FBPINN converges at each baseline (median e_L1 < %g)", convergedEL1),
			eval: func(e *evidence) Outcome { return allBelow(e, baselines, convergedEL1, "elm") }},
		{rule: fmt.Sprintf("fast initial: at each baseline its median test error at iteration %d is below the FBPINN's", earlyIter),
			history: true,
			eval:    func(e *evidence) Outcome { return early(e, baselines, "elm", "fbpinn") }},
	}},
	{"Multi-scale convergence", "Multilevel ELM-FBPINN", "Stable (fast initial)", []check{
		{rule: fmt.Sprintf("every multilevel row of the three scaling tables converges (median e_L1 < %g)", convergedEL1),
			eval: func(e *evidence) Outcome { return allBelow(e, scalings, convergedEL1, "elm-ml") }},
		{rule: fmt.Sprintf("fast initial: at each frequency of the scaling tables its median test error at iteration %d is below the FBPINN's", earlyIter),
			history: true,
			eval:    func(e *evidence) Outcome { return early(e, scalings, "elm-ml", "fbpinn") }},
	}},
	{"Final error (1D)", "PINN", "Highest", []check{{
		rule: "the PINN's median e_L1 is above the FBPINN's and the ELM-FBPINN's at every configuration of osc-baseline and osc-K",
		eval: func(e *evidence) Outcome {
			tabs := []string{"osc-baseline", "osc-K"}
			return merge([]Outcome{compareAt(e, tabs, "pinn", "fbpinn", el1Of, gt, "above the FBPINN"),
				compareAt(e, tabs, "pinn", "elm", el1Of, gt, "above the ELM-FBPINN")})
		}}}},
	{"Final error (1D)", "FBPINN", "Low", []check{{
		rule: "the FBPINN's median e_L1 is below the PINN's at every configuration of osc-baseline and osc-K",
		eval: func(e *evidence) Outcome {
			return compareAt(e, []string{"osc-baseline", "osc-K"}, "fbpinn", "pinn", el1Of, lt, "below the PINN")
		}}}},
	{"Final error (1D)", "ELM-FBPINN", "Lowest", []check{{
		rule: "the ELM-FBPINN's median e_L1 is below the FBPINN's at the baseline and at most matched configurations of osc-K, osc-J and osc-scaling",
		eval: func(e *evidence) Outcome { return mostly(e, "osc-baseline", oscTables[1:], "elm", "fbpinn") }}}},
	{"Final error (2D)", "PINN", "Highest", []check{{
		rule: "the PINN's median e_L1 is above the FBPINN's and the ELM-FBPINN's at every configuration of the 2D baselines and K tables",
		eval: func(e *evidence) Outcome {
			tabs := []string{"laplace-baseline", "laplace-K", "helmholtz-baseline", "helmholtz-K"}
			return merge([]Outcome{compareAt(e, tabs, "pinn", "fbpinn", el1Of, gt, "above the FBPINN"),
				compareAt(e, tabs, "pinn", "elm", el1Of, gt, "above the ELM-FBPINN")})
		}}}},
	{"Final error (2D)", "FBPINN", "Lowest", []check{{
		rule: "the FBPINN's median e_L1 is below the ELM-FBPINN's at both 2D baselines and at most matched configurations of the 2D K, J and scaling tables",
		eval: func(e *evidence) Outcome {
			return merge([]Outcome{
				mostly(e, "laplace-baseline", []string{"laplace-K", "laplace-J", "laplace-scaling"}, "fbpinn", "elm"),
				mostly(e, "helmholtz-baseline", []string{"helmholtz-K", "helmholtz-J", "helmholtz-scaling"}, "fbpinn", "elm"),
			})
		}}}},
	{"Final error (2D)", "ELM-FBPINN", "Low", []check{{
		rule: fmt.Sprintf("at both 2D baselines the ELM-FBPINN's median e_L1 is below the PINN's and within %dx of the FBPINN's", lowFactor),
		eval: func(e *evidence) Outcome {
			return merge([]Outcome{
				compareAt(e, twoDBaselines, "elm", "pinn", el1Of, lt, "below the PINN"),
				compareAt(e, twoDBaselines, "elm", "fbpinn", el1Of, func(a, b float64) bool { return a < lowFactor*b },
					fmt.Sprintf("within %dx of the FBPINN", lowFactor)),
			})
		}}}},
	{"Scalability (frequency)", "PINN", "Poor", nil},
	{"Scalability (frequency)", "FBPINN", "Stable", []check{{
		rule: fmt.Sprintf("no FBPINN row of the three scaling tables fails (median e_L1 < %g)", catastrophicEL1),
		eval: func(e *evidence) Outcome { return allBelow(e, scalings, catastrophicEL1, "fbpinn") }}}},
	{"Scalability (frequency)", "ELM-FBPINN", "Stable", []check{{
		rule: fmt.Sprintf("no one-level ELM-FBPINN row of the three scaling tables fails (median e_L1 < %g)", catastrophicEL1),
		eval: func(e *evidence) Outcome { return allBelow(e, scalings, catastrophicEL1, "elm") }}}},
	{"Scalability (frequency)", "Multilevel ELM-FBPINN", "Stable", []check{
		{rule: fmt.Sprintf("no multilevel row of the three scaling tables fails (median e_L1 < %g)", catastrophicEL1),
			eval: func(e *evidence) Outcome { return allBelow(e, scalings, catastrophicEL1, "elm-ml") }},
		{rule: "multilevel helps at high frequency: at the highest frequency of each scaling table its median e_L1 is below the one-level ELM-FBPINN's",
			eval: func(e *evidence) Outcome {
				return perTable(e, scalings, func(t string) Outcome {
					ml, miss := e.need(t, "elm-ml")
					if miss != nil {
						return *miss
					}
					one, miss := e.need(t, "elm")
					if miss != nil {
						return *miss
					}
					m, o := byX(ml), byX(one)
					xs := sortedX(m)
					if len(xs) == 0 {
						return missingRuns(t + " (no rows)")
					}
					top := xs[len(xs)-1]
					a, ok := o[top]
					if !ok {
						return missingRuns(t + " (no one-level row at the highest frequency)")
					}
					d := fmt.Sprintf("%s at %s: %s vs %s", tableProblem(t), num(top), sci(m[top].el1), sci(a.el1))
					if m[top].el1 < a.el1 {
						return Outcome{Status: Holds, Detail: d}
					}
					return Outcome{Status: Fails, Detail: d}
				})
			}},
	}},
	{"Runtime efficiency", "PINN", "Slow", []check{{
		rule: "the PINN's mean time is above the FBPINN's and the ELM-FBPINN's at each baseline",
		eval: func(e *evidence) Outcome {
			return merge([]Outcome{compareAt(e, baselines, "pinn", "fbpinn", timeOf, gt, "slower than the FBPINN"),
				compareAt(e, baselines, "pinn", "elm", timeOf, gt, "slower than the ELM-FBPINN")})
		}}}},
	{"Runtime efficiency", "FBPINN", "Moderate", []check{{
		rule: "the FBPINN's mean time lies between the ELM-FBPINN's and the PINN's at each baseline",
		eval: func(e *evidence) Outcome {
			return merge([]Outcome{compareAt(e, baselines, "fbpinn", "elm", timeOf, gt, "slower than the ELM-FBPINN"),
				compareAt(e, baselines, "fbpinn", "pinn", timeOf, lt, "faster than the PINN")})
		}}}},
	{"Runtime efficiency", "ELM-FBPINN", "Fastest", []check{{
		rule: "the ELM-FBPINN's mean time is below the FBPINN's and the PINN's at each baseline",
		eval: func(e *evidence) Outcome {
			return merge([]Outcome{compareAt(e, baselines, "elm", "fbpinn", timeOf, lt, "faster than the FBPINN"),
				compareAt(e, baselines, "elm", "pinn", timeOf, lt, "faster than the PINN")})
		}}}},
	{"Runtime efficiency", "Multilevel ELM-FBPINN", "Fast", []check{
		{rule: fmt.Sprintf("at each frequency of the scaling tables the multilevel model takes at most %dx the one-level ELM-FBPINN's time", mlTimeFactor),
			eval: func(e *evidence) Outcome {
				return compareAt(e, scalings, "elm-ml", "elm", timeOf, func(a, b float64) bool { return a <= mlTimeFactor*b },
					fmt.Sprintf("at most %dx the one-level time", mlTimeFactor))
			}},
		{rule: "at each frequency of the scaling tables the multilevel model is faster than the FBPINN",
			eval: func(e *evidence) Outcome {
				return compareAt(e, scalings, "elm-ml", "fbpinn", timeOf, lt, "faster than the FBPINN")
			}},
	}},
}

// noPINNScaling is the reason the PINN's scalability is not checked.
const noPINNScaling = "the paper runs no PINN in its frequency-scaling tables"

// EvaluateClaims recomputes the paper's summary table from the reported
// tables (their statistics and, for the convergence checks, the histories
// in results) and from the paper's published rows.
func EvaluateClaims(trs []*TableReport, results map[string]*experiments.Result) []ClaimResult {
	ours, paper := oursEvidence(trs, results), paperEvidence()
	var out []ClaimResult
	for _, c := range claims {
		r := ClaimResult{Aspect: c.aspect, Model: c.model, Paper: c.paper}
		if c.checks == nil {
			r.Checks = []CheckResult{{Rule: noPINNScaling,
				Ours: Outcome{Status: NoCheck, Detail: noPINNScaling}, Paper: Outcome{Status: NoCheck, Detail: noPINNScaling}}}
		}
		for _, k := range c.checks {
			r.Checks = append(r.Checks, CheckResult{Rule: k.rule, Ours: k.eval(ours), Paper: k.eval(paper)})
		}
		out = append(out, r)
	}
	return out
}
