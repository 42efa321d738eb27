package main

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"elmfbpinn/core/metric"
	"elmfbpinn/experiments"
)

// Intervals of the progress display (variables for the tests).
var (
	// redrawEvery is how often the live view on a terminal is redrawn.
	redrawEvery = 500 * time.Millisecond
	// heartbeatEvery is, on a pipe, the longest silence while runs are in
	// flight: a status line is written when nothing was for this long.
	heartbeatEvery = 10 * time.Second
)

// progress shows how repro run is getting on. On a terminal it keeps a live
// view at the bottom of the screen, redrawn twice a second: one line per run
// in flight (the run, its elapsed time, its share of its expected time, and
// the iteration its child last reported with the test error there) under a
// status line (done/total, failures, in flight, ETA); the line of every
// finished run (its time and e_L1, or κ) scrolls above it. On a pipe (a log,
// CI) it writes plain lines only: one per finished run, and a status line
// with the runs in flight when nothing was written for heartbeatEvery, so
// that a long run is never silent for long. Both end with one summary line.
//
// The ETA is the estimated cost (experiments.Cost) of the runs not finished,
// corrected by the ratio of the measured to the estimated time of the runs
// finished so far, with each run in flight counted for the time it has
// left (flightRun.left: by its own pace once it reported a tenth of its
// iterations), over the runs at once.
type progress struct {
	mu    sync.Mutex
	out   *os.File
	tty   bool
	total int                            // runs to make
	jobs  int                            // runs at once
	cost  func(experiments.Spec) float64 // a run's estimated time (this machine's calibration)
	start time.Time

	done, failed, other int
	estLeft             float64 // estimated cost of the runs not finished
	estDone, timeDone   float64 // estimated and measured time of the runs finished here

	flight []*flightRun
	drawn  int       // lines of the live view on the screen
	last   time.Time // when a line was last written (pipe)
	quit   chan struct{}
	wg     sync.WaitGroup
}

// flightRun is a run in flight.
type flightRun struct {
	s     experiments.Spec
	start time.Time
	est   float64 // experiments.Cost(s)
	// The child's progress (repro exec -progress): the time and iteration
	// of its first report (t0 zero: none yet), its last report and when
	// that came.
	t0, lastAt time.Time
	iter0      int
	last       progressReport
}

// reported reports whether the child of f reported its progress yet.
func (f *flightRun) reported() bool { return !f.t0.IsZero() }

