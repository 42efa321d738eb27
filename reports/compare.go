package reports

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"

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
)

// String returns the change as repro compare prints it: "~", "better",
// "worse" or "missing".
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

func (o *CompareOptions) defaults() CompareOptions {
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
	// Name identifies the row as repro report's tables do: model, (param,
	// J), (h, K) and R where the table varies it.
	Name string

	// Seeds is how many seeds have a result on both sides; only they are
	// compared.
	Seeds int
	// MissingOld and MissingNew are the runs of the row the tier asks for
	// that have a result on the other side only (in seed order).
	MissingOld, MissingNew []experiments.Spec

	EL1, Time Delta
	// Change is the row's verdict: Worse if e_L1 or time is worse, else
	// Better if either is better, else Same; NoData if Seeds == 0.
	Change Change
}

// Compare compares the rows of the tables in a tier between two result sets
// (each keyed by Spec.Key(), as experiments.LoadAll returns them), row by
// row in table order. A row is compared over the seeds that have a result on
// both sides; a run present on one side only is listed as missing on the
// other. Rows with no result on either side are left out, as are κ-only
// runs. A metric's change counts only if the U test's p < Alpha and its
// median ratio is beyond the threshold.
func Compare(tables []*experiments.Table, tier string, oldRes, newRes map[string]*experiments.Result, o *CompareOptions) ([]RowComparison, error) {
	opt := o.defaults()
	st, err := NewStudy(tables, tier, nil)
	if err != nil {
		return nil, err
	}
	var out []RowComparison
	for _, ts := range st.Tables {
		t := ts.Table
		c := newCells(markdownStyle, ts)
		for i, row := range ts.Rows {
			rc := RowComparison{Table: t, Index: i, Row: row.Row, Name: c.rowName(row, hasR(t))}
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
					ot, nt = append(ot, a.Time.Total), append(nt, b.Time.Total)
				case a != nil:
					rc.MissingNew = append(rc.MissingNew, s)
				case b != nil:
					rc.MissingOld = append(rc.MissingOld, s)
				}
			}
			rc.Seeds = len(oe)
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
			if rc.Time, err = delta(ot, nt, opt.Alpha, opt.TimeThreshold); err != nil {
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

// Comparison formats.
const (
	CompareText     = "text"
	CompareMarkdown = "md"
	CompareCSV      = "csv"
)

// CompareFormats lists the formats WriteComparison writes.
var CompareFormats = []string{CompareText, CompareMarkdown, CompareCSV}

// compareHeader is the header of the text and Markdown comparison tables.
var compareHeader = []string{"table", "row", "seeds",
	"e_L1 old", "e_L1 new", "ratio", "old range", "new range", "p", "e_L1",
	"time old (s)", "time new (s)", "ratio", "p", "time", "verdict"}

// CompareCSVHeader is the header of the CSV comparison.
var CompareCSVHeader = []string{"table", "row", "seeds", "missing_old", "missing_new",
	"eL1_old_median", "eL1_new_median", "eL1_ratio", "eL1_old_min", "eL1_old_max", "eL1_new_min", "eL1_new_max",
	"eL1_U", "eL1_p", "eL1_change",
	"time_old_median", "time_new_median", "time_ratio", "time_old_min", "time_old_max", "time_new_min", "time_new_max",
	"time_U", "time_p", "time_change", "verdict"}

// WriteComparison writes a comparison in a format of CompareFormats: a
// terminal table (text), GitHub Markdown (md), each followed by the missing
// runs and a legend, or one CSV record per row with full-precision numbers.
// Medians are over the seeds with a result on both sides; a range is
// min-max; p is the exact two-sided Mann-Whitney U test's.
func WriteComparison(w io.Writer, rows []RowComparison, format string, o *CompareOptions) error {
	opt := o.defaults()
	if format == CompareCSV {
		return comparisonCSV(w, rows)
	}
	var rd tw.Renderer
	switch format {
	case CompareText:
	case CompareMarkdown:
		rd = renderer.NewMarkdown()
	default:
		return fmt.Errorf("reports: unknown comparison format %q (want text, md or csv)", format)
	}
	var cells [][]string
	for _, r := range rows {
		row := []string{r.Table.ID, r.Name, strconv.Itoa(r.Seeds)}
		if r.Change == NoData {
			row = append(row, slices.Repeat([]string{"—"}, len(compareHeader)-4)...)
			row = append(row, r.Change.String())
		} else {
			row = append(row,
				sci(r.EL1.Old.Median), sci(r.EL1.New.Median), ratio(r.EL1.Ratio),
				span(r.EL1.Old, sci), span(r.EL1.New, sci), pval(r.EL1.Test.P), r.EL1.Change.String(),
				secs(r.Time.Old.Median), secs(r.Time.New.Median), ratio(r.Time.Ratio),
				pval(r.Time.Test.P), r.Time.Change.String(), r.Change.String())
		}
		cells = append(cells, row)
	}
	if err := newTable(w, rd, compareHeader, 2).Bulk(cells); err != nil {
		return err
	}
	bullet := ""
	if format == CompareMarkdown {
		fmt.Fprintln(w)
		bullet = "- "
	}
	for _, r := range rows {
		for _, m := range []struct {
			side  string
			specs []experiments.Spec
		}{{"old", r.MissingOld}, {"new", r.MissingNew}} {
			for _, s := range m.specs {
				fmt.Fprintf(w, "%smissing in %s: %s %s: %s (%s.json)\n", bullet, m.side, r.Table.ID, r.Name, s, s.Key())
			}
		}
	}
	k := Tally(rows)
	fmt.Fprintf(w, "%s%d rows: %d worse, %d better, %d unchanged, %d without a seed on both sides. "+
		"A change counts if the Mann-Whitney U test over the seeds gives p < %g and the median ratio new/old "+
		"is beyond %g for e_L1 (%g for time) either way; ratio is new/old of the medians over the seeds present on both sides.\n",
		bullet, len(rows), k.Worse, k.Better, k.Same, k.NoData, opt.Alpha, opt.Threshold, opt.TimeThreshold)
	return nil
}

// CompareCounts counts the verdicts of a comparison.
type CompareCounts struct{ Same, Better, Worse, NoData int }

// Tally counts the rows of a comparison by verdict.
func Tally(rows []RowComparison) CompareCounts {
	var k CompareCounts
	for _, r := range rows {
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

func comparisonCSV(w io.Writer, rows []RowComparison) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(CompareCSVHeader); err != nil {
		return err
	}
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	for _, r := range rows {
		rec := []string{r.Table.ID, r.Name, strconv.Itoa(r.Seeds),
			strconv.Itoa(len(r.MissingOld)), strconv.Itoa(len(r.MissingNew))}
		for _, d := range []Delta{r.EL1, r.Time} {
			if r.Change == NoData {
				rec = append(rec, "", "", "", "", "", "", "", "", "", d.Change.String())
				continue
			}
			rec = append(rec, f(d.Old.Median), f(d.New.Median), f(d.Ratio),
				f(d.Old.Min), f(d.Old.Max), f(d.New.Min), f(d.New.Max),
				f(d.Test.U), f(d.Test.P), d.Change.String())
		}
		rec = append(rec, r.Change.String())
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// ratio formats a ratio of medians: two decimals from 0.1 to 1000 (1.00,
// 3.00, 0.91), else three significant digits.
func ratio(x float64) string {
	switch {
	case math.IsNaN(x) || math.IsInf(x, 0):
		return "—"
	case x >= 0.1 && x < 1000:
		return strconv.FormatFloat(x, 'f', 2, 64)
	}
	return strconv.FormatFloat(x, 'g', 3, 64)
}

// pval formats a p-value with two significant digits.
func pval(p float64) string { return strconv.FormatFloat(p, 'g', 2, 64) }

// secs formats seconds with three significant digits.
func secs(x float64) string { return strconv.FormatFloat(x, 'g', 3, 64) }

// span formats a sample's range as "min–max".
func span(s Sample, f func(float64) string) string { return f(s.Min) + "–" + f(s.Max) }
