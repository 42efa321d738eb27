package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"elmfbpinn/experiments"
	"elmfbpinn/study"
)

func cmdRun(args []string) error {
	fs := newFlags("run", "[-table LIST] [-tier T] [-model LIST] [-where EXPR] [-seeds LIST] [-experiments FILE] [-jobs N] [-results DIR] [-shard i/n] [-kappa-cells N] [-max-mem SIZE] [-pin=false] [-oversubscribe] [-retime] [-retime-cpu] [-calibrate]")
	f := addRunFlags(fs)
	jobs := fs.Int("jobs", 0, "runs at once (0: the number of usable cores)")
	pin := fs.Bool("pin", true, "pin each child to one core; inside a Slurm job (which binds cores itself) only when given explicitly")
	oversubscribe := fs.Bool("oversubscribe", false, "allow -jobs above the usable cores; the results record contended: true and reports leave their times out of speed ratios")
	retime := fs.Bool("retime", false, "run again the finished runs whose time was contended (env.contended: shared core), for a clean time; their numbers come out the same")
	retimeCPU := fs.Bool("retime-cpu", false, "run again the finished runs made on another CPU than this machine's (env.cpu), so that their times come from this machine; their numbers come out the same")
	calibrate := fs.Bool("calibrate", false, "calibrate the cost estimates to this machine by runs now (a few seconds), replacing the kept calibration; by default run calibrates when the work is above 10 minutes and nothing covers it")
	shardFlag := fs.String("shard", "", "run only shard i of n of the runs, e.g. 0/4 (Slurm: $SLURM_ARRAY_TASK_ID/n)")
	maxMem := addMemFlag(fs)
	if err := parse(fs, args); err != nil {
		return ignoreHelp(err)
	}
	if *jobs < 0 {
		return usagef("-jobs %d: want a positive number (or 0 for all cores)", *jobs)
	}
	// More runs at once than usable cores would time them contended.
	if usable := len(allowedCPUs()); usable > 0 && *jobs > usable && !*oversubscribe {
		return usagef("-jobs %d is above the %d usable cores (the CPU affinity): the runs' times would be contended; use -jobs %d or less, or pass -oversubscribe (results then record contended: true)", *jobs, usable, usable)
	}
	var sh shardSpec
	if *shardFlag != "" {
		var err error
		if sh, err = parseShard(*shardFlag); err != nil {
			return err
		}
	}
	p, err := f.plan()
	if err != nil {
		return err
	}
	if sh.N > len(p.specs) {
		return usagef("-shard %s: %d shards for %d runs; want n at most %d (a shard per run)", sh, sh.N, len(p.specs), len(p.specs))
	}
	// Every run must fit in memory before any starts; the limit is per run
	// (each child checks it again).
	limit, why, err := memLimit(*maxMem)
	if err != nil {
		return err
	}
	var tooBig []error
	for _, s := range p.specs {
		if err := checkMemory(s, f.settings(), limit, why); err != nil {
			tooBig = append(tooBig, err)
		}
	}
	if len(tooBig) > 0 {
		more := ""
		if len(tooBig) > 1 {
			more = fmt.Sprintf(" (and %d more runs; narrow the selection with -where or -model)", len(tooBig)-1)
		}
		return usagef("%v%s", tooBig[0], more)
	}
	if f.dir == "" {
		return usagef("-results is empty: name the result directory")
	}
	if err := checkWritable(f.dir); err != nil {
		return err
	}
	specs, scope := p.specs, ""
	if sh.N > 0 {
		// The split is over every run the flags name, finished or not, so
		// that it is the same in every task and on every re-run.
		specs = shardOf(p.specs, sh)
		scope = fmt.Sprintf("shard %s: ", sh)
	}

	// Skip finished runs; stale ones (made by other numerics) run again, and
	// so do bad files (not valid results), once moved out of the way.
	var todo, finished []experiments.Spec
	done, stale, capped, retimed := 0, 0, 0, 0
	store := experiments.List(f.dir)
	for _, s := range specs {
		st, err := store.Inspect(s, f.settings())
		switch st {
		case experiments.Done:
			if again(store.Load, s, *retime, *retimeCPU) {
				retimed++
				todo = append(todo, s)
				continue
			}
			done++
			finished = append(finished, s)
		case experiments.Stale:
			stale++
			todo = append(todo, s)
		case experiments.Capped:
			capped++
			todo = append(todo, s)
		case experiments.Bad:
			dst, qerr := experiments.Quarantine(f.dir, s)
			if errors.Is(qerr, os.ErrNotExist) {
				// Another runner moved it first.
				todo = append(todo, s)
				continue
			}
			if qerr != nil {
				// A .bad that cannot be made or written: a storage error.
				return storageError{fmt.Errorf("%v; moving it aside: %w", err, qerr)}
			}
			fmt.Fprintf(os.Stderr, "repro run: %v: moved to %s, runs again\n", err, dst)
			todo = append(todo, s)
		default:
			if err != nil {
				return err
			}
			todo = append(todo, s)
		}
	}
	if stale > 0 {
		fmt.Fprintf(os.Stderr, "repro run: %d results were made by other numerics (their model's fingerprint is not this binary's: %s): they run again\n", stale, experiments.Fingerprints())
	}
	if retimed > 0 {
		fmt.Fprintf(os.Stderr, "repro run: %d finished runs were timed contended or on another CPU: they run again for a clean time here (-retime, -retime-cpu)\n", retimed)
	}
	if capped > 0 {
		fmt.Fprintf(os.Stderr, "repro run: %d kappa runs were left uncomputed under a smaller -kappa-cells than %d: they run again\n", capped, f.settings().Cells())
	}
	if len(todo) == 0 {
		fmt.Fprintf(os.Stderr, "repro run: %s%d runs, %d already done, 0 to run\n", scope, len(specs), done)
		return nil
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	commit := gitCommit()
	cpus := allowedCPUs()
	if len(cpus) == 0 {
		cpus = []int{0}
		*pin = false
	}
	n := *jobs
	if n == 0 {
		n = len(cpus)
	}
	contended := n > len(cpus)
	n = min(n, len(todo))
	cb := &calibrator{dir: f.dir, exe: exe, commit: commit, cpu: cpus[0], pin: *pin, log: os.Stderr}
	var cal *experiments.Calibration
	if *calibrate {
		made, err := cb.runCalibration()
		if err != nil {
			return fmt.Errorf("calibration: %w", err)
		}
		cal = made
	} else {
		cal = f.calibration(store, finished, todo, cb)
	}
	var est float64
	for _, s := range todo {
		est += cal.Cost(s)
	}
	fmt.Fprintf(os.Stderr, "repro run: %s%d runs, %d already done, %d to run on %d %s at once: estimated %s of one core, about %s in all (%s)\n",
		scope, len(specs), done, len(todo), n, study.Plural(n, "core"), fmtDuration(est), fmtDuration(est/float64(n)), calibrationWords(cal))
	fmt.Fprintf(os.Stderr, "repro run: stop it at any time with Ctrl-C (or kill); the same command resumes: finished runs are kept in %s, unfinished ones leave nothing\n", f.dir)
	if est/float64(n) > 3600 && isTerminal(os.Stderr) && isTerminal(os.Stdin) {
		fmt.Fprintf(os.Stderr, "repro run: more than an hour of work: starting in 10 s (Ctrl-C to stop now)\n")
		time.Sleep(10 * time.Second)
	}

	// Inside a Slurm job the task is already bound to its cores by Slurm:
	// children are not pinned again unless -pin is given explicitly.
	if job := os.Getenv("SLURM_JOB_ID"); job != "" && !isSet(fs, "pin") {
		*pin = false
		id := job
		if t := os.Getenv("SLURM_ARRAY_TASK_ID"); t != "" {
			id = os.Getenv("SLURM_ARRAY_JOB_ID") + "_" + t
		}
		fmt.Fprintf(os.Stderr, "repro run: in Slurm job %s: using Slurm's core binding (CPUs %s), not pinning again\n",
			id, cmp.Or(experiments.FormatInts(allowedCPUs()), "unknown"))
	}

	if commit == unknownCommit {
		fmt.Fprintf(os.Stderr, "repro run: warning: this binary does not know the commit it was built from, so its results record commit %q; build it with make build (or run it inside the checkout)\n", unknownCommit)
	}

	queue := make(chan experiments.Spec)
	var (
		mu     sync.Mutex
		finish int
		failed int
		wg     sync.WaitGroup
		fatal  error                 // a storage error: no further run can save its result
		stop   = make(chan struct{}) // closed on fatal: no more runs start
	)
	// On SIGTERM (Slurm's time limit, scancel) or SIGINT the runner exits:
	// its children die with it (Pdeathsig) and leave no result.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)
	prog := newProgress(os.Stderr, todo, n, cal.Cost)
	go func() {
		sig := <-sigs
		mu.Lock()
		prog.interrupt(fmt.Sprintf("repro run: %v after %d of %d runs; the unfinished runs left no result and run on the next call",
			sig, finish, len(todo)))
		os.Exit(128 + int(sig.(syscall.Signal)))
	}()
	// elsewhere are the runs another runner held the lock of when this one
	// came to them; byOther counts those another runner finished.
	var elsewhere []experiments.Spec
	byOther := 0
	// timedShared counts the runs made here (finish - failed - byOther)
	// whose result records a contended time (under mu, like finish).
	timedShared := 0
	// load reads a run's result as it is now: one found done once locked
	// (another runner may have made it since the listing above), or one
	// just made.
	load := func(s experiments.Spec) (*experiments.Result, bool, error) { return experiments.Load(f.dir, s) }
	// do runs s under its lock. Without wait, a run whose lock is held by
	// another runner is put aside in elsewhere; with wait, do waits for
	// the lock. A run found done once locked is counted, not repeated.
	do := func(s experiments.Spec, cpu int, wait bool) {
		lk, err := lockRun(f.dir, s.Key(), wait)
		if errors.Is(err, errLocked) {
			mu.Lock()
			elsewhere = append(elsewhere, s)
			mu.Unlock()
			return
		}
		if err == nil {
			defer lk.Close()
			if experiments.Current(f.dir, s, f.settings()) && !again(load, s, *retime, *retimeCPU) {
				mu.Lock()
				finish++
				byOther++
				mu.Unlock()
				prog.byOther(s)
				return
			}
			// A runner killed while its child was writing leaves a
			// temporary file, named with the writer's pid.
			experiments.RemoveTemps(f.dir, s.Key())
		}
		fl := prog.begin(s)
		if err == nil {
			err = runChild(exe, s, f.settings(), f.dir, commit, *maxMem, cpu, *pin, contended, func(r progressReport) { prog.update(fl, r, time.Now()) })
		}
		mu.Lock()
		var se storageError
		if errors.As(err, &se) {
			if fatal == nil {
				fatal = se
				close(stop)
			}
			mu.Unlock()
			prog.drop(fl) // the run's line would repeat the final error
			return
		}
		finish++
		if err != nil {
			failed++
		}
		mu.Unlock()
		var res *experiments.Result
		if err == nil {
			res, _, _ = load(s) // for its line and the count of contended times: nil if it cannot be read
			if res != nil && res.Env.Contended {
				mu.Lock()
				timedShared++
				mu.Unlock()
			}
		}
		prog.end(fl, res, err)
	}
	for w := range n {
		cpu := cpus[w%len(cpus)]
		wg.Go(func() {
			for s := range queue {
				do(s, cpu, false)
			}
		})
	}
feed:
	for _, s := range todo {
		select {
		case queue <- s:
		case <-stop:
			break feed
		}
	}
	close(queue)
	wg.Wait()
	// The final pass: wait for the runs another runner was making; those
	// it did not finish (it failed or was killed) run here.
	if len(elsewhere) > 0 && fatal == nil {
		prog.logf("repro run: waiting for %d runs another runner is making", len(elsewhere))
		for _, s := range elsewhere {
			if fatal != nil {
				break
			}
			do(s, cpus[0], true)
		}
	}
	signal.Stop(sigs)
	prog.close()
	if byOther > 0 {
		fmt.Fprintf(os.Stderr, "repro run: %d of the %d runs were made by another runner\n", byOther, len(todo))
	}
	if timedShared > 0 {
		fmt.Fprintf(os.Stderr, "repro run: %d of the %d runs were timed sharing their core (contended: other work on the machine); reports leave their times out of speed ratios, and repro run -retime with the same flags times them again\n", timedShared, finish-failed-byOther)
	}
	if fatal != nil {
		return storageError{fmt.Errorf("%sstopped after %d of %d runs: cannot save results in %s: %v", scope, finish, len(todo), f.dir, fatal)}
	}
	if failed > 0 {
		return fmt.Errorf("%s%d of %d runs failed; rerun to retry them", scope, failed, len(todo))
	}
	return nil
}

// runChild runs one spec in a child process pinned to cpu. The child is
// started from a goroutine locked to its OS thread whose CPU affinity is set
// to that one core: the child inherits the mask, so every thread it makes is
// pinned. The thread is never unlocked, so it exits with the goroutine and
// its mask does not leak back into the runner. If the runner dies, the child
// is killed (Pdeathsig) and leaves no result. report receives the child's
// progress (repro exec -progress).
func runChild(exe string, s experiments.Spec, set *experiments.Settings, dir, commit, maxMem string, cpu int, pin, contended bool,
	report func(progressReport)) error {
	spec, err := json.Marshal(s)
	if err != nil {
		return err
	}
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with this goroutine
		if pin {
			var set unix.CPUSet
			set.Set(cpu)
			if err := unix.SchedSetaffinity(0, &set); err != nil {
				errc <- fmt.Errorf("pinning to CPU %d: %w", cpu, err)
				return
			}
		}
		args := []string{"exec", "-results", dir, "-kappa-cells", fmt.Sprint(set.Cells()), "-progress", childProgress.String()}
		if maxMem != "" {
			args = append(args, "-max-mem", maxMem)
		}
		cmd := exec.Command(exe, args...)
		cmd.Stdin = bytes.NewReader(spec)
		cmd.Stdout = &progressLines{report: report}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		cmd.Env = append(os.Environ(), "GOMAXPROCS=1", commitEnv+"="+commit)
		if contended {
			cmd.Env = append(cmd.Env, contendedEnv+"=1")
		}
		cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		err := cmd.Run()
		if err != nil {
			msg := strings.TrimSpace(stderr.String())
			var ee *exec.ExitError
			if errors.As(err, &ee) && msg != "" {
				err = errors.New(strings.TrimPrefix(msg, "repro exec: "))
			}
			if ee != nil && ee.ExitCode() == exitStorage {
				err = storageError{err}
			}
		}
		errc <- err
	}()
	return <-errc
}

