package main

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"elmfbpinn/experiments"
	"elmfbpinn/reports"
	"elmfbpinn/study"
)

// cmdCompare compares two result directories row by row: medians, ranges
// and a Mann-Whitney U test of e_L1 and time over the seeds, and a verdict
// per row.
//
//	$ repro compare -tier quick old-results new-results
//	$ repro compare -tier quick -format md -fail-on worse old new
func cmdCompare(args []string) error {
	fs := newFlags("compare", "[-table LIST] [-tier T] [-model LIST] [-where EXPR] [-seeds LIST] [-experiments FILE] [-alpha A] [-threshold R] [-time-threshold R] [-format text|md|csv] [-missing] [-fail-on none|worse|any] OLD NEW")
	sf := addSelectFlags(fs)
	alpha := fs.Float64("alpha", 0.05, "significance level of the U test: a change counts only if p < alpha")
	threshold := fs.Float64("threshold", 1.10, "ratio of e_L1 medians beyond which a significant change counts")
	timeThreshold := fs.Float64("time-threshold", 1.25, "ratio of time medians beyond which a significant change counts")
	format := fs.String("format", reports.CompareText, "output: text (a terminal table), md (Markdown) or csv")
	listMissing := fs.Bool("missing", false, "list every run with a result on one side only (by default: a count per table)")
	failOn := fs.String("fail-on", "none", "exit with status 1 if a row is worse (worse) or changed either way (any), or if a run of OLD has no result in NEW (both); none never fails")
	dirs, err := parseWithArgs(fs, args)
	if err != nil {
		return ignoreHelp(err)
	}
	if len(dirs) != 2 {
		return usagef("want two result directories, OLD and NEW, got %d arguments (see repro compare -h)", len(dirs))
	}
	switch {
	case !(*alpha > 0 && *alpha <= 1):
		return usagef("-alpha %v: want a level in (0, 1], e.g. 0.05", *alpha)
	case !(*threshold >= 1):
		return usagef("-threshold %v: want a ratio of at least 1, e.g. 1.10", *threshold)
	case !(*timeThreshold >= 1):
		return usagef("-time-threshold %v: want a ratio of at least 1, e.g. 1.25", *timeThreshold)
	case !slices.Contains(reports.CompareFormats, *format):
		return usagef("-format %q: want one of %s", *format, strings.Join(reports.CompareFormats, ", "))
	case !slices.Contains([]string{"none", "worse", "any"}, *failOn):
		return usagef("-fail-on %q: want none, worse or any", *failOn)
	}
	for _, d := range dirs {
		if err := checkResultDir(d); err != nil {
			return err
		}
	}
	tables, err := sf.selection()
	if err != nil {
		return err
	}
	runs, err := runsOf(tables, sf.tier)
	if err != nil {
		return err
	}
	sides := make([]map[string]*experiments.Result, 2)
	for i, d := range dirs {
		var bad []error
		if sides[i], bad, err = experiments.LoadAll(d, runs); err != nil {
			return err
		}
		warnBad("compare", bad)
	}
	opt := &study.CompareOptions{Alpha: *alpha, Threshold: *threshold, TimeThreshold: *timeThreshold}
	rows, err := study.Compare(tables, sf.tier, sides[0], sides[1], opt)
	if err != nil {
		return err
	}
	if err := reports.WriteComparison(os.Stdout, rows, *format, opt, *listMissing); err != nil {
		return err
	}
	k := study.Tally(rows)
	var fail []string
	switch {
	case *failOn == "worse" && k.Worse > 0:
		fail = append(fail, fmt.Sprintf("%d of %d rows are worse", k.Worse, len(rows)))
	case *failOn == "any" && k.Worse+k.Better > 0:
		fail = append(fail, fmt.Sprintf("%d of %d rows changed, %d worse and %d better", k.Worse+k.Better, len(rows), k.Worse, k.Better))
	}
	// A NEW that lacks runs of OLD is a candidate that did not run them:
	// what it would have given is unknown, so the gate does not pass it.
	// Runs NEW has and OLD lacks (new rows) are fine.
	if *failOn != "none" && k.MissingNew > 0 {
		fail = append(fail, fmt.Sprintf("NEW has no result for %d %s of OLD (missing in new): run them (repro run -tier %s -results %s, with this comparison's selection)",
			k.MissingNew, study.Plural(k.MissingNew, "run"), sf.tier, dirs[1]))
	}
	if len(fail) > 0 {
		return fmt.Errorf("%s (-fail-on %s)", strings.Join(fail, "; "), *failOn)
	}
	return nil
}
