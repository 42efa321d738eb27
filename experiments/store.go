package experiments

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"elmfbpinn/core/lsqr"
	"elmfbpinn/core/metric"
)

// The result store is a directory with one JSON file per run, named by the
// Spec's key. Files are written to a temporary name in the same directory
// (.tmp-<key>-<pid>-<random>, naming the writer's process) and renamed into
// place, so a reader never sees a partial file and a killed run leaves no
// result; writers of different runs never touch the same file. Every result
// read is checked (Check): a file that is not a valid result is a
// *BadResultError, never a result. This is the package's only file I/O.

// MaxEL1 is the largest e_L1 a valid result may hold. e_L1 is relative to
// the exact solution's spread, so a run that learnt nothing is near 1; far
// above that the number is garbage, not an error measure.
const MaxEL1 = 1e6

// BadDir is the subdirectory of a store where repro run moves files that
// are not valid results.
const BadDir = ".bad"

// Path returns the file of a run's result in dir.
func Path(dir string, s Spec) string { return filepath.Join(dir, s.Key()+".json") }

// BadResultError is a result file that is not a valid result: unreadable
// JSON, a wrong schema, a missing field, or values no run produces.
type BadResultError struct {
	Path   string
	Key    string // the run's (Spec.Key)
	Reason string
}

// Error returns the path and the reason on one line.
func (e *BadResultError) Error() string {
	return fmt.Sprintf("bad result file %s: %s", e.Path, e.Reason)
}

// Save writes r atomically into dir, after checking it as Load would.
func Save(dir string, r *Result) error {
	if err := Check(r, r.Key); err != nil {
		return fmt.Errorf("refusing to save result %s: %w", r.Key, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding result %s: %w", r.Key, err)
	}
	return writeAtomic(filepath.Join(dir, r.Key+".json"), tempPrefix(r.Key, os.Getpid()), append(b, '\n'))
}

// Load reads the result of spec s from dir: its file, or else its line in
// one of dir's archives (ArchiveExt); ok is false if there is neither. dir
// may also be one archive file, whose line of s is read. A
// file that is not a valid result (see Check) gives a *BadResultError; an
// archive that is not valid is an error that names it. A result read from
// an archive is shared by every Load of it: do not modify it.
func Load(dir string, s Spec) (r *Result, ok bool, err error) {
	if IsArchive(dir) {
		r, err := archived(dir, s.Key())
		return r, r != nil, err
	}
	path := Path(dir, s)
	b, err := ReadRegular(path, ResultCap(s))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		r, err := archived(dir, s.Key())
		return r, r != nil, err
	case errors.Is(err, ErrNotRegular), errors.Is(err, ErrTooLarge):
		return nil, false, &BadResultError{Path: path, Key: s.Key(), Reason: err.Error()}
	case err != nil:
		return nil, false, fmt.Errorf("reading %s: %w", path, err)
	}
	r, err = Decode(b, s.Key())
	if err != nil {
		return nil, false, &BadResultError{Path: path, Key: s.Key(), Reason: err.Error()}
	}
	return r, true, nil
}

// requiredFields are the keys every result file has; a solve (Iters > 0)
// also has a history.
var requiredFields = []string{"key", "spec", "time", "env"}

// Decode decodes a result file's bytes and checks the result (Check) for
// the run of the given key.
func Decode(b []byte, key string) (*Result, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, errors.New("empty file")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return nil, fmt.Errorf("not a JSON object: %v", err)
	}
	if fields == nil {
		return nil, errors.New("not a JSON object: null")
	}
	for _, f := range requiredFields {
		if _, ok := fields[f]; !ok {
			return nil, fmt.Errorf("field %q missing", f)
		}
	}
	// The spec alone first (its field, not the whole text again): the cap
	// of a result of its run bounds what is decoded.
	var spec Spec
	if err := json.Unmarshal(fields["spec"], &spec); err != nil {
		return nil, fmt.Errorf("wrong schema: %v", err)
	}
	if max := ResultCap(spec); int64(len(b)) > max {
		return nil, fmt.Errorf("%d bytes, above the cap of %d bytes for a result of its spec", len(b), max)
	}
	r := new(Result)
	if err := json.Unmarshal(b, r); err != nil {
		return nil, fmt.Errorf("wrong schema: %v", err)
	}
	if r.Spec.Iters > 0 {
		if _, ok := fields["history"]; !ok {
			return nil, errors.New(`field "history" missing`)
		}
	}
	if err := Check(r, key); err != nil {
		return nil, err
	}
	return r, nil
}

