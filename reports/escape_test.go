package reports

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"elmfbpinn/experiments"
	"elmfbpinn/study"
)

// hostile are strings a user controls (result files' env, the commit, the
// CPU name, paths) written to break out of a Markdown cell or a LaTeX
// argument.
var hostile = []string{
	"a|b", "e_L1 *x* __y__", "<script>alert(1)</script>", "`code` ``x``", "[link](http://x)", "&lt;&amp;",
	"line\nbreak\r\n# heading", "tab\there", "\x1b[31mred\x1b[0m", "back\\slash\\|", "~~strike~~",
	"100% $x$ #1 {a} ^b ~c _d &e \\f", "\\end{document}", "\\input{/etc/passwd}", "caf\xe9", "κ ω —",
	"go1.26\u202e1.og", "zero\u200bwidth", "line\u2028sep", "\ufeffbom", // bidi and invisible (issue 33)
}

// unescapedMarkdown returns the special characters of s that are not
// backslash-escaped, and whether s has a control character or a hidden
// one (bidi, invisible: reveal).
func unescapedMarkdown(s string) (bad []rune, ctrl bool) {
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		switch {
		case rs[i] == '\\' && i+1 < len(rs):
			i++
		case strings.ContainsRune(mdSpecial, rs[i]):
			bad = append(bad, rs[i])
		case rs[i] < 0x20 || rs[i] == 0x7f || Hidden(rs[i]):
			ctrl = true
		}
	}
	return bad, ctrl
}

// TestEscapeMarkdown: every special character of Markdown comes out
// escaped, line breaks and control characters never survive, and a few
// exact cases.
func TestEscapeMarkdown(t *testing.T) {
	exact := []struct{ in, want string }{
		{"plain text, 1.5", "plain text, 1.5"},
		{"a|b", `a\|b`},
		{"e_L1 < 0.05", `e\_L1 \< 0.05`},
		{"`x`", "\\`x\\`"},
		{`\|`, `\\\|`},
		{"a\nb", "a b"},
		{"\x1b[1m", `?\[1m`},
	}
	for i, tc := range exact {
		if got := escapeMarkdown(tc.in); got != tc.want {
			t.Errorf("case %d: escapeMarkdown(%q) = %q, want %q", i, tc.in, got, tc.want)
		}
	}
	for i, s := range hostile {
		got := escapeMarkdown(s)
		if bad, ctrl := unescapedMarkdown(got); len(bad) > 0 || ctrl {
			t.Errorf("hostile %d: escapeMarkdown(%q) = %q leaves %q unescaped (control characters: %v)", i, s, got, string(bad), ctrl)
		}
	}
}

// TestCodeSpan: a code span shows its text verbatim whatever backticks it
// holds, and never breaks a table cell or a line.
func TestCodeSpan(t *testing.T) {
	cases := []struct{ in, want string }{
		{"0123456789ab", "`0123456789ab`"},
		{"a`b", "``a`b``"},
		{"`a", "`` `a ``"},
		{"a``b`", "``` a``b` ```"},
		{"a|b", "`a\\|b`"},
		{"a\nb", "`a?b`"},
	}
	for i, tc := range cases {
		if got := codeSpan(tc.in); got != tc.want {
			t.Errorf("case %d: codeSpan(%q) = %q, want %q", i, tc.in, got, tc.want)
		}
	}
}

// latexLeft returns what is left of LaTeX output once every escape
// sequence escapeLaTeX writes is removed: it must hold no special character.
func latexLeft(s string) string {
	var seqs []string
	for _, v := range latexRunes {
		seqs = append(seqs, v)
	}
	slices.SortFunc(seqs, func(a, b string) int { return len(b) - len(a) })
	for _, q := range seqs {
		s = strings.ReplaceAll(s, q, "")
	}
	return s
}

// TestEscapeLaTeXHostile: once its escapes are removed, escaped text holds none of
// LaTeX's special characters, no control character and only ASCII.
func TestEscapeLaTeXHostile(t *testing.T) {
	for i, s := range hostile {
		got := escapeLaTeX(s)
		left := latexLeft(got)
		if strings.ContainsAny(left, "\\{}$&#%_^~<>|\n\r\t\x1b") {
			t.Errorf("hostile %d: escapeLaTeX(%q) = %q leaves specials in %q", i, s, got, left)
		}
		for _, r := range got {
			if r > 0x7e || r < 0x20 {
				t.Errorf("hostile %d: escapeLaTeX(%q) = %q has %U", i, s, got, r)
			}
		}
	}
}

