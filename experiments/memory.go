package experiments

import (
	"fmt"
	"math"

	"elmfbpinn/core/nn"
)

// maxWidth is the widest PINN whose sizes are passed to package nn (wider
// ones overflow there and are refused by the size checks below).
const maxWidth = 1 << 30

// Memory returns an estimate, in bytes, of the memory the run s needs at its
// peak, from its Spec alone (nothing is allocated), so that a configuration
// too large for the machine is refused before it starts instead of ending in
// the runtime's out-of-memory crash. It counts, with n collocation and t test
// points and c the subdomains a point lies in (summed over levels, as Cost
// counts them), in float64s of 8 bytes:
//
//	ELM-FBPINN  the block-sparse M, n c (K+1) values, twice (the packed copy
//	            of the panel kernels), the test matrix, t c (K+1), the
//	            windows' jets of every (point, subdomain) pair, and, with κ,
//	            the dense M and its SVD's copy, 2 rows cols, when rows cols is
//	            at most Settings.KappaCells; the sparse part times 1.6 (the panels'
//	            row maps, slices' slack)
//	FBPINN      the activations of the subdomain networks at their points:
//	            n c (1+2d) K for the hidden layer, one array of them (kept
//	            from the forward to the backward pass; the forward scratch is
//	            one buffer shared by the networks)
//	PINN        the activations P (1+2d) Width of its two hidden layers, six
//	            arrays each, for the P points of one part of its training
//	            pass (nn.PartPoints), its Width² parameters six times
//	            (values, gradient, Adam's two moments, a transposed layer
//	            and the products' scratch) and its points' data
//
// plus the runtime's own (about 16 MB). It is within a factor 1.5 of the
// peak resident size measured on 1D and 2D configurations of every model
// (maxrss of repro solve; see TestMemoryEstimate).
//
// A size that does not fit in an int (points, nonzeros, parameters: the
// values a run would index by) is an error: such a Spec could not run on any
// machine, and the core would overflow computing it.
func Memory(s Spec, set *Settings) (float64, error) {
	const (
		f8      = 8
		runtime = 16 << 20
		maxSize = float64(math.MaxInt64 / 16)
	)
	d, n, t, cover := sizes(s)
	var subs float64 // subdomains of all levels
	for _, j := range s.J {
		subs += math.Pow(float64(j), float64(d))
	}
	k1 := float64(s.K) + 1
	ch := float64(1 + 2*d)
	jet := float64(1 + d + d*(d+1)/2)
	sizes := []struct {
		what string
		v    float64
	}{
		{"collocation points", n * float64(d)},
		{"test points", t * float64(d)},
		{"subdomains", subs},
		{"columns", subs * k1},
	}
	var bytes float64
	switch s.Model {
	case ELM:
		nnz, tnnz := n*cover*k1, t*cover*k1
		sizes = append(sizes, struct {
			what string
			v    float64
		}{"nonzeros of M", nnz + tnnz})
		rows, cols := n, subs*k1
		// 1.6: the panels' row maps and the slack of growing slices,
		// fitted to the measured peaks.
		bytes = 1.6 * f8 * (2*nnz + tnnz + (n+t)*cover*(jet+1) + 8*(rows+cols))
		if s.Solver == BlockSolver {
			bytes += 1.6 * f8 * nnz // M P beside M (its packed copy replaces M's)
			if s.SolverOpts != nil && s.SolverOpts.HeldOut {
				bytes += 1.6 * f8 * 2 * 1.5 * nnz // the held-out rows and their packed copy: a grid of J+1
			}
		}
		if s.Kappa {
			cells := set.Cells()
			if rows*cols <= float64(cells) {
				bytes += f8 * 2 * rows * cols
			}
		}
	case FBPINN:
		act := n * cover * ch * float64(s.K)
		sizes = append(sizes, struct {
			what string
			v    float64
		}{"network activations", act})
		bytes = f8 * (act + n*cover*(jet+2*ch) + 4*subs*float64(s.K)*float64(d+2))
	case PINN:
		w := float64(s.Width)
		part := n
		if s.Width <= maxWidth {
			part = min(n, float64(nn.PartPoints([]int{d, s.Width, s.Width, 1})))
		}
		act := part * ch * w
		params := w*w + float64(d+3)*w + 1
		sizes = append(sizes, struct {
			what string
			v    float64
		}{"network activations", n * ch * w}, struct {
			what string
			v    float64
		}{"network parameters", params})
		bytes = f8 * (12*act + 6*params + n*(jet+2*ch))
	}
	for _, z := range sizes {
		if !(z.v <= maxSize) {
			return 0, fmt.Errorf("%s: the %s (%.3g) overflow the sizes a run can index", s, z.what, z.v)
		}
	}
	return bytes + runtime, nil
}

// FormatBytes formats a byte count with a binary unit: "512 B", "1.5 GiB".
func FormatBytes(b float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	i := 0
	for b >= 1024 && i < len(units)-1 {
		b /= 1024
		i++
	}
	if i == 0 {
		return fmt.Sprintf("%.0f B", b)
	}
	if b >= 1024 { // beyond EiB
		return fmt.Sprintf("%.3g EiB", b)
	}
	return fmt.Sprintf("%.3g %s", b, units[i])
}
