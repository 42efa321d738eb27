package main

import (
	"bufio"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/sys/unix"

	"elmfbpinn/experiments"
)

// thisMachine returns the machine this process runs on, read once from
// /proc/cpuinfo, /proc/meminfo and uname (fields it cannot read are left
// zero).
var thisMachine = sync.OnceValue(func() *experiments.Machine {
	m := &experiments.Machine{Cores: runtime.NumCPU(), OS: runtime.GOOS + "/" + runtime.GOARCH}
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		parseCPUInfo(f, m)
		f.Close()
	}
	if f, err := os.Open("/proc/meminfo"); err == nil {
		m.MemGiB = memTotalGiB(f)
		f.Close()
	}
	var u unix.Utsname
	if unix.Uname(&u) == nil {
		m.Kernel = unix.ByteSliceToString(u.Release[:])
	}
	m.Uarch = uarch(m.Vendor, m.Family, m.Model)
	return m
})

// vectorFlags are the CPU features a Machine lists: those the kernels'
// speed depends on.
var vectorFlags = []string{"sse4_2", "avx", "fma", "avx2", "avx512f", "avx512dq", "avx512bw", "avx512vl", "avx512ifma",
	"asimd", "sve", "sve2"}

// parseCPUInfo fills the processor's fields from /proc/cpuinfo (the first
// processor's block: they are alike).
func parseCPUInfo(r io.Reader, m *experiments.Machine) {
	sc := bufio.NewScanner(io.LimitReader(r, 1<<20))
	sc.Buffer(make([]byte, 64<<10), 64<<10)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			if m.Vendor != "" && strings.TrimSpace(sc.Text()) == "" {
				break // the end of the first processor's block
			}
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch k {
		case "vendor_id":
			m.Vendor = v
		case "CPU implementer": // arm64
			m.Vendor = "arm64 implementer " + v
		case "cpu family":
			m.Family, _ = strconv.Atoi(v)
		case "model":
			m.Model, _ = strconv.Atoi(v)
		case "CPU part":
			if n, err := strconv.ParseInt(v, 0, 64); err == nil {
				m.Model = int(n)
			}
		case "model name":
			m.Name = v
		case "flags", "Features":
			for f := range strings.FieldsSeq(v) {
				if slices.Contains(vectorFlags, f) && !slices.Contains(m.Vector, f) {
					m.Vector = append(m.Vector, f)
				}
			}
		}
	}
	slices.SortFunc(m.Vector, func(a, b string) int { return slices.Index(vectorFlags, a) - slices.Index(vectorFlags, b) })
}

// memTotalGiB reads MemTotal from /proc/meminfo, in GiB to 0.1.
func memTotalGiB(r io.Reader) float64 {
	sc := bufio.NewScanner(io.LimitReader(r, 1<<20))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			if err == nil {
				return math.Round(kb/(1<<20)*10) / 10
			}
		}
	}
	return 0
}

// uarch names the microarchitecture of an x86 processor where it is
// known: AMD's Zen generations by family and model range, and Intel's
// server and recent client cores by model; "" otherwise.
func uarch(vendor string, family, model int) string {
	type span struct {
		lo, hi int
		name   string
	}
	var spans []span
	switch {
	case vendor == "AuthenticAMD" && family == 0x17:
		spans = []span{{0x00, 0x2f, "Zen/Zen+"}, {0x30, 0xff, "Zen 2"}}
	case vendor == "AuthenticAMD" && family == 0x19:
		spans = []span{{0x00, 0x0f, "Zen 3"}, {0x10, 0x1f, "Zen 4"}, {0x20, 0x5f, "Zen 3"}, {0x60, 0x7f, "Zen 4"}, {0xa0, 0xaf, "Zen 4c"}}
	case vendor == "AuthenticAMD" && family == 0x1a:
		spans = []span{{0x00, 0xff, "Zen 5"}}
	case vendor == "GenuineIntel" && family == 6:
		spans = []span{{0x3f, 0x3f, "Haswell"}, {0x4f, 0x4f, "Broadwell"}, {0x55, 0x55, "Skylake-SP/Cascade Lake"},
			{0x5e, 0x5e, "Skylake"}, {0x6a, 0x6c, "Ice Lake-SP"}, {0x7d, 0x7e, "Ice Lake"}, {0x8c, 0x8d, "Tiger Lake"},
			{0x8e, 0x8e, "Kaby/Coffee Lake"}, {0x8f, 0x8f, "Sapphire Rapids"}, {0x97, 0x9a, "Alder Lake"}, {0x9e, 0x9e, "Kaby/Coffee Lake"},
			{0xaa, 0xac, "Meteor Lake"}, {0xad, 0xae, "Granite Rapids"}, {0xb7, 0xbf, "Raptor Lake"}, {0xcf, 0xcf, "Emerald Rapids"}}
	}
	for _, s := range spans {
		if model >= s.lo && model <= s.hi {
			return s.name
		}
	}
	return ""
}
