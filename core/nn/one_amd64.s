//go:build amd64 && !purego

#include "textflag.h"

// backward2Asm is the loop of backward2Vector (one_simd.go): four units of a
// [2, h, 1] network, across the points, each lane one unit's chains over
// the points in the scalar order of backward1. Per point, with g the
// output-jet gradient (gv, g10, g11, g20, g21), t the units' tanh values and
// (a, e, w, −2a, −2e) the units' first-layer input jets, output weights and
// the input jets doubled:
//
//	dd = 1 − t t,  ta2 = t (−2a),  te2 = t (−2e)
//	s = FMA(e, FMA(te2, g21, g11), a FMA(ta2, g20, g10))
//	gw2 += FMA(dd, s, gv t),  wd = w dd,  u = 1 − (3 t) t
//	in0 = FMA(a u, g20, t g10),  in1 = FMA(e u, g21, t g11)
//	X = FMA(e, in1, a in0),  gz = wd (gv − (X + X))
//	ga0 = FMA(wd, FMA(ta2 + ta2, g20, g10), ga0),  ga1 likewise with te2, g21, g11
//	gw10 = FMA(gz, x0, gw10),  gw11 = FMA(gz, x1, gw11),  gb1 += gz
//
// Each product and FMA is the scalar one (operands commuted where that is
// exact); the six sums stay in registers Y0-Y5 across the points. Doubling
// is exact (unless t a is subnormal or |a|, |X| ≥ 2^1023, which a network's
// values never reach), so five of the 32 multiplications the formulas
// suggest are additions or gone (−4 t a = ta2 + ta2, FMA(−2, X, gv) =
// gv − (X + X)): the two pipes that multiply carry 27 a point.
//
// The loop prefetches t eight points ahead: the first of a network's
// passes reads t from L3 (every network's forward pass came in between);
// the 2D FBPINN steps were 3-9% faster with it on a Zen 3 (AVX2). A
// prefetch changes no value.

DATA b2c<>+0(SB)/8, $0x3ff0000000000000
DATA b2c<>+8(SB)/8, $0x3ff0000000000000
DATA b2c<>+16(SB)/8, $0x3ff0000000000000
DATA b2c<>+24(SB)/8, $0x3ff0000000000000
DATA b2c<>+32(SB)/8, $0x4008000000000000
DATA b2c<>+40(SB)/8, $0x4008000000000000
DATA b2c<>+48(SB)/8, $0x4008000000000000
DATA b2c<>+56(SB)/8, $0x4008000000000000
GLOBL b2c<>(SB), RODATA|NOPTR, $64

// func backward2Asm(blk, acc, gout, xn, t *float64, n, ldt int)
//
// blk holds a, e, w, −2a and −2e; acc the sums gw2, ga0, ga1, gw10, gw11,
// gb1 (read and written back); gout (n, 5), xn (n, 2) and t (rows ldt apart) start at
// the first point; n > 0.
TEXT ·backward2Asm(SB), NOSPLIT, $0-56
	MOVQ blk+0(FP), AX
	MOVQ acc+8(FP), BX
	MOVQ gout+16(FP), SI
	MOVQ xn+24(FP), DX
	MOVQ t+32(FP), DI
	MOVQ n+40(FP), CX
	MOVQ ldt+48(FP), R8
	SHLQ $3, R8
	LEAQ b2c<>(SB), R9
	MOVQ R8, R10
	SHLQ $6, R10                      // 64 rows of t
	VMOVUPD 0(BX), Y0
	VMOVUPD 32(BX), Y1
	VMOVUPD 64(BX), Y2
	VMOVUPD 96(BX), Y3
	VMOVUPD 128(BX), Y4
	VMOVUPD 160(BX), Y5

