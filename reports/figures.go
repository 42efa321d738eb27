package reports

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"elmfbpinn/experiments"
	"elmfbpinn/paperdata"
	"elmfbpinn/study"
)

// This file turns the figure data into Figures.

// figureTitle is the title of a table figure.
func figureTitle(t *experiments.Table, what string) string {
	// The parameter names of the titles as the figures write them:
	// "omega0" as "ω_{0}".
	var pairs []string
	for _, p := range experiments.Problems {
		pairs = append(pairs, p.Param.Name, p.Param.Figure)
	}
	return fmt.Sprintf("%s: %s", strings.NewReplacer(pairs...).Replace(t.Title), what)
}

// sourceNote is the first note of a table figure: what it reproduces.
func sourceNote(ts *study.TableStudy) string {
	if src := ts.Table.Source; src != nil {
		return fmt.Sprintf("Declared in %s; tier %s.", src.Path, ts.Tier)
	}
	if ts.Table.Paper == "" {
		return fmt.Sprintf("Reproduces the paper's weight-scaling figure; tier %s.", ts.Tier)
	}
	return fmt.Sprintf("Reproduces paper table %s; tier %s.", ts.Table.Paper, ts.Tier)
}

// omittedNote is the note of a figure that leaves rows out, "" if none.
func omittedNote(om []Omission) string {
	if len(om) == 0 {
		return ""
	}
	return "Not drawn: " + describeOmitted(om) + "."
}

// el1Label is the label of an e_L1 axis.
const el1Label = "test e_{L1}"

// refDashes is the dash pattern of the paper's reference lines.
var refDashes = []vg.Length{vg.Points(3), vg.Points(2)}