// Check reports whether r is a valid result of the run with the given key
// (the name of its file), and says what is wrong if not. A valid result is
// one Execute can make of its own spec:
//
//   - its key and its spec's key are the file's;
//   - its spec is one a run can have (Spec.Validate);
//   - times are finite, non-negative and at most MaxSeconds, and the total
//     is assembly + solve (within TimeTolerance);
//   - a solve (Iters > 0) has the history its budget records (see
//     checkHistory): iteration 0, then every RecordEvery of its model, the
//     last record at Iters (earlier only if its status says the solve
//     stopped early); its errors are physically possible (between MinEL1
//     and MaxEL1), e_L1 is their minimum, reached at BestIter (the rule of
//     metric.Best), and e_L1_final the last record's;
//   - a κ-only run (Iters = 0) has no history, no errors and no solve time;
//   - κ, when present, is finite and at least 1 (a condition number).
func Check(r *Result, key string) error {
	switch {
	case r.Key != key:
		return fmt.Errorf("key %q, want %q (the file's name)", r.Key, key)
	case r.Spec.Key() != key:
		return fmt.Errorf("its spec (%s) has key %s, not %s", r.Spec, r.Spec.Key(), key)
	}
	if err := r.Spec.Validate(); err != nil {
		return fmt.Errorf("spec: %v", err)
	}
	if err := checkTimes(r.Time); err != nil {
		return err
	}
	if r.Kappa != nil && (!(*r.Kappa >= 1) || math.IsInf(*r.Kappa, 0)) {
		return fmt.Errorf("kappa = %v, want finite and at least 1 (a condition number)", *r.Kappa)
	}
	if !r.Spec.Coef && len(r.Coef) > 0 {
		return fmt.Errorf("%d coefficients, but the spec does not ask for them", len(r.Coef))
	}
	if r.Spec.Coef {
		if len(r.Coef) == 0 || len(r.Coef) != r.Cols {
			return fmt.Errorf("%d coefficients, want one per column of M (%d)", len(r.Coef), r.Cols)
		}
		for i, c := range r.Coef {
			if math.IsNaN(c) || math.IsInf(c, 0) {
				return fmt.Errorf("coefficient %d = %v, want finite", i, c)
			}
		}
	}
	if r.Spec.Iters == 0 {
		if len(r.History) > 0 || r.EL1 != 0 || r.EL1Final != 0 || r.BestIter != 0 || r.Time.Solve != 0 {
			return fmt.Errorf("a kappa-only run (iters 0) with a solve: %d history records, eL1 %v, eL1_final %v, best_iter %d, solve_s %v; want none",
				len(r.History), r.EL1, r.EL1Final, r.BestIter, r.Time.Solve)
		}
		return nil
	}
	if !(r.EL1 >= MinEL1 && r.EL1 <= MaxEL1) {
		return fmt.Errorf("eL1 = %v, want between %g and %g", r.EL1, MinEL1, float64(MaxEL1))
	}
	if err := checkHistory(r); err != nil {
		return err
	}
	best, _ := metric.Best(r.History)
	if best.EL1 != r.EL1 || best.Iter != r.BestIter {
		return fmt.Errorf("eL1 = %v at iteration %d, but the history's minimum is %v at iteration %d", r.EL1, r.BestIter, best.EL1, best.Iter)
	}
	if last := r.History[len(r.History)-1]; r.EL1Final != last.EL1 {
		// A solver that returns an earlier iterate than its last (the
		// held-out rule) returns one of the history's records.
		if !r.Spec.returnsEarlier() || !slices.ContainsFunc(r.History, func(h metric.Record) bool { return h.EL1 == r.EL1Final }) {
			return fmt.Errorf("eL1_final = %v, but the history's last record (iteration %d) is %v", r.EL1Final, last.Iter, last.EL1)
		}
	}
	return nil
}

