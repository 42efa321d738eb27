package main

import (
	"slices"
	"strings"
	"testing"

	"elmfbpinn/experiments"
)

// TestParseCPUInfo reads the first processor's block of /proc/cpuinfo as
// two machines give it (an AMD EPYC with AVX-512 under KVM, an arm64
// Neoverse) and names the microarchitecture where the table knows it.
func TestParseCPUInfo(t *testing.T) {
	cases := []struct {
		name, info string
		want       experiments.Machine
	}{
		{"zen4", "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 17\nmodel name\t: AMD EPYC\n" +
			"flags\t\t: fpu sse4_2 avx2 fma avx avx512f avx512bw avx512vl sha_ni\n\nprocessor\t: 1\nvendor_id\t: Other\n",
			experiments.Machine{Vendor: "AuthenticAMD", Family: 25, Model: 17, Name: "AMD EPYC", Uarch: "Zen 4",
				Vector: []string{"sse4_2", "avx", "fma", "avx2", "avx512f", "avx512bw", "avx512vl"}}},
		{"zen3", "vendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 1\nflags\t\t: avx2 fma\n",
			experiments.Machine{Vendor: "AuthenticAMD", Family: 25, Model: 1, Uarch: "Zen 3", Vector: []string{"fma", "avx2"}}},
		{"spr", "vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 143\nflags\t\t: avx512f\n",
			experiments.Machine{Vendor: "GenuineIntel", Family: 6, Model: 143, Uarch: "Sapphire Rapids", Vector: []string{"avx512f"}}},
		{"arm64", "processor\t: 0\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd sve\nCPU implementer\t: 0x41\nCPU part\t: 0xd40\n",
			experiments.Machine{Vendor: "arm64 implementer 0x41", Model: 0xd40, Vector: []string{"asimd", "sve"}}},
	}
	for _, tc := range cases {
		var m experiments.Machine
		parseCPUInfo(strings.NewReader(tc.info), &m)
		m.Uarch = uarch(m.Vendor, m.Family, m.Model)
		if m.Vendor != tc.want.Vendor || m.Family != tc.want.Family || m.Model != tc.want.Model || m.Name != tc.want.Name ||
			m.Uarch != tc.want.Uarch || !slices.Equal(m.Vector, tc.want.Vector) {
			t.Errorf("%s: %+v, want %+v", tc.name, m, tc.want)
		}
	}
	if got := memTotalGiB(strings.NewReader("MemFree: 1 kB\nMemTotal:       24683652 kB\n")); got != 23.5 {
		t.Errorf("MemTotal 24683652 kB = %v GiB, want 23.5", got)
	}
}
