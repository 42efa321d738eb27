//go:build goexperiment.simd && amd64

#include "textflag.h"

// The AVX2 kernels of the multi-layer networks' elementwise passes
// (mlp_simd.go), each the scalar code of batch.go on four units at a time
// (h a multiple of 4), with the same operations in the same order (products
// commuted where that is exact; VFNMADD and VFMSUB where the scalar code
// negates an operand of an FMA). One version per input dimension d = 1, 2.

DATA mlpc<>+0(SB)/8, $0x3ff0000000000000
DATA mlpc<>+8(SB)/8, $0x3ff0000000000000
DATA mlpc<>+16(SB)/8, $0x3ff0000000000000
DATA mlpc<>+24(SB)/8, $0x3ff0000000000000
DATA mlpc<>+32(SB)/8, $0xc000000000000000
DATA mlpc<>+40(SB)/8, $0xc000000000000000
DATA mlpc<>+48(SB)/8, $0xc000000000000000
DATA mlpc<>+56(SB)/8, $0xc000000000000000
DATA mlpc<>+64(SB)/8, $0xc010000000000000
DATA mlpc<>+72(SB)/8, $0xc010000000000000
DATA mlpc<>+80(SB)/8, $0xc010000000000000
DATA mlpc<>+88(SB)/8, $0xc010000000000000
DATA mlpc<>+96(SB)/8, $0x4008000000000000
DATA mlpc<>+104(SB)/8, $0x4008000000000000
DATA mlpc<>+112(SB)/8, $0x4008000000000000
DATA mlpc<>+120(SB)/8, $0x4008000000000000
GLOBL mlpc<>(SB), RODATA|NOPTR, $128


// func inputZ1(t0, xn, w1d, b1 *float64, np, h int)
//
// t0[p·h + k] = FMA(w1[k,d−1], x_{d−1}, ... FMA(w1[k,0], x_0, b1[k])), w1d
// holding w1 by input (w1d[i·h + k] = w1[k·d + i]). np, h > 0.
TEXT ·inputZ1(SB), NOSPLIT, $0-48
	MOVQ t0+0(FP), DI
	MOVQ xn+8(FP), SI
	MOVQ w1d+16(FP), AX
	MOVQ b1+24(FP), BX
	MOVQ np+32(FP), CX
	MOVQ h+40(FP), R8
	MOVQ R8, R9
	SHLQ $3, R9                       // bytes of a row

inputZ1p:
	VBROADCASTSD 0(SI), Y8
	XORQ R10, R10
inputZ1k:
	VMOVUPD (BX)(R10*1), Y0
	VFMADD231PD (AX)(R10*1), Y8, Y0
	VMOVUPD Y0, (DI)(R10*1)
	ADDQ $32, R10
	CMPQ R10, R9
	JLT inputZ1k
	ADDQ R9, DI
	ADDQ $8, SI
	DECQ CX
	JNZ inputZ1p
	VZEROUPPER
	RET

// func inputZ2(t0, xn, w1d, b1 *float64, np, h int)
//
// t0[p·h + k] = FMA(w1[k,d−1], x_{d−1}, ... FMA(w1[k,0], x_0, b1[k])), w1d
// holding w1 by input (w1d[i·h + k] = w1[k·d + i]). np, h > 0.
TEXT ·inputZ2(SB), NOSPLIT, $0-48
	MOVQ t0+0(FP), DI
	MOVQ xn+8(FP), SI
	MOVQ w1d+16(FP), AX
	MOVQ b1+24(FP), BX
	MOVQ np+32(FP), CX
	MOVQ h+40(FP), R8
	MOVQ R8, R9
	SHLQ $3, R9                       // bytes of a row

inputZ2p:
	VBROADCASTSD 0(SI), Y8
	VBROADCASTSD 8(SI), Y9
	XORQ R10, R10
inputZ2k:
	VMOVUPD (BX)(R10*1), Y0
	VFMADD231PD (AX)(R10*1), Y8, Y0
	LEAQ (AX)(R9*1), R11
	VFMADD231PD (R11)(R10*1), Y9, Y0
	VMOVUPD Y0, (DI)(R10*1)
	ADDQ $32, R10
	CMPQ R10, R9
	JLT inputZ2k
	ADDQ R9, DI
	ADDQ $16, SI
	DECQ CX
	JNZ inputZ2p
	VZEROUPPER
	RET

