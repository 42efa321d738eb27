# elmfbpinn: reproduce the tables of the ELM-FBPINN paper.
#
#   make reproduce            full tier (paper-faithful) of every table, then the report
#   make reproduce TIER=quick the short tier that CI checks
#   make reproduce EXPERIMENTS=examples/osc-K-wide.toml TIER=quick   your own tables (TOML files or folders)
#   make test                 unit tests + the quick-tier regression tests + the cross-platform check
#   make bench                benchmarks (benchstat-readable)
#   make compare OLD=a NEW=b  compare two result directories row by row (regressions)

GO      ?= go

# The numerics compute the same bits at every GOAMD64 level (see core/fp and
# make xplat), so the build uses the highest level this CPU runs: at v3 the
# explicit FMAs are single instructions (at v1 each is a CPU-feature test and
# a branch around a software fallback, which also costs registers): about
# 1.2x faster on the ELM-FBPINN. Override with make GOAMD64=v1.
GOAMD64 ?= $(shell if [ "$$(uname -m)" = x86_64 ] && grep -qw avx2 /proc/cpuinfo 2>/dev/null && grep -qw fma /proc/cpuinfo && grep -qw bmi2 /proc/cpuinfo && grep -qw movbe /proc/cpuinfo; then echo v3; else echo v1; fi)
export GOAMD64

# The vector kernels (AVX2 and AVX-512, Go assembly) are in every amd64
# build and chosen at run time from the CPU; they compute the same bits as
# the generic Go kernels, which ELMFBPINN_KERNEL=generic (at run time) or
# the purego build tag (make test runs core/... once with it) select. No
# GOEXPERIMENT: a GOEXPERIMENT=simd build makes Go's asynchronous preemption
# restore all 32 ZMM registers, which leaves their upper halves dirty, and on
# Intel CPUs every later scalar floating-point instruction then pays for it
# (measured 30-100x on the LSQR products' scalar code; see README).
TIER    ?= full
# TABLES: table ids (default: every table of the paper, or, with EXPERIMENTS,
# the files' tables). EXPERIMENTS: experiment files or folders of them.
TABLES  ?=
EXPERIMENTS ?=
JOBS    ?= 0
RESULTS ?= results
REPORT  ?= report
BIN     := bin/repro

.PHONY: all build test vet xplat reproduce report publish compare bench scipy-ratio goamd64 clean-bin slurm-test

all: build

# The binary records the commit it was built from in every result it makes.
COMMIT  := $(shell git rev-parse --short=12 HEAD 2>/dev/null)$(shell git diff --quiet HEAD 2>/dev/null || echo -dirty)

build:
	$(GO) build -ldflags "-X main.buildCommit=$(COMMIT)" -o $(BIN) ./cmd/repro

vet:
	$(GO) vet ./...
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

# make test runs scripts/test.sh after vet: every package's tests (go test -v,
# filtered to a line per test), the generic kernels (-tags purego, with
# -gcflags=all=-d=checkptr) and the cross-platform check, each step
# announced, then a summary line.
test: vet
	GO=$(GO) bash scripts/test.sh

# The cross-platform check: the same bits on amd64 (GOAMD64=v1 and v3) and
# arm64 (under qemu-user-static, installed with apt-get when root; skipped,
# saying so, otherwise). See scripts/xplat.sh.
xplat:
	GO=$(GO) bash scripts/xplat.sh

# The runs are cached in $(RESULTS): an interrupted reproduce resumes where it
# stopped. The report is written even when some runs failed.
SELECT  = $(if $(TABLES),-table $(TABLES)) $(foreach f,$(EXPERIMENTS),-experiments $(f)) -tier $(TIER)

reproduce: build
	@status=0; \
	$(BIN) run $(SELECT) -jobs $(JOBS) -results $(RESULTS) || status=$$?; \
	$(BIN) report $(SELECT) -results $(RESULTS) -out $(REPORT) || status=$$?; \
	exit $$status

# Publishes the results of $(RESULTS) (the full tier) in published/: one
# compressed archive of results per table, the report made from them alone
# (repro report -reproducible), and the LaTeX report compiled to
# report-standalone.pdf where pdflatex is installed. make test checks that
# the published report regenerates byte for byte from the archives.
# The published report holds the paper's tables and the studies beyond it
# (PUBLISH_EXPERIMENTS: every *.toml of studies/), whose results are archived
# beside the paper's.
PUBLISH_EXPERIMENTS ?= studies
publish: build
	$(BIN) publish -tier full -table all -experiments $(PUBLISH_EXPERIMENTS) -results $(RESULTS) -out published
	@if command -v pdflatex >/dev/null; then \
	  cd published/report && for i in 1 2; do pdflatex -interaction=nonstopmode -halt-on-error report-standalone.tex >/dev/null || exit 1; done; \
	  rm -f report-standalone.aux report-standalone.log report-standalone.out; echo "compiled published/report/report-standalone.pdf"; \
	else echo "pdflatex not installed: published/report/report-standalone.pdf not compiled"; fi

report: build
	$(BIN) report $(SELECT) -results $(RESULTS) -out $(REPORT)

# Compares two result directories row by row (a regression check):
#   make compare OLD=results-main NEW=results TIER=quick [FAIL_ON=worse] [FORMAT=md]
FAIL_ON ?= none
FORMAT  ?= text
compare: build
	@test -n "$(OLD)" -a -n "$(NEW)" || { echo "usage: make compare OLD=dir NEW=dir [TIER=quick] [FAIL_ON=worse] [FORMAT=md]"; exit 2; }
	$(BIN) compare $(SELECT) -format $(FORMAT) -fail-on $(FAIL_ON) $(OLD) $(NEW)

# BenchmarkTable runs every row of every table; BENCH_ITERS shortens each run
# to that many LSQR iterations or Adam steps (0: the full budget, hours for the
# 2D networks).
BENCH_ITERS ?= 1000
bench:
	$(GO) test -run '^$$' -bench . -benchtime 1x -timeout 60m ./core/...
	$(GO) test -run '^$$' -bench . -benchtime 1x -timeout 120m ./bench/ -args -iters $(BENCH_ITERS)

# SciPy's LSQR on the same systems as the ELM-FBPINN baselines, alternated
# with ours on one pinned core (scripts/scipy-ratio.sh; needs python3-scipy).
SCIPY_ROUNDS ?= 5
scipy-ratio: build
	bash scripts/scipy-ratio.sh -r $(SCIPY_ROUNDS) -b $(BIN)

# The GOAMD64 level chosen above (scripts/ab.sh builds both sides with it).
goamd64:
	@echo $(GOAMD64)

# Tests 'repro slurm' and 'repro run -shard' against a real single-node Slurm
# (installs slurm-wlm and munge with apt-get if needed; skips, saying so, if
# it cannot). See scripts/slurm-test.sh.
slurm-test:
	GO=$(GO) bash scripts/slurm-test.sh

clean-bin:
	rm -rf bin
