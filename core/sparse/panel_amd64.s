//go:build amd64 && !purego

#include "textflag.h"

// PREFETCH8 asks for the eight lines (512 bytes) R14 bytes past DI in the
// L2 cache: what an M v kernel's loop turn reads, R14 bytes on (see
// prefetchAhead in vector_simd.go).
#define PREFETCH8 \
	PREFETCHT1 0(DI)(R14*1); PREFETCHT1 64(DI)(R14*1); PREFETCHT1 128(DI)(R14*1); PREFETCHT1 192(DI)(R14*1); \
	PREFETCHT1 256(DI)(R14*1); PREFETCHT1 320(DI)(R14*1); PREFETCHT1 384(DI)(R14*1); PREFETCHT1 448(DI)(R14*1)

// The two panel kernels of vector_simd.go, in assembly: Go's register
// allocator shuffled the eight accumulators of the compiled archsimd
// version at every loop turn. Both keep each chain's order; VFMADD231PD
// is one fused multiply-add, as math.FMA.

// func mulVecGroupAsm(vals *float64, ents *entry, nents, g0 int, v *float64, r *[8]float64, w, ahead int, rows *int32, u *float64, nalpha float64, step int, lanes *float64)
//
// t = Tree(s) with s_i the FMA chain over the columns c ≡ i (mod 8) of the
// group of w rows at row g0 of every entry, in entry order. A column of the
// group is w values (8w bytes), read with a masked load: the lanes past w
// load as zeros. Then the group's rows of u and its values r for Mᵀ u, as
// groupU sets them: with step 0 (M v), u[rows[k]] = r[k] = t_k; with step 1
// (BidiagStep), u[rows[k]] = r[k] = FMA(nalpha, u[rows[k]], t_k), nalpha
// being −alpha; r's lanes past w are −0 (see groupU). If lanes is not nil
// (a chunk of one group), the group's Mᵀ u too, as mulTransPanelAsm adds
// it: lane k of each column c of every entry gains FMA(M[row k, c], r[k],
// l_k).
TEXT ·mulVecGroupAsm(SB), NOSPLIT, $0-104
	MOVQ   ahead+56(FP), R14 // prefetch distance (0: none)
	MOVQ   w+48(FP), CX
	MOVL   $1, R11
	SHLL   CX, R11
	DECL   R11
	KMOVW  R11, K1          // lanes 0..w-1
	MOVQ   CX, R11
	SHLQ   $3, R11          // s: one column of the group, in bytes
	LEAQ   (R11)(R11*2), R12 // 3s
	MOVQ   R11, R13
	SHLQ   $3, R13          // 8s: eight columns
	MOVQ   vals+0(FP), AX
	MOVQ   ents+8(FP), BX
	MOVQ   nents+16(FP), CX
	MOVQ   g0+24(FP), DX
	MOVQ   v+32(FP), SI
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	VPXORQ Z4, Z4, Z4
	VPXORQ Z5, Z5, Z5
	VPXORQ Z6, Z6, Z6
	VPXORQ Z7, Z7, Z7
	TESTQ  CX, CX
	JLE    tree

entry:
	MOVQ  16(BX), R8        // nc
	MOVQ  DX, R9
	IMULQ R8, R9
	ADDQ  0(BX), R9         // off + g0·nc
	LEAQ  (AX)(R9*8), DI    // the group's block part
	LEAQ  (DI)(R11*4), R9   // its column 4
	MOVQ  8(BX), R10
	LEAQ  (SI)(R10*8), R10  // v[col0:]
	CMPQ  R8, $8
	JLT   tail

loop8:
	TESTQ            R14, R14
	JEQ              loop8go
	PREFETCH8
