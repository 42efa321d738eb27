package reports

import (
	"bytes"
	"encoding/csv"
	"image"
	"image/png"
	"maps"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"elmfbpinn/core/metric"
	"elmfbpinn/experiments"
	"elmfbpinn/study"
)

// reportTables are the tables of the end-to-end report test: real results
// for osc-baseline and osc-K (no histories: their convergence figures are
// skipped) and osc-scaling (histories for ω0 = 20, 40, one and three
// levels), hand-made weight-scaling results, and laplace-K without any
// result.
func reportTables(t *testing.T) ([]*experiments.Table, map[string]*experiments.Result) {
	t.Helper()
	var tables []*experiments.Table
	for _, id := range []string{"osc-baseline", "osc-K", "osc-scaling", "laplace-K", "weight-scaling"} {
		tables = append(tables, table(t, id))
	}
	res := realResults(t, "osc-baseline", "osc-K", "osc-scaling")
	maps.Copy(res, weightResults(tables[4]))
	return tables, res
}

// fixedProvenance makes the index reproducible.
var fixedProvenance = Provenance{Commit: "0123456789ab", GoVersion: "go1.26.0", CPU: "Test CPU",
	Date: time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC)}

// TestReport writes the whole report (all formats but the in-process
// solves) and checks the files: REPORT.md, report.tex and runs.csv against
// golden files (testdata/report/), the PNGs decode at the figure's size and
// the PDFs are PDFs, figures without data are skipped with their note.
func TestReport(t *testing.T) {
	tables, res := reportTables(t)
	dir := t.TempDir()
	b, err := Report(dir, tables, res, &Options{Tier: experiments.Full, NoSolutions: true, Provenance: fixedProvenance})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"REPORT.md", "report.tex", "runs.csv"} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		checkGolden(t, filepath.Join("testdata", "report", name+".golden"), got)
	}
	for _, name := range []string{"SUMMARY.md", "report-standalone.tex", "osc-K.md", "osc-K.tex", "weight-scaling.tex"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Error(err)
		}
	}

	figs := map[string]FigureEntry{}
	for _, tr := range b.Tables {
		for _, f := range tr.Figures {
			figs[f.Name] = f
		}
	}
	drawn := []string{"osc-baseline-final", "osc-K-final", "osc-baseline-convergence", "osc-K-convergence",
		"osc-scaling-convergence", "osc-scaling-final", "weight-scaling-final", "weight-scaling-convergence"}
	skipped := map[string]string{
		"laplace-K-convergence": "Skipped: no row can be drawn: 30 rows with 0/5 seeds (PINN, FBPINN, ELM-FBPINN)",
		"laplace-K-final":       "Skipped: no row can be drawn: 30 rows with 0/5 seeds (PINN, FBPINN, ELM-FBPINN)",
	}
	// The hand-made weight-scaling results of R = 0.125 and 8 have no
	// history: their curves are left out, and the note says so.
	if f := figs["weight-scaling-convergence"]; !strings.Contains(f.Note, "2 rows with no error history recorded") {
		t.Errorf("figure weight-scaling-convergence: note %q, want the rows without a history named", f.Note)
	}
	for _, name := range drawn {
		f, ok := figs[name]
		if !ok || !f.Written() {
			t.Errorf("figure %s not drawn: %+v", name, f)
			continue
		}
		for _, format := range []string{FormatPNG, FormatPDF} {
			path := filepath.Join(dir, FigureDir, name+"."+format)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Error(err)
				continue
			}
			if format == FormatPDF {
				if !bytes.HasPrefix(data, []byte("%PDF")) {
					t.Errorf("%s is not a PDF", path)
				}
				continue
			}
			img, err := png.Decode(bytes.NewReader(data))
			if err != nil {
				t.Errorf("%s: %v", path, err)
				continue
			}
			if w := img.Bounds().Dx(); w < 600 || w > 2400 {
				t.Errorf("%s: %d pixels wide", path, w)
			}
		}
	}
	for name, why := range skipped {
		f, ok := figs[name]
		if !ok || f.Written() || !strings.Contains(f.Note, why) {
			t.Errorf("figure %s: written %v, note %q; want skipped with %q", name, f.Written(), f.Note, why)
		}
	}
	if b.Counts.Match != 1+6+4 {
		t.Errorf("%d matches, want the 11 of osc-baseline, osc-K and osc-scaling's ω0 = 20, 40 rows", b.Counts.Match)
	}
}

