package experiments

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"elmfbpinn/core/metric"
)

// The fuzz targets of the package's parsers: run specs (the JSON repro exec
// reads), result files (Decode, Load), archives (ReadArchive) and -where
// expressions. A plain go test runs
// each on its seed corpus; go test -fuzz FuzzX runs it on generated inputs.

func FuzzSpecJSON(f *testing.F) {
	for _, t := range Tables() {
		runs, _ := t.Runs(Full)
		for _, r := range runs[:min(2, len(runs))] {
			b, _ := json.Marshal(r.Spec)
			f.Add(b)
		}
	}
	for _, s := range []string{`{}`, `null`, `[]`, `{"problem":"laplace","model":"elm","param":4,"J":[5000],"K":16,"delta":2.9,"R":1,"iters":1}`,
		`{"problem":"laplace","model":"pinn","param":4,"J":[16],"K":16,"width":2000000000,"delta":2.9,"R":1,"iters":1}`,
		`{"problem":"oscillator","model":"elm","param":1e308,"J":[9223372036854775807],"K":9223372036854775807,"delta":1e-300,"R":1,"iters":1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var s Spec
		if err := json.Unmarshal(b, &s); err != nil {
			return
		}
		if err := s.Validate(); err != nil {
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("Validate error %q is not one line", err)
			}
			return
		}
		// A valid spec: its memory is estimated or refused without a
		// panic, its name is one line, its key survives a round trip.
		if m, err := Memory(s, nil); err == nil && !(m > 0) {
			t.Fatalf("%s: memory %v", s, m)
		}
		_ = Cost(s)
		if strings.ContainsAny(s.String(), "\n\r") {
			t.Fatalf("spec name %q is not one line", s.String())
		}
		c, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var back Spec
		if err := json.Unmarshal(c, &back); err != nil || back.Key() != s.Key() {
			t.Fatalf("%s: key %s after a round trip, want %s (%v)", s, back.Key(), s.Key(), err)
		}
	})
}

func FuzzDecode(f *testing.F) {
	s := Tables()[0].Rows[2].Spec(0)
	s.Iters = 200 // the history's schedule
	good := &Result{Key: s.Key(), Spec: s, EL1: 1e-4, EL1Final: 2e-4, BestIter: 100, Status: "ok",
		History: []metric.Record{{Iter: 0, EL1: 1}, {Iter: 100, EL1: 1e-4}, {Iter: 200, EL1: 2e-4}},
		Time:    Timing{Assembly: 0.1, Solve: 1, Total: 1.1}, Env: Env{GoVersion: "go1.26", CPU: "x", Commit: "abc"}}
	b, _ := json.Marshal(good)
	f.Add(b)
	// A spec whose problem holds a line break, under a key that is not
	// its spec's: the error names the spec, on one line.
	bad := *good
	bad.Spec.Problem = "osc\nillator"
	if b, err := json.Marshal(&bad); err == nil {
		f.Add(b)
	}
	for _, c := range []string{``, `{}`, `null`, `{"key":"x"}`, `{"key":1,"spec":{},"time":{},"env":{}}`, `[1,2]`, `{"key":"` + s.Key() + `"`} {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var probe struct{ Key string }
		_ = json.Unmarshal(b, &probe)
		r, err := Decode(b, probe.Key)
		if err != nil {
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("Decode error %q is not one line", err)
			}
			return
		}
		if err := Check(r, probe.Key); err != nil {
			t.Fatalf("Decode accepted a result Check refuses: %v", err)
		}
		again, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Decode(again, probe.Key); err != nil {
			t.Fatalf("a decoded result does not decode again: %v", err)
		}
	})
}

func FuzzParseWhere(f *testing.F) {
	for _, s := range []string{"", "K=8,16;J=4", "problem=laplace;R=.5", "row=0", "L=3;param=1,2", "K", "k=8", "K=", "K=NaN", "K=inf",
		"K=1e400", ";;", "K=8;K=16", "problem=wave", "width=64;delta=2.9", "J = 4 ; K = 8 , 16"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		w, err := ParseWhere(s)
		if err != nil {
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("ParseWhere error %q is not one line", err)
			}
			return
		}
		again, err := ParseWhere(w.String())
		if err != nil || again.String() != w.String() {
			t.Fatalf("%q: %q does not parse back (%q, %v)", s, w.String(), again.String(), err)
		}
		tables, err := Select(Tables(), Full, Selection{Where: w})
		if err != nil {
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("Select error %q is not one line", err)
			}
			return
		}
		if len(tables) == 0 {
			t.Fatalf("%q: Select kept no table and gave no error", s)
		}
	})
}

// FuzzReadArchive feeds the archive reader the uncompressed lines it reads
// (gzipped here, so that the fuzzer works on the JSON lines, not on gzip's
// checksums) and, as they are, the raw bytes of a damaged stream. It must
// return at once, within small caps, either results that Check accepts in
// increasing key order or a one-line error.
func FuzzReadArchive(f *testing.F) {
	good, plain := twoLines(f)
	f.Add(plain, false)
	f.Add(good, true)
	f.Add(good[:len(good)/2], true)
	for _, c := range []string{"", "\n", "{}\n", "null\n", "   ", "{\"key\":\"x\"}\n{\"key\":\"y\"}", strings.Repeat(" ", 5000)} {
		f.Add([]byte(c), false)
	}
	f.Fuzz(func(t *testing.T, b []byte, raw bool) {
		in := b
		if !raw {
			var z bytes.Buffer
			// Stored blocks: the cheapest stream, the lines as they are.
			w, _ := gzip.NewWriterLevel(&z, gzip.NoCompression)
			w.Write(b)
			w.Close()
			in = z.Bytes()
		}
		rs, err := readArchive(bytes.NewReader(in), 4096, 1<<16)
		if err != nil {
			if rs != nil || strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("error %q with %d results, or not one line", err, len(rs))
			}
			return
		}
		for i, r := range rs {
			if err := Check(r, r.Key); err != nil {
				t.Fatalf("result %d accepted but Check refuses it: %v", i, err)
			}
			if i > 0 && rs[i-1].Key >= r.Key {
				t.Fatalf("keys %s then %s", rs[i-1].Key, r.Key)
			}
		}
	})
}

// FuzzLoad writes the fuzzed bytes as a run's result file and loads it:
// a result that Check accepts, or a one-line *BadResultError that names
// the file, never another error, and never more read than the run's cap.
func FuzzLoad(f *testing.F) {
	r := resultOf(0, 0.1)
	b, _ := json.MarshalIndent(r, "", "  ")
	f.Add(b)
	f.Add(b[:len(b)/2])
	f.Add([]byte(`{"key":"` + r.Key + `","history":[{},{},{}]}`))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte) {
		if err := os.WriteFile(Path(dir, r.Spec), b, 0o644); err != nil {
			t.Fatal(err)
		}
		got, ok, err := Load(dir, r.Spec)
		var bad *BadResultError
		switch {
		case err == nil && ok:
			if cerr := Check(got, r.Key); cerr != nil {
				t.Fatalf("Load accepted a result Check refuses: %v", cerr)
			}
			if int64(len(b)) > ResultCap(r.Spec) {
				t.Fatalf("Load read %d bytes, above the cap %d", len(b), ResultCap(r.Spec))
			}
		case errors.As(err, &bad):
			if strings.ContainsAny(err.Error(), "\n\r") || bad.Key != r.Key {
				t.Fatalf("bad file error %q (key %q) is not one line naming the run", err, bad.Key)
			}
		default:
			t.Fatalf("Load = %v, %v, %v; want a result or a bad file", got, ok, err)
		}
	})
}
