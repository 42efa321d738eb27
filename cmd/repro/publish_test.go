package main

import (
	"bytes"
	"errors"
	"image/png"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"elmfbpinn/experiments"
)

// TestPublishRoundTrip publishes the reports package's test results (the
// full tier of three tables, runs missing) and checks that every result
// went into exactly one archive, that a report written again from the
// archives alone with -reproducible is byte for byte the published one,
// and that the report says which runs are missing instead of failing.
func TestPublishRoundTrip(t *testing.T) {
	out := filepath.Join(t.TempDir(), "published")
	sel := []string{"-tier", "full", "-table", "osc-baseline,osc-K,weight-scaling", "-format", publishFormats}
	_, stderr, code := runRepro(t, append([]string{"publish", "-results",
		filepath.Join("..", "..", "reports", "testdata", "results"), "-out", out}, sel[:4]...)...)
	if code != 0 {
		t.Fatalf("publish: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "have no result yet") {
		t.Errorf("publish does not say that runs are missing: %s", stderr)
	}
	names, err := experiments.Archives(filepath.Join(out, "results"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	keys := map[string]string{}
	for _, n := range names {
		got = append(got, filepath.Base(n))
		f, err := os.Open(n)
		if err != nil {
			t.Fatal(err)
		}
		rs, err := experiments.ReadArchive(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rs {
			if prev, ok := keys[r.Key]; ok {
				t.Errorf("run %s in %s and %s", r.Key, prev, n)
			}
			keys[r.Key] = n
		}
	}
	// weight-scaling's runs with results are all osc-baseline's or osc-K's
	// (R = 1), so it has no archive of its own.
	if want := "osc-K.jsonl.gz osc-baseline.jsonl.gz"; strings.Join(got, " ") != want {
		t.Errorf("archives %q, want %q", got, want)
	}
	tables, err := experiments.Lookup("osc-baseline,osc-K,weight-scaling")
	if err != nil {
		t.Fatal(err)
	}
	var runs []experiments.Run
	for _, tb := range tables {
		rs, _ := tb.Runs(experiments.Full)
		runs = append(runs, rs...)
	}
	found, _, err := experiments.LoadAll(filepath.Join("..", "..", "reports", "testdata", "results"), runs)
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != len(found) || len(found) == 0 {
		t.Errorf("%d results archived, want the %d found", len(keys), len(found))
	}
	again := filepath.Join(t.TempDir(), "report")
	_, stderr, code = runRepro(t, append([]string{"report", "-reproducible", "-results", filepath.Join(out, "results"),
		"-out", again}, sel...)...)
	if code != 0 {
		t.Fatalf("report from the archives: exit %d: %s", code, stderr)
	}
	sameTree(t, filepath.Join(out, "report"), again)
}

// TestPublishKeepsResults checks that publish refuses to drop results its
// archives hold (here: from an empty -results, as a missing results/ or
// another tier would), leaving the archive as it was, and drops them with
// -prune.
func TestPublishKeepsResults(t *testing.T) {
	out, empty := filepath.Join(t.TempDir(), "published"), t.TempDir()
	sel := []string{"-tier", "full", "-table", "osc-K"}
	pub := func(results string, extra ...string) (string, int) {
		args := append(append([]string{"publish", "-results", results, "-out", out}, sel...), extra...)
		_, stderr, code := runRepro(t, args...)
		return stderr, code
	}
	if stderr, code := pub(filepath.Join("..", "..", "reports", "testdata", "results")); code != 0 {
		t.Fatalf("publish: exit %d: %s", code, stderr)
	}
	archive := filepath.Join(out, "results", "osc-K"+experiments.ArchiveExt)
	before, err := os.ReadFile(archive)
	if err != nil {
		t.Fatal(err)
	}
	stderr, code := pub(empty)
	if code != 2 || !strings.Contains(stderr, "publishing would drop") || !strings.Contains(stderr, "-prune") {
		t.Errorf("publish from an empty directory: exit %d, stderr %q; want 2 and the refusal", code, stderr)
	}
	if after, err := os.ReadFile(archive); err != nil || !bytes.Equal(after, before) {
		t.Errorf("the refused publish changed the archive (err %v)", err)
	}
	if stderr, code := pub(empty, "-prune"); code != 0 {
		t.Fatalf("publish -prune: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(archive); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("publish -prune kept the archive of no results (stat: %v)", err)
	}
}

// TestPublishedReport is the check of the repository's published results
// (published/, made by make publish): the report written again from the
// archives alone is byte for byte the published one (every file but the
// compiled report-standalone.pdf), and the archives hold a result
// for every run of the full tier: every declared row with its five seeds,
// the κ runs and the solution figures' runs.
func TestPublishedReport(t *testing.T) {
	pub := filepath.Join("..", "..", "published")
	if _, err := os.Stat(pub); err != nil {
		t.Skip("no published results in this checkout")
	}
	res := filepath.Join(pub, "results")
	// The paper's tables and the studies beyond it (make publish's
	// PUBLISH_EXPERIMENTS), read from the checkout's root as make publish
	// reads them, so that the report names the files alike.
	studies, err := experiments.ReadFiles([]string{filepath.Join("..", "..", "studies")})
	if err != nil {
		t.Fatal(err)
	}
	var runs []experiments.Run
	for _, tb := range append(experiments.Tables(), studies...) {
		rs, err := tb.Runs(experiments.Full)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, rs...)
	}
	sol, err := experiments.SolutionRuns(experiments.Tables(), experiments.Full)
	if err != nil {
		t.Fatal(err)
	}
	runs = append(runs, sol...)
	results, bad, err := experiments.LoadAll(res, runs)
	if err != nil || len(bad) > 0 {
		t.Fatalf("reading the published results: %v %v", err, bad)
	}
	missing := 0
	for _, r := range runs {
		if results[r.Spec.Key()] == nil {
			if missing < 5 {
				t.Errorf("no published result for %s (table %s)", r.Spec, r.Table.ID)
			}
			missing++
		}
	}
	if missing > 0 {
		t.Errorf("%d of the %d runs of the full tier have no published result", missing, len(runs))
	}
	again := filepath.Join(t.TempDir(), "report")
	again, err = filepath.Abs(again)
	if err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runReproIn(t, filepath.Join("..", ".."), "report", "-reproducible", "-tier", "full", "-table", "all", "-experiments", "studies",
		"-results", filepath.Join("published", "results"), "-out", again,
		"-format", publishFormats)
	if code != 0 {
		t.Fatalf("report from the published results: exit %d: %s", code, stderr)
	}
	sameTree(t, filepath.Join(pub, "report"), again)
	compiledAtDrawnSize(t, again)
}

// reprofigLine is the line report.tex's \reprofig writes to the log for
// each figure it places.
var reprofigLine = regexp.MustCompile(`reprofig (\S+): drawn (\S+) x (\S+), placed (\S+) x (\S+)`)

// compiledAtDrawnSize compiles the report-standalone.tex of the report in
// dir with pdflatex, where it is installed, and checks the log: no
// overfull box, no float too large for its page, and every figure placed
// at its drawn size (reports' TestReportLaTeXCompiles checks the sizes
// themselves against the figures'). Skipped, saying so, without pdflatex.
func compiledAtDrawnSize(t *testing.T, dir string) {
	t.Helper()
	if _, err := exec.LookPath("pdflatex"); err != nil {
		t.Log("pdflatex not installed: the compiled report is not checked")
		return
	}
	cmd := exec.Command("pdflatex", "-halt-on-error", "-interaction=nonstopmode", "report-standalone.tex")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "max_print_line=100000") // log lines unbroken
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pdflatex report-standalone.tex: %v\n%s", err, out[max(0, len(out)-2000):])
	}
	log, err := os.ReadFile(filepath.Join(dir, "report-standalone.log"))
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"Overfull \\hbox", "Overfull \\vbox", "Float too large"} {
		if i := bytes.Index(log, []byte(bad)); i >= 0 {
			t.Errorf("the compiled report's log says %q", log[i:min(len(log), i+200)])
		}
	}
	figs, _ := filepath.Glob(filepath.Join(dir, "figures", "*.pdf"))
	placed := reprofigLine.FindAllSubmatch(log, -1)
	for _, m := range placed {
		if !bytes.Equal(m[2], m[4]) || !bytes.Equal(m[3], m[5]) {
			t.Errorf("%s: drawn %s x %s, placed %s x %s", m[1], m[2], m[3], m[4], m[5])
		}
	}
	if len(placed) != len(figs) || len(figs) == 0 {
		t.Errorf("%d figures placed, want the %d PDF figures", len(placed), len(figs))
	}
}

// sameTree checks that the files under want and got are the same, byte for
// byte, leaving out the compiled report (report-standalone.* but its .tex,
// made by pdflatex).
func sameTree(t *testing.T, want, got string) {
	t.Helper()
	files := map[string]bool{}
	for _, root := range []string{want, got} {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				rel, _ := filepath.Rel(root, p)
				if !strings.HasPrefix(filepath.Base(rel), "report-standalone.") || rel == "report-standalone.tex" {
					files[rel] = true
				}
			}
			return nil
		})
	}
	for rel := range files {
		a, errA := os.ReadFile(filepath.Join(want, rel))
		b, errB := os.ReadFile(filepath.Join(got, rel))
		switch {
		case errA != nil || errB != nil:
			t.Errorf("%s: in one tree only (%v, %v)", rel, errA, errB)
		case !bytes.Equal(a, b) && !(strings.HasSuffix(rel, ".png") && samePicture(a, b)):
			t.Errorf("%s differs from the published one (regenerate with make publish)", rel)
		}
	}
}

// samePicture reports whether two PNG files decode to pictures of one size
// whose pixels differ by at most one level (of 255) in any channel. The
// rasteriser (gonum/plot's vg, golang.org/x/image) is third-party float
// code that the compiler fuses into FMAs at GOAMD64=v3 and not at v1, so a
// figure's antialiased edges may round one level apart between builds
// (measured: 2 of 451,440 pixels of a figure, by one level); every text
// file of the report must still be byte for byte the same.
func samePicture(a, b []byte) bool {
	pa, errA := png.Decode(bytes.NewReader(a))
	pb, errB := png.Decode(bytes.NewReader(b))
	if errA != nil || errB != nil || pa.Bounds() != pb.Bounds() {
		return false
	}
	r := pa.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			r1, g1, b1, a1 := pa.At(x, y).RGBA()
			r2, g2, b2, a2 := pb.At(x, y).RGBA()
			for _, d := range [][2]uint32{{r1, r2}, {g1, g2}, {b1, b2}, {a1, a2}} {
				if max(d[0], d[1])-min(d[0], d[1]) > 0x101 {
					return false
				}
			}
		}
	}
	return true
}