// TestReportFormats: -format md writes Markdown only (no figures folder);
// csv alone writes runs.csv only.
func TestReportFormats(t *testing.T) {
	tables, res := reportTables(t)
	for _, tc := range []struct {
		formats []string
		want    []string
	}{
		{[]string{FormatMarkdown}, []string{"REPORT.md", "SUMMARY.md", "laplace-K.md", "osc-K.md", "osc-baseline.md", "osc-scaling.md", "weight-scaling.md"}},
		{[]string{FormatCSV}, []string{"runs.csv"}},
	} {
		dir := t.TempDir()
		if _, err := Report(dir, tables, res, &Options{Formats: tc.formats, Provenance: fixedProvenance}); err != nil {
			t.Fatal(err)
		}
		entries, _ := os.ReadDir(dir)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		if !slices.Equal(names, tc.want) {
			t.Errorf("formats %v: files %q, want %q", tc.formats, names, tc.want)
		}
	}
	for _, tc := range []struct {
		in   string
		want []string
		bad  bool
	}{
		{"", AllFormats, false},
		{"all", AllFormats, false},
		{"md, PNG,md", []string{"md", "png"}, false},
		{"tex,markdown", []string{"latex", "md"}, false},
		{"md,docx", nil, true},
	} {
		got, err := ParseFormats(tc.in)
		if (err != nil) != tc.bad || !tc.bad && !slices.Equal(got, tc.want) {
			t.Errorf("ParseFormats(%q) = %q, %v; want %q (error %v)", tc.in, got, err, tc.want, tc.bad)
		}
	}
}

// TestRunsCSV checks the run table: one row per run with a result, the
// κ-only runs without an error, and a run that two tables share listed once
// with both.
func TestRunsCSV(t *testing.T) {
	tables, res := reportTables(t)
	// The real osc-baseline ELM runs are R = 1 of the weight-scaling table
	// too.
	var buf bytes.Buffer
	st, err := study.NewStudy([]*experiments.Table{tables[0], tables[4]}, experiments.Full, res)
	if err != nil {
		t.Fatal(err)
	}
	if err := RunsCSV(&buf, st); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rows[0], CSVHeader) {
		t.Fatalf("header %q", rows[0])
	}
	col := func(name string) int { return slices.Index(CSVHeader, name) }
	// osc-baseline: 5 solves + 1 κ run, shared with weight-scaling R = 1;
	// weight-scaling: R = 0.125 and 8 (5 solves + κ each), laplace R =
	// 0.125 (2 seeds).
	if len(rows)-1 != 6+12+2 {
		t.Errorf("%d runs, want 20", len(rows)-1)
	}
	shared, kappa := 0, 0
	for _, r := range rows[1:] {
		if r[col("tables")] == "osc-baseline weight-scaling" {
			shared++
		}
		if r[col("kappa_only")] == "true" {
			kappa++
			if r[col("eL1")] != "" || r[col("kappa")] == "" {
				t.Errorf("κ run %s: eL1 %q kappa %q", r[0], r[col("eL1")], r[col("kappa")])
			}
		} else if r[col("eL1")] == "" {
			t.Errorf("solve %s without eL1", r[0])
		}
	}
	if shared != 6 || kappa != 3 {
		t.Errorf("%d shared runs, %d κ runs; want 6 and 3", shared, kappa)
	}
}

