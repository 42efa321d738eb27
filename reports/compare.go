package reports

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/olekukonko/tablewriter/renderer"

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
// terminal table of at most TextWidth columns per table (text), GitHub
// Markdown with the ranges too (md), each followed by the runs present on
// one side only (counted per table, or each listed if listMissing) and a
// legend, or one CSV record per row with full-precision numbers. Medians
// are over the seeds with a result on both sides (those of time over the
// seeds timed cleanly on both sides and on the same kind of machine,
// RowComparison.Timed: the column timed, time_seeds in CSV); a range is
// min-max; p is the exact two-sided Mann-Whitney U test's. A time with no
// such seed shows "—" (CSV: empty cells) and the change "contended" or
// "other machine".
func WriteComparison(w io.Writer, rows []study.RowComparison, format string, o *study.CompareOptions, listMissing bool) error {
	opt := o.WithDefaults()
	if format == CompareCSV {
		return comparisonCSV(w, rows)
	}
	// Markdown's lists are bulleted and its text escaped.
	bullet, esc := "", func(s string) string { return s }
	switch format {
	case CompareText:
		if err := comparisonText(w, rows, opt.Alpha); err != nil {
			return err
		}
	case CompareMarkdown:
		bullet, esc = "- ", escapeMarkdown
		if err := comparisonMarkdown(w, rows, esc); err != nil {
			return err
		}
	default:
		return fmt.Errorf("reports: unknown comparison format %q (want text, md or csv)", format)
	}
	// The prose below the table: wrapped to TextWidth in text.
	prose := w
	var buf strings.Builder
	if format == CompareText {
		prose = &buf
		defer func() { fmt.Fprint(w, wrapLines(buf.String())) }()
	}
	fmt.Fprintln(w)
	writeMissing(prose, rows, bullet, esc, listMissing)
	k := study.Tally(rows)
	marks := ""
	if format == CompareText {
		marks = "; * marks a ratio whose p < alpha (-format md or csv gives p and the ranges)"
	}
	fmt.Fprintf(prose, "%s%d rows: %d worse, %d better, %d unchanged, %d without a seed on both sides (not shown). "+
		"A change counts if the Mann-Whitney U test over the seeds gives p < %g and the median ratio new/old "+
		"is beyond %g for e_L1 (%g for time) either way; ratio is new/old of the medians over the seeds present on both sides "+
		"(for time, over the timed ones: not timed contended on either side, and on the same kind of machine)%s.\n",
		bullet, len(rows), k.Worse, k.Better, k.Same, k.NoData, opt.Alpha, opt.Threshold, opt.TimeThreshold,
		marks)
	if k.Untimed+k.PartlyTimed > 0 {
		fmt.Fprintf(prose, "%sTimes timed contended (sharing their core; repro report leaves them out of speed-ups too) or on two kinds of machine are left out: "+
			"%d rows have no time comparison (their verdict is e_L1's), %d are timed over fewer seeds than e_L1; "+
			"contended seeds: %d in old, %d in new (repro run -retime -results DIR times them again); "+
			"seeds timed on another processor or kernel path than their other side: %d (repro run -retime-cpu remakes them on this machine).\n",
			bullet, k.Untimed, k.PartlyTimed, k.ContendedOld, k.ContendedNew, k.OtherMachine)
	}
	return nil
}

// TextWidth is the most columns a line of the text comparison takes: row
// names are cut to nameWidth characters, and its prose is wrapped.
const TextWidth = 120

// nameWidth is the width of the text comparison's row column.
const nameWidth = 40

// comparisonText writes the text comparison: per table a header line that
// names it, then one line per row compared (rows without a seed on both
// sides are counted in the summary only), the numbers right-aligned in
// columns; a ratio is marked * where the U test's p < alpha (the
// Markdown and CSV forms have the p-values and the ranges).
func comparisonText(w io.Writer, rows []study.RowComparison, alpha float64) error {
	header := []string{"n", "e_L1 old", "new", "ratio", "time old", "new", "ratio"}
	marked := func(d study.Delta) string {
		if d.Test.P < alpha {
			return ratio(d.Ratio) + "*"
		}
		return ratio(d.Ratio) + " "
	}
	var blocks [][][]string // per table: its lines' cells, the header first
	var ids []string
	for _, r := range rows {
		if r.Change == study.NoData {
			continue
		}
		if len(ids) == 0 || ids[len(ids)-1] != r.Table.ID {
			ids = append(ids, r.Table.ID)
			blocks = append(blocks, [][]string{append([]string{r.Table.ID + ":"}, append(slices.Clone(header), "verdict")...)})
		}
		cells := []string{"  " + cut(r.Name, nameWidth-2), strconv.Itoa(r.Seeds),
			sci(r.EL1.Old.Median), sci(r.EL1.New.Median), marked(r.EL1)}
		if r.Timed == 0 {
			cells = append(cells, "—", "—", "— ")
		} else {
			cells = append(cells, secs(r.Time.Old.Median), secs(r.Time.New.Median), marked(r.Time))
		}
		b := &blocks[len(blocks)-1]
		*b = append(*b, append(cells, verdictText(r)))
	}
	for i, b := range blocks {
		if i > 0 {
			fmt.Fprintln(w)
		}
		widths := make([]int, len(b[0]))
		for _, line := range b {
			for j, c := range line {
				widths[j] = max(widths[j], utf8.RuneCountInString(c))
			}
		}
		widths[0] = max(widths[0], nameWidth)
		for _, line := range b {
			var out strings.Builder
			for j, c := range line {
				pad := strings.Repeat(" ", widths[j]-utf8.RuneCountInString(c))
				switch j {
				case 0:
					out.WriteString(c + pad)
				case len(line) - 1:
					out.WriteString("  " + c) // the verdict, left-aligned
				default:
					out.WriteString("  " + pad + c)
				}
			}
			fmt.Fprintln(w, strings.TrimRight(out.String(), " "))
		}
	}
	return nil
}