// ConvergencePlot draws a convergence figure: one panel per swept value,
// test e_L1 (log) against iteration, each curve the median over seeds with
// its min-max band shaded and, for a row the paper publishes at the same
// budget, the paper's median as a dashed reference line in the curve's
// colour. All panels share the y range, whole decades. The figure is a
// column wide for one panel and the text width otherwise (at most three
// panels a row). It returns nil when no row can be drawn.
func ConvergencePlot(f *ConvergenceFigure) *Figure {
	if len(f.Panels) == 0 {
		return nil
	}
	// A solver table's x is the wall time (Band.T, on a log axis from the
	// decade below its least), every other's the iteration.
	timed := f.Study.Table.Kind == experiments.Solvers
	xsOf := func(b study.Band) []float64 {
		if timed {
			return b.T
		}
		return b.Iter
	}
	xmin, xmax, seeds, refs, multilevel := math.Inf(1), 0.0, 0, false, false
	var ys []float64    // the bands' ends and the reference lines: the y range
	var labels []string // of the curves, in order: the legend's
	for _, p := range f.Panels {
		for _, c := range p.Curves {
			b := c.Row.Band
			ys = append(append(ys, b.Min...), b.Max...)
			for _, x := range xsOf(b) {
				xmax = math.Max(xmax, x)
				if x > 0 {
					xmin = math.Min(xmin, x)
				}
			}
			if m, ok := paperReference(c); ok {
				ys, refs = append(ys, m), true
			}
			seeds, multilevel = max(seeds, b.Seeds), multilevel || c.Key == "elm-ml"
			if !slices.Contains(labels, c.Label) {
				labels = append(labels, c.Label)
			}
		}
	}
	lo, hi := decadeRange(ys...)
	// Colours: by model, or along a ramp for the R curves.
	colour := func(c Curve) color.RGBA { return modelColour(c.Key) }
	switch f.Study.Table.Kind {
	case experiments.Weights:
		rs := ramp(len(labels))
		colour = func(c Curve) color.RGBA { return rs[slices.Index(labels, c.Label)] }
	case experiments.Solvers: // a colour per solver, in order
		colour = func(c Curve) color.RGBA { return tab10[slices.Index(labels, c.Label)%len(tab10)] }
	}
	// At most three panels a row, 120 pt high (four from ten panels, 105
	// pt high); one panel is a column wide.
	nc, w, ph := min(len(f.Panels), 3), textWidth, vg.Points(120)
	switch {
	case len(f.Panels) == 1:
		w, ph = columnWidth, vg.Points(160)
	case len(f.Panels) > 9:
		nc, ph = 4, vg.Points(105)
	}
	items := make([]legendItem, len(labels)) // by label, once a curve of it is drawn
	var rows [][]*plot.Plot
	for i, pd := range f.Panels {
		p := newPanel(pd.Title, "", "")
		logY(p)
		if i+nc >= len(f.Panels) { // the lowest panel of its column
			p.X.Label.Text = "iteration"
		}
		p.X.Min, p.X.Max = 0, xmax
		p.X.Tick.Marker = iterTicks
		if timed {
			if i+nc >= len(f.Panels) {
				p.X.Label.Text = "wall time (s)"
			}
			p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, powerTicks
			p.X.Min, p.X.Max = decadeRange(xmin, xmax)
		}
		p.Y.Min, p.Y.Max = lo, hi
		for _, c := range pd.Curves {
			col := colour(c)
			drawn := false
			if poly, err := plotter.NewPolygon(bandPolygon(xsOf(c.Row.Band), c.Row.Band)); err == nil && len(poly.XYs[0]) > 2 {
				poly.Color, poly.LineStyle.Width = withAlpha(col, 0.22), 0
				p.Add(poly)
				drawn = true
			}
			if med := xys(xsOf(c.Row.Band), c.Row.Band.Median, positive); len(med) > 0 && addLine(p, med, draw.LineStyle{Color: col, Width: vg.Points(1.2)}) {
				drawn = true
			}
			if m, ok := paperReference(c); ok && drawn {
				ref := col
				if timed { // the solvers of a panel share one reference: grey
					ref = colGrey
				}
				addLine(p, plotter.XYs{{X: p.X.Min, Y: m}, {X: p.X.Max, Y: m}}, draw.LineStyle{Color: ref, Width: vg.Points(0.9), Dashes: refDashes})
			}
			if l := slices.Index(labels, c.Label); items[l].thumb == nil && drawn {
				items[l] = legendItem{c.Label, lineThumb(draw.LineStyle{Color: col, Width: vg.Points(1.5)}, withAlpha(col, 0.22))}
			}
		}
		if i%nc == 0 {
			rows = append(rows, make([]*plot.Plot, nc))
		}
		rows[i/nc][i%nc] = p
	}
	items = slices.DeleteFunc(items, func(it legendItem) bool { return it.thumb == nil })
	notes := []string{sourceNote(f.Study), fmt.Sprintf("Line: median over %d seeds; band: min–max over the seeds. "+
		"ELM-FBPINN: LSQR iterations; PINN/FBPINN: Adam steps.", seeds)}
	if timed {
		notes[1] = fmt.Sprintf("Line: median over %d seeds of the test e_{L1} against the median wall time at each recorded iteration "+
			"(the solver's set-up included); band: min–max of the error over the seeds.", seeds)
	}
	if refs {
		ref := f.Study.Table.RefName() + "'s"
		items = append(items, legendItem{f.Study.Table.RefName(), lineThumb(draw.LineStyle{Color: colGrey, Width: vg.Points(0.9), Dashes: refDashes}, nil)})
		if timed {
			notes[1] += " Dashed (grey): the " + ref + " median e_{L1} of the configuration."
		} else {
			notes[1] += " Dashed: the " + ref + " median e_{L1} of the row, in its colour."
		}
	}
	if multilevel {
		notes[1] += " ELM-FBPINN (L=3): three levels J = [1, J/2, J]."
	}
	what := "test e_{L1} against iteration"
	if timed {
		what = "test e_{L1} against wall time"
	}
	pg := &page{
		title:   figureTitle(f.Study.Table, what),
		notes:   notes,
		legend:  items,
		rows:    rows,
		yLabels: slices.Repeat([]string{el1Label}, len(rows)),
	}
	name, caption := "-convergence", convergenceCaption
	if timed {
		name, caption = "-time", timeCaption
	}
	return pg.figure(f.Study.Table.ID+name, caption, w, vg.Length(len(rows))*ph)
}

// addLine adds to p a line through xy drawn in sty, and reports whether it
// could.
func addLine(p *plot.Plot, xy plotter.XYs, sty draw.LineStyle) bool {
	l, err := plotter.NewLine(xy)
	if err != nil {
		return false
	}
	l.LineStyle = sty
	p.Add(l)
	return true
}