// stops reports whether the spec's solver may end before its budget by a
// test of its own (LSQR's or LSMR's stopping tests, the held-out rule).
func (s Spec) stops() bool {
	o := s.SolverOpts
	return s.Solver == StopSolver || s.Solver == LSMRSolver || s.Solver == BlockSolver && o != nil && (o.Stop || o.HeldOut)
}

// returnsEarlier reports whether the spec's solver may return an earlier
// iterate than its last (the held-out rule returns the least one's).
func (s Spec) returnsEarlier() bool {
	return s.Solver == BlockSolver && s.SolverOpts != nil && s.SolverOpts.HeldOut
}

// MinEL1 is the smallest e_L1 a valid result may hold. e_L1 is the mean
// |prediction - exact| over the test points relative to the exact
// solution's spread, and both are computed in float64, whose unit
// roundoff is 2^-53 ≈ 1.1e-16: a prediction made of sums of tanh features
// and an exact solution made of sin, cos and exp cannot agree to within a
// hundredth of one rounding on average over hundreds of test points unless
// they agree bit for bit at nearly all of them, which is no measurement.
// The paper's best errors are near 1e-6, ours about the same: the bound is
// ten orders of magnitude below any run.
const MinEL1 = 1e-18

// MaxSeconds is the longest time, in seconds, a valid result may record
// for any part of its run (about 115 days; the longest run of the paper
// takes minutes).
const MaxSeconds = 1e7

// TimeTolerance is how far, relative to the total, a result's total time
// may be from assembly + solve. Execute computes the total as that sum in
// float64 and encoding/json writes the shortest decimal that reads back to
// the same bits, so a result written by this program has the sum exactly;
// the tolerance admits a file rewritten by a tool that prints 15
// significant digits (an error of 5e-16 relative per number), and nothing
// that is not the sum of its parts.
const TimeTolerance = 1e-12

// checkTimes checks a result's times (see Check).
func checkTimes(t Timing) error {
	for _, p := range []struct {
		name string
		v    float64
	}{{"assembly_s", t.Assembly}, {"solve_s", t.Solve}, {"kappa_s", t.Kappa}, {"total_s", t.Total}} {
		if !(p.v >= 0 && p.v <= MaxSeconds) {
			return fmt.Errorf("time %s = %v, want finite, non-negative and at most %g", p.name, p.v, float64(MaxSeconds))
		}
	}
	if sum := t.Assembly + t.Solve; math.Abs(t.Total-sum) > TimeTolerance*max(t.Total, sum) {
		return fmt.Errorf("time total_s = %v, but assembly_s + solve_s = %v (the total is their sum)", t.Total, sum)
	}
	return nil
}

// checkHistory checks that the history of the solve r is the one its
// budget records: iteration 0 first, then every RecordEvery (e) of its
// model, so record i is at i e; the last one at Iters, after the one
// before it and at most e later. The last may be before Iters only if the
// solve stopped early and its status says so: an ELM-FBPINN whose LSQR
// broke down (the Krylov space exhausted; status Breakdown, or
// ZeroSolution when Mᵀb = 0) or whose solver stops by a test of its own
// and did (any LSQR status but IterLimit: lsqr-stop, lsmr-stop, lsqr-block
// with stop or heldout), a PINN or FBPINN whose loss diverged (status
// "..., diverged ..."). Every error is between MinEL1 and MaxEL1.
func checkHistory(r *Result) error {
	h, iters, every := r.History, r.Spec.Iters, RecordEvery(r.Spec.Model)
	if len(h) == 0 {
		return errors.New("a solve with an empty history")
	}
	if n := historyLen(r.Spec); len(h) > n {
		return fmt.Errorf("a history of %d records, but %d iterations recorded every %d make at most %d", len(h), iters, every, n)
	}
	for i, rec := range h {
		if !(rec.EL1 >= MinEL1 && rec.EL1 <= MaxEL1) {
			return fmt.Errorf("history record %d (iteration %d): eL1 = %v, want between %g and %g", i, rec.Iter, rec.EL1, MinEL1, float64(MaxEL1))
		}
		if rec.T != 0 {
			return fmt.Errorf("history record %d (iteration %d) holds a time (t); a result keeps its times in elapsed_s", i, rec.Iter)
		}
		last := i == len(h)-1 && i > 0
		switch {
		case !last && rec.Iter != i*every:
			return fmt.Errorf("history record %d is at iteration %d, want %d (iteration 0, then every %d)", i, rec.Iter, i*every, every)
		case last && !(rec.Iter > (i-1)*every && rec.Iter <= i*every && rec.Iter <= iters):
			return fmt.Errorf("the history's last record is at iteration %d, want after %d, at most %d and at most the %d iterations", rec.Iter, (i-1)*every, i*every, iters)
		}
	}
	if e := r.Elapsed; len(e) > 0 {
		if len(e) != len(h) {
			return fmt.Errorf("elapsed_s has %d times for a history of %d records", len(e), len(h))
		}
		for i, t := range e {
			if !(t >= 0 && t <= MaxSeconds) || i > 0 && t < e[i-1] {
				return fmt.Errorf("elapsed_s[%d] = %v: want times from 0 to %g s that never decrease", i, t, float64(MaxSeconds))
			}
		}
	}
	if last := h[len(h)-1].Iter; last < iters && !stoppedEarly(r) {
		return fmt.Errorf("the history ends at iteration %d of %d, but the status %q does not say the solve stopped early", last, iters, r.Status)
	}
	return nil
}

