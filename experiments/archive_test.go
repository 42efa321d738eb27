package experiments

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"elmfbpinn/core/metric"
)

// resultOf returns a valid solve result of the oscillator baseline's
// ELM-FBPINN row for the seed, with e_L1 e, solved in 100 iterations (so
// that its history of two records is the whole of its schedule).
func resultOf(seed int, e float64) *Result {
	s := Tables()[0].Rows[2].Spec(seed)
	s.Iters = 100
	return &Result{Key: s.Key(), Spec: s, EL1: e, EL1Final: e, BestIter: 100,
		History: []metric.Record{{Iter: 0, EL1: 1}, {Iter: 100, EL1: e}},
		Status:  "IterLimit", Time: Timing{Assembly: 0.01, Solve: 0.05, Total: 0.06},
		Env: Env{Commit: "abc", CPU: "cpu", Numerics: Fingerprint(s.Model), Started: "2026-11-25T00:00:00Z"}}
}

// twoLines returns the archive of the results of seeds 0 and 1 (e_L1 0.1
// and 0.2) and its uncompressed lines.
func twoLines(t testing.TB) (archive, plain []byte) {
	t.Helper()
	var good bytes.Buffer
	if err := WriteArchive(&good, []*Result{resultOf(0, 0.1), resultOf(1, 0.2)}); err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(good.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := b.ReadFrom(zr); err != nil {
		t.Fatal(err)
	}
	return good.Bytes(), b.Bytes()
}

// gz compresses lines into a gzip stream.
func gz(t *testing.T, lines ...string) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	for _, l := range lines {
		w.Write([]byte(l + "\n"))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestArchiveRoundTrip checks that an archive gives back the results it was
// written from, field for field and bit for bit (1/3 and the least e_L1 a
// result may hold survive the JSON text), in key order, and that the same results give the
// same bytes whatever their order.
func TestArchiveRoundTrip(t *testing.T) {
	rs := []*Result{resultOf(0, 1.0/3), resultOf(1, MinEL1), resultOf(2, 0.1), resultOf(3, 0.123456789012345678)}
	var a, b bytes.Buffer
	if err := WriteArchive(&a, rs); err != nil {
		t.Fatal(err)
	}
	if err := WriteArchive(&b, []*Result{rs[2], rs[0], rs[3], rs[1]}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Errorf("the same results in another order gave other bytes")
	}
	got, err := ReadArchive(&a)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(rs) {
		t.Fatalf("read %d results, wrote %d", len(got), len(rs))
	}
	byKey := map[string]*Result{}
	for _, r := range rs {
		byKey[r.Key] = r
	}
	for i, r := range got {
		if i > 0 && got[i-1].Key >= r.Key {
			t.Errorf("line %d: key %s after %s", i+1, r.Key, got[i-1].Key)
		}
		if !reflect.DeepEqual(r, byKey[r.Key]) {
			t.Errorf("result %s changed in the archive:\n got %+v\nwant %+v", r.Key, r, byKey[r.Key])
		}
	}
}

// TestArchiveBad checks that a damaged archive is an error naming the line
// and the fault, never results, and that WriteArchive refuses what Check
// refuses and duplicate keys.
func TestArchiveBad(t *testing.T) {
	good, plain := twoLines(t)
	lines := strings.Split(strings.TrimSpace(string(plain)), "\n")
	two := lines[0] // the line of e_L1 0.2
	if !strings.Contains(two, `"eL1":0.2`) {
		two = lines[1]
	}
	badEL1 := strings.Replace(two, `"eL1":0.2`, `"eL1":0.3`, 1)
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"not gzip", []byte("{}\n"), "not a gzip stream"},
		{"truncated", good[:len(good)/2], "reading"},
		{"garbage line", gz(t, lines[0], "xyz"), "line 2: not a JSON object"},
		{"wrong e_L1", gz(t, badEL1), "line 1: eL1 = 0.3"},
		{"keys out of order", gz(t, lines[1], lines[0]), "line 2: key"},
		{"repeated line", gz(t, lines[0], lines[0]), "want increasing keys"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rs, err := ReadArchive(bytes.NewReader(c.data))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want one containing %q", err, c.want)
			}
			if rs != nil || strings.Contains(err.Error(), "\n") {
				t.Errorf("results %v or a multi-line error %q", rs, err)
			}
		})
	}
	r := resultOf(0, 0.1)
	if err := WriteArchive(new(bytes.Buffer), []*Result{r, resultOf(0, 0.1)}); err == nil {
		t.Errorf("two results of one run archived")
	}
	r.EL1 = 0.5
	if err := WriteArchive(new(bytes.Buffer), []*Result{r}); err == nil {
		t.Errorf("a result whose e_L1 is not its history's minimum archived")
	}
	if err := SaveArchive(filepath.Join(t.TempDir(), "x.json"), nil); err == nil {
		t.Errorf("an archive named without %s saved", ArchiveExt)
	}
}