// TestHostileProvenance writes a report whose provenance (commit, Go, CPU)
// and results' env (commit, Go, CPU, host) are hostile strings: every
// provenance row of REPORT.md stays one table row of two cells with nothing
// unescaped, and report.tex holds no unescaped special from them.
func TestHostileProvenance(t *testing.T) {
	tables, res := reportTables(t)
	i := 0
	for _, r := range res {
		h := hostile[i%len(hostile)]
		r.Env.Commit, r.Env.GoVersion, r.Env.CPU, r.Env.Host = h, h, h, h
		i++
	}
	dir := t.TempDir()
	pv := Provenance{Commit: "abc`| <b>x</b>\n# h", GoVersion: "go1|2_3 *", CPU: "Intel* <i>\n| x | y"}
	if _, err := Report(dir, tables, res, &Options{Tier: experiments.Full, NoSolutions: true, Provenance: pv, Formats: []string{FormatMarkdown, FormatLaTeX}}); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, "REPORT.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(md)
	start := strings.Index(text, "## Provenance")
	end := strings.Index(text, "## At a glance")
	if start < 0 || end < start {
		t.Fatalf("REPORT.md has no provenance section")
	}
	for _, line := range strings.Split(strings.TrimSpace(text[start:end]), "\n") {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| |") {
			continue
		}
		// A row is "| name | value |": three unescaped pipes.
		var at []int
		rs := []rune(line)
		for k := 0; k < len(rs); k++ {
			if rs[k] == '\\' {
				k++
				continue
			}
			if rs[k] == '|' {
				at = append(at, k)
			}
		}
		if len(at) != 3 {
			t.Errorf("provenance row %q has %d cell separators, want 3", line, len(at))
			continue
		}
		value := strings.TrimSpace(string(rs[at[1]+1 : at[2]]))
		if strings.HasPrefix(value, "`") {
			continue // a code span shows its text verbatim
		}
		if bad, ctrl := unescapedMarkdown(value); len(bad) > 0 || ctrl {
			t.Errorf("provenance row %q leaves %q unescaped", line, string(bad))
		}
	}
	// No bidi or invisible character reaches any Markdown file raw (the
	// tables' "Timed on" lines hold the CPUs too).
	mds, _ := filepath.Glob(filepath.Join(dir, "*.md"))
	if len(mds) < 2 {
		t.Fatalf("Markdown files %v", mds)
	}
	for _, f := range mds {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if i := strings.IndexFunc(string(b), Hidden); i >= 0 {
			t.Errorf("%s holds a hidden character raw at byte %d: %q", f, i, string(b)[max(0, i-20):min(len(b), i+20)])
		}
	}
	tex, err := os.ReadFile(filepath.Join(dir, "report.tex"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(tex), "\n") {
		if !strings.HasPrefix(line, "\\item Re") {
			continue
		}
		for _, bad := range []string{"\\end{document}", "\\input{/etc", "<b>", "$x$", "\x1b"} {
			if strings.Contains(line, bad) {
				t.Errorf("report.tex line %q holds %q unescaped", line, bad)
			}
		}
	}
}

// TestUnsafeTableID: table ids become file names and LaTeX \input paths,
// which cannot be escaped, so Report refuses any but plain names.
func TestUnsafeTableID(t *testing.T) {
	for _, id := range []string{"a/b", "../x", "x y", "a`b", "a}b", "a\nb", "-x", ".x", ""} {
		tab := table(t, "osc-baseline")
		tab.ID = id
		if _, err := Report(t.TempDir(), []*experiments.Table{tab}, nil, &Options{NoSolutions: true, Formats: []string{FormatMarkdown}}); err == nil {
			t.Errorf("table id %q accepted", id)
		}
	}
}

