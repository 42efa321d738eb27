package reports

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"elmfbpinn/experiments"
)

// Output formats of Report.
const (
	FormatMarkdown = "md"
	FormatLaTeX    = "latex"
	FormatCSV      = "csv"
	FormatPNG      = PNG
	FormatPDF      = PDF
)

// AllFormats lists every output format, the default of Report.
var AllFormats = []string{FormatMarkdown, FormatLaTeX, FormatCSV, FormatPNG, FormatPDF}

// ParseFormats parses a comma-separated list of formats ("md,latex,csv,png,pdf");
// "" or "all" means every format.
func ParseFormats(s string) ([]string, error) {
	if s == "" || s == "all" {
		return slices.Clone(AllFormats), nil
	}
	var out []string
	for f := range strings.SplitSeq(s, ",") {
		f = strings.ToLower(strings.TrimSpace(f))
		switch f {
		case "markdown":
			f = FormatMarkdown
		case "tex":
			f = FormatLaTeX
		}
		if !slices.Contains(AllFormats, f) {
			return nil, fmt.Errorf("unknown format %q (want a list of %s)", f, strings.Join(AllFormats, ","))
		}
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out, nil
}

// Provenance says where and when a report was made. The results carry their
// own (experiments.Env); the report lists both.
type Provenance struct {
	Commit    string    // the commit of the code that wrote the report
	GoVersion string    // its Go version
	CPU       string    // the processor model of the machine that wrote it
	Date      time.Time // when it was written
}

// Options controls Report. The zero value writes every format of the full
// tier with the solution figures.
type Options struct {
	Tier    string   // experiments.Full (default) or experiments.QuickTier
	Formats []string // nil means AllFormats
	// NoSolutions skips the solution, basis and sparsity figures (drawn
	// from the runs of experiments.SolutionRuns, which are among the
	// results; Report solves nothing).
	NoSolutions bool
	// LaTeXPaper adds the paper's values and the verdict as columns to
	// the LaTeX tables (LaTeXSettings.Paper); by default they hold the
	// paper's columns with our values only.
	LaTeXPaper bool
	Provenance Provenance
	// Log, if set, receives one line per step (solves, skipped figures).
	Log io.Writer
}

func (o *Options) tier() string {
	if o.Tier == "" {
		return experiments.Full
	}
	return o.Tier
}

func (o *Options) has(f string) bool {
	return o.Formats == nil || slices.Contains(o.Formats, f)
}

func (o *Options) logf(format string, args ...any) {
	if o.Log != nil {
		fmt.Fprintf(o.Log, format+"\n", args...)
	}
}

// figureFormats are the image formats asked for, PNG first.
func (o *Options) figureFormats() []string {
	var out []string
	for _, f := range []string{PNG, PDF} {
		if o.has(f) {
			out = append(out, f)
		}
	}
	return out
}

// FigureEntry is one figure of the report, written or skipped.
type FigureEntry struct {
	Name    string   // file name without extension, in the figures/ folder
	Caption string   // what it shows
	Note    string   // rows left out, or why it was skipped
	Files   []string // the files written, relative to the report directory
}

// Written reports whether the figure was drawn.
func (f FigureEntry) Written() bool { return len(f.Files) > 0 }

// TableReport is everything the report holds about one table.
type TableReport struct {
	Table   *experiments.Table
	Tier    string
	Rows    []RowStats
	Summary TableSummary
	Figures []FigureEntry
}

// Built is what Report wrote.
type Built struct {
	Tier      string
	Tables    []*TableReport
	Summary   *Summary
	Solutions []FigureEntry // solution, basis and sparsity figures
	Claims    []ClaimResult
	Files     []string // every file written, relative to the report directory
	results   map[string]*experiments.Result
}

// FigureDir is the folder of the figures inside the report directory.
const FigureDir = "figures"

// Report writes the reproduction's report for a tier into dir (created if
// needed), in the formats of o:
//
//   - md: <table>.md per table, SUMMARY.md, and REPORT.md: the index with
//     provenance, the verdict counts, the paper's qualitative summary
//     recomputed, and every table with its figures;
//   - latex: <table>.tex per table, report.tex (an include file with every
//     table and figure, needing booktabs and graphicx) and
//     report-standalone.tex (a minimal document around it);
//   - csv: runs.csv, one row per run;
//   - png, pdf: figures/<name>.png and .pdf: per table a convergence and a
//     final-error figure (the weight-scaling table's final-error figure is
//     the paper's weight-scaling figure), and the solution figures of each
//     problem whose baseline table is reported.
//
// A figure whose table has no complete row is skipped with a note; a figure
// drawn without some rows says which in its title and in the report. Every
// file is written atomically.
func Report(dir string, tables []*experiments.Table, results map[string]*experiments.Result, o *Options) (*Built, error) {
	if o == nil {
		o = &Options{}
	}
	tier := o.tier()
	for _, t := range tables {
		// Table ids name files and LaTeX \input paths, which cannot be
		// escaped: only plain names are written.
		if !safeID(t.ID) {
			return nil, fmt.Errorf("reports: table id %q: want letters, digits, '.', '_' or '-', not first '.' or '-'", t.ID)
		}
	}
	if !safeID(tier) {
		return nil, fmt.Errorf("reports: tier %q: want letters, digits, '.', '_' or '-'", tier)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	b := &Built{Tier: tier, Summary: &Summary{}, results: results}
	write := func(name string, data []byte) error {
		if err := writeFile(filepath.Join(dir, filepath.Dir(name)), filepath.Base(name), data); err != nil {
			return err
		}
		b.Files = append(b.Files, name)
		return nil
	}
	figFormats := o.figureFormats()
	if len(figFormats) > 0 {
		if err := os.MkdirAll(filepath.Join(dir, FigureDir), 0o755); err != nil {
			return nil, err
		}
	}
	saveFigure := func(fig *Figure, e *FigureEntry) error {
		for _, format := range figFormats {
			data, err := fig.Bytes(format)
			if err != nil {
				e.Note = strings.TrimSpace(e.Note + " Not drawn: " + err.Error())
				o.logf("figure %s: %v", fig.Name, err)
				e.Files = nil
				return nil
			}
			name := filepath.Join(FigureDir, fig.Name+"."+format)
			if err := write(name, data); err != nil {
				return err
			}
			e.Files = append(e.Files, name)
		}
		return nil
	}

	for _, t := range tables {
		rows, err := Stats(t, tier, results)
		if err != nil {
			return nil, err
		}
		tr := &TableReport{Table: t, Tier: tier, Rows: rows, Summary: Summarise(t, rows)}
		b.Tables = append(b.Tables, tr)
		b.Summary.add(tr.Summary)
		if o.has(FormatMarkdown) {
			var md bytes.Buffer
			if err := writeMarkdown(&md, t, tier, rows, true); err != nil {
				return nil, fmt.Errorf("table %s: %w", t.ID, err)
			}
			if err := write(t.ID+".md", md.Bytes()); err != nil {
				return nil, err
			}
		}
		if o.has(FormatLaTeX) {
			var tex bytes.Buffer
			if err := writeLaTeX(&tex, t, tier, rows, &LaTeXSettings{Paper: o.LaTeXPaper}); err != nil {
				return nil, fmt.Errorf("table %s: %w", t.ID, err)
			}
			if err := write(t.ID+".tex", tex.Bytes()); err != nil {
				return nil, err
			}
		}
		if len(figFormats) == 0 {
			continue
		}
		conv, err := Convergence(t, tier, results)
		if err != nil {
			return nil, err
		}
		fin, err := Final(t, tier, results)
		if err != nil {
			return nil, err
		}
		for _, f := range []struct {
			fig     *Figure
			name    string
			caption string
			omitted []Omission
		}{
			{ConvergencePlot(conv), t.ID + "-convergence", "test e_L1 against iteration: median and min-max band over the seeds", conv.Omitted},
			{FinalPlot(fin), t.ID + "-final", finalCaption(t), fin.Omitted},
		} {
			e := FigureEntry{Name: f.name, Caption: f.caption}
			if f.fig == nil {
				e.Note = skippedNote(tier, rows, f.omitted)
				o.logf("figure %s: %s", f.name, e.Note)
			} else {
				if len(f.omitted) > 0 {
					e.Note = "Not drawn: " + describeOmitted(f.omitted) + "."
				}
				if err := saveFigure(f.fig, &e); err != nil {
					return nil, err
				}
			}
			tr.Figures = append(tr.Figures, e)
		}
	}

	if len(figFormats) > 0 && !o.NoSolutions {
		for _, prob := range solutionProblems(tables) {
			es, err := solutionFigures(prob, tier, results, o, saveFigure)
			if err != nil {
				return nil, err
			}
			b.Solutions = append(b.Solutions, es...)
		}
	}

	b.Claims = EvaluateClaims(b.Tables, results)

	if o.has(FormatCSV) {
		var buf bytes.Buffer
		if err := RunsCSV(&buf, tables, tier, results); err != nil {
			return nil, err
		}
		if err := write("runs.csv", buf.Bytes()); err != nil {
			return nil, err
		}
	}
	if o.has(FormatMarkdown) {
		var s bytes.Buffer
		if err := SummaryMarkdown(&s, tier, b.Summary); err != nil {
			return nil, err
		}
		if err := write("SUMMARY.md", s.Bytes()); err != nil {
			return nil, err
		}
		var r bytes.Buffer
		if err := b.indexMarkdown(&r, o); err != nil {
			return nil, err
		}
		if err := write("REPORT.md", r.Bytes()); err != nil {
			return nil, err
		}
	}
	if o.has(FormatLaTeX) {
		var r bytes.Buffer
		if err := b.indexLaTeX(&r, o); err != nil {
			return nil, err
		}
		if err := write("report.tex", r.Bytes()); err != nil {
			return nil, err
		}
		if err := write("report-standalone.tex", []byte(standaloneTeX)); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// add counts one table into the totals.
func (s *Summary) add(ts TableSummary) {
	s.Tables = append(s.Tables, ts)
	s.Match += ts.Match
	s.Close += ts.Close
	s.Off += ts.Off
	s.Incomplete += ts.Incomplete
}

func finalCaption(t *experiments.Table) string {
	if t.Kind == experiments.Weights {
		return "the paper's weight-scaling figure: final e_L1 against the weight scale R for the three problems (median, min-max bar over the seeds)"
	}
	if isBaseline(t) {
		return "final e_L1 per model (median, min-max bar over the seeds) beside the paper's median and range"
	}
	return "final e_L1 against the swept parameter (median, min-max bar over the seeds) beside the paper's median and range"
}

// skippedNote says why a table figure was not drawn.
func skippedNote(tier string, rows []RowStats, om []Omission) string {
	inTier := 0
	for _, s := range rows {
		if s.Want > 0 {
			inTier++
		}
	}
	if inTier == 0 {
		return "Skipped: the " + tier + " tier runs no row of this table."
	}
	if len(om) == 0 {
		return "Skipped: no row to draw."
	}
	return "Skipped: no row can be drawn: " + describeOmitted(om) + "."
}

// solutionProblems returns the problems whose baseline table is reported,
// in the paper's order: their solution figures belong to the baseline.
func solutionProblems(tables []*experiments.Table) []string {
	var out []string
	for _, p := range experiments.ProblemNames() {
		for _, t := range tables {
			if isBaseline(t) && len(t.Rows) > 0 && t.Rows[0].Problem == p {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// solutionFigures draws a problem's solution figures from the result of
// its run (experiments.SolutionSpec), or notes that the run is missing. It
// solves nothing.
func solutionFigures(prob, tier string, results map[string]*experiments.Result, o *Options, save func(*Figure, *FigureEntry) error) ([]FigureEntry, error) {
	spec, err := experiments.SolutionSpec(prob, experiments.SolutionIters(tier, prob))
	if err != nil {
		return nil, err
	}
	res := results[spec.Key()]
	if res == nil {
		e := FigureEntry{Name: prob + "-solution", Caption: "the solution figures of the " + problemTitle(prob),
			Note: fmt.Sprintf("Skipped: no result of their run %s yet (repro run -tier %s makes it with the baseline table).", spec, tier)}
		o.logf("figure %s: %s", e.Name, e.Note)
		return []FigureEntry{e}, nil
	}
	sol, err := SolutionOf(res)
	if err != nil {
		e := FigureEntry{Name: prob + "-solution", Caption: "the solution figures of the " + problemTitle(prob),
			Note: "Skipped: " + err.Error()}
		o.logf("figure %s: %s", e.Name, e.Note)
		return []FigureEntry{e}, nil
	}
	figs, err := solutionPlots(sol)
	if err != nil {
		return nil, err
	}
	var out []FigureEntry
	for _, fig := range figs {
		e := FigureEntry{Name: fig.Name, Caption: fig.Caption,
			Note: fmt.Sprintf("From the run %s (%.1f s).", spec, sol.Seconds)}
		if err := save(fig, &e); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// solutionPlots draws the figures of a solved model: for the oscillator
// the solution, the basis functions and the sparsity of M; for the 2D
// problems the solution maps (and the sparsity of M for the Laplacian).
func solutionPlots(sol *Solution) ([]*Figure, error) {
	var figs []*Figure
	switch sol.Spec.Problem {
	case experiments.Oscillator:
		c, err := sol.Curve(2000)
		if err != nil {
			return nil, err
		}
		figs = append(figs, OscillatorPlot(sol, c))
		var perLevel [][]BasisSet
		for _, g := range sol.MiddleSubdomains() {
			subs := neighbours(sol, g)
			sets, err := sol.Basis(subs, 2000)
			if err != nil {
				return nil, err
			}
			perLevel = append(perLevel, sets)
		}
		figs = append(figs, BasisPlot(sol, perLevel))
		figs = append(figs, SparsityPlot(sol, sol.Sparsity(800, 800)))
	default:
		f, err := sol.Fields(200)
		if err != nil {
			return nil, err
		}
		figs = append(figs, FieldsPlot(sol, f, sol.LevelCentres()))
		if sol.Spec.Problem == experiments.Laplace {
			figs = append(figs, SparsityPlot(sol, sol.Sparsity(700, 700)))
		}
	}
	return figs, nil
}

// neighbours returns subdomain g and its kept neighbours on its level (the
// subdomains before and after it), at most three.
func neighbours(s *Solution, g int) []int {
	subs := s.System.Decomposition.Subdomains
	out := []int{g}
	for _, h := range []int{g - 1, g + 1} {
		if h >= 0 && h < len(subs) && subs[h].Level == subs[g].Level {
			out = append(out, h)
		}
	}
	slices.Sort(out)
	return out
}

// standaloneTeX is a minimal document around report.tex.
const standaloneTeX = `% A minimal document around report.tex: pdflatex report-standalone.tex
\documentclass{article}
\usepackage{booktabs}
\usepackage{graphicx}
\usepackage[margin=2cm]{geometry}
\begin{document}
\input{report.tex}
\end{document}
`

// safeID reports whether s is a plain name that is safe as a file name, in
// a LaTeX \input path and in Markdown link targets: ASCII letters, digits,
// '.', '_' and '-', not starting with '.' or '-'.
func safeID(s string) bool {
	if s == "" || s[0] == '.' || s[0] == '-' {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}