// calibrateAbove is the uncalibrated estimate (seconds of one core) above
// which run calibrates the cost model by runs when this machine's finished
// runs and kept calibration do not cover the runs to make: below it, a few
// seconds of calibration would be a large part of the work.
const calibrateAbove = 600

// calibration returns this machine's calibration of the cost model for the
// runs todo (calibrator.calibrate), from the finished runs of the selection
// and the results directory's kept calibration, and, for work above
// calibrateAbove, calibration runs.
func (f *runFlags) calibration(store *experiments.Listing, finished, todo []experiments.Spec, c *calibrator) *experiments.Calibration {
	var raw float64
	for _, s := range todo {
		raw += experiments.Cost(s)
	}
	return c.calibrate(loadResults(store, finished), todo, raw > calibrateAbove)
}

// keptCalibration returns this machine's calibration for specs from the
// results directory alone (finished runs and the kept calibration), making
// no run: nil where there is none.
func (f *runFlags) keptCalibration(specs []experiments.Spec) *experiments.Calibration {
	if st, err := os.Stat(f.dir); err != nil || !st.IsDir() {
		return nil
	}
	c := &calibrator{dir: f.dir}
	return c.calibrate(loadResults(experiments.List(f.dir), specs), specs, false)
}

// loadResults returns the results store holds of specs (those it does not,
// or cannot read, left out).
func loadResults(store *experiments.Listing, specs []experiments.Spec) []*experiments.Result {
	var out []*experiments.Result
	for _, s := range specs {
		if r, ok, err := store.Load(s); err == nil && ok {
			out = append(out, r)
		}
	}
	return out
}

