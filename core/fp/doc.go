// Package fp is the floating-point arithmetic that every numerical kernel of
// elmfbpinn shares, so that a seed gives the same bits on every machine
// (amd64 at any GOAMD64 level, arm64) and on every kernel path (generic Go or
// vector assembly).
//
// It holds two things:
//
//   - Elementary functions (Exp, Tanh, Sin, Cos, Sincos, and TanhSlice, AVX2
//     and AVX-512 kernels of Tanh with the same bits) written in plain Go with
//     explicit math.FMA, so they compute the same bits everywhere, unlike
//     package math, whose Exp, Log and Hypot have per-architecture assembly
//     and whose Go code the compiler may fuse differently on arm64 and
//     GOAMD64=v3. Exp, Sin and Cos are faithful (within 1 ulp of the
//     correctly rounded result) on their documented domains; Tanh, the
//     activation of every network and random feature, is within 3 ulp,
//     traded for speed (see its doc). Each is written branch-light, as a
//     fixed sequence of operations on one float64, so that a vector version
//     can compute the same bits lane by lane.
//
//   - Reductions with a fixed order (Sum, Dot, SumSq): eight lane sums, lane
//     i mod 8 taking element i, combined by Tree in the order a 512-bit
//     vector register reduces its halves.
//
// # The arithmetic rule
//
// On the numerical path (everything under core/), every product that is added
// to or subtracted from something is written either as math.FMA(a, b, c) (one
// rounding, on every platform: hardware FMA where the CPU has it, an exact
// software FMA otherwise) or as float64(a*b) + c (two roundings: the explicit
// conversion forbids the compiler to fuse, by the Go specification). A bare
// a*b + c is never left to the compiler, which fuses it on arm64 and
// GOAMD64=v3 but not on GOAMD64=v1. Fusion also crosses statements: after
// p := a*b, the sum p + c may still be fused (assigning to a variable does not
// round in the spec's sense), so the conversion or the FMA goes where the
// product is made: p := float64(a*b). Each kernel says in its comment which of
// the two it uses. The test TestNoImplicitFusion in package bench compiles the
// module for arm64 and GOAMD64=v3 and fails on any fused instruction whose
// source line does not call math.FMA.
//
// Summation orders are part of a kernel's definition:
//
//   - A product whose output entries are independent (a matrix-vector or
//     matrix-matrix product) computes each output entry as one FMA chain over
//     the contracted index in increasing order, starting from 0; a product
//     that accumulates into its destination adds the finished chain with one
//     addition. A vector kernel then works across output entries and keeps
//     the chains unchanged.
//   - A reduction to one scalar (a norm, a dot product of long vectors, a
//     mean) uses eight lanes and Tree, as Sum, Dot and SumSq do.
//
// Functions of package math that are exact by IEEE 754 (Sqrt, Abs, Floor,
// Ceil, Trunc, Copysign, Max, Min, Mod, Ldexp, Frexp, FMA) are used freely;
// the others are replaced by the functions of this package. The one
// exception is the condition number κ(M), which is computed by gonum's SVD
// and is a reported number, not an input of any run.
//
// The package does no I/O and keeps no state.
package fp
