package main

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"elmfbpinn/experiments"
)

// cmdPublish writes the selected runs' results as compact archives, one per
// table (experiments.ArchiveExt), into -out/results, and the report made
// from those archives alone into -out/report: what the repository publishes
// (published/), so that a fresh clone shows the whole comparison without
// running anything and `repro report -results published/results` gives the
// same report again, byte for byte.
func cmdPublish(args []string) error {
	fs := newFlags("publish", "[-table LIST] [-tier T] [-model LIST] [-where EXPR] [-seeds LIST] [-experiments FILE] -results DIR [-out DIR] [-prune] [-allow-mixed]")
	sf := addSelectFlags(fs)
	dir := fs.String("results", "results", "result directory to publish from")
	out := fs.String("out", "published", "output directory: archives in OUT/results, the report in OUT/report")
	allowMixed := fs.Bool("allow-mixed", false, "publish results made by different numerics (fingerprints) together")
	prune := fs.Bool("prune", false, "let the archives drop published results that the selection does not make again (by default publish refuses)")
	if err := parse(fs, args); err != nil {
		return ignoreHelp(err)
	}
	tables, err := sf.selection()
	if err != nil {
		return err
	}
	if err := cmp.Or(checkResultDir(*dir), checkOutDir(*out)); err != nil {
		return err
	}
	runs, err := withFigureRuns(tables, sf)
	if err != nil {
		return err
	}
	results, bad, err := experiments.LoadAll(*dir, runs)
	if err != nil {
		return err
	}
	warnBad("publish", bad)
	if err := checkFingerprints(results, *allowMixed); err != nil {
		return err
	}
	archives := archiveSets(runs, results)
	resDir := filepath.Join(*out, "results")
	if n, example, err := dropped(resDir, archives, *prune); err != nil {
		return err
	} else if n > 0 && !*prune {
		return usagef("publishing would drop %d of the results the archives in %s hold (e.g. %s): their runs have no result in %s or are not in the selection (-tier %s); run them, or pass -prune to drop them",
			n, resDir, example, *dir, sf.tier)
	}
	if err := os.MkdirAll(resDir, 0o755); err != nil {
		return err
	}
	published, missing := 0, 0
	for _, r := range runs {
		if results[r.Spec.Key()] == nil {
			missing++
		}
	}
	for _, a := range archives {
		path := filepath.Join(resDir, a.name+experiments.ArchiveExt)
		if len(a.results) == 0 {
			if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
				return err
			}
			continue
		}
		if err := experiments.SaveArchive(path, a.results); err != nil {
			return err
		}
		published += len(a.results)
	}
	fmt.Fprintf(os.Stderr, "repro publish: %d results in %d archives in %s", published, len(archives), resDir)
	if missing > 0 {
		fmt.Fprintf(os.Stderr, "; %d of the selected runs have no result yet (repro list tells which tables)", missing)
	}
	fmt.Fprintln(os.Stderr)
	// Every format: the PDF figures (fixed dates and catalogue order, so
	// the same bytes each time) are what pdflatex takes for report.tex,
	// which names its figures without extension; the PNGs (300 dpi, said
	// in the file) are REPORT.md's.
	rep := append(sf.args(), "-results", resDir, "-out", filepath.Join(*out, "report"), "-reproducible",
		"-format", publishFormats)
	if *allowMixed {
		rep = append(rep, "-allow-mixed")
	}
	return cmdReport(rep)
}

// publishFormats are the formats of the published report: all of them.
const publishFormats = "md,latex,csv,png,pdf"

// dropped counts the results that the archives already in resDir hold and
// the new archives do not, and names one of them. An archive that cannot
// be read (damaged, not a regular file, above its cap) is an error, unless
// prune is set: then it is left out of the count, and the new archive of
// the same name replaces it.
func dropped(resDir string, archives []archiveSet, prune bool) (n int, example string, err error) {
	keep := map[string]bool{}
	for _, a := range archives {
		for _, r := range a.results {
			keep[r.Key] = true
		}
	}
	for _, a := range archives {
		path := filepath.Join(resDir, a.name+experiments.ArchiveExt)
		f, _, err := experiments.OpenRegular(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		var old []*experiments.Result
		if err == nil { // ReadArchive caps what it decompresses
			old, err = experiments.ReadArchive(f)
			f.Close()
		}
		switch {
		case err != nil && prune:
			fmt.Fprintf(os.Stderr, "repro publish: published archive %s cannot be read (%v): replaced (-prune)\n", path, err)
			continue
		case err != nil:
			return 0, "", usagef("published archive %s cannot be read: %v; pass -prune to replace it with the new one (dropping what it held), or restore it", path, err)
		}
		for _, r := range old {
			if !keep[r.Key] {
				n++
				example = cmp.Or(example, r.Spec.String())
			}
		}
	}
	return n, example, nil
}

// archiveSet is the results one archive holds.
type archiveSet struct {
	name    string
	results []*experiments.Result
}

// archiveSets splits the results of runs into archives: one per table, named
// by its id, holding the runs it declares that no earlier table (in the
// order of runs) holds, and one named "solutions" for the runs of the
// solution figures (Spec.Coef). Every result is in exactly one.
func archiveSets(runs []experiments.Run, results map[string]*experiments.Result) []archiveSet {
	var out []archiveSet
	index := map[string]int{}
	seen := map[string]bool{}
	for _, r := range runs {
		name := r.Table.ID
		if r.Spec.Coef {
			name = "solutions"
		}
		i, ok := index[name]
		if !ok {
			i = len(out)
			index[name] = i
			out = append(out, archiveSet{name: name})
		}
		k := r.Spec.Key()
		if res := results[k]; res != nil && !seen[k] {
			seen[k] = true
			out[i].results = append(out[i].results, res)
		}
	}
	return slices.Clip(out)
}