// stoppedEarly reports whether r's status says its solve ended before its
// budget (see checkHistory).
func stoppedEarly(r *Result) bool {
	if r.Spec.Model == ELM && r.Spec.stops() {
		// Any of LSQR's statuses but the iteration limit (Halted is the
		// last of them); a status that is none of them says nothing.
		for st := lsqr.ZeroSolution; st <= lsqr.Halted; st++ {
			if st != lsqr.IterLimit && strings.HasPrefix(r.Status, st.String()) {
				return true
			}
		}
		return false
	}
	if r.Spec.Model == ELM {
		return strings.HasPrefix(r.Status, lsqr.Breakdown.String()) || strings.HasPrefix(r.Status, lsqr.ZeroSolution.String())
	}
	return strings.Contains(r.Status, "diverged")
}

// historyLen returns the most records the history of a solve of s can
// hold: iteration 0, every RecordEvery and the last.
func historyLen(s Spec) int {
	e := RecordEvery(s.Model)
	return s.Iters/e + 2
}

// MaxResultBytes is the most bytes one result may take, in its file or as
// a line of an archive: above ResultCap of every declared run
// (TestResultCap), which the largest legitimate result is far below (the
// solution figures' runs with their coefficients, about 110 kB).
const MaxResultBytes = 4 << 20

// ResultCap returns the most bytes the result file of s may take, which
// Load reads no more than: 64 KiB for everything but the history and the
// coefficients (the spec, times, status, κ note and env take a few hundred
// bytes; an affinity list of a thousand CPUs 5 kB), 128 bytes per record
// of the history its budget records (historyLen) and 64 per coefficient
// (at most one per column of M), more than twice what the indented form
// of each takes (json.MarshalIndent, as Save writes it); at most
// MaxResultBytes.
func ResultCap(s Spec) int64 {
	b := 64<<10 + 128*float64(max(0, historyLen(s)))
	if s.Coef {
		d := 1.0
		if p, err := ProblemNamed(s.Problem); err == nil {
			d = float64(p.Dim)
		}
		for _, j := range s.J {
			b += 64 * math.Pow(float64(j), d) * (float64(s.K) + 1)
		}
	}
	return int64(min(b, MaxResultBytes))
}

// Quarantine moves the result file of s out of dir into dir/.bad/ (BadDir),
// keeping its name, or with a timestamp suffix if that name is taken, and
// returns where it went. The move is a rename within one filesystem: the
// file is in one place or the other, never half-copied.
func Quarantine(dir string, s Spec) (string, error) {
	bad := filepath.Join(dir, BadDir)
	if err := os.MkdirAll(bad, 0o755); err != nil {
		return "", err
	}
	src := Path(dir, s)
	name := filepath.Base(src)
	dst := filepath.Join(bad, name)
	for i := 0; ; i++ {
		// A hard link fails if dst exists, so a quarantined file is never
		// overwritten; then the original goes.
		err := os.Link(src, dst)
		if err == nil {
			return dst, os.Remove(src)
		}
		if !errors.Is(err, fs.ErrExist) {
			if errors.Is(err, fs.ErrNotExist) {
				return "", err
			}
			// No hard links on this filesystem: rename to a name not
			// taken a moment ago.
			if _, serr := os.Lstat(dst); serr == nil {
				dst = filepath.Join(bad, suffixed(name, i))
				continue
			}
			return dst, os.Rename(src, dst)
		}
		if i > 100 {
			return "", fmt.Errorf("quarantining %s: %w", src, err)
		}
		dst = filepath.Join(bad, suffixed(name, i))
	}
}

