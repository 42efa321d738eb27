package reports

import (
	"slices"
	"strings"
	"testing"

	"elmfbpinn/experiments"
)

// historyResults stores hand-made results with histories for row i of tab:
// seed s has e_L1 = scale·(s+1)·10^(-iter/100) at iterations 0, 100, 200.
func historyResults(m map[string]*experiments.Result, tab *experiments.Table, i int, seeds []int, scale float64) {
	for _, seed := range seeds {
		s := tab.Rows[i].Spec(seed)
		f := scale * float64(seed+1)
		h := recs([]int{0, 100, 200}, []float64{f, f / 10, f / 100})
		m[s.Key()] = &experiments.Result{Key: s.Key(), Spec: s, EL1: f / 100, History: h, Time: experiments.Timing{Total: 1}}
	}
}

// TestConvergence checks the panels, curves and omissions of a convergence
// figure: one panel per swept value, curves in table order, the rows
// without every seed left out with their reasons.
func TestConvergence(t *testing.T) {
	tab := table(t, "osc-scaling")
	m := map[string]*experiments.Result{}
	historyResults(m, tab, scELM20, experiments.FullSeeds, 1)
	historyResults(m, tab, scML20, experiments.FullSeeds, 2)
	historyResults(m, tab, scELM40, []int{0, 1, 2}, 1) // 3/5 seeds: left out
	f, err := convergenceOf(tab, experiments.Full, m)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Panels) != 1 || f.Panels[0].Title != "ω_{0} = 20, J = 10" {
		t.Fatalf("panels %+v, want one panel ω_{0} = 20, J = 10", f.Panels)
	}
	cs := f.Panels[0].Curves
	if len(cs) != 2 || cs[0].Label != "ELM-FBPINN" || cs[1].Label != "ELM-FBPINN (L=3)" || cs[1].Key != "elm-ml" || cs[0].Key != experiments.ELM {
		t.Fatalf("curves %+v", cs)
	}
	// ELM (20, 10): seeds f = 1..5 at iteration 100: {0.1,...,0.5}.
	b := cs[0].Row.Band
	if b.Seeds != 5 || !slices.Equal(b.Iter, []float64{0, 100, 200}) || !near(b.Median[1], 0.3) || !near(b.Min[1], 0.1) || !near(b.Max[1], 0.5) {
		t.Errorf("ELM band %+v", b)
	}
	// 15 rows: 2 drawn; ELM 40 with 3/5 seeds, FBPINN 0-4 and the 7 other
	// ELM rows with 0/5, grouped by reason in the order of first appearance.
	if len(f.Omitted) != 13 {
		t.Fatalf("%d rows omitted, want 13", len(f.Omitted))
	}
	note := describeOmitted(f.Omitted)
	if want := "12 rows with 0/5 seeds (FBPINN, ELM-FBPINN, ELM-FBPINN (L=3)); 1 row with 3/5 seeds (ELM-FBPINN (40, 20) K=12)"; note != want {
		t.Errorf("note %q, want %q", note, want)
	}
	if ConvergencePlot(f) == nil {
		t.Error("no figure for a table with two complete rows")
	}
	// A shortened quick-tier run is drawn with its budget in its label.
	base := table(t, "osc-baseline")
	q := map[string]*experiments.Result{}
	putQuick(q, base, 1, 0, 1000, 2e-2, 3)
	for _, r := range q {
		r.History = recs([]int{0, 1000}, []float64{1, 2e-2})
	}
	fq, err := convergenceOf(base, experiments.QuickTier, q)
	if err != nil {
		t.Fatal(err)
	}
	if len(fq.Panels) != 1 || len(fq.Panels[0].Curves) != 1 || fq.Panels[0].Curves[0].Label != "FBPINN [1000 steps, 1 seed]" {
		t.Errorf("quick tier: panels %+v", fq.Panels)
	}
	// No complete row: no figure.
	empty, _ := convergenceOf(tab, experiments.Full, nil)
	if len(empty.Panels) != 0 || ConvergencePlot(empty) != nil || len(empty.Omitted) != 15 {
		t.Errorf("without results: %d panels, %d omitted", len(empty.Panels), len(empty.Omitted))
	}
}

