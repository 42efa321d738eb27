package bench

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// numericalPackages are compiled by TestNoImplicitFusion: every package whose
// floating-point code runs inside a run.
var numericalPackages = []string{"./core/..."}

// fusedOp matches the fused multiply-add instructions of the assembly
// listings: arm64 FMADDD/FMSUBD/FNMADDD/FNMSUBD (and the S forms), amd64
// VFMADD*/VFMSUB*/VFNMADD*/VFNMSUB* (scalar and packed).
var fusedOp = regexp.MustCompile(`\t(F(N)?M(ADD|SUB)[DS]|VF(N)?M(ADD|SUB)[0-9A-Z]*)\t`)

// position matches the source position of a listing line: (/path/file.go:123).
var position = regexp.MustCompile(`\((/[^()]+\.go):([0-9]+)\)`)

// TestNoImplicitFusion compiles the numerical packages for arm64 and for
// amd64 at GOAMD64=v3 (with the vector kernels' Go code and, with the
// purego tag, without it), where the compiler fuses a*b + c into one
// instruction, and fails on every fused instruction whose source line does
// not call math.FMA: such a line computes
// different bits on GOAMD64=v1, where nothing is fused. The fix is an
// explicit math.FMA, or float64(a*b) where the product is made (see package
// core/fp).
func TestNoImplicitFusion(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go tool is not on PATH: cannot compile the assembly listings")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range []struct{ name, goarch, goamd64, tags string }{
		{"arm64", "arm64", "", ""},
		{"amd64-v3", "amd64", "v3", ""},
		{"amd64-v3-purego", "amd64", "v3", "purego"},
	} {
		t.Run(target.name, func(t *testing.T) {
			bad, err := implicitFusions(goTool, root, target.goarch, target.goamd64, target.tags)
			if err != nil {
				t.Fatal(err)
			}
			for _, b := range bad {
				t.Errorf("%s: fused multiply-add not written as math.FMA: %s", target.name, b)
			}
		})
	}
}

// implicitFusions builds the numerical packages for one target with the
// compiler's assembly listing and returns "file:line: source" for every
// fused instruction on a line without "FMA(". The listing of a package is
// printed only when it is compiled, so the build uses a cache of its own.
func implicitFusions(goTool, root, goarch, goamd64, tags string) ([]string, error) {
	cache, err := os.MkdirTemp("", "fusion-gocache-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(cache)
	args := append([]string{"build", "-tags=" + tags, "-gcflags=elmfbpinn/core/...=-S", "-o", os.DevNull}, numericalPackages...)
	cmd := exec.Command(goTool, args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOARCH="+goarch, "GOOS=linux", "CGO_ENABLED=0", "GOCACHE="+cache, "GOFLAGS=")
	if goamd64 != "" {
		cmd.Env = append(cmd.Env, "GOAMD64="+goamd64)
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go %s (GOARCH=%s GOAMD64=%s): %v\n%s", strings.Join(args, " "), goarch, goamd64, err, tail(out.String(), 2000))
	}
	lines := map[string]bool{}
	sc := bufio.NewScanner(&out)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		l := sc.Text()
		if !fusedOp.MatchString(l) {
			continue
		}
		m := position.FindStringSubmatch(l)
		if m == nil || strings.HasSuffix(m[1], "_test.go") || !strings.HasPrefix(m[1], root) {
			continue
		}
		lines[m[1]+":"+m[2]] = true
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	var bad []string
	for pos := range lines {
		file, num, _ := strings.Cut(pos[strings.LastIndex(pos, ".go:")+1:], ":")
		file = pos[:strings.LastIndex(pos, ".go:")] + "." + file
		n, _ := strconv.Atoi(num)
		src, err := sourceLine(file, n)
		if err != nil {
			return nil, err
		}
		if !strings.Contains(src, "FMA(") && !strings.Contains(src, "MulAdd(") {
			rel, _ := filepath.Rel(root, file)
			bad = append(bad, fmt.Sprintf("%s:%d: %s", rel, n, strings.TrimSpace(src)))
		}
	}
	sort.Strings(bad)
	return bad, nil
}

func sourceLine(file string, n int) (string, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return "", err
	}
	lines := strings.Split(string(b), "\n")
	if n < 1 || n > len(lines) {
		return "", fmt.Errorf("%s has no line %d", file, n)
	}
	return lines[n-1], nil
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}
