package paperdata

import (
	_ "embed"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

//go:embed tables.tsv
var tablesTSV string

// Model names as they appear in the paper's tables.
const (
	ModelPINN      = "PINN"
	ModelFBPINN    = "FBPINN"
	ModelELMFBPINN = "ELM-FBPINN"
)

// header is the exact first line expected in tables.tsv.
var header = []string{
	"table", "model", "param_name", "param", "J", "h", "K", "delta",
	"kappa", "optimiser", "eL1_median", "eL1_range", "time_mean_s", "time_std_s",
}

// Row is one published row.
type Row struct {
	Table     string  // paper label, e.g. "tab:ch3-harm-p0-results"
	Model     string  // "PINN", "FBPINN", "ELM-FBPINN"
	ParamName string  // "omega0", "omega", "n_omega" ... as in the file
	Param     float64 // value of the problem parameter named by ParamName
	J         []int   // subdomains per level: [20] or [1,5,10]
	H, K      int     // hidden layers h and width/feature count K as in the paper
	Delta     float64 // overlap ratio delta
	Kappa     float64 // condition number; NaN when the paper gives N/A; use HasKappa
	HasKappa  bool
	Optimiser string // "Adam" or "LSQR"

	EL1Median, EL1Range float64 // relative L1 error: median and max-min over 5 seeds
	TimeMean, TimeStd   float64 // seconds
}

// Levels returns the number of levels (len(J)); 1 for a one-level model.
func (r Row) Levels() int { return len(r.J) }

// Multilevel reports whether the row uses more than one level.
func (r Row) Multilevel() bool { return len(r.J) > 1 }

// JString renders r.J like the paper: "20" or "[1,5,10]".
func (r Row) JString() string { return FormatJ(r.J) }

// Bounds returns the Match interval [EL1Median-EL1Range, EL1Median+EL1Range].
func (r Row) Bounds() (lo, hi float64) {
	return r.EL1Median - r.EL1Range, r.EL1Median + r.EL1Range
}

// String is a short identification of the row for reports, e.g.
// "tab:ch3-harm-p0-results ELM-FBPINN omega0=80 J=20 K=12".
func (r Row) String() string {
	return fmt.Sprintf("%s %s %s=%s J=%s K=%d", r.Table, r.Model, r.ParamName,
		strconv.FormatFloat(r.Param, 'g', -1, 64), FormatJ(r.J), r.K)
}

func (r Row) clone() Row {
	r.J = slices.Clone(r.J)
	return r
}

var (
	rows   = mustParse(tablesTSV)
	labels = distinctLabels(rows)
)

// Rows returns all published rows in file order. The result is a copy.
func Rows() []Row {
	out := make([]Row, len(rows))
	for i, r := range rows {
		out[i] = r.clone()
	}
	return out
}

// Table returns the rows of one paper table in file order (nil if the label
// is unknown). The result is a copy.
func Table(label string) []Row {
	var out []Row
	for _, r := range rows {
		if r.Table == label {
			out = append(out, r.clone())
		}
	}
	return out
}

// Labels returns the distinct table labels in file order.
func Labels() []string { return slices.Clone(labels) }

// Find returns the row with exactly these keys. param is compared with a
// small relative tolerance; J must match level by level.
func Find(label, model string, param float64, J []int, K int) (Row, bool) {
	for _, r := range rows {
		if r.Table == label && r.Model == model && r.K == K &&
			slices.Equal(r.J, J) && sameParam(r.Param, param) {
			return r.clone(), true
		}
	}
	return Row{}, false
}

func sameParam(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b))
}

// Verdict compares our median with a published row.
type Verdict int

const (
	Match Verdict = iota // ours within published median ± range
	Close                // ours within a factor 3 of the published median
	Off                  // anything else
)

// String returns the verdict's name as the tables print it: "match",
// "close" or "off".
func (v Verdict) String() string {
	switch v {
	case Match:
		return "match"
	case Close:
		return "close"
	case Off:
		return "off"
	}
	return fmt.Sprintf("Verdict(%d)", int(v))
}

// Judge compares our median eL1 with a published row: Match if ours lies in
// [m-r, m+r] (m = EL1Median, r = EL1Range); else Close if m/3 <= ours <= 3m;
// else Off. A NaN, infinite or non-positive ours is Off.
func Judge(ours float64, r Row) Verdict {
	if math.IsNaN(ours) || math.IsInf(ours, 0) || ours <= 0 {
		return Off
	}
	if lo, hi := r.Bounds(); ours >= lo && ours <= hi {
		return Match
	}
	if m := r.EL1Median; ours >= m/3 && ours <= 3*m {
		return Close
	}
	return Off
}

