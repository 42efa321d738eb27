package main

import (
	"errors"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"elmfbpinn/experiments"
)

func progressSpecs() []experiments.Spec {
	tables, _ := experiments.Lookup("osc-baseline")
	runs, _ := tables[0].Runs(experiments.QuickTier)
	var specs []experiments.Spec
	for _, r := range runs {
		specs = append(specs, r.Spec)
	}
	return specs[:2]
}

// TestProgressPipe: on a pipe the display writes plain lines only (no
// escape sequences): a status line naming the run in flight after a
// silence, one line per finished run, and the summary.
func TestProgressPipe(t *testing.T) {
	defer func(h time.Duration) { heartbeatEvery = h }(heartbeatEvery)
	heartbeatEvery = 300 * time.Millisecond
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	specs := progressSpecs()
	p := newProgress(w, specs, 1, experiments.Cost)
	f := p.begin(specs[0])
	time.Sleep(1500 * time.Millisecond)
	p.end(f, &experiments.Result{Spec: specs[0], EL1: 1.234e-3}, nil)
	g := p.begin(specs[1])
	p.end(g, nil, errors.New("boom"))
	p.close()
	w.Close()
	b, _ := io.ReadAll(r)
	out := string(b)
	for _, want := range []string{"[0/2] 0 failed, 1 in flight", specs[0].String() + "  ", "[1/2] ok   " + specs[0].String() + " (", "s, e_L1 1.23e-03) failed 0",
		"[2/2] FAIL " + specs[1].String(), "    boom\n", "repro run: 2 of 2 runs ended in ", ": 1 made, 1 failed, 0 by another runner (measured/estimated time "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\x1b") {
		t.Errorf("escape sequences on a pipe:\n%q", out)
	}
	// At most one status line per heartbeat while a run was in flight.
	if n := strings.Count(out, "in flight, "); n < 1 || n > 6 {
		t.Errorf("%d status lines in 1.5 s at a heartbeat of 0.3 s", n)
	}
}

// TestProgressTerminal: on a terminal (a pseudo-terminal here) the live
// view shows the run in flight with its elapsed time and share of its
// estimate, redrawn in place.
func TestProgressTerminal(t *testing.T) {
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer master.Close()
	fd := int(master.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("unlockpt: %v", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		t.Skipf("ptsname: %v", err)
	}
	slave, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("opening the pseudo-terminal: %v", err)
	}
	defer slave.Close()
	defer func(d time.Duration) { redrawEvery = d }(redrawEvery)
	redrawEvery = 50 * time.Millisecond
	got := make(chan string)
	go func() {
		var b strings.Builder
		buf := make([]byte, 4096)
		for {
			k, err := master.Read(buf)
			b.Write(buf[:k])
			if err != nil || strings.Contains(b.String(), "by another runner") {
				got <- b.String()
				return
			}
		}
	}()
	specs := progressSpecs()
	p := newProgress(slave, specs[:1], 1, experiments.Cost)
	if !p.tty {
		t.Fatal("a pseudo-terminal not seen as a terminal")
	}
	f := p.begin(specs[0])
	time.Sleep(300 * time.Millisecond)
	p.end(f, nil, nil)
	p.close()
	var out string
	select {
	case out = <-got:
	case <-time.After(5 * time.Second):
		t.Fatal("no output on the terminal")
	}
	for _, want := range []string{"\x1b[", "  " + specs[0].String() + "  0s of ~", "[0/1] 0 failed, 1 in flight", "[1/1] ok   "} {
		if !strings.Contains(out, want) {
			t.Errorf("terminal output lacks %q:\n%q", want, out)
		}
	}
}