// paperReference returns the paper's median e_L1 of a curve's row, the
// reference line of its panel: only for a row the paper publishes, run at
// the paper's budget.
func paperReference(c Curve) (float64, bool) {
	if c.Row.Paper == nil || c.Row.Reduced || !positive(c.Row.Paper.EL1Median) {
		return 0, false
	}
	return c.Row.Paper.EL1Median, true
}

// iterTicks label an iteration axis of 2000 and more in thousands ("5k"),
// so that the labels of a narrow panel do not touch.
var iterTicks = defaultTicks(func(v, hi float64) string {
	if hi >= 2000 && v != 0 {
		return num(v/1000) + "k"
	}
	return num(v)
})

// defaultTicks are plot.DefaultTicks over [lo, hi] with each label
// written by label from the tick's value and hi.
func defaultTicks(label func(v, hi float64) string) plot.Ticker {
	return plot.TickerFunc(func(lo, hi float64) []plot.Tick {
		ts := plot.DefaultTicks{}.Ticks(lo, hi)
		for i, t := range ts {
			if t.Label != "" {
				ts[i].Label = label(t.Value, hi)
			}
		}
		return ts
	})
}

// bandPolygon is the outline of a band: the minima forward, the maxima
// back; points with a non-positive minimum are left out (log axis).
func bandPolygon(xs []float64, b study.Band) plotter.XYs {
	var lo, hi plotter.XYs
	for i := range xs {
		if !positive(b.Min[i]) || !positive(b.Max[i]) {
			continue
		}
		lo = append(lo, plotter.XY{X: xs[i], Y: b.Min[i]})
		hi = append(hi, plotter.XY{X: xs[i], Y: b.Max[i]})
	}
	slices.Reverse(hi)
	return append(lo, hi...)
}

// xys pairs xs with ys, leaving out the pairs whose y keep rejects (nil:
// none).
func xys(xs, ys []float64, keep func(float64) bool) plotter.XYs {
	var xy plotter.XYs
	for i := range xs {
		if keep == nil || keep(ys[i]) {
			xy = append(xy, plotter.XY{X: xs[i], Y: ys[i]})
		}
	}
	return xy
}

