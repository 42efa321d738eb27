// Package lsqr solves sparse linear least-squares problems with the LSQR
// algorithm of Paige and Saunders.
//
// LSQR finds x minimising
//
//	‖b - A x‖₂² + damp² ‖x‖₂²
//
// using only products with A and Aᵀ, supplied through the Operator
// interface. For a consistent system it converges to a solution of A x = b;
// for an underdetermined consistent system it converges to the
// minimum-norm solution.
//
// The implementation is a faithful port of scipy.sparse.linalg.lsqr
// (itself a transcription of the original Fortran/MATLAB code), including
// its stable Givens rotation (SymOrtho), its running estimates of ‖A‖,
// cond(A), ‖r‖, ‖Aᵀr‖ and ‖x‖, and its stopping tests with SciPy's istop
// codes 0 to 7 (see Status). The starting point is always x₀ = 0.
// One step is rearranged, exactly in real arithmetic: in each iteration
// Aᵀu is formed from u before it is scaled by 1/β and scaled afterwards,
// (Aᵀu)/β instead of SciPy's Aᵀ(u/β), so that an operator with a
// BidiagStep method (StepOperator) can form A v and Aᵀu in one pass over A;
// operators without it get the same arithmetic from MulVec and MulTransVec.
//
// In addition to the SciPy behaviour, Settings.Force runs a fixed number
// of iterations ignoring the convergence tests, as used by the ELM-FBPINN
// reference solver, and Settings.Halt lets a rule LSQR cannot see (the
// error on held-out data) stop it.
//
// LSMR (Fong and Saunders), a port of scipy.sparse.linalg.lsmr, takes the
// same Settings and returns the same Result: on the same bidiagonalisation
// it minimises ‖Aᵀr_k‖ instead of ‖r_k‖ over the Krylov space, so ‖Aᵀr_k‖
// and ‖r_k‖ both decrease monotonically. All work vectors are allocated once per call, so the
// iteration loop itself does not allocate.
//
// The package does no I/O and keeps no global state; it is safe to call
// LSQR concurrently with distinct operators and right-hand sides.
//
// References:
//   - C. C. Paige and M. A. Saunders, LSQR: An algorithm for sparse linear
//     equations and sparse least squares, ACM TOMS 8(1), 43–71 (1982).
//   - C. C. Paige and M. A. Saunders, Algorithm 583; LSQR: Sparse linear
//     equations and least-squares problems, ACM TOMS 8(2), 195–209 (1982).
//   - S.-C. Choi, Iterative methods for singular linear equations and
//     least-squares problems, PhD thesis, Stanford University (2006).
package lsqr
