package main

import (
	"bufio"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"elmfbpinn/core/elm"
	"elmfbpinn/experiments"
)

// TestSolveSystem checks solve -system: M and h in Matrix Market format,
// every entry where elm.Build puts it with the same bits, and a refusal
// (exit 2, nothing written) for a model with no least-squares system.
func TestSolveSystem(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "osc.mtx")
	_, stderr, code := runRepro(t, "solve", "-problem", "oscillator", "-omega0", "20", "-J", "1,2,4", "-K", "6",
		"-iters", "10", "-seed", "3", "-system", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	s := experiments.Spec{Problem: "oscillator", Model: experiments.ELM, Param: 20, J: []int{1, 2, 4}, K: 6, Delta: 2.9, R: 1, Iters: 10, Seed: 3}
	p, err := experiments.NewProblem(s)
	if err != nil {
		t.Fatal(err)
	}
	sys, err := elm.Build(p, experiments.ELMConfig(s))
	if err != nil {
		t.Fatal(err)
	}
	want := sys.M.Dense()
	m, n := sys.M.Dims()

	header, lines := readMatrixMarket(t, path)
	if header != "%%MatrixMarket matrix coordinate real general" {
		t.Fatalf("M's header %q", header)
	}
	if got := lines[0]; got != strconv.Itoa(m)+" "+strconv.Itoa(n)+" "+strconv.Itoa(sys.M.NNZ()) {
		t.Fatalf("M's size line %q, want %d %d %d", got, m, n, sys.M.NNZ())
	}
	if len(lines)-1 != sys.M.NNZ() {
		t.Fatalf("%d entries, want %d", len(lines)-1, sys.M.NNZ())
	}
	for _, l := range lines[1:] {
		f := strings.Fields(l)
		i, _ := strconv.Atoi(f[0])
		j, _ := strconv.Atoi(f[1])
		x, err := strconv.ParseFloat(f[2], 64)
		if err != nil || i < 1 || i > m || j < 1 || j > n {
			t.Fatalf("bad entry %q", l)
		}
		if w := want.At(i-1, j-1); math.Float64bits(x) != math.Float64bits(w) {
			t.Fatalf("M[%d, %d] = %v, want %v", i-1, j-1, x, w)
		}
	}

	header, lines = readMatrixMarket(t, path+".rhs")
	if header != "%%MatrixMarket matrix array real general" || lines[0] != strconv.Itoa(m)+" 1" || len(lines)-1 != m {
		t.Fatalf("h: header %q, size %q, %d values; want %d", header, lines[0], len(lines)-1, m)
	}
	for i, l := range lines[1:] {
		if x, err := strconv.ParseFloat(l, 64); err != nil || math.Float64bits(x) != math.Float64bits(sys.RHS[i]) {
			t.Fatalf("h[%d] = %q, want %v", i, l, sys.RHS[i])
		}
	}

	// A refused -system writes nothing (checkUsageError wants the work
	// directory left empty).
	checkUsageError(t, "pinn", t.TempDir(), "needs -model elm", "solve", "-problem", "oscillator", "-model", "pinn", "-system", "pinn.mtx")
}

// readMatrixMarket returns a Matrix Market file's header and its lines
// after the comments (the size line first).
func readMatrixMarket(t *testing.T, path string) (string, []string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	var header string
	var lines []string
	for sc.Scan() {
		switch l := sc.Text(); {
		case header == "":
			header = l
		case strings.HasPrefix(l, "%"):
		default:
			lines = append(lines, l)
		}
	}
	if err := sc.Err(); err != nil || len(lines) == 0 {
		t.Fatalf("%s: %v, %d lines", path, err, len(lines))
	}
	return header, lines
}