loop:
	PREFETCHT0 (DI)(R10*1)           // t 64 points ahead, both lines of a row of 16 units (the
	PREFETCHT0 64(DI)(R10*1)         // first pass: t comes from L3)
	VMOVUPD (DI), Y6                 // t
	VMULPD  Y6, Y6, Y7
	VMOVUPD 0(R9), Y8
	VSUBPD  Y7, Y8, Y8               // dd = 1 − t t
	VMULPD  96(AX), Y6, Y9             // ta2 = t (−2a)
	VMULPD  128(AX), Y6, Y10            // te2 = t (−2e)
	VBROADCASTSD 8(SI), Y11          // g10
	VBROADCASTSD 16(SI), Y12         // g11
	VBROADCASTSD 24(SI), Y13         // g20
	VBROADCASTSD 32(SI), Y14         // g21
	VADDPD  Y9, Y9, Y7               // −4 t a
	VFMADD213PD Y11, Y13, Y7         // FMA(−4 t a, g20, g10)
	VFMADD213PD Y11, Y13, Y9         // FMA(ta2, g20, g10)
	VMULPD  0(AX), Y9, Y9              // a FMA(ta2, g20, g10)
	VADDPD  Y10, Y10, Y15            // −4 t e
	VFMADD213PD Y12, Y14, Y15        // FMA(−4 t e, g21, g11)
	VFMADD213PD Y12, Y14, Y10        // FMA(te2, g21, g11)
	VFMADD231PD 32(AX), Y10, Y9         // s
	VMULPD  Y6, Y11, Y11             // t g10
	VMULPD  Y6, Y12, Y12             // t g11
	VBROADCASTSD (SI), Y10           // gv
	VMULPD  Y6, Y10, Y10             // gv t
	VFMADD231PD Y9, Y8, Y10          // FMA(dd, s, gv t)
	VADDPD  Y10, Y0, Y0              // gw2 +=
	VMULPD  64(AX), Y8, Y8              // wd
	VFMADD231PD Y7, Y8, Y1           // ga0
	VFMADD231PD Y15, Y8, Y2          // ga1
	VMULPD  32(R9), Y6, Y7
	VMULPD  Y6, Y7, Y7               // (3 t) t
	VMOVUPD 0(R9), Y9
	VSUBPD  Y7, Y9, Y9               // u
	VMULPD  0(AX), Y9, Y10             // a u
	VFMADD213PD Y11, Y13, Y10        // in0
	VMULPD  32(AX), Y9, Y9              // e u
	VFMADD213PD Y12, Y14, Y9         // in1
	VMULPD  0(AX), Y10, Y10            // a in0
	VFMADD231PD 32(AX), Y9, Y10         // X = FMA(e, in1, a in0)
	VADDPD  Y10, Y10, Y10            // X + X
	VBROADCASTSD (SI), Y11           // gv
	VSUBPD  Y10, Y11, Y11            // gv − (X + X)
	VMULPD  Y8, Y11, Y11             // gz
	VBROADCASTSD (DX), Y12
	VFMADD231PD Y12, Y11, Y3         // gw10
	VBROADCASTSD 8(DX), Y13
	VFMADD231PD Y13, Y11, Y4         // gw11
	VADDPD  Y11, Y5, Y5              // gb1 +=
	ADDQ    $40, SI
	ADDQ    $16, DX
	ADDQ    R8, DI
	DECQ    CX
	JNZ     loop

	VMOVUPD Y0, 0(BX)
	VMOVUPD Y1, 32(BX)
	VMOVUPD Y2, 64(BX)
	VMOVUPD Y3, 96(BX)
	VMOVUPD Y4, 128(BX)
	VMOVUPD Y5, 160(BX)
	VZEROUPPER
	RET

// The forward pass of a [2, h, 1] network on blocks of four points
// (forward2Vector, one_simd.go), in two loops around one TanhSlice. tab
// holds per unit k eight four-lane copies: w1[2k], w1[2k+1], b1[k], w2[k],
// wa[2k], wa[2k+1], wb[2k], wb[2k+1] (256 bytes a unit).

// func forward2Z(tab *[4]float64, xs *[2][4]float64, z *float64, nblk, h int)
//
// z[blk][k] = FMA(w1[2k+1], x1, FMA(w1[2k], x0, b1[k])) over the block's
// four points, xs[blk] their coordinates (x0 lanes, x1 lanes). nblk, h > 0.
TEXT ·forward2Z(SB), NOSPLIT, $0-40
	MOVQ tab+0(FP), AX
	MOVQ xs+8(FP), BX
	MOVQ z+16(FP), SI
	MOVQ nblk+24(FP), CX
	MOVQ h+32(FP), R8

zblock:
	VMOVUPD (BX), Y0
	VMOVUPD 32(BX), Y1
	MOVQ    AX, R10
	MOVQ    R8, R11

zunit:
	VMOVUPD     64(R10), Y2
	VFMADD231PD 0(R10), Y0, Y2
	VFMADD231PD 32(R10), Y1, Y2
	VMOVUPD     Y2, (SI)
	ADDQ        $256, R10
	ADDQ        $32, SI
	DECQ        R11
	JNZ         zunit
	ADDQ        $64, BX
	DECQ        CX
	JNZ         zblock
	VZEROUPPER
	RET

