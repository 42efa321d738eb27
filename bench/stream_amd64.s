//go:build amd64 && !purego

#include "textflag.h"

// func streamAsm(x *float64, n int, s *[4]float64)
//
// Four AVX2 accumulators over x, 128 bytes a turn; n is a multiple of 16.
TEXT ·streamAsm(SB), NOSPLIT, $0-24
	MOVQ   x+0(FP), SI
	MOVQ   n+8(FP), CX
	MOVQ   s+16(FP), DI
	SHRQ   $4, CX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	TESTQ  CX, CX
	JEQ    done

loop:
	VADDPD 0(SI), Y0, Y0
	VADDPD 32(SI), Y1, Y1
	VADDPD 64(SI), Y2, Y2
	VADDPD 96(SI), Y3, Y3
	ADDQ   $128, SI
	DECQ   CX
	JNZ    loop

done:
	VADDPD  Y1, Y0, Y0
	VADDPD  Y3, Y2, Y2
	VADDPD  Y2, Y0, Y0
	VMOVUPD Y0, (DI)
	VZEROUPPER
	RET