// TestReportLaTeXCompiles compiles the report's standalone document
// (report.tex with every table and figure) with pdflatex, once with the
// PDF figures and once with the PNGs alone, and reads the log: no overfull
// box, no float too large for a page, and every figure drawn is placed at
// its drawn size (the line \reprofig writes: drawn = placed = the
// figure's W and H, the PNGs at the size their pHYs chunk gives), from
// the file of the format asked for. TestLaTeXCompiles (latex_test.go) does
// the tables alone with booktabs. Skipped without pdflatex and in -short
// mode.
func TestReportLaTeXCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("runs pdflatex")
	}
	if _, err := exec.LookPath("pdflatex"); err != nil {
		t.Skip("pdflatex not installed: the compiled report is not checked")
	}
	tables, res := reportTables(t)
	for _, format := range []string{FormatPDF, FormatPNG} {
		rep := t.TempDir()
		b, err := Report(rep, tables, res, &Options{Formats: []string{FormatLaTeX, format}, NoSolutions: true,
			Provenance: fixedProvenance})
		if err != nil {
			t.Fatal(err)
		}
		pdflatex(t, rep, "report-standalone.tex")
		log, err := os.ReadFile(filepath.Join(rep, "report-standalone.log"))
		if err != nil {
			t.Fatal(err)
		}
		checkLaTeXLog(t, format, string(log), b)
	}
}

// reprofigLine is the line \reprofig writes to the log for each figure.
var reprofigLine = regexp.MustCompile(`reprofig \./figures/([^:]+): drawn ([0-9.]+)pt x ([0-9.]+)pt, placed ([0-9.]+)pt x ([0-9.]+)pt`)

// checkLaTeXLog checks the log of a compiled report whose figures are in
// one format: no overfull box, no float too large, and every written
// figure of b placed once at its drawn size from its file in that format.
func checkLaTeXLog(t *testing.T, format, log string, b *Built) {
	t.Helper()
	for _, bad := range []string{"Overfull \\hbox", "Overfull \\vbox", "Float too large"} {
		if i := strings.Index(log, bad); i >= 0 {
			t.Errorf("%s figures: the log says %q", format, log[i:min(len(log), i+200)])
		}
	}
	placed := map[string][]string{}
	for _, m := range reprofigLine.FindAllStringSubmatch(log, -1) {
		placed[m[1]] = m[2:]
	}
	n := 0
	for _, tr := range b.Tables {
		for _, f := range tr.Figures {
			if !f.Written() {
				continue
			}
			n++
			m, ok := placed[f.Name]
			if !ok {
				t.Errorf("%s figures: %s not placed by \\reprofig", format, f.Name)
				continue
			}
			if m[0] != m[2] || m[1] != m[3] {
				t.Errorf("%s figures: %s drawn %s x %s pt, placed %s x %s pt", format, f.Name, m[0], m[1], m[2], m[3])
			}
			// TeX points (72.27 an inch) from the figure's big points (72),
			// a PNG to within a pixel.
			w, _ := strconv.ParseFloat(m[0], 64)
			h, _ := strconv.ParseFloat(m[1], 64)
			tol := 0.05
			if format == FormatPNG {
				tol = 72.27 / pngDPI
			}
			if want := f.W.Points() * 72.27 / 72; math.Abs(w-want) > tol {
				t.Errorf("%s figures: %s placed %.2f pt wide, want its drawn %.2f pt", format, f.Name, w, want)
			}
			if want := f.H.Points() * 72.27 / 72; math.Abs(h-want) > tol {
				t.Errorf("%s figures: %s placed %.2f pt high, want its drawn %.2f pt", format, f.Name, h, want)
			}
			if file := "figures/" + f.Name + "." + format; !strings.Contains(log, file) {
				t.Errorf("%s figures: the log names no %s", format, file)
			}
		}
	}
	if n == 0 || len(placed) != n {
		t.Errorf("%s figures: %d placed, want the %d written (and some)", format, len(placed), n)
	}
}

func pdflatex(t *testing.T, dir, file string) {
	t.Helper()
	cmd := exec.Command("pdflatex", "-halt-on-error", "-interaction=nonstopmode", file)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "max_print_line=100000") // log lines unbroken
	out, err := cmd.CombinedOutput()
	if err != nil {
		lines := strings.Split(string(out), "\n")
		t.Fatalf("pdflatex %s: %v\n%s", file, err, strings.Join(lines[max(0, len(lines)-30):], "\n"))
	}
	pdf := strings.TrimSuffix(file, ".tex") + ".pdf"
	if _, err := os.Stat(filepath.Join(dir, pdf)); err != nil {
		t.Errorf("no %s: %v", pdf, err)
	}
}