// FinalPlot draws a final-error figure: per model (or problem) our median
// e_L1 as a filled dot with the min-max bar over seeds and, beside it, the
// paper's median as a hollow diamond with a thin bar over the paper's
// median ± range (the band of a "match" verdict; a range reaching zero is
// drawn open below, ending in an arrow: rangeBars). The figure is a column
// wide for a baseline or a sweep of at most six values, the text width
// otherwise. It returns nil when no row of ours can be drawn.
func FinalPlot(f *FinalFigure) *Figure {
	if len(f.Series) == 0 {
		return nil
	}
	p := newPanel("", f.XLabel, "")
	logY(p)
	// Side-by-side offsets: one slot per series, spread over 60% of the
	// smallest gap between x values (in the axis's own scale; 1 on a
	// nominal axis).
	tx, inv := func(x float64) float64 { return x }, func(u float64) float64 { return u }
	if f.XLog {
		p.X.Scale, tx, inv = plot.LogScale{}, math.Log2, math.Exp2
	}
	gap := 1.0
	for i := 1; i < len(f.XTicks) && len(f.Nominal) == 0; i++ {
		if d := tx(f.XTicks[i]) - tx(f.XTicks[i-1]); d > 0 && (i == 1 || d < gap) {
			gap = d
		}
	}
	// The y range: whole decades around every bar drawn.
	var ys []float64
	for _, s := range f.Series {
		for _, q := range s.Points {
			if positive(q.Median) {
				ys = append(ys, q.Median, q.Min, q.Max)
			}
		}
	}
	lo, hi := decadeRange(ys...)
	p.Y.Min, p.Y.Max = lo, hi
	n := len(f.Series)
	var items []legendItem
	paperDrawn, openDrawn := false, false
	for si, s := range f.Series {
		off := 0.0
		switch {
		case len(f.Nominal) > 0:
			// One model per position: ours left, the paper's right.
			off = -0.08
			if s.Paper {
				off = 0.08
			}
		case n > 1:
			spread := math.Min(0.5, 0.12*float64(n-1)) * gap
			off = (float64(si)/float64(n-1) - 0.5) * spread
		}
		col := modelColour(s.Key)
		var xy plotter.XYs
		eb := &rangeBars{}
		for _, q := range s.Points {
			if !positive(q.Median) {
				continue
			}
			xy = append(xy, plotter.XY{X: inv(tx(q.X) + off), Y: q.Median})
			eb.bars = append(eb.bars, rangeBar{X: xy[len(xy)-1].X, Y: q.Median, Low: math.Min(q.Min, q.Median),
				High: math.Max(q.Max, q.Median), Open: !positive(q.Min)})
			openDrawn = openDrawn || !positive(q.Min)
		}
		sc, serr := plotter.NewScatter(xy)
		if len(xy) == 0 || serr != nil {
			continue
		}
		glyph, bar := draw.GlyphStyle{Color: col, Radius: vg.Points(2.5), Shape: draw.CircleGlyph{}}, draw.LineStyle{Color: col, Width: vg.Points(1.1)}
		if s.Paper {
			glyph, bar = draw.GlyphStyle{Color: col, Radius: vg.Points(2.6), Shape: hollowDiamond{}}, draw.LineStyle{Color: col, Width: vg.Points(0.7)}
			paperDrawn = true
		}
		eb.line, eb.capWidth, sc.GlyphStyle = bar, vg.Points(3.5), glyph
		p.Add(eb, sc)
		if !s.Paper {
			items = append(items, legendItem{s.Name, glyphThumb(glyph, &bar)})
		}
	}
	// One entry per model, ours, and one for the paper's marks in grey
	// (drawn in each model's colour): short enough for one row.
	if paperDrawn {
		glyph, bar := draw.GlyphStyle{Color: colGrey, Radius: vg.Points(2.6), Shape: hollowDiamond{}}, draw.LineStyle{Color: colGrey, Width: vg.Points(0.7)}
		items = append(items, legendItem{f.Study.Table.RefName(), glyphThumb(glyph, &bar)})
	}
	var ticks []plot.Tick
	w, what := columnWidth, "final test e_{L1} per model"
	if len(f.Nominal) > 0 {
		for i, name := range f.Nominal {
			ticks = append(ticks, plot.Tick{Value: float64(i + 1), Label: name})
		}
		p.X.Min, p.X.Max = 0.5, float64(len(f.Nominal))+0.5
	} else if len(f.XTicks) > 0 {
		for _, x := range f.XTicks {
			ticks = append(ticks, plot.Tick{Value: x, Label: num(x)})
		}
		a, b := tx(f.XTicks[0]), tx(f.XTicks[len(f.XTicks)-1])
		p.X.Min, p.X.Max = inv(a-0.5*gap), inv(b+0.5*gap)
		if len(f.XTicks) > 6 {
			w = textWidth
		}
		what = "final test e_{L1} against " + strings.SplitN(f.XLabel, " ", 2)[0]
		// Labels that would touch their left neighbour on the printed
		// axis (about the figure's width less 60 pt) are left out.
		u0, u1, axis := tx(p.X.Min), tx(p.X.Max), w-vg.Points(60)
		ticks = spaceTicks(ticks, func(x float64) vg.Length { return axis * vg.Length((tx(x)-u0)/(u1-u0)) },
			p.X.Tick.Label)
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	legendNote := "Dot, bar: our median, min–max over the seeds"
	if paperDrawn {
		legendNote += "; diamond, thin bar (in the model's colour): the " + f.Study.Table.RefName() + "'s median ± range"
	}
	if openDrawn {
		legendNote += "; a bar ending in an arrow is open below: its range reaches zero (median − range ≤ 0), which the log axis cannot show"
	}
	pg := &page{
		title:   figureTitle(f.Study.Table, what),
		notes:   []string{sourceNote(f.Study) + " " + legendNote + "."},
		legend:  items,
		rows:    [][]*plot.Plot{{p}},
		yLabels: []string{el1Label},
	}
	return pg.figure(f.Study.Table.ID+"-final", finalKinds[f.Study.Table.Kind].caption, w, vg.Points(190))
}

// rangeBar is one bar of rangeBars: from Low to High at X through the
// point (X, Y); Open says its low end is not drawn (at or below zero).
type rangeBar struct {
	X, Y, Low, High float64
	Open            bool
}

// rangeBars draws vertical bars with caps at both ends, as
// plotter.YErrorBars does, except that a bar whose range is open below (a
// paper's median − range at or below zero, which a log axis cannot show)
// ends openArrow under its point in an arrowhead, instead of running to
// the axis floor as if there were data there.
type rangeBars struct {
	bars     []rangeBar
	line     draw.LineStyle
	capWidth vg.Length
}

// openArrow is the length of an open bar below its point.
const openArrow = vg.Length(14)

// Plot draws the bars on the data canvas c.
func (b *rangeBars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for _, r := range b.bars {
		x, y, hi := trX(r.X), trY(r.Y), trY(r.High)
		c.StrokeLine2(b.line, x-b.capWidth/2, hi, x+b.capWidth/2, hi)
		if !r.Open {
			lo := trY(r.Low)
			c.StrokeLine2(b.line, x, lo, x, hi)
			c.StrokeLine2(b.line, x-b.capWidth/2, lo, x+b.capWidth/2, lo)
			continue
		}
		lo := max(y-openArrow, c.Min.Y)
		c.StrokeLine2(b.line, x, lo+1, x, hi)
		a := b.capWidth * 0.6 // the arrowhead's half width
		var head vg.Path
		head.Move(vg.Point{X: x - a, Y: lo + 1.8*a})
		head.Line(vg.Point{X: x, Y: lo})
		head.Line(vg.Point{X: x + a, Y: lo + 1.8*a})
		head.Close()
		c.SetColor(b.line.Color)
		c.Fill(head)
	}
}

// DataRange returns the extent of the bars: their x and, in y, their
// points, tops and closed bottoms.
func (b *rangeBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax, ymin, ymax = math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, r := range b.bars {
		xmin, xmax = math.Min(xmin, r.X), math.Max(xmax, r.X)
		ymin, ymax = math.Min(ymin, r.Y), math.Max(ymax, r.High)
		if !r.Open {
			ymin = math.Min(ymin, r.Low)
		}
	}
	return xmin, xmax, ymin, ymax
}

// GlyphBoxes returns the boxes of the caps (and of an open bar's point),
// so that the plot leaves room for them at its edges.
func (b *rangeBars) GlyphBoxes(p *plot.Plot) []plot.GlyphBox {
	rect := vg.Rectangle{Min: vg.Point{X: -b.capWidth / 2}, Max: vg.Point{X: b.capWidth / 2}}
	var out []plot.GlyphBox
	for _, r := range b.bars {
		low := r.Low
		if r.Open {
			low = r.Y
		}
		x := p.X.Norm(r.X)
		out = append(out, plot.GlyphBox{X: x, Y: p.Y.Norm(low), Rectangle: rect},
			plot.GlyphBox{X: x, Y: p.Y.Norm(r.High), Rectangle: rect})
	}
	return out
}

// spaceTicks clears the label of every tick that would come closer than
// 4 pt to the last label kept, at the positions pos gives (in order).
func spaceTicks(ts []plot.Tick, pos func(float64) vg.Length, sty text.Style) []plot.Tick {
	out := slices.Clone(ts)
	last, lastW := vg.Length(math.Inf(-1)), vg.Length(0)
	for i, t := range out {
		if t.Label == "" {
			continue
		}
		x, wi := pos(t.Value), sty.Width(t.Label)
		if x-last < (lastW+wi)/2+4 {
			out[i].Label = ""
			continue
		}
		last, lastW = x, wi
	}
	return out
}

// hollowDiamond is an outlined diamond glyph.
type hollowDiamond struct{}

// DrawGlyph draws the diamond's outline around pt, in the style's colour,
// 1.3 times the style's radius.
func (hollowDiamond) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(1.3)})
	r := sty.Radius * 1.3
	var p vg.Path
	p.Move(vg.Point{X: pt.X, Y: pt.Y + r})
	p.Line(vg.Point{X: pt.X + r, Y: pt.Y})
	p.Line(vg.Point{X: pt.X, Y: pt.Y - r})
	p.Line(vg.Point{X: pt.X - r, Y: pt.Y})
	p.Close()
	c.Stroke(p)
}