// update records that the child of the run f reported r at now; a report
// that cannot be (an iteration out of 0..Iters) is ignored.
func (p *progress) update(f *flightRun, r progressReport, now time.Time) {
	if r.Iters <= 0 || r.Iter < 0 || r.Iter > r.Iters {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !f.reported() {
		f.t0, f.iter0 = now, r.Iter
	}
	f.last, f.lastAt = r, now
}

// throttled returns an experiments.Settings.Progress hook that calls show
// with the history's newest record and its best (metric.Best: the least,
// NaN errors left out) for a record that comes a duration every or more
// after the last call (the first: after since).
func throttled(every time.Duration, since time.Time, show func(iters int, last, best metric.Record)) func(int, []metric.Record) {
	return func(iters int, h []metric.Record) {
		if now := time.Now(); now.Sub(since) >= every {
			since = now
			best, _ := metric.Best(h)
			show(iters, h[len(h)-1], best)
		}
	}
}

// stepWord names one of a run's iterations: LSQR's iteration or Adam's
// step (experiments.Optimiser).
func stepWord(s experiments.Spec) string {
	_, step := experiments.Optimiser(s.Model)
	return step
}

// newProgress starts the display of runs of the specs todo, jobs at once,
// on out (a terminal gets the live view).
func newProgress(out *os.File, todo []experiments.Spec, jobs int, cost func(experiments.Spec) float64) *progress {
	p := &progress{out: out, tty: isTerminal(out), total: len(todo), jobs: max(1, jobs),
		start: time.Now(), last: time.Now(), quit: make(chan struct{}), cost: cost}
	for _, s := range todo {
		p.estLeft += cost(s)
	}
	p.wg.Go(p.loop)
	return p
}

// isTerminal reports whether f is a terminal.
func isTerminal(f *os.File) bool {
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}

// begin records that s started.
func (p *progress) begin(s experiments.Spec) *flightRun {
	f := &flightRun{s: s, start: time.Now(), est: p.cost(s)}
	p.mu.Lock()
	p.flight = append(p.flight, f)
	p.mu.Unlock()
	return f
}

// end records that the run f finished (err nil: made, with the result res
// if it could be read) and writes its line.
func (p *progress) end(f *flightRun, res *experiments.Result, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.flight = slices.DeleteFunc(p.flight, func(g *flightRun) bool { return g == f })
	took := time.Since(f.start).Seconds()
	p.done++
	p.estLeft -= f.est
	p.estDone += f.est
	p.timeDone += took
	status := "ok  "
	if err != nil {
		p.failed++
		status = "FAIL"
	}
	p.printLocked(fmt.Sprintf("[%d/%d] %s %s (%.1fs%s) failed %d, ETA %s",
		p.done, p.total, status, f.s, took, outcome(res), p.failed, fmtETA(p.etaLocked(time.Now()))))
	if err != nil {
		p.printLocked("    " + err.Error())
	}
}

// outcome is what a finished run's line says of its result: ", e_L1 X" of
// a solve (the least over its history), ", κ X" of a κ run, or nothing.
func outcome(res *experiments.Result) string {
	switch {
	case res == nil:
		return ""
	case res.Spec.Iters > 0:
		return fmt.Sprintf(", e_L1 %.2e", res.EL1)
	case res.Kappa != nil:
		return fmt.Sprintf(", κ %.2e", *res.Kappa)
	case res.KappaNote != "":
		return ", κ " + strings.SplitN(res.KappaNote, ":", 2)[0]
	}
	return ""
}

// drop forgets the run f without a line: it ended by an error that stops
// the whole run, said once at the end.
func (p *progress) drop(f *flightRun) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.flight = slices.DeleteFunc(p.flight, func(g *flightRun) bool { return g == f })
}

// byOther records that s was found made by another runner.
func (p *progress) byOther(s experiments.Spec) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	p.other++
	p.estLeft -= p.cost(s)
	p.printLocked(fmt.Sprintf("[%d/%d] done by another runner: %s", p.done, p.total, s))
}

// logf writes a line above the live view.
func (p *progress) logf(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.printLocked(fmt.Sprintf(format, args...))
}

// printLocked writes a line, above the live view on a terminal.
func (p *progress) printLocked(line string) {
	p.clearLocked()
	fmt.Fprintln(p.out, line)
	p.last = time.Now()
	p.drawLocked()
}

// correction is the measured time of the runs finished here over their
// estimate (1 before any).
func (p *progress) correctionLocked() float64 {
	if p.estDone <= 0 || p.timeDone <= 0 {
		return 1
	}
	return p.timeDone / p.estDone
}

// etaLocked is the estimated time from now to the end, in seconds.
func (p *progress) etaLocked(now time.Time) float64 {
	c := p.correctionLocked()
	left := p.estLeft * c
	for _, f := range p.flight {
		left += f.left(c, now) - f.est*c // its estimate is in estLeft
	}
	return max(0, left) / float64(min(p.jobs, max(1, p.total-p.done)))
}

// left is the time, in seconds, that the run in flight f has left at now.
// Once its child reported a tenth of the iterations after its first report
// (made when the model is built, so the pace leaves its set-up out), it is
// the iterations left at the pace between its first and last reports, less
// the time since the last; before, or for a run that also computes κ
// (whose SVD comes after its iterations), its estimate corrected by c less
// the time it has had.
func (f *flightRun) left(c float64, now time.Time) float64 {
	if done := f.last.Iter - f.iter0; f.reported() && !f.s.Kappa && done > 0 && done*10 >= f.last.Iters-f.iter0 {
		pace := f.lastAt.Sub(f.t0).Seconds() / float64(done)
		return max(0, pace*float64(f.last.Iters-f.last.Iter)-now.Sub(f.lastAt).Seconds())
	}
	return max(0, f.est*c-now.Sub(f.start).Seconds())
}