// TestPDFImageOrientation draws a sparsity raster with entries in its top
// quarter only, as PNG and as PDF (rasterised by pdftoppm): the
// block's colour must sit at the same height in both. gonum/plot's PDF
// canvas draws images upside down unless straightAlpha turns them. Skipped
// without pdftoppm.
func TestPDFImageOrientation(t *testing.T) {
	if _, err := exec.LookPath("pdftoppm"); err != nil {
		t.Skip("pdftoppm not installed")
	}
	sol, err := solve(experiments.Spec{Problem: experiments.Oscillator, Model: experiments.ELM, Param: 20,
		J: []int{1, 4}, K: 4, Delta: 2.9, R: 1, Iters: 10, Coef: true})
	if err != nil {
		t.Fatal(err)
	}
	// Keep the level-2 entries of the top quarter of the rows only.
	r := sol.Sparsity(100, 100)
	for i, l := range r.Level {
		if l == 0 || i/r.W > r.H/4 {
			r.Level[i] = -1
		}
	}
	fig := SparsityPlot(sol, r)
	centroid := func(img image.Image) float64 {
		b := img.Bounds()
		var sum, n float64
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				cr, cg, cb, _ := img.At(x, y).RGBA()
				if cb>>8 > 150 && cr>>8 < 80 && cg>>8 < 160 { // the blue of level 2
					sum += float64(y-b.Min.Y) / float64(b.Dy())
					n++
				}
			}
		}
		if n == 0 {
			t.Fatal("no blue pixels")
		}
		return sum / n
	}
	pngData, err := fig.Bytes(FormatPNG)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(pngData))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	pdfData, err := fig.Bytes(FormatPDF)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "f.pdf"), pdfData, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("pdftoppm", "-png", "-r", "72", "-singlefile", "f.pdf", "f")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v\n%s", err, out)
	}
	raster, err := os.ReadFile(filepath.Join(dir, "f.png"))
	if err != nil {
		t.Fatal(err)
	}
	pimg, err := png.Decode(bytes.NewReader(raster))
	if err != nil {
		t.Fatal(err)
	}
	a, b := centroid(img), centroid(pimg)
	if a > 0.4 || b > 0.4 || a-b > 0.05 || b-a > 0.05 {
		t.Errorf("the block sits at %.2f of the PNG's height and %.2f of the PDF's; want both in the top half and alike", a, b)
	}
}

// TestFourthProblem: a problem added to the registry with a table of its
// own is reported without any change to this package: its parameter is
// named in the tables and figures as the registry says, its figures are
// drawn and the claims leave its table alone (it is not declared).
func TestFourthProblem(t *testing.T) {
	osc, err := experiments.ProblemNamed(experiments.Oscillator)
	if err != nil {
		t.Fatal(err)
	}
	wave := *osc
	wave.Name, wave.Title = "wave", "wave problem"
	wave.Param = experiments.Param{Name: "kappa", Flag: "kappa", Text: "ϰ", TeX: `\varkappa`, Figure: "ϰ"}
	saved := experiments.Problems
	experiments.Problems = append(slices.Clone(saved), &wave)
	defer func() { experiments.Problems = saved }()

	tab := &experiments.Table{ID: "wave-scaling", Title: "Wave, scaling kappa with J", Kind: experiments.Scaling}
	for _, p := range []float64{20, 40, 80} {
		tab.Rows = append(tab.Rows, experiments.Row{Problem: "wave", Model: experiments.ELM, Param: p,
			J: []int{int(p) / 2}, K: 4, R: 1, Delta: 2.9})
	}
	res := map[string]*experiments.Result{}
	for i := range tab.Rows {
		for seed := range 5 {
			put(res, tab, i, seed, 1e-4*float64(i+1), 1)
			res[tab.Rows[i].Spec(seed).Key()].History = []metric.Record{{Iter: 0, EL1: 1}, {Iter: 100, EL1: 1e-4 * float64(i+1)}}
		}
	}
	dir := t.TempDir()
	b, err := Report(dir, []*experiments.Table{tab}, res, &Options{Formats: []string{FormatMarkdown, FormatLaTeX, FormatPNG},
		Provenance: fixedProvenance})
	if err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(filepath.Join(dir, "wave-scaling.md"))
	tex, _ := os.ReadFile(filepath.Join(dir, "wave-scaling.tex"))
	if !strings.Contains(string(md), " (ϰ, J) |") || !strings.Contains(string(tex), `$(\varkappa,J)$`) {
		t.Errorf("the parameter is not named as the registry says:\n%s\n%s", md, tex)
	}
	for _, f := range b.Tables[0].Figures {
		if !f.Written() {
			t.Errorf("figure %s not drawn: %s", f.Name, f.Note)
		}
	}
	if fig := Final(b.Tables[0].TableStudy); fig.XLabel != "ϰ (J scaled with it)" || len(fig.Series) != 1 {
		t.Errorf("final-error figure: axis %q, %d series", fig.XLabel, len(fig.Series))
	}
	if c := Convergence(b.Tables[0].TableStudy); len(c.Panels) != 3 || c.Panels[0].Title != "ϰ = 20, J = 10" {
		t.Errorf("convergence panels %+v", c.Panels)
	}
}

