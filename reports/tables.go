package reports

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"

	"elmfbpinn/experiments"
	"elmfbpinn/paperdata"
	"elmfbpinn/study"
)

// This file renders one table of a study as Markdown or LaTeX: the same
// cells in two styles, each missing value a dash with the number of its
// note.

// style is what differs between the Markdown and the LaTeX rendering of the
// same cells. The symbols of the cells (±, —, ∞, ×) are written through esc,
// which gives LaTeX's forms ($\pm$, ---, ...).
type style struct {
	mark  func(n int) string  // a note marker after a value
	esc   func(string) string // escapes plain text
	param func(experiments.Param) string
}

var (
	markdownStyle = style{mark: func(n int) string { return " [" + strconv.Itoa(n) + "]" },
		esc:   escapeMarkdown,
		param: func(p experiments.Param) string { return p.Text }}
	latexStyle = style{mark: func(n int) string { return "$^{" + strconv.Itoa(n) + "}$" },
		esc:   escapeLaTeX,
		param: func(p experiments.Param) string { return "$" + p.TeX + "$" }}
)

// cells renders the cells of one table in one style. Cells must be asked
// for in reading order so that the notes are numbered in that order; equal
// notes share a number.
type cells struct {
	st    style
	Notes []string // in the order of their numbers
	mixed bool     // rows of several problems: the parameter is named per row
	withR bool     // the table varies R, which gets a column (the paper's tables all use R = 1)
}

func newCells(st style, ts *study.TableStudy) *cells {
	return &cells{st: st,
		mixed: slices.ContainsFunc(ts.Rows, func(s study.RowStats) bool { return s.Row.Problem != ts.Rows[0].Row.Problem }),
		withR: ts.Table.Kind == experiments.Weights || slices.ContainsFunc(ts.Table.Rows, func(r experiments.Row) bool { return r.R != 1 })}
}

// withNote appends the marker of a note to v.
func (c *cells) withNote(v, note string) string {
	i := slices.Index(c.Notes, note)
	if i < 0 {
		c.Notes = append(c.Notes, note)
		i = len(c.Notes) - 1
	}
	return v + c.st.mark(i+1)
}

// missing returns a dash with the marker of the reason.
func (c *cells) missing(reason string) string { return c.withNote(c.st.esc("—"), reason) }

// paramJ is the paper's (param, J) column; the PINN is listed with J = 1.
func (c *cells) paramJ(s study.RowStats) string {
	p, j, _ := s.Row.PaperKey()
	v := num(p)
	if c.mixed {
		v = c.st.param(study.ProblemOf(s.Row.Problem).Param) + "=" + v
	}
	return "(" + v + ", " + paperdata.FormatJ(j) + ")"
}

// hK is the paper's (h, K) column: the PINN has two hidden layers of its
// width, the (ELM-)FBPINN one layer of K.
func (c *cells) hK(s study.RowStats) string {
	if s.Row.Model == experiments.PINN {
		return fmt.Sprintf("(2, %d)", s.Row.Width)
	}
	return fmt.Sprintf("(1, %d)", s.Row.K)
}

// kappa is our κ(M): "N/A" for the gradient-trained models, as in the paper.
func (c *cells) kappa(s study.RowStats) string {
	why, inf := s.KappaMissing()
	switch {
	case s.Row.Model != experiments.ELM:
		return "N/A"
	case inf:
		return c.withNote(c.st.esc("∞"), why)
	case why != "":
		return c.missing(why)
	}
	return sci(*s.Kappa)
}

// ours renders one of our statistics m ± r.
func (c *cells) ours(s study.RowStats, m, r float64) string {
	if s.Seeds == 0 {
		return c.missing(s.Absent())
	}
	v, ok := pmSci(m, r, c.st.esc("±"))
	switch {
	case !ok:
		return c.missing("not a finite number")
	case s.Seeds < s.Want:
		return c.withNote(v, s.Partial())
	case s.Reduced:
		return c.withNote(v, s.Shortened())
	}
	return v
}

// paper renders one of the paper's statistics m ± r, which pick reads.
func (c *cells) paper(s study.RowStats, pick func(p *paperdata.Row) (m, r float64)) string {
	if s.Paper == nil {
		return c.missing(s.NoPaper())
	}
	m, r := pick(s.Paper)
	if !(m > 0) {
		return c.missing("the reference values give no time")
	}
	v, _ := pmSci(m, r, c.st.esc("±"))
	return v
}

