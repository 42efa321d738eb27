package reports

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/montanaflynn/stats"

	"elmfbpinn/core/metric"
	"elmfbpinn/experiments"
	"elmfbpinn/paperdata"
)

// This file holds the data of the table figures as plain values, apart from
// any drawing, so that it can be tested without images: the median and
// min–max band of the error histories over seeds (convergence figures) and
// the median and min–max of the per-seed errors against the swept parameter
// (final-error figures).

// Band is the test-error history of one row over its seeds:
//
//	Median[i], Min[i], Max[i] over seeds of e_L1 at iteration Iter[i]
//
// Only the iterations recorded by every seed with a finite error are kept,
// so that no point is drawn from fewer seeds than the band claims.
type Band struct {
	Iter             []float64
	Median, Min, Max []float64
	Seeds            int // the number of histories the band is over
}

// Len returns the number of points of the band.
func (b Band) Len() int { return len(b.Iter) }

// HistoryBand returns the band of the histories of one row's seeds. A
// history without records gives an empty band.
func HistoryBand(hs [][]metric.Record) Band {
	b := Band{Seeds: len(hs)}
	if len(hs) == 0 {
		return b
	}
	// vals[iter] collects the finite errors at each iteration.
	vals := map[int][]float64{}
	bad := map[int]bool{}
	for _, h := range hs {
		seen := map[int]bool{}
		for _, r := range h {
			if seen[r.Iter] {
				continue // a repeated record keeps its first value
			}
			seen[r.Iter] = true
			if !finite(r.EL1) {
				bad[r.Iter] = true
				continue
			}
			vals[r.Iter] = append(vals[r.Iter], r.EL1)
		}
	}
	iters := make([]int, 0, len(vals))
	for it, v := range vals {
		if len(v) == len(hs) && !bad[it] {
			iters = append(iters, it)
		}
	}
	sort.Ints(iters)
	for _, it := range iters {
		v := stats.Float64Data(vals[it])
		med, _ := stats.Median(v)
		lo, _ := stats.Min(v)
		hi, _ := stats.Max(v)
		b.Iter = append(b.Iter, float64(it))
		b.Median = append(b.Median, med)
		b.Min = append(b.Min, lo)
		b.Max = append(b.Max, hi)
	}
	return b
}

// At returns the point of the band at the last recorded iteration not after
// iter; ok is false if there is none.
func (b Band) At(iter float64) (median, lo, hi float64, ok bool) {
	i := sort.SearchFloat64s(b.Iter, iter)
	if i < len(b.Iter) && b.Iter[i] == iter {
		return b.Median[i], b.Min[i], b.Max[i], true
	}
	if i == 0 {
		return 0, 0, 0, false
	}
	return b.Median[i-1], b.Min[i-1], b.Max[i-1], true
}

// Omission is a row of the tier that a figure leaves out, and why.
type Omission struct {
	Row RowStats
	// Reason reads after the count of rows it applies to: "with 3/5
	// seeds", "not in the quick tier", "with no error history recorded".
	Reason string
}

// omissionReason says why a row in the tier has no complete data
// ("3/5 seeds"), or "" if it has.
func omissionReason(s RowStats) string {
	if s.Missing == SeedsMissing {
		return s.seedCount()
	}
	return ""
}

// Curve is the band of one row in a convergence panel.
type Curve struct {
	Label string // e.g. "ELM-FBPINN (L=3)" or "R=0.5"
	Model string // experiments.ELM, FBPINN or PINN
	Multi bool   // a multilevel ELM-FBPINN
	Row   RowStats
	Band  Band
}

// Panel is one panel of a convergence figure: the rows that share a value
// of the swept parameter (or, for the weight-scaling figure, a problem).
type Panel struct {
	Title  string
	Curves []Curve
}

// ConvergenceFigure is the data of a table's convergence figure: test e_L1
// against iteration, the median over seeds with the min–max band, one panel
// per swept value and one curve per model (the weight-scaling figure: one
// panel per problem, one curve per R). Only rows with every seed of the
// tier and a history are drawn; the others are listed in Omitted. A
// shortened run of the quick tier is drawn with its budget in its label.
type ConvergenceFigure struct {
	Table   *experiments.Table
	Tier    string
	Panels  []Panel
	Omitted []Omission
}