// calibrationWords says what the estimate is calibrated by.
func calibrationWords(cal *experiments.Calibration) string {
	if cal == nil || len(cal.Scale) == 0 {
		return "the cost model as fitted on an AMD EPYC Zen 3 core with AVX2, not calibrated here"
	}
	return fmt.Sprintf("%s, %s kernels; calibrated by %s: %s", machineShort(), experiments.KernelPath(), cal.From, cal)
}

// again reports whether the finished run s, read with load, is to be made
// again for its time: with contended, if it was timed sharing its core;
// with otherCPU, if it was made on another CPU than this machine's.
func again(load func(experiments.Spec) (*experiments.Result, bool, error), s experiments.Spec, contended, otherCPU bool) bool {
	if !contended && !otherCPU {
		return false
	}
	r, ok, err := load(s)
	if err != nil || !ok {
		return false
	}
	return (contended && r.Env.Contended) || (otherCPU && !sameCPU(r.Env))
}

// sameCPU reports whether a result was made on this machine's kind of
// processor: the same vendor, family and model where the result records
// them (Env.Machine), else the same model name.
func sameCPU(e experiments.Env) bool {
	if e.Machine != nil {
		return e.Machine.ID() == thisMachine().ID()
	}
	return e.CPU == cpuModel()
}