// solutionTitle describes the model of a solution figure.
func solutionTitle(s *experiments.Solution) string {
	return fmt.Sprintf("multilevel ELM-FBPINN, %s = %s, J = %s, K = %d, seed %d, %d LSQR iterations: test e_{L1} = %s (min over history %s)",
		s.Problem.Param.Figure, num(s.Spec.Param), paperdata.FormatJ(s.Spec.J), s.Spec.K, s.Spec.Seed,
		s.Spec.Iters, sci(s.Final), sci(s.Best))
}

// CurvePlot draws the 1D solution: exact against predicted u(t), and
// the pointwise absolute error on a log axis.
func CurvePlot(s *experiments.Solution, c *experiments.Curve) *Figure {
	top, bottom := newPanel("", "t", ""), newPanel("", "t", "")
	logY(bottom)
	var legend []legendItem
	for i, l := range []struct {
		p    *plot.Plot
		xy   plotter.XYs
		name string
		sty  draw.LineStyle
	}{
		{top, xys(c.T, c.Exact, nil), "exact", draw.LineStyle{Color: color.Black, Width: vg.Points(1.8)}},
		{top, xys(c.T, c.Pred, nil), "ELM-FBPINN prediction", draw.LineStyle{Color: colOrange, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(3), vg.Points(1.5)}}},
		{bottom, xys(c.T, c.AbsErr, positive), "absolute error", draw.LineStyle{Color: colRed, Width: vg.Points(1)}},
	} {
		if (i < 2 || len(l.xy) > 0) && addLine(l.p, l.xy, l.sty) {
			legend = append(legend, legendItem{l.name, lineThumb(l.sty, nil)})
		}
	}
	pg := &page{
		title:   capital(s.Problem.Title) + ": exact solution and " + solutionTitle(s),
		legend:  legend,
		rows:    [][]*plot.Plot{{top}, {bottom}},
		yLabels: []string{"u(t)", "|u_{pred}(t) − u(t)|"},
	}
	return pg.figure(s.Spec.Problem+"-solution", "exact vs multilevel ELM-FBPINN prediction, and the pointwise error", textWidth, vg.Points(280))
}

