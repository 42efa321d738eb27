package reports

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"elmfbpinn/experiments"
)

// This file writes the report's index: REPORT.md and the LaTeX include
// file report.tex.

const paperTitle = "ELM-FBPINNs: An Efficient Multilevel Random Feature Method"

// statusMark is the Markdown mark of a status.
func statusMark(s Status) string {
	switch s {
	case Holds:
		return "✓ holds"
	case Fails:
		return "✗ does not hold"
	case NoCheck:
		return "— no check"
	}
	return "? not evaluated"
}

// budgetGroup is one kind of run in a tier: a model with its seeds and
// budget, and the tables that run it.
type budgetGroup struct {
	model  string
	seeds  string
	iters  int
	tables []string
}

// tierRuns describes the runs a tier makes of the tables.
func tierRuns(tables []*experiments.Table, tier string) []budgetGroup {
	var gs []*budgetGroup
	for _, t := range tables {
		runs, err := t.Runs(tier)
		if err != nil {
			continue
		}
		type mk struct {
			model string
			iters int
		}
		seeds := map[mk][]int{}
		var keys []mk
		for _, r := range runs {
			if r.Spec.Iters == 0 {
				continue
			}
			k := mk{experiments.PaperModel(r.Spec.Model), r.Spec.Iters}
			if _, ok := seeds[k]; !ok {
				keys = append(keys, k)
			}
			if !slices.Contains(seeds[k], r.Spec.Seed) {
				seeds[k] = append(seeds[k], r.Spec.Seed)
			}
		}
		for _, k := range keys {
			s := seedList(seeds[k])
			i := slices.IndexFunc(gs, func(g *budgetGroup) bool { return g.model == k.model && g.seeds == s && g.iters == k.iters })
			if i < 0 {
				gs = append(gs, &budgetGroup{model: k.model, seeds: s, iters: k.iters})
				i = len(gs) - 1
			}
			gs[i].tables = append(gs[i].tables, t.ID)
		}
	}
	out := make([]budgetGroup, len(gs))
	for i, g := range gs {
		out[i] = *g
	}
	return out
}

// seedList formats seeds as "0-4" or "0, 2".
func seedList(s []int) string {
	s = slices.Clone(s)
	sort.Ints(s)
	if len(s) > 2 && s[len(s)-1]-s[0] == len(s)-1 {
		return fmt.Sprintf("%d-%d", s[0], s[len(s)-1])
	}
	parts := make([]string, len(s))
	for i, v := range s {
		parts[i] = strconv.Itoa(v)
	}
	return strings.Join(parts, ", ")
}

// resultsProvenance summarises where the reported results were made.
type resultsProvenance struct {
	runs               int
	commits, gos, cpus []string // "value (count)"
	first, last        string   // RFC 3339 start times
	withoutEnv         int
}

func (b *Built) resultsProvenance(tables []*experiments.Table) resultsProvenance {
	var p resultsProvenance
	counts := map[string]map[string]int{"commit": {}, "go": {}, "cpu": {}}
	var order = map[string][]string{}
	add := func(kind, v string) {
		if v == "" {
			v = "unknown"
		}
		if counts[kind][v] == 0 {
			order[kind] = append(order[kind], v)
		}
		counts[kind][v]++
	}
	seen := map[string]bool{}
	for _, t := range tables {
		runs, _ := t.Runs(b.Tier)
		for _, r := range runs {
			res := b.results[r.Spec.Key()]
			if res == nil || seen[res.Key] {
				continue
			}
			seen[res.Key] = true
			p.runs++
			if res.Env.Started == "" {
				p.withoutEnv++
				continue
			}
			add("commit", res.Env.Commit)
			add("go", res.Env.GoVersion)
			add("cpu", res.Env.CPU)
			if p.first == "" || res.Env.Started < p.first {
				p.first = res.Env.Started
			}
			if res.Env.Started > p.last {
				p.last = res.Env.Started
			}
		}
	}
	list := func(kind string) []string {
		vs := order[kind]
		sort.SliceStable(vs, func(i, j int) bool { return counts[kind][vs[i]] > counts[kind][vs[j]] })
		out := make([]string, len(vs))
		for i, v := range vs {
			out[i] = fmt.Sprintf("%s (%d)", v, counts[kind][v])
		}
		return out
	}
	p.commits, p.gos, p.cpus = list("commit"), list("go"), list("cpu")
	return p
}