// runsOf returns the runs of tables in a tier.
func runsOf(tables []*experiments.Table, tier string) ([]experiments.Run, error) {
	var runs []experiments.Run
	for _, t := range tables {
		rs, err := t.Runs(tier)
		if err != nil {
			return nil, err
		}
		runs = append(runs, rs...)
	}
	return runs, nil
}

// withFigureRuns returns the runs of the selected tables with, after them,
// the runs of the solution figures of their baselines
// (experiments.SolutionRuns): run and slurm make them, report reads them.
// A selection of seeds or rows (-seeds, -where) names its runs exactly and
// brings none.
func withFigureRuns(tables []*experiments.Table, sf *selectFlags) ([]experiments.Run, error) {
	runs, err := runsOf(tables, sf.tier)
	if err != nil || sf.seeds != "" || sf.where != "" {
		return runs, err
	}
	sol, err := experiments.SolutionRuns(tables, sf.tier)
	if err != nil {
		return nil, err
	}
	return append(runs, sol...), nil
}

func ignoreHelp(err error) error {
	if errors.Is(err, errHelp) {
		return nil
	}
	return err
}

// selectFlags are the flags that select tables, rows and seeds, shared by
// run, list, report, compare, slurm and publish.
type selectFlags struct {
	tables, tier, models, where, seeds string
	experiments                        pathList
	fs                                 *flag.FlagSet
	// universe is what -table chooses from (set by selection): the paper's
	// tables and the experiment files', or, when files are given and
	// -table is not, the files' tables alone.
	universe []*experiments.Table
}

