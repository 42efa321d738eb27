//go:build amd64 && !purego

#include "textflag.h"

// tanhAVX2Asm is Tanh (elem.go) on four lanes at a time: every operation
// in the scalar order, then the per-lane selection of NaN. (The archsimd
// version of the earlier, faithful tanh kept spilling registers: 8.3 ns a
// value on this project's Zen 3 machine, against 4.4 ns in assembly.)
// −k·ln2Lo is k·(−ln2Lo), exactly.

DATA tanhc<>+0(SB)/8, $0x7fffffffffffffff  // |x| mask
DATA tanhc<>+8(SB)/8, $0x7fffffffffffffff
DATA tanhc<>+16(SB)/8, $0x7fffffffffffffff
DATA tanhc<>+24(SB)/8, $0x7fffffffffffffff
DATA tanhc<>+32(SB)/8, $0x8000000000000000  // sign mask
DATA tanhc<>+40(SB)/8, $0x8000000000000000
DATA tanhc<>+48(SB)/8, $0x8000000000000000
DATA tanhc<>+56(SB)/8, $0x8000000000000000
DATA tanhc<>+64(SB)/8, $0x4044000000000000  // 40
DATA tanhc<>+72(SB)/8, $0x4044000000000000
DATA tanhc<>+80(SB)/8, $0x4044000000000000
DATA tanhc<>+88(SB)/8, $0x4044000000000000
DATA tanhc<>+96(SB)/8, $0x3ff71547652b82fe  // 1/ln 2
DATA tanhc<>+104(SB)/8, $0x3ff71547652b82fe
DATA tanhc<>+112(SB)/8, $0x3ff71547652b82fe
DATA tanhc<>+120(SB)/8, $0x3ff71547652b82fe
DATA tanhc<>+128(SB)/8, $0x4338000000000000  // magic
DATA tanhc<>+136(SB)/8, $0x4338000000000000
DATA tanhc<>+144(SB)/8, $0x4338000000000000
DATA tanhc<>+152(SB)/8, $0x4338000000000000
DATA tanhc<>+160(SB)/8, $0x3fe62e42ff000000  // ln2Hi
DATA tanhc<>+168(SB)/8, $0x3fe62e42ff000000
DATA tanhc<>+176(SB)/8, $0x3fe62e42ff000000
DATA tanhc<>+184(SB)/8, $0x3fe62e42ff000000
DATA tanhc<>+192(SB)/8, $0x3dc718432a1b0e26  // −ln2Lo
DATA tanhc<>+200(SB)/8, $0x3dc718432a1b0e26
DATA tanhc<>+208(SB)/8, $0x3dc718432a1b0e26
DATA tanhc<>+216(SB)/8, $0x3dc718432a1b0e26
DATA tanhc<>+224(SB)/8, $0x3fc5555555555555  // 1/6
DATA tanhc<>+232(SB)/8, $0x3fc5555555555555
DATA tanhc<>+240(SB)/8, $0x3fc5555555555555
DATA tanhc<>+248(SB)/8, $0x3fc5555555555555
DATA tanhc<>+256(SB)/8, $0x3fe0000000000000  // 1/2
DATA tanhc<>+264(SB)/8, $0x3fe0000000000000
DATA tanhc<>+272(SB)/8, $0x3fe0000000000000
DATA tanhc<>+280(SB)/8, $0x3fe0000000000000
DATA tanhc<>+288(SB)/8, $0x3f81111111111111  // 1/120
DATA tanhc<>+296(SB)/8, $0x3f81111111111111
DATA tanhc<>+304(SB)/8, $0x3f81111111111111
DATA tanhc<>+312(SB)/8, $0x3f81111111111111
DATA tanhc<>+320(SB)/8, $0x3fa5555555555555  // 1/24
DATA tanhc<>+328(SB)/8, $0x3fa5555555555555
DATA tanhc<>+336(SB)/8, $0x3fa5555555555555
DATA tanhc<>+344(SB)/8, $0x3fa5555555555555
DATA tanhc<>+352(SB)/8, $0x3f2a01a01a01a01a  // 1/5040
DATA tanhc<>+360(SB)/8, $0x3f2a01a01a01a01a
DATA tanhc<>+368(SB)/8, $0x3f2a01a01a01a01a
DATA tanhc<>+376(SB)/8, $0x3f2a01a01a01a01a
DATA tanhc<>+384(SB)/8, $0x3f56c16c16c16c17  // 1/720
DATA tanhc<>+392(SB)/8, $0x3f56c16c16c16c17
DATA tanhc<>+400(SB)/8, $0x3f56c16c16c16c17
DATA tanhc<>+408(SB)/8, $0x3f56c16c16c16c17
DATA tanhc<>+416(SB)/8, $0x3ec71de3a556c734  // 1/362880
DATA tanhc<>+424(SB)/8, $0x3ec71de3a556c734
DATA tanhc<>+432(SB)/8, $0x3ec71de3a556c734
DATA tanhc<>+440(SB)/8, $0x3ec71de3a556c734
DATA tanhc<>+448(SB)/8, $0x3efa01a01a01a01a  // 1/40320
DATA tanhc<>+456(SB)/8, $0x3efa01a01a01a01a
DATA tanhc<>+464(SB)/8, $0x3efa01a01a01a01a
DATA tanhc<>+472(SB)/8, $0x3efa01a01a01a01a
DATA tanhc<>+480(SB)/8, $0x3e5ae64567f544e4  // 1/39916800
DATA tanhc<>+488(SB)/8, $0x3e5ae64567f544e4
DATA tanhc<>+496(SB)/8, $0x3e5ae64567f544e4
DATA tanhc<>+504(SB)/8, $0x3e5ae64567f544e4
DATA tanhc<>+512(SB)/8, $0x3e927e4fb7789f5c  // 1/3628800
DATA tanhc<>+520(SB)/8, $0x3e927e4fb7789f5c
DATA tanhc<>+528(SB)/8, $0x3e927e4fb7789f5c
DATA tanhc<>+536(SB)/8, $0x3e927e4fb7789f5c
DATA tanhc<>+544(SB)/8, $0x3de6124613a86d09  // 1/6227020800
DATA tanhc<>+552(SB)/8, $0x3de6124613a86d09
DATA tanhc<>+560(SB)/8, $0x3de6124613a86d09
DATA tanhc<>+568(SB)/8, $0x3de6124613a86d09
DATA tanhc<>+576(SB)/8, $0x3e21eed8eff8d898  // 1/479001600
DATA tanhc<>+584(SB)/8, $0x3e21eed8eff8d898
DATA tanhc<>+592(SB)/8, $0x3e21eed8eff8d898
DATA tanhc<>+600(SB)/8, $0x3e21eed8eff8d898
DATA tanhc<>+608(SB)/8, $0x3ff0000000000000  // 1
DATA tanhc<>+616(SB)/8, $0x3ff0000000000000
DATA tanhc<>+624(SB)/8, $0x3ff0000000000000
DATA tanhc<>+632(SB)/8, $0x3ff0000000000000
DATA tanhc<>+640(SB)/8, $0x4000000000000000  // 2
DATA tanhc<>+648(SB)/8, $0x4000000000000000
DATA tanhc<>+656(SB)/8, $0x4000000000000000
DATA tanhc<>+664(SB)/8, $0x4000000000000000
DATA tanhc<>+672(SB)/8, $0x00000000000003ff  // 1023 (int64)
DATA tanhc<>+680(SB)/8, $0x00000000000003ff
DATA tanhc<>+688(SB)/8, $0x00000000000003ff
DATA tanhc<>+696(SB)/8, $0x00000000000003ff
GLOBL tanhc<>(SB), RODATA|NOPTR, $704