// func inputJets1(h0, t0, a0d *float64, np, h int)
//
// The first layer's activation jets from its tanh values t0 (np, h): per
// point the rows t, dd a_i, −2 t dd a_i a_i (dd = 1 − t t, a_i = a0d[i·h + k]).
TEXT ·inputJets1(SB), NOSPLIT, $0-40
	MOVQ h0+0(FP), DI
	MOVQ t0+8(FP), SI
	MOVQ a0d+16(FP), AX
	MOVQ np+24(FP), CX
	MOVQ h+32(FP), R8
	MOVQ R8, R9
	SHLQ $3, R9                       // bytes of a row
	VMOVUPD mlpc<>+0(SB), Y15
	VMOVUPD mlpc<>+32(SB), Y14

inputJets1p:
	XORQ R10, R10

inputJets1k:
	VMOVUPD (SI)(R10*1), Y0           // t
	VMOVUPD Y0, (DI)(R10*1)
	VMULPD  Y0, Y0, Y1
	VSUBPD  Y1, Y15, Y1               // dd
	VMULPD  Y14, Y0, Y2               // −2 t
	VMULPD  Y1, Y2, Y2                // −2 t dd
	LEAQ (AX)(R10*1), R11
	VMOVUPD (R11), Y3                 // a_0
	VMULPD  Y3, Y1, Y4                 // dd a
	LEAQ (DI)(R10*1), R12
	LEAQ (R12)(R9*1), R13
	VMOVUPD Y4, (R13)
	VMULPD  Y3, Y2, Y5
	VMULPD  Y3, Y5, Y5                 // ((−2 t dd) a) a
	LEAQ (R12)(R9*2), R13
	VMOVUPD Y5, (R13)
	ADDQ $32, R10
	CMPQ R10, R9
	JLT inputJets1k
	ADDQ R9, SI
	IMUL3Q $3, R9, R13
	ADDQ R13, DI
	DECQ CX
	JNZ inputJets1p
	VZEROUPPER
	RET

// func inputJets2(h0, t0, a0d *float64, np, h int)
//
// The first layer's activation jets from its tanh values t0 (np, h): per
// point the rows t, dd a_i, −2 t dd a_i a_i (dd = 1 − t t, a_i = a0d[i·h + k]).
TEXT ·inputJets2(SB), NOSPLIT, $0-40
	MOVQ h0+0(FP), DI
	MOVQ t0+8(FP), SI
	MOVQ a0d+16(FP), AX
	MOVQ np+24(FP), CX
	MOVQ h+32(FP), R8
	MOVQ R8, R9
	SHLQ $3, R9                       // bytes of a row
	VMOVUPD mlpc<>+0(SB), Y15
	VMOVUPD mlpc<>+32(SB), Y14

inputJets2p:
	XORQ R10, R10

inputJets2k:
	VMOVUPD (SI)(R10*1), Y0           // t
	VMOVUPD Y0, (DI)(R10*1)
	VMULPD  Y0, Y0, Y1
	VSUBPD  Y1, Y15, Y1               // dd
	VMULPD  Y14, Y0, Y2               // −2 t
	VMULPD  Y1, Y2, Y2                // −2 t dd
	LEAQ (AX)(R10*1), R11
	VMOVUPD (R11), Y3                 // a_0
	VMULPD  Y3, Y1, Y4                 // dd a
	LEAQ (DI)(R10*1), R12
	LEAQ (R12)(R9*1), R13
	VMOVUPD Y4, (R13)
	VMULPD  Y3, Y2, Y5
	VMULPD  Y3, Y5, Y5                 // ((−2 t dd) a) a
	LEAQ (R12)(R9*2), R13
	ADDQ R9, R13
	VMOVUPD Y5, (R13)
	LEAQ (AX)(R10*1), R11
	ADDQ R9, R11
	VMOVUPD (R11), Y3                 // a_1
	VMULPD  Y3, Y1, Y4                 // dd a
	LEAQ (DI)(R10*1), R12
	LEAQ (R12)(R9*2), R13
	VMOVUPD Y4, (R13)
	VMULPD  Y3, Y2, Y5
	VMULPD  Y3, Y5, Y5                 // ((−2 t dd) a) a
	LEAQ (R12)(R9*4), R13
	VMOVUPD Y5, (R13)
	ADDQ $32, R10
	CMPQ R10, R9
	JLT inputJets2k
	ADDQ R9, SI
	IMUL3Q $5, R9, R13
	ADDQ R13, DI
	DECQ CX
	JNZ inputJets2p
	VZEROUPPER
	RET