loop8go:
	VMOVUPD.Z        (DI), K1, Z8
	VFMADD231PD.BCST 0(R10), Z8, Z0
	VMOVUPD.Z        (DI)(R11*1), K1, Z9
	VFMADD231PD.BCST 8(R10), Z9, Z1
	VMOVUPD.Z        (DI)(R11*2), K1, Z10
	VFMADD231PD.BCST 16(R10), Z10, Z2
	VMOVUPD.Z        (DI)(R12*1), K1, Z11
	VFMADD231PD.BCST 24(R10), Z11, Z3
	VMOVUPD.Z        (R9), K1, Z12
	VFMADD231PD.BCST 32(R10), Z12, Z4
	VMOVUPD.Z        (R9)(R11*1), K1, Z13
	VFMADD231PD.BCST 40(R10), Z13, Z5
	VMOVUPD.Z        (R9)(R11*2), K1, Z14
	VFMADD231PD.BCST 48(R10), Z14, Z6
	VMOVUPD.Z        (R9)(R12*1), K1, Z15
	VFMADD231PD.BCST 56(R10), Z15, Z7
	ADDQ             R13, DI
	ADDQ             R13, R9
	ADDQ             $64, R10
	SUBQ             $8, R8
	CMPQ             R8, $8
	JGE              loop8

tail:   // the last nc mod 8 columns, chains 0 to 6
	CMPQ             R8, $0
	JEQ              next
	VMOVUPD.Z        (DI), K1, Z8
	VFMADD231PD.BCST 0(R10), Z8, Z0
	CMPQ             R8, $1
	JEQ              next
	VMOVUPD.Z        (DI)(R11*1), K1, Z9
	VFMADD231PD.BCST 8(R10), Z9, Z1
	CMPQ             R8, $2
	JEQ              next
	VMOVUPD.Z        (DI)(R11*2), K1, Z10
	VFMADD231PD.BCST 16(R10), Z10, Z2
	CMPQ             R8, $3
	JEQ              next
	VMOVUPD.Z        (DI)(R12*1), K1, Z11
	VFMADD231PD.BCST 24(R10), Z11, Z3
	CMPQ             R8, $4
	JEQ              next
	VMOVUPD.Z        (R9), K1, Z12
	VFMADD231PD.BCST 32(R10), Z12, Z4
	CMPQ             R8, $5
	JEQ              next
	VMOVUPD.Z        (R9)(R11*1), K1, Z13
	VFMADD231PD.BCST 40(R10), Z13, Z5
	CMPQ             R8, $6
	JEQ              next
	VMOVUPD.Z        (R9)(R11*2), K1, Z14
	VFMADD231PD.BCST 48(R10), Z14, Z6

next:
	ADDQ $24, BX
	DECQ CX
	JNZ  entry

tree:   // fp.Tree: ((s0 + s4) + (s2 + s6)) + ((s1 + s5) + (s3 + s7))
	VADDPD  Z4, Z0, Z0
	VADDPD  Z6, Z2, Z2
	VADDPD  Z5, Z1, Z1
	VADDPD  Z7, Z3, Z3
	VADDPD  Z2, Z0, Z0
	VADDPD  Z3, Z1, Z1
	VADDPD  Z1, Z0, Z0
	VMOVUPD ·negZeros(SB), Z1
	VMOVAPD Z0, K1, Z1       // lanes past w: −0 (their chains may be NaN; see groupU)
	MOVQ    r+40(FP), DI
	VMOVUPD Z1, (DI)
	MOVQ    rows+64(FP), SI
	MOVQ    u+72(FP), R8
	MOVQ    w+48(FP), CX
	XORQ    DX, DX
	CMPQ    step+88(FP), $0
	JEQ     setu
	VMOVSD  nalpha+80(FP), X3

stepu:  // u_row = r_k = FMA(−alpha, u_row, t_k), row by row
	MOVLQSX     (SI)(DX*4), R10
	VMOVSD      (DI)(DX*8), X2
	VFMADD231SD (R8)(R10*8), X3, X2
	VMOVSD      X2, (R8)(R10*8)
	VMOVSD      X2, (DI)(DX*8)
	INCQ        DX
	CMPQ        DX, CX
	JLT         stepu
	JMP         trans

