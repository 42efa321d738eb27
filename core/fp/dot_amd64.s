//go:build amd64 && !purego

#include "textflag.h"

// Dot's lane sums (reduce.go) on eight elements at a time: lane i mod 8 is
// the chain FMA(x_i, y_i, lane), in two YMM registers on the AVX2 path and
// one ZMM on the AVX-512 path, so the same bits. n is a multiple of 8.

// func dotAVX2(x, y *float64, n int, lanes *[8]float64)
TEXT ·dotAVX2(SB), NOSPLIT, $0-32
	MOVQ    x+0(FP), AX
	MOVQ    y+8(FP), BX
	MOVQ    n+16(FP), DX
	MOVQ    lanes+24(FP), DI
	VMOVUPD (DI), Y0
	VMOVUPD 32(DI), Y1

d2loop:
	CMPQ        DX, $8
	JLT         d2done
	VMOVUPD     (AX), Y2
	VMOVUPD     32(AX), Y3
	VFMADD231PD (BX), Y2, Y0
	VFMADD231PD 32(BX), Y3, Y1
	ADDQ        $64, AX
	ADDQ        $64, BX
	SUBQ        $8, DX
	JMP         d2loop

d2done:
	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	VZEROUPPER
	RET

// func dotAVX512(x, y *float64, n int, lanes *[8]float64)
TEXT ·dotAVX512(SB), NOSPLIT, $0-32
	MOVQ    x+0(FP), AX
	MOVQ    y+8(FP), BX
	MOVQ    n+16(FP), DX
	MOVQ    lanes+24(FP), DI
	VMOVUPD (DI), Z0

d5loop:
	CMPQ        DX, $8
	JLT         d5done
	VMOVUPD     (AX), Z2
	VFMADD231PD (BX), Z2, Z0
	ADDQ        $64, AX
	ADDQ        $64, BX
	SUBQ        $8, DX
	JMP         d5loop

d5done:
	VMOVUPD Z0, (DI)
	VZEROUPPER
	RET
