package reports

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"

	"elmfbpinn/experiments"
	"elmfbpinn/paperdata"
)

var markdownStyle = style{
	pm: "±", dash: "—", inf: "∞", times: "×",
	mark: func(n int) string { return " [" + strconv.Itoa(n) + "]" },
	esc:  escapeMarkdown,
	params: map[string]string{
		experiments.Oscillator: "ω0",
		experiments.Laplace:    "n_ω",
		experiments.Helmholtz:  "ω",
	},
}

// mdSpecial are the characters escapeMarkdown puts a backslash before: the
// table's cell separator, emphasis and strike-through, code spans, HTML
// tags and entities, links, and the backslash itself.
const mdSpecial = "\\|*_`<>[]&~"

// escapeMarkdown makes plain text safe in a Markdown line or table cell
// (GitHub Markdown): every character of mdSpecial is backslash-escaped, so
// it shows as itself; line breaks and tabs become spaces, and other control
// characters (and invalid UTF-8) "?", so a value stays on its line.
func escapeMarkdown(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteByte(' ')
		case r < 0x20 || r == 0x7f || r == utf8.RuneError || unicode.IsControl(r):
			b.WriteByte('?')
		case strings.ContainsRune(mdSpecial, r):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// codeSpan writes s as a Markdown code span that shows it verbatim: the
// fence is one backtick more than the longest run of backticks in s (with
// a space inside when s starts or ends with one), "|" is escaped for table
// cells, and control characters become "?" as in escapeMarkdown.
func codeSpan(s string) string {
	var b strings.Builder
	run, longest := 0, 0
	for _, r := range s {
		switch {
		case r == '`':
			run++
			longest = max(longest, run)
			b.WriteRune(r)
			continue
		case r < 0x20 || r == 0x7f || r == utf8.RuneError || unicode.IsControl(r):
			b.WriteByte('?')
		case r == '|':
			b.WriteString(`\|`)
		default:
			b.WriteRune(r)
		}
		run = 0
	}
	body := b.String()
	if strings.HasPrefix(body, "`") || strings.HasSuffix(body, "`") {
		body = " " + body + " "
	}
	fence := strings.Repeat("`", longest+1)
	return fence + body + fence
}

// Markdown renders one table for a tier as GitHub Markdown: a header, the
// table of our statistics beside the paper's, the notes that explain every
// missing value, the verdict counts and one line per row judged off.
func Markdown(w io.Writer, t *experiments.Table, tier string, results map[string]*experiments.Result) error {
	rows, err := Stats(t, tier, results)
	if err != nil {
		return err
	}
	return writeMarkdown(w, t, tier, rows, true)
}

// writeMarkdown renders a table; title says whether to start with the
// table's title as a heading (REPORT.md gives its own).
func writeMarkdown(w io.Writer, t *experiments.Table, tier string, rows []RowStats, title bool) error {
	bw := bufio.NewWriter(w)
	c := newCells(markdownStyle, tier, rows)
	withR := hasR(t)

	if title {
		fmt.Fprintf(bw, "# %s\n\n", escapeMarkdown(t.Title))
	}
	paper := "none (the paper shows these results as a figure)"
	if t.Paper != "" {
		paper = codeSpan(t.Paper)
	}
	fmt.Fprintf(bw, "Paper table: %s · table: %s · tier: %s (%d seeds per row)\n\n",
		paper, codeSpan(t.ID), codeSpan(tier), tierSeeds(rows))

	header := []string{"Model", "(" + c.paramHeader(rows) + ", J)", "(h, K)", "δ"}
	if withR {
		header = append(header, "R")
	}
	header = append(header, "κ(M)", "Optimiser", "e_L1 ours (median ± range)", "e_L1 paper",
		"verdict", "time ours (mean ± sd, s)", "time paper (s)", "speed-up (paper/ours)")
	tb := newMarkdownTable(bw, len(header), 1)
	tb.Header(header)
	for _, s := range rows {
		cells := []string{c.model(s), c.paramJ(s), c.hK(s), c.delta(s)}
		if withR {
			cells = append(cells, c.r(s))
		}
		cells = append(cells, c.kappa(s), c.optimiser(s), c.el1Ours(s), c.el1Paper(s),
			c.verdict(s), c.timeOurs(s), c.timePaper(s), c.speed(s))
		if err := tb.Append(cells); err != nil {
			return err
		}
	}
	if err := tb.Render(); err != nil {
		return err
	}

	if len(c.n.texts) > 0 {
		fmt.Fprintf(bw, "\nNotes:\n\n")
		for i, text := range c.n.texts {
			fmt.Fprintf(bw, "- [%d] %s\n", i+1, escapeMarkdown(text))
		}
	}

	k := count(rows)
	fmt.Fprintf(bw, "\nVerdicts: %d match, %d close, %d off", k.Match, k.Close, k.Off)
	var rest []string
	if n := k.Unjudged - k.Reduced; n > 0 {
		rest = append(rest, fmt.Sprintf("%d without a published row", n))
	}
	if k.Reduced > 0 {
		runs := "runs"
		if k.Reduced == 1 {
			runs = "run"
		}
		rest = append(rest, fmt.Sprintf("%d shortened %s not judged", k.Reduced, runs))
	}
	if k.Incomplete > 0 {
		rest = append(rest, fmt.Sprintf("%d with seeds missing", k.Incomplete))
	}
	if k.NotInTier > 0 {
		rest = append(rest, fmt.Sprintf("%d not in the %s tier", k.NotInTier, tier))
	}
	if len(rest) > 0 {
		fmt.Fprintf(bw, "; %s", strings.Join(rest, ", "))
	}
	fmt.Fprintf(bw, " (of %d rows).\n", len(rows))
	var off []string
	for _, s := range rows {
		if s.HasVerdict && s.Verdict == paperdata.Off {
			off = append(off, fmt.Sprintf("- off: %s ours %s vs paper %s (factor %s)",
				c.rowName(s, withR), sci(s.EL1Median), sci(s.Paper.EL1Median),
				factor(s.EL1Median, s.Paper.EL1Median)))
		}
	}
	if len(off) > 0 {
		fmt.Fprintf(bw, "\n%s\n", strings.Join(off, "\n"))
	}

	fmt.Fprintf(bw, "\nA verdict compares our median e_L1 with the paper's: match if it lies within the "+
		"paper's median ± range, close if within a factor 3 of the paper's median, off otherwise; "+
		"the factor of an off row is ours / paper. "+
		"e_L1 is the median ± range (max − min) over seeds of each seed's best test error; "+
		"time is the mean ± population sd over seeds of assembly + solve, in seconds. "+
		"Both use the paper's notation: the mantissa of the value ± the spread scaled alike, "+
		"then the value's exponent (1.1±0.5e-04 is 1.1e-04 ± 0.5e-04). "+
		"The speed-up is the paper's mean time / ours (above 1: we are faster).\n")
	if m := machines(rows); m != "" {
		fmt.Fprintf(bw, "\nTimed on: %s.\n", escapeMarkdown(m))
	}
	return bw.Flush()
}

// newMarkdownTable returns a GitHub Markdown table writer (tablewriter's
// Markdown renderer) that keeps headers as given (no upper-casing), never
// wraps a cell, and aligns the first `left` columns left and the others
// right.
func newMarkdownTable(w io.Writer, cols, left int) *tablewriter.Table {
	align := make([]tw.Align, cols)
	for i := range align {
		align[i] = tw.AlignRight
		if i < left {
			align[i] = tw.AlignLeft
		}
	}
	return tablewriter.NewTable(w,
		tablewriter.WithRenderer(renderer.NewMarkdown()),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAutoWrap(tw.WrapNone),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithTrimSpace(tw.Off),
		tablewriter.WithHeaderAlignmentConfig(tw.CellAlignment{PerColumn: align}),
		tablewriter.WithRowAlignmentConfig(tw.CellAlignment{PerColumn: align}),
	)
}

// factor formats ours / paper for an off row.
func factor(ours, paper float64) string {
	if v := sig2(ours / paper); v != "" {
		return v
	}
	return "—"
}

// machines lists the distinct machines the rows' results were timed on; ""
// when the results do not say.
func machines(rows []RowStats) string {
	var out []string
	for _, s := range rows {
		for _, m := range s.machines {
			if !slices.Contains(out, m) {
				out = append(out, m)
			}
		}
	}
	return strings.Join(out, "; ")
}
