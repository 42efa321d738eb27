//go:build amd64 && !purego

#include "textflag.h"

// The AVX2 register tiles of gemm (kernel_simd.go). A tile keeps its
// entries' FMA chains in registers, two per row (8 columns), and runs p
// upwards: per p it loads the 8 entries of row p of b and broadcasts each
// row's a_ip. The chains start from 0, or from the values at init (a tile
// of chains stopped after an earlier block of p: storing and reloading a
// chain keeps its bits). VFMADD231PD is one fused multiply-add, as
// math.FMA; an accumulating tile adds the finished chain to c with one
// VADDPD. Strides are in elements and scaled to bytes here. k > 0.

// func gemm6x8(c *float64, ldc int, a *float64, sai, sap int, b *float64, ldb, k int, init *float64, ldi int, acc bool)
TEXT ·gemm6x8(SB), NOSPLIT, $0-81
	MOVQ    c+0(FP), DI
	MOVQ    ldc+8(FP), R8
	MOVQ    a+16(FP), SI
	MOVQ    sai+24(FP), R9
	MOVQ    sap+32(FP), R10
	MOVQ    b+40(FP), DX
	MOVQ    ldb+48(FP), R11
	MOVQ    k+56(FP), CX
	MOVQ    init+64(FP), BX
	MOVQ    ldi+72(FP), R13
	MOVBQZX acc+80(FP), R12
	SHLQ    $3, R8
	SHLQ    $3, R9
	SHLQ    $3, R10
	SHLQ    $3, R11
	SHLQ    $3, R13
	LEAQ    (SI)(R9*2), AX
	ADDQ    R9, AX            // row 3 of a
	TESTQ   BX, BX
	JNE     gemm6x8init
	VXORPD  Y0, Y0, Y0
	VXORPD  Y1, Y1, Y1
	VXORPD  Y2, Y2, Y2
	VXORPD  Y3, Y3, Y3
	VXORPD  Y4, Y4, Y4
	VXORPD  Y5, Y5, Y5
	VXORPD  Y6, Y6, Y6
	VXORPD  Y7, Y7, Y7
	VXORPD  Y8, Y8, Y8
	VXORPD  Y9, Y9, Y9
	VXORPD  Y10, Y10, Y10
	VXORPD  Y11, Y11, Y11
	JMP     gemm6x8loop

gemm6x8init:  // the chains so far, from init
	VMOVUPD (BX), Y0
	VMOVUPD 32(BX), Y1
	ADDQ    R13, BX
	VMOVUPD (BX), Y2
	VMOVUPD 32(BX), Y3
	ADDQ    R13, BX
	VMOVUPD (BX), Y4
	VMOVUPD 32(BX), Y5
	ADDQ    R13, BX
	VMOVUPD (BX), Y6
	VMOVUPD 32(BX), Y7
	ADDQ    R13, BX
	VMOVUPD (BX), Y8
	VMOVUPD 32(BX), Y9
	ADDQ    R13, BX
	VMOVUPD (BX), Y10
	VMOVUPD 32(BX), Y11

gemm6x8loop:
	VMOVUPD (DX), Y12
	VMOVUPD 32(DX), Y13
	VBROADCASTSD (SI), Y14
	VFMADD231PD  Y12, Y14, Y0
	VFMADD231PD  Y13, Y14, Y1
	VBROADCASTSD (SI)(R9*1), Y15
	VFMADD231PD  Y12, Y15, Y2
	VFMADD231PD  Y13, Y15, Y3
	VBROADCASTSD (SI)(R9*2), Y14
	VFMADD231PD  Y12, Y14, Y4
	VFMADD231PD  Y13, Y14, Y5
	VBROADCASTSD (AX), Y15
	VFMADD231PD  Y12, Y15, Y6
	VFMADD231PD  Y13, Y15, Y7
	VBROADCASTSD (AX)(R9*1), Y14
	VFMADD231PD  Y12, Y14, Y8
	VFMADD231PD  Y13, Y14, Y9
	VBROADCASTSD (AX)(R9*2), Y15
	VFMADD231PD  Y12, Y15, Y10
	VFMADD231PD  Y13, Y15, Y11
	ADDQ    R10, SI
	ADDQ    R10, AX
	ADDQ    R11, DX
	DECQ    CX
	JNZ     gemm6x8loop
	TESTQ   R12, R12
	JEQ     gemm6x8store
	MOVQ    DI, BX
	VADDPD  (BX), Y0, Y0
	VADDPD  32(BX), Y1, Y1
	ADDQ    R8, BX
	VADDPD  (BX), Y2, Y2
	VADDPD  32(BX), Y3, Y3
	ADDQ    R8, BX
	VADDPD  (BX), Y4, Y4
	VADDPD  32(BX), Y5, Y5
	ADDQ    R8, BX
	VADDPD  (BX), Y6, Y6
	VADDPD  32(BX), Y7, Y7
	ADDQ    R8, BX
	VADDPD  (BX), Y8, Y8
	VADDPD  32(BX), Y9, Y9
	ADDQ    R8, BX
	VADDPD  (BX), Y10, Y10
	VADDPD  32(BX), Y11, Y11

