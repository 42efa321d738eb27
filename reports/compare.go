package reports

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"

	"elmfbpinn/experiments"
	"elmfbpinn/study"
)

// This file renders a comparison of two result sets (repro compare,
// computed by study.Compare) as a terminal table, Markdown or CSV.

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
	"timed", "time old (s)", "time new (s)", "ratio", "p", "time", "verdict"}

// CompareCSVHeader is the header of the CSV comparison.
var CompareCSVHeader = []string{"table", "row", "seeds", "missing_old", "missing_new",
	"eL1_old_median", "eL1_new_median", "eL1_ratio", "eL1_old_min", "eL1_old_max", "eL1_new_min", "eL1_new_max",
	"eL1_U", "eL1_p", "eL1_change",
	"time_old_median", "time_new_median", "time_ratio", "time_old_min", "time_old_max", "time_new_min", "time_new_max",
	"time_U", "time_p", "time_change", "verdict", "time_seeds"}

// WriteComparison writes a comparison in a format of CompareFormats: a
// terminal table (text), GitHub Markdown (md), each followed by the missing
// runs and a legend, or one CSV record per row with full-precision numbers.
// Medians are over the seeds with a result on both sides (those of time
// over the seeds timed cleanly on both sides, RowComparison.Timed: the
// column timed, time_seeds in CSV); a range is min-max; p is the exact
// two-sided Mann-Whitney U test's. A time with no seed timed cleanly shows
// "—" (CSV: empty cells) and the change "contended".
func WriteComparison(w io.Writer, rows []study.RowComparison, format string, o *study.CompareOptions) error {
	opt := o.WithDefaults()
	if format == CompareCSV {
		return comparisonCSV(w, rows)
	}
	// A terminal table; Markdown's lists are bulleted and its text escaped.
	rd, bullet, esc := tw.Renderer(nil), "", func(s string) string { return s }
	switch format {
	case CompareText:
	case CompareMarkdown:
		rd, bullet, esc = renderer.NewMarkdown(), "- ", escapeMarkdown
	default:
		return fmt.Errorf("reports: unknown comparison format %q (want text, md or csv)", format)
	}
	var cells [][]string
	for _, r := range rows {
		row := []string{r.Table.ID, esc(r.Name), strconv.Itoa(r.Seeds)}
		if r.Change == study.NoData {
			row = append(append(row, slices.Repeat([]string{"—"}, len(compareHeader)-4)...), r.Change.String())
		} else {
			row = append(row,
				sci(r.EL1.Old.Median), sci(r.EL1.New.Median), ratio(r.EL1.Ratio),
				sci(r.EL1.Old.Min)+"–"+sci(r.EL1.Old.Max), sci(r.EL1.New.Min)+"–"+sci(r.EL1.New.Max), pval(r.EL1.Test.P), r.EL1.Change.String(),
				strconv.Itoa(r.Timed))
			if r.Time.Change == study.Contended {
				row = append(row, "—", "—", "—", "—")
			} else {
				row = append(row, secs(r.Time.Old.Median), secs(r.Time.New.Median), ratio(r.Time.Ratio), pval(r.Time.Test.P))
			}
			row = append(row, r.Time.Change.String(), r.Change.String())
		}
		cells = append(cells, row)
	}
	if err := writeTable(w, rd, compareHeader, cells, 2); err != nil {
		return err
	}
	if bullet != "" { // Markdown: a blank line ends the table before the list
		fmt.Fprintln(w)
	}
	for _, r := range rows {
		for i, specs := range [][]experiments.Spec{r.MissingOld, r.MissingNew} {
			for _, s := range specs {
				fmt.Fprintf(w, "%smissing in %s: %s %s: %s (%s.json)\n", bullet, [2]string{"old", "new"}[i], r.Table.ID, esc(r.Name), s, s.Key())
			}
		}
	}
	k := study.Tally(rows)
	fmt.Fprintf(w, "%s%d rows: %d worse, %d better, %d unchanged, %d without a seed on both sides. "+
		"A change counts if the Mann-Whitney U test over the seeds gives p < %g and the median ratio new/old "+
		"is beyond %g for e_L1 (%g for time) either way; ratio is new/old of the medians over the seeds present on both sides "+
		"(for time, over the timed ones: not timed contended on either side).\n",
		bullet, len(rows), k.Worse, k.Better, k.Same, k.NoData, opt.Alpha, opt.Threshold, opt.TimeThreshold)
	if k.Untimed+k.PartlyTimed > 0 {
		fmt.Fprintf(w, "%sTimes timed contended (sharing their core; repro report leaves them out of speed-ups too) are left out: "+
			"%d rows have no time comparison (their verdict is e_L1's), %d are timed over fewer seeds than e_L1 (column timed); "+
			"contended seeds: %d in old, %d in new (repro run -retime -results DIR times them again).\n",
			bullet, k.Untimed, k.PartlyTimed, k.ContendedOld, k.ContendedNew)
	}
	return nil
}

func comparisonCSV(w io.Writer, rows []study.RowComparison) error {
	recs := [][]string{CompareCSVHeader}
	for _, r := range rows {
		rec := []string{csvText(r.Table.ID), csvText(r.Name), strconv.Itoa(r.Seeds),
			strconv.Itoa(len(r.MissingOld)), strconv.Itoa(len(r.MissingNew))}
		for _, d := range []study.Delta{r.EL1, r.Time} {
			if r.Change == study.NoData || d.Change == study.Contended {
				rec = append(rec, "", "", "", "", "", "", "", "", "", d.Change.String())
				continue
			}
			rec = append(rec, num(d.Old.Median), num(d.New.Median), num(d.Ratio),
				num(d.Old.Min), num(d.Old.Max), num(d.New.Min), num(d.New.Max),
				num(d.Test.U), num(d.Test.P), d.Change.String())
		}
		recs = append(recs, append(rec, r.Change.String(), strconv.Itoa(r.Timed)))
	}
	return csv.NewWriter(w).WriteAll(recs)
}

// ratio formats a ratio of medians: two decimals from 0.1 to 1000 (1.00,
// 3.00, 0.91), else three significant digits.
func ratio(x float64) string {
	switch {
	case !finite(x):
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