setu:   // u_row = t_k
	MOVLQSX (SI)(DX*4), R10
	VMOVSD  (DI)(DX*8), X2
	VMOVSD  X2, (R8)(R10*8)
	INCQ    DX
	CMPQ    DX, CX
	JLT     setu

trans:  // with lanes: the group's Mᵀ u, column by column (R11: the column stride; nents > 0, as the caller ensures)
	MOVQ    lanes+96(FP), R9
	TESTQ   R9, R9
	JEQ     end
	VMOVUPD (DI), Z0         // r
	MOVQ    vals+0(FP), AX
	MOVQ    ents+8(FP), BX
	MOVQ    nents+16(FP), CX
	MOVQ    g0+24(FP), DX

tentry:
	MOVQ  16(BX), R8        // nc
	TESTQ R8, R8
	JEQ   tnext
	MOVQ  DX, R10
	IMULQ R8, R10
	ADDQ  0(BX), R10
	LEAQ  (AX)(R10*8), R10  // the group's part of the block
	MOVQ  8(BX), R14
	SHLQ  $6, R14
	ADDQ  R9, R14           // lanes of column col0

tloop:
	PREFETCHT0  4096(R10)
	VMOVUPD     (R14), Z1
	VMOVUPD.Z   (R10), K1, Z2
	VFMADD231PD Z2, Z0, Z1
	VMOVUPD     Z1, (R14)
	ADDQ        R11, R10
	ADDQ        $64, R14
	DECQ        R8
	JNZ         tloop

tnext:
	ADDQ $24, BX
	DECQ CX
	JNZ  tentry

end:
	VZEROUPPER
	RET

// The AVX2 kernels: four lanes per register, so a group of eight rows is
// two registers; mulVecGroupAVX2 (below) is mulVecGroupAsm. The Mᵀ u
// kernels of both paths are in panelgen_amd64.s.

// laneNumbers holds the lane numbers 0 to 7: a lane is below w where w > its
// number (also read by panelgen_amd64.s's AVX2 kernel).
DATA ·laneNumbers+0(SB)/8, $0
DATA ·laneNumbers+8(SB)/8, $1
DATA ·laneNumbers+16(SB)/8, $2
DATA ·laneNumbers+24(SB)/8, $3
DATA ·laneNumbers+32(SB)/8, $4
DATA ·laneNumbers+40(SB)/8, $5
DATA ·laneNumbers+48(SB)/8, $6
DATA ·laneNumbers+56(SB)/8, $7
GLOBL ·laneNumbers(SB), RODATA|NOPTR, $64

// func mulVecGroupAVX2(vals *float64, ents *entry, nents, g0 int, v *float64, t *[8]float64, sc *[8][4]float64, ahead int)
//
// mulVecGroupAsm on AVX2: a group's eight rows are two registers, and its
// eight chains per row would need sixteen accumulators, so the chains are
// run in two passes over the entries, 0-3 then 4-7 (each chain in its own
// order), each pass reading every line it touches (one column of the group)
// whole. The first pass's sums wait in sc.
TEXT ·mulVecGroupAVX2(SB), NOSPLIT, $0-64
	MOVQ   ahead+56(FP), R14 // prefetch distance (0: none)
	MOVQ   vals+0(FP), AX
	MOVQ   v+32(FP), SI
	MOVQ   g0+24(FP), DX
	MOVQ   sc+48(FP), R13
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	MOVQ   ents+8(FP), BX
	MOVQ   nents+16(FP), CX
	TESTQ  CX, CX
	JLE    pAdone
pAentry:
	MOVQ  16(BX), R8        // nc
	MOVQ  DX, R9
	IMULQ R8, R9
	ADDQ  0(BX), R9
	LEAQ  (AX)(R9*8), DI    // the group's block part
	MOVQ  8(BX), R10
	LEAQ  (SI)(R10*8), R10  // v[col0:]
	CMPQ  R8, $8
	JLT   pAtail
pAloop8:
	TESTQ            R14, R14
	JEQ              pAloop8go
	PREFETCH8
