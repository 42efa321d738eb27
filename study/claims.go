package study

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"elmfbpinn/experiments"
)

// This file recomputes the paper's qualitative summary table
// (tab:summary-takeaways, "Qualitative comparison across experiments") from
// a study. Each cell of that table (an aspect for a model, e.g. "Runtime
// efficiency" for the ELM-FBPINN: "Fastest") is data: checks with a
// numerical rule over the tables of some kinds (the baselines, the scaling
// tables, the 1D or 2D ones). Every check is evaluated twice: on our
// results and on the paper's own published rows, so that a claim the
// paper's numbers do not bear out is told apart from a disagreement of
// ours. A check needs every row it reads to be usable (RowStats.Why);
// otherwise it is not evaluated and says which runs are missing.

// Thresholds of the checks.
const (
	convergedEL1    = 0.05 // a run "converges" when its median e_L1 is below this
	catastrophicEL1 = 0.2  // a scaling row "fails" at or above this (the PINN's failures sit at 0.6-0.8)
	poorFactor      = 10   // the PINN is "poor" at this many times the best decomposed model's error
	lowFactor       = 10   // in 2D the ELM-FBPINN is "low" within this factor of the FBPINN
	mlTimeFactor    = 3    // the multilevel model is "fast" within this factor of the one-level time
	earlyIter       = 1000 // where "fast initial convergence" is read off the histories
)

// Status is the outcome of a check or a claim.
type Status int

const (
	NotEvaluated Status = iota // rows are missing
	Holds                      // the numbers bear the claim out
	Fails                      // the numbers contradict the claim
	NoCheck                    // the paper gives no data to check the claim against
)

// String returns the status as the report words it.
func (s Status) String() string {
	return [...]string{"not evaluated", "holds", "does not hold", "no check"}[s]
}

// Outcome is a check evaluated on one set of rows.
type Outcome struct {
	Status  Status
	Detail  string   // the numbers behind the status (of the parts evaluated)
	Missing []string // the runs missing for the rest, grouped by table
}

// missingRuns is the outcome of a check that lacks runs.
func missingRuns(what ...string) Outcome { return Outcome{Status: NotEvaluated, Missing: what} }

// decide is the outcome of a part evaluated on its rows.
func decide(ok bool, detail string) Outcome {
	if ok {
		return Outcome{Status: Holds, Detail: detail}
	}
	return Outcome{Status: Fails, Detail: detail}
}

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
	Rule        string // the rule in words
	Ours, Paper Outcome
}

