package reports

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"

	"elmfbpinn/experiments"
	"elmfbpinn/paperdata"
	"elmfbpinn/study"
)

// CSVHeader is the header of runs.csv.
var CSVHeader = []string{
	"key", "tables", "problem", "model", "param", "J", "levels", "K", "width", "delta", "R",
	"iters", "seed", "kappa_only", "eL1", "eL1_final", "best_iter", "status",
	"time_assembly_s", "time_solve_s", "time_total_s", "rows", "cols", "nnz",
	"kappa", "kappa_note", "commit", "go_version", "cpu", "gomaxprocs", "started",
	"kernel", "numerics", "contended", "cpu_share", "machine",
}

// RunsCSV writes one CSV row per run of a study that has a result (a run
// shared by several tables, e.g. a baseline that is also R = 1 of the
// weight-scaling figure, is one row listing every table), in table, row and
// seed order. Empty cells are values the run does not have (the error of a
// κ-only run, κ of a solve). Numbers are written in full precision; text
// cells are made safe by csvText (no formula, no hidden character).
func RunsCSV(w io.Writer, st *study.Study) error {
	recs := [][]string{CSVHeader}
	for _, r := range st.Results() {
		recs = append(recs, csvRow(r.Result, r.Tables))
	}
	return csv.NewWriter(w).WriteAll(recs)
}

// positiveCount is a positive count, or "" (the size of M of a gradient-trained
// model, which has none; the width of a model that is not a PINN).
func positiveCount(n int) string {
	if n <= 0 {
		return ""
	}
	return strconv.Itoa(n)
}

func csvRow(r *experiments.Result, tables []string) []string {
	s, solve := r.Spec, r.Spec.Iters > 0
	var kappa, eL1, eL1Final, bestIter string // "": the run has none
	if r.Kappa != nil {
		kappa = num(*r.Kappa)
	}
	if solve {
		eL1, eL1Final, bestIter = num(r.EL1), num(r.EL1Final), strconv.Itoa(r.BestIter)
	}
	var share, machine string // "": not recorded
	if r.Env.CPUShare > 0 {
		share = num(r.Env.CPUShare)
	}
	if m := r.Env.Machine; m != nil {
		machine = m.String()
	}
	return []string{
		csvText(r.Key), csvText(strings.Join(tables, " ")), csvText(s.Problem), csvText(s.Model), num(s.Param), paperdata.FormatJ(s.J),
		strconv.Itoa(len(s.J)), strconv.Itoa(s.K), positiveCount(s.Width), num(s.Delta), num(s.R),
		strconv.Itoa(s.Iters), strconv.Itoa(s.Seed), strconv.FormatBool(!solve && s.Kappa),
		eL1, eL1Final, bestIter, csvText(r.Status),
		num(r.Time.Assembly), num(r.Time.Solve), num(r.Time.Total),
		positiveCount(r.Rows), positiveCount(r.Cols), positiveCount(r.NNZ),
		kappa, csvText(r.KappaNote), csvText(r.Env.Commit), csvText(r.Env.GoVersion), csvText(r.Env.CPU), strconv.Itoa(r.Env.GOMAXPROCS), csvText(r.Env.Started),
		csvText(r.Env.Kernel), csvText(r.Env.Numerics), strconv.FormatBool(r.Env.Contended), share, csvText(machine),
	}
}