// func tanhAVX2Asm(dst, x *float64, n int)
//
// n is a multiple of 4.
TEXT ·tanhAVX2Asm(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $2, CX
	JEQ  done

loop:
	VMOVUPD (SI), Y0                       // x
	VANDPD  tanhc<>+0(SB), Y0, Y1          // a = |x|
	VADDPD  Y1, Y1, Y2                     // y = a + a
	VMINPD  tanhc<>+64(SB), Y2, Y2         // min(y, 40) (40 for NaN: selected away below)
	VMOVUPD tanhc<>+96(SB), Y3
	VFMADD213PD tanhc<>+128(SB), Y2, Y3    // kf = y/ln2 + magic
	VSUBPD  tanhc<>+128(SB), Y3, Y4        // k = kf − magic
	VFNMADD231PD tanhc<>+160(SB), Y4, Y2   // rHi = −k ln2Hi + y
	VMULPD  tanhc<>+192(SB), Y4, Y4        // rLo = k (−ln2Lo)
	VADDPD  Y4, Y2, Y5                     // r = rHi + rLo
	VMULPD  Y5, Y5, Y6                     // r2
	VMULPD  Y6, Y6, Y7                     // r4
	VMULPD  Y7, Y7, Y8                     // r8
	VMOVUPD tanhc<>+224(SB), Y9
	VFMADD213PD tanhc<>+256(SB), Y5, Y9    // q0
	VMOVUPD tanhc<>+288(SB), Y10
	VFMADD213PD tanhc<>+320(SB), Y5, Y10   // q1
	VFMADD213PD Y9, Y6, Y10                // o0 = q1 r2 + q0
	VMOVUPD tanhc<>+352(SB), Y9
	VFMADD213PD tanhc<>+384(SB), Y5, Y9    // q2
	VMOVUPD tanhc<>+416(SB), Y11
	VFMADD213PD tanhc<>+448(SB), Y5, Y11   // q3
	VFMADD213PD Y9, Y6, Y11                // o1 = q3 r2 + q2
	VMOVUPD tanhc<>+480(SB), Y9
	VFMADD213PD tanhc<>+512(SB), Y5, Y9    // q4
	VMOVUPD tanhc<>+544(SB), Y12
	VFMADD213PD tanhc<>+576(SB), Y5, Y12   // q5
	VFMADD213PD Y9, Y6, Y12                // o2 = q5 r2 + q4
	VFMADD213PD Y10, Y7, Y11               // p = o1 r4 + o0
	VFMADD213PD Y11, Y8, Y12               // p = o2 r8 + p
	VFMADD213PD Y4, Y6, Y12                // r2 p + rLo
	VADDPD  Y12, Y2, Y12                   // em = rHi + (r2 p + rLo)
	VPADDQ  tanhc<>+672(SB), Y3, Y3
	VPSLLQ  $52, Y3, Y3                    // sc = 2^k
	VSUBPD  tanhc<>+608(SB), Y3, Y13       // sc − 1
	VFMADD213PD Y13, Y3, Y12               // e = sc em + (sc − 1)
	VADDPD  tanhc<>+640(SB), Y12, Y13      // d = e + 2
	VDIVPD  Y13, Y12, Y12                  // t = e/d
	VANDPD  tanhc<>+32(SB), Y0, Y13
	VORPD   Y13, Y12, Y12                  // copysign
	VCMPPD  $3, Y0, Y0, Y13                // x unordered
	VBLENDVPD Y13, Y0, Y12, Y12
	VMOVUPD Y12, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	DECQ    CX
	JNZ     loop

done:
	VZEROUPPER
	RET
