package reports

import (
	"bytes"
	"cmp"
	"embed"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/template"
	"time"

	"github.com/olekukonko/tablewriter/renderer"
	"gonum.org/v1/plot/vg"

	"elmfbpinn/experiments"
	"elmfbpinn/paperdata"
	"elmfbpinn/study"
)

// This file is the view model of the report's index: REPORT.md,
// report.tex and SUMMARY.md are templates (templates/*.tmpl) over it, so
// that the Markdown and the LaTeX index say the same things from the same
// values.

//go:embed templates/*.tmpl
var templates embed.FS

// index holds the templates, named by their files (set by init: they
// render the tables, which use them).
var index *template.Template

func init() {
	index = template.Must(template.New("").Funcs(template.FuncMap{
		"md":         escapeMarkdown,
		"code":       codeSpan,
		"tex":        escapeLaTeX,
		"texs":       scriptTeX,
		"mds":        scriptMarkdown,
		"bp":         func(l vg.Length) string { return strconv.FormatFloat(l.Points(), 'f', 2, 64) + "bp" },
		"figureRows": figureRows,
		"cap":        capital,
		"slash":      filepath.ToSlash,
		"label":      labelSafe,
		"ext":        func(f string) string { return strings.TrimPrefix(filepath.Ext(f), ".") },
		"join":       strings.Join,
		"counts":     counts,
		"mark":       statusMark,
		"table": func(header []string, rows [][]string, left int) (string, error) {
			return rendered(func(w io.Writer) error { return writeTable(w, renderer.NewMarkdown(), header, rows, left) })
		},
		"tablemd": func(ts *study.TableStudy) (string, error) {
			return rendered(func(w io.Writer) error { return Markdown(w, ts, false) })
		},
		"trim":    strings.TrimSpace,
		"split":   func(s string) []string { return strings.Split(s, "|") },
		"add":     func(a, b int) int { return a + b },
		"repeat":  strings.Repeat,
		"oneline": func(s string) string { return strings.ReplaceAll(s, "\n", " ") },
	}).ParseFS(templates, "templates/*.tmpl"))
}

// figureRows groups figures as report.tex sets them: two written column
// figures in a row share one float (side by side, or stacked where the line
// is narrower), every other figure is alone.
func figureRows(figs []FigureEntry) [][]FigureEntry {
	var rows [][]FigureEntry
	column := func(f FigureEntry) bool { return f.Written() && f.W <= columnWidth }
	for _, f := range figs {
		if n := len(rows); n > 0 && len(rows[n-1]) == 1 && column(rows[n-1][0]) && column(f) {
			rows[n-1] = append(rows[n-1], f)
			continue
		}
		rows = append(rows, []FigureEntry{f})
	}
	return rows
}

// rendered returns what render writes.
func rendered(render func(io.Writer) error) (string, error) {
	var b bytes.Buffer
	err := render(&b)
	return b.String(), err
}

// view is what the index templates read: the report built, and the
// provenance of the report and of its results (study.Sources).
type view struct {
	*Built
	study.Sources
	Paper                  string
	Date, DateTeX          string
	Commit, GoVersion, CPU string
	Stale                  int    // results made by other numerics than the writer's
	WriterNumerics         string // the writer's fingerprints
	FromResults            bool   // Provenance.FromResults
	Budgets                []budgetGroup
	Disagree, PaperFails   []study.ClaimCheck
	Hold, Fail, Open       int // claims by our status
	// PaperTables says the report holds a table of the paper: without one
	// (experiment files' tables alone) it has no paper sections.
	PaperTables bool
	// Experiments are the experiment files whose tables the report holds.
	Experiments []experiments.Source
}

// budgetGroup is a budget of the study with its seeds ("seeds 0-4", as
// the -seeds flag takes them) and its steps in words.
type budgetGroup struct {
	study.Budget
	Seeds, Steps string
}

func newView(b *Built, o *Options) *view {
	pv := o.Provenance
	v := &view{Built: b, Sources: b.Sources(), Date: "unknown", DateTeX: "unknown",
		Paper:  "ELM-FBPINNs: An Efficient Multilevel Random Feature Method",
		Commit: cmp.Or(pv.Commit, "unknown"), GoVersion: cmp.Or(pv.GoVersion, "unknown"), CPU: cmp.Or(pv.CPU, "unknown"),
		Stale: pv.Stale, WriterNumerics: pv.Numerics, FromResults: pv.FromResults,
		Hold: b.Claims.Count(study.Holds), Fail: b.Claims.Count(study.Fails), Open: b.Claims.Count(study.NotEvaluated),
		Disagree:   b.Claims.Where(study.CheckResult.Disagrees),
		PaperFails: b.Claims.Where(func(k study.CheckResult) bool { return k.Paper.Status == study.Fails })}
	for _, tr := range b.Tables {
		src := tr.Table.Source
		switch {
		case src == nil:
			v.PaperTables = true
		case !slices.ContainsFunc(v.Experiments, func(f experiments.Source) bool { return f.Path == src.Path && f.SHA256 == src.SHA256 }):
			v.Experiments = append(v.Experiments, experiments.Source{Path: src.Path, SHA256: src.SHA256})
		}
	}
	if !pv.Date.IsZero() {
		v.Date, v.DateTeX = pv.Date.UTC().Format("2006-01-02 15:04 MST"), pv.Date.UTC().Format(time.RFC3339)
	}
	for _, g := range b.Budgets() {
		opt, step := experiments.Optimiser(g.Key)
		v.Budgets = append(v.Budgets, budgetGroup{Budget: g,
			Seeds: plural(len(g.Seeds), "seed") + " " + experiments.FormatInts(g.Seeds), Steps: opt + " " + step + "s"})
	}
	return v
}

