package main

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"elmfbpinn/experiments"
)

// cmdDigest runs the cross-platform cases in-process and prints, per case,
// the SHA-256 of its e_L1 history's bits and its best and final e_L1 as exact
// hexadecimal floats. scripts/xplat.sh compares the output of binaries built
// for GOAMD64=v1, GOAMD64=v3 and arm64.
func cmdDigest(args []string) error {
	fs := newFlags("digest", "[-cases LIST]")
	list := fs.String("cases", "all", "comma-separated case names, or all")
	if err := parse(fs, args); err != nil {
		return ignoreHelp(err)
	}
	stdout := os.Stdout
	cases := experiments.CrossPlatform
	if *list != "all" {
		var names []string
		for _, c := range cases {
			names = append(names, c.Name)
		}
		var picked []experiments.Case
		for _, n := range strings.Split(*list, ",") {
			i := slices.Index(names, n)
			if i < 0 {
				return usagef("unknown case %q (cases: %s)", n, strings.Join(names, ", "))
			}
			picked = append(picked, cases[i])
		}
		cases = picked
	}
	for _, c := range cases {
		res, err := experiments.Execute(c.Spec, nil)
		if err != nil {
			return fmt.Errorf("%s: %w", c.Name, err)
		}
		if len(res.History) == 0 {
			return errors.New(c.Name + ": empty history")
		}
		fmt.Fprintf(stdout, "%-22s %s best=%s final=%s\n", c.Name, experiments.Digest(res),
			strconv.FormatFloat(res.EL1, 'x', -1, 64), strconv.FormatFloat(res.EL1Final, 'x', -1, 64))
	}
	return nil
}