func (b *Built) reportedTables() []*experiments.Table {
	out := make([]*experiments.Table, len(b.Tables))
	for i, tr := range b.Tables {
		out[i] = tr.Table
	}
	return out
}

// figureLink returns the file a document should show of a figure: the PNG
// if written, else the PDF.
func figureLink(e FigureEntry) string {
	for _, f := range e.Files {
		if strings.HasSuffix(f, ".png") {
			return f
		}
	}
	if len(e.Files) > 0 {
		return e.Files[0]
	}
	return ""
}

// indexMarkdown writes REPORT.md.
func (b *Built) indexMarkdown(w io.Writer, o *Options) error {
	bw := bufio.NewWriter(w)
	tables := b.reportedTables()
	fmt.Fprintf(bw, "# Reproduction report, tier %s\n\n", codeSpan(b.Tier))
	fmt.Fprintf(bw, "Reproduces *%s* (Anderson, Dolean, Moseley, Pestana) from cached results: "+
		"every table with its figures, our numbers beside the paper's, and the paper's qualitative summary recomputed.\n\n", paperTitle)

	// Provenance.
	fmt.Fprintf(bw, "## Provenance\n\n")
	pv := o.Provenance
	date := "unknown"
	if !pv.Date.IsZero() {
		date = pv.Date.UTC().Format("2006-01-02 15:04 MST")
	}
	fmt.Fprintf(bw, "| | |\n|:--|:--|\n")
	fmt.Fprintf(bw, "| report written | %s |\n", date)
	fmt.Fprintf(bw, "| by commit | %s |\n", codeSpan(orUnknown(pv.Commit)))
	fmt.Fprintf(bw, "| Go | %s |\n", escapeMarkdown(orUnknown(pv.GoVersion)))
	fmt.Fprintf(bw, "| CPU | %s |\n", escapeMarkdown(orUnknown(pv.CPU)))
	fmt.Fprintf(bw, "| tier | %s |\n", codeSpan(b.Tier))
	for _, g := range tierRuns(tables, b.Tier) {
		fmt.Fprintf(bw, "| %s runs | %s, %d %s: %s |\n", g.model, seedWord(g.seeds), g.iters, stepWord(g.model),
			strings.Join(g.tables, ", "))
	}
	rp := b.resultsProvenance(tables)
	fmt.Fprintf(bw, "| results | %d runs found", rp.runs)
	if rp.first != "" {
		fmt.Fprintf(bw, ", made %s to %s", rp.first, rp.last)
	}
	if rp.withoutEnv > 0 {
		fmt.Fprintf(bw, " (%d without a record of where)", rp.withoutEnv)
	}
	fmt.Fprintf(bw, " |\n")
	fmt.Fprintf(bw, "| results' commits | %s |\n", escapeMarkdown(orNone(rp.commits)))
	fmt.Fprintf(bw, "| results' Go | %s |\n", escapeMarkdown(orNone(rp.gos)))
	fmt.Fprintf(bw, "| results' CPUs | %s |\n", escapeMarkdown(orNone(rp.cpus)))
	fmt.Fprintf(bw, "\nThe paper's timings are from one AMD EPYC 7742 core (JAX + SciPy); ours from one pinned core "+
		"(each run in its own process with GOMAXPROCS=1). Compare times as ratios.\n\n")

	// At a glance.
	fmt.Fprintf(bw, "## At a glance\n\n")
	header := []string{"Table", "Paper", "Match", "Close", "Off", "Not judged", "Seeds missing", "Not in tier", "Figures"}
	tb := newMarkdownTable(bw, len(header), 2)
	tb.Header(header)
	for _, tr := range b.Tables {
		s := tr.Summary
		paper := "figure"
		if s.Paper != "" {
			paper = codeSpan(s.Paper)
		}
		var figs []string
		for _, f := range tr.Figures {
			if f.Written() {
				figs = append(figs, fmt.Sprintf("[%s](%s)", strings.TrimPrefix(f.Name, tr.Table.ID+"-"), figureLink(f)))
			}
		}
		if len(figs) == 0 {
			figs = []string{"—"}
		}
		if err := tb.Append([]string{
			fmt.Sprintf("[%s](#%s)", tr.Table.ID, anchor(tr.Table)), paper,
			itoa(s.Match), itoa(s.Close), itoa(s.Off), itoa(s.Unjudged + s.Reduced),
			itoa(s.Incomplete), itoa(s.Rows - s.InTier),
			strings.Join(figs, " "),
		}); err != nil {
			return err
		}
	}
	if err := tb.Render(); err != nil {
		return err
	}
	fmt.Fprintf(bw, "\nOverall: **%d match, %d close, %d off**; %d rows in the tier without all their seeds. "+
		"Match: our median e_L1 within the paper's median ± range; close: within a "+
		"factor 3 of the paper's median; off: otherwise. Not judged: no published row, or a shortened quick-tier run.\n\n",
		b.Summary.Match, b.Summary.Close, b.Summary.Off, b.Summary.Incomplete)

	b.claimsMarkdown(bw)

	// Tables.
	fmt.Fprintf(bw, "## Tables\n\n")
	for _, tr := range b.Tables {
		t := tr.Table
		fmt.Fprintf(bw, "### %s\n\n", escapeMarkdown(t.Title))
		s := tr.Summary
		files := []string{}
		for _, f := range []string{t.ID + ".md", t.ID + ".tex"} {
			if slices.Contains(b.Files, f) {
				files = append(files, fmt.Sprintf("[%s](%s)", f, f))
			}
		}
		fmt.Fprintf(bw, "%s: %d match, %d close, %d off of %d rows in the tier", codeSpan(t.ID), s.Match, s.Close, s.Off, s.InTier)
		if len(files) > 0 {
			fmt.Fprintf(bw, " · %s", strings.Join(files, " · "))
		}
		fmt.Fprintf(bw, "\n\n")
		for _, f := range tr.Figures {
			writeFigureMarkdown(bw, f)
		}
		var md bytes.Buffer
		if err := writeMarkdown(&md, t, b.Tier, tr.Rows, false); err != nil {
			return err
		}
		bw.Write(md.Bytes())
		fmt.Fprintf(bw, "\n")
	}

	if len(b.Solutions) > 0 {
		fmt.Fprintf(bw, "## Solutions, basis functions and the sparsity of M\n\n")
		fmt.Fprintf(bw, "The multilevel models of the paper's solution figures, from their runs' results (seed 0, "+
			"the coefficients kept by the run; the iteration count is in each figure's title).\n\n")
		for _, f := range b.Solutions {
			writeFigureMarkdown(bw, f)
		}
	}

	var others []string
	for _, f := range []string{"runs.csv", "SUMMARY.md", "report.tex", "report-standalone.tex"} {
		if slices.Contains(b.Files, f) {
			others = append(others, fmt.Sprintf("[%s](%s)", f, f))
		}
	}
	if len(others) > 0 {
		fmt.Fprintf(bw, "## Files\n\n%s. `runs.csv` has one row per run (every field of its result but the history); "+
			"`report.tex` is a LaTeX include file with every table and figure (needs booktabs and graphicx), "+
			"`report-standalone.tex` a minimal document around it.\n", strings.Join(others, " · "))
	}
	return bw.Flush()
}

