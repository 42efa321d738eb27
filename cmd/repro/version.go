package main

import (
	"fmt"
	"runtime"

	"elmfbpinn/experiments"
)

// cmdVersion prints what a result made by this binary records of it: the
// commit, the Go version, the kernel path and the numerics fingerprints,
// and the machine it runs on.
//
//	$ repro version
func cmdVersion(args []string) error {
	fs := newFlags("version", "")
	if err := parse(fs, args); err != nil {
		return ignoreHelp(err)
	}
	fmt.Printf("repro %s (%s, %s/%s)\n", gitCommit(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	fmt.Printf("kernels: %s\n", experiments.KernelPath())
	fmt.Printf("numerics: %s\n", experiments.Fingerprints())
	fmt.Printf("machine: %s\n", thisMachine())
	return nil
}