pAloop8go:
	VBROADCASTSD 0(R10), Y8
	VBROADCASTSD 8(R10), Y9
	VBROADCASTSD 16(R10), Y10
	VBROADCASTSD 24(R10), Y11
	VFMADD231PD  0(DI), Y8, Y0
	VFMADD231PD  32(DI), Y8, Y4
	VFMADD231PD  64(DI), Y9, Y1
	VFMADD231PD  96(DI), Y9, Y5
	VFMADD231PD  128(DI), Y10, Y2
	VFMADD231PD  160(DI), Y10, Y6
	VFMADD231PD  192(DI), Y11, Y3
	VFMADD231PD  224(DI), Y11, Y7
	ADDQ $512, DI
	ADDQ $64, R10
	SUBQ $8, R8
	CMPQ R8, $8
	JGE  pAloop8
pAtail:  // the last nc mod 8 columns: chains 0 to 6
	CMPQ R8, $0
	JLE  pAnext
	VBROADCASTSD 0(R10), Y8
	VFMADD231PD  0(DI), Y8, Y0
	VFMADD231PD  32(DI), Y8, Y4
	CMPQ R8, $1
	JLE  pAnext
	VBROADCASTSD 8(R10), Y9
	VFMADD231PD  64(DI), Y9, Y1
	VFMADD231PD  96(DI), Y9, Y5
	CMPQ R8, $2
	JLE  pAnext
	VBROADCASTSD 16(R10), Y10
	VFMADD231PD  128(DI), Y10, Y2
	VFMADD231PD  160(DI), Y10, Y6
	CMPQ R8, $3
	JLE  pAnext
	VBROADCASTSD 24(R10), Y11
	VFMADD231PD  192(DI), Y11, Y3
	VFMADD231PD  224(DI), Y11, Y7
pAnext:
	ADDQ $24, BX
	DECQ CX
	JNZ  pAentry
pAdone:
	VMOVUPD Y0, 0(R13)
	VMOVUPD Y1, 32(R13)
	VMOVUPD Y2, 64(R13)
	VMOVUPD Y3, 96(R13)
	VMOVUPD Y4, 128(R13)
	VMOVUPD Y5, 160(R13)
	VMOVUPD Y6, 192(R13)
	VMOVUPD Y7, 224(R13)
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	MOVQ   ents+8(FP), BX
	MOVQ   nents+16(FP), CX
	TESTQ  CX, CX
	JLE    pBdone
pBentry:
	MOVQ  16(BX), R8        // nc
	MOVQ  DX, R9
	IMULQ R8, R9
	ADDQ  0(BX), R9
	LEAQ  (AX)(R9*8), DI    // the group's block part
	MOVQ  8(BX), R10
	LEAQ  (SI)(R10*8), R10  // v[col0:]
	CMPQ  R8, $8
	JLT   pBtail
pBloop8:
	VBROADCASTSD 32(R10), Y8
	VBROADCASTSD 40(R10), Y9
	VBROADCASTSD 48(R10), Y10
	VBROADCASTSD 56(R10), Y11
	VFMADD231PD  256(DI), Y8, Y0
	VFMADD231PD  288(DI), Y8, Y4
	VFMADD231PD  320(DI), Y9, Y1
	VFMADD231PD  352(DI), Y9, Y5
	VFMADD231PD  384(DI), Y10, Y2
	VFMADD231PD  416(DI), Y10, Y6
	VFMADD231PD  448(DI), Y11, Y3
	VFMADD231PD  480(DI), Y11, Y7
	ADDQ $512, DI
	ADDQ $64, R10
	SUBQ $8, R8
	CMPQ R8, $8
	JGE  pBloop8
pBtail:  // the last nc mod 8 columns: chains 0 to 6
	CMPQ R8, $4
	JLE  pBnext
	VBROADCASTSD 32(R10), Y8
	VFMADD231PD  256(DI), Y8, Y0
	VFMADD231PD  288(DI), Y8, Y4
	CMPQ R8, $5
	JLE  pBnext
	VBROADCASTSD 40(R10), Y9
	VFMADD231PD  320(DI), Y9, Y1
	VFMADD231PD  352(DI), Y9, Y5
	CMPQ R8, $6
	JLE  pBnext
	VBROADCASTSD 48(R10), Y10
	VFMADD231PD  384(DI), Y10, Y2
	VFMADD231PD  416(DI), Y10, Y6