// Convergence returns the data of the convergence figure of t.
func Convergence(t *experiments.Table, tier string, results map[string]*experiments.Result) (*ConvergenceFigure, error) {
	rows, err := Stats(t, tier, results)
	if err != nil {
		return nil, err
	}
	groups, err := groupRuns(t, tier, results)
	if err != nil {
		return nil, err
	}
	f := &ConvergenceFigure{Table: t, Tier: tier}
	type keyed struct {
		key   panelKey
		panel Panel
	}
	var panels []*keyed
	for i, s := range rows {
		if s.Want == 0 {
			f.Omitted = append(f.Omitted, Omission{s, "not in the " + tier + " tier"})
			continue
		}
		if why := omissionReason(s); why != "" {
			f.Omitted = append(f.Omitted, Omission{s, "with " + why})
			continue
		}
		b := groups[i].band()
		if b.Len() == 0 {
			f.Omitted = append(f.Omitted, Omission{s, "with no error history recorded"})
			continue
		}
		k := convergencePanel(t, s.Row)
		j := slices.IndexFunc(panels, func(p *keyed) bool { return p.key.title == k.title })
		if j < 0 {
			panels = append(panels, &keyed{key: k, panel: Panel{Title: k.title}})
			j = len(panels) - 1
		}
		p := &panels[j].panel
		label := curveLabel(t, s.Row)
		if s.Reduced {
			seeds := "seeds"
			if s.Seeds == 1 {
				seeds = "seed"
			}
			label += fmt.Sprintf(" [%d steps, %d %s]", s.Iters, s.Seeds, seeds)
		}
		p.Curves = append(p.Curves, Curve{Label: label, Model: s.Row.Model,
			Multi: len(s.Row.J) > 1, Row: s, Band: b})
	}
	// Order the panels by problem, then by the swept value.
	sort.SliceStable(panels, func(a, b int) bool { return panels[a].key.less(panels[b].key) })
	for _, p := range panels {
		f.Panels = append(f.Panels, p.panel)
	}
	return f, nil
}

// panelKey identifies a panel and orders the panels.
type panelKey struct {
	title   string
	problem int     // index in experiments.Problems
	x       float64 // the swept value
}

func (a panelKey) less(b panelKey) bool {
	if a.problem != b.problem {
		return a.problem < b.problem
	}
	return a.x < b.x
}

// convergencePanel returns the panel a row belongs to.
func convergencePanel(t *experiments.Table, r experiments.Row) panelKey {
	k := panelKey{problem: slices.Index(experiments.ProblemNames(), r.Problem)}
	switch t.Kind {
	case experiments.Weights:
		k.title = problemTitle(r.Problem)
		return k
	case experiments.SweepK:
		_, _, kk := r.PaperKey()
		k.x = float64(kk)
		k.title = "K = " + num(k.x)
		return k
	case experiments.SweepJ:
		k.x = float64(r.J[len(r.J)-1])
		k.title = "J = " + num(k.x)
		return k
	}
	k.x = r.Param
	name := paramName(r.Problem)
	if isBaseline(t) {
		k.title = fmt.Sprintf("%s = %s, J = %s, K = %d", name, num(r.Param), paperdata.FormatJ(r.J), r.K)
		return k
	}
	k.title = fmt.Sprintf("%s = %s, J = %d", name, num(r.Param), r.J[len(r.J)-1])
	return k
}

// curveLabel names a row's curve within its panel.
func curveLabel(t *experiments.Table, r experiments.Row) string {
	if t.Kind == experiments.Weights {
		return "R = " + num(r.R)
	}
	return r.Label()
}

// isBaseline reports whether t compares models at one configuration
// (experiments.IsBaseline).
func isBaseline(t *experiments.Table) bool { return t.Kind == experiments.Baseline }

