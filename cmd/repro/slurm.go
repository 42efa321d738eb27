package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"text/tabwriter"
	"unicode"
	"unicode/utf8"

	"elmfbpinn/experiments"
)

// Defaults of 'repro slurm'.
const (
	// taskTarget is the estimated work per array task that -shards 0 aims
	// at, in seconds of one core.
	taskTarget = 3600
	// maxShards stays below Slurm's default MaxArraySize (1001).
	maxShards = 1000
	// reportTime is the time limit of the report job.
	reportTime = "00:30:00"
)

// slurmFlags are the flags of 'repro slurm' beyond the run flags.
type slurmFlags struct {
	run                      *runFlags
	shards                   int
	out, reportOut, logs     string
	time, mem                string
	partition, account, name string
	exe                      string
	plan                     bool
}

func cmdSlurm(args []string) error {
	fs := newFlags("slurm", "[-table LIST] [-tier T] [-model LIST] [-where EXPR] [-seeds LIST] [-experiments FILE] [-results DIR] [-shards N] [-out job.sbatch] [-time T] [-mem M] [-partition P] [-account A] [-name NAME] [-report-out DIR] [-logs DIR] [-repro PATH] [-kappa-cells N] [-plan]")
	f := slurmFlags{run: addRunFlags(fs)}
	fs.IntVar(&f.shards, "shards", 0, "array tasks (0: about one estimated core-hour each)")
	fs.StringVar(&f.out, "out", "repro.sbatch", "the array's sbatch script; the report job and the submit script go beside it")
	fs.StringVar(&f.reportOut, "report-out", "report", "output directory of the report job")
	fs.StringVar(&f.logs, "logs", "", "directory of the tasks' logs (default: slurm-logs beside -out)")
	fs.StringVar(&f.time, "time", "", "time limit per task, as sbatch --time (default: 3x the largest shard's estimate + 10 minutes)")
	fs.StringVar(&f.mem, "mem", "2G", "memory per task, as sbatch --mem")
	fs.StringVar(&f.partition, "partition", "", "sbatch --partition (default: the cluster's default)")
	fs.StringVar(&f.account, "account", "", "sbatch --account (default: the user's default)")
	fs.StringVar(&f.name, "name", "repro", "job name")
	fs.StringVar(&f.exe, "repro", "", "path of the repro binary on the cluster (default: this binary)")
	fs.BoolVar(&f.plan, "plan", false, "print the estimated cost per table and per shard; write nothing")
	if err := parse(fs, args); err != nil {
		return ignoreHelp(err)
	}
	// Every value may end up in a script (a path, a comment, an argument):
	// a line break would end the line and run the rest as a command.
	var bad error
	fs.Visit(func(fl *flag.Flag) {
		if v := fl.Value.String(); bad == nil && hasControl(v) {
			bad = usagef("-%s %q: control characters (line breaks, tabs, escapes) cannot go into the job scripts", fl.Name, v)
		}
	})
	if bad != nil {
		return bad
	}
	if f.shards < 0 {
		return usagef("-shards %d: want a positive number (or 0 to choose)", f.shards)
	}
	for _, c := range []struct{ flag, val string }{
		{"partition", f.partition}, {"account", f.account}, {"name", f.name}, {"mem", f.mem}, {"time", f.time},
	} {
		if strings.ContainsAny(c.val, " \t\r\n'\"\\$`") {
			return usagef("-%s %q: must not contain blanks, quotes, $ or backslashes", c.flag, c.val)
		}
	}
	if f.name == "" {
		return usagef("-name must not be empty")
	}
	if !memRE.MatchString(f.mem) {
		return usagef("-mem %q: want a size like sbatch --mem takes, e.g. 2G or 500M", f.mem)
	}
	if f.time != "" && !timeRE.MatchString(f.time) {
		return usagef("-time %q: want a time like sbatch --time takes, e.g. 90, 2:00:00 or 1-12:00:00", f.time)
	}
	if f.out == "" {
		return usagef("-out must name the sbatch script to write")
	}
	p, err := f.run.plan()
	if err != nil {
		return err
	}
	if len(p.specs) == 0 { // Select refuses an empty selection; kept as a guard
		return usagef("the tables %q have no runs in the %s tier", f.run.tables, f.run.tier)
	}
	var total float64
	for _, s := range p.specs {
		total += experiments.Cost(s)
	}
	n := f.shards
	if n == 0 {
		n = int(math.Ceil(total / taskTarget))
	}
	n = max(1, min(n, len(p.specs), maxShards))
	if f.shards > n {
		fmt.Fprintf(os.Stderr, "repro slurm: %d shards for %d runs: using %d\n", f.shards, len(p.specs), n)
	}
	_, load := split(p.specs, n)
	maxLoad := float64(slices.Max(load)) * costUnit
	if f.time == "" {
		f.time = slurmTime(3*maxLoad + 600)
	}
	if f.plan {
		printPlan(os.Stdout, p, load, f.run.keptCalibration(p.specs))
		return nil
	}
	return f.write(p, n, total, maxLoad)
}

