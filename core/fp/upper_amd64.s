//go:build amd64 && !purego

#include "textflag.h"

// func highZMMZeroAsm() bool
//
// Whether Z16-Z31 are all zero (read only; the caller checks the CPU has
// AVX-512).
TEXT ·highZMMZeroAsm(SB), NOSPLIT, $0-1
	VPORQ   Z16, Z17, Z0
	VPORQ   Z18, Z0, Z0
	VPORQ   Z19, Z0, Z0
	VPORQ   Z20, Z0, Z0
	VPORQ   Z21, Z0, Z0
	VPORQ   Z22, Z0, Z0
	VPORQ   Z23, Z0, Z0
	VPORQ   Z24, Z0, Z0
	VPORQ   Z25, Z0, Z0
	VPORQ   Z26, Z0, Z0
	VPORQ   Z27, Z0, Z0
	VPORQ   Z28, Z0, Z0
	VPORQ   Z29, Z0, Z0
	VPORQ   Z30, Z0, Z0
	VPORQ   Z31, Z0, Z0
	VPTESTMQ Z0, Z0, K1
	KMOVW   K1, AX
	TESTW   AX, AX
	SETEQ   ret+0(FP)
	VZEROUPPER
	RET
