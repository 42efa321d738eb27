package main

import (
	"bytes"
	"fmt"
	"strconv"

	"elmfbpinn/core/elm"
	"elmfbpinn/experiments"
)

// writeSystem writes the assembled ELM-FBPINN system of s, M and h, to
// path and path+".rhs" in Matrix Market format (coordinate and array, real,
// general; indices from 1; values in %.17g, which read back to the same
// bits), each atomically: the system an outside solver is timed on (e.g.
// scripts/scipy-lsqr.py, SciPy's LSQR on the same matrix).
func writeSystem(path string, s experiments.Spec) error {
	p, err := experiments.NewProblem(s)
	if err != nil {
		return err
	}
	sys, err := elm.Build(p, experiments.ELMConfig(s))
	if err != nil {
		return err
	}
	m, n := sys.M.Dims()
	var b bytes.Buffer
	fmt.Fprintf(&b, "%%%%MatrixMarket matrix coordinate real general\n%% elmfbpinn %s: M\n%d %d %d\n", s, m, n, sys.M.NNZ())
	num := make([]byte, 0, 64)
	for i := range sys.M.Blocks() {
		sh, blk := sys.M.Shape(i), sys.M.Block(i)
		for r, row := range sh.Rows {
			for c := range sh.NCol {
				num = strconv.AppendInt(num[:0], int64(row)+1, 10)
				num = append(num, ' ')
				num = strconv.AppendInt(num, int64(sh.Col0+c)+1, 10)
				num = append(num, ' ')
				num = strconv.AppendFloat(num, blk[r*sh.NCol+c], 'g', 17, 64)
				b.Write(append(num, '\n'))
			}
		}
	}
	if err := experiments.WriteFile(path, b.Bytes()); err != nil {
		return err
	}
	b.Reset()
	fmt.Fprintf(&b, "%%%%MatrixMarket matrix array real general\n%% elmfbpinn %s: h\n%d 1\n", s, m)
	for _, x := range sys.RHS {
		b.Write(append(strconv.AppendFloat(num[:0], x, 'g', 17, 64), '\n'))
	}
	return experiments.WriteFile(path+".rhs", b.Bytes())
}
