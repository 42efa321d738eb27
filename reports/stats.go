package reports

import (
	"fmt"
	"math"
	"slices"

	"github.com/montanaflynn/stats"

	"elmfbpinn/core/metric"
	"elmfbpinn/experiments"
	"elmfbpinn/paperdata"
)

// RowStats is the statistics of one table row in one tier.
type RowStats struct {
	Table *experiments.Table
	Index int // the row's index in Table.Rows
	Row   experiments.Row

	Seeds int // how many of the tier's seeds have a result
	Want  int // how many seeds the tier asks for (0: the row is not in the tier)
	// Iters is the budget (LSQR iterations or Adam steps) of the tier's
	// runs of the row; Reduced is set when it is below the paper's
	// experiments.FullIters (a quick-tier training): such a row is shown
	// but neither judged nor timed against the paper.
	Iters   int
	Reduced bool

	// Over the seeds present, of Result.EL1 (the per-seed minimum over
	// the history); NaN when no seed has a result. EL1Range = max − min.
	EL1Median, EL1Min, EL1Max, EL1Range float64
	// Of Result.Time.Total over the seeds present (population standard
	// deviation); NaN when no seed has a result.
	TimeMean, TimeStd float64

	// Kappa and KappaNote come from the row's κ run (Iters == 0, Kappa
	// true) when its result is present. KappaWant says whether the tier has
	// a κ run for the row at all (only ELM rows in the full tier do).
	Kappa     *float64
	KappaNote string
	KappaWant bool

	Paper *paperdata.Row // nil if the paper has no row (e.g. weight-scaling)

	// Verdict is set (HasVerdict) only when Seeds == Want > 0, Paper !=
	// nil and the budget is the paper's (!Reduced).
	Verdict    paperdata.Verdict
	HasVerdict bool

	// Speed is paperdata.SpeedRatio(Paper.TimeMean, TimeMean): above 1 means
	// we are faster. NaN if either time is unknown or the budget is reduced.
	Speed float64

	// Contended counts the seeds timed with more runs at once than cores
	// (Env.Contended): when positive, Speed is NaN, the times being no
	// clean single-core measurement.
	Contended int

	// Missing says why the row lacks results: SeedsMissing when Seeds <
	// Want, NotInTier when Want == 0, NothingMissing for a complete row.
	Missing Reason

	machines []string // "CPU (GOMAXPROCS=n)" of the solve results, when recorded
}

// Reason says why a row of a table lacks results in a tier.
type Reason int

const (
	NothingMissing Reason = iota // every seed the tier asks for has a result
	SeedsMissing                 // the tier runs the row, but some seeds have no result
	NotInTier                    // the tier does not run the row
)

// String returns the reason in words.
func (r Reason) String() string {
	switch r {
	case NothingMissing:
		return "nothing missing"
	case SeedsMissing:
		return "seeds missing"
	case NotInTier:
		return "not in the tier"
	}
	return fmt.Sprintf("Reason(%d)", int(r))
}

// Complete reports whether every seed the tier asks for has a result.
func (s RowStats) Complete() bool { return s.Want > 0 && s.Seeds == s.Want }

// seedCount is the seeds present out of those the tier asks for: "3/5 seeds".
func (s RowStats) seedCount() string { return fmt.Sprintf("%d/%d seeds", s.Seeds, s.Want) }

// rowRuns are the runs a tier asks of one table row, and the results of
// its solves that are present.
type rowRuns struct {
	iters  int                   // the budget of the solves
	solves []experiments.Spec    // the solve runs (Iters > 0), in seed order
	found  []*experiments.Result // the results of solves that are present, in seed order
	kappa  *experiments.Spec     // the κ run (Iters == 0), if the tier has one
}

