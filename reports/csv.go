package reports

import (
	"encoding/csv"
	"io"
	"slices"
	"strconv"
	"strings"

	"elmfbpinn/experiments"
	"elmfbpinn/paperdata"
)

// CSVHeader is the header of runs.csv.
var CSVHeader = []string{
	"key", "tables", "problem", "model", "param", "J", "levels", "K", "width", "delta", "R",
	"iters", "seed", "kappa_only", "eL1", "eL1_final", "best_iter", "status",
	"time_assembly_s", "time_solve_s", "time_total_s", "rows", "cols", "nnz",
	"kappa", "kappa_note", "commit", "go_version", "cpu", "gomaxprocs", "started",
}

// RunsCSV writes one CSV row per run of the tables' tier that has a result
// (a run shared by several tables, e.g. a baseline that is also R = 1 of the
// weight-scaling figure, is one row listing every table), in table, row
// and seed order. Empty cells are values the run does not have (the error
// of a κ-only run, κ of a solve). Numbers are written in full precision.
func RunsCSV(w io.Writer, tables []*experiments.Table, tier string, results map[string]*experiments.Result) error {
	type entry struct {
		res    *experiments.Result
		tables []string
	}
	var order []string
	seen := map[string]*entry{}
	for _, t := range tables {
		runs, err := t.Runs(tier)
		if err != nil {
			return err
		}
		for _, r := range runs {
			res, err := lookup(results, r.Spec)
			if err != nil {
				return err
			}
			if res == nil {
				continue
			}
			e, ok := seen[res.Key]
			if !ok {
				e = &entry{res: res}
				seen[res.Key] = e
				order = append(order, res.Key)
			}
			if !slices.Contains(e.tables, t.ID) {
				e.tables = append(e.tables, t.ID)
			}
		}
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader); err != nil {
		return err
	}
	for _, k := range order {
		e := seen[k]
		if err := cw.Write(csvRow(e.res, e.tables)); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// positiveCount is a positive count, or "" (the size of M of a gradient-trained
// model, which has none).
func positiveCount(n int) string {
	if n <= 0 {
		return ""
	}
	return strconv.Itoa(n)
}

func csvRow(r *experiments.Result, tables []string) []string {
	s := r.Spec
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	opt := func(x float64, ok bool) string {
		if !ok {
			return ""
		}
		return f(x)
	}
	solve := s.Iters > 0
	width := ""
	if s.Width > 0 {
		width = strconv.Itoa(s.Width)
	}
	kappa := ""
	if r.Kappa != nil {
		kappa = f(*r.Kappa)
	}
	bestIter := ""
	if solve {
		bestIter = strconv.Itoa(r.BestIter)
	}
	return []string{
		r.Key, strings.Join(tables, " "), s.Problem, s.Model, f(s.Param), paperdata.FormatJ(s.J),
		strconv.Itoa(len(s.J)), strconv.Itoa(s.K), width, f(s.Delta), f(s.R),
		strconv.Itoa(s.Iters), strconv.Itoa(s.Seed), strconv.FormatBool(!solve && s.Kappa),
		opt(r.EL1, solve), opt(r.EL1Final, solve), bestIter, r.Status,
		f(r.Time.Assembly), f(r.Time.Solve), f(r.Time.Total),
		positiveCount(r.Rows), positiveCount(r.Cols), positiveCount(r.NNZ),
		kappa, r.KappaNote, r.Env.Commit, r.Env.GoVersion, r.Env.CPU, strconv.Itoa(r.Env.GOMAXPROCS), r.Env.Started,
	}
}