// func jets1(hj, z *float64, np, h int)
//
// tanhJets after the values: per point and input i, with t = hj's value
// row, dd = 1 − t t, a = ∂z_i, b = ∂²z_i: ∂t_i = dd a, ∂²t_i = dd FMA((−2 t) a, a, b).
TEXT ·jets1(SB), NOSPLIT, $0-32
	MOVQ hj+0(FP), DI
	MOVQ z+8(FP), SI
	MOVQ np+16(FP), CX
	MOVQ h+24(FP), R8
	MOVQ R8, R9
	SHLQ $3, R9
	VMOVUPD mlpc<>+0(SB), Y15
	VMOVUPD mlpc<>+32(SB), Y14

jets1p:
	XORQ R10, R10

jets1k:
	VMOVUPD (DI)(R10*1), Y0           // t
	VMULPD  Y0, Y0, Y1
	VSUBPD  Y1, Y15, Y1               // dd
	VMULPD  Y14, Y0, Y2               // −2 t
	LEAQ    (SI)(R10*1), R12
	LEAQ    (DI)(R10*1), R13
	LEAQ (R12)(R9*1), R14
	VMOVUPD (R14), Y3             // a
	LEAQ (R12)(R9*2), R14
	VMOVUPD (R14), Y4             // b
	VMULPD  Y3, Y1, Y5                 // dd a
	LEAQ (R13)(R9*1), R14
	VMOVUPD Y5, (R14)
	VMULPD  Y3, Y2, Y6                 // (−2 t) a
	VFMADD213PD Y4, Y3, Y6             // FMA((−2 t) a, a, b)
	VMULPD  Y6, Y1, Y6
	LEAQ (R13)(R9*2), R14
	VMOVUPD Y6, (R14)
	ADDQ $32, R10
	CMPQ R10, R9
	JLT jets1k
	IMUL3Q $3, R9, R11
	ADDQ R11, SI
	ADDQ R11, DI
	DECQ CX
	JNZ jets1p
	VZEROUPPER
	RET

// func jets2(hj, z *float64, np, h int)
//
// tanhJets after the values: per point and input i, with t = hj's value
// row, dd = 1 − t t, a = ∂z_i, b = ∂²z_i: ∂t_i = dd a, ∂²t_i = dd FMA((−2 t) a, a, b).
TEXT ·jets2(SB), NOSPLIT, $0-32
	MOVQ hj+0(FP), DI
	MOVQ z+8(FP), SI
	MOVQ np+16(FP), CX
	MOVQ h+24(FP), R8
	MOVQ R8, R9
	SHLQ $3, R9
	VMOVUPD mlpc<>+0(SB), Y15
	VMOVUPD mlpc<>+32(SB), Y14

jets2p:
	XORQ R10, R10