var (
	memRE  = regexp.MustCompile(`^[0-9]+[KMGTkmgt]?$`)
	timeRE = regexp.MustCompile(`^([0-9]+(-[0-9]+)?(:[0-9]+){0,2}|UNLIMITED|INFINITE)$`)
)

// slurmTime formats seconds, rounded up to 5 minutes, as sbatch --time:
// "HH:MM:SS" or "D-HH:MM:SS".
func slurmTime(sec float64) string {
	m := int(math.Ceil(sec/300)) * 5
	d, h, m := m/(24*60), m/60%24, m%60
	if d > 0 {
		return fmt.Sprintf("%d-%02d:%02d:00", d, h, m)
	}
	return fmt.Sprintf("%02d:%02d:00", h, m)
}

// write writes the three scripts and says how to submit them.
func (f *slurmFlags) write(p *runPlan, n int, total, maxLoad float64) error {
	abs := func(p string) (string, error) { return filepath.Abs(p) }
	out, err := abs(f.out)
	if err != nil {
		return err
	}
	base := strings.TrimSuffix(out, ".sbatch")
	reportScript, submit := base+".report.sbatch", base+".submit.sh"
	logs := f.logs
	if logs == "" {
		logs = filepath.Join(filepath.Dir(out), "slurm-logs")
	}
	if logs, err = abs(logs); err != nil {
		return err
	}
	results, err := abs(f.run.dir)
	if err != nil {
		return err
	}
	report, err := abs(f.reportOut)
	if err != nil {
		return err
	}
	cwd, err := os.Getwd()
	if err != nil {
		return err
	}
	exe := f.exe
	if exe == "" {
		if exe, err = os.Executable(); err != nil {
			return err
		}
		if strings.Contains(exe, "go-build") {
			fmt.Fprintf(os.Stderr, "repro slurm: warning: %s is a temporary build (go run); build with 'make build' and pass -repro bin/repro\n", exe)
		}
	}
	if exe, err = abs(exe); err != nil {
		return err
	}
	for _, p := range []string{exe, results, report, out} {
		if hasControl(p) {
			return usagef("%q: control characters (line breaks, tabs, escapes) cannot go into the job scripts", p)
		}
	}
	for _, d := range []string{cwd, logs} {
		if strings.ContainsAny(d, " \t\r\n'\"\\$`") || hasControl(d) {
			return usagef("%q: #SBATCH lines cannot take a path with blanks, quotes, $ or backslashes; use -logs or run from another directory", d)
		}
	}
	// Nothing is written (not even the log folder) if a script cannot be.
	for _, p := range []string{out, reportScript, submit} {
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			return usagef("%s is a directory: -out names the sbatch script to write, e.g. %s", p, filepath.Join(f.out, "repro.sbatch"))
		}
	}
	// Slurm does not create the directory of --output: a missing one fails
	// every task.
	for _, d := range []string{filepath.Dir(out), logs} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}

	// -table and -tier, then the rest of the selection (-model, -where,
	// -seeds) after the paths.
	sel := f.run.absArgs()
	runArgs := append(slices.Clone(sel[:4]), "-results", results, "-kappa-cells", fmt.Sprint(f.run.cells))
	runArgs = append(append(runArgs, sel[4:]...), "-jobs", "1")
	reportArgs := append(slices.Clone(sel[:4]), "-results", results, "-out", report)
	reportArgs = append(reportArgs, sel[4:]...)

	header := func(b *strings.Builder, name, limit, output string) {
		fmt.Fprintf(b, "#SBATCH --job-name=%s\n", name)
		b.WriteString("#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n")
		fmt.Fprintf(b, "#SBATCH --time=%s\n#SBATCH --mem=%s\n", limit, f.mem)
		if f.partition != "" {
			fmt.Fprintf(b, "#SBATCH --partition=%s\n", f.partition)
		}
		if f.account != "" {
			fmt.Fprintf(b, "#SBATCH --account=%s\n", f.account)
		}
		fmt.Fprintf(b, "#SBATCH --chdir=%s\n#SBATCH --output=%s\n", cwd, output)
	}
	commit := gitCommit()

	var a strings.Builder
	fmt.Fprintf(&a, `#!/bin/bash
# Written by 'repro slurm' (commit %s): %d runs of %s (tier %s)
# as a job array of %d tasks, estimated %s of one core in all, at most %s
# per task. Task i runs shard i/%d of the runs on the one core Slurm binds
# it to, one run at a time; every run writes its own result file into
#   %s
# atomically, so tasks never write the same file, and a resubmitted array or
# a requeued task runs only the runs that have no result yet.
#
# Submit it with the report job: sh %s
# Rerun one task:                sbatch --array=I %s
`, commit, len(p.specs), f.run.tables, f.run.tier, n, fmtDuration(total), fmtDuration(maxLoad), n,
		results, shq(submit), shq(out))
	header(&a, f.name, f.time, filepath.Join(logs, "%x-%A_%a.out"))
	fmt.Fprintf(&a, "#SBATCH --array=0-%d\n#SBATCH --open-mode=append\n#SBATCH --requeue\n", n-1)
	fmt.Fprintf(&a, "set -eu\nexec %s run %s -shard \"${SLURM_ARRAY_TASK_ID}/%d\"\n", shq(exe), shJoin(runArgs), n)

	var r strings.Builder
	fmt.Fprintf(&r, `#!/bin/bash
# Written by 'repro slurm' (commit %s): the report of %s (tier %s)
# from the results of the job array %s, written to
#   %s
# Submitted by %s to run after every task of the array has ended
# (afterany: also after failed or cancelled tasks; missing runs show as such).
`, commit, f.run.tables, f.run.tier, shq(out), report, shq(submit))
	header(&r, f.name+"-report", reportTime, filepath.Join(logs, "%x-%j.out"))
	fmt.Fprintf(&r, "set -eu\nexec %s report %s\n", shq(exe), shJoin(reportArgs))

	var s strings.Builder
	fmt.Fprintf(&s, `#!/bin/sh
# Written by 'repro slurm': submits the job array, then the report job with
# --dependency=afterany:<array job id>. Arguments are passed to both sbatch
# calls, e.g. sh %s --qos=long
# Running it again after failed or cancelled tasks runs only the missing runs.
set -eu
array=$(sbatch --parsable "$@" %s)
array=${array%%%%;*}
report=$(sbatch --parsable --dependency=afterany:"$array" "$@" %s)
report=${report%%%%;*}
echo "array_job=$array report_job=$report"
`, shq(submit), shq(out), shq(reportScript))

	for _, w := range []struct{ path, text string }{
		{out, a.String()}, {reportScript, r.String()}, {submit, s.String()},
	} {
		if err := experiments.WriteFile(w.path, []byte(w.text)); err != nil {
			return err
		}
		if err := os.Chmod(w.path, 0o755); err != nil {
			return err
		}
	}
	fmt.Printf("wrote %s (array of %d tasks, --time=%s --mem=%s), %s and %s\n",
		out, n, f.time, f.mem, filepath.Base(reportScript), filepath.Base(submit))
	fmt.Printf("%d runs, estimated %s of one core in all, at most %s per task\n", len(p.specs), fmtDuration(total), fmtDuration(maxLoad))
	fmt.Printf("submit with: sh %s\n", shq(submit))
	return nil
}

