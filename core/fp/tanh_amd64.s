//go:build amd64 && !purego

#include "textflag.h"

// tanhAVX2Asm is Tanh (elem.go) on four lanes at a time: every operation
// of tanhSmall, tanhLarge and expDD in the scalar order, both branches,
// then the per-lane selections of Tanh. The Go compiler's code for the
// archsimd version kept spilling registers (8.3 ns a value on this
// project's Zen 3 machine, against 4.4 ns here; the scalar Tanh: 18 ns).
// Forms used where the scalar code negates an operand: VFNMADD (−(a·b) + c) is FMA(−a, b, c) and VFMSUB (a·b − c) is
// FMA(a, b, −c), both exactly; −kf·ln2Lo is kf·(−ln2Lo).

DATA tanhc<>+0(SB)/8, $0x7fffffffffffffff
DATA tanhc<>+8(SB)/8, $0x7fffffffffffffff
DATA tanhc<>+16(SB)/8, $0x7fffffffffffffff
DATA tanhc<>+24(SB)/8, $0x7fffffffffffffff
DATA tanhc<>+32(SB)/8, $0x8000000000000000
DATA tanhc<>+40(SB)/8, $0x8000000000000000
DATA tanhc<>+48(SB)/8, $0x8000000000000000
DATA tanhc<>+56(SB)/8, $0x8000000000000000
DATA tanhc<>+64(SB)/8, $0x3fc1111111111111
DATA tanhc<>+72(SB)/8, $0x3fc1111111111111
DATA tanhc<>+80(SB)/8, $0x3fc1111111111111
DATA tanhc<>+88(SB)/8, $0x3fc1111111111111
DATA tanhc<>+96(SB)/8, $0xbfd5555555555555
DATA tanhc<>+104(SB)/8, $0xbfd5555555555555
DATA tanhc<>+112(SB)/8, $0xbfd5555555555555
DATA tanhc<>+120(SB)/8, $0xbfd5555555555555
DATA tanhc<>+128(SB)/8, $0x3f9664f4882c10fa
DATA tanhc<>+136(SB)/8, $0x3f9664f4882c10fa
DATA tanhc<>+144(SB)/8, $0x3f9664f4882c10fa
DATA tanhc<>+152(SB)/8, $0x3f9664f4882c10fa
DATA tanhc<>+160(SB)/8, $0xbfaba1ba1ba1ba1c
DATA tanhc<>+168(SB)/8, $0xbfaba1ba1ba1ba1c
DATA tanhc<>+176(SB)/8, $0xbfaba1ba1ba1ba1c
DATA tanhc<>+184(SB)/8, $0xbfaba1ba1ba1ba1c
DATA tanhc<>+192(SB)/8, $0x3f6d6d3d0e157de0
DATA tanhc<>+200(SB)/8, $0x3f6d6d3d0e157de0
DATA tanhc<>+208(SB)/8, $0x3f6d6d3d0e157de0
DATA tanhc<>+216(SB)/8, $0x3f6d6d3d0e157de0
DATA tanhc<>+224(SB)/8, $0xbf8226e355e6c23d
DATA tanhc<>+232(SB)/8, $0xbf8226e355e6c23d
DATA tanhc<>+240(SB)/8, $0xbf8226e355e6c23d
DATA tanhc<>+248(SB)/8, $0xbf8226e355e6c23d
DATA tanhc<>+256(SB)/8, $0x3f43558248036744
DATA tanhc<>+264(SB)/8, $0x3f43558248036744
DATA tanhc<>+272(SB)/8, $0x3f43558248036744
DATA tanhc<>+280(SB)/8, $0x3f43558248036744
DATA tanhc<>+288(SB)/8, $0xbf57da36452b75e3
DATA tanhc<>+296(SB)/8, $0xbf57da36452b75e3
DATA tanhc<>+304(SB)/8, $0xbf57da36452b75e3
DATA tanhc<>+312(SB)/8, $0xbf57da36452b75e3
DATA tanhc<>+320(SB)/8, $0xbf2f57d7734d1664
DATA tanhc<>+328(SB)/8, $0xbf2f57d7734d1664
DATA tanhc<>+336(SB)/8, $0xbf2f57d7734d1664
DATA tanhc<>+344(SB)/8, $0xbf2f57d7734d1664
DATA tanhc<>+352(SB)/8, $0x4036000000000000
DATA tanhc<>+360(SB)/8, $0x4036000000000000
DATA tanhc<>+368(SB)/8, $0x4036000000000000
DATA tanhc<>+376(SB)/8, $0x4036000000000000
DATA tanhc<>+384(SB)/8, $0x3ff71547652b82fe
DATA tanhc<>+392(SB)/8, $0x3ff71547652b82fe
DATA tanhc<>+400(SB)/8, $0x3ff71547652b82fe
DATA tanhc<>+408(SB)/8, $0x3ff71547652b82fe
DATA tanhc<>+416(SB)/8, $0x4338000000000000
DATA tanhc<>+424(SB)/8, $0x4338000000000000
DATA tanhc<>+432(SB)/8, $0x4338000000000000
DATA tanhc<>+440(SB)/8, $0x4338000000000000
DATA tanhc<>+448(SB)/8, $0x3fe62e42ff000000
DATA tanhc<>+456(SB)/8, $0x3fe62e42ff000000
DATA tanhc<>+464(SB)/8, $0x3fe62e42ff000000
DATA tanhc<>+472(SB)/8, $0x3fe62e42ff000000
DATA tanhc<>+480(SB)/8, $0x3dc718432a1b0e26
DATA tanhc<>+488(SB)/8, $0x3dc718432a1b0e26
DATA tanhc<>+496(SB)/8, $0x3dc718432a1b0e26
DATA tanhc<>+504(SB)/8, $0x3dc718432a1b0e26
DATA tanhc<>+512(SB)/8, $0x3fa5555555555555
DATA tanhc<>+520(SB)/8, $0x3fa5555555555555
DATA tanhc<>+528(SB)/8, $0x3fa5555555555555
DATA tanhc<>+536(SB)/8, $0x3fa5555555555555
DATA tanhc<>+544(SB)/8, $0x3fc5555555555555
DATA tanhc<>+552(SB)/8, $0x3fc5555555555555
DATA tanhc<>+560(SB)/8, $0x3fc5555555555555
DATA tanhc<>+568(SB)/8, $0x3fc5555555555555
DATA tanhc<>+576(SB)/8, $0x3f56c16c16c16c17
DATA tanhc<>+584(SB)/8, $0x3f56c16c16c16c17
DATA tanhc<>+592(SB)/8, $0x3f56c16c16c16c17
DATA tanhc<>+600(SB)/8, $0x3f56c16c16c16c17
DATA tanhc<>+608(SB)/8, $0x3f81111111111111
DATA tanhc<>+616(SB)/8, $0x3f81111111111111
DATA tanhc<>+624(SB)/8, $0x3f81111111111111
DATA tanhc<>+632(SB)/8, $0x3f81111111111111
DATA tanhc<>+640(SB)/8, $0x3efa01a01a01a01a
DATA tanhc<>+648(SB)/8, $0x3efa01a01a01a01a
DATA tanhc<>+656(SB)/8, $0x3efa01a01a01a01a
DATA tanhc<>+664(SB)/8, $0x3efa01a01a01a01a
DATA tanhc<>+672(SB)/8, $0x3f2a01a01a01a01a
DATA tanhc<>+680(SB)/8, $0x3f2a01a01a01a01a
DATA tanhc<>+688(SB)/8, $0x3f2a01a01a01a01a
DATA tanhc<>+696(SB)/8, $0x3f2a01a01a01a01a
DATA tanhc<>+704(SB)/8, $0x3e927e4fb7789f5c
DATA tanhc<>+712(SB)/8, $0x3e927e4fb7789f5c
DATA tanhc<>+720(SB)/8, $0x3e927e4fb7789f5c
DATA tanhc<>+728(SB)/8, $0x3e927e4fb7789f5c
DATA tanhc<>+736(SB)/8, $0x3ec71de3a556c734
DATA tanhc<>+744(SB)/8, $0x3ec71de3a556c734
DATA tanhc<>+752(SB)/8, $0x3ec71de3a556c734
DATA tanhc<>+760(SB)/8, $0x3ec71de3a556c734
DATA tanhc<>+768(SB)/8, $0x3e21eed8eff8d898
DATA tanhc<>+776(SB)/8, $0x3e21eed8eff8d898
DATA tanhc<>+784(SB)/8, $0x3e21eed8eff8d898
DATA tanhc<>+792(SB)/8, $0x3e21eed8eff8d898
DATA tanhc<>+800(SB)/8, $0x3e5ae64567f544e4
DATA tanhc<>+808(SB)/8, $0x3e5ae64567f544e4
DATA tanhc<>+816(SB)/8, $0x3e5ae64567f544e4
DATA tanhc<>+824(SB)/8, $0x3e5ae64567f544e4
DATA tanhc<>+832(SB)/8, $0x3da93974a8c07c9d
DATA tanhc<>+840(SB)/8, $0x3da93974a8c07c9d
DATA tanhc<>+848(SB)/8, $0x3da93974a8c07c9d
DATA tanhc<>+856(SB)/8, $0x3da93974a8c07c9d
DATA tanhc<>+864(SB)/8, $0x3de6124613a86d09
DATA tanhc<>+872(SB)/8, $0x3de6124613a86d09
DATA tanhc<>+880(SB)/8, $0x3de6124613a86d09
DATA tanhc<>+888(SB)/8, $0x3de6124613a86d09
DATA tanhc<>+896(SB)/8, $0x3fe0000000000000
DATA tanhc<>+904(SB)/8, $0x3fe0000000000000
DATA tanhc<>+912(SB)/8, $0x3fe0000000000000
DATA tanhc<>+920(SB)/8, $0x3fe0000000000000
DATA tanhc<>+928(SB)/8, $0x3ff0000000000000
DATA tanhc<>+936(SB)/8, $0x3ff0000000000000
DATA tanhc<>+944(SB)/8, $0x3ff0000000000000
DATA tanhc<>+952(SB)/8, $0x3ff0000000000000
DATA tanhc<>+960(SB)/8, $0x4000000000000000
DATA tanhc<>+968(SB)/8, $0x4000000000000000
DATA tanhc<>+976(SB)/8, $0x4000000000000000
DATA tanhc<>+984(SB)/8, $0x4000000000000000
DATA tanhc<>+992(SB)/8, $0x3fc0000000000000
DATA tanhc<>+1000(SB)/8, $0x3fc0000000000000
DATA tanhc<>+1008(SB)/8, $0x3fc0000000000000
DATA tanhc<>+1016(SB)/8, $0x3fc0000000000000
DATA tanhc<>+1024(SB)/8, $0x00000000000003ff
DATA tanhc<>+1032(SB)/8, $0x00000000000003ff
DATA tanhc<>+1040(SB)/8, $0x00000000000003ff
DATA tanhc<>+1048(SB)/8, $0x00000000000003ff
GLOBL tanhc<>(SB), RODATA|NOPTR, $1056

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
	VANDPD  tanhc<>+0(SB), Y0, Y1            // a = |x|
	// tanhSmall(a)
	VMULPD  Y1, Y1, Y2                     // z
	VMULPD  Y2, Y2, Y3                     // z2
	VMULPD  Y3, Y3, Y4                     // z4
	VMOVUPD tanhc<>+64(SB), Y5
	VFMADD213PD tanhc<>+96(SB), Y2, Y5      // q0
	VMOVUPD tanhc<>+128(SB), Y6
	VFMADD213PD tanhc<>+160(SB), Y2, Y6       // q1
	VFMADD213PD Y5, Y3, Y6                 // o0 = q1 z2 + q0
	VMOVUPD tanhc<>+192(SB), Y5
	VFMADD213PD tanhc<>+224(SB), Y2, Y5     // q2
	VMOVUPD tanhc<>+256(SB), Y7
	VFMADD213PD tanhc<>+288(SB), Y2, Y7   // q3
	VMOVUPD tanhc<>+320(SB), Y8
	VFMADD213PD Y7, Y3, Y8                 // o1 = c z2 + q3
	VFMADD213PD Y5, Y3, Y8                 // o1 = o1 z2 + q2
	VFMADD213PD Y6, Y4, Y8                 // p = o1 z4 + o0
	VMULPD  Y1, Y2, Y2                     // z a
	VFMADD213PD Y1, Y8, Y2                 // small = (z a) p + a
	// tanhLarge(a): expDD(2 min(a, 22))
	VMINPD  tanhc<>+352(SB), Y1, Y3
	VADDPD  Y3, Y3, Y3                     // x = 2 ac
	VMULPD  tanhc<>+384(SB), Y3, Y4
	VADDPD  tanhc<>+416(SB), Y4, Y4          // kfm = x/ln2 + magic
	VSUBPD  tanhc<>+416(SB), Y4, Y5          // kf
	VFNMADD231PD tanhc<>+448(SB), Y5, Y3     // rHi = −kf ln2Hi + x
	VMULPD  tanhc<>+480(SB), Y5, Y5         // rLo = kf (−ln2Lo)
	VADDPD  Y5, Y3, Y6                     // r
	VMULPD  Y6, Y6, Y7                     // r2
	VMULPD  Y7, Y7, Y8                     // r4
	VMULPD  Y8, Y8, Y9                     // r8
	VMOVUPD tanhc<>+512(SB), Y10
	VFMADD213PD tanhc<>+544(SB), Y6, Y10      // q0
	VMOVUPD tanhc<>+576(SB), Y11
	VFMADD213PD tanhc<>+608(SB), Y6, Y11    // q1
	VFMADD213PD Y10, Y7, Y11               // o0 = q1 r2 + q0
	VMOVUPD tanhc<>+640(SB), Y10
	VFMADD213PD tanhc<>+672(SB), Y6, Y10   // q2
	VMOVUPD tanhc<>+704(SB), Y12
	VFMADD213PD tanhc<>+736(SB), Y6, Y12 // q3
	VFMADD213PD Y10, Y7, Y12               // o1 = q3 r2 + q2
	VMOVUPD tanhc<>+768(SB), Y10
	VFMADD213PD tanhc<>+800(SB), Y6, Y10 // q4
	VMOVUPD tanhc<>+832(SB), Y13
	VFMADD213PD tanhc<>+864(SB), Y6, Y13 // q5
	VFMADD213PD Y10, Y7, Y13               // o2 = q5 r2 + q4
	VFMADD213PD Y11, Y8, Y12               // p = o1 r4 + o0
	VFMADD213PD Y12, Y9, Y13               // p = o2 r8 + p
	VMULPD  Y6, Y7, Y7                     // r3 = r2 r
	VMULPD  Y13, Y7, Y7                    // tail = r3 p
	VMULPD  Y3, Y3, Y8                     // sq = rHi²
	VMOVAPD Y3, Y9
	VFMSUB213PD Y8, Y3, Y9                 // sqLo = rHi rHi − sq
	VMULPD  tanhc<>+896(SB), Y8, Y8           // h = sq/2
	VADDPD  tanhc<>+928(SB), Y3, Y10           // s1 = 1 + rHi
	VMOVUPD tanhc<>+928(SB), Y11
	VSUBPD  Y10, Y11, Y11
	VADDPD  Y3, Y11, Y11                   // e1 = (1 − s1) + rHi
	VADDPD  Y8, Y10, Y12                   // s2 = s1 + h
	VSUBPD  Y12, Y10, Y10
	VADDPD  Y8, Y10, Y10                   // e2 = (s1 − s2) + h
	VMOVUPD tanhc<>+896(SB), Y13
	VFMADD213PD Y3, Y5, Y13                // rLo/2 + rHi
	VMULPD  Y13, Y5, Y13                   // cross = rLo (rLo/2 + rHi)
	VADDPD  Y10, Y11, Y11                  // lo = e1 + e2
	VADDPD  Y5, Y11, Y11                   // lo += rLo
	VFMADD231PD tanhc<>+896(SB), Y9, Y11      // lo = sqLo/2 + lo
	VADDPD  Y13, Y11, Y11                  // lo += cross
	VADDPD  Y7, Y11, Y11                   // lo += tail
	VADDPD  Y11, Y12, Y13                  // hi = s2 + lo
	VSUBPD  Y12, Y13, Y12
	VSUBPD  Y12, Y11, Y11                  // lo −= hi − s2
	VPADDQ  tanhc<>+1024(SB), Y4, Y4
	VPSLLQ  $52, Y4, Y4                    // sc = 2^k
	VMULPD  Y4, Y13, Y13                   // eh
	VMULPD  Y4, Y11, Y11                   // el
	VADDPD  tanhc<>+928(SB), Y13, Y12          // dh = eh + 1
	VSUBPD  Y12, Y13, Y13
	VADDPD  tanhc<>+928(SB), Y13, Y13
	VADDPD  Y11, Y13, Y13                  // dl = ((eh − dh) + 1) + el
	VMOVUPD tanhc<>+960(SB), Y14
	VDIVPD  Y12, Y14, Y14                  // t0 = 2/dh
	VMOVUPD tanhc<>+960(SB), Y15
	VFNMADD231PD Y12, Y14, Y15             // rem = −t0 dh + 2
	VFNMADD231PD Y13, Y14, Y15             // rem = −t0 dl + rem
	VMULPD  tanhc<>+896(SB), Y14, Y13
	VMULPD  Y13, Y15, Y15                  // t1 = rem (t0/2)
	VMOVUPD tanhc<>+928(SB), Y12
	VSUBPD  Y14, Y12, Y12                  // s = 1 − t0
	VMOVUPD tanhc<>+928(SB), Y13
	VSUBPD  Y12, Y13, Y13
	VSUBPD  Y14, Y13, Y13                  // e = (1 − s) − t0
	VSUBPD  Y15, Y13, Y13
	VADDPD  Y13, Y12, Y12                  // large = s + (e − t1)
	// Select: 1 where a ≥ 22 (or NaN), small where a < 1/8; sign of x; x where x is NaN.
	VCMPPD  $5, tanhc<>+352(SB), Y1, Y13       // not (a < 22)
	VBLENDVPD Y13, tanhc<>+928(SB), Y12, Y12
	VCMPPD  $1, tanhc<>+992(SB), Y1, Y13    // a < 1/8
	VBLENDVPD Y13, Y2, Y12, Y12
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
