package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestParseInts checks seed lists: ranges, order kept, duplicates dropped,
// and a cap on their length checked before anything is expanded.
func TestParseInts(t *testing.T) {
	cases := []struct {
		in      string
		want    []int
		wantErr string
	}{
		{"0", []int{0}, ""},
		{"0-4", []int{0, 1, 2, 3, 4}, ""},
		{"7, 0-2 ,1", []int{7, 0, 1, 2}, ""},
		{"9999-9999", []int{9999}, ""},
		{"0-9999", nil, ""}, // exactly the cap
		{"0-10000", nil, "more than 10000"},
		{"0-5000,5001-10000", nil, "more than 10000"},
		{"0-99999999", nil, "more than 10000"},
		{"9223372036854775807", []int{9223372036854775807}, ""},
		{"9223372036854775806-9223372036854775807", []int{9223372036854775806, 9223372036854775807}, ""},
		{"", nil, "bad seed list"},
		{"1,", nil, "bad seed list"},
		{"-1", nil, "bad seed list"},
		{"3-1", nil, "bad seed list"},
		{"+3", nil, "bad seed list"},
		{"1-2-3", nil, "bad seed list"},
	}
	for i, tc := range cases {
		start := time.Now()
		got, err := parseInts("seed", tc.in)
		if d := time.Since(start); d > time.Second {
			t.Errorf("case %d (%q): took %v", i, tc.in, d)
		}
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("case %d (%q): error %v, want one containing %q", i, tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("case %d (%q): %v", i, tc.in, err)
			continue
		}
		if tc.want != nil && !slices.Equal(got, tc.want) {
			t.Errorf("case %d (%q): %v, want %v", i, tc.in, got, tc.want)
		}
	}
}

// TestRunSelection runs seeds the quick tier does not have (7 and 8) of the
// oscillator baseline's ELM-FBPINN only: exactly those two runs are made,
// list counts them, and the report's runs.csv holds them.
func TestRunSelection(t *testing.T) {
	dir := t.TempDir()
	res := filepath.Join(dir, "results")
	sel := []string{"-table", "osc-baseline", "-tier", "quick", "-model", "elm", "-seeds", "7,8", "-results", res}
	if _, stderr, code := runRepro(t, append([]string{"run", "-jobs", "1"}, sel...)...); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	files, _ := filepath.Glob(filepath.Join(res, "*.json"))
	if len(files) != 2 {
		t.Fatalf("%d result files, want 2 (seeds 7 and 8 of one row)", len(files))
	}
	stdout, stderr, code := runRepro(t, append([]string{"list"}, sel...)...)
	if code != 0 {
		t.Fatalf("list: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "osc-baseline") || !strings.Contains(stdout, "  2  ") {
		t.Errorf("list %q: want osc-baseline with 2 runs done", stdout)
	}
	if strings.Contains(stdout, "osc-K") {
		t.Errorf("list %q: want only the selected table", stdout)
	}
	out := filepath.Join(dir, "report")
	if _, stderr, code := runRepro(t, append([]string{"report", "-format", "csv,md", "-out", out}, sel...)...); code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	f, err := os.Open(filepath.Join(out, "runs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	seed := slices.Index(recs[0], "seed")
	var seeds []string
	for _, r := range recs[1:] {
		seeds = append(seeds, r[seed])
	}
	if !slices.Equal(seeds, []string{"7", "8"}) {
		t.Errorf("runs.csv seeds %v, want [7 8]", seeds)
	}
}
