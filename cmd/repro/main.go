// Command repro reproduces the tables of "ELM-FBPINNs: An Efficient
// Multilevel Random Feature Method" (Anderson, Dolean, Moseley, Pestana).
//
// Usage:
//
//	repro list   [selection] [-results DIR]
//	repro run    [selection] [-jobs N] [-results DIR] [-kappa-cells N] [-shard i/n] [-max-mem SIZE]
//	repro report [selection] [-results DIR] [-out DIR] [-format md,latex,csv,png,pdf] [-latex-paper]
//	repro solve  -problem P -model M [flags] [-max-mem SIZE] [-json]
//	repro slurm  [run flags] [-shards N] [-out job.sbatch] [-time T] [-mem M] [-partition P] [-account A] [-plan]
//	repro digest [-cases LIST]
//	repro compare [selection] [-alpha A] [-threshold R] [-time-threshold R] [-format F] [-fail-on C] OLD NEW
//	repro publish [selection] -results DIR [-out DIR] [-prune]
//	repro export  -table LIST [-experiments FILE] [-id NEW] [-out FILE]
//	repro version
//
// Every table of the paper is declared as data in package experiments. A
// table row run with one seed is a run; its result is a JSON file in the
// results directory, named by a hash of everything that determines it, so
// that finished runs are never repeated and results are only ever added.
//
// # Selection
//
// list, run, report, compare, slurm and publish choose their runs with the
// same flags (the selection):
//
//	-experiments F   an experiment file (TOML) or a directory of *.toml
//	                 files, whose tables join the paper's; repeatable
//	-table LIST      comma-separated table ids, or "all" (default all; with
//	                 -experiments and no -table, the files' tables alone)
//	-tier T          full (paper-faithful) or quick (default full)
//	-model LIST      only the rows of these models: elm, fbpinn, pinn (default all)
//	-where EXPR      only the rows whose parameters match EXPR (default all)
//	-seeds LIST      the seeds of every selected row, replacing the tier's
//	                 (default: the tier's: 0-4 in the full tier, the quick
//	                 tier's per model)
//
// EXPR is clauses key=v1,v2 joined by ";": a row matches if, for every
// clause, its value of key is one of the clause's values (numbers compare as
// numbers). The keys are problem (oscillator, laplace, helmholtz), param
// (the problem's ω0, n_ω or ω), J (subdomains per dimension of the finest
// level), L (levels), K, width (the PINN's; 0 for the other models), R,
// delta, row (the row's index in its table, from 0) and solver (lsqr, the
// paper's forced LSQR, or a name repro solve -solver takes):
//
//	$ repro run -table osc-K -model elm,fbpinn -where 'K=8,16'
//	$ repro run -table laplace-scaling -where 'L=3;param=1,2'
//	$ repro list -table laplace-J -where J=4
//
// -seeds LIST is a list like 0,1,2, 0-4 or 0-2,7 of at most 10000 seeds; it
// may name seeds beyond the tier's, which are run, stored and reported like
// the tier's (the report's statistics are then over the seeds given). The
// κ(M) run of an ELM-FBPINN row in the full tier (seed 5) is part of the
// selection when -seeds is not given or includes 5:
//
//	$ repro run -tier quick -table osc-baseline -model elm -seeds 5-9
//	$ repro report -tier quick -table osc-baseline -model elm -seeds 0-9
//
// A selection that matches no run is bad input: the one-line message names
// the filter that emptied it and the values available there ("-where K=7
// matches no run of tables osc-K in the full tier (available: K=2, K=4,
// ...)"). A table with no runs in the tier (laplace-K in the quick tier)
// adds none, and a report says the tier skips it.
//
// # Experiment files
//
// A table of one's own is declared in a TOML file (experiments.ParseFile
// documents the layout) and given with -experiments: it runs, caches,
// reports, compares and shards like the paper's tables. A file row
// identical to a paper row has the paper row's run keys, so results are
// shared. Reading is strict: an unknown key, a wrong type, a value solve
// refuses, two swept fields or an id used twice is one line naming
// file:line and the field, exit 2, and nothing runs.
//
//	$ repro run -experiments examples/osc-K-wide.toml -tier quick
//	$ repro report -experiments examples/ -tier quick -out report-mine
//
// # export
//
// Writes tables as an experiment file, to standard output or -out (written
// atomically): a paper table's rows carry the paper's published values as
// their reference values (ref), so the copy is judged as the original.
// -id renames the one table written (a file may not reuse a paper table's
// id).
//
//	$ repro export -table osc-K -id osc-K-mine -out mine.toml
//
// # list
//
// Lists the tables, their paper labels, and how many of the selected runs
// are done (made by this binary's numerics) and stale (made by other numerics:
// an older binary or a changed kernel; run computes them again), after the
// binary's numerics fingerprints, one per model (experiments.Fingerprint):
//
//	$ repro list -tier quick
//
// # run
//
// Expands tables into runs (row × seed, plus the κ(M) run on seed 5 of each
// ELM-FBPINN row in the full tier, plus, for each baseline table with its
// ELM-FBPINN row selected, the run of its problem's solution figure: seed 0,
// keeping the coefficients; none with -seeds or -where), skips those whose
// result exists, and runs the rest as child processes, at most -jobs at a
// time. Each child is pinned to one CPU core (the affinity of the thread
// that starts it, inherited by every thread of the child) and runs with
// GOMAXPROCS=1. On a terminal, a live view at the bottom of the screen,
// redrawn twice a second, lists the runs in flight (each with its elapsed
// time, its share of its expected time, and the iteration or Adam step its
// child last reported with the test error there and the least so far) under
// a status line: done/total, failures, runs in flight, elapsed time and an
// ETA; a line per finished run (its time and e_L1, or κ) scrolls above it.
// On a pipe (a log file, CI) run writes plain lines only: one per finished
// run, and a status line naming the runs in flight when nothing was written
// for 10 seconds. The ETA is the estimated cost (experiments.Cost) of the
// runs left, scaled by the measured over the estimated time of the runs
// finished so far, less the time the runs in flight have had (or, for a run
// that reported a tenth of its iterations since its first report, the time
// its own pace between reports leaves), over the runs at once. Run ends with
// one summary line (made, failed, made by another runner, and the
// measured/estimated ratio). A failed or killed run leaves no result file
// and runs again on the next call. Before it starts anything, run checks
// that -results is a writable directory (creating it if missing, then
// writing and removing a probe file) and stops with one line if not; a save
// that fails in a way every later save would repeat (a full disk, a
// read-only filesystem, a denied permission) stops the whole run at once,
// with one line. A file that is not a valid result (experiments.Check:
// unreadable, a wrong schema, a missing field, an e_L1 that is negative,
// above 1e6 or not its history's minimum) is named in one line, moved to
// DIR/.bad/ and its run made again; list, report and compare name it and
// count it as missing.
//
//	$ repro run -table osc-baseline,osc-K -tier full
//	$ repro run -tier quick -jobs 2
//
// Flags:
//
//	-table, -tier, -model, -where, -seeds   the selection (see Selection)
//	-jobs N          runs at once (default: the number of usable cores; more is refused)
//	-oversubscribe   allow -jobs above the usable cores (the CPU affinity count);
//	                 the results record contended: true and reports leave their
//	                 times out of speed ratios, saying so in a note
//	-retime          run again the finished runs timed contended (their process
//	                 had less than 95% of its core: other work shared it), for a
//	                 clean time; the numbers come out the same bits
//	-retime-cpu      run again the finished runs made on another CPU (env.machine:
//	                 vendor, family and model; env.cpu for older results),
//	                 so that their times come from this machine; same bits
//	-results DIR     result directory (default results)
//	-kappa-cells N   largest dense M (rows × cols) whose κ is computed (default 4000000);
//	                 a setting, not part of a run's key: a κ run left uncomputed under
//	                 a smaller cap is made again
//	-pin=false       do not pin children (for schedulers that bind cores themselves)
//	-shard i/n       run only shard i (0 <= i < n) of the runs, e.g. 0/4
//	-max-mem SIZE    refuse runs estimated above SIZE (see Memory below)
//
// With -shard i/n the runs the flags name are split into n shards and only
// shard i runs. The split is deterministic and depends only on the set of
// runs, not on their order or on which are finished: the runs, in order of
// decreasing estimated cost (experiments.Cost; ties by key), each go to the
// shard with the least estimated work so far, so that every shard gets about
// the same work and the expensive 2D runs are spread over all of them. Every
// run is in exactly one shard; running all n shards, one after another or at
// once into the same -results directory (one file per run, each written to a
// temporary name and renamed), leaves exactly the results of an unsharded
// run, and a shard run again runs only its runs that have no result:
//
//	$ repro run -table laplace-K -shard 0/2 &
//	$ repro run -table laplace-K -shard 1/2
//
// Inside a Slurm job (SLURM_JOB_ID is set) children are not pinned, unless
// -pin is given: Slurm has bound the task to its cores already. They still
// run with GOMAXPROCS=1, and -jobs defaults to the cores Slurm gave the task.
// On SIGTERM (scancel, the time limit) or SIGINT, run stops its children and
// exits; the unfinished runs leave no result.
//
// Each run is claimed by an exclusive flock on DIR/.locks/<key>.lock, held
// while its child runs, so two runners on one directory never make the same
// run: a runner that finds a run locked goes on with the others, then waits
// for it and counts it as done by another runner (or makes it itself if the
// other runner did not finish it).
//
// # report
//
// Writes, per table, Markdown (ours beside the paper's numbers, with a
// verdict per row: match if our median lies within the paper's median ±
// range, close if within a factor 3, else off) and LaTeX (booktabs, the
// paper's columns), SUMMARY.md with the counts, REPORT.md (provenance, every
// table with its figures, the paper's summary claims recomputed from our
// results), report.tex (an include file), runs.csv (one row per run) and the
// figures (PNG and PDF) under figures/: convergence with a min-max band over
// seeds and final error against the swept parameter per table, the
// solutions, the random basis functions, the sparsity of M and the
// weight-scaling figure. A figure whose runs are missing is skipped with a
// note. The files written are listed in .report-files in -out; the next
// report there removes those it does not write again (regular files inside
// -out only) and figures/ once empty, and no other file. Every text that
// comes from outside the program (the results' commit, Go version, CPU and
// host, the CPU of the machine, captions and notes) is escaped: in Markdown
// \ | * _ ` < > [ ] & ~ get a backslash and line breaks become spaces (the
// report's own commit is a code span fenced to show any backtick; the
// results' commits are escaped text); in Markdown and runs.csv other control
// characters become "?" and bidi and invisible characters (U+202E, U+200B,
// U+2028) show as their escapes (\u202e), and a CSV text cell starting with
// = + - @, a tab or CR gets a leading ' so that no spreadsheet evaluates it;
// LaTeX escapes its special characters (\ { } $ & # % _ ^ ~ < > |) and
// writes other non-ASCII characters as "?". Table ids, which name files, must be
// plain names. Results of one model made by different numerics
// (fingerprints) are refused, naming them, unless -allow-mixed is given.
//
// A results directory may hold result archives (repro publish) beside
// result files, and -results may name one archive file: the published
// results are read as they are.
//
//	$ repro report -tier full -out report
//	$ repro report -tier quick -format md,latex -out /tmp/tables
//	$ repro report -tier full -results published/results -out /tmp/paper
//	$ repro report -table osc-K -results published/results/osc-K.jsonl.gz
//
// Flags:
//
//	-table, -tier, -model, -where, -seeds   the selection (see Selection):
//	                 the tables show the selected rows, over the selected seeds
//	-results DIR     result directory, or one result archive (default results)
//	-out DIR         output directory (default report)
//	-format LIST     any of md, latex, csv, png, pdf (default all)
//	-latex-paper     add the paper's e_L1 and time and the verdict as columns
//	                 to the LaTeX tables (default: the paper's columns, our values)
//	-solutions=false skip the solution figures (drawn from their runs, which
//	                 repro run makes beside each baseline table: the report
//	                 solves nothing; a missing run is a skipped figure)
//	-reproducible    take the report's own provenance (date, commit, Go, CPU)
//	                 from the results, so that the same results give the same
//	                 bytes anywhere (published reports)
//
// # publish
//
// Writes the selected runs' results as archives, one per table
// (OUT/results/<table>.jsonl.gz: gzip JSON lines, one result per line in key
// order; a run shared by tables is in the first; the solution figures' runs
// in solutions.jsonl.gz), then the report made from those archives alone
// with -reproducible into OUT/report (Markdown, LaTeX, CSV, and the figures
// as PNG, for REPORT.md, and as PDF, which report.tex takes; both give the
// same bytes every time). make publish runs it on the full tier
// into published/ and compiles the LaTeX report; make test checks that the
// published report regenerates byte for byte from the published archives and
// that they cover every run of the full tier. It refuses to drop a result
// that an archive it rewrites holds and the selection does not make again
// (a missing -results, or another tier, would empty the archives); -prune
// drops them.
//
//	$ repro publish -tier full -results results -out published
//
// # solve
//
// Runs one configuration in this process and prints one result:
//
//	$ repro solve -problem oscillator -model elm -omega0 80 -J 20 -K 12 -seed 0 -json
//	$ repro solve -problem oscillator -model elm -J 1,10,20 -cond
//	$ repro solve -problem laplace -nomega 4 -J 16 -K 16
//	$ repro solve -problem helmholtz -omega 8 -J 1,8,16
//	$ repro solve -problem oscillator -J 20 -K 12 -solver lsqr-scaled
//	$ repro solve -problem laplace -J 1,8,16 -solver lsqr-block -tau 1e-10
//	$ repro solve -problem helmholtz -solver lsqr-block -stop -atol 1e-8
//	$ repro solve -problem laplace -solver lsqr-block -heldout
//	$ repro solve -problem oscillator -solver lsqr-stop -atol 1e-10 -btol 1e-10 -conlim 1e300
//
// -solver names another least-squares method for the ELM-FBPINN than the
// paper's forced LSQR; it and its options are part of the run's Spec and
// key (an option left at 0, or given its default value, is the method's
// default and out of the key: -tau 1e-8 and no -tau are one run):
//
//   - lsqr-scaled: forced LSQR on the column-scaled M D (no options).
//   - lsqr-stop: LSQR on M stopped by its own tests (SciPy's): -atol, -btol
//     (0: 1e-6) and -conlim (0: 1e8; these systems' κ reaches 1e18, so a
//     large -conlim leaves the residual tests alone). The result's status
//     says which test stopped it, the history's last iteration where.
//   - lsmr-stop: LSMR (Fong and Saunders) on M with the same tests and
//     options: ‖Mᵀr‖ falls at every iteration, so its tests are safer to act
//     on.
//   - lsqr-block: LSQR on M P, P the subdomain block preconditioner: per
//     subdomain (every level's) a QR and SVD of its block of M, keeping the
//     directions with σ > -tau σ_max (0: 1e-8), so each subdomain's columns
//     of M P are orthonormal; forced, or with -stop by LSQR's tests on M P
//     (-atol, -btol, -conlim as above). With -heldout it also stops by the
//     residual at held-out collocation points (a finer grid, less the fit's
//     points; checked every 100 iterations), once -patience checks (0: 10)
//     found no new least, and returns the iterate where it was least: its
//     test error is eL1_final (eL1 stays the paper's minimum over the
//     history). Neither rule reads the test set. -lsmr runs LSMR on M P
//     instead of LSQR. Its set-up is part of the
//     solve time; the status says how many directions it kept.
//
// A result keeps, beside its history, "elapsed_s": the seconds the solve or
// training had taken at each record (set-up included), the time to reach
// an accuracy; the history itself holds no time, so that it is the same
// bits in every run and on every platform.
//
// A run that takes a while says so: first the cost model's estimate when it
// is 10 s or more, then, on stderr, at most every -progress (default 10s; 0:
// never), the iteration or step of the last record of its history, its test
// error and the least so far.
//
// With -json it prints one JSON object with the keys eL1 (the minimum test
// error over the recorded history), eL1_final, time_s (wall time of assembly
// and solve), rows, cols, nnz, and kappa when -cond is given (or kappa_note
// when it was not computed), plus the full result under "result".
//
// # Memory
//
// solve, run and its children (exec) estimate the memory of each
// configuration from its sizes before allocating anything
// (experiments.Memory: the ELM-FBPINN's block-sparse M of rows × (K+1) ×
// subdomains per point, its test matrix, the dense M when κ is computed; the
// network activations of the FBPINN and PINN, points × jet channels × width;
// the PINN's width² parameters), and refuse one above -max-mem with one line
// that gives the estimate and exit status 2. SIZE is bytes or a number with
// K, M, G or T (binary: 8G is 8 GiB); the default is 3/4 of the physical
// memory (MemTotal in /proc/meminfo; no limit where that cannot be read).
// The limit is per run: run checks every run of the selection before it
// starts any, and passes -max-mem on to its children. A size that no run
// could index (a -width of 2000000000, a -J of 10^12) is bad input as well:
//
//	$ repro solve -problem laplace -model elm -J 5000
//	repro solve: laplace/elm param=4 J=5000 K=16 iters=15000 seed=0 needs an estimated 4.72 TiB of memory, above the limit of 17.7 GiB (3/4 of the 23.5 GiB of physical memory; set it with -max-mem)
//
// # slurm
//
// Writes a Slurm job array that runs the tables in shards on a cluster, and
// a report job that runs after it. It takes the flags of run that choose the
// runs (the selection, -results, -kappa-cells) and writes three
// files:
//
//	job.sbatch          the array, --array=0-(N-1), one task per shard, each
//	                    with --ntasks=1 --cpus-per-task=1, running
//	                    repro run <the flags> -jobs 1 -shard $SLURM_ARRAY_TASK_ID/N
//	job.report.sbatch   repro report with the same flags, into -report-out
//	job.submit.sh       submits the array (sbatch --parsable), then the report
//	                    job with --dependency=afterany:<array job id>
//
// Paths (the binary, -results, -report-out, the logs) are made absolute:
// they must be on a filesystem every node sees. Every value that goes into
// the scripts is shell-quoted, and a value with a control character (a line
// break, a tab, an escape) in any flag is refused with one line: it could
// end a comment or a #SBATCH line and run the rest as a command. Logs go to slurm-logs/
// beside the script, one per task (%x-%A_%a.out).
//
//	$ repro slurm -tier full -shards 64 -partition short -account proj42 -out paper.sbatch
//	wrote /home/me/elmfbpinn/paper.sbatch (array of 64 tasks, --time=... --mem=2G), ...
//	$ sh paper.submit.sh
//	array_job=81234 report_job=81235
//
// A task that fails, is cancelled or hits its time limit loses only its
// unfinished run; submitting the array again (sh paper.submit.sh, or
// sbatch paper.sbatch, or sbatch --array=7 paper.sbatch for one task) runs
// only the runs without a result. With -plan, slurm prints the estimated
// cost per table and the load of each shard and writes nothing:
//
//	$ repro slurm -tier full -shards 8 -plan
//
// Flags (beyond those of run):
//
//	-shards N        array tasks (default: about one estimated core-hour each, at most 1000)
//	-out FILE        the array script (default repro.sbatch); the other two go beside it
//	-time T          sbatch --time per task (default: 3 × the largest shard's estimate + 10 minutes)
//	-mem M           sbatch --mem per task (default 2G)
//	-partition P     sbatch --partition (default: the cluster's)
//	-account A       sbatch --account (default: the user's)
//	-name NAME       job name (default repro; the report job is NAME-report)
//	-report-out DIR  where the report job writes (default report)
//	-logs DIR        the tasks' logs (default slurm-logs beside -out)
//	-repro PATH      the repro binary the tasks run (default: this one)
//	-plan            print the estimates, write nothing
//
// Extra sbatch options (--qos, --constraint, ...) can be given to the submit
// script, which passes its arguments to both sbatch calls.
//
// # digest
//
// Runs the cross-platform cases (experiments.CrossPlatform: ELM-FBPINN,
// FBPINN and PINN runs of every problem) in-process and prints, per case, the
// SHA-256 of the bits of its e_L1 history and its best and final e_L1 as
// exact hexadecimal floats. The numerics compute the same bits on every
// platform, so the output is the same on amd64 at any GOAMD64 level and on
// arm64; scripts/xplat.sh (make xplat, part of make test) checks that:
//
//	$ repro digest -cases osc-elm-s0,laplace-elm-300
//
// # compare
//
// Compares two result directories, OLD and NEW (say, made by the binaries of
// two commits), row by row: for every table row of the tier with results in
// both, over the seeds present on both sides, the medians of e_L1 and their
// ratio NEW/OLD, both ranges (min-max), the two-sided p-value of a
// Mann-Whitney U test of the OLD seeds against the NEW (as benchstat does;
// ties keep their mid-ranks, and up to 50 seeds on both sides together the
// p-value is that of the permutation distribution of the ranks, above it
// the normal approximation with tie and continuity corrections), the same for time (assembly + solve), and a
// verdict: better, worse or ~ (no significant change). A change counts only
// if p < -alpha AND the median ratio is beyond -threshold (e_L1) or
// -time-threshold (time) either way; a row is worse if either metric is,
// better if either is and neither is worse. The time is compared over the
// seeds timed cleanly on both sides only (column timed; CSV time_seeds): a
// seed whose result is contended (env.contended: timed while sharing its
// core, left out of repro report's speed-ups too) on either side is left
// out of it, and a row with none left shows "contended" for its time, its
// verdict e_L1's alone; a note under the table counts them (repro run
// -retime times them again). So is a seed whose two results were timed on
// different kinds of processor (vendor, family and model, env.machine) or
// kernel paths: their times do not compare ("other machine"). Runs present
// on one side only are not compared: a line counts them per table, and
// -missing lists each. The text form fits 120 columns (a block per table;
// a ratio marked * has p < alpha; md and csv give the p-values and the
// ranges); rows are named as repro report names them: the
// table, then the row ("ELM-FBPINN (80, 20) K=12": the model, (param, J)
// and K, then R unless it is 1; in weight-scaling, the problem first).
//
// With 5 seeds per side the smallest possible p is 2/252 ≈ 0.0079 (every
// NEW seed beyond every OLD one); with 2 seeds per side it is 1/3, so rows of
// fewer than 4 seeds can never change at alpha = 0.05. Identical samples (a
// deterministic run repeated: the same seed gives the same bits) give p = 1.
//
//	$ repro compare -tier quick results-main results-branch
//	$ repro compare -tier quick -format md -fail-on worse old new > compare.md
//
// Flags (before or after the directories):
//
//	-table, -tier, -model, -where, -seeds   the selection (see Selection)
//	-alpha A          significance level (default 0.05)
//	-threshold R      e_L1 median ratio that counts (default 1.10)
//	-time-threshold R time median ratio that counts (default 1.25)
//	-format F         text (a terminal table), md (Markdown) or csv (default text)
//	-missing          list every run with a result on one side only
//	-fail-on C        worse: exit with status 1 if a row is worse; any: if a
//	                  row changed either way; both also if NEW has no result
//	                  for a run of OLD (not for runs of NEW only); none (the
//	                  default): never
//
// Bad input exits with status 2 and a one-line reason; a failed run exits
// with status 1; a results directory that cannot be written (missing
// permission, read-only, full) exits with status 3.
package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"elmfbpinn/experiments"
	"elmfbpinn/reports"
)

