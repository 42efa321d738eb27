package study

import (
	"math"
	"strconv"

	"elmfbpinn/experiments"
)

// This file holds the notation of the numbers and words in the study's
// texts (the reasons for missing values, row labels, the claims' details),
// which the renderers share.

// Finite reports whether x is a usable number (neither NaN nor infinite).
func Finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// Sci formats one number like the paper's κ(M): "8.5e+18".
func Sci(x float64) string { return strconv.FormatFloat(x, 'e', 1, 64) }

// Sig2 formats a positive ratio with two significant digits and no
// exponent: 0.012, 0.31, 5.4, 25, 250; "" if x is not a positive number.
func Sig2(x float64) string {
	if !Finite(x) || x <= 0 {
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

// Num formats a parameter value: 80, 2.9, 0.125.
func Num(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// Plural returns word, with an "s" unless n is 1.
func Plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// ProblemOf returns the registry's problem of a name, or a stand-in titled
// by the name whose parameter is called "param" if the registry has none.
func ProblemOf(name string) *experiments.Problem {
	p, err := experiments.ProblemNamed(name)
	if err != nil {
		return &experiments.Problem{Name: name, Title: name,
			Param: experiments.Param{Text: "param", TeX: `\mathrm{param}`, Figure: "param"}}
	}
	return p
}