// TestStoreReadsArchives checks that Load, Inspect and LoadAll see the
// results of a directory's archives, that a result file beside them wins,
// and that two archives holding one run, or a damaged archive, make reads
// fail with an error naming the archives.
func TestStoreReadsArchives(t *testing.T) {
	dir := t.TempDir()
	a, b := resultOf(0, 0.1), resultOf(1, 0.2)
	if err := SaveArchive(filepath.Join(dir, "t1"+ArchiveExt), []*Result{a}); err != nil {
		t.Fatal(err)
	}
	if err := SaveArchive(filepath.Join(dir, "t2"+ArchiveExt), []*Result{b}); err != nil {
		t.Fatal(err)
	}
	if st, err := Inspect(dir, a.Spec, nil); st != Done || err != nil {
		t.Errorf("Inspect of an archived run = %v, %v; want Done", st, err)
	}
	if st, err := Inspect(dir, resultOf(2, 0.1).Spec, nil); st != Missing || err != nil {
		t.Errorf("Inspect of a run in no archive = %v, %v; want Missing", st, err)
	}
	runs := []Run{{Spec: a.Spec}, {Spec: b.Spec}, {Spec: resultOf(2, 0.1).Spec}}
	got, bad, err := LoadAll(dir, runs)
	if err != nil || len(bad) != 0 || len(got) != 2 || got[a.Key].EL1 != 0.1 || got[b.Key].EL1 != 0.2 {
		t.Fatalf("LoadAll = %v, %v, %v; want the two archived results", got, bad, err)
	}
	// One archive file named in place of a directory is read alone.
	one := filepath.Join(dir, "t1"+ArchiveExt)
	if r, ok, err := Load(one, a.Spec); !ok || err != nil || r.EL1 != 0.1 {
		t.Errorf("Load from the archive file = %v, %v, %v; want its result (e_L1 0.1)", r, ok, err)
	}
	if _, ok, err := Load(one, b.Spec); ok || err != nil {
		t.Errorf("Load from the archive file of a run it does not hold = %v, %v; want missing", ok, err)
	}
	// A result file beside the archives wins.
	file := resultOf(1, 0.05)
	if err := Save(dir, file); err != nil {
		t.Fatal(err)
	}
	if r, ok, err := Load(dir, b.Spec); !ok || err != nil || r.EL1 != 0.05 {
		t.Errorf("Load = %v, %v, %v; want the file's result (e_L1 0.05)", r, ok, err)
	}
	// One run in two archives.
	if err := SaveArchive(filepath.Join(dir, "t3"+ArchiveExt), []*Result{a}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Load(dir, resultOf(3, 0.1).Spec); err == nil || !strings.Contains(err.Error(), "both hold run "+a.Key) {
		t.Errorf("Load with a run in two archives: err = %v", err)
	}
	// A damaged archive.
	if err := os.WriteFile(filepath.Join(dir, "t3"+ArchiveExt), []byte("junk"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := LoadAll(dir, runs); err == nil || !strings.Contains(err.Error(), "t3"+ArchiveExt) {
		t.Errorf("LoadAll with a damaged archive: err = %v", err)
	}
}

// TestArchiveCaps checks that an archive is read line by line under its
// caps (issue 33, defect 1: a 1 MB gzip stream of spaces took 2.7 GB): a
// line longer than the cap of one result, or more bytes in all than the
// cap of an archive, is an error naming the line, found having read no more
// than the cap, and the memory a reader allocates stays within a few line caps (a line
// grows by doubling).
func TestArchiveCaps(t *testing.T) {
	good, plain := twoLines(t)
	lines := strings.Split(strings.TrimSpace(string(plain)), "\n")
	spaces := func(n int) []byte {
		var b bytes.Buffer
		w, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		chunk := bytes.Repeat([]byte(" "), 1<<20)
		for n > 0 {
			k := min(n, len(chunk))
			w.Write(chunk[:k])
			n -= k
		}
		w.Close()
		return b.Bytes()
	}
	cases := []struct {
		name     string
		data     []byte
		lineCap  int
		totalCap int64
		want     string
	}{
		{"64 MB of spaces (a bomb)", spaces(64 << 20), MaxResultBytes, MaxArchiveBytes, fmt.Sprintf("line 1: longer than %d bytes", MaxResultBytes)},
		{"a line above its cap", gz(t, lines[0], lines[1]), len(lines[0]) - 1, MaxArchiveBytes, "line 1: longer than"},
		{"lines above the total cap", gz(t, lines[0], lines[1]), MaxResultBytes, int64(len(lines[0]) + 10), "line 2: more than"},
		{"a blank line", gz(t, lines[0], ""), MaxResultBytes, MaxArchiveBytes, "line 2: not a JSON object"},
	}
	for _, c := range cases {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		rs, err := readArchive(bytes.NewReader(c.data), c.lineCap, c.totalCap)
		runtime.ReadMemStats(&after)
		if err == nil || rs != nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %d results, error %v; want none and %q", c.name, len(rs), err, c.want)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(6*c.lineCap+1<<20) {
			t.Errorf("%s: allocated %d bytes, want at most 6 line caps (%d)", c.name, alloc, 6*c.lineCap)
		}
	}
	// Both lines within the caps: read.
	if rs, err := readArchive(bytes.NewReader(good), max(len(lines[0]), len(lines[1])), int64(len(plain))); err != nil || len(rs) != 2 {
		t.Errorf("the archive at its caps: %d results, error %v; want 2", len(rs), err)
	}
}