// BasisPlot draws the localised basis functions (1/L) w_j phi_jk of a few
// subdomains of each level, one panel per level.
func BasisPlot(s *experiments.Solution, perLevel [][]experiments.BasisSet) *Figure {
	var panels []*plot.Plot
	cols := []color.RGBA{colBlue, colOrange, colGreen}
	var lo, hi float64 // over every panel: they share the y range
	for l, sets := range perLevel {
		if len(sets) == 0 {
			continue
		}
		js := s.System.Decomposition.Levels[sets[0].Level].J
		p := newPanel(fmt.Sprintf("level %d (J = %d): %d %s", l+1, js, len(sets), plural(len(sets), "subdomain")),
			"t", "")
		if len(panels) == 0 {
			p.Y.Label.Text = "(1/L) w_{j}(t) φ_{jk}(t)"
		}
		p.X.Min, p.X.Max = 0, 1
		for i, b := range sets {
			col := cols[i%len(cols)]
			for k, f := range b.F {
				// The constant (k = 0, the window itself) is drawn thicker.
				w := vg.Points(0.8)
				if k == 0 {
					w = vg.Points(2)
				}
				addLine(p, xys(b.T, f, nil), draw.LineStyle{Color: withAlpha(col, 0.85), Width: w})
				for _, v := range f {
					lo, hi = math.Min(lo, v), math.Max(hi, v)
				}
			}
		}
		panels = append(panels, p)
	}
	for _, p := range panels {
		p.Y.Min, p.Y.Max = lo-0.05*(hi-lo), hi+0.05*(hi-lo)
	}
	pg := &page{
		title: fmt.Sprintf("%s: random basis functions of the multilevel ELM-FBPINN "+
			"(J = %s, K = %d, seed %d), window times feature", capital(s.Problem.Title), paperdata.FormatJ(s.Spec.J), s.Spec.K, s.Spec.Seed),
		notes: []string{"Each panel shows the subdomain(s) nearest the middle of the interval; one colour per subdomain, " +
			"its K+1 functions (the thick one is the constant feature, i.e. the window alone). " +
			"The factor 1/L averages the levels."},
		rows: [][]*plot.Plot{panels},
	}
	return pg.figure(s.Spec.Problem+"-basis", "random basis functions (window times feature) of a few subdomains per level", textWidth, vg.Points(170))
}

// levelColours are the colours of the levels in the sparsity and
// decomposition figures.
var levelColours = []color.RGBA{colRed, colBlue, colGreen, colPurple, colBrown, colOrange}