gemm6x8store:
	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	ADDQ    R8, DI
	VMOVUPD Y2, (DI)
	VMOVUPD Y3, 32(DI)
	ADDQ    R8, DI
	VMOVUPD Y4, (DI)
	VMOVUPD Y5, 32(DI)
	ADDQ    R8, DI
	VMOVUPD Y6, (DI)
	VMOVUPD Y7, 32(DI)
	ADDQ    R8, DI
	VMOVUPD Y8, (DI)
	VMOVUPD Y9, 32(DI)
	ADDQ    R8, DI
	VMOVUPD Y10, (DI)
	VMOVUPD Y11, 32(DI)
	VZEROUPPER
	RET

// func gemm4x8(c *float64, ldc int, a *float64, sai, sap int, b *float64, ldb, k int, init *float64, ldi int, acc bool)
TEXT ·gemm4x8(SB), NOSPLIT, $0-81
	MOVQ    c+0(FP), DI
	MOVQ    ldc+8(FP), R8
	MOVQ    a+16(FP), SI
	MOVQ    sai+24(FP), R9
	MOVQ    sap+32(FP), R10
	MOVQ    b+40(FP), DX
	MOVQ    ldb+48(FP), R11
	MOVQ    k+56(FP), CX
	MOVQ    init+64(FP), BX
	MOVQ    ldi+72(FP), R13
	MOVBQZX acc+80(FP), R12
	SHLQ    $3, R8
	SHLQ    $3, R9
	SHLQ    $3, R10
	SHLQ    $3, R11
	SHLQ    $3, R13
	LEAQ    (SI)(R9*2), AX
	ADDQ    R9, AX            // row 3 of a
	TESTQ   BX, BX
	JNE     gemm4x8init
	VXORPD  Y0, Y0, Y0
	VXORPD  Y1, Y1, Y1
	VXORPD  Y2, Y2, Y2
	VXORPD  Y3, Y3, Y3
	VXORPD  Y4, Y4, Y4
	VXORPD  Y5, Y5, Y5
	VXORPD  Y6, Y6, Y6
	VXORPD  Y7, Y7, Y7
	JMP     gemm4x8loop

gemm4x8init:  // the chains so far, from init
	VMOVUPD (BX), Y0
	VMOVUPD 32(BX), Y1
	ADDQ    R13, BX
	VMOVUPD (BX), Y2
	VMOVUPD 32(BX), Y3
	ADDQ    R13, BX
	VMOVUPD (BX), Y4
	VMOVUPD 32(BX), Y5
	ADDQ    R13, BX
	VMOVUPD (BX), Y6
	VMOVUPD 32(BX), Y7

gemm4x8loop:
	VMOVUPD (DX), Y12
	VMOVUPD 32(DX), Y13
	VBROADCASTSD (SI), Y14
	VFMADD231PD  Y12, Y14, Y0
	VFMADD231PD  Y13, Y14, Y1
	VBROADCASTSD (SI)(R9*1), Y15
	VFMADD231PD  Y12, Y15, Y2
	VFMADD231PD  Y13, Y15, Y3
	VBROADCASTSD (SI)(R9*2), Y14
	VFMADD231PD  Y12, Y14, Y4
	VFMADD231PD  Y13, Y14, Y5
	VBROADCASTSD (AX), Y15
	VFMADD231PD  Y12, Y15, Y6
	VFMADD231PD  Y13, Y15, Y7
	ADDQ    R10, SI
	ADDQ    R10, AX
	ADDQ    R11, DX
	DECQ    CX
	JNZ     gemm4x8loop
	TESTQ   R12, R12
	JEQ     gemm4x8store
	MOVQ    DI, BX
	VADDPD  (BX), Y0, Y0
	VADDPD  32(BX), Y1, Y1
	ADDQ    R8, BX
	VADDPD  (BX), Y2, Y2
	VADDPD  32(BX), Y3, Y3
	ADDQ    R8, BX
	VADDPD  (BX), Y4, Y4
	VADDPD  32(BX), Y5, Y5
	ADDQ    R8, BX
	VADDPD  (BX), Y6, Y6
	VADDPD  32(BX), Y7, Y7

gemm4x8store:
	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	ADDQ    R8, DI
	VMOVUPD Y2, (DI)
	VMOVUPD Y3, 32(DI)
	ADDQ    R8, DI
	VMOVUPD Y4, (DI)
	VMOVUPD Y5, 32(DI)
	ADDQ    R8, DI
	VMOVUPD Y6, (DI)
	VMOVUPD Y7, 32(DI)
	VZEROUPPER
	RET