// TestOutputHygiene checks the CSV and Markdown forms of hostile text from
// results (issue 33, defects 11 and 12): a cell a spreadsheet would
// evaluate gets a leading quote, bidi and invisible characters show as
// their escapes, and text that is safe is left as it is.
func TestOutputHygiene(t *testing.T) {
	cases := []struct {
		in, csv, md string
	}{
		{`=HYPERLINK("http://x","y")`, `'=HYPERLINK("http://x","y")`, `=HYPERLINK("http://x","y")`},
		{"-1+1", "'-1+1", "-1+1"},
		{"+cmd", "'+cmd", "+cmd"},
		{"@SUM(A1)", "'@SUM(A1)", "@SUM(A1)"},
		{"\tx", "?x", " x"}, // the tab is a control character first
		{"go1.26\u202e1.og", `go1.26\u202e1.og`, `go1.26\\u202e1.og`},
		{"ab\u200bc", `ab\u200bc`, `ab\\u200bc`},
		{"line\u2028two", `line\u2028two`, `line\\u2028two`},
		{"\ufeffbom", `\ufeffbom`, `\\ufeffbom`},
		{"AMD EPYC 7B13", "AMD EPYC 7B13", "AMD EPYC 7B13"},
		{"a=b", "a=b", "a=b"},
		{"", "", ""},
	}
	for i, c := range cases {
		if got := csvText(c.in); got != c.csv {
			t.Errorf("case %d: csvText(%q) = %q, want %q", i, c.in, got, c.csv)
		}
		if got := escapeMarkdown(c.in); got != c.md {
			t.Errorf("case %d: escapeMarkdown(%q) = %q, want %q", i, c.in, got, c.md)
		}
		if got := codeSpan(c.in); strings.ContainsFunc(got, Hidden) {
			t.Errorf("case %d: codeSpan(%q) = %q holds a hidden character", i, c.in, got)
		}
	}
}

// TestRunsCSVHostile writes runs.csv of results whose env holds a formula
// and a bidi override: the text cells are neutralised, the numbers (the
// errors, times) are written as numbers.
func TestRunsCSVHostile(t *testing.T) {
	tables, res := reportTables(t)
	for _, r := range res {
		r.Env.Commit, r.Env.GoVersion, r.Env.CPU = `=HYPERLINK("http://evil","x")`, "-1+1", "EPYC\u202eCYPE"
	}
	st, err := study.NewStudy(tables[:1], experiments.Full, res)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := RunsCSV(&buf, st); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := func(name string) int { return slices.Index(CSVHeader, name) }
	for _, r := range rows[1:] {
		if r[col("commit")] != `'=HYPERLINK("http://evil","x")` || r[col("go_version")] != "'-1+1" || r[col("cpu")] != `EPYC\u202eCYPE` {
			t.Errorf("run %s: commit %q, go %q, cpu %q; want them neutralised", r[0], r[col("commit")], r[col("go_version")], r[col("cpu")])
		}
		if _, err := strconv.ParseFloat(r[col("time_total_s")], 64); err != nil {
			t.Errorf("run %s: time %q is not a number", r[0], r[col("time_total_s")])
		}
	}
}

// TestScriptText: figure text (captions, titles) in LaTeX and Markdown:
// scripts with their base in math as the tables write them ($e_{L_1}$),
// everything else escaped; a hostile script stays inside \mbox.
func TestScriptText(t *testing.T) {
	for _, tc := range []struct{ in, tex, md string }{
		{"test e_{L1} against iteration", `test $e_{L_1}$ against iteration`, `test e\_L1 against iteration`},
		{"scaling ω_{0} with J", `scaling $\omega_{0}$ with J`, "scaling ω0 with J"},
		{"n_{ω} = 4", `n_{\omega}`, `n\_ω = 4`},
		{"floored at 10^{−5}", `floored at $10^{-5}$`, `floored at 10^−5`},
		{"log_{10} |u_{pred}|", `$\mathrm{log}_{10}$ \textbar{}$u_{\mathrm{pred}}$\textbar{}`, `log10 \|u\_pred\|`},
		{"a_{$\\x} 100%", `$a_{\mbox{\$}\mbox{\textbackslash{}}x}$ 100\%`, `a\_$\\x 100%`},
		{"min–max, no script_", `min--max, no script\_`, `min–max, no script\_`},
	} {
		if got := scriptTeX(tc.in); !strings.Contains(got, tc.tex) {
			t.Errorf("scriptTeX(%q) = %q, want it to hold %q", tc.in, got, tc.tex)
		}
		if got := scriptMarkdown(tc.in); got != tc.md {
			t.Errorf("scriptMarkdown(%q) = %q, want %q", tc.in, got, tc.md)
		}
	}
	for i, s := range hostile { // no script: as escapeLaTeX
		if !scriptRe.MatchString(s) && scriptTeX(s) != escapeLaTeX(s) {
			t.Errorf("hostile %d: scriptTeX(%q) = %q, want escapeLaTeX's %q", i, s, scriptTeX(s), escapeLaTeX(s))
		}
	}
}