// SparsityPlot draws the nonzero pattern of M, coloured by level.
func SparsityPlot(s *experiments.Solution, r *experiments.Raster) *Figure {
	img := image.NewRGBA(image.Rect(0, 0, r.W, r.H))
	for k, l := range r.Level { // row-major, r.W cells a row
		c := color.RGBA{255, 255, 255, 255}
		if l >= 0 {
			c = levelColours[l%len(levelColours)]
		}
		img.SetRGBA(k%r.W, k/r.W, c) // image row 0 at the top: matrix row 0
	}
	p := newPanel("", "column (level, subdomain, feature)", "row (constraint point)")
	// Matrix rows count down: row i is at y = -i, labelled i.
	p.Add(plotter.NewImage(img, 0, -float64(r.Rows), float64(r.Cols), 0))
	p.X.Min, p.X.Max = 0, float64(r.Cols)
	p.Y.Min, p.Y.Max = -float64(r.Rows), 0
	p.X.Tick.Marker = defaultTicks(func(v, _ float64) string { return num(v) })
	p.Y.Tick.Marker = defaultTicks(func(v, _ float64) string { return num(math.Abs(v)) })
	var items []legendItem
	for l := range r.Levels {
		js := s.System.Decomposition.Levels[l].J
		items = append(items, legendItem{fmt.Sprintf("level %d (J = %d)", l+1, js), lineThumb(draw.LineStyle{}, levelColours[l%len(levelColours)])})
	}
	res := "one pixel per entry"
	if r.H < r.Rows || r.W < r.Cols {
		res = fmt.Sprintf("rasterised to %d x %d cells; a cell is coloured if any entry in it is stored", r.H, r.W)
	}
	pg := &page{
		title: fmt.Sprintf("%s: sparsity of the system matrix M (%d × %d, %d stored entries, %.2f%%), "+
			"multilevel ELM-FBPINN J = %s, K = %d", capital(s.Problem.Title), r.Rows, r.Cols, s.System.M.NNZ(),
			100*float64(s.System.M.NNZ())/float64(r.Rows)/float64(r.Cols), paperdata.FormatJ(s.Spec.J), s.Spec.K),
		notes:  []string{"Stored blocks coloured by the level of their subdomain; " + res + "."},
		legend: items,
		rows:   [][]*plot.Plot{{p}},
	}
	ratio := math.Min(1.6, math.Max(0.5, float64(r.Rows)/float64(r.Cols)))
	return pg.figure(s.Spec.Problem+"-sparsity", "sparsity pattern of M, coloured by level", columnWidth, vg.Length(ratio)*vg.Points(190)+vg.Points(40))
}

// gridXYZ adapts a Grid to plotter.GridXYZ.
type gridXYZ struct{ g *experiments.Grid }

func (g gridXYZ) Dims() (c, r int)   { return len(g.g.X), len(g.g.Y) }
func (g gridXYZ) Z(c, r int) float64 { return g.g.Z[r*len(g.g.X)+c] } // NaN outside the domain
func (g gridXYZ) X(c int) float64    { return g.g.X[c] }
func (g gridXYZ) Y(r int) float64    { return g.g.Y[r] }

// heatPanel is a heat map of a grid (FieldsPlot lays its panels out square).
func heatPanel(title string, g *experiments.Grid, cm palette.ColorMap) *plot.Plot {
	p := newPanel(title, "x", "y")
	h := plotter.NewHeatMap(gridXYZ{g}, cm.Palette(255))
	h.Min, h.Max = cm.Min(), cm.Max()
	h.Rasterized = true
	h.NaN = color.White
	p.Add(h)
	return p
}