// TestConvergenceReal draws the curves of real osc-scaling runs (testdata:
// their whole histories, every 100 iterations): the median at every point lies in
// the band, and the panels are ordered by ω0.
func TestConvergenceReal(t *testing.T) {
	tab := table(t, "osc-scaling")
	f, err := convergenceOf(tab, experiments.Full, realResults(t, "osc-scaling"))
	if err != nil {
		t.Fatal(err)
	}
	var titles []string
	for _, p := range f.Panels {
		titles = append(titles, p.Title)
		for _, c := range p.Curves {
			if c.Row.Band.Len() != 151 || c.Row.Band.Seeds != 5 {
				t.Errorf("%s %s: %d points over %d seeds, want 151 over 5", p.Title, c.Label, c.Row.Band.Len(), c.Row.Band.Seeds)
			}
			for i := range c.Row.Band.Iter {
				if !(c.Row.Band.Min[i] <= c.Row.Band.Median[i] && c.Row.Band.Median[i] <= c.Row.Band.Max[i]) {
					t.Errorf("%s %s at %g: median %g outside [%g, %g]", p.Title, c.Label, c.Row.Band.Iter[i], c.Row.Band.Median[i], c.Row.Band.Min[i], c.Row.Band.Max[i])
				}
			}
		}
	}
	if want := []string{"ω_{0} = 20, J = 10", "ω_{0} = 40, J = 20"}; !slices.Equal(titles, want) {
		t.Errorf("panels %q, want %q", titles, want)
	}
}

// TestFinal checks the series of a final-error figure: ours only for the
// complete rows, the paper's medians beside them for the same models, the
// x axis on a log scale for ω0 = 20 ... 320.
func TestFinal(t *testing.T) {
	tab := table(t, "osc-scaling")
	f, err := finalOf(tab, experiments.Full, scalingResults(tab))
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, s := range f.Series {
		labels = append(labels, s.Label)
	}
	want := []string{"FBPINN (ours)", "FBPINN (paper)", "ELM-FBPINN (ours)", "ELM-FBPINN (paper)",
		"ELM-FBPINN (L=3) (ours)", "ELM-FBPINN (L=3) (paper)"}
	if !slices.Equal(labels, want) {
		t.Fatalf("series %q, want %q", labels, want)
	}
	// ELM (ours): (20, 10), (40, 20), (80, 40) complete; (160, 80) has 4/5
	// seeds and (320, 160) none. (20, 10): e_L1 {1..5}e-7.
	elm := f.Series[2]
	if len(elm.Points) != 3 || elm.Points[0].X != 20 || !near(elm.Points[0].Median, 3e-7) ||
		!near(elm.Points[0].Min, 1e-7) || !near(elm.Points[0].Max, 5e-7) {
		t.Errorf("ELM points %+v", elm.Points)
	}
	// The paper's ELM medians and ranges: all five published rows, each
	// point spanning median ± range (ω0 = 20: 9.5±9.6e-07).
	if p := f.Series[3]; len(p.Points) != 5 || !p.Paper || p.Points[0].Median != 9.5e-7 ||
		!near(p.Points[0].Max, 9.5e-7+9.6e-7) || !near(p.Points[0].Median-p.Points[0].Min, 9.6e-7) {
		t.Errorf("paper ELM points %+v", p.Points)
	}
	if !f.XLog || !slices.Equal(f.XTicks, []float64{20, 40, 80, 160, 320}) || f.Nominal != nil {
		t.Errorf("x axis: log %v ticks %v nominal %v", f.XLog, f.XTicks, f.Nominal)
	}
	if FinalPlot(f) == nil {
		t.Error("no figure")
	}

	// A baseline has a nominal model axis.
	base := table(t, "osc-baseline")
	fb, err := finalOf(base, experiments.Full, realResults(t, "osc-baseline"))
	if err != nil {
		t.Fatal(err)
	}
	// Ours only for the ELM-FBPINN (the others have no results), the
	// paper's median and range for all three models.
	var fbl []string
	for _, s := range fb.Series {
		fbl = append(fbl, s.Label)
	}
	if !slices.Equal(fb.Nominal, []string{"PINN", "FBPINN", "ELM-FBPINN"}) ||
		!slices.Equal(fbl, []string{"PINN (paper)", "FBPINN (paper)", "ELM-FBPINN (ours)", "ELM-FBPINN (paper)"}) ||
		fb.Series[2].Points[0].X != 3 || fb.Series[0].Points[0].X != 1 {
		t.Errorf("baseline: nominal %q, series %+v", fb.Nominal, fb.Series)
	}

	// The weight-scaling figure: one series per problem, no paper series.
	ws := table(t, "weight-scaling")
	fw, err := finalOf(ws, experiments.Full, weightResults(ws))
	if err != nil {
		t.Fatal(err)
	}
	if len(fw.Series) != 1 || fw.Series[0].Key != experiments.Oscillator || len(fw.Series[0].Points) != 2 || !fw.XLog {
		t.Errorf("weight scaling: %+v", fw.Series)
	}
	// A shortened quick-tier run is not compared with the paper.
	q := map[string]*experiments.Result{}
	putQuick(q, base, 1, 0, 1000, 2e-2, 3)
	fq, err := finalOf(base, experiments.QuickTier, q)
	if err != nil {
		t.Fatal(err)
	}
	if len(fq.Series) != 0 || !strings.Contains(describeOmitted(fq.Omitted), "shortened run of 1000 steps") {
		t.Errorf("quick tier: series %+v, omitted %q", fq.Series, describeOmitted(fq.Omitted))
	}
}

