package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"elmfbpinn/experiments"
)

// newFlags returns a flag set whose parse errors become one-line usage
// errors; -h prints the flags to standard output.
func newFlags(name, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	// The flag package calls Usage on every parse error too; the help text
	// is printed by parse for -h only, so that errors stay one line.
	fs.Usage = func() {}
	synopses[fs] = synopsis
	return fs
}

// synopses holds each flag set's one-line synopsis for its help text.
var synopses = map[*flag.FlagSet]string{}

// printHelp prints the flags of fs to standard output.
func printHelp(fs *flag.FlagSet) {
	fmt.Fprintf(os.Stdout, "usage: repro %s %s\n\nflags:\n", fs.Name(), synopses[fs])
	fs.SetOutput(os.Stdout)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

// errHelp ends a command after -h without an error status.
var errHelp = errors.New("help")

// setOnce is a flag's value that refuses a second setting: no flag of
// repro but -experiments (a pathList, marked repeatable) is a list given by
// repeating it, and a repeated -where or -seeds would otherwise silently
// keep only the last.
type setOnce struct {
	flag.Value
	set bool
}

func (o *setOnce) Set(v string) error {
	if o.set {
		return errors.New("given twice; give each flag once (-where takes clauses joined by ';', lists take commas)")
	}
	if err := checkValue(v); err != nil {
		return err
	}
	o.set = true
	return o.Value.Set(v)
}

// checkValue refuses a flag value or argument that is empty (an unset shell
// variable: an empty -table would otherwise mean every table), not UTF-8, or
// holds a control character (a newline, a tab, a terminal escape): no value
// of repro's needs one, and none is echoed. The flag package quotes the
// value in its message (%q).
func checkValue(v string) error {
	switch {
	case v == "":
		return errors.New("empty; leave the flag out for its default")
	case !utf8.ValidString(v):
		return errors.New("not UTF-8 text")
	case strings.ContainsFunc(v, unicode.IsControl):
		return errors.New("holds a control character (a newline, tab or escape)")
	}
	return nil
}

// IsBoolFlag passes the wrapped value's, so that "-flag" alone still sets
// a boolean flag.
func (o *setOnce) IsBoolFlag() bool {
	b, ok := o.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// once makes every flag of fs refuse a second setting (setOnce) until
// restore puts the flags' own values back (for the help text, which reads
// their types).
func once(fs *flag.FlagSet) (restore func()) {
	fs.VisitAll(func(f *flag.Flag) {
		if _, ok := f.Value.(interface{ repeatable() }); !ok {
			f.Value = &setOnce{Value: f.Value}
		}
	})
	return func() {
		fs.VisitAll(func(f *flag.Flag) {
			if o, ok := f.Value.(*setOnce); ok {
				f.Value = o.Value
			}
		})
	}
}

// parse parses flags that take no positional argument.
func parse(fs *flag.FlagSet, args []string) error {
	pos, err := parseWithArgs(fs, args)
	if err == nil && len(pos) > 0 {
		return usagef("unexpected argument %q (see repro %s -h)", pos[0], fs.Name())
	}
	return err
}

// parseWithArgs parses flags that may come before, between or after the
// positional arguments, and returns the positional arguments. -h prints
// the help (errHelp); a bad flag, or one given twice, is a usage error.
func parseWithArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	restore := once(fs)
	err := fs.Parse(args)
	for err == nil && fs.NArg() > 0 {
		args = fs.Args()
		if args[0] == "--" {
			pos = append(pos, args[1:]...)
			break
		}
		pos = append(pos, args[0])
		err = fs.Parse(args[1:])
	}
	restore()
	for _, a := range pos {
		if verr := checkValue(a); err == nil && verr != nil {
			err = fmt.Errorf("argument %q: %v", a, verr)
		}
	}
	switch {
	case errors.Is(err, flag.ErrHelp):
		printHelp(fs)
		return nil, errHelp
	case err != nil:
		return nil, usagef("%v (see repro %s -h)", err, fs.Name())
	}
	return pos, nil
}

// maxListValues caps how many values a list like -seeds may expand to: a
// larger list is an input error, said before anything is expanded.
const maxListValues = 10000

// parseInts parses a list like "0,1,2", "0-4" or "0-2,7" of non-negative
// integers into its distinct values in the order given. A list of more
// than maxListValues values is refused before it is expanded, so that a
// range like 0-99999999 costs nothing.
func parseInts(what, s string) ([]int, error) {
	type span struct{ a, b int }
	var spans []span
	total := 0
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		lo, hi, isRange := strings.Cut(part, "-")
		a, err1 := strconv.Atoi(strings.TrimSpace(lo))
		b := a
		var err2 error
		if isRange {
			b, err2 = strconv.Atoi(strings.TrimSpace(hi))
		}
		if err1 != nil || err2 != nil || a < 0 || b < a || strings.HasPrefix(strings.TrimSpace(hi), "+") || strings.HasPrefix(strings.TrimSpace(lo), "+") {
			return nil, usagef("bad %s list %q: want non-negative integers like 0,1,2 or 0-4", what, s)
		}
		// b-a+1 cannot overflow: 0 <= a <= b <= MaxInt.
		if n := uint64(b - a); n >= maxListValues || total+int(n)+1 > maxListValues {
			return nil, usagef("bad %s list %q: more than %d values", what, s, maxListValues)
		}
		total += b - a + 1
		spans = append(spans, span{a, b})
	}
	out := make([]int, 0, total)
	seen := make(map[int]bool, total)
	for _, sp := range spans {
		for k := 0; k <= sp.b-sp.a; k++ { // v++ up to b would overflow at MaxInt
			v := sp.a + k
			if !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
	}
	return out, nil
}

// parseJ parses subdomains per level: "20", "1,10,20" or "[1,10,20]".
func parseJ(s string) ([]int, error) {
	s = strings.Trim(strings.TrimSpace(s), "[]")
	var J []int
	for part := range strings.SplitSeq(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil {
			return nil, usagef("bad -J %q: want subdomains per level like 20 or 1,10,20", s)
		}
		if n < 1 {
			return nil, usagef("bad -J %q: every level needs J >= 1", s)
		}
		J = append(J, n)
	}
	return J, nil
}

// checkResultDir returns a usage error unless dir, the -results of a
// command that reads results, names an existing directory (or a result
// archive, experiments.Archives): a misspelt directory would otherwise
// read as one where nothing has run yet.
func checkResultDir(dir string) error {
	if dir == "" {
		return usagef("-results is empty: name the result directory (repro run -results DIR makes it)")
	}
	st, err := os.Stat(dir)
	switch {
	case err != nil:
		return usagef("result directory %s: %v (repro run -results %s makes it)", dir, experiments.UnwrapPath(err), dir)
	case !st.IsDir() && !experiments.IsArchive(dir):
		return usagef("result directory %s is neither a directory nor a result archive (*%s)", dir, experiments.ArchiveExt)
	}
	return nil
}

// checkOutDir returns a usage error unless dir, the -out of a command that
// writes a folder of files, names a folder that exists or can be made:
// not empty (which would write into the current directory) and not a file.
func checkOutDir(dir string) error {
	if dir == "" {
		return usagef("-out is empty: name the output directory")
	}
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return usagef("-out %s is a file, not a directory", dir)
	}
	return nil
}
