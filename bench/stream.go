package bench

import "elmfbpinn/core/fp"

// streamRead reads x once, front to back, as fast as one core can (the
// measure of streaming bandwidth next to which BenchmarkProducts' rates are
// read), and returns a sum of it so the reads cannot be dropped. With the
// vector kernels it is a four-accumulator AVX2 loop; otherwise eight scalar
// lanes, which measures the loop more than the memory.
func streamRead(x []float64) float64 {
	if fp.AVX() && len(x) >= 16 {
		n := len(x) &^ 15
		return streamVector(x[:n]) + fp.Sum(x[n:])
	}
	return fp.Sum(x)
}
