//go:build !amd64 || purego

package lsqr

import "elmfbpinn/core/fp"

// Off amd64, or with the purego tag, the vector updates take nothing: the
// scalar code does every element.

func updateXWVector(x, w, v []float64, t1, t2, rinv float64, l *[fp.Lanes]float64) int { return 0 }
func subNormVector(y, p []float64, na float64, l *[fp.Lanes]float64) int               { return 0 }
func scalVector(alpha float64, x []float64) int                                        { return 0 }
