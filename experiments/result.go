package experiments

import (
	"fmt"
	"slices"
	"strings"

	"elmfbpinn/core/metric"
)

// Result is the record of one run, written as one JSON file named by the
// Spec's key.
type Result struct {
	Key  string `json:"key"`
	Spec Spec   `json:"spec"`

	// EL1 is the run's error: the minimum test e_L1 over History, reached at
	// BestIter. EL1Final is the error of the final iterate.
	EL1      float64         `json:"eL1,omitempty"`
	EL1Final float64         `json:"eL1_final,omitempty"`
	BestIter int             `json:"best_iter,omitempty"`
	History  []metric.Record `json:"history,omitempty"`
	// Elapsed holds, for each record of History in order, the seconds the
	// solve or training had taken at it (its set-up included): the run's
	// time to accuracy. It is kept apart from History, whose records hold
	// no time: History is the numerics' record, the same bits on every
	// platform and in every run, and wall times are not. Absent in results
	// made before it.
	Elapsed []float64 `json:"elapsed_s,omitempty"`
	Status  string    `json:"status,omitempty"` // the solver's stop status

	Time Timing `json:"time"`

	// Rows, Cols and NNZ describe the ELM-FBPINN's M; Params counts the
	// trainable parameters of a PINN or FBPINN.
	Rows   int `json:"rows,omitempty"`
	Cols   int `json:"cols,omitempty"`
	NNZ    int `json:"nnz,omitempty"`
	Params int `json:"params,omitempty"`

	// Kappa is κ(M) when computed; KappaNote says why it was not (or that
	// it was infinite).
	Kappa     *float64 `json:"kappa,omitempty"`
	KappaNote string   `json:"kappa_note,omitempty"`
	// KappaCells is the size cap the κ run was made with
	// (Settings.KappaCells); absent for other runs.
	KappaCells int `json:"kappaCells,omitempty"`

	// Coef holds the final coefficients of the solve, one per column of
	// M, when Spec.Coef asks for them (the solution figures' runs).
	Coef []float64 `json:"coef,omitempty"`

	Env Env `json:"env"`
}

// setHistory stores a timed history: its records in History without their
// times, and the times in Elapsed (nil if no record is timed).
func (r *Result) setHistory(h []metric.Record) {
	r.History, r.Elapsed = make([]metric.Record, len(h)), nil
	if slices.ContainsFunc(h, func(rec metric.Record) bool { return rec.T != 0 }) {
		r.Elapsed = make([]float64, len(h))
	}
	for i, rec := range h {
		if r.Elapsed != nil {
			r.Elapsed[i] = rec.T
		}
		rec.T = 0
		r.History[i] = rec
	}
}

// TimedHistory returns the history with each record's time (metric.Record.T)
// from Elapsed: a copy, or History itself when it has no times.
func (r *Result) TimedHistory() []metric.Record {
	if len(r.Elapsed) != len(r.History) {
		return r.History
	}
	h := make([]metric.Record, len(r.History))
	for i, rec := range r.History {
		rec.T = r.Elapsed[i]
		h[i] = rec
	}
	return h
}

// Timing is a run's wall time in seconds.
type Timing struct {
	Assembly float64 `json:"assembly_s"` // bases, windows and the system matrix
	Solve    float64 `json:"solve_s"`    // LSQR or training, including the test-error history
	Kappa    float64 `json:"kappa_s,omitempty"`
	Total    float64 `json:"total_s"` // assembly + solve (κ excluded, as in the paper)
}

// Env records where and how a run was made.
type Env struct {
	GoVersion string `json:"go_version"`
	CPU       string `json:"cpu"`
	Commit    string `json:"commit"`
	// Numerics is the Fingerprint of the run's model in the binary that made
	// it: a result with another fingerprint was computed by other numerics
	// (stale).
	Numerics string `json:"numerics,omitempty"`
	// Kernel is the kernel path the run used: "avx512", "avx2" or "neon"
	// (vector kernels) or "generic"; all compute the same bits.
	Kernel     string `json:"kernel,omitempty"`
	Host       string `json:"host,omitempty"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	Affinity   []int  `json:"affinity,omitempty"` // CPUs the run was allowed on
	// Contended is set when the run's time is not a clean single-core
	// measurement: it was made with more runs at once than usable cores
	// (repro run -oversubscribe), or its process had less than
	// MinCPUShare of its core (other work on the same core). Reports leave
	// such times out of speed ratios.
	Contended bool `json:"contended,omitempty"`
	// CPUShare is the process's CPU time (user + system, all threads) over
	// the wall time of the run: about 1 on a core of its own.
	CPUShare float64 `json:"cpu_share,omitempty"`
	Started  string  `json:"started"` // RFC 3339
	// Machine describes the machine the run was made on in detail; nil in
	// results made before it was recorded (CPU alone names their machine).
	Machine *Machine `json:"machine,omitempty"`
}

// Machine is the hardware and system a run was made on.
type Machine struct {
	Vendor string   `json:"vendor"`          // "AuthenticAMD", "GenuineIntel"; arm64: the implementer code
	Family int      `json:"family"`          // x86 family (AMD's extended family added)
	Model  int      `json:"model"`           // x86 model (the extended model included); arm64: the part
	Name   string   `json:"name,omitempty"`  // the model name the system gives ("AMD EPYC")
	Uarch  string   `json:"uarch,omitempty"` // the microarchitecture where known: "Zen 4", "Sapphire Rapids"
	Vector []string `json:"vector,omitempty"`
	Cores  int      `json:"cores"` // logical CPUs of the machine
	MemGiB float64  `json:"mem_gib"`
	OS     string   `json:"os"`     // GOOS/GOARCH
	Kernel string   `json:"kernel"` // the OS kernel's release
}

// ID names the processor (vendor, family, model): the runs of one ID are
// timed on the same kind of core.
func (m *Machine) ID() string {
	return fmt.Sprintf("%s %d/%d", m.Vendor, m.Family, m.Model)
}

// String describes the machine on one line, e.g. "AMD EPYC (Zen 4,
// AuthenticAMD 25/17; avx2 avx512f; 2 cores, 23.5 GiB; linux/amd64
// 6.1.0)".
func (m *Machine) String() string {
	name := m.Name
	if name == "" {
		name = m.Vendor
	}
	id := m.ID()
	if m.Uarch != "" {
		id = m.Uarch + ", " + id
	}
	vec := strings.Join(m.Vector, " ")
	if vec == "" {
		vec = "no vector extensions recorded"
	}
	return fmt.Sprintf("%s (%s; %s; %d cores, %.1f GiB; %s %s)", name, id, vec, m.Cores, m.MemGiB, m.OS, m.Kernel)
}

// Where names the machine of a run as reports show it: the machine's
// description where recorded, else the CPU's model name.
func (e Env) Where() string {
	if e.Machine != nil {
		return e.Machine.String()
	}
	return e.CPU
}

// MinCPUShare is the CPU share (Env.CPUShare) below which a run's time
// counts as contended: a run alone on its core measures 0.99 to 1.00 here.
const MinCPUShare = 0.95
