package bench

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"elmfbpinn/experiments"
	"elmfbpinn/paperdata"
)

// tableIters, if positive, shortens every run of BenchmarkTable to this
// many LSQR iterations or Adam steps (-args -iters N): a quick benchmark of
// every row, the 2D networks' included, whose errors are not the paper's.
var tableIters = flag.Int("iters", 0, "BenchmarkTable: LSQR iterations or Adam steps of every run (0: each row's full budget)")

// BenchmarkTable runs seed 0 of every row of every table (PINN, FBPINN and
// ELM-FBPINN) at the full budget and reports its error and wall time, so
// that benchstat can compare commits row by row:
//
//	go test -run '^$' -bench 'Table/table=osc' -benchtime 1x -count 5 ./bench
//	go test -run '^$' -bench 'Table/table=laplace-K/model=FBPINN' -benchtime 1x ./bench -args -iters 100
//
// At the full budget a 2D PINN or FBPINN row takes minutes; -args -iters N
// shortens every run to N iterations or steps, for a quick benchmark of
// the speed (the paper's time is scaled pro rata; the errors are of the
// shortened runs). The metrics are eL1 (minimum over the history), s/run
// (assembly + solve) and paper-s/run, the paper's mean time for the row
// (so that speed-up = paper-s/run ÷ s/run).
func BenchmarkTable(b *testing.B) {
	for _, tb := range experiments.Tables() {
		b.Run("table="+tb.ID, func(b *testing.B) {
			for _, row := range tb.Rows {
				b.Run(rowName(tb, row), func(b *testing.B) {
					s := row.Spec(0)
					if *tableIters > 0 {
						s.Iters = *tableIters
					}
					var res *experiments.Result
					for b.Loop() {
						var err error
						if res, err = experiments.Execute(s, nil); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(res.EL1, "eL1")
					b.ReportMetric(res.Time.Total, "s/run")
					if p, ok := tb.PaperRow(row); ok {
						b.ReportMetric(p.TimeMean*float64(s.Iters)/float64(row.Budget()), "paper-s/run")
					}
				})
			}
		})
	}
}

// rowName names a row with key=value parts, e.g.
// model=ELM-FBPINN/problem=oscillator/param=80/J=[1,10,20]/K=12/R=1.
func rowName(tb *experiments.Table, r experiments.Row) string {
	parts := []string{
		"model=" + experiments.PaperModel(r.Model),
		"problem=" + r.Problem,
		fmt.Sprintf("param=%g", r.Param),
		"J=" + paperdata.FormatJ(r.J),
		fmt.Sprintf("K=%d", r.K),
	}
	if r.Model == experiments.PINN {
		parts = append(parts, fmt.Sprintf("width=%d", r.Width))
	}
	if tb.Kind == experiments.Weights {
		parts = append(parts, fmt.Sprintf("R=%g", r.R))
	}
	return strings.Join(parts, "/")
}
