package study

import (
	"fmt"
	"slices"

	"elmfbpinn/experiments"
)

// This file compares two result sets row by row (repro compare): a
// regression check of e_L1 and time over the seeds, in benchstat's manner.

// Change is the verdict of a comparison.
type Change int

const (
	Same   Change = iota // no significant change ("~")
	Better               // significantly smaller, by more than the threshold
	Worse                // significantly larger, by more than the threshold
	NoData               // nothing to compare: no seed has a result on both sides
	// Contended is a time with nothing to compare: every seed with a
	// result on both sides was timed contended on one side or both
	// (experiments.Env.Contended), so its time is not a clean measurement.
	Contended
	// OtherMachine is a time with nothing to compare: every seed timed
	// cleanly on both sides was timed on two kinds of processor or two
	// kernel paths (SameMachine), whose times do not compare.
	OtherMachine
)

// String returns the change as repro compare prints it: "~", "better",
// "worse", "missing" or "contended".
func (c Change) String() string {
	switch c {
	case Same:
		return "~"
	case Better:
		return "better"
	case Worse:
		return "worse"
	case NoData:
		return "missing"
	case Contended:
		return "contended"
	case OtherMachine:
		return "other machine"
	}
	return fmt.Sprintf("Change(%d)", int(c))
}

// CompareOptions are the thresholds of a comparison. A zero field means
// its default.
type CompareOptions struct {
	// Alpha is the significance level of the U test: a change counts only
	// if p < Alpha. If Alpha is 0, 0.05 is used.
	Alpha float64
	// Threshold is the ratio of e_L1 medians (new / old, or old / new for
	// an improvement) beyond which a significant change counts. If
	// Threshold is 0, 1.10 is used.
	Threshold float64
	// TimeThreshold is the same for time. If TimeThreshold is 0, 1.25 is
	// used.
	TimeThreshold float64
}

// WithDefaults returns the options with every zero field set to its
// default.
func (o *CompareOptions) WithDefaults() CompareOptions {
	out := CompareOptions{Alpha: 0.05, Threshold: 1.10, TimeThreshold: 1.25}
	if o == nil {
		return out
	}
	if o.Alpha != 0 {
		out.Alpha = o.Alpha
	}
	if o.Threshold != 0 {
		out.Threshold = o.Threshold
	}
	if o.TimeThreshold != 0 {
		out.TimeThreshold = o.TimeThreshold
	}
	return out
}

// Sample summarises one side of a metric over the seeds compared.
type Sample struct {
	Median, Min, Max float64
}

// Delta is the comparison of one metric (e_L1 or time) of a row.
type Delta struct {
	Old, New Sample
	// Ratio is New.Median / Old.Median.
	Ratio float64
	// Test is the Mann-Whitney U test of the old seeds against the new.
	Test   UTest
	Change Change
}

// RowComparison is the comparison of one table row between two result sets.
type RowComparison struct {
	Table *experiments.Table
	Index int // the row's index in Table.Rows
	Row   experiments.Row
	Name  string // the row's name, as everywhere in the report (RowStats.Label)

	// Seeds is how many seeds have a result on both sides; only they are
	// compared.
	Seeds int
	// Timed is how many of the Seeds were timed cleanly on both sides
	// (neither result Env.Contended) on the same kind of machine
	// (SameMachine); only they are compared for time, as repro report
	// leaves contended times out of its speed ratios. ContendedOld and
	// ContendedNew count the Seeds whose result on that side was timed
	// contended, OtherMachine those timed cleanly on two kinds of machine.
	Timed                      int
	ContendedOld, ContendedNew int
	OtherMachine               int
	// MissingOld and MissingNew are the runs of the row the tier asks for
	// that have a result on the other side only (in seed order).
	MissingOld, MissingNew []experiments.Spec

	// EL1 is compared over the Seeds, Time over the Timed seeds; Time's
	// Change is OtherMachine or Contended (and the rest of Time zero) if
	// Timed == 0 < Seeds: OtherMachine if a seed was left out for it.
	EL1, Time Delta
	// Change is the row's verdict: Worse if e_L1 or time is worse, else
	// Better if either is better, else Same; NoData if Seeds == 0. A time
	// that is Contended counts for neither: the verdict is e_L1's.
	Change Change
}

