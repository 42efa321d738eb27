package main

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"elmfbpinn/experiments"
)

// memShare is the share of physical memory that -max-mem defaults to.
const memShare = 0.75

// addMemFlag adds -max-mem to fs.
func addMemFlag(fs *flag.FlagSet) *string {
	return fs.String("max-mem", "", "refuse a run whose estimated memory is above this, e.g. 8G or 500M (default: 3/4 of physical memory, MemTotal in /proc/meminfo)")
}

// memLimit returns the limit -max-mem sets, in bytes, and says where it
// came from. An empty flag gives memShare of MemTotal; if /proc/meminfo
// cannot be read, no limit (+Inf).
func memLimit(flagVal string) (float64, string, error) {
	if flagVal != "" {
		b, err := parseBytes(flagVal)
		if err != nil {
			return 0, "", usagef("bad -max-mem %q: want a size like 8G, 500M or 1073741824 (bytes), above 0", flagVal)
		}
		return b, "-max-mem " + flagVal, nil
	}
	total, ok := memTotal()
	if !ok {
		return math.Inf(1), "", nil
	}
	return memShare * total, fmt.Sprintf("3/4 of the %s of physical memory; set it with -max-mem", experiments.FormatBytes(total)), nil
}

// parseBytes parses a positive size: a number with an optional binary unit
// K, M, G or T (also KB, KiB, ...).
func parseBytes(s string) (float64, error) {
	s = strings.TrimSpace(s)
	u := strings.TrimRight(strings.ToUpper(s), "IB")
	mult := 1.0
	if n := len(u); n > 0 {
		if i := strings.IndexByte("KMGT", u[n-1]); i >= 0 {
			mult = math.Pow(1024, float64(i+1))
			u = u[:n-1]
		}
	}
	v, err := strconv.ParseFloat(u, 64)
	if err != nil || !(v > 0) || math.IsInf(v*mult, 0) {
		return 0, fmt.Errorf("bad size %q", s)
	}
	return v * mult, nil
}

// memTotal returns MemTotal from /proc/meminfo, in bytes.
func memTotal() (float64, bool) {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:")
		if !ok {
			continue
		}
		fields := strings.Fields(rest)
		if len(fields) == 0 {
			return 0, false
		}
		kb, err := strconv.ParseFloat(fields[0], 64)
		if err != nil || kb <= 0 {
			return 0, false
		}
		return kb * 1024, true
	}
	return 0, false
}

// checkMemory refuses s if its estimated memory (experiments.Memory) is
// above limit, or if its sizes overflow: a usage error that gives the
// estimate, in one line.
func checkMemory(s experiments.Spec, set *experiments.Settings, limit float64, why string) error {
	m, err := experiments.Memory(s, set)
	if err != nil {
		return usageError{err.Error()}
	}
	if m > limit {
		return usagef("%s needs an estimated %s of memory, above the limit of %s (%s)", s, experiments.FormatBytes(m), experiments.FormatBytes(limit), why)
	}
	return nil
}
