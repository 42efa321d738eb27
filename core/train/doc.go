// Package train trains the gradient-based baselines of the paper, the PINN
// and the FBPINN, with full-batch Adam on fixed collocation points, recording
// the test error as training goes.
//
// Both minimise the physics-informed loss that the ELM-FBPINN solves by least
// squares,
//
//	L(θ) = Σ_c (λ_c/N_c) Σ_i (Op_c[û](x_i) - RHS_i)²,
//
// with the same constraints, test points, output scale, hard-constraint
// ansatz and (for the FBPINN) the same decomposition and windows as
// core/elm: both are the localised model of core/local, the fixed random
// basis of each subdomain replaced by a trainable network (core/nn); the
// PINN is its global model of one network. Since every Op is linear in the
// jet of û and û is linear in the networks' output jets, each (point,
// network) pair reduces to a fixed vector of channel coefficients computed
// once; a step is one batched forward and backward pass per network over
// the points in its support.
//
// The package does no I/O.
package train