// problemTitle is a problem's name in figure titles.
func problemTitle(p string) string {
	switch p {
	case experiments.Oscillator:
		return "damped oscillator"
	case experiments.Laplace:
		return "multi-scale Laplacian"
	case experiments.Helmholtz:
		return "Helmholtz (L-shape)"
	}
	return p
}

// paramName is the name of a problem's parameter in figures, in the
// script markup of the figures' text (text.go): "ω_{0}", "n_{ω}", "ω".
func paramName(p string) string {
	switch p {
	case experiments.Oscillator:
		return "ω_{0}"
	case experiments.Laplace:
		return "n_{ω}"
	case experiments.Helmholtz:
		return "ω"
	}
	return "param"
}

// FinalPoint is one x of a final-error series: the median and the min–max
// over seeds of the per-seed error (ours), or the paper's median with
// Min, Max = median ∓ range, the band within which a verdict is "match"
// (Min may be zero or negative: the band reaches zero).
type FinalPoint struct {
	X                float64 // the swept value; the position for a nominal axis
	Median, Min, Max float64
}

// FinalSeries is one model's (or, in the weight-scaling figure, one
// problem's) points.
type FinalSeries struct {
	Label  string
	Key    string // the model key ("elm", "elm-ml", "fbpinn", "pinn") or the problem
	Paper  bool   // the paper's medians
	Points []FinalPoint
}

// FinalFigure is the data of a table's final-error figure: the per-seed
// e_L1 (the table's statistic: each seed's minimum over its history)
// against the swept parameter, our median with the min–max bar beside the
// paper's median and range. Only our rows with every seed of the tier at
// the paper's budget are drawn (Omitted lists the others); the paper's
// values are shown for every model the paper publishes, once at least one
// row of ours is drawn.
type FinalFigure struct {
	Table   *experiments.Table
	Tier    string
	XLabel  string
	Nominal []string // for a baseline table: the x positions 1..n are these names
	XLog    bool     // the x values span a factor 8 or more: log scale
	XTicks  []float64
	Series  []FinalSeries
	Omitted []Omission
}

// Final returns the data of the final-error figure of t.
func Final(t *experiments.Table, tier string, results map[string]*experiments.Result) (*FinalFigure, error) {
	rows, err := Stats(t, tier, results)
	if err != nil {
		return nil, err
	}
	f := &FinalFigure{Table: t, Tier: tier, XLabel: xLabel(t)}
	base := isBaseline(t)
	ours := map[string]*FinalSeries{}
	paper := map[string]*FinalSeries{}
	var keys []string
	drawn := map[string]bool{}
	for _, s := range rows {
		if s.Want == 0 {
			f.Omitted = append(f.Omitted, Omission{s, "not in the " + tier + " tier"})
			continue
		}
		key, label := seriesKey(t, s.Row)
		if _, ok := ours[key]; !ok {
			keys = append(keys, key)
			ours[key] = &FinalSeries{Label: label + " (ours)", Key: key}
			paper[key] = &FinalSeries{Label: label + " (paper)", Key: key, Paper: true}
		}
		x := finalX(t, s.Row)
		if base {
			f.Nominal = append(f.Nominal, s.Row.Label())
			x = float64(len(f.Nominal))
		}
		if s.Paper != nil {
			m, r := s.Paper.EL1Median, s.Paper.EL1Range
			paper[key].Points = append(paper[key].Points, FinalPoint{X: x, Median: m, Min: m - r, Max: m + r})
		}
		why := omissionReason(s)
		if why == "" && s.Reduced {
			why = fmt.Sprintf("shortened run of %d steps", s.Iters)
		}
		if why != "" {
			f.Omitted = append(f.Omitted, Omission{s, "with " + why})
			continue
		}
		drawn[key] = true
		ours[key].Points = append(ours[key].Points, FinalPoint{X: x, Median: s.EL1Median, Min: s.EL1Min, Max: s.EL1Max})
		if !slices.Contains(f.XTicks, x) {
			f.XTicks = append(f.XTicks, x)
		}
	}
	if len(drawn) == 0 {
		return f, nil
	}
	for _, k := range keys {
		if drawn[k] {
			f.Series = append(f.Series, *ours[k])
		}
		if len(paper[k].Points) > 0 {
			f.Series = append(f.Series, *paper[k])
			for _, p := range paper[k].Points {
				if !slices.Contains(f.XTicks, p.X) {
					f.XTicks = append(f.XTicks, p.X)
				}
			}
		}
	}
	sort.Float64s(f.XTicks)
	if n := len(f.XTicks); n > 1 && !base && f.XTicks[0] > 0 && f.XTicks[n-1]/f.XTicks[0] >= 8 {
		f.XLog = true
	}
	return f, nil
}