// TestReportFileTables: a report of an experiment file's table alone has no
// paper sections; its provenance names the file with its SHA-256, its rows
// are judged against their reference values by the paper's rule (a row
// without any is not judged), and every column and note says "reference",
// not "paper".
func TestReportFileTables(t *testing.T) {
	const file = `[[table]]
id = "osc-K-mine"
title = "Mine"
kind = "K"
problem = "oscillator"
[[table.rows]]
model = "elm"
K = [20, 24]
ref = [{ median = 1e-4, range = 5e-5, time = 5, source = "Earlier, Table 9" }, { median = 1e-2, range = 1e-3, source = "Earlier, Table 9" }]
[[table.rows]]
model = "elm"
K = 32
`
	ts, err := experiments.ParseFile("mine.toml", []byte(file))
	if err != nil {
		t.Fatal(err)
	}
	tab := ts[0]
	res := map[string]*experiments.Result{}
	for i := range tab.Rows {
		for seed := range 5 {
			put(res, tab, i, seed, 1.1e-4, 1)
		}
	}
	dir := t.TempDir()
	b, err := Report(dir, ts, res, &Options{Tier: experiments.Full, NoSolutions: true, LaTeXPaper: true, Provenance: fixedProvenance,
		Formats: []string{FormatMarkdown, FormatLaTeX}})
	if err != nil {
		t.Fatal(err)
	}
	if k := b.Counts; k.Match != 1 || k.Off != 1 || k.Unjudged != 1 {
		t.Errorf("counts %+v, want 1 match (K=20), 1 off (K=24), 1 not judged (K=32)", k)
	}
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	index, md, tex := read("REPORT.md"), read("osc-K-mine.md"), read("osc-K-mine.tex")
	for _, c := range []struct {
		name, text, want string
		present          bool
	}{
		{"REPORT.md", index, "# Experiment report", true},
		{"REPORT.md", index, "| experiment file | `mine.toml`, SHA-256 `" + tab.Source.SHA256 + "` |", true},
		{"REPORT.md", index, "qualitative summary", false},
		{"REPORT.md", index, "AMD EPYC 7742", false},
		{"REPORT.md", index, "e_L1 ours 1.1±0.0e-04, reference 1.0±0.1e-02", true},
		{"osc-K-mine.md", md, "Declared in `mine.toml` (line 2; SHA-256", true},
		{"osc-K-mine.md", md, "e_L1 reference", true},
		{"osc-K-mine.md", md, "1 without reference values", true},
		{"osc-K-mine.md", md, "no reference values for this row in mine.toml: not judged", true},
		{"osc-K-mine.md", md, "the reference values give no time", true},
		{"osc-K-mine.md", md, "Reference values from: Earlier, Table 9.", true},
		{"osc-K-mine.md", md, "e_L1 paper", false},
		{"osc-K-mine.md", md, "Paper table", false},
		{"osc-K-mine.md", md, "with the paper's", false},
		{"osc-K-mine.tex", tex, `$e_{L_1}$ (ref.)`, true},
		{"osc-K-mine.tex", tex, "(paper)", false},
		{"osc-K-mine.tex", tex, "paper's", false},
	} {
		if strings.Contains(c.text, c.want) != c.present {
			t.Errorf("%s: contains %q is %v, want %v", c.name, c.want, !c.present, c.present)
		}
	}
}