func addSelectFlags(fs *flag.FlagSet) *selectFlags {
	f := &selectFlags{fs: fs}
	fs.StringVar(&f.tables, "table", "all", "comma-separated table ids, or all (with -experiments and no -table: the files' tables alone)")
	fs.StringVar(&f.tier, "tier", experiments.Full, "tier: full or quick")
	fs.StringVar(&f.models, "model", "", "only the rows of these models: comma-separated elm, fbpinn, pinn (default all)")
	fs.StringVar(&f.where, "where", "", "only the rows whose parameters match, e.g. 'K=8,16;J=4' (keys: "+strings.Join(experiments.WhereKeys, ", ")+")")
	fs.StringVar(&f.seeds, "seeds", "", "the seeds of every selected row, replacing the tier's, e.g. 0,1, 0-2 or 5-9 (default: the tier's)")
	fs.Var(&f.experiments, "experiments", "an experiment file (TOML) or a directory of them, whose tables join the paper's; repeatable")
	return f
}

// pathList is a flag that may be given more than once, each time adding a
// path.
type pathList []string

func (p *pathList) String() string { return strings.Join(*p, ",") }

func (p *pathList) Set(v string) error {
	if v == "" {
		return errors.New("empty path: name an experiment file or a directory of them")
	}
	*p = append(*p, v)
	return nil
}

// repeatable marks the flag as one that setOnce leaves alone.
func (p *pathList) repeatable() {}

// tablesNamed returns the tables -table names among the paper's and the
// experiment files' (only the files', when files are given and -table is
// not), and records them in universe.
func (f *selectFlags) tablesNamed() ([]*experiments.Table, error) {
	files, err := experiments.ReadFiles(f.experiments)
	if err != nil {
		return nil, usageError{err.Error()}
	}
	all := append(experiments.Tables(), files...)
	if len(files) > 0 && !isSet(f.fs, "table") {
		f.universe = files
		return files, nil
	}
	f.universe = all
	tables, err := experiments.LookupIn(all, f.tables)
	if err != nil {
		return nil, usageError{err.Error()}
	}
	return tables, nil
}

