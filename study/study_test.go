package study

import (
	"math"
	"slices"
	"strings"
	"testing"

	"elmfbpinn/core/metric"
	"elmfbpinn/experiments"
	"elmfbpinn/paperdata"
	"elmfbpinn/study/studytest"
)

// TestStatsHandMade checks the statistics of studytest.ScalingResults against the
// values computed by hand in its comments.
func TestStatsHandMade(t *testing.T) {
	tab := studytest.Table(t, "osc-scaling")
	rows, err := statsOf(tab, experiments.Full, studytest.ScalingResults(tab))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(tab.Rows) {
		t.Fatalf("%d rows, want %d", len(rows), len(tab.Rows))
	}
	for i, s := range rows {
		if s.Index != i || s.Table != tab || s.Want != 5 {
			t.Errorf("row %d: Index %d, Table %p, Want %d", i, s.Index, s.Table, s.Want)
		}
		if s.Paper == nil {
			t.Errorf("row %d: no paper row", i)
		}
	}

	s := rows[studytest.ScELM20]
	if s.Seeds != 5 || !near(s.EL1Median, 3e-7) || !near(s.EL1Min, 1e-7) || !near(s.EL1Max, 5e-7) || !near(s.EL1Range, 4e-7) {
		t.Errorf("ELM (20,10) e_L1: seeds %d median %g min %g max %g range %g; want 5, 3e-7, 1e-7, 5e-7, 4e-7",
			s.Seeds, s.EL1Median, s.EL1Min, s.EL1Max, s.EL1Range)
	}
	if !near(s.TimeMean, 3) || !near(s.TimeStd, math.Sqrt2) {
		t.Errorf("ELM (20,10) time %g ± %g, want 3 ± √2", s.TimeMean, s.TimeStd)
	}
	if !s.HasVerdict || s.Verdict != paperdata.Match || s.Missing != NothingMissing {
		t.Errorf("ELM (20,10): verdict %v (%v), missing %v; want match, nothing missing", s.Verdict, s.HasVerdict, s.Missing)
	}
	if !near(s.Speed, 4.4/3) {
		t.Errorf("ELM (20,10) speed %g, want 4.4/3", s.Speed)
	}
	if s.Kappa == nil || *s.Kappa != 1e18 || s.KappaNote != "" || !s.KappaWant {
		t.Errorf("ELM (20,10) κ %v %q", s.Kappa, s.KappaNote)
	}

	if s := rows[studytest.ScELM40]; !s.HasVerdict || s.Verdict != paperdata.Close {
		t.Errorf("ELM (40,20): verdict %v (%v), want close", s.Verdict, s.HasVerdict)
	} else if s.Kappa != nil || !strings.Contains(s.KappaNote, "above the cap") {
		t.Errorf("ELM (40,20): κ %v note %q, want the size-cap note", s.Kappa, s.KappaNote)
	}
	if s := rows[studytest.ScELM80]; !s.HasVerdict || s.Verdict != paperdata.Off {
		t.Errorf("ELM (80,40): verdict %v (%v), want off", s.Verdict, s.HasVerdict)
	}

	s = rows[studytest.ScELM160]
	if s.Seeds != 4 || !near(s.EL1Median, 2.5e-3) || !near(s.EL1Range, 9e-3) || !near(s.TimeMean, 4) || !near(s.TimeStd, math.Sqrt2) {
		t.Errorf("ELM (160,80): seeds %d median %g range %g time %g ± %g; want 4, 2.5e-3, 9e-3, 4 ± √2",
			s.Seeds, s.EL1Median, s.EL1Range, s.TimeMean, s.TimeStd)
	}
	if s.HasVerdict || s.Missing != SeedsMissing || s.SeedCount() != "4/5 seeds" {
		t.Errorf("ELM (160,80): verdict %v, missing %v (%s); want no verdict, seeds missing (4/5 seeds)", s.HasVerdict, s.Missing, s.SeedCount())
	}
	if s.Kappa != nil || s.KappaNote != "" || !s.KappaWant {
		t.Errorf("ELM (160,80): κ %v %q want %v; want no κ yet", s.Kappa, s.KappaNote, s.KappaWant)
	}

	s = rows[studytest.ScELM320]
	if s.Seeds != 0 || s.Missing != SeedsMissing || s.HasVerdict || !math.IsNaN(s.EL1Median) || !math.IsNaN(s.Speed) {
		t.Errorf("ELM (320,160): seeds %d missing %v verdict %v median %g speed %g",
			s.Seeds, s.Missing, s.HasVerdict, s.EL1Median, s.Speed)
	}
	if s.Kappa == nil || *s.Kappa != 8e19 {
		t.Errorf("ELM (320,160): the κ computed under another cap was not found: %v", s.Kappa)
	}

	if s := rows[studytest.ScFB20]; !s.HasVerdict || s.Verdict != paperdata.Match || s.KappaWant {
		t.Errorf("FBPINN (20,10) with results: verdict %v (%v), κ wanted %v", s.Verdict, s.HasVerdict, s.KappaWant)
	}
	for _, i := range []int{studytest.ScFB20 + 1, studytest.ScML20 + 1} {
		if s := rows[i]; s.Missing != SeedsMissing || s.Seeds != 0 || s.HasVerdict {
			t.Errorf("%s (row %d) without results: missing %v, %d seeds, verdict %v; want seeds missing (0/5), no verdict",
				s.Row.Label(), i, s.Missing, s.Seeds, s.HasVerdict)
		}
	}
}

