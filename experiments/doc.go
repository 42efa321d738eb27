// Package experiments declares every problem and every table of the paper
// (and the weight-scaling figure) as plain Go data, each fact in one place.
//
// Problems is the problem registry: per problem its name, its parameter
// (repro solve's flag, its names in text, TeX and figures), its baseline,
// its geometry (the domain inside its box, an outline for plots), its
// sampling counts (what Cost and Memory start from) and the constructor of
// its core/problem type, which checks the parameter. Tables lists the
// tables: each has a Kind (baseline, a sweep over K or J, the scaling of the
// parameter with J, the weight scale R) that says what its axis is (X) and
// which figures and claims read it, its rows (a model at a configuration)
// and the budgets of each tier. A row and a seed make a Spec, the complete
// description of one run, whose content hash names the run's cached
// result file.
//
// Execute runs one Spec in-process by calling the numerical library in core;
// the package holds no numerics of its own. Its only file I/O is the result
// store (Save, Load), one JSON file per run written atomically.
package experiments
