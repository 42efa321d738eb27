package main

import (
	"cmp"
	"math"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"elmfbpinn/experiments"
)

// commitEnv carries the git commit from the runner to its children.
const commitEnv = "ELMFBPINN_COMMIT"

// contendedEnv tells a child that the runner runs more children at once
// than it has usable cores (-oversubscribe): its result records Contended.
const contendedEnv = "ELMFBPINN_CONTENDED"

// buildCommit is the commit the binary was built from, set by the Makefile
// with -ldflags "-X main.buildCommit=...".
var buildCommit string

// unknownCommit is the commit recorded by a binary that cannot tell which
// it was built from (built without make build's -ldflags and without Go's
// VCS stamping, and run outside the checkout).
const unknownCommit = "unknown"

// gitCommit returns the commit this code was built from, with "-dirty" for
// uncommitted changes: the runner's (passed to its children), the one stamped
// at build time (make build, or Go's VCS stamping), or failing those the
// checkout in the current directory; "unknown" if none is known.
func gitCommit() string {
	if c := os.Getenv(commitEnv); c != "" {
		return c
	}
	if buildCommit != "" {
		return buildCommit
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		var rev, dirty string
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					dirty = "-dirty"
				}
			}
		}
		if len(rev) >= 12 {
			return rev[:12] + dirty
		}
	}
	out, err := exec.Command("git", "rev-parse", "--short=12", "HEAD").Output()
	if err != nil {
		return unknownCommit
	}
	c := strings.TrimSpace(string(out))
	if st, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(st) > 0 {
		c += "-dirty"
	}
	return c
}

// cpuModel returns the processor's model name (from /proc/cpuinfo, as
// thisMachine reads it), or GOARCH where there is none.
func cpuModel() string { return cmp.Or(thisMachine().Name, runtime.GOARCH) }

// allowedCPUs returns the CPUs this thread may run on.
func allowedCPUs() []int {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return nil
	}
	var cpus []int
	for c := range 1024 {
		if set.IsSet(c) {
			cpus = append(cpus, c)
		}
	}
	return cpus
}

// cpuTime returns the process's CPU time so far (user + system, all
// threads), in seconds.
func cpuTime() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return math.NaN()
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// environment describes where a run of a model is made: the run started at
// start, when the process had used cpu0 seconds of CPU (cpuTime).
func environment(model string, start time.Time, cpu0 float64) experiments.Env {
	host, _ := os.Hostname()
	share := (cpuTime() - cpu0) / time.Since(start).Seconds()
	if math.IsNaN(share) || math.IsInf(share, 0) || share < 0 {
		share = 0
	}
	share = math.Round(share*1000) / 1000
	return experiments.Env{
		GoVersion:  runtime.Version(),
		CPU:        cpuModel(),
		Commit:     gitCommit(),
		Numerics:   experiments.Fingerprint(model),
		Kernel:     experiments.KernelPath(),
		Host:       host,
		GOMAXPROCS: runtime.GOMAXPROCS(0),
		Affinity:   allowedCPUs(),
		Contended:  os.Getenv(contendedEnv) == "1" || share > 0 && share < experiments.MinCPUShare,
		CPUShare:   share,
		Started:    start.UTC().Format(time.RFC3339),
		Machine:    thisMachine(),
	}
}