// selection returns the selected tables (copies that keep the selected rows
// with the selected seeds). A selection that matches no run is a usage
// error naming the values available.
func (f *selectFlags) selection() ([]*experiments.Table, error) {
	if !slices.Contains(experiments.Tiers, f.tier) {
		return nil, usagef("unknown tier %q: want full or quick", f.tier)
	}
	if err := f.checkLists(); err != nil {
		return nil, err
	}
	tables, err := f.tablesNamed()
	if err != nil {
		return nil, err
	}
	var sel experiments.Selection
	if f.models != "" {
		for m := range strings.SplitSeq(f.models, ",") {
			sel.Models = append(sel.Models, strings.TrimSpace(m))
		}
	}
	if sel.Where, err = experiments.ParseWhere(f.where); err != nil {
		return nil, usageError{err.Error()}
	}
	if f.seeds != "" {
		if sel.Seeds, err = parseInts("seed", f.seeds); err != nil {
			return nil, err
		}
	}
	out, err := experiments.Select(tables, f.tier, sel)
	if err != nil {
		return nil, usageError{err.Error()}
	}
	return out, nil
}

// checkLists refuses an empty item in a list of the selection: a stray
// separator (-table osc-K,, -where 'K=8;;', -where 'K=8,,16', -seeds 0,)
// is a typo, not a request for everything.
func (f *selectFlags) checkLists() error {
	for _, l := range []struct{ flag, v, sep string }{{"table", f.tables, ","}, {"model", f.models, ","}, {"seeds", f.seeds, ","}, {"where", f.where, ";"}} {
		if l.v == "" {
			continue
		}
		for item := range strings.SplitSeq(l.v, l.sep) {
			_, vals, _ := strings.Cut(item, "=")
			switch {
			case strings.TrimSpace(item) == "":
				return usagef("-%s %q: an empty item (a stray %q); separate the items with one %q", l.flag, l.v, l.sep, l.sep)
			case l.flag == "where" && slices.ContainsFunc(strings.Split(vals, ","), func(v string) bool { return strings.TrimSpace(v) == "" }):
				return usagef("-where %q: clause %q has an empty value (a stray ','); write key=v1,v2", l.v, strings.TrimSpace(item))
			}
		}
	}
	return nil
}

// args returns the flags that repeat this selection on a command line,
// the experiment files' paths as given (a report names them so: the same
// command gives the same report anywhere); absArgs, for a command that may
// run in another directory (a Slurm job), with absolute paths.
func (f *selectFlags) args() []string { return f.selectArgs(false) }

func (f *selectFlags) absArgs() []string { return f.selectArgs(true) }

func (f *selectFlags) selectArgs(abs bool) []string {
	a := []string{"-tier", f.tier}
	if isSet(f.fs, "table") || len(f.experiments) == 0 {
		a = append([]string{"-table", f.tables}, a...)
	}
	for _, p := range f.experiments {
		if ap, err := filepath.Abs(p); err == nil && abs {
			p = ap
		}
		a = append(a, "-experiments", p)
	}
	if f.models != "" {
		a = append(a, "-model", f.models)
	}
	if f.where != "" {
		a = append(a, "-where", f.where)
	}
	if f.seeds != "" {
		a = append(a, "-seeds", f.seeds)
	}
	return a
}

// runFlags are the flags that choose the runs, shared by run and slurm.
type runFlags struct {
	*selectFlags
	dir   string
	cells int
}

func addRunFlags(fs *flag.FlagSet) *runFlags {
	f := &runFlags{selectFlags: addSelectFlags(fs)}
	fs.StringVar(&f.dir, "results", "results", "result directory")
	fs.IntVar(&f.cells, "kappa-cells", experiments.DefaultKappaCells, "largest dense M (rows x cols) whose kappa is computed")
	return f
}

// settings returns how the runs are made (not part of their keys).
func (f *runFlags) settings() *experiments.Settings {
	return &experiments.Settings{KappaCells: f.cells}
}

