//go:build amd64 && !purego

#include "textflag.h"

// func scaleRows5Asm(dst, x *float64, idx *int32, s *float64, n, ns int) int
//
// Rows of five values: dst[5q+j] = s[idx[q]] x[5q+j] for q < n (n > 0), the
// first four of a row in one AVX2 product, the fifth in a scalar one; each
// product is the scalar one (commuted, which is exact). It stops at the
// first q whose idx[q] is not in [0, ns) and returns that q (n if none), so
// that the caller's scalar code meets the bad index and panics.
TEXT ·scaleRows5Asm(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ idx+16(FP), BX
	MOVQ s+24(FP), DX
	MOVQ n+32(FP), CX
	MOVQ ns+40(FP), R8
	XORQ R9, R9

loop:
	MOVLQSX (BX)(R9*4), AX
	CMPQ    AX, R8
	JAE     done                     // unsigned: also a negative index
	VBROADCASTSD (DX)(AX*8), Y0      // s[idx[q]]
	VMULPD  (SI), Y0, Y1
	VMULSD  32(SI), X0, X2
	VMOVUPD Y1, (DI)
	VMOVSD  X2, 32(DI)
	ADDQ    $40, SI
	ADDQ    $40, DI
	INCQ    R9
	CMPQ    R9, CX
	JLT     loop

done:
	MOVQ    R9, ret+48(FP)
	VZEROUPPER
	RET
