package main

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"elmfbpinn/experiments"
)

// The fuzz targets of the command line's parsers. A plain go test runs each
// on its seed corpus; go test -fuzz FuzzX runs it on generated inputs (see
// docs/cli.md's "Fuzzing"). Every parser must return, quickly, either a value
// that satisfies its contract or a one-line usage error.

// checkUsage fails if err is not a one-line usage error.
func checkUsage(t *testing.T, in string, err error) {
	t.Helper()
	var ue usageError
	if !errors.As(err, &ue) {
		t.Fatalf("%q: error %v (%T) is not a usage error", in, err, err)
	}
	if strings.ContainsAny(err.Error(), "\n\r") {
		t.Fatalf("%q: error %q is not one line", in, err)
	}
}

func FuzzParseInts(f *testing.F) {
	for _, s := range []string{"0", "0-4", "0-2,7", "7, 0-2 ,1", "", "-1", "3-1", "0-99999999", "0-9223372036854775807",
		"9223372036854775807", "1,,2", "+3", "0-9999", "5-5,5", "1-2-3", "0x10", "١"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := parseInts("seed", s)
		if err != nil {
			checkUsage(t, s, err)
			return
		}
		if len(got) == 0 || len(got) > maxListValues {
			t.Fatalf("%q: %d values, want 1 to %d", s, len(got), maxListValues)
		}
		seen := map[int]bool{}
		for _, v := range got {
			if v < 0 || seen[v] {
				t.Fatalf("%q: value %d negative or repeated in %v", s, v, got)
			}
			seen[v] = true
		}
		// experiments.FormatInts writes a list as the flag takes it:
		// parsing what it writes gives the list back.
		sorted := slices.Sorted(slices.Values(got))
		text := experiments.FormatInts(sorted)
		if back, err := parseInts("seed", text); err != nil || !slices.Equal(back, sorted) {
			t.Fatalf("%q: FormatInts(%v) = %q parses to %v, %v", s, sorted, text, back, err)
		}
	})
}

func FuzzParseJ(f *testing.F) {
	for _, s := range []string{"20", "1,10,20", "[1,10,20]", " [ 4 ] ", "0", "1,0", "", "abc", "1,,2", "99999999999999999999", "-3", "[[1]]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		js, err := parseJ(s)
		if err != nil {
			checkUsage(t, s, err)
			return
		}
		if len(js) == 0 {
			t.Fatalf("%q: no levels", s)
		}
		for _, j := range js {
			if j < 1 {
				t.Fatalf("%q: level with J = %d", s, j)
			}
		}
	})
}

func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"0/4", "3/4", "4/4", "x", "1/0", "-1/2", " 1 / 2 ", "0/9223372036854775807", "1/2/3", "/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sh, err := parseShard(s)
		if err != nil {
			checkUsage(t, s, err)
			return
		}
		if !(sh.N >= 1 && sh.I >= 0 && sh.I < sh.N) {
			t.Fatalf("%q: shard %+v", s, sh)
		}
		if again, err := parseShard(sh.String()); err != nil || again != sh {
			t.Fatalf("%q: %v does not parse back (%v, %v)", s, sh, again, err)
		}
	})
}

func FuzzParseBytes(f *testing.F) {
	for _, s := range []string{"8G", "500M", "1073741824", "2GiB", "1.5T", "0", "-1", "lots", "1e400", "NaN", "Inf", "8g", "KB", "1e308T"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := parseBytes(s)
		if err != nil {
			return
		}
		if !(v > 0) || math.IsInf(v, 0) {
			t.Fatalf("%q: size %v, want positive and finite", s, v)
		}
	})
}

// FuzzReportFiles gives pruneReport a previous report's list (.report-files)
// of any content: it must return at once, remove only regular files inside
// -out that the list names and the new report does not write, never a file
// outside -out, a directory or a file the new report wrote, and write a list
// of local paths only.
func FuzzReportFiles(f *testing.F) {
	for _, c := range []string{"", "a.md\nfigures/x.png\n", "../outside\n", "/etc/passwd\n", "keep.md\n", "sub\n", "link/secret\n",
		"a.md\r\n\x00\n", strings.Repeat("a/", 3000) + "\n", "figures\n./a.md\n"} {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, list []byte) {
		dir := t.TempDir()
		out := filepath.Join(dir, "out")
		mine := []string{filepath.Join(dir, "outside"), filepath.Join(out, "keep.md"), filepath.Join(out, "sub", "x"), filepath.Join(dir, "home", "secret")}
		for _, p := range append(mine, filepath.Join(out, "a.md"), filepath.Join(out, "figures", "x.png")) {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Symlink(filepath.Join("..", "home"), filepath.Join(out, "link")); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(out, reportFiles), list, 0o644); err != nil {
			t.Fatal(err)
		}
		_, _, err := pruneReport(out, []string{"keep.md"}, true)
		if err != nil && strings.ContainsAny(err.Error(), "\n\r") {
			t.Fatalf("error %q is not one line", err)
		}
		for _, p := range mine {
			if _, err := os.Stat(p); err != nil {
				t.Fatalf("%s removed (list %q)", p, list)
			}
		}
		if err != nil {
			return
		}
		b, err := os.ReadFile(filepath.Join(out, reportFiles))
		if err != nil {
			t.Fatal(err)
		}
		for name := range strings.Lines(string(b)) {
			if name = strings.TrimSuffix(name, "\n"); !filepath.IsLocal(filepath.FromSlash(name)) {
				t.Fatalf("the new list names %q, not a path inside -out", name)
			}
		}
	})
}
