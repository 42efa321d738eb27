package study

import (
	"slices"
	"sort"

	"elmfbpinn/experiments"
)

// This file says what a study's results are and where they come from:
// each result once with the tables that run it, the budgets the tier
// trains at, and where and when the results were made.

// SharedResult is a result of a study with the tables whose runs it is (a
// baseline's run that is also R = 1 of the weight-scaling figure is one
// result of two tables).
type SharedResult struct {
	*experiments.Result
	Tables []string // table ids, in the study's order
}

// Results returns every result of the study's runs once, in table, row and
// seed order (a result's first place).
func (st *Study) Results() []SharedResult {
	var out []SharedResult
	at := map[string]int{} // result key → index in out
	for _, ts := range st.Tables {
		for _, r := range ts.Runs {
			if r.Result == nil {
				continue
			}
			i, ok := at[r.Result.Key]
			if !ok {
				i = len(out)
				at[r.Result.Key] = i
				out = append(out, SharedResult{Result: r.Result})
			}
			if !slices.Contains(out[i].Tables, ts.Table.ID) {
				out[i].Tables = append(out[i].Tables, ts.Table.ID)
			}
		}
	}
	return out
}

// Budget is one kind of solve a study's tier asks for: a model trained
// for Iters steps (LSQR iterations or Adam steps) over some seeds, and the
// tables that run it so.
type Budget struct {
	Key    string // the model's key (experiments.ELM, FBPINN or PINN)
	Iters  int
	Seeds  []int    // in increasing order
	Tables []string // table ids, in the study's order
}

// Model is the budget's model as the paper names it ("ELM-FBPINN").
func (b Budget) Model() string { return experiments.PaperModel(b.Key) }

// Budgets returns the budgets of the study's solve runs, present or not,
// in the order of their first table.
func (st *Study) Budgets() []Budget {
	var out []Budget
	for _, ts := range st.Tables {
		var mine []Budget // this table's, in the order of their first run
		for _, r := range ts.Runs {
			if r.Spec.Iters <= 0 {
				continue
			}
			i := slices.IndexFunc(mine, func(b Budget) bool { return b.Key == r.Spec.Model && b.Iters == r.Spec.Iters })
			if i < 0 {
				mine, i = append(mine, Budget{Key: r.Spec.Model, Iters: r.Spec.Iters}), len(mine)
			}
			if !slices.Contains(mine[i].Seeds, r.Spec.Seed) {
				mine[i].Seeds = append(mine[i].Seeds, r.Spec.Seed)
			}
		}
		for _, b := range mine {
			slices.Sort(b.Seeds)
			i := slices.IndexFunc(out, func(o Budget) bool {
				return o.Key == b.Key && o.Iters == b.Iters && slices.Equal(o.Seeds, b.Seeds)
			})
			if i < 0 {
				out, i = append(out, b), len(out)
			}
			out[i].Tables = append(out[i].Tables, ts.Table.ID)
		}
	}
	return out
}

// Sources says where and when a study's results were made, from what each
// records of its environment (experiments.Env).
type Sources struct {
	Runs       int    // the study's results, each once
	WithoutEnv int    // of them, those that record no environment
	First      string // the earliest start time (RFC 3339) recorded, "" if none
	Last       string // the latest
	// The commits, Go versions, CPUs, numerics fingerprints (each with its
	// model, "elm 0123abcd...": the models have fingerprints of their own)
	// and kernel paths of the results that record their environment, most
	// frequent first (ties in the order met); a value not recorded counts as
	// "unknown".
	Commits, GoVersions, CPUs, Numerics, Kernels []Count
}

// Count is how many results record a value.
type Count struct {
	Value string
	N     int
}

// Sources returns where and when the study's results were made.
func (st *Study) Sources() Sources {
	var s Sources
	var commits, gos, cpus, numerics, kernels counter
	for _, r := range st.Results() {
		s.Runs++
		e := r.Env
		if e.Started == "" {
			s.WithoutEnv++
			continue
		}
		commits.add(e.Commit)
		gos.add(e.GoVersion)
		cpus.add(e.Where())
		fpr := e.Numerics
		if fpr != "" {
			fpr = r.Spec.Model + " " + fpr // each model has fingerprints of its own
		}
		numerics.add(fpr)
		kernels.add(e.Kernel)
		if s.First == "" || e.Started < s.First {
			s.First = e.Started
		}
		s.Last = max(s.Last, e.Started)
	}
	s.Commits, s.GoVersions, s.CPUs = commits.sorted(), gos.sorted(), cpus.sorted()
	s.Numerics, s.Kernels = numerics.sorted(), kernels.sorted()
	return s
}

// counter counts values in the order met.
type counter []Count

func (c *counter) add(v string) {
	if v == "" {
		v = "unknown"
	}
	if i := slices.IndexFunc(*c, func(x Count) bool { return x.Value == v }); i >= 0 {
		(*c)[i].N++
		return
	}
	*c = append(*c, Count{v, 1})
}

// sorted returns the counts, most frequent first, ties in the order met.
func (c counter) sorted() []Count {
	sort.SliceStable(c, func(i, j int) bool { return c[i].N > c[j].N })
	return c
}
