// Package core is the root of the numerical library of elmfbpinn.
//
// Its sub-packages hold the pieces of the ELM-FBPINN method of Anderson,
// Dolean, Moseley and Pestana: the shared floating-point arithmetic (fp: own
// elementary functions and fixed-order reductions, so that every platform
// computes the same bits; its documentation states the rule every kernel
// follows), second-order jets (jet), multilevel
// decompositions and their partition-of-unity windows (domain), random-feature
// bases (basis), block-sparse matrices (sparse), LSQR (lsqr), the three test
// problems (problem), the assembled least-squares solver (elm) and error
// metrics (metric).
//
// Nothing under core does I/O or knows about the paper's tables: it is a
// library of plain functions over plain data.
package core