// runPlan is the runs a set of run flags names.
type runPlan struct {
	// runs are the distinct runs (the first row that names each), in table
	// order.
	runs []experiments.Run
	// specs are the specs of runs, in the same order.
	specs []experiments.Spec
}

// plan expands the selected tables into their distinct runs.
func (f *runFlags) plan() (*runPlan, error) {
	if f.cells < 0 {
		return nil, usagef("-kappa-cells %d must not be negative", f.cells)
	}
	tables, err := f.selection()
	if err != nil {
		return nil, err
	}
	runs, err := withFigureRuns(tables, f.selectFlags)
	if err != nil {
		return nil, err
	}
	p := new(runPlan)
	seen := map[string]bool{}
	for _, r := range runs {
		k := r.Spec.Key()
		if seen[k] {
			continue
		}
		seen[k] = true
		p.runs = append(p.runs, r)
		p.specs = append(p.specs, r.Spec)
	}
	return p, nil
}

// isSet reports whether the flag name was given on the command line.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// fmtDuration formats seconds as "45s", "12m", "3.4h".
func fmtDuration(sec float64) string {
	switch {
	case sec < 90:
		return fmt.Sprintf("%.0fs", sec)
	case sec < 90*60:
		return fmt.Sprintf("%.0fm", sec/60)
	default:
		return fmt.Sprintf("%.1fh", sec/3600)
	}
}

// checkWritable makes sure dir is a directory results can be written to:
// it creates dir if missing, then writes, syncs and removes a probe file.
// The error says in one line what is wrong; a storageError if the cause
// would stop every save (permission, read-only, full).
func checkWritable(dir string) error {
	fail := func(err error) error {
		err = fmt.Errorf("results directory %s is not writable: %v", dir, experiments.UnwrapPath(err))
		return storageError{err}
	}
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return storageError{fmt.Errorf("results directory %s is not a directory", dir)}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fail(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, lockDir), 0o755); err != nil {
		return fail(fmt.Errorf("cannot make its lock directory %s: %v", lockDir, experiments.UnwrapPath(err)))
	}
	experiments.RemoveProbes(dir)
	f, err := os.CreateTemp(dir, experiments.ProbePrefix(os.Getpid()))
	if err != nil {
		return fail(err)
	}
	_, werr := f.Write([]byte("probe\n"))
	serr := f.Sync()
	cerr := f.Close()
	rerr := os.Remove(f.Name())
	if errors.Is(rerr, fs.ErrNotExist) {
		// Another node's run on a shared filesystem, to which this pid
		// looks dead, removed it (RemoveProbes): written and synced, it
		// proved the directory writable.
		rerr = nil
	}
	if err := errors.Join(werr, serr, cerr, rerr); err != nil {
		return fail(err)
	}
	return nil
}

// lockDir is the subdirectory of a results directory that holds the runs'
// lock files.
const lockDir = ".locks"

// errLocked says another runner holds a run's lock.
var errLocked = errors.New("run locked by another runner")

// lockRun takes the lock of run key: an exclusive flock on
// DIR/.locks/<key>.lock, held while the run's child runs and released when
// the returned file is closed (or the runner dies), so that two runners
// on one directory (two shells, overlapping Slurm tasks) never make the same
// run. Without wait, a lock held elsewhere gives errLocked at once. Lock
// files stay: removing one another runner has open would break the lock.
func lockRun(dir, key string, wait bool) (*os.File, error) {
	locks := filepath.Join(dir, lockDir)
	if err := os.MkdirAll(locks, 0o755); err != nil {
		return nil, storageError{fmt.Errorf("cannot make the lock directory %s: %v", locks, experiments.UnwrapPath(err))}
	}
	f, err := os.OpenFile(filepath.Join(locks, key+".lock"), os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o644)
	if err != nil {
		return nil, storageError{fmt.Errorf("cannot open the lock file %s: %v", filepath.Join(locks, key+".lock"), experiments.UnwrapPath(err))}
	}
	how := unix.LOCK_EX
	if !wait {
		how |= unix.LOCK_NB
	}
	for {
		err = unix.Flock(int(f.Fd()), how)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, errLocked
		}
		return nil, storageError{fmt.Errorf("locking %s: %w", f.Name(), err)}
	}
	return f, nil
}