// TestProgressETA: the ETA is the cost left, corrected by measured over
// estimated time of the runs finished, with each run in flight counted for
// the time it has left (by its estimate, or by its own pace once it
// reported a tenth of its iterations), over the runs at once.
func TestProgressETA(t *testing.T) {
	now := time.Now()
	at := func(s float64) time.Time { return now.Add(time.Duration(s * float64(time.Second))) }
	p := &progress{jobs: 2, total: 4, done: 1, estLeft: 30, estDone: 10, timeDone: 20}
	eta := func(want float64, when string) {
		t.Helper()
		if got := p.etaLocked(now); math.Abs(got-want) > 1e-9 {
			t.Errorf("ETA %g s, want %g %s", got, want, when)
		}
	}
	eta(30, "(30 s of estimate at 2x, over 2 jobs)")
	// Started 6 s ago: 20 s of corrected estimate less 6 s, (60-20+14)/2.
	f := &flightRun{s: progressSpecs()[0], est: 10, start: at(-6)}
	p.flight = []*flightRun{f}
	eta(27, "with a run in flight for 6 s")
	// The first report (iteration 0, after 1 s of set-up), then half its
	// iterations 4 s later, 1 s ago: 500 more at 8 ms each, less the
	// second since, 3 s (not the 14 s its estimate has left): (60-20+3)/2.
	p.update(f, progressReport{Iter: 0, Iters: 1000, EL1: 0.5, Best: 0.5}, at(-5))
	eta(27, "at the first report")
	p.update(f, progressReport{Iter: 500, Iters: 1000, EL1: 0.1, Best: 0.1}, at(-1))
	eta(21.5, "with the run in flight half done at 8 ms an iteration")
	if line := p.flightLineLocked(f, now); !strings.Contains(line, "6s of ~9s (~67%), step 500/1000") {
		t.Errorf("flight line %q, want 6s of ~9s (~67%%), step 500/1000", line)
	}
	// A report that cannot be is ignored; a run that also computes κ keeps
	// its estimate.
	p.update(f, progressReport{Iter: 2000, Iters: 1000}, at(0))
	eta(21.5, "after a report of iteration 2000 of 1000")
	f.s.Kappa = true
	eta(27, "for a run that also computes κ")
	// Under a tenth of the iterations since the first report: the estimate.
	g := &flightRun{s: progressSpecs()[0], est: 10, start: at(-6)}
	p.flight = []*flightRun{g}
	p.update(g, progressReport{Iter: 0, Iters: 1000}, at(-4))
	p.update(g, progressReport{Iter: 50, Iters: 1000}, at(-1))
	eta(27, "with the run in flight at 5%")
}

// TestProgressFlightLine: a run in flight shows, once its child reported
// progress, the iteration (LSQR) or step (Adam), the test error there and
// the least so far (as the child computed it).
func TestProgressFlightLine(t *testing.T) {
	p := &progress{jobs: 1, total: 1}
	for _, tc := range []struct {
		model, want string
	}{
		{experiments.FBPINN, ", step 2000/15000: e_L1 2.50e-03 (best 1.00e-03)"},
		{experiments.ELM, ", iteration 2000/15000: e_L1 2.50e-03 (best 1.00e-03)"},
	} {
		s := progressSpecs()[0]
		s.Model = tc.model
		now := time.Now()
		f := &flightRun{s: s, start: now, est: 10}
		if line := p.flightLineLocked(f, now); strings.Contains(line, "e_L1") {
			t.Errorf("%s before any report: %q, want no error shown", tc.model, line)
		}
		p.update(f, progressReport{Iter: 0, Iters: 15000, EL1: 0.3, Best: 0.3}, now)
		p.update(f, progressReport{Iter: 2000, Iters: 15000, EL1: 2.5e-3, Best: 1e-3}, now)
		if line := p.flightLineLocked(f, now); !strings.HasSuffix(line, tc.want) {
			t.Errorf("%s: flight line %q, want it to end %q", tc.model, line, tc.want)
		}
	}
}

// TestProgressOutcome: a finished run's line says its e_L1 (a solve), its
// κ, or why κ is missing; nothing for a result that could not be read.
func TestProgressOutcome(t *testing.T) {
	k := 8.5e18
	solve, kappa := progressSpecs()[0], progressSpecs()[0]
	kappa.Iters, kappa.Kappa = 0, true
	for _, tc := range []struct {
		res  *experiments.Result
		want string
	}{
		{nil, ""},
		{&experiments.Result{Spec: solve, EL1: 1.17e-4}, ", e_L1 1.17e-04"},
		{&experiments.Result{Spec: kappa, Kappa: &k}, ", κ 8.50e+18"},
		{&experiments.Result{Spec: kappa, KappaNote: "infinite: the smallest singular value is 0"}, ", κ infinite"},
		{&experiments.Result{Spec: kappa, KappaNote: "not computed: M is 10 x 10 (100 cells), above the cap"}, ", κ not computed"},
	} {
		if got := outcome(tc.res); got != tc.want {
			t.Errorf("outcome(%+v) = %q, want %q", tc.res, got, tc.want)
		}
	}
}
