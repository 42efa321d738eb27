package reports

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"elmfbpinn/experiments"
	"elmfbpinn/paperdata"
	"elmfbpinn/study"
)

// This file holds the data of the table figures as plain values read from
// a study, apart from any drawing, so that it can be tested without images:
// the bands of the error histories (convergence figures) and the medians
// and min–max of the per-seed errors against the table's axis (final-error
// figures). A table's kind chooses its panels, series and axis.

// Omission is a row of the tier that a figure leaves out, and why.
type Omission struct {
	Row study.RowStats
	// Reason reads after the count of rows it applies to: "with 3/5
	// seeds", "not in the quick tier", "with no error history recorded".
	Reason string
}

// omit returns the omission of a row that Why rules out.
func omit(s study.RowStats) Omission {
	if s.Missing == study.NotInTier {
		return Omission{s, s.Why()}
	}
	return Omission{s, "with " + s.Why()}
}

// Curve is the band of one row in a convergence panel.
type Curve struct {
	Label string // e.g. "ELM-FBPINN (L=3)" or "R = 0.5"
	Key   string // the colour: seriesKey's
	Row   study.RowStats
}

// Panel is one panel of a convergence figure: the rows that share a value
// of the table's axis (or, for the weight-scaling figure, a problem).
type Panel struct {
	Title  string
	Curves []Curve
	order  [2]float64 // the problem's index, the value on the axis
}

// ConvergenceFigure is the data of a table's convergence figure: test e_L1
// against iteration, the median over seeds with the min–max band, one panel
// per value of the axis and one curve per model (the weight-scaling
// figure: one panel per problem, one curve per R). Only complete rows with
// a history are drawn, a shortened quick-tier run with its budget in its
// label; the others are listed in Omitted.
type ConvergenceFigure struct {
	Study   *study.TableStudy
	Panels  []Panel
	Omitted []Omission
}

// Convergence returns the data of the convergence figure of a table.
func Convergence(ts *study.TableStudy) *ConvergenceFigure {
	f := &ConvergenceFigure{Study: ts}
	t := ts.Table
	for _, s := range ts.Rows {
		switch {
		case !s.Complete():
			f.Omitted = append(f.Omitted, omit(s))
			continue
		case s.Band.Len() == 0:
			f.Omitted = append(f.Omitted, Omission{s, "with no error history recorded"})
			continue
		}
		r, x := s.Row, t.X(s.Row)
		p := study.ProblemOf(r.Problem)
		key, label := seriesKey(t, r)
		title := fmt.Sprintf("%s = %s, J = %d", p.Param.Figure, num(r.Param), r.J[len(r.J)-1])
		switch t.Kind {
		case experiments.Weights: // the panels are the problems, the curves the weight scales
			title, x, label = p.Title, 0, "R = "+num(r.R)
		case experiments.SweepK, experiments.SweepJ:
			title = t.Kind.String() + " = " + num(x)
		case experiments.Baseline:
			title = fmt.Sprintf("%s = %s, J = %s, K = %d", p.Param.Figure, num(r.Param), paperdata.FormatJ(r.J), r.K)
		case experiments.Solvers: // a panel per configuration, a curve per solver
			title = fmt.Sprintf("%s, %s = %s, J = %s, K = %d", p.Name, p.Param.Figure, num(r.Param), paperdata.FormatJ(r.J), r.K)
			label = r.SolverLabel()
		}
		j := slices.IndexFunc(f.Panels, func(p Panel) bool { return p.Title == title })
		if j < 0 {
			j, f.Panels = len(f.Panels), append(f.Panels, Panel{Title: title, order: [2]float64{float64(slices.Index(experiments.Problems, p)), x}})
		}
		if s.Reduced {
			label += fmt.Sprintf(" [%d steps, %d %s]", s.Iters, s.Seeds, plural(s.Seeds, "seed"))
		}
		f.Panels[j].Curves = append(f.Panels[j].Curves, Curve{Label: label, Key: key, Row: s})
	}
	slices.SortStableFunc(f.Panels, func(a, b Panel) int {
		return cmp.Or(cmp.Compare(a.order[0], b.order[0]), cmp.Compare(a.order[1], b.order[1]))
	})
	return f
}

// convergenceCaption describes a convergence figure (figure text, as the
// captions below).
const convergenceCaption = "test e_{L1} against iteration: median and min–max band over the seeds"

// timeCaption describes the time figure of a study of solvers.
const timeCaption = "test e_{L1} against wall time per solver: median and min–max band over the seeds, beside the paper's median"

// finalKinds describe the final-error figure of a table by its kind: the
// label of its axis (a scaling table's is its problem's parameter, which
// Final names) and its caption.
var finalKinds = map[experiments.Kind]struct{ axis, caption string }{
	experiments.Baseline: {"model", "final e_{L1} per model (median, min–max bar over the seeds) beside the paper's median and range"},
	experiments.SweepK:   {"K (PINN: hidden width)", sweepCaption},
	experiments.SweepJ:   {"J (subdomains per dimension)", sweepCaption},
	experiments.Scaling:  {"", sweepCaption},
	experiments.Solvers:  {"solver", "e_{L1} (median over the seeds) of each solver beside the paper's median and range"},
	experiments.Weights: {"R (weight scale)", "the paper's weight-scaling figure: final e_{L1} against the weight scale R " +
		"for the three problems (median, min–max bar over the seeds)"},
}