// wrapLines wraps each line of text to TextWidth columns.
func wrapLines(text string) string {
	var out []string
	for line := range strings.Lines(text) {
		out = append(out, wrap(strings.TrimSuffix(line, "\n"), TextWidth, "  "))
	}
	return strings.Join(out, "\n") + "\n"
}

// cut shortens s to at most n characters, marking a cut with "…".
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// wrap breaks prose into lines of at most width columns at spaces, each
// line after the first indented by indent.
func wrap(s string, width int, indent string) string {
	var lines []string
	line := ""
	for word := range strings.FieldsSeq(s) {
		switch {
		case line == "":
			line = word
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(word) > width:
			lines = append(lines, line)
			line = indent + word
		default:
			line += " " + word
		}
	}
	return strings.Join(append(lines, line), "\n")
}

// verdictText is a row's verdict with what decided it: "worse (time)",
// "better (e_L1)", "~", and for a time not compared why ("~ (time:
// contended)", "~ (time: other CPU)").
func verdictText(r study.RowComparison) string {
	v := r.Change.String()
	switch {
	case r.Change == study.Worse || r.Change == study.Better:
		var by []string
		if r.EL1.Change == r.Change {
			by = append(by, "e_L1")
		}
		if r.Time.Change == r.Change {
			by = append(by, "time")
		}
		v += " (" + strings.Join(by, ", ") + ")"
	case r.Time.Change == study.Contended:
		v += " (time: contended)"
	case r.Time.Change == study.OtherMachine:
		v += " (time: other CPU)"
	case r.Timed < r.Seeds:
		v += fmt.Sprintf(" (time: %d of %d)", r.Timed, r.Seeds)
	}
	return v
}

// comparisonMarkdown writes the Markdown comparison: every column, the
// ranges included.
func comparisonMarkdown(w io.Writer, rows []study.RowComparison, esc func(string) string) error {
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
			if r.Timed == 0 {
				row = append(row, "—", "—", "—", "—")
			} else {
				row = append(row, secs(r.Time.Old.Median), secs(r.Time.New.Median), ratio(r.Time.Ratio), pval(r.Time.Test.P))
			}
			row = append(row, r.Time.Change.String(), r.Change.String())
		}
		cells = append(cells, row)
	}
	if err := writeTable(w, renderer.NewMarkdown(), compareHeader, cells, 2); err != nil {
		return err
	}
	fmt.Fprintln(w) // a blank line ends the table before the list
	return nil
}

// writeMissing writes the runs present on one side only: per table, how
// many on each side (and the flag that lists them), or, with list, each
// run.
func writeMissing(w io.Writer, rows []study.RowComparison, bullet string, esc func(string) string, list bool) {
	type count struct{ old, new int }
	var order []string
	counts := map[string]*count{}
	for _, r := range rows {
		c := counts[r.Table.ID]
		if c == nil {
			c = new(count)
			counts[r.Table.ID] = c
			order = append(order, r.Table.ID)
		}
		c.old += len(r.MissingOld)
		c.new += len(r.MissingNew)
		if !list {
			continue
		}
		for i, specs := range [][]experiments.Spec{r.MissingOld, r.MissingNew} {
			for _, s := range specs {
				fmt.Fprintf(w, "%smissing in %s: %s %s: %s (%s.json)\n", bullet, [2]string{"old", "new"}[i], r.Table.ID, esc(r.Name), s, s.Key())
			}
		}
	}
	if list {
		return
	}
	var parts []string
	for _, id := range order {
		c := counts[id]
		if c.old+c.new > 0 {
			parts = append(parts, fmt.Sprintf("%s %d in new only, %d in old only", id, c.old, c.new))
		}
	}
	if len(parts) > 0 {
		fmt.Fprintf(w, "%sRuns with a result on one side only (not compared; -missing lists them): %s.\n", bullet, strings.Join(parts, "; "))
	}
}

func comparisonCSV(w io.Writer, rows []study.RowComparison) error {
	recs := [][]string{CompareCSVHeader}
	for _, r := range rows {
		rec := []string{csvText(r.Table.ID), csvText(r.Name), strconv.Itoa(r.Seeds),
			strconv.Itoa(len(r.MissingOld)), strconv.Itoa(len(r.MissingNew))}
		for _, d := range []study.Delta{r.EL1, r.Time} {
			if r.Change == study.NoData || d.Change == study.Contended || d.Change == study.OtherMachine {
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

// secs formats seconds with three significant digits, without an exponent
// up to 10^6 s.
func secs(x float64) string {
	if x >= 1000 && x < 1e6 {
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	return strconv.FormatFloat(x, 'g', 3, 64)
}