// suffixed returns name with a timestamp (and, after the first try, a
// counter) before its extension: abc.json → abc.20261124T101500Z.json.
func suffixed(name string, try int) string {
	ext := filepath.Ext(name)
	stamp := time.Now().UTC().Format("20060102T150405Z")
	if try > 0 {
		stamp += "-" + strconv.Itoa(try)
	}
	return strings.TrimSuffix(name, ext) + "." + stamp + ext
}

// State is what a store holds for one run.
type State int

const (
	Missing State = iota // no file
	Done                 // a valid result made by this binary's numerics
	Stale                // a valid result made by other numerics
	Bad                  // a file that is not a valid result
	Capped               // a κ run left uncomputed under a smaller size cap than asked for
)

// Inspect returns what dir holds for s, for runs made with set (nil: the
// defaults). A Bad state comes with the *BadResultError that says why;
// other errors are I/O errors.
func Inspect(dir string, s Spec, set *Settings) (State, error) {
	r, ok, err := Load(dir, s)
	return stateOf(s, set, r, ok, err)
}

// stateOf returns the State of s for runs made with set, given what Load
// returned for s.
func stateOf(s Spec, set *Settings, r *Result, ok bool, err error) (State, error) {
	var bad *BadResultError
	switch {
	case errors.As(err, &bad):
		return Bad, err
	case err != nil:
		return Missing, err
	case !ok:
		return Missing, nil
	case r.Env.Numerics == "" || r.Env.Numerics != Fingerprint(s.Model):
		return Stale, nil
	case !set.Fulfils(r):
		return Capped, nil
	}
	return Done, nil
}

// Current reports whether dir holds a valid result for s made by numerics
// with this binary's Fingerprint of s's model. A result without one, or with
// another, is stale: repro run computes it again (and the new result
// replaces the file). So is a κ result that set's larger size cap would
// compute (Capped).
func Current(dir string, s Spec, set *Settings) bool {
	st, _ := Inspect(dir, s, set)
	return st == Done
}

// Exists reports whether dir holds a file for s (valid or not, of any
// kind).
func Exists(dir string, s Spec) bool {
	_, err := os.Lstat(Path(dir, s))
	return err == nil
}

// A Listing is a store directory listed once, to look up many runs in it:
// a run whose result file the listing holds is read with Load, and the
// others are looked up in the directory's archives, indexed once. Looking
// up n runs thus costs n plus the directory's files, where n calls of Load
// cost n times the files (each run without a file lists the directory and
// its archives again). A Listing's Load and Inspect give what Load and
// Inspect give while the directory is as it was when listed. It is not for
// concurrent use.
type Listing struct {
	dir      string
	files    map[string]bool // the names in dir; nil if it could not be listed: every lookup is a Load
	archives []string        // dir's archives (Archives)
	indexed  bool            // whether index and err are those of archives
	index    map[string]*Result
	err      error
}

// List lists dir, a store directory or one archive file (as for Load).
func List(dir string) *Listing {
	l := &Listing{dir: dir, files: map[string]bool{}}
	if IsArchive(dir) {
		l.archives = []string{dir}
		return l
	}
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		l.files = nil // Load says what is wrong, for each run looked up
		return l
	}
	for _, e := range entries {
		l.files[e.Name()] = true
	}
	l.archives = archivesIn(dir, entries)
	return l
}