jets2k:
	VMOVUPD (DI)(R10*1), Y0           // t
	VMULPD  Y0, Y0, Y1
	VSUBPD  Y1, Y15, Y1               // dd
	VMULPD  Y14, Y0, Y2               // −2 t
	LEAQ    (SI)(R10*1), R12
	LEAQ    (DI)(R10*1), R13
	LEAQ (R12)(R9*1), R14
	VMOVUPD (R14), Y3             // a
	IMUL3Q $3, R9, R14
	ADDQ R12, R14
	VMOVUPD (R14), Y4             // b
	VMULPD  Y3, Y1, Y5                 // dd a
	LEAQ (R13)(R9*1), R14
	VMOVUPD Y5, (R14)
	VMULPD  Y3, Y2, Y6                 // (−2 t) a
	VFMADD213PD Y4, Y3, Y6             // FMA((−2 t) a, a, b)
	VMULPD  Y6, Y1, Y6
	IMUL3Q $3, R9, R14
	ADDQ R13, R14
	VMOVUPD Y6, (R14)
	LEAQ (R12)(R9*2), R14
	VMOVUPD (R14), Y3             // a
	LEAQ (R12)(R9*4), R14
	VMOVUPD (R14), Y4             // b
	VMULPD  Y3, Y1, Y5                 // dd a
	LEAQ (R13)(R9*2), R14
	VMOVUPD Y5, (R14)
	VMULPD  Y3, Y2, Y6                 // (−2 t) a
	VFMADD213PD Y4, Y3, Y6             // FMA((−2 t) a, a, b)
	VMULPD  Y6, Y1, Y6
	LEAQ (R13)(R9*4), R14
	VMOVUPD Y6, (R14)
	ADDQ $32, R10
	CMPQ R10, R9
	JLT jets2k
	IMUL3Q $5, R9, R11
	ADDQ R11, SI
	ADDQ R11, DI
	DECQ CX
	JNZ jets2p
	VZEROUPPER
	RET

// func jetsBack1(gz, gh, z, hj *float64, np, h int)
//
// tanhJetsBack: gz_V = g_V dd, then per input i, with a, b the pre-activation
// jets, u, v their output gradients and w3 = 1 − (3 t) t:
// gz_V = FMA(−2 dd, FMA((a a) w3, v, t FMA(b, v, a u)), gz_V),
// gz_1i = dd FMA((−4 t) a, v, u), gz_2i = dd v.
TEXT ·jetsBack1(SB), NOSPLIT, $0-48
	MOVQ gz+0(FP), DI
	MOVQ gh+8(FP), SI
	MOVQ z+16(FP), DX
	MOVQ hj+24(FP), BX
	MOVQ np+32(FP), CX
	MOVQ h+40(FP), R8
	MOVQ R8, R9
	SHLQ $3, R9
	VMOVUPD mlpc<>+0(SB), Y15
	VMOVUPD mlpc<>+32(SB), Y14
	VMOVUPD mlpc<>+64(SB), Y13
	VMOVUPD mlpc<>+96(SB), Y12

jetsBack1p:
	XORQ R10, R10

jetsBack1k:
	VMOVUPD (BX)(R10*1), Y0           // t
	VMULPD  Y0, Y0, Y1
	VSUBPD  Y1, Y15, Y1               // dd
	VMULPD  (SI)(R10*1), Y1, Y2       // gz_V = g_V dd
	VMULPD  Y12, Y0, Y3
	VMULPD  Y0, Y3, Y3
	VSUBPD  Y3, Y15, Y3               // w3
	VMULPD  Y14, Y1, Y4               // −2 dd
	VMULPD  Y13, Y0, Y5               // −4 t
	LEAQ    (DX)(R10*1), R11          // z rows
	LEAQ    (SI)(R10*1), R12          // gh rows
	LEAQ    (DI)(R10*1), R13          // gz rows
	LEAQ (R11)(R9*1), R14
	VMOVUPD (R14), Y6             // a
	LEAQ (R11)(R9*2), R14
	VMOVUPD (R14), Y7             // b
	LEAQ (R12)(R9*1), R14
	VMOVUPD (R14), Y8             // u
	LEAQ (R12)(R9*2), R14
	VMOVUPD (R14), Y9             // v
	VMULPD  Y8, Y6, Y10                // a u
	VFMADD231PD Y9, Y7, Y10            // FMA(b, v, a u)
	VMULPD  Y10, Y0, Y10               // t ·
	VMULPD  Y6, Y6, Y11                // a a
	VMULPD  Y3, Y11, Y11               // (a a) w3
	VFMADD213PD Y10, Y9, Y11           // inner = FMA((a a) w3, v, t ·)
	VFMADD231PD Y11, Y4, Y2            // gz_V = FMA(−2 dd, inner, gz_V)
	VMULPD  Y6, Y5, Y10                // (−4 t) a
	VFMADD213PD Y8, Y9, Y10            // FMA(·, v, u)
	VMULPD  Y10, Y1, Y10
	LEAQ (R13)(R9*1), R14
	VMOVUPD Y10, (R14)
	VMULPD  Y9, Y1, Y10                // dd v
	LEAQ (R13)(R9*2), R14
	VMOVUPD Y10, (R14)
	VMOVUPD Y2, (DI)(R10*1)
	ADDQ $32, R10
	CMPQ R10, R9
	JLT jetsBack1k
	IMUL3Q $3, R9, R11
	ADDQ R11, SI
	ADDQ R11, DX
	ADDQ R11, DI
	ADDQ R11, BX
	DECQ CX
	JNZ jetsBack1p
	VZEROUPPER
	RET

