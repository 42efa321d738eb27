package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"

	"elmfbpinn/core/metric"
	"elmfbpinn/experiments"
)

// cmdExec is the child side of 'repro run': it reads one Spec as JSON from
// standard input, runs it, and writes its result atomically into -results.
func cmdExec(args []string) error {
	fs := newFlags("exec", "-results DIR < spec.json  (internal: one run of 'repro run')")
	dir := fs.String("results", "results", "result directory")
	maxMem := addMemFlag(fs)
	cells := fs.Int("kappa-cells", experiments.DefaultKappaCells, "largest dense M (rows x cols) whose kappa is computed")
	every := fs.Duration("progress", 0, "at most this often (0: never), when the run's history gains a record, write it as a line \"progress ITER ITERS EL1 BEST\" on standard output (BEST: the least e_L1 of the history so far)")
	if err := parse(fs, args); err != nil {
		return ignoreHelp(err)
	}
	limit, why, err := memLimit(*maxMem)
	if err != nil {
		return err
	}
	b, err := io.ReadAll(io.LimitReader(os.Stdin, 1<<20))
	if err != nil {
		return err
	}
	var s experiments.Spec
	if err := json.Unmarshal(b, &s); err != nil {
		return usagef("bad spec on standard input: %v", err)
	}
	if err := s.Validate(); err != nil {
		return usagef("bad spec on standard input: %v", err)
	}
	if *cells < 0 {
		return usagef("-kappa-cells %d must not be negative", *cells)
	}
	set := &experiments.Settings{KappaCells: *cells}
	if *every < 0 {
		return usagef("-progress %v must not be negative", *every)
	}
	if *every > 0 {
		// Each line wakes the runner, which may take this core for a
		// moment: a line per record (151 in a 0.1 s run) would cost a
		// short run a tenth of its time.
		set.Progress = throttled(*every, time.Time{}, func(iters int, last, best metric.Record) {
			fmt.Printf(progressLine+"\n", last.Iter, iters, last.EL1, best.EL1)
		})
	}
	if err := checkMemory(s, set, limit, why); err != nil {
		return err
	}
	start, cpu0 := time.Now(), cpuTime()
	res, err := experiments.Execute(s, set)
	if err != nil {
		return fmt.Errorf("%s: %w", s, err)
	}
	res.Env = environment(s.Model, start, cpu0)
	if err := experiments.Save(*dir, res); err != nil {
		if persistentIO(err) {
			return storageError{err}
		}
		return err
	}
	return nil
}

// childProgress is how often a child reports its progress to the runner
// (repro exec -progress): often enough for the live view, rarely enough
// that waking the runner costs the child's time nothing measurable.
const childProgress = time.Second

// progressLine is the form of a line of 'repro exec -progress', written by
// the child and read by the runner (progressLines): the iteration, the
// run's iterations, its test e_L1 there and the least so far.
const progressLine = "progress %d %d %g %g"

// progressReport is a line of 'repro exec -progress': the run's history
// gained a record at iteration (or step) Iter of Iters, of test error EL1;
// Best is the least error of the history so far (NaN errors left out).
type progressReport struct {
	Iter, Iters int
	EL1, Best   float64
}

// progressLines is an io.Writer that calls report with each line of the form
// 'repro exec -progress' writes; other lines are ignored.
type progressLines struct {
	buf    []byte
	long   bool // the line being read is too long to be one of ours: skip to its end
	report func(progressReport)
}

func (w *progressLines) Write(p []byte) (int, error) {
	w.buf = append(w.buf, p...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			break
		}
		var r progressReport
		if n, _ := fmt.Sscanf(string(w.buf[:i]), progressLine, &r.Iter, &r.Iters, &r.EL1, &r.Best); n == 4 && !w.long {
			w.report(r)
		}
		w.buf, w.long = w.buf[i+1:], false
	}
	if len(w.buf) > 1<<10 {
		w.buf, w.long = w.buf[:0], true
	}
	return len(p), nil
}

// storageError is an I/O error that every further write to the results
// directory would repeat (a full disk, a read-only filesystem, a denied
// permission): 'repro exec' exits with status exitStorage, and 'repro run'
// stops at once instead of failing every remaining run.
type storageError struct{ err error }

func (e storageError) Error() string { return e.err.Error() }
func (e storageError) Unwrap() error { return e.err }

// exitStorage is the exit status of a storageError.
const exitStorage = 3

// persistentIO reports whether err is an I/O error that a retry, or the
// next run, would meet again.
func persistentIO(err error) bool {
	for _, e := range []error{syscall.ENOSPC, syscall.EDQUOT, syscall.EROFS, syscall.EACCES, syscall.EPERM} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}