// statusLocked is the status line.
func (p *progress) statusLocked() string {
	return fmt.Sprintf("[%d/%d] %d failed, %d in flight, %s elapsed, ETA %s",
		p.done, p.total, p.failed, len(p.flight), fmtETA(time.Since(p.start).Seconds()), fmtETA(p.etaLocked(time.Now())))
}

// flightLineLocked describes a run in flight at now: its elapsed time, its
// share of its expected time (elapsed plus left) and, once the child
// reported it, its iteration, its test error there and the least so far.
func (p *progress) flightLineLocked(f *flightRun, now time.Time) string {
	el := now.Sub(f.start).Seconds()
	total := el + f.left(p.correctionLocked(), now)
	share := "?"
	if total > 0 {
		share = fmt.Sprintf("~%.0f%%", min(99, 100*el/total))
	}
	line := fmt.Sprintf("  %s  %s of ~%s (%s)", f.s, fmtETA(el), fmtETA(total), share)
	if r := f.last; f.reported() {
		line += fmt.Sprintf(", %s %d/%d: e_L1 %.2e (best %.2e)", stepWord(f.s), r.Iter, r.Iters, r.EL1, r.Best)
	}
	return line
}

// clearLocked removes the live view from a terminal.
func (p *progress) clearLocked() {
	if p.tty && p.drawn > 0 {
		fmt.Fprintf(p.out, "\x1b[%dA\r\x1b[J", p.drawn)
		p.drawn = 0
	}
}

// drawLocked draws the live view on a terminal: the runs in flight, then the
// status line, each cut to the terminal's width so that none wraps.
func (p *progress) drawLocked() {
	if !p.tty {
		return
	}
	width := 0
	if ws, err := unix.IoctlGetWinsize(int(p.out.Fd()), unix.TIOCGWINSZ); err == nil {
		width = int(ws.Col)
	}
	lines := make([]string, 0, len(p.flight)+1)
	for _, f := range p.flight {
		lines = append(lines, p.flightLineLocked(f, time.Now()))
	}
	lines = append(lines, p.statusLocked())
	var b strings.Builder
	for _, l := range lines {
		if width > 1 && len(l) >= width {
			l = l[:width-1]
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	fmt.Fprint(p.out, b.String())
	p.drawn = len(lines)
}

// loop redraws the live view, or writes the pipe's status line after a
// silence, until close.
func (p *progress) loop() {
	every := redrawEvery
	if !p.tty {
		every = min(time.Second, heartbeatEvery)
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-p.quit:
			return
		case <-tick.C:
		}
		p.mu.Lock()
		switch {
		case p.tty:
			p.clearLocked()
			p.drawLocked()
		case len(p.flight) > 0 && time.Since(p.last) >= heartbeatEvery:
			var parts []string
			for _, f := range p.flight {
				parts = append(parts, strings.TrimSpace(p.flightLineLocked(f, time.Now())))
			}
			p.printLocked(p.statusLocked() + ": " + strings.Join(parts, "; "))
		}
		p.mu.Unlock()
	}
}

// close stops the display and writes the summary line.
func (p *progress) close() {
	close(p.quit)
	p.wg.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clearLocked()
	made := p.done - p.failed - p.other
	fmt.Fprintf(p.out, "repro run: %d of %d runs ended in %s: %d made, %d failed, %d by another runner",
		p.done, p.total, fmtETA(time.Since(p.start).Seconds()), made, p.failed, p.other)
	if p.estDone > 0 {
		fmt.Fprintf(p.out, " (measured/estimated time %.2g)", p.correctionLocked())
	}
	fmt.Fprintln(p.out)
}

// interrupt clears the live view and writes a last line, for a signal.
func (p *progress) interrupt(line string) {
	p.mu.Lock() // never unlocked: the process exits
	p.clearLocked()
	fmt.Fprintln(p.out, line)
}

// fmtETA formats seconds as "45s", "12m30s" or "3h05m".
func fmtETA(sec float64) string {
	d := time.Duration(sec * float64(time.Second)).Round(time.Second)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	default:
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	}
}
