package study

import (
	"cmp"
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

// Study is the view of a set of tables over a result store in one tier,
// built once by NewStudy: per row its runs, statistics, the paper's value
// and band, the verdict, κ and the reasons for anything missing. Every
// output (the Markdown and LaTeX tables, REPORT.md and report.tex, runs.csv,
// the figures and the claims) renders it; none computes a statistic again.
type Study struct {
	Tier   string
	Tables []*TableStudy
	Counts Counts // over every table
	// PaperCounts are over the paper's tables, FileCounts over the
	// experiment files' (judged against their own reference values): a
	// report that holds both gives them apart.
	PaperCounts, FileCounts Counts
}

// TableStudy is one table of a Study.
type TableStudy struct {
	Table  *experiments.Table
	Tier   string
	Rows   []RowStats // in the table's order
	Counts Counts
	// Runs are every run the tier asks of the table (solves and κ runs)
	// with its result, nil when absent.
	Runs []RunResult
}

// Machines returns where the table's results were timed, each once, in
// the order of the rows: "CPU (GOMAXPROCS=n)" when the results say.
func (ts *TableStudy) Machines() []string {
	var out []string
	for _, s := range ts.Rows {
		for _, m := range s.Machines {
			if !slices.Contains(out, m) {
				out = append(out, m)
			}
		}
	}
	return out
}

// RunResult is a run with its result (nil when absent).
type RunResult struct {
	experiments.Run
	Result *experiments.Result
}

// RowStats is the statistics of one table row in one tier.
type RowStats struct {
	Table *experiments.Table
	Tier  string
	Index int // the row's index in Table.Rows
	Row   experiments.Row

	Seeds int // how many of the tier's seeds have a result
	// Bad is how many of the tier's seeds have a result file that is not a
	// valid result (experiments.Check), left out as missing (MarkBad).
	Bad  int
	Want int // how many seeds the tier asks for (0: the row is not in the tier)
	// Iters is the budget (LSQR iterations or Adam steps) of the tier's
	// runs of the row; Reduced is set when it is below the paper's
	// experiments.FullIters (a quick-tier training): such a row is shown
	// but neither judged nor timed against the paper.
	Iters   int
	Reduced bool
	Missing Reason

	// Solves are the row's solve runs in seed order, Found the results of
	// those present.
	Solves []experiments.Spec
	Found  []*experiments.Result

	// Over the seeds present, of Result.EL1 (the per-seed minimum over
	// the history); NaN when no seed has a result. EL1Range = max − min.
	EL1Median, EL1Min, EL1Max, EL1Range float64
	// Of Result.Time.Total over the seeds present (population standard
	// deviation); NaN when no seed has a result.
	TimeMean, TimeStd float64
	// Band is the test-error history over the seeds present.
	Band Band
	// Solve is the row's solves over the seeds present as a study of
	// least-squares solvers reads them.
	Solve SolveStats

	// Kappa and KappaNote come from the row's κ run (Iters == 0, Kappa
	// true) when its result is present. KappaWant says whether the tier has
	// a κ run for the row at all (only ELM rows in the full tier do).
	Kappa     *float64
	KappaNote string
	KappaWant bool

	Paper *paperdata.Row // nil if the paper has no row (e.g. weight-scaling)
	// Verdict is set (HasVerdict) for a usable row (Why() == "") that the
	// paper publishes.
	Verdict    paperdata.Verdict
	HasVerdict bool
	// Speed is paperdata.SpeedRatio(Paper.TimeMean, TimeMean): above 1 means
	// we are faster. NaN if either time is unknown, the budget is reduced
	// or a seed was timed contended.
	Speed float64
	// Contended counts the seeds whose time was not a clean single-core
	// measurement (Env.Contended: more runs at once than cores, or other
	// work on the run's core).
	Contended int
	// Note is the declared reason (experiments.Notes) why the row is not a
	// match with the paper, with its evidence; "" if none is declared.
	Note string
	// Machines are where the seeds present were timed, "CPU
	// (GOMAXPROCS=n)", when their results say.
	Machines []string
}

// SolveStats are the statistics of a row's solves over the seeds present
// that a study of solvers reports beside the paper's minimum-over-history
// e_L1: the error of the coefficients returned, the iterations, the times
// and the time to reach the reference median. NaN where no seed has one.
type SolveStats struct {
	// Of Result.EL1Final, the test error of the coefficients the solver
	// returns (its last iterate, or the one its stopping rule chose).
	FinalMedian, FinalMin, FinalMax float64
	// Iterations is the median of the last recorded iteration (the
	// iterations run; a forced run's budget).
	Iterations float64
	// Setup is the mean time of the first record (iteration 0: the
	// solver's set-up, a preconditioner's included, and one test error);
	// Solve the mean Time.Solve; both NaN for untimed histories (Setup).
	Setup, Solve float64
	// Reach is the median over the seeds present of the time of the first
	// record at or below the reference's median e_L1 (Paper.EL1Median), a
	// seed that never reached it counting as infinitely late: finite when
	// more than half the seeds reached it (Reached of them did), +Inf
	// otherwise, NaN without a reference or timed histories.
	Reach   float64
	Reached int
	// VsForced, in a table of solvers, is the mean time of the row of the
	// same configuration solved by the paper's forced LSQR (solver
	// lsqr-forced, or the default) over Reach: how many times sooner this
	// solver reached the paper's median than forced LSQR finished its
	// iterations; NaN where either is missing.
	VsForced float64
}

// Reason says why a row of a table lacks results in a tier.
type Reason int

const (
	NothingMissing Reason = iota // every seed the tier asks for has a result
	SeedsMissing                 // the tier runs the row, but some seeds have no result
	NotInTier                    // the tier does not run the row
)

// Complete reports whether every seed the tier asks for has a result.
func (s RowStats) Complete() bool { return s.Want > 0 && s.Seeds == s.Want }

// Why is the one rule of whether a row's results stand for the paper's row:
// "" when every seed the tier asks for has a result at the paper's budget;
// otherwise why not ("not in the quick tier", "3/5 seeds", "shortened run
// of 1000 steps"). Verdicts, claims and final-error figures use only such
// rows; a convergence figure also draws a complete shortened row, saying so.
func (s RowStats) Why() string {
	switch {
	case s.Missing == NotInTier:
		return "not in the " + s.Tier + " tier"
	case s.Missing == SeedsMissing:
		return s.SeedCount()
	case s.Reduced:
		return fmt.Sprintf("shortened run of %d steps", s.Iters)
	}
	return ""
}

// SeedCount is the seeds present out of those the tier asks for: "3/5
// seeds", and the bad files among the others: "3/5 seeds (2 bad result
// files left out)".
func (s RowStats) SeedCount() string {
	c := fmt.Sprintf("%d/%d seeds", s.Seeds, s.Want)
	if s.Bad > 0 {
		c += fmt.Sprintf(" (%d bad result %s left out)", s.Bad, Plural(s.Bad, "file"))
	}
	return c
}

// Absent says why the row has no statistics of its own: "not run in the
// quick tier", "0/5 seeds: no results yet", "0/5 seeds (5 bad result files
// left out): repro run makes them again".
func (s RowStats) Absent() string {
	switch {
	case s.Missing == NotInTier:
		return "not run in the " + s.Tier + " tier"
	case s.Bad > 0:
		return s.SeedCount() + ": repro run makes them again"
	}
	return s.SeedCount() + ": no results yet"
}

// Shortened is the note of a row trained with a shortened budget.
func (s RowStats) Shortened() string {
	return fmt.Sprintf("shortened run (%d %s, %d of the %s %d steps): a regression check, not judged or timed against the %s",
		s.Want, Plural(s.Want, "seed"), s.Iters, s.Table.RefName()+"'s", s.Row.Budget(), s.Table.RefName())
}

// Partial is the note of statistics over some of the seeds the tier asks
// for.
func (s RowStats) Partial() string {
	return s.SeedCount() + ": statistics over the seeds present; no verdict"
}

// NoPaper says why the paper has no value for the row.
func (s RowStats) NoPaper() string {
	if s.Table.Source != nil {
		return "no reference values for this row in " + s.Table.Source.Path + ": not judged"
	}
	if s.Table.Paper == "" {
		return "no published row: the paper shows these results only as a figure"
	}
	return "no published row for this configuration in " + s.Table.Paper
}

// VerdictMissing says why the row has no verdict; "" if it has one.
func (s RowStats) VerdictMissing() string {
	switch {
	case s.HasVerdict:
		return ""
	case s.Reduced && s.Seeds > 0:
		return s.Shortened()
	case s.Paper == nil:
		return s.NoPaper()
	case s.Seeds == 0:
		return s.Absent()
	}
	return s.Partial()
}

// SpeedMissing says why the row has no speed-up (a positive Speed); "" if
// it has one.
func (s RowStats) SpeedMissing() string {
	switch {
	case Finite(s.Speed) && s.Speed > 0:
		return ""
	case s.Paper == nil:
		return s.NoPaper()
	case s.Seeds == 0:
		return s.Absent()
	case s.Reduced:
		return s.Shortened()
	case s.Contended > 0:
		return fmt.Sprintf("%d of %d seeds were timed while sharing their core (contended: true; repro run -retime times them again): left out of the speed-up", s.Contended, s.Seeds)
	}
	return "no positive time to compare"
}

// KappaMissing says why the row's κ(M) is not a number, "" if it is one
// (or the model has none): infinite says whether κ is known to be infinite
// (then why is its note).
func (s RowStats) KappaMissing() (why string, infinite bool) {
	switch {
	case s.Row.Model != experiments.ELM, s.Kappa != nil && Finite(*s.Kappa):
		return "", false
	case s.Kappa != nil || strings.HasPrefix(s.KappaNote, "infinite"):
		return "κ " + cmp.Or(s.KappaNote, "infinite"), true
	case s.KappaNote != "":
		return "κ " + s.KappaNote, false
	case s.KappaWant:
		return "κ run not done yet", false
	}
	return "κ is not computed in the " + s.Tier + " tier", false
}

// Label names the row in plain text: "ELM-FBPINN (80, 20) K=12", with its
// R where it is not 1 and, in the weight-scaling table, its problem first.
func (s RowStats) Label() string {
	p, j, k := s.Row.PaperKey()
	name := fmt.Sprintf("%s (%s, %s) K=%d", s.Row.Label(), Num(p), paperdata.FormatJ(j), k)
	if s.Row.R != 1 {
		name += " R=" + Num(s.Row.R)
	}
	if s.Table != nil && s.Table.Kind == experiments.Weights {
		name = ProblemOf(s.Row.Problem).Title + " " + name
	}
	return name
}

// Counts are the verdicts of rows.
type Counts struct {
	Rows, InTier, Complete int
	Match, Close, Off      int
	Unjudged               int // complete at the paper's budget without a published row
	Reduced                int // complete, run with a shortened budget: not judged
	Incomplete             int // in the tier with seeds missing
}

func (k *Counts) add(s RowStats) {
	k.Rows++
	if s.Missing == NotInTier {
		return
	}
	k.InTier++
	switch {
	case s.Missing == SeedsMissing:
		k.Incomplete++
		return
	case s.Reduced:
		k.Reduced++
	case !s.HasVerdict:
		k.Unjudged++
	case s.Verdict == paperdata.Match:
		k.Match++
	case s.Verdict == paperdata.Close:
		k.Close++
	default:
		k.Off++
	}
	k.Complete++
}

func (k *Counts) sum(o Counts) {
	k.Rows, k.InTier, k.Complete = k.Rows+o.Rows, k.InTier+o.InTier, k.Complete+o.Complete
	k.Match, k.Close, k.Off = k.Match+o.Match, k.Close+o.Close, k.Off+o.Off
	k.Unjudged, k.Reduced, k.Incomplete = k.Unjudged+o.Unjudged, k.Reduced+o.Reduced, k.Incomplete+o.Incomplete
}

// NewStudy builds the study of tables in a tier over results (keyed by
// Spec.Key(), as experiments.LoadAll returns them; nil: none).
func NewStudy(tables []*experiments.Table, tier string, results map[string]*experiments.Result) (*Study, error) {
	st := &Study{Tier: tier}
	for _, t := range tables {
		ts, err := newTableStudy(t, tier, results)
		if err != nil {
			return nil, err
		}
		st.Tables = append(st.Tables, ts)
		st.Counts.sum(ts.Counts)
		if t.Source == nil {
			st.PaperCounts.sum(ts.Counts)
		} else {
			st.FileCounts.sum(ts.Counts)
		}
	}
	return st, nil
}

// MarkBad counts, in every row, the seeds whose result file is bad (bad
// holds their Spec keys; experiments.BadResultError.Key): such a seed is
// missing, and the row says how many of its missing seeds are bad files
// (RowStats.Bad) rather than not run.
func (st *Study) MarkBad(bad map[string]bool) {
	if len(bad) == 0 {
		return
	}
	for _, ts := range st.Tables {
		for i := range ts.Rows {
			s := &ts.Rows[i]
			s.Bad = 0
			for _, sp := range s.Solves {
				if bad[sp.Key()] {
					s.Bad++
				}
			}
		}
	}
}

func newTableStudy(t *experiments.Table, tier string, results map[string]*experiments.Result) (*TableStudy, error) {
	runs, err := t.Runs(tier)
	if err != nil {
		return nil, err
	}
	ts := &TableStudy{Table: t, Tier: tier, Rows: make([]RowStats, len(t.Rows))}
	nan := math.NaN()
	for i, r := range t.Rows {
		ts.Rows[i] = RowStats{Table: t, Index: i, Row: r, Tier: tier, EL1Median: nan, EL1Min: nan, EL1Max: nan,
			EL1Range: nan, TimeMean: nan, TimeStd: nan, Speed: nan}
	}
	for _, r := range runs {
		if r.Row < 0 || r.Row >= len(t.Rows) {
			return nil, fmt.Errorf("table %s: run %s names row %d of %d", t.ID, r.Spec, r.Row, len(t.Rows))
		}
		res, err := lookup(results, r.Spec)
		if err != nil {
			return nil, fmt.Errorf("table %s: %w", t.ID, err)
		}
		ts.Runs = append(ts.Runs, RunResult{r, res})
		s := &ts.Rows[r.Row]
		switch {
		case r.Spec.Iters > 0:
			s.Iters = max(s.Iters, r.Spec.Iters)
			s.Solves = append(s.Solves, r.Spec)
			if res != nil {
				s.Found = append(s.Found, res)
			}
		case r.Spec.Kappa:
			s.KappaWant = true
			if res != nil {
				s.Kappa, s.KappaNote = res.Kappa, res.KappaNote
			}
		}
	}
	for i := range ts.Rows {
		s := &ts.Rows[i]
		if err := s.summarise(); err != nil {
			return nil, fmt.Errorf("table %s row %d: %w", t.ID, i, err)
		}
		ts.Counts.add(*s)
	}
	if t.Kind == experiments.Solvers {
		for i := range ts.Rows {
			s := &ts.Rows[i]
			if f := ts.forced(s.Row); f != nil {
				s.Solve.VsForced = f.TimeMean / s.Solve.Reach
			}
		}
	}
	return ts, nil
}

// forced returns the row of the same configuration as r (problem,
// parameter, J, K, R, δ) solved by the paper's forced LSQR (solver
// lsqr-forced or the default), nil if the table has none.
func (ts *TableStudy) forced(r experiments.Row) *RowStats {
	for i := range ts.Rows {
		f := ts.Rows[i].Row
		if (f.Solver == experiments.ForcedSolver || f.Solver == "") && f.Problem == r.Problem && f.Param == r.Param &&
			slices.Equal(f.J, r.J) && f.K == r.K && f.R == r.R && f.Delta == r.Delta && f.Model == r.Model {
			return &ts.Rows[i]
		}
	}
	return nil
}

// summarise fills the statistics, the paper's row and the verdict from the
// runs of the row.
func (s *RowStats) summarise() error {
	s.Want, s.Seeds = len(s.Solves), len(s.Found)
	s.Reduced = s.Iters > 0 && s.Iters < s.Row.Budget()
	switch {
	case s.Want == 0:
		s.Missing = NotInTier
	case s.Seeds < s.Want:
		s.Missing = SeedsMissing
	}
	var el1, times stats.Float64Data
	hs := make([][]metric.Record, len(s.Found))
	for i, res := range s.Found {
		if m := machine(res.Env); m != "" && !slices.Contains(s.Machines, m) {
			s.Machines = append(s.Machines, m)
		}
		if res.Env.Contended {
			s.Contended++
		}
		el1, times = append(el1, res.EL1), append(times, res.Time.Total)
		hs[i] = res.TimedHistory()
	}
	s.Band = HistoryBand(hs)
	if s.Seeds > 0 {
		var errs [5]error
		s.EL1Median, errs[0] = stats.Median(el1)
		s.EL1Min, errs[1] = stats.Min(el1)
		s.EL1Max, errs[2] = stats.Max(el1)
		s.TimeMean, errs[3] = stats.Mean(times)
		s.TimeStd, errs[4] = stats.StandardDeviationPopulation(times)
		for _, err := range errs {
			if err != nil {
				return err
			}
		}
		s.EL1Range = s.EL1Max - s.EL1Min
	}
	s.Solve = solveStats(s.Found, s.Table, s.Row)
	if p, ok := s.Table.PaperRow(s.Row); ok {
		s.Paper = &p
		if !s.Reduced && s.Contended == 0 {
			s.Speed = paperdata.SpeedRatio(p.TimeMean, s.TimeMean)
		}
		if s.Why() == "" {
			s.Verdict, s.HasVerdict = paperdata.Judge(s.EL1Median, p), true
		}
	}
	if s.HasVerdict && s.Verdict != paperdata.Match {
		s.Note = experiments.NoteFor(s.Table, s.Index)
	}
	return nil
}

// solveStats returns the SolveStats of a row's results.
func solveStats(found []*experiments.Result, t *experiments.Table, row experiments.Row) SolveStats {
	nan := math.NaN()
	st := SolveStats{FinalMedian: nan, FinalMin: nan, FinalMax: nan, Iterations: nan, Setup: nan, Solve: nan, Reach: nan, VsForced: nan}
	if len(found) == 0 {
		return st
	}
	target := nan
	if p, ok := t.PaperRow(row); ok {
		target = p.EL1Median
	}
	var final, iters, setup, solve, reach stats.Float64Data
	timed := true
	for _, r := range found {
		final, solve = append(final, r.EL1Final), append(solve, r.Time.Solve)
		h := r.TimedHistory()
		if n := len(h); n > 0 {
			iters = append(iters, float64(h[n-1].Iter))
			if h[0].T > 0 {
				setup = append(setup, h[0].T)
			}
		}
		rec, ok := metric.Reached(h, target)
		switch {
		case !ok:
			reach = append(reach, math.Inf(1))
		case rec.T > 0:
			reach = append(reach, rec.T)
			st.Reached++
		default:
			timed = false
		}
	}
	st.FinalMedian, _ = final.Median()
	st.FinalMin, _ = final.Min()
	st.FinalMax, _ = final.Max()
	st.Solve, _ = solve.Mean()
	if len(iters) > 0 {
		st.Iterations, _ = iters.Median()
	}
	if len(setup) == len(found) {
		st.Setup, _ = setup.Mean()
	}
	if timed && !math.IsNaN(target) {
		sort.Float64s(reach)
		n := len(reach)
		st.Reach = reach[n/2]
		if n%2 == 0 {
			st.Reach = (reach[n/2-1] + reach[n/2]) / 2 // +Inf if the upper one is
		}
	}
	return st
}

// lookup returns the result of spec, or nil if there is none. A result
// stored under the spec's key whose own key says otherwise is an error.
func lookup(results map[string]*experiments.Result, spec experiments.Spec) (*experiments.Result, error) {
	key := spec.Key()
	res := results[key]
	if res == nil {
		return nil, nil
	}
	if res.Key != "" && res.Key != key {
		return nil, fmt.Errorf("result stored under key %s says it is %s (%s)", key, res.Key, spec)
	}
	return res, nil
}

// machine names where a result was timed; "" if the result does not say.
func machine(e experiments.Env) string {
	if e.Where() == "" {
		return ""
	}
	if e.GOMAXPROCS > 0 {
		return fmt.Sprintf("%s (GOMAXPROCS=%d)", e.Where(), e.GOMAXPROCS)
	}
	return e.Where()
}

// Band is the test-error history of one row over its seeds:
//
//	Median[i], Min[i], Max[i] over seeds of e_L1 at iteration Iter[i]
//
// Only the iterations recorded by every seed with a finite error are kept,
// so that no point is drawn from fewer seeds than the band claims.
type Band struct {
	Iter             []float64
	Median, Min, Max []float64
	// T is the median over the seeds of the seconds each had taken at
	// Iter[i] (metric.Record.T); nil unless every record of every
	// history is timed.
	T     []float64
	Seeds int // the number of histories the band is over
}

// Len returns the number of points of the band.
func (b Band) Len() int { return len(b.Iter) }

// HistoryBand returns the band of the histories of one row's seeds. A
// history without records gives an empty band.
func HistoryBand(hs [][]metric.Record) Band {
	b := Band{Seeds: len(hs)}
	vals := map[int][]float64{} // the finite errors at each iteration
	times := map[int][]float64{}
	timed := len(hs) > 0
	bad := map[int]bool{}
	for _, h := range hs {
		seen := map[int]bool{}
		for _, r := range h {
			if seen[r.Iter] {
				continue // a repeated record keeps its first value
			}
			seen[r.Iter] = true
			times[r.Iter] = append(times[r.Iter], r.T)
			timed = timed && r.T > 0
			if !Finite(r.EL1) {
				bad[r.Iter] = true
				continue
			}
			vals[r.Iter] = append(vals[r.Iter], r.EL1)
		}
	}
	var iters []int
	for it, v := range vals {
		if len(v) == len(hs) && !bad[it] {
			iters = append(iters, it)
		}
	}
	sort.Ints(iters)
	for _, it := range iters {
		v := stats.Float64Data(vals[it])
		med, _ := v.Median()
		lo, _ := v.Min()
		hi, _ := v.Max()
		b.Iter = append(b.Iter, float64(it))
		b.Median, b.Min, b.Max = append(b.Median, med), append(b.Min, lo), append(b.Max, hi)
		if timed {
			t, _ := stats.Float64Data(times[it]).Median()
			b.T = append(b.T, t)
		}
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