// seriesKey groups the rows of a final-error figure: by model (multilevel
// ELM-FBPINN apart), or by problem in the weight-scaling figure.
func seriesKey(t *experiments.Table, r experiments.Row) (key, label string) {
	if t.Kind == experiments.Weights {
		return r.Problem, problemTitle(r.Problem)
	}
	if r.Model == experiments.ELM && len(r.J) > 1 {
		return "elm-ml", fmt.Sprintf("%s (L=%d)", experiments.PaperModel(r.Model), len(r.J))
	}
	return r.Model, experiments.PaperModel(r.Model)
}

// finalX is a row's position on the swept axis.
func finalX(t *experiments.Table, r experiments.Row) float64 {
	switch t.Kind {
	case experiments.SweepK:
		_, _, k := r.PaperKey()
		return float64(k)
	case experiments.SweepJ:
		return float64(r.J[len(r.J)-1])
	case experiments.Weights:
		return r.R
	}
	return r.Param
}

// xLabel names the swept axis of a final-error figure.
func xLabel(t *experiments.Table) string {
	switch t.Kind {
	case experiments.SweepK:
		return "K (PINN: hidden width)"
	case experiments.SweepJ:
		return "J (subdomains per dimension)"
	case experiments.Weights:
		return "R (weight scale)"
	}
	if isBaseline(t) {
		return "model"
	}
	if len(t.Rows) > 0 {
		return paramName(t.Rows[0].Problem) + " (J scaled with it)"
	}
	return t.Kind.String()
}

// describeOmitted summarises the rows a figure leaves out, grouped by
// reason: "5 rows with 0/5 seeds (FBPINN); 1 row with 3/5 seeds
// (ELM-FBPINN (80, 40) K=12)".
func describeOmitted(om []Omission) string {
	type group struct {
		reason string
		names  []string
		models []string
	}
	var gs []*group
	for _, o := range om {
		i := slices.IndexFunc(gs, func(g *group) bool { return g.reason == o.Reason })
		if i < 0 {
			gs = append(gs, &group{reason: o.Reason})
			i = len(gs) - 1
		}
		g := gs[i]
		g.names = append(g.names, rowLabel(o.Row))
		m := o.Row.Row.Label()
		if o.Row.Table != nil && o.Row.Table.Kind == experiments.Weights {
			m = problemTitle(o.Row.Row.Problem)
		}
		if !slices.Contains(g.models, m) {
			g.models = append(g.models, m)
		}
	}
	var parts []string
	for _, g := range gs {
		n := len(g.names)
		what := "rows"
		if n == 1 {
			what = "row"
		}
		detail := strings.Join(g.names, ", ")
		if n > 3 {
			detail = strings.Join(g.models, ", ")
		}
		parts = append(parts, fmt.Sprintf("%d %s %s (%s)", n, what, g.reason, detail))
	}
	return strings.Join(parts, "; ")
}

// rowLabel names a row in plain text: "ELM-FBPINN (80, 20) K=12".
func rowLabel(s RowStats) string {
	p, j, k := s.Row.PaperKey()
	name := fmt.Sprintf("%s (%s, %s) K=%d", s.Row.Label(), num(p), paperdata.FormatJ(j), k)
	if s.Row.R != 1 {
		name += " R=" + num(s.Row.R)
	}
	if s.Table != nil && s.Table.Kind == experiments.Weights {
		name = problemTitle(s.Row.Problem) + " " + name
	}
	return name
}

// positive reports whether x can be drawn on a log axis.
func positive(x float64) bool { return x > 0 && !math.IsInf(x, 0) }
