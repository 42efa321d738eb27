package reports

import (
	"cmp"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"gonum.org/v1/plot/vg"

	"elmfbpinn/experiments"
	"elmfbpinn/study"
)

// Output formats of Report.
const (
	FormatMarkdown = "md"
	FormatLaTeX    = "latex"
	FormatCSV      = "csv"
	FormatPNG      = "png"
	FormatPDF      = "pdf"
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
	aliases := map[string]string{"markdown": FormatMarkdown, "tex": FormatLaTeX}
	for f := range strings.SplitSeq(s, ",") {
		f = strings.ToLower(strings.TrimSpace(f))
		f = cmp.Or(aliases[f], f)
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
	// Stale is how many of the results were made by other numerics than
	// the writing binary's, whose fingerprints Numerics lists: a rerun
	// would compute them again (0: none, and the report says nothing).
	Stale    int
	Numerics string
	// FromResults says the report is made from its results alone (repro
	// report -reproducible), so that the same results give the same bytes
	// anywhere: Date is the newest result's, and the writer's commit, Go
	// and CPU are not recorded (the fields above are ignored); the report
	// lists the results' own.
	FromResults bool
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
	// the LaTeX tables (LaTeX's paper); by default they hold the paper's
	// columns with our values only.
	LaTeXPaper bool
	Provenance Provenance
	// Bad holds the keys of the runs whose result files are bad (not
	// valid results, left out): rows count them (study.Study.MarkBad).
	Bad map[string]bool
	// Log, if set, receives one line per step (skipped figures).
	Log io.Writer
}

func (o *Options) has(f string) bool { return o.Formats == nil || slices.Contains(o.Formats, f) }

func (o *Options) logf(format string, args ...any) {
	if o.Log != nil {
		fmt.Fprintf(o.Log, format+"\n", args...)
	}
}

// FigureEntry is one figure of the report, written or skipped. Title and
// Notes are the drawn figure's (figure text, see Figure), empty for a
// skipped one.
type FigureEntry struct {
	Name    string    // file name without extension, in the figures/ folder
	Caption string    // what it shows, in a few words
	Title   string    // what it shows in full
	Notes   []string  // what it reproduces and what its marks mean
	Note    string    // rows left out, or why it was skipped
	Files   []string  // the files written, relative to the report directory: PNG first (a document shows the first)
	W, H    vg.Length // its drawn (printed) size; zero if skipped
}

// Written reports whether the figure was drawn.
func (f FigureEntry) Written() bool { return len(f.Files) > 0 }

// TableReport is a table of the study with its figures.
type TableReport struct {
	*study.TableStudy
	Figures []FigureEntry
}

// Built is what Report wrote: the study, its figures and claims, and the
// files.
type Built struct {
	*study.Study
	Tables    []*TableReport
	Solutions []FigureEntry // solution, basis and sparsity figures
	Claims    study.Claims
	Files     []string // every file written, relative to the report directory
}

// FigureDir is the folder of the figures inside the report directory.
const FigureDir = "figures"

// Report writes the reproduction's report for a tier into dir (created if
// needed), in the formats of o, from one study of the tables over results
// (keyed by Spec.Key()):
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
//     problem whose baseline table is reported with its ELM-FBPINN row,
//     drawn from the results of their runs (experiments.SolutionRuns,
//     SolutionOf).
//
// A figure whose table has no usable row is skipped with a note; a figure
// drawn without some rows says which in its title and in the report. Every
// file is written atomically. Report solves nothing. On an error after it
// started writing, the Built it returns lists in Files what it wrote.
func Report(dir string, tables []*experiments.Table, results map[string]*experiments.Result, o *Options) (*Built, error) {
	if o == nil {
		o = &Options{}
	}
	tier := cmp.Or(o.Tier, experiments.Full)
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
	st, err := study.NewStudy(tables, tier, results)
	if err != nil {
		return nil, err
	}
	st.MarkBad(o.Bad)
	b := &Built{Study: st}
	w := &writer{dir: dir, b: b, o: o}
	for _, ts := range st.Tables {
		tr := &TableReport{TableStudy: ts}
		b.Tables = append(b.Tables, tr)
		w.render(FormatMarkdown, ts.Table.ID+".md", func(buf io.Writer) error { return Markdown(buf, ts, true) })
		w.render(FormatLaTeX, ts.Table.ID+".tex", func(buf io.Writer) error { return LaTeX(buf, ts, o.LaTeXPaper) })
		if w.figures() {
			conv, fin := Convergence(ts), Final(ts)
			if ts.Table.Kind == experiments.Solvers {
				// The error against wall time, a panel per configuration;
				// the table has the final errors.
				tr.Figures = append(tr.Figures, w.figure(ConvergencePlot(conv), ts, "-time", timeCaption, conv.Omitted))
				continue
			}
			tr.Figures = append(tr.Figures,
				w.figure(ConvergencePlot(conv), ts, "-convergence", convergenceCaption, conv.Omitted),
				w.figure(FinalPlot(fin), ts, "-final", finalKinds[ts.Table.Kind].caption, fin.Omitted))
		}
	}
	if w.figures() && !o.NoSolutions {
		w.solutions(tables, results)
	}
	b.Claims = study.EvaluateClaims(st)
	w.render(FormatCSV, "runs.csv", func(buf io.Writer) error { return RunsCSV(buf, st) })
	v := newView(b, o)
	w.template(FormatMarkdown, "SUMMARY.md", b)
	w.template(FormatMarkdown, "REPORT.md", v)
	w.template(FormatLaTeX, "report.tex", v)
	w.template(FormatLaTeX, "report-standalone.tex", nil)
	return b, w.err
}

// writer writes the files of a report, keeping the first error.
type writer struct {
	dir string
	b   *Built
	o   *Options
	err error
}

// render writes what f renders to the file name if its format is asked for.
func (w *writer) render(format, name string, f func(io.Writer) error) {
	if w.err == nil && w.o.has(format) {
		var s string
		s, w.err = rendered(f)
		w.write(name, []byte(s))
	}
}

// template writes the file name, if its format is asked for: the index
// template of that name (name.tmpl) over data.
func (w *writer) template(format, name string, data any) {
	w.render(format, name, func(buf io.Writer) error { return index.ExecuteTemplate(buf, name+".tmpl", data) })
}

// write writes data to the file name, atomically, making its folder if
// needed (experiments.WriteFile).
func (w *writer) write(name string, data []byte) {
	if w.err == nil {
		w.err = experiments.WriteFile(filepath.Join(w.dir, name), data)
	}
	if w.err == nil {
		w.b.Files = append(w.b.Files, name)
	}
}

// figures reports whether any image format is asked for.
func (w *writer) figures() bool { return w.o.has(FormatPNG) || w.o.has(FormatPDF) }

// figure writes a table's figure (nil: skipped, saying why).
func (w *writer) figure(fig *Figure, ts *study.TableStudy, suffix, caption string, omitted []Omission) FigureEntry {
	e := FigureEntry{Name: ts.Table.ID + suffix, Caption: caption, Note: omittedNote(omitted)}
	if fig == nil {
		e.Note = skippedNote(ts, omitted)
	}
	return w.save(fig, e)
}

// save writes a figure in every image format asked for and returns its
// entry; a figure that is nil (skipped, e says why) or cannot be drawn is
// noted instead.
func (w *writer) save(fig *Figure, e FigureEntry) FigureEntry {
	if fig == nil {
		w.o.logf("figure %s: %s", e.Name, e.Note)
		return e
	}
	for _, format := range []string{FormatPNG, FormatPDF} {
		if !w.o.has(format) || w.err != nil {
			continue
		}
		data, err := fig.Bytes(format)
		if err != nil {
			e.Note = strings.TrimSpace(e.Note + " Not drawn: " + err.Error())
			w.o.logf("figure %s: %v", fig.Name, err)
			e.Files = nil
			return e
		}
		name := filepath.Join(FigureDir, fig.Name+"."+format)
		w.write(name, data)
		e.Files = append(e.Files, name)
	}
	if e.Written() {
		e.Title, e.Notes, e.W, e.H = fig.Title, fig.Notes, fig.W, fig.H
	}
	return e
}

// skippedNote says why a table figure was not drawn.
func skippedNote(ts *study.TableStudy, om []Omission) string {
	switch {
	case ts.Counts.InTier == 0:
		return "Skipped: the " + ts.Tier + " tier runs no row of this table."
	case len(om) == 0:
		return "Skipped: no row to draw."
	}
	return "Skipped: no row can be drawn: " + describeOmitted(om) + "."
}

// solutions draws the solution figures of the runs experiments.SolutionRuns
// schedules for the tables (one per problem whose baseline table has an
// ELM-FBPINN row in the tier), from the result of each run, or notes that
// the run is missing.
func (w *writer) solutions(tables []*experiments.Table, results map[string]*experiments.Result) {
	runs, err := experiments.SolutionRuns(tables, w.b.Tier)
	if err != nil {
		w.err = cmp.Or(w.err, err)
		return
	}
	for _, run := range runs {
		spec, p := run.Spec, study.ProblemOf(run.Spec.Problem)
		skip := FigureEntry{Name: p.Name + "-solution", Caption: "the solution figures of the " + p.Title}
		res := results[spec.Key()]
		var figs []*Figure
		if res == nil {
			skip.Note = fmt.Sprintf("Skipped: no result of their run %s yet (repro run -tier %s makes it with the baseline table).", spec, w.b.Tier)
		} else if figs, err = solutionPlots(res); err != nil {
			skip.Note = "Skipped: " + err.Error()
		}
		if skip.Note != "" {
			w.b.Solutions = append(w.b.Solutions, w.save(nil, skip))
			continue
		}
		for _, fig := range figs {
			w.b.Solutions = append(w.b.Solutions, w.save(fig, FigureEntry{Name: fig.Name, Caption: fig.Caption,
				Note: fmt.Sprintf("From the run %s (%.1f s).", spec, res.Time.Total)}))
		}
	}
}

// solutionPlots draws the figures of a solution-figure run: the solution
// (a curve in 1D, maps in 2D), the basis functions and the sparsity of M
// where the problem asks for them.
func solutionPlots(res *experiments.Result) ([]*Figure, error) {
	sol, err := experiments.SolutionOf(res)
	if err != nil {
		return nil, err
	}
	var figs []*Figure
	p, raster := sol.Problem, 700
	if p.Dim == 1 {
		c, err := sol.Curve(2000)
		if err != nil {
			return nil, err
		}
		figs, raster = append(figs, CurvePlot(sol, c)), 800
	} else {
		f, err := sol.Fields(200)
		if err != nil {
			return nil, err
		}
		figs = append(figs, FieldsPlot(sol, f, sol.LevelCentres()))
	}
	if p.Basis {
		var perLevel [][]experiments.BasisSet
		for _, subs := range sol.MiddleSubdomains() {
			sets, err := sol.Basis(subs, 2000)
			if err != nil {
				return nil, err
			}
			perLevel = append(perLevel, sets)
		}
		figs = append(figs, BasisPlot(sol, perLevel))
	}
	if p.Sparsity {
		figs = append(figs, SparsityPlot(sol, sol.Sparsity(raster, raster)))
	}
	return figs, nil
}