// Disagrees reports whether our results decide the check otherwise than the
// paper's numbers, or fail a check the paper's numbers cannot decide.
func (c CheckResult) Disagrees() bool {
	return c.Ours.Status == Fails && c.Paper.Status != Fails || c.Ours.Status == Holds && c.Paper.Status == Fails
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
	all, none := true, true
	for _, c := range cs {
		switch f(c) {
		case Fails:
			return Fails
		case Holds:
			none = false
		case NotEvaluated:
			all, none = false, false
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
	x          float64 // the row's value on the table's axis
	name, why  string  // why is "" for a usable row
	el1, time  float64
	band       Band // ours only
}

// evidence is every row the checks may read, ours or the paper's.
type evidence struct {
	paper  bool
	rows   map[string][]obs  // by table id
	absent map[string]string // table id → why it has no rows here
}

// ModelKey is the key of a row's model in the claims and the figures:
// "pinn", "fbpinn", "elm", or "elm-ml" for the multilevel ELM-FBPINN.
func ModelKey(r experiments.Row) string {
	if r.Model == experiments.ELM && len(r.J) > 1 {
		return "elm-ml"
	}
	return r.Model
}

// oursEvidence builds the evidence of a study.
func oursEvidence(st *Study) *evidence {
	e := &evidence{rows: map[string][]obs{}, absent: map[string]string{}}
	for _, t := range experiments.Tables() {
		e.absent[t.ID] = "table not in this report"
	}
	for _, ts := range st.Tables {
		delete(e.absent, ts.Table.ID)
		for _, s := range ts.Rows {
			o := obs{table: ts.Table.ID, key: ModelKey(s.Row), x: ts.Table.X(s.Row), name: s.Label(),
				why: s.Why(), el1: s.EL1Median, time: s.TimeMean, band: s.Band}
			if s.Reduced && s.Complete() {
				o.why += " in this tier"
			}
			e.rows[ts.Table.ID] = append(e.rows[ts.Table.ID], o)
		}
	}
	return e
}

// paperEvidence builds the evidence of the paper's published rows of every
// table.
func paperEvidence() *evidence {
	e := &evidence{paper: true, rows: map[string][]obs{}}
	for _, t := range experiments.Tables() {
		for _, r := range t.Rows {
			o := obs{table: t.ID, key: ModelKey(r), x: t.X(r), name: RowStats{Table: t, Row: r}.Label(), why: "no published row"}
			if p, ok := t.PaperRow(r); ok {
				o.why, o.el1, o.time = "", p.EL1Median, p.TimeMean
			}
			e.rows[t.ID] = append(e.rows[t.ID], o)
		}
	}
	return e
}

// need returns the rows of some models in a table and, if some are not
// usable, the outcome that says which are missing.
func (e *evidence) need(table string, keys ...string) ([]obs, *Outcome) {
	if why, ok := e.absent[table]; ok {
		o := missingRuns(table + " (" + why + ")")
		return nil, &o
	}
	var rows, missing []obs
	for _, o := range e.rows[table] {
		switch {
		case !slices.Contains(keys, o.key):
		case o.why != "":
			missing = append(missing, o)
		default:
			rows = append(rows, o)
		}
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

// pairs are the rows of two models at the same value of the axis, in its
// order.
type pairs []struct{ a, b obs }

// needPairs returns the rows of models a and b of a table matched by their
// value on the axis, or the outcome that says which rows are missing.
func (e *evidence) needPairs(table, a, b string) (pairs, *Outcome) {
	ra, miss := e.need(table, a)
	if miss != nil {
		return nil, miss
	}
	rb, miss := e.need(table, b)
	if miss != nil {
		return nil, miss
	}
	var out pairs
	for _, x := range ra {
		if i := slices.IndexFunc(rb, func(y obs) bool { return y.x == x.x }); i >= 0 {
			out = append(out, struct{ a, b obs }{x, rb[i]})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].a.x < out[j].a.x })
	return out, nil
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
		what := strings.Join(g.names, ", ")
		if len(g.names) > 2 {
			what = fmt.Sprintf("%d rows", len(g.names))
		}
		parts = append(parts, fmt.Sprintf("%s %s (%s)", g.table, what, g.why))
	}
	return parts
}

// merge combines the outcomes of the parts of a check that must all hold:
// a part that fails fails the check (a counterexample decides it even when
// other parts lack runs); otherwise a part without its runs leaves the
// check not evaluated, with the numbers of the parts that were.
func merge(parts ...Outcome) Outcome {
	var details, missing []string
	out := Outcome{Status: Holds}
	for _, p := range parts {
		if p.Status == Fails {
			out.Status = Fails
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
	if out.Status != Fails && len(missing) > 0 {
		out.Status = NotEvaluated
	}
	out.Detail, out.Missing = strings.Join(details, "; "), missing
	return out
}

// declared are the declared tables by id.
var declared = func() map[string]*experiments.Table {
	m := map[string]*experiments.Table{}
	for _, t := range experiments.Tables() {
		m[t.ID] = t
	}
	return m
}()

// problemOfTable returns the problem of a declared table's first row.
func problemOfTable(id string) string {
	if t := declared[id]; t != nil && len(t.Rows) > 0 {
		return t.Rows[0].Problem
	}
	return ""
}

// tablesOf returns the ids of the declared tables of the kinds whose
// problem has dimension dim (0: any), in the paper's order.
func tablesOf(dim int, kinds ...experiments.Kind) []string {
	var out []string
	for _, t := range experiments.Tables() {
		if slices.Contains(kinds, t.Kind) && (dim == 0 || ProblemOf(problemOfTable(t.ID)).Dim == dim) {
			out = append(out, t.ID)
		}
	}
	return out
}

// and joins names as "a, b and c".
func and(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// short is the problem's part of a table id: "osc" of "osc-K".
func short(table string) string { return strings.SplitN(table, "-", 2)[0] }

// perTable evaluates f on each table and merges the outcomes.
func perTable(tables []string, f func(table string) Outcome) Outcome {
	var parts []Outcome
	for _, t := range tables {
		parts = append(parts, f(t))
	}
	return merge(parts...)
}

// allBelow checks el1 of every row of keys in the tables against a bound.
func allBelow(e *evidence, tables []string, bound float64, keys ...string) Outcome {
	return perTable(tables, func(t string) Outcome {
		rows, miss := e.need(t, keys...)
		if miss != nil {
			return *miss
		}
		worst := rows[0]
		for _, o := range rows[1:] {
			if !(o.el1 < worst.el1) {
				worst = o
			}
		}
		d := fmt.Sprintf("%s worst %s", short(t), Sci(worst.el1))
		if len(rows) == 1 {
			d = fmt.Sprintf("%s %s", short(t), Sci(worst.el1))
		}
		if worst.el1 < bound {
			return decide(true, d)
		}
		return decide(false, d+" ("+worst.name+")")
	})
}

// compareAt checks, at every configuration of the tables where both models
// have rows, that rel holds between the values v of models a and b; what
// names the relation in the detail.
func compareAt(e *evidence, tables []string, a, b string, v func(obs) float64, rel func(va, vb float64) bool, what string) Outcome {
	var missing []Outcome
	var counts, bad []string
	for _, t := range tables {
		ps, miss := e.needPairs(t, a, b)
		if miss != nil {
			missing = append(missing, *miss)
			continue
		}
		ok := 0
		for _, p := range ps {
			if rel(v(p.a), v(p.b)) {
				ok++
			} else {
				bad = append(bad, fmt.Sprintf("%s %s: %s vs %s", t, p.a.name, Sci(v(p.a)), Sci(v(p.b))))
			}
		}
		if len(ps) == 0 {
			missing = append(missing, missingRuns(t+" (no matching rows)"))
			continue
		}
		counts = append(counts, fmt.Sprintf("%s %d/%d", t, ok, len(ps)))
	}
	out := merge(missing...)
	if len(counts) > 0 {
		out.Detail = what + ": " + strings.Join(counts, ", ")
	}
	if len(bad) > 0 {
		out.Status = Fails
		out.Detail += " (not at " + strings.Join(bad, "; ") + ")"
	}
	return out
}

// mostly checks, for each problem of dimension dim, that el1(a) < el1(b)
// at its baseline and at more than half of the matched configurations over
// the baseline and its K, J and scaling tables.
func mostly(e *evidence, dim int, a, b string) Outcome {
	var parts []Outcome
	for _, base := range tablesOf(dim, experiments.Baseline) {
		var missing []Outcome
		wins, n := 0, 0
		var baseBad string
		for _, t := range tablesOf(dim, experiments.Baseline, experiments.SweepK, experiments.SweepJ, experiments.Scaling) {
			if problemOfTable(t) != problemOfTable(base) {
				continue
			}
			ps, miss := e.needPairs(t, a, b)
			if miss != nil {
				missing = append(missing, *miss)
				continue
			}
			for _, p := range ps {
				n++
				if p.a.el1 < p.b.el1 {
					wins++
				} else if t == base {
					baseBad = fmt.Sprintf("not at the baseline %s (%s vs %s)", t, Sci(p.a.el1), Sci(p.b.el1))
				}
			}
		}
		d := fmt.Sprintf("%s: lower at %d of %d matched configurations", short(base), wins, n)
		switch {
		case len(missing) > 0:
			parts = append(parts, merge(missing...))
		case n == 0:
			parts = append(parts, missingRuns(base+" (no matching rows)"))
		case baseBad != "":
			parts = append(parts, decide(false, d+"; "+baseBad))
		default:
			parts = append(parts, decide(2*wins > n, d))
		}
	}
	return merge(parts...)
}

// early checks that the median error of model a at earlyIter is below
// model b's at every configuration of the tables (our histories only).
func early(e *evidence, tables []string, a, b string) Outcome {
	if e.paper {
		return Outcome{Status: NoCheck, Detail: "the paper shows the histories only in its figures"}
	}
	return perTable(tables, func(t string) Outcome {
		ps, miss := e.needPairs(t, a, b)
		if miss != nil {
			return *miss
		}
		var parts []string
		ok := true
		for _, p := range ps {
			va, _, _, okA := p.a.band.At(earlyIter)
			vb, _, _, okB := p.b.band.At(earlyIter)
			if !okA || !okB {
				return missingRuns(fmt.Sprintf("%s (no error history at iteration %d)", t, earlyIter))
			}
			parts = append(parts, fmt.Sprintf("%s vs %s", Sci(va), Sci(vb)))
			ok = ok && va < vb
		}
		if len(parts) == 0 {
			return missingRuns(t + " (no matching rows)")
		}
		return decide(ok, short(t)+" "+strings.Join(parts, ", "))
	})
}

// topFrequency checks, in each table, that model a's median e_L1 at the
// highest value of the axis is below model b's.
func topFrequency(e *evidence, tables []string, a, b string) Outcome {
	return perTable(tables, func(t string) Outcome {
		ra, miss := e.need(t, a)
		if miss != nil {
			return *miss
		}
		rb, miss := e.need(t, b)
		if miss != nil {
			return *miss
		}
		top := slices.MaxFunc(ra, func(p, q obs) int { return cmp.Compare(p.x, q.x) })
		i := slices.IndexFunc(rb, func(o obs) bool { return o.x == top.x })
		if i < 0 {
			return missingRuns(t + " (no one-level row at the highest frequency)")
		}
		return decide(top.el1 < rb[i].el1, fmt.Sprintf("%s at %s: %s vs %s", short(t), Num(top.x), Sci(top.el1), Sci(rb[i].el1)))
	})
}

func el1Of(o obs) float64  { return o.el1 }
func timeOf(o obs) float64 { return o.time }
func lt(a, b float64) bool { return a < b }
func gt(a, b float64) bool { return a > b }

// check is one rule of a claim.
type check struct {
	rule string
	eval func(e *evidence) Outcome
}

// claim is one cell of the paper's table with its checks; no checks means
// the paper gives nothing to check it against (noPINNScaling).
type claim struct {
	aspect, model, paper string
	checks               []check
}

// noPINNScaling is the reason the PINN's scalability is not checked.
const noPINNScaling = "the paper runs no PINN in its frequency-scaling tables"

// claims is the paper's summary table as checks over the tables of some
// kinds.
var claims = func() []claim {
	base, scal := tablesOf(0, experiments.Baseline), tablesOf(0, experiments.Scaling)
	oneD, twoD := tablesOf(1, experiments.Baseline, experiments.SweepK), tablesOf(2, experiments.Baseline, experiments.SweepK)
	twoDBase := tablesOf(2, experiments.Baseline)
	rest1D := and(tablesOf(1, experiments.SweepK, experiments.SweepJ, experiments.Scaling))
	below := func(tables []string, bound float64, key string) func(*evidence) Outcome {
		return func(e *evidence) Outcome { return allBelow(e, tables, bound, key) }
	}
	both := func(tables []string, a string, v func(obs) float64, rel func(a, b float64) bool, b1, w1, b2, w2 string) func(*evidence) Outcome {
		return func(e *evidence) Outcome {
			return merge(compareAt(e, tables, a, b1, v, rel, w1), compareAt(e, tables, a, b2, v, rel, w2))
		}
	}
	conv := fmt.Sprintf("(median e_L1 < %g)", convergedEL1)
	fails := fmt.Sprintf("fails (median e_L1 < %g)", catastrophicEL1)
	return []claim{
		{"Multi-scale convergence", "PINN", "Poor", []check{{
			fmt.Sprintf("at each baseline the PINN's median e_L1 is at least %dx the best decomposed model's", poorFactor),
			func(e *evidence) Outcome {
				return perTable(base, func(t string) Outcome {
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
					return decide(r >= poorFactor, fmt.Sprintf("%s %sx", short(t), Sig2(r)))
				})
			}}}},
		{"Multi-scale convergence", "FBPINN", "Stable", []check{{"the FBPINN converges at each baseline " + conv,
			below(base, convergedEL1, "fbpinn")}}},
		{"Multi-scale convergence", "ELM-FBPINN", "Stable (fast initial)", []check{
			{"the ELM-FBPINN converges at each baseline " + conv, below(base, convergedEL1, "elm")},
			{fmt.Sprintf("fast initial: at each baseline its median test error at iteration %d is below the FBPINN's", earlyIter),
				func(e *evidence) Outcome { return early(e, base, "elm", "fbpinn") }},
		}},
		{"Multi-scale convergence", "Multilevel ELM-FBPINN", "Stable (fast initial)", []check{
			{"every multilevel row of the three scaling tables converges " + conv, below(scal, convergedEL1, "elm-ml")},
			{fmt.Sprintf("fast initial: at each frequency of the scaling tables its median test error at iteration %d is below the FBPINN's", earlyIter),
				func(e *evidence) Outcome { return early(e, scal, "elm-ml", "fbpinn") }},
		}},
		{"Final error (1D)", "PINN", "Highest", []check{{
			"the PINN's median e_L1 is above the FBPINN's and the ELM-FBPINN's at every configuration of " + and(oneD),
			both(oneD, "pinn", el1Of, gt, "fbpinn", "above the FBPINN", "elm", "above the ELM-FBPINN")}}},
		{"Final error (1D)", "FBPINN", "Low", []check{{
			"the FBPINN's median e_L1 is below the PINN's at every configuration of " + and(oneD),
			func(e *evidence) Outcome { return compareAt(e, oneD, "fbpinn", "pinn", el1Of, lt, "below the PINN") }}}},
		{"Final error (1D)", "ELM-FBPINN", "Lowest", []check{{
			"the ELM-FBPINN's median e_L1 is below the FBPINN's at the baseline and at most matched configurations of " + rest1D,
			func(e *evidence) Outcome { return mostly(e, 1, "elm", "fbpinn") }}}},
		{"Final error (2D)", "PINN", "Highest", []check{{
			"the PINN's median e_L1 is above the FBPINN's and the ELM-FBPINN's at every configuration of the 2D baselines and K tables",
			both(twoD, "pinn", el1Of, gt, "fbpinn", "above the FBPINN", "elm", "above the ELM-FBPINN")}}},
		{"Final error (2D)", "FBPINN", "Lowest", []check{{
			"the FBPINN's median e_L1 is below the ELM-FBPINN's at both 2D baselines and at most matched configurations of the 2D K, J and scaling tables",
			func(e *evidence) Outcome { return mostly(e, 2, "fbpinn", "elm") }}}},
		{"Final error (2D)", "ELM-FBPINN", "Low", []check{{
			fmt.Sprintf("at both 2D baselines the ELM-FBPINN's median e_L1 is below the PINN's and within %dx of the FBPINN's", lowFactor),
			func(e *evidence) Outcome {
				return merge(compareAt(e, twoDBase, "elm", "pinn", el1Of, lt, "below the PINN"),
					compareAt(e, twoDBase, "elm", "fbpinn", el1Of, func(a, b float64) bool { return a < lowFactor*b },
						fmt.Sprintf("within %dx of the FBPINN", lowFactor)))
			}}}},
		{"Scalability (frequency)", "PINN", "Poor", nil},
		{"Scalability (frequency)", "FBPINN", "Stable", []check{{"no FBPINN row of the three scaling tables " + fails,
			below(scal, catastrophicEL1, "fbpinn")}}},
		{"Scalability (frequency)", "ELM-FBPINN", "Stable", []check{{"no one-level ELM-FBPINN row of the three scaling tables " + fails,
			below(scal, catastrophicEL1, "elm")}}},
		{"Scalability (frequency)", "Multilevel ELM-FBPINN", "Stable", []check{
			{"no multilevel row of the three scaling tables " + fails, below(scal, catastrophicEL1, "elm-ml")},
			{"multilevel helps at high frequency: at the highest frequency of each scaling table its median e_L1 is below the one-level ELM-FBPINN's",
				func(e *evidence) Outcome { return topFrequency(e, scal, "elm-ml", "elm") }},
		}},
		{"Runtime efficiency", "PINN", "Slow", []check{{
			"the PINN's mean time is above the FBPINN's and the ELM-FBPINN's at each baseline",
			both(base, "pinn", timeOf, gt, "fbpinn", "slower than the FBPINN", "elm", "slower than the ELM-FBPINN")}}},
		{"Runtime efficiency", "FBPINN", "Moderate", []check{{
			"the FBPINN's mean time lies between the ELM-FBPINN's and the PINN's at each baseline",
			func(e *evidence) Outcome {
				return merge(compareAt(e, base, "fbpinn", "elm", timeOf, gt, "slower than the ELM-FBPINN"),
					compareAt(e, base, "fbpinn", "pinn", timeOf, lt, "faster than the PINN"))
			}}}},
		{"Runtime efficiency", "ELM-FBPINN", "Fastest", []check{{
			"the ELM-FBPINN's mean time is below the FBPINN's and the PINN's at each baseline",
			both(base, "elm", timeOf, lt, "fbpinn", "faster than the FBPINN", "pinn", "faster than the PINN")}}},
		{"Runtime efficiency", "Multilevel ELM-FBPINN", "Fast", []check{
			{fmt.Sprintf("at each frequency of the scaling tables the multilevel model takes at most %dx the one-level ELM-FBPINN's time", mlTimeFactor),
				func(e *evidence) Outcome {
					return compareAt(e, scal, "elm-ml", "elm", timeOf, func(a, b float64) bool { return a <= mlTimeFactor*b },
						fmt.Sprintf("at most %dx the one-level time", mlTimeFactor))
				}},
			{"at each frequency of the scaling tables the multilevel model is faster than the FBPINN",
				func(e *evidence) Outcome {
					return compareAt(e, scal, "elm-ml", "fbpinn", timeOf, lt, "faster than the FBPINN")
				}},
		}},
	}
}()

// Claims are the cells of the paper's summary table, evaluated.
type Claims []ClaimResult

// Count returns how many of the claims have status s on our results.
func (cs Claims) Count(s Status) int {
	n := 0
	for _, c := range cs {
		if c.Ours() == s {
			n++
		}
	}
	return n
}

// ClaimCheck is a check with its claim.
type ClaimCheck struct {
	C ClaimResult
	K CheckResult
}

// Where returns the checks of the claims for which keep is true, each with
// its claim, in order.
func (cs Claims) Where(keep func(CheckResult) bool) []ClaimCheck {
	var out []ClaimCheck
	for _, c := range cs {
		for _, k := range c.Checks {
			if keep(k) {
				out = append(out, ClaimCheck{c, k})
			}
		}
	}
	return out
}

// EvaluateClaims recomputes the paper's summary table from a study (its
// statistics and bands) and from the paper's published rows.
func EvaluateClaims(st *Study) Claims {
	ours, paper := oursEvidence(st), paperEvidence()
	var out Claims
	for _, c := range claims {
		r := ClaimResult{Aspect: c.aspect, Model: c.model, Paper: c.paper}
		if c.checks == nil {
			none := Outcome{Status: NoCheck, Detail: noPINNScaling}
			r.Checks = []CheckResult{{Rule: noPINNScaling, Ours: none, Paper: none}}
		}
		for _, k := range c.checks {
			r.Checks = append(r.Checks, CheckResult{Rule: k.rule, Ours: k.eval(ours), Paper: k.eval(paper)})
		}
		out = append(out, r)
	}
	return out
}
