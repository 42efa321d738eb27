package main

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"elmfbpinn/experiments"
	"elmfbpinn/reports"
)

// cmdReport writes the report: per table Markdown and LaTeX, REPORT.md (the
// index with provenance, verdict counts, the paper's summary recomputed and
// every figure), report.tex, runs.csv and the figures (PNG and PDF), each
// as -format asks.
//
//	$ repro report -tier quick -out report
//	$ repro report -table osc-K -format md,png -out /tmp/r
func cmdReport(args []string) error {
	fs := newFlags("report", "[-table LIST] [-tier T] [-model LIST] [-where EXPR] [-seeds LIST] [-experiments FILE] [-results DIR] [-out DIR] [-format LIST] [-latex-paper] [-solutions=false] [-allow-mixed] [-reproducible]")
	sf := addSelectFlags(fs)
	dir := fs.String("results", "results", "result directory")
	out := fs.String("out", "report", "output directory")
	formats := fs.String("format", "md,latex,csv,png,pdf", "comma-separated output formats: md, latex, csv, png, pdf")
	latexPaper := fs.Bool("latex-paper", false, "add the paper's values and the verdict as columns to the LaTeX tables")
	solutions := fs.Bool("solutions", true, "draw the solution figures from their runs (png/pdf only)")
	allowMixed := fs.Bool("allow-mixed", false, "report results made by different numerics (fingerprints) together")
	reproducible := fs.Bool("reproducible", false, "take the report's own provenance (date, commit, Go, CPU) from the results, so that the same results give the same bytes anywhere (published reports)")
	if err := parse(fs, args); err != nil {
		return ignoreHelp(err)
	}
	fmts, err := reports.ParseFormats(*formats)
	if err != nil {
		return usageError{"-format: " + err.Error()}
	}
	tables, err := sf.selection()
	if err != nil {
		return err
	}
	if err := cmp.Or(checkResultDir(*dir), checkOutDir(*out)); err != nil {
		return err
	}
	// The list of the previous report is checked before anything is
	// written: one that cannot be read stops the report at once.
	if _, err := readReportFiles(*out); err != nil {
		return usageError{err.Error()}
	}
	runs, err := withFigureRuns(tables, sf)
	if err != nil {
		return err
	}
	results, bad, err := experiments.LoadAll(*dir, runs)
	if err != nil {
		return err
	}
	warnBad("report", bad)
	badKeys := map[string]bool{}
	for _, err := range bad {
		if b, ok := errors.AsType[*experiments.BadResultError](err); ok {
			badKeys[b.Key] = true
		}
	}
	if err := checkFingerprints(results, *allowMixed); err != nil {
		return err
	}
	prov := reports.Provenance{Commit: gitCommit(), GoVersion: runtime.Version(), CPU: thisMachine().String(), Date: time.Now()}
	if *reproducible {
		prov = resultsOwnProvenance(results)
	}
	prov.Stale, prov.Numerics = staleCount(results), experiments.Fingerprints()
	if prov.Stale > 0 {
		fmt.Fprintf(os.Stderr, "repro report: %d of the %d results were made by other numerics than this binary's (%s): stale; repro run makes them again\n",
			prov.Stale, len(results), prov.Numerics)
	}
	b, err := reports.Report(*out, tables, results, &reports.Options{
		Tier:        sf.tier,
		Formats:     fmts,
		NoSolutions: !*solutions,
		LaTeXPaper:  *latexPaper,
		Provenance:  prov,
		Bad:         badKeys,
		Log:         os.Stderr,
	})
	if b != nil { // on an error, the files written before it are listed for the next report to prune
		removed, failed, perr := pruneReport(*out, b.Files, err == nil)
		if removed > 0 {
			fmt.Fprintf(os.Stderr, "repro report: removed %d of the files the previous report in %s wrote, which this one does not write again\n", removed, *out)
		}
		for _, f := range failed {
			fmt.Fprintf(os.Stderr, "repro report: warning: %s is left from the previous report: %s\n", filepath.Join(*out, f.name), f.why)
		}
		err = cmp.Or(err, perr)
	}
	if err != nil {
		return err
	}
	figs, skipped := 0, 0
	entries := slices.Clone(b.Solutions)
	for _, tr := range b.Tables {
		entries = append(entries, tr.Figures...)
	}
	for _, f := range entries {
		if f.Written() {
			figs++
		} else {
			skipped++
		}
	}
	see := ""
	if slices.Contains(fmts, reports.FormatMarkdown) {
		see = fmt.Sprintf(" (see %s)", filepath.Join(*out, "REPORT.md"))
	}
	fmt.Printf("wrote %d tables and %d figures (%d skipped) to %s: %d match, %d close, %d off, %d incomplete rows%s\n",
		len(tables), figs, skipped, *out, b.Counts.Match, b.Counts.Close, b.Counts.Off, b.Counts.Incomplete, see)
	return nil
}

// reportFiles is the file, in a report directory, listing the files the
// report there wrote (one relative path a line): the next report removes
// those it does not write again.
const reportFiles = ".report-files"