// printPlan prints the estimated cost per table, the paper's time for the
// same runs, and the loads of the shards.
func printPlan(w io.Writer, p *runPlan, load []int64, cal *experiments.Calibration) {
	type row struct {
		runs        int
		cost, paper float64
		timed       bool // some run has a paper (or reference) time
	}
	rows := map[string]*row{}
	var order []string
	for _, r := range p.runs {
		id := r.Table.ID
		if rows[id] == nil {
			rows[id] = new(row)
			order = append(order, id)
		}
		rows[id].runs++
		rows[id].cost += cal.Cost(r.Spec)
		if row := r.Table.Rows[r.Row]; r.Spec.Iters > 0 {
			if pr, ok := r.Table.PaperRow(row); ok && pr.TimeMean > 0 {
				// The paper's time is for the row's full budget; a
				// shorter one (quick tier) takes its share.
				rows[id].paper += pr.TimeMean * float64(r.Spec.Iters) / float64(row.Budget())
				rows[id].timed = true
			}
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "TABLE\tRUNS\tESTIMATE\tPAPER\t")
	var tot row
	for _, id := range order {
		r := rows[id]
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t\n", id, r.runs, fmtDuration(r.cost), paperTime(r.paper, r.timed))
		tot.runs += r.runs
		tot.cost += r.cost
		tot.paper += r.paper
		tot.timed = tot.timed || r.timed
	}
	fmt.Fprintf(tw, "total\t%d\t%s\t%s\t\n", tot.runs, fmtDuration(tot.cost), paperTime(tot.paper, tot.timed))
	tw.Flush()
	var sum int64
	for _, l := range load {
		sum += l
	}
	mean := float64(sum) / float64(len(load)) * costUnit
	fmt.Fprintf(w, "\n%d shards of the %d runs: estimated load per shard min %s, mean %s, max %s\n",
		len(load), tot.runs, fmtDuration(float64(slices.Min(load))*costUnit), fmtDuration(mean),
		fmtDuration(float64(slices.Max(load))*costUnit))
	fmt.Fprintf(w, "Times are of one core. ESTIMATE is experiments.Cost on this machine (%s).\n", calibrationWords(cal))
	if cal == nil || len(cal.Scale) == 0 {
		fmt.Fprintln(w, "repro run -calibrate -results DIR calibrates it here in a few seconds; a cluster node may differ.")
	}
	fmt.Fprintln(w, "Shards are balanced, and --time set, by the uncalibrated model (the same on every node).")
	fmt.Fprintln(w, "PAPER sums the paper's mean time of each row over the same runs, pro rata for a shorter")
	fmt.Fprintln(w, "budget (JAX on one AMD EPYC 7742 core, kappa excluded); for an experiment file's table, its")
	fmt.Fprintln(w, "reference times (- where it gives none). A run shared by several tables counts in the first.")
}

// paperTime is the PAPER column's entry: "-" if no run had a time.
func paperTime(sec float64, timed bool) string {
	if !timed {
		return "-"
	}
	return fmtDuration(sec)
}

// shq quotes s for the shell when it needs it.
func shq(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./,:=+%@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func shJoin(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = shq(a)
	}
	return strings.Join(q, " ")
}

// hasControl reports whether s holds a control character (a line break, a
// tab, an escape, DEL or a C1 control) or is not valid UTF-8.
func hasControl(s string) bool {
	if !utf8.ValidString(s) {
		return true
	}
	return strings.ContainsFunc(s, unicode.IsControl)
}