// SpeedRatio returns paper mean time / our mean time (>1 means we are
// faster); NaN if either is not positive (or is NaN).
func SpeedRatio(paperSeconds, oursSeconds float64) float64 {
	if !(paperSeconds > 0) || !(oursSeconds > 0) {
		return math.NaN()
	}
	return paperSeconds / oursSeconds
}

// FormatJ renders levels like the paper: "20" or "[1,5,10]".
func FormatJ(J []int) string {
	if len(J) == 1 {
		return strconv.Itoa(J[0])
	}
	parts := make([]string, len(J))
	for i, j := range J {
		parts[i] = strconv.Itoa(j)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// ParseJ parses the paper's level notation, "20" or "[1,5,10]"; it is the
// inverse of FormatJ. Every entry must be a positive integer.
func ParseJ(s string) ([]int, error) {
	s = strings.TrimSpace(s)
	inner, bracketed := strings.CutPrefix(s, "[")
	if bracketed {
		var ok bool
		if inner, ok = strings.CutSuffix(inner, "]"); !ok {
			return nil, fmt.Errorf("paperdata: J %q: missing ']'", s)
		}
	}
	var J []int
	for f := range strings.SplitSeq(inner, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("paperdata: J %q: bad level count %q", s, f)
		}
		J = append(J, n)
	}
	if !bracketed && len(J) != 1 {
		return nil, fmt.Errorf("paperdata: J %q: several levels need brackets", s)
	}
	return J, nil
}

// mustParse parses the embedded table; a malformed file is a build bug.
func mustParse(text string) []Row {
	rs, err := parse(text)
	if err != nil {
		panic(err)
	}
	return rs
}

func parse(text string) ([]Row, error) {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if got := strings.Split(lines[0], "\t"); !slices.Equal(got, header) {
		return nil, fmt.Errorf("paperdata: tables.tsv header %q, want %q", got, header)
	}
	out := make([]Row, 0, len(lines)-1)
	for i, line := range lines[1:] {
		r, err := parseRow(line)
		if err != nil {
			return nil, fmt.Errorf("paperdata: tables.tsv line %d: %w", i+2, err)
		}
		out = append(out, r)
	}
	return out, nil
}

func parseRow(line string) (Row, error) {
	f := strings.Split(line, "\t")
	if len(f) != len(header) {
		return Row{}, fmt.Errorf("%d fields, want %d", len(f), len(header))
	}
	var err error
	num := func(col int) float64 {
		v, e := strconv.ParseFloat(f[col], 64)
		if e == nil && (math.IsNaN(v) || math.IsInf(v, 0)) {
			e = fmt.Errorf("non-finite value %q", f[col])
		}
		if e != nil && err == nil {
			err = fmt.Errorf("column %s: %w", header[col], e)
		}
		return v
	}
	integer := func(col int) int {
		v, e := strconv.Atoi(f[col])
		if e != nil && err == nil {
			err = fmt.Errorf("column %s: %w", header[col], e)
		}
		return v
	}
	r := Row{
		Table:     f[0],
		Model:     f[1],
		ParamName: f[2],
		Param:     num(3),
		H:         integer(5),
		K:         integer(6),
		Delta:     num(7),
		Optimiser: f[9],
		EL1Median: num(10),
		EL1Range:  num(11),
		TimeMean:  num(12),
		TimeStd:   num(13),
	}
	if f[8] == "N/A" {
		r.Kappa = math.NaN()
	} else {
		r.Kappa, r.HasKappa = num(8), true
	}
	if err != nil {
		return Row{}, err
	}
	if r.J, err = ParseJ(f[4]); err != nil {
		return Row{}, err
	}
	switch {
	case r.Table == "" || r.Model == "" || r.ParamName == "" || r.Optimiser == "":
		return Row{}, fmt.Errorf("empty text field")
	case r.Model != ModelPINN && r.Model != ModelFBPINN && r.Model != ModelELMFBPINN:
		return Row{}, fmt.Errorf("unknown model %q", r.Model)
	}
	return r, nil
}

func distinctLabels(rs []Row) []string {
	var out []string
	for _, r := range rs {
		if !slices.Contains(out, r.Table) {
			out = append(out, r.Table)
		}
	}
	return out
}