// groupRuns returns the runs of every row of t the tier asks for
// (t.Runs(tier)), in the table's order, with the solve results present in
// results (keyed by Spec.Key()).
func groupRuns(t *experiments.Table, tier string, results map[string]*experiments.Result) ([]rowRuns, error) {
	runs, err := t.Runs(tier)
	if err != nil {
		return nil, err
	}
	groups := make([]rowRuns, len(t.Rows))
	for _, r := range runs {
		if r.Row < 0 || r.Row >= len(t.Rows) {
			return nil, fmt.Errorf("table %s: run %s names row %d of %d", t.ID, r.Spec, r.Row, len(t.Rows))
		}
		g := &groups[r.Row]
		switch {
		case r.Spec.Iters > 0:
			g.iters = max(g.iters, r.Spec.Iters)
			g.solves = append(g.solves, r.Spec)
			res, err := lookup(results, r.Spec)
			if err != nil {
				return nil, fmt.Errorf("table %s: %w", t.ID, err)
			}
			if res != nil {
				g.found = append(g.found, res)
			}
		case r.Spec.Kappa:
			s := r.Spec
			g.kappa = &s
		}
	}
	return groups, nil
}

// band returns the band of the error histories of the results present.
func (g rowRuns) band() Band {
	hs := make([][]metric.Record, len(g.found))
	for i, r := range g.found {
		hs[i] = r.History
	}
	return HistoryBand(hs)
}

// Stats returns the statistics of every row of t, in the table's order, for
// the runs the tier asks for (t.Runs(tier)). results is keyed by
// Spec.Key().
func Stats(t *experiments.Table, tier string, results map[string]*experiments.Result) ([]RowStats, error) {
	groups, err := groupRuns(t, tier, results)
	if err != nil {
		return nil, err
	}

	out := make([]RowStats, len(t.Rows))
	for i, row := range t.Rows {
		g := groups[i]
		s := RowStats{
			Table: t, Index: i, Row: row, Want: len(g.solves),
			Iters: g.iters, Reduced: g.iters > 0 && g.iters < experiments.FullIters,
			EL1Median: math.NaN(), EL1Min: math.NaN(), EL1Max: math.NaN(), EL1Range: math.NaN(),
			TimeMean: math.NaN(), TimeStd: math.NaN(), Speed: math.NaN(),
			KappaWant: g.kappa != nil,
		}
		var el1, times stats.Float64Data
		for _, res := range g.found {
			if m := machine(res.Env); m != "" && !slices.Contains(s.machines, m) {
				s.machines = append(s.machines, m)
			}
			if res.Env.Contended {
				s.Contended++
			}
			el1 = append(el1, res.EL1)
			times = append(times, res.Time.Total)
		}
		s.Seeds = len(el1)
		if s.Seeds > 0 {
			if err := summarise(&s, el1, times); err != nil {
				return nil, fmt.Errorf("table %s row %d: %w", t.ID, i, err)
			}
		}
		if g.kappa != nil {
			res, err := lookup(results, *g.kappa)
			if err != nil {
				return nil, fmt.Errorf("table %s: %w", t.ID, err)
			}
			if res != nil {
				if res.Kappa != nil {
					k := *res.Kappa
					s.Kappa = &k
				}
				s.KappaNote = res.KappaNote
			}
		}
		if p, ok := t.PaperRow(row); ok {
			s.Paper = &p
			if !s.Reduced && s.Contended == 0 {
				s.Speed = paperdata.SpeedRatio(p.TimeMean, s.TimeMean)
			}
		}
		switch {
		case s.Want == 0:
			s.Missing = NotInTier
		case s.Seeds < s.Want:
			s.Missing = SeedsMissing
		}
		if s.Complete() && s.Paper != nil && !s.Reduced {
			s.Verdict = paperdata.Judge(s.EL1Median, *s.Paper)
			s.HasVerdict = true
		}
		out[i] = s
	}
	return out, nil
}

// summarise fills the error and time statistics from the seeds present.
func summarise(s *RowStats, el1, times stats.Float64Data) error {
	var errs [6]error
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
	return nil
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
	if e.CPU == "" {
		return ""
	}
	if e.GOMAXPROCS > 0 {
		return fmt.Sprintf("%s (GOMAXPROCS=%d)", e.CPU, e.GOMAXPROCS)
	}
	return e.CPU
}
