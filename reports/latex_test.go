package reports

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	beginEnd = regexp.MustCompile(`\\(begin|end)\{([^}]*)\}`)
	tabular  = regexp.MustCompile(`\\begin\{tabular\}\{([^}]*)\}`)
)

// unescapedAmps counts the column separators of a LaTeX row.
func unescapedAmps(line string) int {
	n := 0
	for i := range len(line) {
		if line[i] == '&' && (i == 0 || line[i-1] != '\\') {
			n++
		}
	}
	return n
}

// checkLaTeXStructure checks one rendered table: balanced environments, a
// table around a tabular, the three booktabs rules in order, every row with
// as many cells as the column specification, a caption and a label.
func checkLaTeXStructure(t *testing.T, name, tex string) {
	t.Helper()
	var stack []string
	for _, m := range beginEnd.FindAllStringSubmatch(tex, -1) {
		if m[1] == "begin" {
			stack = append(stack, m[2])
			continue
		}
		if len(stack) == 0 || stack[len(stack)-1] != m[2] {
			t.Fatalf("%s: \\end{%s} does not close %v", name, m[2], stack)
		}
		stack = stack[:len(stack)-1]
	}
	if len(stack) != 0 {
		t.Fatalf("%s: unclosed environments %v", name, stack)
	}
	if !strings.Contains(tex, `\begin{table}`) || strings.Count(tex, `\begin{tabular}`) != 1 {
		t.Fatalf("%s: want one tabular inside a table", name)
	}
	spec := tabular.FindStringSubmatch(tex)
	if spec == nil {
		t.Fatalf("%s: no column specification", name)
	}
	cols := len(spec[1])
	top, mid, bot := strings.Index(tex, `\toprule`), strings.Index(tex, `\midrule`), strings.Index(tex, `\bottomrule`)
	if top < 0 || mid < 0 || bot < 0 || !(top < mid && mid < bot) {
		t.Fatalf("%s: booktabs rules missing or out of order (%d, %d, %d)", name, top, mid, bot)
	}
	for _, rule := range []string{`\toprule`, `\midrule`, `\bottomrule`} {
		if strings.Count(tex, rule) != 1 {
			t.Errorf("%s: %s appears %d times", name, rule, strings.Count(tex, rule))
		}
	}
	rows := 0
	for _, line := range strings.Split(tex[top:bot], "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, `\toprule`) || strings.HasPrefix(line, `\midrule`) {
			continue
		}
		rows++
		if !strings.HasSuffix(line, `\\`) {
			t.Errorf("%s: row does not end with \\\\: %s", name, line)
		}
		if got := unescapedAmps(line) + 1; got != cols {
			t.Errorf("%s: %d cells, want %d: %s", name, got, cols, line)
		}
		if strings.Count(line, "$")%2 != 0 {
			t.Errorf("%s: unbalanced $ in %s", name, line)
		}
	}
	if rows < 2 {
		t.Errorf("%s: %d rows including the header", name, rows)
	}
	if !regexp.MustCompile(`\\caption\{[^\n]*reproduced by elmfbpinn, tier \w+\.\}`).MatchString(tex) {
		t.Errorf("%s: no caption", name)
	}
	if !regexp.MustCompile(`\\label\{repro:[a-zA-Z0-9-]+\}`).MatchString(tex) {
		t.Errorf("%s: no label", name)
	}
	for _, r := range tex {
		if r > 0x7e || (r < 0x20 && r != '\n') {
			t.Errorf("%s: non-ASCII character %q", name, r)
			break
		}
	}
}

func TestLaTeXStructure(t *testing.T) {
	for _, c := range goldenCases {
		_, tex := c.render(t)
		checkLaTeXStructure(t, c.name, string(tex))
	}
	wantCols := map[string]int{"osc-baseline.full": 8, "weight-scaling.full": 9}
	// The paper's columns add three: e_L1 (paper), Time (paper), Verdict.
	for name, n := range map[string]int{"osc-baseline.quick": 11, "weight-scaling.full": 12} {
		tex := paperCase(t, name).renderPaper(t)
		if got := len(tabular.FindStringSubmatch(string(tex))[1]); got != n {
			t.Errorf("%s with the paper's columns: %d columns, want %d", name, got, n)
		}
	}
	for _, c := range goldenCases {
		n, ok := wantCols[c.name]
		if !ok {
			continue
		}
		_, tex := c.render(t)
		if got := len(tabular.FindStringSubmatch(string(tex))[1]); got != n {
			t.Errorf("%s: %d columns, want %d", c.name, got, n)
		}
	}
}

