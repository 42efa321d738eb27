package experiments

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// The result store is a directory with one JSON file per run, named by the
// Spec's key. Files are written to a temporary name in the same directory and
// renamed into place, so a reader never sees a partial file and a killed run
// leaves no result; writers of different runs never touch the same file.
// This is the package's only file I/O.

// Path returns the file of a run's result in dir.
func Path(dir string, s Spec) string { return filepath.Join(dir, s.Key()+".json") }

// Save writes r atomically into dir.
func Save(dir string, r *Result) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding result %s: %w", r.Key, err)
	}
	f, err := os.CreateTemp(dir, ".tmp-"+r.Key+"-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, werr := f.Write(append(b, '\n'))
	merr := f.Chmod(0o644) // CreateTemp makes 0600; results are shared (e.g. by a cluster's group)
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, merr, serr, cerr); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, filepath.Join(dir, r.Key+".json")); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// Load reads the result of spec s from dir; ok is false if there is none.
func Load(dir string, s Spec) (r *Result, ok bool, err error) {
	b, err := os.ReadFile(Path(dir, s))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	r = new(Result)
	if err := json.Unmarshal(b, r); err != nil {
		return nil, false, fmt.Errorf("%s: %w", Path(dir, s), err)
	}
	return r, true, nil
}

// Current reports whether dir holds a result for s made by numerics with
// this binary's Fingerprint. A result without one, or with another, is stale:
// repro run computes it again (and the new result replaces the file).
func Current(dir string, s Spec) bool {
	r, ok, err := Load(dir, s)
	return err == nil && ok && r.Env.Numerics == Fingerprint()
}

// Exists reports whether dir holds a result for s.
func Exists(dir string, s Spec) bool {
	_, err := os.Stat(Path(dir, s))
	return err == nil
}

// LoadAll reads every result of the runs from dir, keyed by Spec key;
// missing runs are absent from the map.
func LoadAll(dir string, runs []Run) (map[string]*Result, error) {
	out := make(map[string]*Result)
	for _, r := range runs {
		k := r.Spec.Key()
		if _, done := out[k]; done {
			continue
		}
		res, ok, err := Load(dir, r.Spec)
		if err != nil {
			return nil, err
		}
		if ok {
			out[k] = res
		}
	}
	return out, nil
}

// IsTemp reports whether a file name in the store is a temporary file of an
// unfinished write.
func IsTemp(name string) bool { return strings.HasPrefix(name, ".tmp-") }