// func jetsBack2(gz, gh, z, hj *float64, np, h int)
//
// tanhJetsBack: gz_V = g_V dd, then per input i, with a, b the pre-activation
// jets, u, v their output gradients and w3 = 1 − (3 t) t:
// gz_V = FMA(−2 dd, FMA((a a) w3, v, t FMA(b, v, a u)), gz_V),
// gz_1i = dd FMA((−4 t) a, v, u), gz_2i = dd v.
TEXT ·jetsBack2(SB), NOSPLIT, $0-48
	MOVQ gz+0(FP), DI
	MOVQ gh+8(FP), SI
	MOVQ z+16(FP), DX
	MOVQ hj+24(FP), BX
	MOVQ np+32(FP), CX
	MOVQ h+40(FP), R8
	MOVQ R8, R9
	SHLQ $3, R9
	VMOVUPD mlpc<>+0(SB), Y15
	VMOVUPD mlpc<>+32(SB), Y14
	VMOVUPD mlpc<>+64(SB), Y13
	VMOVUPD mlpc<>+96(SB), Y12

jetsBack2p:
	XORQ R10, R10

jetsBack2k:
	VMOVUPD (BX)(R10*1), Y0           // t
	VMULPD  Y0, Y0, Y1
	VSUBPD  Y1, Y15, Y1               // dd
	VMULPD  (SI)(R10*1), Y1, Y2       // gz_V = g_V dd
	VMULPD  Y12, Y0, Y3
	VMULPD  Y0, Y3, Y3
	VSUBPD  Y3, Y15, Y3               // w3
	VMULPD  Y14, Y1, Y4               // −2 dd
	VMULPD  Y13, Y0, Y5               // −4 t
	LEAQ    (DX)(R10*1), R11          // z rows
	LEAQ    (SI)(R10*1), R12          // gh rows
	LEAQ    (DI)(R10*1), R13          // gz rows
	LEAQ (R11)(R9*1), R14
	VMOVUPD (R14), Y6             // a
	IMUL3Q $3, R9, R14
	ADDQ R11, R14
	VMOVUPD (R14), Y7             // b
	LEAQ (R12)(R9*1), R14
	VMOVUPD (R14), Y8             // u
	IMUL3Q $3, R9, R14
	ADDQ R12, R14
	VMOVUPD (R14), Y9             // v
	VMULPD  Y8, Y6, Y10                // a u
	VFMADD231PD Y9, Y7, Y10            // FMA(b, v, a u)
	VMULPD  Y10, Y0, Y10               // t ·
	VMULPD  Y6, Y6, Y11                // a a
	VMULPD  Y3, Y11, Y11               // (a a) w3
	VFMADD213PD Y10, Y9, Y11           // inner = FMA((a a) w3, v, t ·)
	VFMADD231PD Y11, Y4, Y2            // gz_V = FMA(−2 dd, inner, gz_V)
	VMULPD  Y6, Y5, Y10                // (−4 t) a
	VFMADD213PD Y8, Y9, Y10            // FMA(·, v, u)
	VMULPD  Y10, Y1, Y10
	LEAQ (R13)(R9*1), R14
	VMOVUPD Y10, (R14)
	VMULPD  Y9, Y1, Y10                // dd v
	IMUL3Q $3, R9, R14
	ADDQ R13, R14
	VMOVUPD Y10, (R14)
	LEAQ (R11)(R9*2), R14
	VMOVUPD (R14), Y6             // a
	LEAQ (R11)(R9*4), R14
	VMOVUPD (R14), Y7             // b
	LEAQ (R12)(R9*2), R14
	VMOVUPD (R14), Y8             // u
	LEAQ (R12)(R9*4), R14
	VMOVUPD (R14), Y9             // v
	VMULPD  Y8, Y6, Y10                // a u
	VFMADD231PD Y9, Y7, Y10            // FMA(b, v, a u)
	VMULPD  Y10, Y0, Y10               // t ·
	VMULPD  Y6, Y6, Y11                // a a
	VMULPD  Y3, Y11, Y11               // (a a) w3
	VFMADD213PD Y10, Y9, Y11           // inner = FMA((a a) w3, v, t ·)
	VFMADD231PD Y11, Y4, Y2            // gz_V = FMA(−2 dd, inner, gz_V)
	VMULPD  Y6, Y5, Y10                // (−4 t) a
	VFMADD213PD Y8, Y9, Y10            // FMA(·, v, u)
	VMULPD  Y10, Y1, Y10
	LEAQ (R13)(R9*2), R14
	VMOVUPD Y10, (R14)
	VMULPD  Y9, Y1, Y10                // dd v
	LEAQ (R13)(R9*4), R14
	VMOVUPD Y10, (R14)
	VMOVUPD Y2, (DI)(R10*1)
	ADDQ $32, R10
	CMPQ R10, R9
	JLT jetsBack2k
	IMUL3Q $5, R9, R11
	ADDQ R11, SI
	ADDQ R11, DX
	ADDQ R11, DI
	ADDQ R11, BX
	DECQ CX
	JNZ jetsBack2p
	VZEROUPPER
	RET