func (c *cells) el1Ours(s study.RowStats) string  { return c.ours(s, s.EL1Median, s.EL1Range) }
func (c *cells) timeOurs(s study.RowStats) string { return c.ours(s, s.TimeMean, s.TimeStd) }
func (c *cells) el1Paper(s study.RowStats) string {
	return c.paper(s, func(p *paperdata.Row) (float64, float64) { return p.EL1Median, p.EL1Range })
}
func (c *cells) timePaper(s study.RowStats) string {
	return c.paper(s, func(p *paperdata.Row) (float64, float64) { return p.TimeMean, p.TimeStd })
}

func (c *cells) verdict(s study.RowStats) string {
	if s.HasVerdict && s.Note != "" {
		return c.withNote(s.Verdict.String(), s.Note)
	}
	if s.HasVerdict {
		return s.Verdict.String()
	}
	return c.missing(s.VerdictMissing())
}

func (c *cells) speed(s study.RowStats) string {
	switch why := s.SpeedMissing(); {
	case why != "":
		return c.missing(why)
	case s.Seeds < s.Want:
		return c.withNote(sig2(s.Speed)+c.st.esc("×"), s.Partial())
	}
	return sig2(s.Speed) + c.st.esc("×")
}

// grid returns the cells of every row, in reading order: the paper's
// columns, with R after δ where the table varies it, then the values of
// tail.
func (c *cells) grid(ts *study.TableStudy, tail ...func(*cells, study.RowStats) string) [][]string {
	var out [][]string
	for _, s := range ts.Rows {
		row := []string{c.st.esc(s.Row.Label()), c.paramJ(s), c.hK(s), num(s.Row.Delta)}
		if c.withR {
			row = append(row, num(s.Row.R))
		}
		opt, _ := experiments.Optimiser(s.Row.Model)
		row = append(row, c.kappa(s), opt)
		for _, f := range tail {
			row = append(row, f(c, s))
		}
		out = append(out, row)
	}
	return out
}

// param is the name of the table's parameter in a header: "param" when
// the table mixes problems.
func (c *cells) param(ts *study.TableStudy, mixed string) string {
	if c.mixed || len(ts.Rows) == 0 {
		return mixed
	}
	return c.st.param(study.ProblemOf(ts.Rows[0].Row.Problem).Param)
}

// Markdown renders one table of a study as GitHub Markdown (template
// table.md.tmpl): the title (if title is set; REPORT.md gives its own), the
// table of our statistics beside the paper's, the notes that explain every
// missing value, the verdict counts and one line per row judged off.
func Markdown(w io.Writer, ts *study.TableStudy, title bool) error {
	c := newCells(markdownStyle, ts)
	v := tableView{TableStudy: ts, Title: title, Left: 1}
	if ts.Table.Kind == experiments.Solvers {
		v.Header, v.Rows, v.Seeds, v.Left = solverHeader, c.solverGrid(ts), maxWant(ts), 2
		v.Notes = c.Notes
		return index.ExecuteTemplate(w, "table.md.tmpl", v)
	}
	v.Header = []string{"Model", "(" + c.param(ts, "param") + ", J)", "(h, K)", "δ"}
	if c.withR {
		v.Header = append(v.Header, "R")
	}
	ref := ts.Table.RefName()
	v.Header = append(v.Header, "κ(M)", "Optimiser", "e_L1 ours (median ± range)", "e_L1 "+ref,
		"verdict", "time ours (mean ± sd, s)", "time "+ref+" (s)", "speed-up ("+ref+"/ours)")
	v.Rows = c.grid(ts, (*cells).el1Ours, (*cells).el1Paper, (*cells).verdict, (*cells).timeOurs, (*cells).timePaper, (*cells).speed)
	for _, s := range ts.Rows {
		v.Seeds = max(v.Seeds, s.Want)
		if s.HasVerdict && s.Verdict == paperdata.Off {
			v.Off = append(v.Off, fmt.Sprintf("%s ours %s vs %s %s (factor %s)", c.st.esc(s.Label()),
				sci(s.EL1Median), ref, sci(s.Paper.EL1Median), cmp.Or(sig2(s.EL1Median/s.Paper.EL1Median), "—")))
		}
	}
	v.Notes = c.Notes
	k := ts.Counts
	for _, r := range []struct {
		n    int
		text string
	}{{k.Unjudged, "%d without " + withoutRef(ts.Table)}, {k.Reduced, "%d shortened " + plural(k.Reduced, "run") + " not judged"},
		{k.Incomplete, "%d with seeds missing"}, {k.Rows - k.InTier, "%d not in the " + ts.Tier + " tier"}} {
		if r.n > 0 {
			v.Rest = append(v.Rest, fmt.Sprintf(r.text, r.n))
		}
	}
	return index.ExecuteTemplate(w, "table.md.tmpl", v)
}

