//go:build amd64 && !purego

#include "textflag.h"

// adamAsm is the loop of adamVector (adam_simd.go): Adam's update of four
// parameters at a time, each lane one parameter, with the operations of
// adamGeneric (adam.go) in its order, each rounded as there:
//
//	mi = FMA(β1, m, (1−β1) g),  vi = FMA(β2, v, ((1−β2) g) g)
//	p −= (lr (mi / c1)) / (sqrt(vi / c2) + ε)
//
// VDIVPD and VSQRTPD round each lane correctly, as DIVSD and SQRTSD (and
// math.Sqrt, and Go's / on every platform) do; products are commuted only
// where that is exact.

// func adamAsm(params, grad, m, v *float64, n int, k *[8]float64)
//
// k holds β1, 1−β1, β2, 1−β2, c1, c2, lr and ε; n > 0 is a multiple of 4.
TEXT ·adamAsm(SB), NOSPLIT, $0-48
	MOVQ params+0(FP), AX
	MOVQ grad+8(FP), BX
	MOVQ m+16(FP), DX
	MOVQ v+24(FP), SI
	MOVQ n+32(FP), CX
	MOVQ k+40(FP), R9
	SHLQ $3, CX
	XORQ R8, R8
	VBROADCASTSD 0(R9), Y8           // β1
	VBROADCASTSD 8(R9), Y9           // 1−β1
	VBROADCASTSD 16(R9), Y10         // β2
	VBROADCASTSD 24(R9), Y11         // 1−β2
	VBROADCASTSD 32(R9), Y12         // c1
	VBROADCASTSD 40(R9), Y13         // c2
	VBROADCASTSD 48(R9), Y14         // lr
	VBROADCASTSD 56(R9), Y15         // ε

loop:
	VMOVUPD (BX)(R8*1), Y0           // g
	VMULPD  Y0, Y9, Y1               // (1−β1) g
	VFMADD231PD (DX)(R8*1), Y8, Y1   // mi = FMA(β1, m, (1−β1) g)
	VMULPD  Y0, Y11, Y2              // (1−β2) g
	VMULPD  Y0, Y2, Y2               // ((1−β2) g) g
	VFMADD231PD (SI)(R8*1), Y10, Y2  // vi = FMA(β2, v, ((1−β2) g) g)
	VMOVUPD Y1, (DX)(R8*1)
	VMOVUPD Y2, (SI)(R8*1)
	VDIVPD  Y12, Y1, Y1              // mi / c1
	VMULPD  Y1, Y14, Y1              // lr (mi / c1)
	VDIVPD  Y13, Y2, Y2              // vi / c2
	VSQRTPD Y2, Y2                   // sqrt(vi / c2)
	VADDPD  Y15, Y2, Y2              // sqrt(vi / c2) + ε
	VDIVPD  Y2, Y1, Y1               // lr (mi / c1) / (sqrt(vi / c2) + ε)
	VMOVUPD (AX)(R8*1), Y3
	VSUBPD  Y1, Y3, Y3               // p − that
	VMOVUPD Y3, (AX)(R8*1)
	ADDQ    $32, R8                  // a block of lanes
	CMPQ    R8, CX
	JLT     loop

	VZEROUPPER
	RET