// func inputBack1(a *[1][4]float64, acc *[3][4]float64, t0, gh, xn *float64, np, h int)
//
// backwardInput for four units (t0 and gh start at the block's first unit;
// rows h apart): per point, with t, dd = 1 − t t, w3 = 1 − (3 t) t and the
// value, ∂_i, ∂²_i gradients s0, u_i, v_i:
// s = FMA(−2 a_i, FMA(a_i w3, v_i, t u_i), s) over i from s0,
// ga_i = FMA(dd, FMA((−4 t) a_i, v_i, u_i), ga_i), gz = dd s,
// gw1_i = FMA(gz, x_i, gw1_i), gb1 += gz. acc holds ga, gw1, gb1.
TEXT ·inputBack1(SB), NOSPLIT, $0-56
	MOVQ a+0(FP), AX
	MOVQ acc+8(FP), BX
	MOVQ t0+16(FP), DI
	MOVQ gh+24(FP), SI
	MOVQ xn+32(FP), DX
	MOVQ np+40(FP), CX
	MOVQ h+48(FP), R8
	MOVQ R8, R9
	SHLQ $3, R9                       // bytes of a row
	IMUL3Q $3, R9, R10               // bytes of a point's jets
	VMOVUPD 0(BX), Y0
	VMOVUPD 32(BX), Y1
	VMOVUPD 64(BX), Y2
	VMOVUPD 0(AX), Y3
	VMULPD mlpc<>+32(SB), Y3, Y4    // −2 a_0
