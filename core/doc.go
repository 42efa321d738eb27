// Package core is the root of the numerical library of elmfbpinn.
//
// Its sub-packages hold the pieces of the ELM-FBPINN method of Anderson,
// Dolean, Moseley and Pestana: the shared floating-point arithmetic (fp: own
// elementary functions and fixed-order reductions, so that every platform
// computes the same bits; its documentation states the rule every kernel
// follows), second-order jets (jet), multilevel decompositions and their
// partition-of-unity windows (domain), random-feature bases (basis),
// block-sparse matrices (sparse), LSQR (lsqr), the test problems (problem:
// each a type whose constructor checks its parameter, e.g. NewOscillator),
// the assembled least-squares solver (elm), the gradient-trained baselines
// (nn: networks with jets and Adam; train: the PINN and the FBPINN) and
// error metrics (metric).
//
// Nothing under core does I/O or knows about the paper's tables: it is a
// library of plain functions over plain data. What the harness knows of a
// problem (its parameter's names, baseline, geometry for plots, sampling
// counts) is declared once in the registry of package experiments.
package core
