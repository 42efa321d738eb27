package main

import (
	"bufio"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strings"
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
		return "unknown"
	}
	c := strings.TrimSpace(string(out))
	if st, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(st) > 0 {
		c += "-dirty"
	}
	return c
}

// cpuModel returns the processor's model name from /proc/cpuinfo.
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}

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

// environment describes where a run is made.
func environment(start time.Time) experiments.Env {
	host, _ := os.Hostname()
	return experiments.Env{
		GoVersion:  runtime.Version(),
		CPU:        cpuModel(),
		Commit:     gitCommit(),
		Numerics:   experiments.Fingerprint(),
		Kernel:     experiments.KernelPath(),
		Host:       host,
		GOMAXPROCS: runtime.GOMAXPROCS(0),
		Affinity:   allowedCPUs(),
		Contended:  os.Getenv(contendedEnv) == "1",
		Started:    start.UTC().Format(time.RFC3339),
	}
}