inputBack1p:
	VMOVUPD (DI), Y5
	VMULPD  Y5, Y5, Y6
	VMOVUPD mlpc<>+0(SB), Y7
	VSUBPD  Y6, Y7, Y6      // dd (Y7 = 1 for now)
	VMULPD  mlpc<>+96(SB), Y5, Y8
	VMULPD  Y5, Y8, Y8
	VSUBPD  Y8, Y7, Y7       // w3
	VMOVUPD (SI), Y8               // s = s0
	LEAQ (SI)(R9*1), R11
	VMOVUPD (R11), Y9          // u
	LEAQ (SI)(R9*2), R11
	VMOVUPD (R11), Y10          // v
	// input 0
	VMULPD  Y9, Y5, Y12        // t u
	VMULPD  Y7, Y3, Y11     // a w3
	VFMADD213PD Y12, Y10, Y11    // inner = FMA(a w3, v, t u)
	VFMADD231PD Y11, Y4, Y8 // s = FMA(−2 a, inner, s)
	VMULPD  mlpc<>+64(SB), Y5, Y11
	VMULPD  Y3, Y11, Y11      // (−4 t) a
	VFMADD213PD Y9, Y10, Y11   // FMA(·, v, u)
	VFMADD231PD Y11, Y6, Y0    // ga = FMA(dd, ·, ga)
	VMULPD  Y8, Y6, Y8        // gz = dd s
	VBROADCASTSD 0(DX), Y9
	VFMADD231PD Y9, Y8, Y1  // gw1 = FMA(gz, x, gw1)
	VADDPD  Y8, Y2, Y2     // gb1 += gz
	ADDQ R9, DI
	ADDQ R10, SI
	ADDQ $8, DX
	DECQ CX
	JNZ inputBack1p
	VMOVUPD Y0, 0(BX)
	VMOVUPD Y1, 32(BX)
	VMOVUPD Y2, 64(BX)
	VZEROUPPER
	RET

// func inputBack2(a *[2][4]float64, acc *[5][4]float64, t0, gh, xn *float64, np, h int)
//
// backwardInput for four units (t0 and gh start at the block's first unit;
// rows h apart): per point, with t, dd = 1 − t t, w3 = 1 − (3 t) t and the
// value, ∂_i, ∂²_i gradients s0, u_i, v_i:
// s = FMA(−2 a_i, FMA(a_i w3, v_i, t u_i), s) over i from s0,
// ga_i = FMA(dd, FMA((−4 t) a_i, v_i, u_i), ga_i), gz = dd s,
// gw1_i = FMA(gz, x_i, gw1_i), gb1 += gz. acc holds ga, gw1, gb1.
TEXT ·inputBack2(SB), NOSPLIT, $0-56
	MOVQ a+0(FP), AX
	MOVQ acc+8(FP), BX
	MOVQ t0+16(FP), DI
	MOVQ gh+24(FP), SI
	MOVQ xn+32(FP), DX
	MOVQ np+40(FP), CX
	MOVQ h+48(FP), R8
	MOVQ R8, R9
	SHLQ $3, R9                       // bytes of a row
	IMUL3Q $5, R9, R10               // bytes of a point's jets
	VMOVUPD 0(BX), Y0
	VMOVUPD 32(BX), Y1
	VMOVUPD 64(BX), Y2
	VMOVUPD 96(BX), Y3
	VMOVUPD 128(BX), Y4
	VMOVUPD 0(AX), Y5
	VMULPD mlpc<>+32(SB), Y5, Y7    // −2 a_0
	VMOVUPD 32(AX), Y6
	VMULPD mlpc<>+32(SB), Y6, Y8    // −2 a_1