pBnext:
	ADDQ $24, BX
	DECQ CX
	JNZ  pBentry
pBdone:
	// fp.Tree: ((s0 + s4) + (s2 + s6)) + ((s1 + s5) + (s3 + s7)), rows 0-3 then 4-7
	VADDPD 0(R13), Y0, Y0   // s0 + s4
	VADDPD 64(R13), Y2, Y2   // s2 + s6
	VADDPD 32(R13), Y1, Y1   // s1 + s5
	VADDPD 96(R13), Y3, Y3   // s3 + s7
	VADDPD Y2, Y0, Y0
	VADDPD Y3, Y1, Y1
	VADDPD Y1, Y0, Y0
	VADDPD 128(R13), Y4, Y4   // s0 + s4
	VADDPD 192(R13), Y6, Y6   // s2 + s6
	VADDPD 160(R13), Y5, Y5   // s1 + s5
	VADDPD 224(R13), Y7, Y7   // s3 + s7
	VADDPD Y6, Y4, Y4
	VADDPD Y7, Y5, Y5
	VADDPD Y5, Y4, Y4
	MOVQ    t+40(FP), DI
	VMOVUPD Y0, (DI)
	VMOVUPD Y4, 32(DI)
	VZEROUPPER
	RET

// func mulVecHalfAVX2(vals *float64, ents *entry, nents, g0 int, v *float64, t *[4]float64, w, half, ahead int)
//
// t = rows half..half+3 of mulVecGroupAsm's t for a group of w < 8 rows
// (half 0 or 4): the eight chains of four rows in eight registers, each
// column's four values of the group read with a masked load (rows past w
// load as zeros).
TEXT ·mulVecHalfAVX2(SB), NOSPLIT, $0-72
	MOVQ         ahead+64(FP), R14 // prefetch distance (0: none)
	MOVQ         w+48(FP), R13
	MOVQ         half+56(FP), R8
	VMOVQ        R13, X12
	VPBROADCASTQ X12, Y12
	LEAQ         ·laneNumbers(SB), R9
	VPCMPGTQ     (R9)(R8*8), Y12, Y12 // rows half..half+3 below w
	MOVQ         R13, R11
	SHLQ         $3, R11               // s: one column of the group, in bytes
	LEAQ         (R11)(R11*2), R12     // 3s
	SHLQ         $6, R13               // 8s: eight columns
	MOVQ         vals+0(FP), AX
	LEAQ         (AX)(R8*8), AX        // row half of every column
	MOVQ         ents+8(FP), BX
	MOVQ         nents+16(FP), CX
	MOVQ         g0+24(FP), DX
	MOVQ         v+32(FP), SI
	VXORPD       Y0, Y0, Y0
	VXORPD       Y1, Y1, Y1
	VXORPD       Y2, Y2, Y2
	VXORPD       Y3, Y3, Y3
	VXORPD       Y4, Y4, Y4
	VXORPD       Y5, Y5, Y5
	VXORPD       Y6, Y6, Y6
	VXORPD       Y7, Y7, Y7
	TESTQ        CX, CX
	JLE          hdone

hentry:
	MOVQ  16(BX), R8        // nc
	MOVQ  DX, R9
	IMULQ R8, R9
	ADDQ  0(BX), R9         // off + g0·nc
	LEAQ  (AX)(R9*8), DI    // the group's block part, at row half
	LEAQ  (DI)(R11*4), R9   // its column 4
	MOVQ  8(BX), R10
	LEAQ  (SI)(R10*8), R10  // v[col0:]
	CMPQ  R8, $8
	JLT   htail

hloop8:
	TESTQ            R14, R14
	JEQ              hloop8go
	PREFETCH8
