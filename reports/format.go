package reports

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// finite reports whether x is a usable number.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

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
		var err error
		if e, err = strconv.Atoi(t[strings.IndexByte(t, 'e')+1:]); err != nil {
			return "", false
		}
	}
	scale := math.Pow10(-e)
	s = strconv.FormatFloat(m*scale, 'f', 1, 64) + pm + strconv.FormatFloat(r*scale, 'f', 1, 64)
	if e != 0 {
		s += fmt.Sprintf("e%+03d", e)
	}
	return s, true
}

// sci formats one number like the paper's κ(M): "8.5e+18".
func sci(x float64) string { return strconv.FormatFloat(x, 'e', 1, 64) }

// sig2 formats a positive ratio with two significant digits and no
// exponent: 0.012, 0.31, 5.4, 25, 250.
func sig2(x float64) string {
	if !finite(x) || x <= 0 {
		return ""
	}
	// Round to two significant digits first so that 9.96 becomes 10, not 10.0.
	x, _ = strconv.ParseFloat(strconv.FormatFloat(x, 'e', 1, 64), 64)
	d := 1 - int(math.Floor(math.Log10(x)))
	if d < 0 {
		d = 0
	}
	return strconv.FormatFloat(x, 'f', d, 64)
}

// num formats a parameter value: 80, 2.9, 0.125.
func num(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