// counts lists values with their counts: "value (count), ...", or "—".
func counts(cs []study.Count) string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = fmt.Sprintf("%s (%d)", c.Value, c.N)
	}
	return cmp.Or(strings.Join(out, ", "), "—")
}

// Has reports whether the report wrote the file name.
func (v *view) Has(name string) bool { return slices.Contains(v.Files, name) }

// Written returns Markdown links to those of the files the report wrote.
func (v *view) Written(names ...string) []string {
	var out []string
	for _, f := range names {
		if v.Has(f) {
			out = append(out, fmt.Sprintf("[%s](%s)", f, f))
		}
	}
	return out
}

// Glance is the rows of REPORT.md's table of verdicts per table.
func (v *view) Glance() [][]string {
	var rows [][]string
	for _, tr := range v.Tables {
		t, k := tr.Table, tr.Counts
		var figs []string
		for _, f := range tr.Figures {
			if f.Written() {
				figs = append(figs, fmt.Sprintf("[%s](%s)", strings.TrimPrefix(f.Name, t.ID+"-"), f.Files[0]))
			}
		}
		row := append([]string{fmt.Sprintf("[%s](#%s)", t.ID, anchor(t.Title)), paperLabel(t, "figure")},
			itoas(k.Match, k.Close, k.Off, k.Unjudged+k.Reduced, k.Incomplete, k.Rows-k.InTier)...)
		rows = append(rows, append(row, cmp.Or(strings.Join(figs, " "), "—")))
	}
	return rows
}

// NotMatch is one line of REPORT.md's list of the rows whose verdict is
// close or off: the table, the row, the verdict, both medians and the
// declared reason (experiments.Notes), "" if none is declared yet.
type NotMatch struct {
	Table, Anchor, Row, Verdict, Ours, Paper, Note string
	RefName                                        string // "paper", or "reference" for a file's table
}

// NotMatches lists the judged rows that are not a match, in table order.
func (v *view) NotMatches() []NotMatch {
	var out []NotMatch
	for _, tr := range v.Tables {
		c := newCells(markdownStyle, tr.TableStudy)
		for _, s := range tr.Rows {
			if !s.HasVerdict || s.Verdict == paperdata.Match {
				continue
			}
			out = append(out, NotMatch{Table: tr.Table.ID, Anchor: anchor(tr.Table.Title), Row: s.Label(),
				Verdict: s.Verdict.String(), Ours: c.el1Ours(s), Paper: c.el1Paper(s), Note: s.Note, RefName: tr.Table.RefName()})
		}
	}
	return out
}

// Summary is the rows of SUMMARY.md's table, the total last.
func (b *Built) Summary() [][]string {
	var rows [][]string
	row := func(name, paper string, k study.Counts) []string {
		return append([]string{name, paper}, itoas(k.Rows, k.InTier, k.Complete, k.Match, k.Close, k.Off,
			k.Unjudged, k.Reduced, k.Incomplete)...)
	}
	for _, tr := range b.Tables {
		rows = append(rows, row(fmt.Sprintf("[%s](%s.md)", tr.Table.ID, tr.Table.ID), paperLabel(tr.Table, "—"), tr.Counts))
	}
	return append(rows, row("**total**", "", b.Counts))
}

// paperLabel is a table's entry in a column of paper labels: its label,
// "file NAME" for a table of an experiment file, or none for a paper
// figure.
func paperLabel(t *experiments.Table, none string) string {
	switch {
	case t.Source != nil:
		return "file " + codeSpan(filepath.Base(t.Source.Path))
	case t.Paper != "":
		return codeSpan(t.Paper)
	}
	return none
}

func itoas(ns ...int) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = strconv.Itoa(n)
	}
	return out
}

// ClaimCells is the paper's summary table recomputed: per aspect, its name
// then each model's entry with our status, marked as format says ("md":
// "Fastest: ✓ holds"; "tex": "Fastest (holds)", escaped).
func (v *view) ClaimCells(format string) [][]string {
	word := map[study.Status]string{study.Holds: "holds", study.Fails: "\\textbf{fails}", study.NotEvaluated: "n/e", study.NoCheck: "no check"}
	var rows [][]string
	for _, a := range study.ClaimAspects {
		row := []string{a}
		if format == "tex" {
			row[0] = escapeLaTeX(a)
		}
		for _, m := range study.ClaimModels {
			i := slices.IndexFunc(v.Claims, func(c study.ClaimResult) bool { return c.Aspect == a && c.Model == m })
			switch {
			case i < 0 && format == "tex":
				row = append(row, "-")
			case i < 0:
				row = append(row, "—")
			case format == "tex":
				row = append(row, fmt.Sprintf("%s (%s)", escapeLaTeX(v.Claims[i].Paper), word[v.Claims[i].Ours()]))
			default:
				row = append(row, fmt.Sprintf("%s: %s", v.Claims[i].Paper, statusMark(v.Claims[i].Ours())))
			}
		}
		rows = append(rows, row)
	}
	return rows
}

// statusMark is the Markdown mark of a claim's status.
func statusMark(s study.Status) string {
	return [...]string{"? not evaluated", "✓ holds", "✗ does not hold", "— no check"}[s]
}

// ClaimHeader is the header of the summary table in Markdown.
func (v *view) ClaimHeader() []string { return append([]string{""}, study.ClaimModels...) }

// anchor is GitHub's anchor of a heading in REPORT.md.
func anchor(title string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_':
			return r
		case r == ' ':
			return '-'
		}
		return -1 // dropped
	}, strings.ToLower(title))
}
