// Package core is the root of the numerical library of elmfbpinn.
//
// Its sub-packages hold the pieces of the ELM-FBPINN method of Anderson,
// Dolean, Moseley and Pestana: the shared floating-point arithmetic (fp: own
// elementary functions and fixed-order reductions, so that every platform
// computes the same bits; its documentation states the rule every kernel
// follows), second-order jets (jet), multilevel decompositions and their
// partition-of-unity windows (domain), random-feature bases and the one
// initialisation rule of every random weight (basis), the three test
// problems (problem: each a type whose constructor checks its parameter,
// e.g. NewOscillator), the localised model that the ELM-FBPINN and the
// FBPINN share (local: per point the subdomains covering it with the jet of
// their weight A w_j/L, and the constraints stacked as rows), block-sparse
// matrices (sparse), LSQR (lsqr), the assembled least-squares system and
// its solvers (elm: by default the paper's forced LSQR), the networks and Adam of the gradient-trained
// baselines (nn), the PINN and FBPINN training (train) and error metrics
// (metric).
//
// Nothing under core does I/O or knows about the paper's tables: it is a
// library of plain functions over plain data. What the harness knows of a
// problem (its parameter's names, baseline, geometry for plots, sampling
// counts) is declared once in the registry of package experiments.
package core