// TestStatsQuickTier: the quick tier of osc-baseline runs the ELM row at
// full fidelity without κ, and one seed of shortened PINN (200 steps) and
// FBPINN (1000 steps) trainings, which are never judged or timed against
// the paper. The FBPINN row has its result, the PINN row none.
func TestStatsQuickTier(t *testing.T) {
	tab := studytest.Table(t, "osc-baseline")
	res := studytest.RealResults(t, realDir, "osc-baseline")
	studytest.PutQuick(res, tab, 1, 0, 1000, 2e-2, 3) // the FBPINN row
	rows, err := statsOf(tab, experiments.QuickTier, res)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range rows {
		switch s.Row.Model {
		case experiments.ELM:
			if s.Want != 5 || s.Seeds != 5 || !s.HasVerdict || s.KappaWant || s.Kappa != nil || s.Reduced || s.Iters != experiments.FullIters {
				t.Errorf("ELM row: want %d seeds %d verdict %v κ wanted %v κ %v reduced %v iters %d",
					s.Want, s.Seeds, s.HasVerdict, s.KappaWant, s.Kappa, s.Reduced, s.Iters)
			}
		case experiments.PINN:
			if s.Want != 1 || s.Missing != SeedsMissing || s.HasVerdict || !s.Reduced || s.Iters != 200 {
				t.Errorf("pinn row: want %d missing %v verdict %v reduced %v iters %d; want 1, seeds missing, no verdict, reduced, 200",
					s.Want, s.Missing, s.HasVerdict, s.Reduced, s.Iters)
			}
		case experiments.FBPINN:
			if s.Want != 1 || s.Seeds != 1 || !s.Complete() || s.HasVerdict || !s.Reduced || s.Iters != 1000 || !math.IsNaN(s.Speed) {
				t.Errorf("fbpinn row: want %d seeds %d verdict %v reduced %v iters %d speed %g; want a complete, reduced row of 1000 steps without verdict or speed-up",
					s.Want, s.Seeds, s.HasVerdict, s.Reduced, s.Iters, s.Speed)
			}
		}
	}
	ts, _ := studyOf(tab, experiments.QuickTier, res)
	if k := ts.Counts; k.Reduced != 1 || k.Unjudged != 0 || k.Match != 1 || k.Incomplete != 1 || k.InTier != 3 || k.Complete != 2 {
		t.Errorf("counts %+v: want 1 match, 1 reduced, 1 incomplete, 2 complete of 3 in the tier", k)
	}
	// The one rule of use: the ELM row is usable, the shortened FBPINN
	// run and the PINN row without its result are not, saying why.
	for i, want := range []string{"0/1 seeds", "shortened run of 1000 steps", ""} {
		if got := ts.Rows[i].Why(); got != want {
			t.Errorf("row %d (%s): Why() = %q, want %q", i, ts.Rows[i].Row.Label(), got, want)
		}
	}
}