// withoutRef names what an unjudged row of t lacks: "a published row" (a
// paper table's), "reference values" (an experiment file's).
func withoutRef(t *experiments.Table) string {
	if t.Source != nil {
		return "reference values"
	}
	return "a published row"
}

// tableView is what the table templates read: the study of the table and
// its cells in one style.
type tableView struct {
	*study.TableStudy
	Title, Paper bool
	Header       []string
	Rows         [][]string
	Seeds        int
	Off, Rest    []string // off rows; the counts after the verdicts
	Notes        []string
	Left         int  // the columns aligned left (the rest right)
	Small        bool // LaTeX: set in \scriptsize (a wide table)
}

// RefSources are the sources of the reference values of an experiment
// file's table, in row order (none for a paper table).
func (v tableView) RefSources() []string {
	var out []string
	for _, s := range v.TableStudy.Rows {
		if v.Table.Source != nil && s.Paper != nil && !slices.Contains(out, s.Paper.Table) {
			out = append(out, s.Paper.Table)
		}
	}
	return out
}

// writeTable writes a table drawn by r (nil: tablewriter's default, for a
// terminal) that keeps headers as given (no upper-casing), never wraps a
// cell, and aligns the first `left` columns left and the others right.
func writeTable(w io.Writer, r tw.Renderer, header []string, rows [][]string, left int) error {
	align := append(slices.Repeat([]tw.Align{tw.AlignLeft}, left), slices.Repeat([]tw.Align{tw.AlignRight}, max(0, len(header)-left))...)
	opts := []tablewriter.Option{
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAutoWrap(tw.WrapNone),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithHeaderAlignmentConfig(tw.CellAlignment{PerColumn: align}),
		tablewriter.WithRowAlignmentConfig(tw.CellAlignment{PerColumn: align}),
	}
	if r != nil {
		opts = append(opts, tablewriter.WithRenderer(r), tablewriter.WithTrimSpace(tw.Off))
	}
	tb := tablewriter.NewTable(w, opts...)
	tb.Header(header)
	if err := tb.Bulk(rows); err != nil {
		return err
	}
	return tb.Render()
}

// LaTeX renders one table of a study as a complete booktabs table
// environment (template table.tex.tmpl) with the paper's columns (our
// values only): Model, (param, J), (h, K), δ, κ(M), Optimiser, e_L1 and
// Time (s); a table that varies the weight scale gets an R column after δ.
// With paper set, the paper's e_L1 and time follow ours and the verdict
// comes last. Missing values are "---" with a numbered note after the
// tabular. It needs only \usepackage{booktabs}: instead of the paper's
// \resizebox (graphicx) it is set in \footnotesize inside a \makebox, which
// centres a table wider than the text over the margins.
func LaTeX(w io.Writer, ts *study.TableStudy, paper bool) error {
	c := newCells(latexStyle, ts)
	v := tableView{TableStudy: ts, Paper: paper}
	if ts.Table.Kind == experiments.Solvers {
		// Narrower for the page: each configuration is a line of its own
		// above its solvers instead of a column.
		v.Header, v.Small = solverHeaderTeX[1:], true
		for _, row := range c.solverGrid(ts) {
			if row[0] != "" {
				v.Rows = append(v.Rows, []string{`\multicolumn{` + strconv.Itoa(len(v.Header)) + `}{l}{\textit{` + row[0] + `}}`})
			}
			v.Rows = append(v.Rows, row[1:])
		}
		v.Notes = c.Notes
		return index.ExecuteTemplate(w, "table.tex.tmpl", v)
	}
	v.Header = []string{"Model", "$(" + strings.Trim(c.param(ts, `$\mathrm{param}$`), "$") + ",J)$", "$(h,K)$", `$\delta$`}
	if c.withR {
		v.Header = append(v.Header, "$R$")
	}
	v.Header = append(v.Header, `$\kappa(M)$`, "Optimiser", `$e_{L_1}$`)
	if paper {
		ref := "paper"
		if ts.Table.Source != nil {
			ref = "ref."
		}
		v.Header = append(v.Header, `$e_{L_1}$ (`+ref+`)`, "Time (s)", "Time ("+ref+")", "Verdict")
		v.Rows = c.grid(ts, (*cells).el1Ours, (*cells).el1Paper, (*cells).timeOurs, (*cells).timePaper, (*cells).verdict)
	} else {
		v.Header = append(v.Header, "Time (s)")
		v.Rows = c.grid(ts, (*cells).el1Ours, (*cells).timeOurs)
	}
	v.Notes = c.Notes
	return index.ExecuteTemplate(w, "table.tex.tmpl", v)
}