// seedWord is "seed 0" or "seeds 0-4".
func seedWord(list string) string {
	if strings.ContainsAny(list, ",-") {
		return "seeds " + list
	}
	return "seed " + list
}

func stepWord(model string) string {
	if model == experiments.PaperModel(experiments.ELM) {
		return "LSQR iterations"
	}
	return "Adam steps"
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "—"
	}
	return strings.Join(s, ", ")
}

// anchor is GitHub's anchor of a table's heading in REPORT.md.
func anchor(t *experiments.Table) string {
	var b strings.Builder
	for _, r := range strings.ToLower(t.Title) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

func writeFigureMarkdown(w io.Writer, f FigureEntry) {
	if !f.Written() {
		fmt.Fprintf(w, "*Figure %s (%s): %s*\n\n", codeSpan(f.Name), escapeMarkdown(f.Caption), escapeMarkdown(strings.TrimSpace(f.Note)))
		return
	}
	link := figureLink(f)
	fmt.Fprintf(w, "![%s](%s)\n\n", escapeMarkdown(f.Caption), filepath.ToSlash(link))
	var alt []string
	for _, x := range f.Files {
		alt = append(alt, fmt.Sprintf("[%s](%s)", strings.TrimPrefix(filepath.Ext(x), "."), filepath.ToSlash(x)))
	}
	fmt.Fprintf(w, "*Figure %s: %s (%s).", codeSpan(f.Name), escapeMarkdown(f.Caption), strings.Join(alt, ", "))
	if f.Note != "" {
		fmt.Fprintf(w, " %s", escapeMarkdown(f.Note))
	}
	fmt.Fprintf(w, "*\n\n")
}

// claimsMarkdown writes the recomputed summary table, the disagreements and
// the checks.
func (b *Built) claimsMarkdown(bw *bufio.Writer) {
	fmt.Fprintf(bw, "## The paper's qualitative summary, recomputed\n\n")
	fmt.Fprintf(bw, "The paper's Table `tab:summary-takeaways` (\"Qualitative comparison across experiments\"), each entry "+
		"checked against our results by the numerical rules listed below. A mark says whether our results bear the "+
		"entry out; \"paper's numbers\" applies the same rules to the paper's own published rows.\n\n")
	cell := map[[2]string]ClaimResult{}
	for _, c := range b.Claims {
		cell[[2]string{c.Aspect, c.Model}] = c
	}
	header := append([]string{""}, ClaimModels...)
	tb := newMarkdownTable(bw, len(header), len(header))
	tb.Header(header)
	for _, a := range ClaimAspects {
		row := []string{a}
		for _, m := range ClaimModels {
			c, ok := cell[[2]string{a, m}]
			if !ok {
				row = append(row, "—")
				continue
			}
			row = append(row, fmt.Sprintf("%s: %s", c.Paper, statusMark(c.Ours())))
		}
		tb.Append(row)
	}
	tb.Render()

	var agree, fail, open int
	for _, c := range b.Claims {
		switch c.Ours() {
		case Holds:
			agree++
		case Fails:
			fail++
		case NotEvaluated:
			open++
		}
	}
	fmt.Fprintf(bw, "\nOf %d entries: %d hold, %d do not, %d not evaluated yet.\n\n", len(b.Claims), agree, fail, open)

	var dis []string
	for _, c := range b.Claims {
		for _, k := range c.Checks {
			if k.Disagrees() {
				dis = append(dis, fmt.Sprintf("- **%s, %s (\"%s\")**: %s. Ours: %s (%s). Paper's numbers: %s (%s).",
					c.Aspect, c.Model, c.Paper, k.Rule, k.Ours.Status, k.Ours.String(), k.Paper.Status, k.Paper.String()))
			}
		}
	}
	if len(dis) > 0 {
		fmt.Fprintf(bw, "**Where our results disagree:**\n\n%s\n\n", strings.Join(dis, "\n"))
	} else {
		fmt.Fprintf(bw, "No check that our results decide disagrees with the paper.\n\n")
	}
	var paperFails []string
	for _, c := range b.Claims {
		for _, k := range c.Checks {
			if k.Paper.Status == Fails {
				paperFails = append(paperFails, fmt.Sprintf("- %s, %s (\"%s\"): %s: %s.", c.Aspect, c.Model, c.Paper, k.Rule, k.Paper.String()))
			}
		}
	}
	if len(paperFails) > 0 {
		fmt.Fprintf(bw, "Entries the paper's own published rows do not bear out under these rules:\n\n%s\n\n", strings.Join(paperFails, "\n"))
	}

	fmt.Fprintf(bw, "<details><summary>Every check with its numbers</summary>\n\n")
	for _, c := range b.Claims {
		fmt.Fprintf(bw, "- **%s, %s: %s**\n", c.Aspect, c.Model, escapeMarkdown(c.Paper))
		for _, k := range c.Checks {
			fmt.Fprintf(bw, "  - %s.\n    Ours: %s: %s.\n    Paper's numbers: %s: %s.\n", escapeMarkdown(k.Rule),
				statusMark(k.Ours.Status), escapeMarkdown(k.Ours.String()), statusMark(k.Paper.Status), escapeMarkdown(k.Paper.String()))
		}
	}
	fmt.Fprintf(bw, "\n</details>\n\n")
}

// indexLaTeX writes report.tex, the include file.
func (b *Built) indexLaTeX(w io.Writer, o *Options) error {
	bw := bufio.NewWriter(w)
	e := escapeLaTeX
	fmt.Fprintf(bw, "%% report.tex: the reproduction report, tier %s; generated by elmfbpinn/reports.\n", b.Tier)
	fmt.Fprintf(bw, "%% \\input it in a document that loads booktabs and graphicx. Set \\reprodir to the folder\n")
	fmt.Fprintf(bw, "%% of this file relative to the document (default: the same folder).\n")
	fmt.Fprintf(bw, "\\providecommand{\\reprodir}{.}\n")
	fmt.Fprintf(bw, "%% Figures are drawn at their printed size (a column, 3.3 in, or a text width, 6.5 in; text of\n")
	fmt.Fprintf(bw, "%% 8 pt and more): \\reprofig includes one at its natural size, shrunk only to fit \\linewidth.\n")
	fmt.Fprintf(bw, "\\providecommand{\\reprofig}[1]{\\sbox0{\\includegraphics{#1}}%%\n"+
		"\\ifdim\\wd0>\\linewidth\\resizebox{\\linewidth}{!}{\\usebox0}\\else\\usebox0\\fi}\n")
	fmt.Fprintf(bw, "\\section*{Reproduction of ``%s'' (tier %s)}\n\n", e(paperTitle), e(b.Tier))

	pv := o.Provenance
	date := "unknown"
	if !pv.Date.IsZero() {
		date = pv.Date.UTC().Format(time.RFC3339)
	}
	rp := b.resultsProvenance(b.reportedTables())
	fmt.Fprintf(bw, "\\subsection*{Provenance}\n{\\sloppy\n\\begin{itemize}\n")
	fmt.Fprintf(bw, "\\item Report written %s by commit \\texttt{%s} (%s) on %s.\n", e(date), e(orUnknown(pv.Commit)),
		e(orUnknown(pv.GoVersion)), e(orUnknown(pv.CPU)))
	for _, g := range tierRuns(b.reportedTables(), b.Tier) {
		fmt.Fprintf(bw, "\\item %s: %s, %d %s (%s).\n", e(g.model), e(seedWord(g.seeds)), g.iters, stepWord(g.model), e(strings.Join(g.tables, ", ")))
	}
	fmt.Fprintf(bw, "\\item Results: %d runs", rp.runs)
	if rp.first != "" {
		fmt.Fprintf(bw, ", made %s to %s", e(rp.first), e(rp.last))
	}
	fmt.Fprintf(bw, "; commits %s; %s; %s.\n", e(orNone(rp.commits)), e(orNone(rp.gos)), e(orNone(rp.cpus)))
	fmt.Fprintf(bw, "\\end{itemize}\\par}\n\n")

	// Verdict counts.
	fmt.Fprintf(bw, "\\begin{table}[ht]\n\\centering\n\\footnotesize\n\\begin{tabular}{lrrrrr}\n\\toprule\n")
	fmt.Fprintf(bw, "Table & Match & Close & Off & Not judged & Seeds missing \\\\\n\\midrule\n")
	for _, tr := range b.Tables {
		s := tr.Summary
		fmt.Fprintf(bw, "%s & %d & %d & %d & %d & %d \\\\\n", e(tr.Table.ID), s.Match, s.Close, s.Off,
			s.Unjudged+s.Reduced, s.Incomplete)
	}
	fmt.Fprintf(bw, "\\midrule\nTotal & %d & %d & %d & & %d \\\\\n\\bottomrule\n\\end{tabular}\n",
		b.Summary.Match, b.Summary.Close, b.Summary.Off, b.Summary.Incomplete)
	fmt.Fprintf(bw, "\\caption{Verdicts per table (tier %s): match if our median $e_{L_1}$ lies within the paper's median $\\pm$ range, "+
		"close if within a factor 3, off otherwise.}\n\\label{repro:verdicts}\n\\end{table}\n\n", e(b.Tier))

	// The summary table recomputed.
	cell := map[[2]string]ClaimResult{}
	for _, c := range b.Claims {
		cell[[2]string{c.Aspect, c.Model}] = c
	}
	word := map[Status]string{Holds: "holds", Fails: "\\textbf{fails}", NotEvaluated: "n/e", NoCheck: "no check"}
	fmt.Fprintf(bw, "\\begin{table}[ht]\n\\centering\n\\footnotesize\n\\makebox[\\linewidth][c]{%%\n\\begin{tabular}{lcccc}\n\\toprule\n")
	fmt.Fprintf(bw, " & %s \\\\\n\\midrule\n", strings.Join(mapStrings(ClaimModels, e), " & "))
	for _, a := range ClaimAspects {
		row := []string{e(a)}
		for _, m := range ClaimModels {
			c, ok := cell[[2]string{a, m}]
			if !ok {
				row = append(row, "-")
				continue
			}
			row = append(row, fmt.Sprintf("%s (%s)", e(c.Paper), word[c.Ours()]))
		}
		fmt.Fprintf(bw, "%s \\\\\n", strings.Join(row, " & "))
	}
	fmt.Fprintf(bw, "\\bottomrule\n\\end{tabular}}\n")
	fmt.Fprintf(bw, "\\caption{The paper's qualitative comparison (its Table tab:summary-takeaways) with whether our results "+
		"bear each entry out (n/e: not evaluated, runs missing). The rules are listed in REPORT.md.}\n\\label{repro:claims}\n\\end{table}\n\n")
	var dis []string
	for _, c := range b.Claims {
		for _, k := range c.Checks {
			if k.Disagrees() {
				dis = append(dis, fmt.Sprintf("\\item %s, %s (``%s''): %s. Ours: %s (%s). Paper's numbers: %s.",
					e(c.Aspect), e(c.Model), e(c.Paper), e(k.Rule), e(k.Ours.Status.String()), e(k.Ours.String()), e(k.Paper.Status.String())))
			}
		}
	}
	if len(dis) > 0 {
		fmt.Fprintf(bw, "\\paragraph{Where our results disagree}\n\\begin{itemize}\n%s\n\\end{itemize}\n\n", strings.Join(dis, "\n"))
	}
	fmt.Fprintf(bw, "\\clearpage\n\n")

	for _, tr := range b.Tables {
		t := tr.Table
		s := tr.Summary
		fmt.Fprintf(bw, "\\subsection*{%s}\n", e(t.Title))
		fmt.Fprintf(bw, "%s: %d match, %d close, %d off of %d rows in the tier.\n\n", e(t.ID), s.Match, s.Close, s.Off, s.InTier)
		if slices.Contains(b.Files, t.ID+".tex") {
			fmt.Fprintf(bw, "\\input{\\reprodir/%s.tex}\n", t.ID)
		}
		for _, f := range tr.Figures {
			writeFigureLaTeX(bw, f)
		}
		fmt.Fprintf(bw, "\\clearpage\n\n")
	}
	if len(b.Solutions) > 0 {
		fmt.Fprintf(bw, "\\subsection*{Solutions, basis functions and the sparsity of M}\n")
		for _, f := range b.Solutions {
			writeFigureLaTeX(bw, f)
		}
		fmt.Fprintf(bw, "\\clearpage\n")
	}
	return bw.Flush()
}

func mapStrings(s []string, f func(string) string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = f(v)
	}
	return out
}

// writeFigureLaTeX writes a figure environment, or a line saying why the
// figure is missing. The file is named without extension: pdflatex takes
// the PDF when both exist.
func writeFigureLaTeX(w io.Writer, f FigureEntry) {
	if !f.Written() {
		fmt.Fprintf(w, "\\noindent\\emph{Figure %s (%s): %s}\\par\\medskip\n", escapeLaTeX(f.Name), escapeLaTeX(f.Caption), escapeLaTeX(strings.TrimSpace(f.Note)))
		return
	}
	base := filepath.ToSlash(filepath.Join(FigureDir, f.Name))
	caption := capital(f.Caption)
	if f.Note != "" {
		caption += ". " + f.Note
	}
	fmt.Fprintf(w, "\\begin{figure}[ht]\n\\centering\n\\reprofig{\\reprodir/%s}\n", base)
	fmt.Fprintf(w, "\\caption{%s}\n\\label{repro:fig:%s}\n\\end{figure}\n", escapeLaTeX(caption), labelSafe(f.Name))
}