// FieldsPlot draws a 2D solution: exact, predicted and absolute error heat
// maps (masked outside the domain) with colour bars, and the subdomain
// centres of every level.
func FieldsPlot(s *experiments.Solution, f *experiments.Fields, centres []experiments.Centres) *Figure {
	lo, hi := f.Exact.Range()
	plo, phi := f.Pred.Range()
	m := math.Max(math.Max(math.Abs(lo), math.Abs(hi)), math.Max(math.Abs(plo), math.Abs(phi)))
	if !(m > 0) {
		m = 1
	}
	signed := moreland.SmoothBlueRed()
	signed.SetMin(-m)
	signed.SetMax(m)
	// The error on a log scale, floored 4 decades below its maximum, so
	// that a spike at the boundary does not hide the interior.
	_, emax := f.AbsErr.Range()
	if !(emax > 0) {
		emax = 1
	}
	lg := &experiments.Grid{X: f.AbsErr.X, Y: f.AbsErr.Y, Z: make([]float64, len(f.AbsErr.Z))}
	floor := math.Log10(emax) - 4
	for i, z := range f.AbsErr.Z { // NaN outside the domain stays NaN (math.Max); 0 gives the floor
		lg.Z[i] = math.Max(floor, math.Log10(z))
	}
	errMap := moreland.BlackBody()
	errMap.SetMin(floor)
	errMap.SetMax(math.Log10(emax))
	maps := []palette.ColorMap{signed, signed, errMap}
	panels := []*plot.Plot{
		heatPanel("exact u", f.Exact, signed),
		heatPanel("ELM-FBPINN prediction", f.Pred, signed),
		heatPanel("log_{10} |error|", lg, errMap),
	}
	// The decomposition: centres per level, and the domain's outline.
	dp := newPanel("subdomain centres", "x", "y")
	var outline plotter.XYs
	for _, v := range s.Problem.Outline {
		outline = append(outline, plotter.XY{X: v[0], Y: v[1]})
	}
	addLine(dp, outline, draw.LineStyle{Color: color.Black, Width: vg.Points(1)})
	var items []legendItem
	glyphs := []draw.GlyphDrawer{draw.CircleGlyph{}, draw.TriangleGlyph{}, draw.CircleGlyph{}, draw.SquareGlyph{}}
	radii := []vg.Length{5, 2.2, 1.2, 1}
	for _, c := range slices.Backward(centres) {
		xy := xys(c.X, c.Y, nil)
		sc, err := plotter.NewScatter(xy)
		if err != nil || len(xy) == 0 {
			continue
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: levelColours[c.Level%len(levelColours)],
			Radius: radii[min(c.Level, len(radii)-1)], Shape: glyphs[c.Level%len(glyphs)]}
		dp.Add(sc)
		items = append(items, legendItem{fmt.Sprintf("level %d: J = %d (%d kept)", c.Level+1, c.J, len(c.X)), glyphThumb(sc.GlyphStyle, nil)})
	}
	slices.Reverse(items)
	dp.X.Min, dp.X.Max, dp.Y.Min, dp.Y.Max = -0.05, 1.05, -0.05, 1.05
	panels = append(panels, dp)
	barH := vg.Points(34)
	pg := &page{
		title:  fmt.Sprintf("%s: exact solution and %s", capital(s.Problem.Title), solutionTitle(s)),
		legend: items,
		rows:   [][]*plot.Plot{panels},
		notes:  []string{"White: outside the domain. Exact and predicted share one colour scale; the error is floored 4 decades below its maximum."},
		below: func(c draw.Canvas, cells [][]draw.Canvas) {
			for i, cm := range maps {
				cell := panels[i].DataCanvas(cells[0][i])
				bar := newPanel("", "", "")
				bar.HideY()
				bar.X.Tick.Marker = fewTicks
				bar.Add(&plotter.ColorBar{ColorMap: cm})
				bc := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
					Min: vg.Point{X: cell.Min.X, Y: c.Min.Y + 4}, Max: vg.Point{X: cell.Max.X, Y: c.Max.Y - 4}}}
				bar.Draw(bc)
			}
		},
		belowHeight: barH,
	}
	return pg.figure(s.Spec.Problem+"-solution", "exact, predicted and absolute-error maps, and the multilevel subdomain centres",
		textWidth, vg.Points(135)+barH)
}

// fewTicks are plot.DefaultTicks over [lo, hi] with at most three labels,
// for the narrow colour bars, written with as few digits as they need.
var fewTicks = plot.TickerFunc(func(lo, hi float64) []plot.Tick {
	ts := defaultTicks(func(v, _ float64) string { return num(math.Round(v*1e6) / 1e6) }).Ticks(lo, hi)
	var labelled []int
	for i, t := range ts {
		if t.Label != "" {
			labelled = append(labelled, i)
		}
	}
	if k := (len(labelled) + 2) / 3; k > 1 {
		for n, i := range labelled {
			if n%k != 0 {
				ts[i].Label = ""
			}
		}
	}
	return ts
})
