package bench

import (
	"fmt"
	"strings"
	"testing"

	"elmfbpinn/experiments"
	"elmfbpinn/paperdata"
)

// BenchmarkTable runs seed 0 of every ELM-FBPINN row of every table at the
// full budget and reports its error and wall time, so that benchstat can
// compare commits row by row:
//
//	go test -run '^$' -bench 'Table/table=osc' -benchtime 1x -count 5 ./bench
//
// The metrics are eL1 (minimum over the history), s/run (assembly + solve) and
// paper-s/run, the paper's mean time for the row (so that speed-up =
// paper-s/run ÷ s/run).
func BenchmarkTable(b *testing.B) {
	for _, tb := range experiments.Tables() {
		b.Run("table="+tb.ID, func(b *testing.B) {
			for _, row := range tb.Rows {
				if row.Model != experiments.ELM {
					continue
				}
				b.Run(rowName(tb, row), func(b *testing.B) {
					s := row.Spec(0)
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
						b.ReportMetric(p.TimeMean, "paper-s/run")
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
	if tb.Kind == experiments.Weights {
		parts = append(parts, fmt.Sprintf("R=%g", r.R))
	}
	return strings.Join(parts, "/")
}