// sweepCaption describes the final-error figure of a table that varies a
// parameter.
const sweepCaption = "final e_{L1} against the swept parameter (median, min–max bar over the seeds) beside the paper's median and range"

// FinalPoint is one x of a final-error series: the median and the min–max
// over seeds of the per-seed error (ours), or the paper's median with
// Min, Max = median ∓ range, the band within which a verdict is "match"
// (Min may be zero or negative: the band reaches zero).
type FinalPoint struct {
	X                float64 // the value on the axis; the position for a nominal axis
	Median, Min, Max float64
}

// FinalSeries is one model's (or, in the weight-scaling figure, one
// problem's) points.
type FinalSeries struct {
	Label  string // e.g. "PINN (ours)", "PINN (paper)"
	Name   string // the model's (or problem's) label alone, e.g. "PINN": the legend's
	Key    string // the model key ("elm", "elm-ml", "fbpinn", "pinn") or the problem
	Paper  bool   // the paper's medians
	Points []FinalPoint
}

// FinalFigure is the data of a table's final-error figure: the per-seed
// e_L1 (the table's statistic: each seed's minimum over its history)
// against the table's axis, our median with the min–max bar beside the
// paper's median and range. Only usable rows of ours are drawn (Omitted
// lists the others); the paper's values are shown for every model the
// paper publishes, once at least one row of ours is drawn.
type FinalFigure struct {
	Study   *study.TableStudy
	XLabel  string
	Nominal []string // for a baseline table: the x positions 1..n are these names
	XLog    bool     // the x values span a factor 8 or more: log scale
	XTicks  []float64
	Series  []FinalSeries
	Omitted []Omission
}

// Final returns the data of the final-error figure of a table.
func Final(ts *study.TableStudy) *FinalFigure {
	t := ts.Table
	f := &FinalFigure{Study: ts, XLabel: finalKinds[t.Kind].axis}
	if t.Kind == experiments.Scaling && len(t.Rows) > 0 {
		f.XLabel = study.ProblemOf(t.Rows[0].Problem).Param.Figure + " (J scaled with it)"
	}
	base := t.Kind == experiments.Baseline
	var series []FinalSeries // ours and the paper's of each key in turn
	drawn := false
	for _, s := range ts.Rows {
		if s.Missing == study.NotInTier {
			f.Omitted = append(f.Omitted, omit(s))
			continue
		}
		key, label := seriesKey(t, s.Row)
		i := slices.IndexFunc(series, func(fs FinalSeries) bool { return fs.Key == key })
		if i < 0 {
			i, series = len(series), append(series, FinalSeries{Label: label + " (ours)", Name: label, Key: key},
				FinalSeries{Label: label + " (" + t.RefName() + ")", Name: label, Key: key, Paper: true})
		}
		x := t.X(s.Row)
		if base {
			f.Nominal = append(f.Nominal, s.Row.Label())
			x = float64(len(f.Nominal))
		}
		if p := s.Paper; p != nil {
			lo, hi := p.Bounds() // the band of a "match" verdict
			series[i+1].Points = append(series[i+1].Points, FinalPoint{x, p.EL1Median, lo, hi})
		}
		if s.Why() != "" {
			f.Omitted = append(f.Omitted, omit(s))
			continue
		}
		series[i].Points, drawn = append(series[i].Points, FinalPoint{x, s.EL1Median, s.EL1Min, s.EL1Max}), true
	}
	if !drawn {
		return f
	}
	f.Series = slices.DeleteFunc(series, func(s FinalSeries) bool { return len(s.Points) == 0 })
	for _, s := range f.Series {
		for _, p := range s.Points {
			f.XTicks = append(f.XTicks, p.X)
		}
	}
	slices.Sort(f.XTicks)
	f.XTicks = slices.Compact(f.XTicks)
	n := len(f.XTicks)
	f.XLog = n > 1 && !base && f.XTicks[0] > 0 && f.XTicks[n-1]/f.XTicks[0] >= 8
	return f
}

// seriesKey groups the rows of a figure: by model (the multilevel
// ELM-FBPINN apart), or by problem in the weight-scaling figure.
func seriesKey(t *experiments.Table, r experiments.Row) (key, label string) {
	if t.Kind == experiments.Weights {
		return r.Problem, study.ProblemOf(r.Problem).Title
	}
	if r.Solver != "" {
		return study.ModelKey(r) + "/" + r.SolverLabel(), r.Label()
	}
	return study.ModelKey(r), r.Label()
}

// describeOmitted summarises the rows a figure leaves out, grouped by
// reason: "5 rows with 0/5 seeds (FBPINN); 1 row with 3/5 seeds
// (ELM-FBPINN (80, 40) K=12)".
func describeOmitted(om []Omission) string {
	var reasons []string // in order of first use
	names, models := map[string][]string{}, map[string][]string{}
	for _, o := range om {
		r := o.Reason
		if names[r] == nil {
			reasons = append(reasons, r)
		}
		names[r] = append(names[r], o.Row.Label())
		if _, m := seriesKey(o.Row.Table, o.Row.Row); !slices.Contains(models[r], m) {
			models[r] = append(models[r], m)
		}
	}
	var parts []string
	for _, r := range reasons {
		n, detail := len(names[r]), strings.Join(names[r], ", ")
		if n > 3 {
			detail = strings.Join(models[r], ", ")
		}
		parts = append(parts, fmt.Sprintf("%d %s %s (%s)", n, plural(n, "row"), r, detail))
	}
	return strings.Join(parts, "; ")
}