// solverHeader are the columns of a table of solvers (Kind Solvers), in
// Markdown; solverHeaderTeX in LaTeX.
var (
	solverHeader = []string{"configuration", "solver", "e_L1 min (median ± range)", "verdict (ours/paper)", "e_L1 final (median ± range)",
		"iterations", "set-up (s)", "solve (s)", "to the paper's median (s, seeds)", "forced LSQR / this"}
	solverHeaderTeX = []string{"Configuration", "Solver", `$e_{L_1}$ min`, "Verdict (ours/paper)", `$e_{L_1}$ final`,
		"Iterations", "Set-up (s)", "Solve (s)", "To paper median (s)", "Forced / this"}
)

// solverGrid returns the cells of a table of solvers: per row the
// configuration (on the first row of its group), the solver, the paper's
// rule's e_L1 (the minimum over the history) with its verdict, the error of
// the coefficients the solver returns, the iterations run, the set-up and
// solve times, the time to reach the paper's median e_L1 and how many
// times sooner than forced LSQR's whole run that was.
func (c *cells) solverGrid(ts *study.TableStudy) [][]string {
	var out [][]string
	last := ""
	for _, s := range ts.Rows {
		p := study.ProblemOf(s.Row.Problem)
		cfg := fmt.Sprintf("%s %s=%s, J=%s, K=%d", p.Name, c.st.param(p.Param), num(s.Row.Param), paperdata.FormatJ(s.Row.J), s.Row.K)
		shown := cfg
		if cfg == last {
			shown = ""
		}
		last = cfg
		st := s.Solve
		verdict := c.verdict(s)
		if s.HasVerdict && s.Paper != nil {
			verdict += " (" + sig2(s.EL1Median/s.Paper.EL1Median) + c.st.esc("×") + ")"
		}
		row := []string{shown, c.st.esc(s.Row.SolverLabel()), c.el1Ours(s), verdict, c.ours(s, st.FinalMedian, st.FinalMax-st.FinalMin)}
		if s.Seeds == 0 {
			out = append(out, append(row, slices.Repeat([]string{c.missing(s.Absent())}, 5)...))
			continue
		}
		row = append(row, num(st.Iterations), c.seconds(st.Setup, "the history records no times"), sig2(st.Solve))
		reached := fmt.Sprintf(" (%d/%d)", st.Reached, s.Seeds)
		switch {
		case finite(st.Reach):
			row = append(row, sig2(st.Reach)+reached)
		case s.Paper == nil:
			row = append(row, c.missing(s.NoPaper()))
		case math.IsInf(st.Reach, 1):
			row = append(row, c.withNote(c.st.esc("—")+reached, "not reached by the median seed: fewer than half the seeds reached the paper's median e_L1"))
		default:
			row = append(row, c.missing("the histories record no times"))
		}
		switch {
		case !(finite(st.VsForced) && st.VsForced > 0): // no time to the median, or no forced row
			row = append(row, c.st.esc("—"))
		case s.Contended > 0:
			row = append(row, c.withNote(sig2(st.VsForced)+c.st.esc("×"), "timed while sharing its core (contended): the ratio is of contended times"))
		default:
			row = append(row, sig2(st.VsForced)+c.st.esc("×"))
		}
		out = append(out, row)
	}
	return out
}

// maxWant is the most seeds a row of the table asks for.
func maxWant(ts *study.TableStudy) int {
	n := 0
	for _, s := range ts.Rows {
		n = max(n, s.Want)
	}
	return n
}

// seconds renders a time, or a dash with the note why if it is missing.
func (c *cells) seconds(x float64, why string) string {
	if !finite(x) {
		return c.missing(why)
	}
	return sig2(x)
}
