//go:build amd64 && !purego

#include "textflag.h"

// The vector updates of LSQR (vector_simd.go): the operations of
// updateXW, subNorm and scal (lsqr.go) on eight elements at a time, element
// i in lane i mod 8 of the lane sums (two YMM registers on the AVX2 path,
// one ZMM on the AVX-512 path), each operation one rounding as in the
// scalar code, so the same bits. n is a multiple of 8.

// func updateXWAVX2(x, w, v *float64, n int, t1, t2, rinv float64, lanes *[8]float64)
TEXT ·updateXWAVX2(SB), NOSPLIT, $0-64
	MOVQ         x+0(FP), AX
	MOVQ         w+8(FP), BX
	MOVQ         v+16(FP), CX
	MOVQ         n+24(FP), DX
	VBROADCASTSD t1+32(FP), Y1
	VBROADCASTSD t2+40(FP), Y2
	VBROADCASTSD rinv+48(FP), Y3
	MOVQ         lanes+56(FP), DI
	VMOVUPD      (DI), Y0
	VMOVUPD      32(DI), Y8

uxw2loop:
	CMPQ        DX, $8
	JLT         uxw2done
	VMOVUPD     (BX), Y4            // w
	VMOVUPD     32(BX), Y9
	VMULPD      Y4, Y3, Y5          // d = rinv w
	VMULPD      Y9, Y3, Y10
	VFMADD231PD Y5, Y5, Y0          // lane = FMA(d, d, lane)
	VFMADD231PD Y10, Y10, Y8
	VMOVUPD     (AX), Y6            // x = FMA(t1, w, x)
	VMOVUPD     32(AX), Y11
	VFMADD231PD Y4, Y1, Y6
	VFMADD231PD Y9, Y1, Y11
	VMOVUPD     Y6, (AX)
	VMOVUPD     Y11, 32(AX)
	VMOVUPD     (CX), Y7            // w = FMA(t2, w, v)
	VMOVUPD     32(CX), Y12
	VFMADD231PD Y4, Y2, Y7
	VFMADD231PD Y9, Y2, Y12
	VMOVUPD     Y7, (BX)
	VMOVUPD     Y12, 32(BX)
	ADDQ        $64, AX
	ADDQ        $64, BX
	ADDQ        $64, CX
	SUBQ        $8, DX
	JMP         uxw2loop

uxw2done:
	VMOVUPD Y0, (DI)
	VMOVUPD Y8, 32(DI)
	VZEROUPPER
	RET

// func updateXWAVX512(x, w, v *float64, n int, t1, t2, rinv float64, lanes *[8]float64)
TEXT ·updateXWAVX512(SB), NOSPLIT, $0-64
	MOVQ         x+0(FP), AX
	MOVQ         w+8(FP), BX
	MOVQ         v+16(FP), CX
	MOVQ         n+24(FP), DX
	VBROADCASTSD t1+32(FP), Z1
	VBROADCASTSD t2+40(FP), Z2
	VBROADCASTSD rinv+48(FP), Z3
	MOVQ         lanes+56(FP), DI
	VMOVUPD      (DI), Z0

uxw5loop:
	CMPQ        DX, $8
	JLT         uxw5done
	VMOVUPD     (BX), Z4
	VMULPD      Z4, Z3, Z5
	VFMADD231PD Z5, Z5, Z0
	VMOVUPD     (AX), Z6
	VFMADD231PD Z4, Z1, Z6
	VMOVUPD     Z6, (AX)
	VMOVUPD     (CX), Z7
	VFMADD231PD Z4, Z2, Z7
	VMOVUPD     Z7, (BX)
	ADDQ        $64, AX
	ADDQ        $64, BX
	ADDQ        $64, CX
	SUBQ        $8, DX
	JMP         uxw5loop

uxw5done:
	VMOVUPD Z0, (DI)
	VZEROUPPER
	RET

// func subNormAVX2(y, p *float64, n int, na float64, lanes *[8]float64)
TEXT ·subNormAVX2(SB), NOSPLIT, $0-40
	MOVQ         y+0(FP), AX
	MOVQ         p+8(FP), BX
	MOVQ         n+16(FP), DX
	VBROADCASTSD na+24(FP), Y1
	MOVQ         lanes+32(FP), DI
	VMOVUPD      (DI), Y0
	VMOVUPD      32(DI), Y8

sn2loop:
	CMPQ        DX, $8
	JLT         sn2done
	VMOVUPD     (BX), Y4            // t = FMA(na, y, p)
	VMOVUPD     32(BX), Y9
	VFMADD231PD (AX), Y1, Y4
	VFMADD231PD 32(AX), Y1, Y9
	VMOVUPD     Y4, (AX)            // y = t
	VMOVUPD     Y9, 32(AX)
	VFMADD231PD Y4, Y4, Y0          // lane = FMA(t, t, lane)
	VFMADD231PD Y9, Y9, Y8
	ADDQ        $64, AX
	ADDQ        $64, BX
	SUBQ        $8, DX
	JMP         sn2loop

sn2done:
	VMOVUPD Y0, (DI)
	VMOVUPD Y8, 32(DI)
	VZEROUPPER
	RET

// func subNormAVX512(y, p *float64, n int, na float64, lanes *[8]float64)
TEXT ·subNormAVX512(SB), NOSPLIT, $0-40
	MOVQ         y+0(FP), AX
	MOVQ         p+8(FP), BX
	MOVQ         n+16(FP), DX
	VBROADCASTSD na+24(FP), Z1
	MOVQ         lanes+32(FP), DI
	VMOVUPD      (DI), Z0

sn5loop:
	CMPQ        DX, $8
	JLT         sn5done
	VMOVUPD     (BX), Z4
	VFMADD231PD (AX), Z1, Z4
	VMOVUPD     Z4, (AX)
	VFMADD231PD Z4, Z4, Z0
	ADDQ        $64, AX
	ADDQ        $64, BX
	SUBQ        $8, DX
	JMP         sn5loop

sn5done:
	VMOVUPD Z0, (DI)
	VZEROUPPER
	RET

// func scalAVX2(x *float64, n int, a float64)
TEXT ·scalAVX2(SB), NOSPLIT, $0-24
	MOVQ         x+0(FP), AX
	MOVQ         n+8(FP), DX
	VBROADCASTSD a+16(FP), Y1

sc2loop:
	CMPQ    DX, $8
	JLT     sc2done
	VMULPD  (AX), Y1, Y2
	VMULPD  32(AX), Y1, Y3
	VMOVUPD Y2, (AX)
	VMOVUPD Y3, 32(AX)
	ADDQ    $64, AX
	SUBQ    $8, DX
	JMP     sc2loop

sc2done:
	VZEROUPPER
	RET

// func scalAVX512(x *float64, n int, a float64)
TEXT ·scalAVX512(SB), NOSPLIT, $0-24
	MOVQ         x+0(FP), AX
	MOVQ         n+8(FP), DX
	VBROADCASTSD a+16(FP), Z1

sc5loop:
	CMPQ    DX, $8
	JLT     sc5done
	VMULPD  (AX), Z1, Z2
	VMOVUPD Z2, (AX)
	ADDQ    $64, AX
	SUBQ    $8, DX
	JMP     sc5loop

sc5done:
	VZEROUPPER
	RET