// TestLaTeXCompiles inputs every golden case into a minimal document and
// runs pdflatex on it, if pdflatex is installed.
func TestLaTeXCompiles(t *testing.T) {
	pdflatex, err := exec.LookPath("pdflatex")
	if err != nil {
		t.Skip("pdflatex not installed")
	}
	dir := t.TempDir()
	var doc strings.Builder
	doc.WriteString("\\documentclass{article}\n\\usepackage{booktabs}\n\\begin{document}\n")
	for i, c := range goldenCases {
		_, tex := c.render(t)
		name := fmt.Sprintf("t%d.tex", i)
		if err := os.WriteFile(filepath.Join(dir, name), tex, 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&doc, "\\input{%s}\n\\clearpage\n", name)
	}
	for i, name := range paperGoldenCases {
		tex := paperCase(t, name).renderPaper(t)
		file := fmt.Sprintf("p%d.tex", i)
		if err := os.WriteFile(filepath.Join(dir, file), tex, 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&doc, "\\input{%s}\n\\clearpage\n", file)
	}
	doc.WriteString("\\end{document}\n")
	if err := os.WriteFile(filepath.Join(dir, "doc.tex"), []byte(doc.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(pdflatex, "-interaction=nonstopmode", "-halt-on-error", "doc.tex")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("pdflatex: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "doc.pdf")); err != nil {
		t.Fatalf("no PDF: %v", err)
	}
}

func TestEscapeLaTeX(t *testing.T) {
	got := escapeLaTeX(`a_b & 50% #1 $x$ {y} ~z ^w \q κ≤ω — ü`)
	want := `a\_b \& 50\% \#1 \$x\$ \{y\} \~{}z \^{}w \textbackslash{}q $\kappa$$\le$$\omega$ --- ?`
	if got != want {
		t.Errorf("escapeLaTeX:\n got %s\nwant %s", got, want)
	}
}

// TestPmSci checks the paper's notation against strings of its tables.
func TestPmSci(t *testing.T) {
	for _, c := range []struct {
		m, r float64
		want string
	}{
		{0.00011, 5e-05, "1.1±0.5e-04"},   // tab:ch3-harm-p0-results, ELM-FBPINN e_L1
		{0.61, 0.04, "6.1±0.4e-01"},       // PINN e_L1
		{29, 0, "2.9±0.0e+01"},            // PINN time
		{5.4, 0, "5.4±0.0"},               // ELM-FBPINN time
		{0.081, 0.384, "8.1±38.4e-02"},    // laplace PINN: a range larger than the median
		{9.5e-07, 9.6e-07, "9.5±9.6e-07"}, // tab:ch3-harm-j-multiscale
		{130, 0, "1.3±0.0e+02"},
		{9.96e-5, 1e-5, "1.0±0.1e-04"}, // the mantissa's rounding carries into the exponent
		{0, 0, "0.0±0.0"},
	} {
		if got, ok := pmSci(c.m, c.r, "±"); !ok || got != c.want {
			t.Errorf("pmSci(%g, %g) = %q, %v; want %q", c.m, c.r, got, ok, c.want)
		}
	}
	if _, ok := pmSci(math.NaN(), 0, "±"); ok {
		t.Error("pmSci(NaN) ok")
	}
	for x, want := range map[float64]string{107.3: "110", 22.4: "22", 5.87: "5.9", 0.0314: "0.031", 9.96: "10", 1: "1.0"} {
		if got := sig2(x); got != want {
			t.Errorf("sig2(%g) = %q, want %q", x, got, want)
		}
	}
	if sig2(math.NaN()) != "" || sig2(0) != "" {
		t.Error("sig2 of NaN or 0 not empty")
	}
}