inputBack2p:
	VMOVUPD (DI), Y9
	VMULPD  Y9, Y9, Y10
	VMOVUPD mlpc<>+0(SB), Y11
	VSUBPD  Y10, Y11, Y10      // dd (Y11 = 1 for now)
	VMULPD  mlpc<>+96(SB), Y9, Y12
	VMULPD  Y9, Y12, Y12
	VSUBPD  Y12, Y11, Y11       // w3
	VMOVUPD (SI), Y12               // s = s0
	LEAQ (SI)(R9*1), R11
	VMOVUPD (R11), Y13          // u
	IMUL3Q $3, R9, R11
	ADDQ SI, R11
	VMOVUPD (R11), Y14          // v
	// input 0
	VMULPD  mlpc<>+64(SB), Y9, Y15
	VMULPD  Y5, Y15, Y15      // (−4 t) a
	VFMADD213PD Y13, Y14, Y15  // FMA(·, v, u)
	VFMADD231PD Y15, Y10, Y0   // ga = FMA(dd, ·, ga)
	VMULPD  Y13, Y9, Y15       // t u
	VMULPD  Y11, Y5, Y13  // a w3 (u is done)
	VFMADD213PD Y15, Y14, Y13  // inner = FMA(a w3, v, t u)
	VFMADD231PD Y13, Y7, Y12 // s = FMA(−2 a, inner, s)
	LEAQ (SI)(R9*2), R11
	VMOVUPD (R11), Y13          // u
	LEAQ (SI)(R9*4), R11
	VMOVUPD (R11), Y14          // v
	// input 1
	VMULPD  mlpc<>+64(SB), Y9, Y15
	VMULPD  Y6, Y15, Y15      // (−4 t) a
	VFMADD213PD Y13, Y14, Y15  // FMA(·, v, u)
	VFMADD231PD Y15, Y10, Y1   // ga = FMA(dd, ·, ga)
	VMULPD  Y13, Y9, Y15       // t u
	VMULPD  Y11, Y6, Y13  // a w3 (u is done)
	VFMADD213PD Y15, Y14, Y13  // inner = FMA(a w3, v, t u)
	VFMADD231PD Y13, Y8, Y12 // s = FMA(−2 a, inner, s)
	VMULPD  Y12, Y10, Y12        // gz = dd s
	VBROADCASTSD 0(DX), Y13
	VFMADD231PD Y13, Y12, Y2  // gw1 = FMA(gz, x, gw1)
	VBROADCASTSD 8(DX), Y13
	VFMADD231PD Y13, Y12, Y3  // gw1 = FMA(gz, x, gw1)
	VADDPD  Y12, Y4, Y4     // gb1 += gz
	ADDQ R9, DI
	ADDQ R10, SI
	ADDQ $16, DX
	DECQ CX
	JNZ inputBack2p
	VMOVUPD Y0, 0(BX)
	VMOVUPD Y1, 32(BX)
	VMOVUPD Y2, 64(BX)
	VMOVUPD Y3, 96(BX)
	VMOVUPD Y4, 128(BX)
	VZEROUPPER
	RET

// func outBack(gw, gh, hl, gout, w *float64, rows, h int)
//
// The output layer's backward pass for 16 units (gw, gh, hl and w start at
// the block's first unit; gh and hl have rows h apart): per row r,
// gw[k] = FMA(g_r, hl[r, k], gw[k]) and gh[r, k] = g_r w[k].
TEXT ·outBack(SB), NOSPLIT, $0-56
	MOVQ gw+0(FP), AX
	MOVQ gh+8(FP), DI
	MOVQ hl+16(FP), SI
	MOVQ gout+24(FP), DX
	MOVQ w+32(FP), BX
	MOVQ rows+40(FP), CX
	MOVQ h+48(FP), R9
	SHLQ $3, R9
	VMOVUPD 0(AX), Y0
	VMOVUPD 32(AX), Y1
	VMOVUPD 64(AX), Y2
	VMOVUPD 96(AX), Y3
	VMOVUPD 0(BX), Y4
	VMOVUPD 32(BX), Y5
	VMOVUPD 64(BX), Y6
	VMOVUPD 96(BX), Y7

outBackr:
	VBROADCASTSD (DX), Y8
	VFMADD231PD  0(SI), Y8, Y0
	VFMADD231PD  32(SI), Y8, Y1
	VFMADD231PD  64(SI), Y8, Y2
	VFMADD231PD  96(SI), Y8, Y3
	VMULPD       Y4, Y8, Y9
	VMOVUPD      Y9, 0(DI)
	VMULPD       Y5, Y8, Y10
	VMOVUPD      Y10, 32(DI)
	VMULPD       Y6, Y8, Y11
	VMOVUPD      Y11, 64(DI)
	VMULPD       Y7, Y8, Y12
	VMOVUPD      Y12, 96(DI)
	ADDQ         $8, DX
	ADDQ         R9, SI
	ADDQ         R9, DI
	DECQ         CX
	JNZ          outBackr
	VMOVUPD Y0, 0(AX)
	VMOVUPD Y1, 32(AX)
	VMOVUPD Y2, 64(AX)
	VMOVUPD Y3, 96(AX)
	VZEROUPPER
	RET
