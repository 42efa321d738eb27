package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"elmfbpinn/experiments"
)

// cmdExport writes tables as an experiment file (TOML): a starting point
// for a table of one's own. A paper table's rows carry the paper's values
// as their reference values, so the copy is judged as the original is.
//
//	$ repro export -table osc-K -id osc-K-mine -out mine.toml
//	$ repro run -experiments mine.toml -tier quick
func cmdExport(args []string) error {
	fs := newFlags("export", "-table LIST [-experiments FILE] [-id NEW] [-out FILE]")
	list := fs.String("table", "", "comma-separated ids of the tables to write (a paper table's or an experiment file's)")
	var files pathList
	fs.Var(&files, "experiments", "an experiment file (TOML) or a directory of them, whose tables may be named too; repeatable")
	id := fs.String("id", "", "the id of the written table (one table only; default its own, which a file may not reuse beside the paper's)")
	out := fs.String("out", "", "the file to write (default: standard output)")
	if err := parse(fs, args); err != nil {
		return ignoreHelp(err)
	}
	if strings.TrimSpace(*list) == "" || *list == "all" {
		return usagef("-table: name the tables to export, e.g. -table osc-K")
	}
	fileTables, err := experiments.ReadFiles(files)
	if err != nil {
		return usageError{err.Error()}
	}
	tables, err := experiments.LookupIn(append(experiments.Tables(), fileTables...), *list)
	if err != nil {
		return usageError{err.Error()}
	}
	if isSet(fs, "id") {
		if len(tables) != 1 {
			return usagef("-id renames one table; -table names %d", len(tables))
		}
		t := *tables[0]
		t.ID = *id
		tables[0] = &t
	}
	var b bytes.Buffer
	if err := experiments.Export(&b, tables...); err != nil {
		return err
	}
	// What is written must read back: an -id that a file may not hold is
	// refused here, not when the file is next read.
	if _, err := experiments.ParseFile("the export", b.Bytes()); err != nil {
		return usagef("-id %q: %v", *id, err)
	}
	for _, t := range tables {
		if _, err := experiments.Lookup(t.ID); err == nil {
			fmt.Fprintf(os.Stderr, "repro export: note: %s is the id of a paper table; give the copy an id of its own (-id, or edit the file) before running it with -experiments\n", t.ID)
		}
	}
	if *out == "" {
		_, err := os.Stdout.Write(b.Bytes())
		return err
	}
	if err := checkOutFile(*out); err != nil {
		return err
	}
	return experiments.WriteFile(*out, b.Bytes())
}

// checkOutFile returns a usage error unless path can name a file to write:
// not a directory.
func checkOutFile(path string) error {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return usagef("-out %s is a directory; name a file", path)
	}
	return nil
}
