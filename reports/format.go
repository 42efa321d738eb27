package reports

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"elmfbpinn/study"
)

// positive reports whether x can be drawn on a log axis.
func positive(x float64) bool { return x > 0 && !math.IsInf(x, 0) }

// pmSci formats m ± r in the paper's notation: the mantissa of m and r scaled
// by the same power of ten, each with one decimal, then that exponent unless
// it is 0: "1.1±0.5e-04", "5.4±0.0", "2.9±0.0e+01". pm is the plus-minus
// sign of the output format. ok is false when m or r is not finite.
func pmSci(m, r float64, pm string) (s string, ok bool) {
	if !finite(m) || !finite(r) {
		return "", false
	}
	e := 0
	if m != 0 {
		// %e rounds the mantissa and carries into the exponent (9.96 → 1.0e+01).
		t := strconv.FormatFloat(m, 'e', 1, 64)
		e, _ = strconv.Atoi(t[strings.IndexByte(t, 'e')+1:])
	}
	scale := math.Pow10(-e)
	s = strconv.FormatFloat(m*scale, 'f', 1, 64) + pm + strconv.FormatFloat(r*scale, 'f', 1, 64)
	if e != 0 {
		s += fmt.Sprintf("e%+03d", e)
	}
	return s, true
}

// The study's notation of numbers and words (study.Sci: "8.5e+18",
// study.Sig2: "0.31", study.Num: "0.125", study.Plural: "seeds"), and its
// test of a usable number.
var sci, sig2, num, plural, finite = study.Sci, study.Sig2, study.Num, study.Plural, study.Finite
