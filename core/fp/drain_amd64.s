//go:build amd64 && !purego

#include "textflag.h"

// DrainLanes's kernels (reduce.go): dst[i] = Tree(l[8i:8i+8]) for eight
// (AVX-512) or four (AVX2) rows at a time, by transposing adds: with rows
// a..h, the first stage adds each row's halves (l0+l4, l1+l5, l2+l6,
// l3+l7), the second the pairs of those (l04+l26, l15+l37), the third the
// two (l0426+l1537): Tree's adds, each of the same two values (an IEEE add
// is commutative), so the same bits. The rows are paired so that the last
// stage's unpacks leave the sums in row order. Then the rows are zeroed.

// func drainAVX512(dst, l *float64, n int)
//
// n is a multiple of 8: dst[0:n], l[0:8n].
TEXT ·drainAVX512(SB), NOSPLIT, $0-24
	MOVQ   dst+0(FP), DI
	MOVQ   l+8(FP), SI
	MOVQ   n+16(FP), CX
	TESTQ  CX, CX
	JLE    done512

loop512: // Z0-Z15 only: VZEROUPPER leaves Z16-Z31 as they are (see docs/arithmetic.md, "Clean upper halves")
	VMOVUPD 0(SI), Z0   // a
	VMOVUPD 64(SI), Z1  // b
	VMOVUPD 128(SI), Z2 // c
	VMOVUPD 192(SI), Z3 // d
	VMOVUPD 256(SI), Z4 // e
	VMOVUPD 320(SI), Z5 // f
	VMOVUPD 384(SI), Z6 // g
	VMOVUPD 448(SI), Z7 // h
	// Stage 1, rows (a, c), (e, g), (b, d), (f, h): each 256-bit half of
	// the result is one row's l_k + l_(k+4).
	VSHUFF64X2 $0x44, Z2, Z0, Z8
	VSHUFF64X2 $0xEE, Z2, Z0, Z9
	VADDPD     Z9, Z8, Z8       // a | c
	VSHUFF64X2 $0x44, Z6, Z4, Z10
	VSHUFF64X2 $0xEE, Z6, Z4, Z11
	VADDPD     Z11, Z10, Z10    // e | g
	VSHUFF64X2 $0x44, Z3, Z1, Z12
	VSHUFF64X2 $0xEE, Z3, Z1, Z13
	VADDPD     Z13, Z12, Z12    // b | d
	VSHUFF64X2 $0x44, Z7, Z5, Z14
	VSHUFF64X2 $0xEE, Z7, Z5, Z15
	VADDPD     Z15, Z14, Z14    // f | h
	// Stage 2: each 128-bit quarter is one row's (l04 + l26, l15 + l37),
	// rows a, c, e, g and b, d, f, h.
	VSHUFF64X2 $0x88, Z10, Z8, Z0
	VSHUFF64X2 $0xDD, Z10, Z8, Z1
	VADDPD     Z1, Z0, Z0
	VSHUFF64X2 $0x88, Z14, Z12, Z2
	VSHUFF64X2 $0xDD, Z14, Z12, Z3
	VADDPD     Z3, Z2, Z2
	// Stage 3: a, b, c, ..., h.
	VUNPCKLPD Z2, Z0, Z4
	VUNPCKHPD Z2, Z0, Z5
	VADDPD    Z5, Z4, Z4
	VMOVUPD   Z4, (DI)
	VPXORQ    Z6, Z6, Z6
	VMOVUPD   Z6, 0(SI)
	VMOVUPD   Z6, 64(SI)
	VMOVUPD   Z6, 128(SI)
	VMOVUPD   Z6, 192(SI)
	VMOVUPD   Z6, 256(SI)
	VMOVUPD   Z6, 320(SI)
	VMOVUPD   Z6, 384(SI)
	VMOVUPD   Z6, 448(SI)
	ADDQ      $64, DI
	ADDQ      $512, SI
	SUBQ      $8, CX
	JNZ       loop512

done512:
	VZEROUPPER
	RET

// func drainAVX2(dst, l *float64, n int)
//
// n is a multiple of 4: dst[0:n], l[0:8n].
TEXT ·drainAVX2(SB), NOSPLIT, $0-24
	MOVQ   dst+0(FP), DI
	MOVQ   l+8(FP), SI
	MOVQ   n+16(FP), CX
	VXORPD Y15, Y15, Y15
	TESTQ  CX, CX
	JLE    done2

loop2:
	// Stage 1: a row's halves, l_k + l_(k+4).
	VMOVUPD 0(SI), Y0
	VADDPD  32(SI), Y0, Y0   // a
	VMOVUPD 64(SI), Y1
	VADDPD  96(SI), Y1, Y1   // b
	VMOVUPD 128(SI), Y2
	VADDPD  160(SI), Y2, Y2  // c
	VMOVUPD 192(SI), Y3
	VADDPD  224(SI), Y3, Y3  // d
	// Stage 2, rows (a, c) and (b, d): each 128-bit half is one row's
	// (l04 + l26, l15 + l37).
	VPERM2F128 $0x20, Y2, Y0, Y4
	VPERM2F128 $0x31, Y2, Y0, Y5
	VADDPD     Y5, Y4, Y4       // a | c
	VPERM2F128 $0x20, Y3, Y1, Y6
	VPERM2F128 $0x31, Y3, Y1, Y7
	VADDPD     Y7, Y6, Y6       // b | d
	// Stage 3: a, b, c, d.
	VUNPCKLPD Y6, Y4, Y8
	VUNPCKHPD Y6, Y4, Y9
	VADDPD    Y9, Y8, Y8
	VMOVUPD   Y8, (DI)
	VMOVUPD   Y15, 0(SI)
	VMOVUPD   Y15, 32(SI)
	VMOVUPD   Y15, 64(SI)
	VMOVUPD   Y15, 96(SI)
	VMOVUPD   Y15, 128(SI)
	VMOVUPD   Y15, 160(SI)
	VMOVUPD   Y15, 192(SI)
	VMOVUPD   Y15, 224(SI)
	ADDQ      $32, DI
	ADDQ      $256, SI
	SUBQ      $4, CX
	JNZ       loop2

done2:
	VZEROUPPER
	RET