// TestStatsNotInTier: the quick tier runs only the oscillator rows of the
// weight-scaling figure; the 2D rows are not in it, which is not the same as
// seeds missing.
func TestStatsNotInTier(t *testing.T) {
	tab := studytest.Table(t, "weight-scaling")
	rows, err := statsOf(tab, experiments.QuickTier, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range rows {
		want := NotInTier
		if s.Row.Problem == experiments.Oscillator {
			want = SeedsMissing
		}
		if s.Missing != want {
			t.Errorf("%s: missing %v, want %v", s.Label(), s.Missing, want)
		}
	}
	ts, _ := studyOf(tab, experiments.QuickTier, nil)
	if k := ts.Counts; k.Rows-k.InTier != 14 || k.Incomplete != 7 {
		t.Errorf("counts %+v: want 14 not in the tier, 7 incomplete", k)
	}
	if why := rows[len(rows)-1].Why(); why != "not in the quick tier" {
		t.Errorf("a Helmholtz row: Why() = %q, want not in the quick tier", why)
	}
}

// TestStatsReal checks the baseline row against the real result files.
func TestStatsReal(t *testing.T) {
	tab := studytest.Table(t, "osc-baseline")
	rows, err := statsOf(tab, experiments.Full, studytest.RealResults(t, realDir, "osc-baseline"))
	if err != nil {
		t.Fatal(err)
	}
	s := rows[2]
	if s.Row.Model != experiments.ELM || s.Seeds != 5 || s.Kappa == nil || !s.HasVerdict || s.Verdict != paperdata.Match {
		t.Fatalf("baseline ELM row: %+v", s)
	}
	// The five files' eL1 (seeds 0-4), sorted: 8.2554e-05, 9.8221e-05,
	// 1.1746e-04, 1.2377e-04, 1.3028e-04.
	if math.Abs(s.EL1Median-1.1746236181303088e-04) > 1e-18 || math.Abs(s.EL1Range-(1.3028025278797976e-04-8.255381668486915e-05)) > 1e-18 {
		t.Errorf("median %g range %g", s.EL1Median, s.EL1Range)
	}
	for _, s := range rows[:2] {
		if s.Missing != SeedsMissing || s.Seeds != 0 || s.Want != 5 {
			t.Errorf("%s: missing %v, %d/%d seeds; want seeds missing, 0/5", s.Row.Model, s.Missing, s.Seeds, s.Want)
		}
	}
}

func TestStatsErrors(t *testing.T) {
	tab := studytest.Table(t, "osc-baseline")
	if _, err := statsOf(tab, "slow", nil); err == nil {
		t.Error("unknown tier: no error")
	}
	// A result filed under another run's key.
	res := studytest.RealResults(t, realDir, "osc-baseline")
	k0 := tab.Rows[2].Spec(0).Key()
	k1 := tab.Rows[2].Spec(1).Key()
	res[k0] = res[k1]
	if _, err := statsOf(tab, experiments.Full, res); err == nil || !strings.Contains(err.Error(), k0) {
		t.Errorf("misfiled result: err %v", err)
	}
	// No results at all is not an error.
	rows, err := statsOf(tab, experiments.Full, nil)
	if err != nil || rows[2].Missing != SeedsMissing || rows[2].Seeds != 0 {
		t.Errorf("no results: %v, missing %v, %d seeds", err, rows[2].Missing, rows[2].Seeds)
	}
}

// TestStatsContended: a row with a seed timed contended (repro run
// -oversubscribe) keeps its times but has no speed ratio, and says why.
func TestStatsContended(t *testing.T) {
	tab := studytest.Table(t, "osc-baseline")
	res := studytest.RealResults(t, realDir, "osc-baseline")
	s := tab.Rows[2].Spec(3)
	r := *res[s.Key()]
	r.Env.Contended = true
	res[s.Key()] = &r
	rows, err := statsOf(tab, experiments.Full, res)
	if err != nil {
		t.Fatal(err)
	}
	got := rows[2]
	if got.Contended != 1 || !math.IsNaN(got.Speed) || math.IsNaN(got.TimeMean) {
		t.Errorf("contended row: %d contended, speed %v, time %v; want 1, NaN and a time", got.Contended, got.Speed, got.TimeMean)
	}
	if why := got.SpeedMissing(); !strings.Contains(why, "1 of 5 seeds were timed while sharing their core") {
		t.Errorf("contended row: SpeedMissing() = %q", why)
	}
}

// TestLabel: a row's one name (the report's, the claims' and repro
// compare's row key): the model, (param, J) and K as the paper lists
// them (the PINN with J = 1 and K its width), R unless it is 1, and the
// problem first in the weight-scaling table.
func TestLabel(t *testing.T) {
	find := func(id string, keep func(experiments.Row) bool) RowStats {
		tab := studytest.Table(t, id)
		i := slices.IndexFunc(tab.Rows, keep)
		if i < 0 {
			t.Fatalf("%s: no such row", id)
		}
		return RowStats{Table: tab, Row: tab.Rows[i]}
	}
	model := func(m string) func(experiments.Row) bool {
		return func(r experiments.Row) bool { return r.Model == m && len(r.J) == 1 }
	}
	for _, tc := range []struct {
		s    RowStats
		want string
	}{
		{find("osc-baseline", model(experiments.ELM)), "ELM-FBPINN (80, 20) K=12"},
		{find("osc-baseline", model(experiments.PINN)), "PINN (80, 1) K=64"},
		{find("osc-scaling", func(r experiments.Row) bool { return len(r.J) == 3 && r.Param == 20 }), "ELM-FBPINN (L=3) (20, [1,5,10]) K=12"},
		{find("weight-scaling", func(r experiments.Row) bool { return r.Problem == experiments.Oscillator && r.R == 0.5 }),
			"damped oscillator ELM-FBPINN (80, 20) K=12 R=0.5"},
	} {
		if got := tc.s.Label(); got != tc.want {
			t.Errorf("%s row: Label() = %q, want %q", tc.s.Table.ID, got, tc.want)
		}
	}
}

// TestSolveStats: a solver study's statistics of a row: the final errors,
// the iterations run, the set-up (the first record's time), the time to the
// reference median (the first timed record at or below it, on every seed,
// else NaN with the count) and the band's median times.
func TestSolveStats(t *testing.T) {
	tab := &experiments.Table{ID: "s", Kind: experiments.Solvers}
	row := experiments.Row{Problem: experiments.Oscillator, Model: experiments.ELM, Param: 80, J: []int{20}, K: 12, R: 1, Delta: 2.9,
		Ref: &paperdata.Row{EL1Median: 1e-3, EL1Range: 1e-4}}
	rec := func(iter int, el1, t float64) metric.Record { return metric.Record{Iter: iter, EL1: el1, T: t} }
	res := func(final float64, h ...metric.Record) *experiments.Result {
		return &experiments.Result{EL1Final: final, History: h, Time: experiments.Timing{Solve: h[len(h)-1].T + 0.5}}
	}
	found := []*experiments.Result{
		res(2e-3, rec(0, 1, 0.1), rec(100, 1e-2, 1), rec(200, 9e-4, 2)),
		res(4e-3, rec(0, 1, 0.3), rec(100, 5e-4, 3), rec(200, 8e-4, 4)),
	}
	st := solveStats(found, tab, row)
	if st.FinalMedian != 3e-3 || st.FinalMin != 2e-3 || st.FinalMax != 4e-3 || st.Iterations != 200 ||
		!near(st.Setup, 0.2) || !near(st.Solve, 3.5) || st.Reached != 2 || st.Reach != 2.5 {
		t.Errorf("stats %+v; want final 3e-3 [2e-3, 4e-3], 200 iterations, set-up 0.2, solve 3.5, reached by both at 2 and 3 (median 2.5)", st)
	}
	found[1].History[1].EL1, found[1].History[2].EL1 = 5e-2, 5e-2 // never reaches 1e-3
	if st := solveStats(found, tab, row); st.Reached != 1 || !math.IsInf(st.Reach, 1) {
		t.Errorf("one seed of two reaching: reached %d, reach %v; want 1 and +Inf (the median of 2 and never)", st.Reached, st.Reach)
	}
	found = append(found, res(1e-3, rec(0, 1, 0.2), rec(100, 1e-3, 7), rec(200, 1e-3, 8)))
	if st := solveStats(found, tab, row); st.Reached != 2 || st.Reach != 7 {
		t.Errorf("two seeds of three reaching at 2 and 7: reached %d, reach %v; want 2 and 7 (the median of 2, 7, never)", st.Reached, st.Reach)
	}
	found = found[:2]
	b := HistoryBand([][]metric.Record{found[0].History, found[1].History})
	if len(b.T) != 3 || !near(b.T[0], 0.2) || b.T[2] != 3 {
		t.Errorf("band times %v, want the medians 0.2, 2, 3", b.T)
	}
	found[0].History[1].T = 0 // an untimed record: no times
	if b := HistoryBand([][]metric.Record{found[0].History, found[1].History}); b.T != nil {
		t.Errorf("band times %v with an untimed record, want none", b.T)
	}
}