// TestReproducibleProvenance: a report made from its results alone
// (-reproducible) says once that the writer is not recorded, dated by the
// newest result, instead of "by commit not recorded (...) (not recorded
// (...)) on not recorded (...)" or "unknown".
func TestReproducibleProvenance(t *testing.T) {
	tables, res := reportTables(t)
	dir := t.TempDir()
	prov := Provenance{FromResults: true, Date: fixedProvenance.Date, Commit: "ignored", CPU: "ignored"}
	if _, err := Report(dir, tables[:1], res, &Options{Formats: []string{FormatMarkdown, FormatLaTeX}, Provenance: prov}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ file, want string }{
		{"REPORT.md", "| report dated | 2026-01-02 03:04 UTC, the newest result's |\n| written by | not recorded: made from the results alone (`-reproducible`)"},
		{"report.tex", `\item Report dated 2026-01-02T03:04:00Z, the newest result's: made from the results alone (\texttt{-reproducible}), so the commit, Go and CPU that wrote it are not recorded;`},
	} {
		b, err := os.ReadFile(filepath.Join(dir, tc.file))
		if err != nil {
			t.Fatal(err)
		}
		got := string(b)
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s lacks %q", tc.file, tc.want)
		}
		for _, bad := range []string{"ignored", "unknown", "by commit", "report written"} {
			if strings.Contains(got, bad) {
				t.Errorf("%s says %q", tc.file, bad)
			}
		}
	}
}

// TestReportSolverTable: a table of kind solver is rendered as a study of
// solvers: its own columns (the error of the returned coefficients, the
// iterations, the set-up, the time to the paper's median and its ratio to
// forced LSQR's whole time) and one figure, the error against wall time.
func TestReportSolverTable(t *testing.T) {
	const file = `[[table]]
id = "solv"
kind = "solver"
description = "Two solvers of one system."
kappa = false
[[table.rows]]
model = "elm"
problem = "oscillator"
solver = ["lsqr-forced", "lsqr-block"]
ref = [{ median = 1e-3, range = 1e-4, source = "p" }, { median = 1e-3, range = 1e-4, source = "p" }]
`
	ts, err := experiments.ParseFile("solv.toml", []byte(file))
	if err != nil {
		t.Fatal(err)
	}
	tab := ts[0]
	res := map[string]*experiments.Result{}
	for i, times := range [][3]float64{{0.1, 5, 10}, {0.5, 1, 2}} { // forced: reaches at 5 s of 10; block: at 1 s
		for seed := range 5 {
			s := tab.Rows[i].Spec(seed)
			res[s.Key()] = &experiments.Result{Key: s.Key(), Spec: s, EL1: 9e-4, EL1Final: 9e-4,
				History: []metric.Record{{Iter: 0, EL1: 1, T: times[0]}, {Iter: 100, EL1: 9e-4, T: times[1]}, {Iter: 15000, EL1: 9e-4, T: times[2]}},
				Time:    experiments.Timing{Solve: times[2], Total: times[2]}}
		}
	}
	dir := t.TempDir()
	b, err := Report(dir, ts, res, &Options{Tier: experiments.Full, NoSolutions: true, Provenance: fixedProvenance,
		Formats: []string{FormatMarkdown, FormatLaTeX, FormatPNG}})
	if err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, "solv.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Two solvers of one system.", "| to the paper's median (s, seeds) | forced LSQR / this |", "match (0.90×)",
		"| lsqr-block |", "| 1.0 (5/5) | 10× |", "| 5.0 (5/5) | 2.0× |"} {
		if !strings.Contains(strings.Join(strings.Fields(string(md)), " "), strings.Join(strings.Fields(want), " ")) {
			t.Errorf("solv.md lacks %q:\n%s", want, md)
		}
	}
	figs := b.Tables[0].Figures
	if len(figs) != 1 || figs[0].Name != "solv-time" || !figs[0].Written() {
		t.Errorf("figures %+v, want solv-time drawn", figs)
	}
}