// pruneReport removes from the report directory out the files that the
// report written there before listed in reportFiles and the report just
// written (files) did not write again, such as the figures of a table
// dropped from the selection or of a format not asked for this time, so
// that every file in out belongs to one report; then figures/ if that left
// it empty. Only regular files inside out are removed (os.Root: not through
// a symbolic link that leads out of it); a listed name that is anything
// else is left alone, and one that cannot be removed is returned in failed
// and listed again. Files no report listed are never touched. If the
// report was not complete (it stopped on an error), nothing is removed and
// the list keeps the earlier names beside the new ones. It then writes the
// list, and returns how many files it removed.
func pruneReport(out string, files []string, complete bool) (removed int, failed []pruneFailure, err error) {
	root, err := os.OpenRoot(out)
	if err != nil {
		return 0, nil, err
	}
	defer root.Close()
	old, err := readReportFiles(out)
	if err != nil {
		return 0, nil, err
	}
	list := slices.Clone(files)
	for name := range strings.Lines(old) {
		name = filepath.FromSlash(strings.TrimSpace(name))
		if name == "" || !filepath.IsLocal(name) || slices.Contains(list, name) {
			continue
		}
		fi, err := root.Lstat(name)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case !complete:
			list = append(list, name)
			continue
		case err == nil && !fi.Mode().IsRegular():
			continue // a directory or link the list should not name: not ours to remove
		case err == nil:
			err = root.Remove(name)
		}
		if err != nil {
			failed, list = append(failed, pruneFailure{name, err}), append(list, name)
			continue
		}
		removed++
	}
	if fi, err := root.Lstat(reports.FigureDir); err == nil && fi.IsDir() {
		root.Remove(reports.FigureDir) // fails, as meant, unless it is empty
	}
	var b strings.Builder
	for _, f := range list {
		b.WriteString(filepath.ToSlash(f) + "\n")
	}
	return removed, failed, experiments.WriteFile(filepath.Join(out, reportFiles), []byte(b.String()))
}

// maxReportFiles caps the bytes of reportFiles read: a list of a few hundred
// relative paths takes a few kilobytes.
const maxReportFiles = 1 << 20

// readReportFiles returns the contents of out's reportFiles, "" if there is
// none. A reportFiles that is not a regular file (a link, a FIFO, a
// directory) or is above maxReportFiles is not read: an error that says
// what it is and how to fix it, before the report removes anything.
func readReportFiles(out string) (string, error) {
	where := filepath.Join(out, reportFiles)
	b, err := experiments.ReadRegular(where, maxReportFiles)
	switch {
	case err == nil:
		return string(b), nil
	case errors.Is(err, fs.ErrNotExist):
		return "", nil
	case errors.Is(err, experiments.ErrTooLarge):
		return "", fmt.Errorf("%s is more than %d bytes, not a list a report wrote: remove it (a report writes it again)", where, maxReportFiles)
	case errors.Is(err, experiments.ErrNotRegular):
		return "", fmt.Errorf("%s: %v: remove it (a report writes it again)", where, err)
	}
	return "", fmt.Errorf("%s: %v", where, err)
}

// pruneFailure is a file of an earlier report that pruneReport could not
// remove, and why.
type pruneFailure struct {
	name string
	why  error
}

// resultsOwnProvenance is the provenance of a report written with
// -reproducible: dated by the newest result, the writer's commit, Go and
// CPU not recorded (the results' own are listed in the report).
func resultsOwnProvenance(results map[string]*experiments.Result) reports.Provenance {
	p := reports.Provenance{FromResults: true}
	for _, r := range results {
		if t, err := time.Parse(time.RFC3339, r.Env.Started); err == nil && t.After(p.Date) {
			p.Date = t
		}
	}
	return p
}

// checkFingerprints refuses results of one model made by different numerics
// unless allowed, naming for each such model how many runs each fingerprint
// has and an example of each. The models have fingerprints of their own, so
// results of different models may differ.
func checkFingerprints(results map[string]*experiments.Result, allow bool) error {
	type tally struct {
		count   int
		example string
	}
	byModel := map[string]map[string]*tally{}
	for _, r := range results {
		fp := r.Env.Numerics
		if fp == "" {
			fp = "(none: made before fingerprints)"
		}
		fps := byModel[r.Spec.Model]
		if fps == nil {
			fps = map[string]*tally{}
			byModel[r.Spec.Model] = fps
		}
		t := fps[fp]
		if t == nil {
			t = &tally{example: r.Key}
			fps[fp] = t
		}
		t.count++
		t.example = min(t.example, r.Key)
	}
	var parts []string
	for _, m := range experiments.Models {
		fps := byModel[m]
		if len(fps) <= 1 {
			continue
		}
		for _, fp := range slices.Sorted(maps.Keys(fps)) {
			parts = append(parts, fmt.Sprintf("%s %s: %d runs (e.g. %s.json)", m, fp, fps[fp].count, fps[fp].example))
		}
	}
	if len(parts) == 0 || allow {
		return nil
	}
	return usagef("the results were made by different numerics (%s); rerun the stale ones with repro run (this binary: %s), or pass -allow-mixed", strings.Join(parts, "; "), experiments.Fingerprints())
}

// staleCount returns how many results were made by other numerics than
// this binary's (a fingerprint that is not their model's here).
func staleCount(results map[string]*experiments.Result) int {
	n := 0
	for _, r := range results {
		if r.Env.Numerics != experiments.Fingerprint(r.Spec.Model) {
			n++
		}
	}
	return n
}

// warnBad prints one line per bad result file: it is left out, as if the
// run were missing.
func warnBad(cmd string, bad []error) {
	for _, err := range bad {
		fmt.Fprintf(os.Stderr, "repro %s: %v (left out, as missing; repro run moves it to %s/ and runs it again)\n", cmd, err, experiments.BadDir)
	}
}