// usageError is bad user input: exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// printable returns an error line with every control character (a
// terminal escape, a line break) and every bidi or invisible formatting
// character written as a Go escape (\x1b, \u202e), so that no input
// reaches the terminal raw: the last guard after each message's own %q.
func printable(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == utf8.RuneError:
			b.WriteString(`\ufffd`)
		case unicode.IsControl(r) || reports.Hidden(r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

const usage = `usage: repro <command> [flags]

commands:
  list     list the tables and how many runs are done
  run      run tables (row x seed) as pinned child processes, caching results
  report   write Markdown, LaTeX and a summary from cached results
  solve    run one configuration in-process and print its result
  slurm    write a Slurm job array that runs tables in shards, then the report
  digest   run the cross-platform cases and print a digest of each history
  compare  compare two result directories row by row (a regression check)
  publish  write the results as archives, one per table, and the report made from them
  export   write tables as an experiment file (TOML), a start for tables of one's own
  version  print the commit, Go version, kernel path, numerics fingerprints and machine

Run 'repro <command> -h' for the flags of a command.`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
	cmd, args := os.Args[1], os.Args[2:]
	if err := experiments.CheckKernelEnv(); err != nil {
		fmt.Fprintf(os.Stderr, "repro: %v\n", err)
		os.Exit(2)
	}
	var err error
	switch cmd {
	case "list":
		err = cmdList(args)
	case "run":
		err = cmdRun(args)
	case "report":
		err = cmdReport(args)
	case "solve":
		err = cmdSolve(args)
	case "slurm":
		err = cmdSlurm(args)
	case "exec":
		err = cmdExec(args)
	case "digest":
		err = cmdDigest(args)
	case "publish":
		err = cmdPublish(args)
	case "compare":
		err = cmdCompare(args)
	case "export":
		err = cmdExport(args)
	case "version", "-version", "--version":
		err = cmdVersion(args)
	case "-h", "-help", "--help", "help":
		fmt.Println(usage)
		return
	default:
		err = usagef("unknown command %q; want list, run, report, compare, publish, export, solve, slurm, digest or version (repro -h lists them)", cmd)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "repro %s: %s\n", cmd, printable(err.Error()))
		var ue usageError
		if errors.As(err, &ue) {
			os.Exit(2)
		}
		var se storageError
		if errors.As(err, &se) {
			os.Exit(exitStorage)
		}
		os.Exit(1)
	}
}
