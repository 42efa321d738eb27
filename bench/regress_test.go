package bench

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"sort"
	"sync"
	"testing"

	"github.com/montanaflynn/stats"

	"elmfbpinn/experiments"
	"elmfbpinn/paperdata"
)

// update rewrites the golden file from this machine's runs:
//
//	go test ./bench -run TestQuickTier -update
var update = flag.Bool("update", false, "rewrite testdata/quick.golden.json")

// goldenFile holds e_L1 (the minimum over the history) of every run of the
// quick tier, keyed by spec key, as computed by this code at the commit that
// last changed the numerics. It exists to catch unintended changes to the
// numerics. The runs compute the same bits on every platform (the arithmetic
// rule of package core/fp: explicit FMA, fixed reduction orders, our own
// elementary functions), so the values are compared exactly, on amd64 at any
// GOAMD64 level, on arm64 and on every kernel path: any difference is a
// regression or a deliberate change of the numerics, which regenerates the
// file with -update and says why in its commit.
const goldenFile = "testdata/quick.golden.json"

// minAgree is the share of quick-tier rows run at the full budget (with a
// paper row) whose median must match the paper or lie within a factor 3 of it.
const minAgree = 0.9

type golden struct {
	Spec experiments.Spec `json:"spec"`
	EL1  float64          `json:"eL1"`
}

// quickRuns returns every run of the quick tier.
func quickRuns(t *testing.T) []experiments.Run {
	var runs []experiments.Run
	for _, tb := range experiments.Tables() {
		rs, err := tb.Runs(experiments.QuickTier)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, rs...)
	}
	return runs
}

func TestQuickTier(t *testing.T) {
	runs := quickRuns(t)
	if testing.Short() {
		t.Skip("the quick tier takes a few minutes")
	}
	// Execute every distinct spec once, two at a time.
	var specs []experiments.Spec
	seen := map[string]bool{}
	for _, r := range runs {
		if k := r.Spec.Key(); !seen[k] {
			seen[k] = true
			specs = append(specs, r.Spec)
		}
	}
	results := map[string]*experiments.Result{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for _, s := range specs {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			res, err := experiments.Execute(s, nil)
			if err != nil {
				t.Errorf("%s: %v", s, err)
				return
			}
			mu.Lock()
			results[s.Key()] = res
			mu.Unlock()
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}

	t.Run("golden", func(t *testing.T) { checkGolden(t, results) })
	t.Run("paper", func(t *testing.T) { checkPaper(t, runs, results) })
}

func checkGolden(t *testing.T, results map[string]*experiments.Result) {
	if *update {
		g := map[string]golden{}
		for k, r := range results {
			g[k] = golden{r.Spec, r.EL1}
		}
		b, err := json.MarshalIndent(g, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(goldenFile, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %d golden values to %s", len(g), goldenFile)
		return
	}
	b, err := os.ReadFile(goldenFile)
	if err != nil {
		t.Fatalf("%v (regenerate with: go test ./bench -run TestQuickTier -update)", err)
	}
	var g map[string]golden
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	for k, r := range results {
		want, ok := g[k]
		if !ok {
			t.Errorf("%s: no golden value (key %s); regenerate with -update if the tier changed", r.Spec, k)
			continue
		}
		if math.Float64bits(r.EL1) != math.Float64bits(want.EL1) {
			t.Errorf("%s: eL1 = %.17g, golden %.17g (relative difference %.2g; want the same bits)", r.Spec, r.EL1, want.EL1, math.Abs(r.EL1-want.EL1)/want.EL1)
		}
	}
	for k, want := range g {
		if _, ok := results[k]; !ok {
			t.Errorf("golden value for %s (key %s) has no run in the quick tier", want.Spec, k)
		}
	}
}

func checkPaper(t *testing.T, runs []experiments.Run, results map[string]*experiments.Result) {
	type rowKey struct {
		table *experiments.Table
		row   int
	}
	byRow := map[rowKey][]float64{}
	var order []rowKey
	for _, r := range runs {
		if r.Spec.Iters != experiments.FullIters {
			continue // a shortened training is checked against golden values only
		}
		k := rowKey{r.Table, r.Row}
		if _, ok := byRow[k]; !ok {
			order = append(order, k)
		}
		byRow[k] = append(byRow[k], results[r.Spec.Key()].EL1)
	}
	agree, total := 0, 0
	counts := map[paperdata.Verdict]int{}
	var off []string
	for _, k := range order {
		row := k.table.Rows[k.row]
		p, ok := k.table.PaperRow(row)
		if !ok {
			continue
		}
		med, err := stats.Median(byRow[k])
		if err != nil {
			t.Fatal(err)
		}
		v := paperdata.Judge(med, p)
		counts[v]++
		total++
		if v != paperdata.Off {
			agree++
		} else {
			off = append(off, fmt.Sprintf("%s %s param=%g J=%s K=%d: median %.2e, paper %.2e±%.1e",
				k.table.ID, row.Label(), row.Param, paperdata.FormatJ(row.J), row.K, med, p.EL1Median, p.EL1Range))
		}
	}
	sort.Strings(off)
	t.Logf("quick tier against the paper: %d rows, %d match, %d close, %d off", total,
		counts[paperdata.Match], counts[paperdata.Close], counts[paperdata.Off])
	for _, o := range off {
		t.Logf("off: %s", o)
	}
	if total == 0 {
		t.Fatal("no quick-tier row has a paper row")
	}
	if share := float64(agree) / float64(total); share < minAgree {
		t.Errorf("%d of %d rows match or are close to the paper (%.0f%%), want at least %.0f%%", agree, total, 100*share, 100*minAgree)
	}
}

// TestDeclaredRowsHavePaperRows checks that every declared row of a paper
// table has a published row, and that every published row is declared.
func TestDeclaredRowsHavePaperRows(t *testing.T) {
	seen := map[string]bool{}
	for _, tb := range experiments.Tables() {
		for _, r := range tb.Rows {
			if tb.Paper == "" {
				continue
			}
			p, ok := tb.PaperRow(r)
			if !ok {
				t.Errorf("%s: row %s param=%g J=%s K=%d has no paper row", tb.ID, r.Label(), r.Param, paperdata.FormatJ(r.J), r.K)
				continue
			}
			seen[p.String()] = true
		}
	}
	for _, p := range paperdata.Rows() {
		if !seen[p.String()] {
			t.Errorf("paper row %s is not declared by any table", p)
		}
	}
	if got := len(seen); got != len(paperdata.Rows()) {
		t.Errorf("%d distinct paper rows declared, want %d", got, len(paperdata.Rows()))
	}
}
