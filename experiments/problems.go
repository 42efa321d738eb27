package experiments

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"elmfbpinn/core/problem"
)

// Problem is one of the paper's PDE problems with everything the harness
// knows about it, declared once: its name, its parameter, its baseline, its
// geometry, its sampling counts and its constructor. The command line (repro
// solve's flags and defaults), Spec.Validate, Execute, the cost and memory
// models, the tables and the report read it; nothing else names a problem.
// Adding a problem is a core/problem type, an entry of Problems and its
// tables (declare.go).
type Problem struct {
	Name  string // Spec.Problem: "oscillator"
	Title string // in figure titles: "damped oscillator"
	Dim   int    // 1 or 2
	Param Param
	Base  Config // the paper's baseline (the PINN's width is fullWidth)
	// Solution is the multilevel model of the paper's solution figures
	// (SolutionSpec); QuickIters, if positive, shortens its run in the
	// quick tier. Basis and Sparsity ask for the basis-function and the
	// sparsity figures beside the solution.
	Solution        Config
	QuickIters      int
	Basis, Sparsity bool
	// Inside reports whether a point of the box lies in the domain (the
	// solution maps are blank outside it); nil: the whole box. Outline is
	// the domain's boundary as a closed polygon of (x, y) vertices, drawn
	// in the figures of a 2D problem.
	Inside  func(x, y float64) bool
	Outline [][2]float64
	// Points returns the collocation points (with the boundary ones) and
	// the test points of a finest level of jf subdomains per dimension and
	// k features, as the core problem samples them, without sampling: the
	// sizes Cost and Memory start from.
	Points func(jf, k int) (n, t float64)
	// Subdomains returns the subdomains a level of j per dimension keeps.
	Subdomains func(j int) int
	// New returns the core problem at a value of the parameter, or an
	// error saying why the value is not one it takes.
	New func(param float64) (problem.Problem, error)
}

// Param is a problem's parameter as each output names it.
type Param struct {
	Name   string // ASCII, as in the paper's data and our table titles: "omega0"
	Flag   string // repro solve's flag: "omega0"
	Usage  string // the flag's help
	Text   string // Markdown: "ω0"
	TeX    string // LaTeX math: `\omega_{0}`
	Figure string // figure text with script markup: "ω_{0}"
}

// Config is a configuration of a problem: the parameter, the subdomains per
// dimension of each level and the features per subdomain.
type Config struct {
	Param float64
	J     []int
	K     int
}

// Problem names, as Spec.Problem holds them.
const (
	Oscillator = "oscillator"
	Laplace    = "laplace"
	Helmholtz  = "helmholtz"
)

// Problems lists the paper's problems in its order.
var Problems = []*Problem{
	{
		Name: Oscillator, Title: "damped oscillator", Dim: 1,
		Param: Param{Name: "omega0", Flag: "omega0", Usage: "oscillator: natural frequency omega0",
			Text: "ω0", TeX: `\omega_{0}`, Figure: "ω_{0}"},
		Base:     Config{80, []int{20}, 12},
		Solution: Config{80, []int{1, 10, 20}, 12}, Basis: true, Sparsity: true,
		Points: func(jf, k int) (float64, float64) {
			j := float64(jf)
			return j*float64(k+1) + 2, 50 * j
		},
		Subdomains: func(j int) int { return j },
		New:        func(x float64) (problem.Problem, error) { return checked(problem.NewOscillator(x)) },
	},
	{
		Name: Laplace, Title: "multi-scale Laplacian", Dim: 2,
		Param: Param{Name: "n_omega", Flag: "nomega", Usage: "laplace: number of frequency components n_omega (1..7)",
			Text: "n_ω", TeX: `n_{\omega}`, Figure: "n_{ω}"},
		Base:     Config{4, []int{16}, 16},
		Solution: Config{4, []int{1, 8, 16}, 16}, QuickIters: 3000, Sparsity: true,
		Outline: [][2]float64{{0, 0}, {1, 0}, {1, 1}, {0, 1}, {0, 0}},
		Points: func(jf, k int) (float64, float64) {
			j := float64(jf)
			g := math.Ceil(math.Sqrt(float64(k+1))) * j
			return g * g, 36 * j * j
		},
		Subdomains: func(j int) int { return j * j },
		New: func(x float64) (problem.Problem, error) {
			if n := len(problem.LaplaceOmegas); x != math.Trunc(x) || x < 1 || x > float64(n) {
				return nil, fmt.Errorf("nomega = %v: must be an integer from 1 to %d", x, n)
			}
			return checked(problem.NewLaplace(int(x)))
		},
	},
	{
		Name: Helmholtz, Title: "Helmholtz (L-shape)", Dim: 2,
		Param: Param{Name: "omega", Flag: "omega", Usage: "helmholtz: frequency omega",
			Text: "ω", TeX: `\omega`, Figure: "ω"},
		Base:     Config{8, []int{16}, 16},
		Solution: Config{8, []int{1, 8, 16}, 16}, QuickIters: 3000,
		Inside:  problem.InL,
		Outline: [][2]float64{{0, 0}, {1, 0}, {1, 0.5}, {0.5, 0.5}, {0.5, 1}, {0, 1}, {0, 0}},
		// The L keeps 3/4 of the square's grid and subdomains.
		Points: func(jf, k int) (float64, float64) {
			g := 5 * float64(jf)
			return 0.75*g*g + 4*g, 0.75 * 36 * float64(jf) * float64(jf)
		},
		Subdomains: func(j int) int { return max(1, 3*j*j/4) },
		New:        func(x float64) (problem.Problem, error) { return checked(problem.NewHelmholtz(x)) },
	},
}

// checked returns p as a problem.Problem, or a nil one with err.
func checked[P problem.Problem](p P, err error) (problem.Problem, error) {
	if err != nil {
		return nil, err
	}
	return p, nil
}

// ProblemNamed returns the problem of a name, or an error that lists the
// names.
func ProblemNamed(name string) (*Problem, error) {
	i := slices.IndexFunc(Problems, func(p *Problem) bool { return p.Name == name })
	if i < 0 {
		return nil, fmt.Errorf("unknown problem %q (want one of %s)", name, strings.Join(ProblemNames(), ", "))
	}
	return Problems[i], nil
}

// ProblemNames returns the names of Problems.
func ProblemNames() []string {
	out := make([]string, len(Problems))
	for i, p := range Problems {
		out[i] = p.Name
	}
	return out
}

// NewProblem returns the core problem a Spec names.
func NewProblem(s Spec) (problem.Problem, error) {
	p, err := ProblemNamed(s.Problem)
	if err != nil {
		return nil, err
	}
	return p.New(s.Param)
}