// Compare compares the rows of the tables in a tier between two result sets
// (each keyed by Spec.Key(), as experiments.LoadAll returns them), row by
// row in table order. A row is compared over the seeds that have a result on
// both sides, its time over those of them timed cleanly on both sides; a
// run present on one side only is listed as missing on the other. Rows with
// no result on either side are left out, as are κ-only runs. A metric's
// change counts only if the U test's p < Alpha and its median ratio is
// beyond the threshold.
func Compare(tables []*experiments.Table, tier string, oldRes, newRes map[string]*experiments.Result, o *CompareOptions) ([]RowComparison, error) {
	opt := o.WithDefaults()
	st, err := NewStudy(tables, tier, nil)
	if err != nil {
		return nil, err
	}
	var out []RowComparison
	for _, ts := range st.Tables {
		t := ts.Table
		for i, row := range ts.Rows {
			rc := RowComparison{Table: t, Index: i, Row: row.Row, Name: row.Label()}
			var oe, ne, ot, nt []float64
			for _, s := range row.Solves {
				a, err := lookup(oldRes, s)
				if err != nil {
					return nil, fmt.Errorf("table %s: old: %w", t.ID, err)
				}
				b, err := lookup(newRes, s)
				if err != nil {
					return nil, fmt.Errorf("table %s: new: %w", t.ID, err)
				}
				switch {
				case a != nil && b != nil:
					oe, ne = append(oe, a.EL1), append(ne, b.EL1)
					if a.Env.Contended {
						rc.ContendedOld++
					}
					if b.Env.Contended {
						rc.ContendedNew++
					}
					switch {
					case a.Env.Contended || b.Env.Contended:
					case !SameMachine(a.Env, b.Env):
						rc.OtherMachine++
					default:
						ot, nt = append(ot, a.Time.Total), append(nt, b.Time.Total)
					}
				case a != nil:
					rc.MissingNew = append(rc.MissingNew, s)
				case b != nil:
					rc.MissingOld = append(rc.MissingOld, s)
				}
			}
			rc.Seeds, rc.Timed = len(oe), len(ot)
			switch {
			case rc.Seeds == 0 && len(rc.MissingOld)+len(rc.MissingNew) == 0:
				continue // nothing on either side
			case rc.Seeds == 0:
				rc.Change, rc.EL1.Change, rc.Time.Change = NoData, NoData, NoData
				out = append(out, rc)
				continue
			}
			if rc.EL1, err = delta(oe, ne, opt.Alpha, opt.Threshold); err != nil {
				return nil, fmt.Errorf("table %s row %d: e_L1: %w", t.ID, i, err)
			}
			if rc.Timed == 0 {
				rc.Time.Change = Contended
				if rc.OtherMachine > 0 {
					rc.Time.Change = OtherMachine
				}
			} else if rc.Time, err = delta(ot, nt, opt.Alpha, opt.TimeThreshold); err != nil {
				return nil, fmt.Errorf("table %s row %d: time: %w", t.ID, i, err)
			}
			switch {
			case rc.EL1.Change == Worse || rc.Time.Change == Worse:
				rc.Change = Worse
			case rc.EL1.Change == Better || rc.Time.Change == Better:
				rc.Change = Better
			}
			out = append(out, rc)
		}
	}
	return out, nil
}

// SameMachine reports whether two runs' times compare: made with the same
// kernel path on the same kind of processor (vendor, family and model
// where both record their machine, else the same model name).
func SameMachine(a, b experiments.Env) bool {
	if a.Kernel != b.Kernel {
		return false
	}
	if a.Machine != nil && b.Machine != nil {
		return a.Machine.ID() == b.Machine.ID()
	}
	return a.CPU == b.CPU
}

// delta compares one metric's old and new seeds.
func delta(before, after []float64, alpha, threshold float64) (Delta, error) {
	d := Delta{Old: sample(before), New: sample(after)}
	d.Ratio = d.New.Median / d.Old.Median
	test, err := MannWhitney(before, after)
	if err != nil {
		return d, err
	}
	d.Test = test
	if test.P < alpha {
		switch {
		case d.New.Median > d.Old.Median*threshold:
			d.Change = Worse
		case d.Old.Median > d.New.Median*threshold:
			d.Change = Better
		}
	}
	return d, nil
}

// sample returns the median, minimum and maximum of xs (not empty).
func sample(xs []float64) Sample {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	med := s[n/2]
	if n%2 == 0 {
		med = (s[n/2-1] + s[n/2]) / 2
	}
	return Sample{Median: med, Min: s[0], Max: s[n-1]}
}

// CompareCounts counts the verdicts of a comparison.
type CompareCounts struct {
	Same, Better, Worse, NoData int
	// Untimed counts the rows compared whose time is not (Contended), and
	// PartlyTimed those whose time is compared over fewer seeds than
	// their e_L1; ContendedOld and ContendedNew are the seeds of all rows
	// left out of time by a contended result on that side.
	Untimed, PartlyTimed       int
	ContendedOld, ContendedNew int
	// OtherMachine counts the seeds of all rows left out of time for
	// being timed on two kinds of machine.
	OtherMachine int
	// MissingOld and MissingNew count the runs with a result in the new
	// or the old set only.
	MissingOld, MissingNew int
}

// Tally counts the rows of a comparison by verdict.
func Tally(rows []RowComparison) CompareCounts {
	var k CompareCounts
	for _, r := range rows {
		switch {
		case r.Time.Change == Contended || r.Time.Change == OtherMachine:
			k.Untimed++
		case r.Timed < r.Seeds:
			k.PartlyTimed++
		}
		k.ContendedOld += r.ContendedOld
		k.ContendedNew += r.ContendedNew
		k.OtherMachine += r.OtherMachine
		k.MissingOld += len(r.MissingOld)
		k.MissingNew += len(r.MissingNew)
		switch r.Change {
		case Same:
			k.Same++
		case Better:
			k.Better++
		case Worse:
			k.Worse++
		case NoData:
			k.NoData++
		}
	}
	return k
}