hloop8go:
	VBROADCASTSD 0(R10), Y8
	VBROADCASTSD 8(R10), Y9
	VBROADCASTSD 16(R10), Y10
	VBROADCASTSD 24(R10), Y11
	VMASKMOVPD   (DI), Y12, Y13
	VFMADD231PD  Y13, Y8, Y0
	VMASKMOVPD   (DI)(R11*1), Y12, Y14
	VFMADD231PD  Y14, Y9, Y1
	VMASKMOVPD   (DI)(R11*2), Y12, Y15
	VFMADD231PD  Y15, Y10, Y2
	VMASKMOVPD   (DI)(R12*1), Y12, Y13
	VFMADD231PD  Y13, Y11, Y3
	VBROADCASTSD 32(R10), Y8
	VBROADCASTSD 40(R10), Y9
	VBROADCASTSD 48(R10), Y10
	VBROADCASTSD 56(R10), Y11
	VMASKMOVPD   (R9), Y12, Y13
	VFMADD231PD  Y13, Y8, Y4
	VMASKMOVPD   (R9)(R11*1), Y12, Y14
	VFMADD231PD  Y14, Y9, Y5
	VMASKMOVPD   (R9)(R11*2), Y12, Y15
	VFMADD231PD  Y15, Y10, Y6
	VMASKMOVPD   (R9)(R12*1), Y12, Y13
	VFMADD231PD  Y13, Y11, Y7
	ADDQ R13, DI
	ADDQ R13, R9
	ADDQ $64, R10
	SUBQ $8, R8
	CMPQ R8, $8
	JGE  hloop8

htail:  // the last nc mod 8 columns, chains 0 to 6
	CMPQ         R8, $0
	JEQ          hnext
	VBROADCASTSD 0(R10), Y8
	VMASKMOVPD   (DI), Y12, Y13
	VFMADD231PD  Y13, Y8, Y0
	CMPQ         R8, $1
	JEQ          hnext
	VBROADCASTSD 8(R10), Y8
	VMASKMOVPD   (DI)(R11*1), Y12, Y13
	VFMADD231PD  Y13, Y8, Y1
	CMPQ         R8, $2
	JEQ          hnext
	VBROADCASTSD 16(R10), Y8
	VMASKMOVPD   (DI)(R11*2), Y12, Y13
	VFMADD231PD  Y13, Y8, Y2
	CMPQ         R8, $3
	JEQ          hnext
	VBROADCASTSD 24(R10), Y8
	VMASKMOVPD   (DI)(R12*1), Y12, Y13
	VFMADD231PD  Y13, Y8, Y3
	CMPQ         R8, $4
	JEQ          hnext
	VBROADCASTSD 32(R10), Y8
	VMASKMOVPD   (R9), Y12, Y13
	VFMADD231PD  Y13, Y8, Y4
	CMPQ         R8, $5
	JEQ          hnext
	VBROADCASTSD 40(R10), Y8
	VMASKMOVPD   (R9)(R11*1), Y12, Y13
	VFMADD231PD  Y13, Y8, Y5
	CMPQ         R8, $6
	JEQ          hnext
	VBROADCASTSD 48(R10), Y8
	VMASKMOVPD   (R9)(R11*2), Y12, Y13
	VFMADD231PD  Y13, Y8, Y6

hnext:
	ADDQ $24, BX
	DECQ CX
	JNZ  hentry

hdone:  // fp.Tree: ((s0 + s4) + (s2 + s6)) + ((s1 + s5) + (s3 + s7))
	VADDPD  Y4, Y0, Y0
	VADDPD  Y6, Y2, Y2
	VADDPD  Y5, Y1, Y1
	VADDPD  Y7, Y3, Y3
	VADDPD  Y2, Y0, Y0
	VADDPD  Y3, Y1, Y1
	VADDPD  Y1, Y0, Y0
	MOVQ    t+40(FP), DI
	VMOVUPD Y0, (DI)
	VZEROUPPER
	RET
