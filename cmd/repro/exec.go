package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"

	"elmfbpinn/experiments"
)

// cmdExec is the child side of 'repro run': it reads one Spec as JSON from
// standard input, runs it, and writes its result atomically into -results.
func cmdExec(args []string) error {
	fs := newFlags("exec", "-results DIR < spec.json  (internal: one run of 'repro run')")
	dir := fs.String("results", "results", "result directory")
	maxMem := addMemFlag(fs)
	cells := fs.Int("kappa-cells", experiments.DefaultKappaCells, "largest dense M (rows x cols) whose kappa is computed")
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
