package main

import (
	"errors"
	"fmt"
	iofs "io/fs"
	"os"
	"text/tabwriter"

	"elmfbpinn/experiments"
)

func cmdList(args []string) error {
	fs := newFlags("list", "[-table LIST] [-tier T] [-model LIST] [-where EXPR] [-seeds LIST] [-experiments FILE] [-results DIR]")
	sf := addSelectFlags(fs)
	dir := fs.String("results", "results", "result directory")
	if err := parse(fs, args); err != nil {
		return ignoreHelp(err)
	}
	tables, err := sf.selection()
	if err != nil {
		return err
	}
	runs, err := runsOf(tables, sf.tier)
	if err != nil {
		return err
	}
	// A missing directory lists nothing done (a fresh clone has none yet),
	// and says so, in case its name is misspelt.
	if err := checkResultDir(*dir); err != nil {
		if _, serr := os.Stat(*dir); *dir == "" || !errors.Is(serr, iofs.ErrNotExist) {
			return err
		}
		fmt.Fprintf(os.Stderr, "repro list: no result directory %s yet: nothing has run there (repro run -results %s makes it)\n", *dir, *dir)
	}
	type count struct{ rows, runs, done, stale int }
	counts := map[string]*count{}
	reported := map[string]bool{}
	store := experiments.List(*dir)
	for _, r := range runs {
		c := counts[r.Table.ID]
		if c == nil {
			c = &count{rows: len(r.Table.Rows)}
			counts[r.Table.ID] = c
		}
		c.runs++
		st, err := store.Inspect(r.Spec, nil)
		switch st {
		case experiments.Done:
			c.done++
		case experiments.Stale:
			c.stale++
		case experiments.Bad:
			// Counted as missing; said once per file (a run shared by
			// tables is inspected once).
			if !reported[r.Spec.Key()] {
				reported[r.Spec.Key()] = true
				fmt.Fprintf(os.Stderr, "repro list: %v (counted as missing; repro run moves it to %s/ and runs it again)\n", err, experiments.BadDir)
			}
		default:
			if err != nil {
				return err
			}
		}
	}
	fmt.Printf("numerics fingerprints: %s (DONE: results made with their model's; STALE: made by other numerics, run again by repro run)\n", experiments.Fingerprints())
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(w, "TABLE\tPAPER LABEL\tROWS\tRUNS (%s)\tDONE\tSTALE\tTITLE\n", sf.tier)
	// Without a selection every table is listed, those without runs in the
	// tier too; with one, the selected tables and rows.
	if sf.tables == "all" && sf.models == "" && sf.where == "" {
		tables = sf.universe
	}
	for _, t := range tables {
		c := counts[t.ID]
		if c == nil {
			c = &count{rows: len(t.Rows)}
		}
		label := t.Paper
		switch {
		case t.Source != nil:
			label = fmt.Sprintf("(file %s:%d)", t.Source.Path, t.Source.Line)
		case label == "":
			label = "(figure)"
		}
		fmt.Fprintf(w, "%s\t%s\t%d\t%d\t%d\t%d\t%s\n", t.ID, label, c.rows, c.runs, c.done, c.stale, t.Title)
	}
	return w.Flush()
}