// func forward2Out(tab *[4]float64, z, t0, out *float64, nblk, h int, bias *[4]float64)
//
// From the tanh values z (blocks of (h, 4)): per point the output jets,
// chains over the units in order,
//
//	v = FMA(w2[k], t, v),  d1i = FMA(wa[2k+i], dd, d1i),  d2i = FMA(wb[2k+i], t dd, d2i),
//
// dd = 1 − t t, stored as out[p] = (v + bias, d10, d11, d20, d21); and t
// transposed into t0 (rows of h, one per point) for the units below h &^ 3.
TEXT ·forward2Out(SB), NOSPLIT, $0-56
	MOVQ tab+0(FP), AX
	MOVQ z+8(FP), SI
	MOVQ t0+16(FP), DI
	MOVQ out+24(FP), DX
	MOVQ nblk+32(FP), CX
	MOVQ h+40(FP), R8
	MOVQ bias+48(FP), R9
	MOVQ R8, R15
	SHLQ $3, R15                      // bytes of a row of t0
	MOVQ R8, BX
	SHRQ $2, BX                       // unit groups of four

oblock:
	VXORPD  Y0, Y0, Y0
	VXORPD  Y1, Y1, Y1
	VXORPD  Y2, Y2, Y2
	VXORPD  Y3, Y3, Y3
	VXORPD  Y4, Y4, Y4
	MOVQ    AX, R10
	MOVQ    SI, R12
	MOVQ    R8, R11
	VMOVUPD b2c<>+0(SB), Y8          // 1 (a legacy-SSE MOVQ to X8 here made the loop 5x slower)

ounit:
	VMOVUPD     (R12), Y5             // t
	VMULPD      Y5, Y5, Y6
	VSUBPD      Y6, Y8, Y7            // dd = 1 − t t
	VMULPD      Y7, Y5, Y6            // td = t dd
	VFMADD231PD 96(R10), Y5, Y0
	VFMADD231PD 128(R10), Y7, Y1
	VFMADD231PD 160(R10), Y7, Y2
	VFMADD231PD 192(R10), Y6, Y3
	VFMADD231PD 224(R10), Y6, Y4
	ADDQ        $256, R10
	ADDQ        $32, R12
	DECQ        R11
	JNZ         ounit
	VADDPD      (R9), Y0, Y0          // v + bias

	// out: (v, d10, d11, d20) of each point by a 4 × 4 transpose, then d21.
	VUNPCKLPD  Y1, Y0, Y9
	VUNPCKHPD  Y1, Y0, Y10
	VUNPCKLPD  Y3, Y2, Y11
	VUNPCKHPD  Y3, Y2, Y12
	VPERM2F128 $0x20, Y11, Y9, Y13
	VMOVUPD    Y13, 0(DX)
	VPERM2F128 $0x20, Y12, Y10, Y13
	VMOVUPD    Y13, 40(DX)
	VPERM2F128 $0x31, Y11, Y9, Y13
	VMOVUPD    Y13, 80(DX)
	VPERM2F128 $0x31, Y12, Y10, Y13
	VMOVUPD    Y13, 120(DX)
	VMOVSD     X4, 32(DX)
	VMOVHPD    X4, 72(DX)
	VEXTRACTF128 $1, Y4, X4
	VMOVSD     X4, 112(DX)
	VMOVHPD    X4, 152(DX)

	// t0: four units at a time, 4 × 4 transposes.
	MOVQ  BX, R11
	TESTQ R11, R11
	JEQ   onext
	MOVQ  SI, R12                     // z of units k0..k0+3
	MOVQ  DI, R13                     // t0[p0][k0]

otrans:
	VMOVUPD    0(R12), Y0
	VMOVUPD    32(R12), Y1
	VMOVUPD    64(R12), Y2
	VMOVUPD    96(R12), Y3
	VUNPCKLPD  Y1, Y0, Y9
	VUNPCKHPD  Y1, Y0, Y10
	VUNPCKLPD  Y3, Y2, Y11
	VUNPCKHPD  Y3, Y2, Y12
	MOVQ       R13, R14
	VPERM2F128 $0x20, Y11, Y9, Y13
	VMOVUPD    Y13, (R14)
	ADDQ       R15, R14
	VPERM2F128 $0x20, Y12, Y10, Y13
	VMOVUPD    Y13, (R14)
	ADDQ       R15, R14
	VPERM2F128 $0x31, Y11, Y9, Y13
	VMOVUPD    Y13, (R14)
	ADDQ       R15, R14
	VPERM2F128 $0x31, Y12, Y10, Y13
	VMOVUPD    Y13, (R14)
	ADDQ       $128, R12
	ADDQ       $32, R13
	DECQ       R11
	JNZ        otrans

onext:
	MOVQ R8, R12
	SHLQ $5, R12
	ADDQ R12, SI                      // next block's z: h·4 values
	LEAQ (DI)(R15*4), DI              // next four rows of t0
	ADDQ $160, DX                     // next four points' outputs
	DECQ CX
	JNZ  oblock
	VZEROUPPER
	RET