// TestLogTicks: the y range of a log axis is whole decades around the
// data (a range inside one decade is widened to the decades around it, so
// that both ends are labelled); every decade of plot.LogTicks is labelled
// as a power of ten, once; many decades label every second or third.
func TestLogTicks(t *testing.T) {
	labels := func(lo, hi float64) []string {
		lo, hi = decadeRange(lo, hi)
		var out []string
		seen := map[float64]bool{}
		for _, tk := range powerTicks.Ticks(lo, hi) {
			if seen[tk.Value] {
				t.Errorf("[%g, %g]: tick %g twice", lo, hi, tk.Value)
			}
			seen[tk.Value] = true
			if tk.Label != "" {
				out = append(out, tk.Label)
			}
		}
		return out
	}
	for _, tc := range []struct {
		lo, hi float64
		want   []string
	}{
		{1e-5, 1, []string{"10^{−5}", "10^{−4}", "10^{−3}", "10^{−2}", "10^{−1}", "1"}},
		{0.0021, 0.0049, []string{"10^{−3}", "10^{−2}"}},
		{2e-5, 3, []string{"10^{−5}", "10^{−4}", "10^{−3}", "10^{−2}", "10^{−1}", "1", "10"}},
		{1e-10, 1, []string{"10^{−10}", "10^{−8}", "10^{−6}", "10^{−4}", "10^{−2}", "1"}},
		{1e-20, 1e2, []string{"10^{−18}", "10^{−15}", "10^{−12}", "10^{−9}", "10^{−6}", "10^{−3}", "1"}},
	} {
		if got := labels(tc.lo, tc.hi); !slices.Equal(got, tc.want) {
			t.Errorf("[%g, %g]: labels %q, want %q", tc.lo, tc.hi, got, tc.want)
		}
	}
}

// TestFinalKinds: every kind of table (each that experiments.Kind names)
// has the caption of its final-error figure and, but for a scaling table
// (whose axis is its problem's parameter), the label of its axis.
func TestFinalKinds(t *testing.T) {
	for k := experiments.Kind(0); !strings.HasPrefix(k.String(), "Kind("); k++ {
		if d := finalKinds[k]; d.caption == "" || (d.axis == "") != (k == experiments.Scaling) {
			t.Errorf("kind %v: axis %q, caption %q", k, d.axis, d.caption)
		}
	}
}
