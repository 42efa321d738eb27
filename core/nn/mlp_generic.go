//go:build !amd64 || purego

package nn

// Without vector kernels every pass runs its scalar code: the vector paths
// take no unit.

func (b *Batch) inputValuesVector(w1, b1 []float64) int             { return 0 }
func (b *Batch) inputJetsVector() int                               { return 0 }
func jetDerivativesVector(hj, z []float64, n, d, h int) int         { return 0 }
func tanhJetsBackVector(gz, gh, z, hj []float64, n, d, h int) int   { return 0 }
func (b *Batch) backwardInputVector(gh, gw1, gb1 []float64) int     { return 0 }
func outputBackVector(gw, gh, hlast, gout, w []float64, hl int) int { return 0 }