// Load returns what Load(dir, s) returns for the listed directory.
func (l *Listing) Load(s Spec) (r *Result, ok bool, err error) {
	if l.files == nil || l.files[s.Key()+".json"] {
		return Load(l.dir, s)
	}
	// No file: Load would look in the archives, as archived does.
	if !l.indexed {
		l.index, l.err = indexArchives(l.dir, l.archives)
		l.indexed = true
	}
	r = l.index[s.Key()]
	return r, r != nil, l.err
}

// Inspect returns what Inspect(dir, s, set) returns for the listed
// directory.
func (l *Listing) Inspect(s Spec, set *Settings) (State, error) {
	r, ok, err := l.Load(s)
	return stateOf(s, set, r, ok, err)
}

// LoadAll reads every result of the runs from dir, keyed by Spec key;
// missing runs are absent from the map, and so are bad files, which are
// returned in bad (one *BadResultError each, in run order). err is an I/O
// error other than a missing file. The directory is listed once (List).
func LoadAll(dir string, runs []Run) (results map[string]*Result, bad []error, err error) {
	return loadAll(runs, List(dir).Load)
}

// loadAll is LoadAll reading each run with load.
func loadAll(runs []Run, load func(Spec) (*Result, bool, error)) (results map[string]*Result, bad []error, err error) {
	results = make(map[string]*Result)
	seen := map[string]bool{}
	for _, r := range runs {
		k := r.Spec.Key()
		if seen[k] {
			continue
		}
		seen[k] = true
		res, ok, err := load(r.Spec)
		var b *BadResultError
		switch {
		case errors.As(err, &b):
			bad = append(bad, err)
		case err != nil:
			return nil, nil, err
		case ok:
			results[k] = res
		}
	}
	return results, bad, nil
}

// IsTemp reports whether a file name in the store is a temporary file of an
// unfinished write, or a writability probe (ProbePrefix).
func IsTemp(name string) bool {
	return strings.HasPrefix(name, ".tmp-") || strings.HasPrefix(name, ".probe-")
}

// ProbePrefix is the start of the name of the file process pid writes and
// removes to probe that a store is writable (repro run): .probe-<pid>-, so
// that a probe left by a killed process is removed (RemoveProbes).
func ProbePrefix(pid int) string { return ".probe-" + strconv.Itoa(pid) + "-" }

// RemoveProbes removes the probe files of dir (ProbePrefix) whose writer is
// gone, and probes named by no writer (.probe-<random>, as written before
// the pid was part of the name) older than a minute, and returns how many
// it removed. A probe lives for the milliseconds of a write and a sync.
func RemoveProbes(dir string) int {
	probes, _ := filepath.Glob(filepath.Join(dir, ".probe-*"))
	n := 0
	for _, p := range probes {
		pidStr, _, named := strings.Cut(strings.TrimPrefix(filepath.Base(p), ".probe-"), "-")
		pid, err := strconv.Atoi(pidStr)
		owned := named && err == nil && pid > 0
		fi, lerr := os.Lstat(p)
		switch {
		case lerr != nil || !fi.Mode().IsRegular():
			continue
		case owned && alive(pid):
			continue
		case !owned && time.Since(fi.ModTime()) < time.Minute:
			continue
		}
		if os.Remove(p) == nil {
			n++
		}
	}
	return n
}

// tempPrefix is the start of the names of the temporary files process pid
// writes for the result key.
func tempPrefix(key string, pid int) string {
	return ".tmp-" + key + "-" + strconv.Itoa(pid) + "-"
}

// RemoveTemps removes the temporary files of unfinished writes of key's
// result in dir whose writer is gone (no process of its pid exists), and
// returns how many it removed. Files of a live writer, and files whose name
// names no writer, are left alone.
func RemoveTemps(dir, key string) int {
	tmps, _ := filepath.Glob(filepath.Join(dir, ".tmp-"+key+"-*"))
	n := 0
	for _, t := range tmps {
		rest := strings.TrimPrefix(filepath.Base(t), ".tmp-"+key+"-")
		pidStr, _, ok := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidStr)
		if !ok || err != nil || pid <= 0 || alive(pid) {
			continue
		}
		if os.Remove(t) == nil {
			n++
		}
	}
	return n
}

// alive reports whether a process pid exists (on this machine: a writer on
// another node of a shared filesystem looks dead, which is why repro run
// holds a lock per run while its child writes).
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
