# elmfbpinn: reproduce the tables of the ELM-FBPINN paper.
#
#   make reproduce            full tier (paper-faithful) of every table, then the report
#   make reproduce TIER=quick the short tier that CI checks
#   make test                 unit tests + the quick-tier regression tests + the cross-platform check
#   make bench                benchmarks (benchstat-readable)

GO      ?= go
TIER    ?= full
TABLES  ?= all
JOBS    ?= 0
RESULTS ?= results
REPORT  ?= report
BIN     := bin/repro

.PHONY: all build test vet xplat reproduce report bench clean-bin slurm-test

all: build

# The binary records the commit it was built from in every result it makes.
COMMIT  := $(shell git rev-parse --short=12 HEAD 2>/dev/null)$(shell git diff --quiet HEAD 2>/dev/null || echo -dirty)

build:
	$(GO) build -ldflags "-X main.buildCommit=$(COMMIT)" -o $(BIN) ./cmd/repro

vet:
	$(GO) vet ./...
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

test: vet
	$(GO) test -timeout 14m ./...
	GO=$(GO) bash scripts/xplat.sh

# The cross-platform check: the same bits on amd64 (GOAMD64=v1 and v3) and
# arm64 (under qemu-user-static, installed with apt-get when root; skipped,
# saying so, otherwise). See scripts/xplat.sh.
xplat:
	GO=$(GO) bash scripts/xplat.sh

# The runs are cached in $(RESULTS): an interrupted reproduce resumes where it
# stopped. The report is written even when some runs failed.
reproduce: build
	@status=0; \
	$(BIN) run -table $(TABLES) -tier $(TIER) -jobs $(JOBS) -results $(RESULTS) || status=$$?; \
	$(BIN) report -table $(TABLES) -tier $(TIER) -results $(RESULTS) -out $(REPORT) || status=$$?; \
	exit $$status

report: build
	$(BIN) report -table $(TABLES) -tier $(TIER) -results $(RESULTS) -out $(REPORT)

bench:
	$(GO) test -run '^$$' -bench . -benchtime 1x -timeout 60m ./bench/ ./core/...

# Tests 'repro slurm' and 'repro run -shard' against a real single-node Slurm
# (installs slurm-wlm and munge with apt-get if needed; skips, saying so, if
# it cannot). See scripts/slurm-test.sh.
slurm-test:
	GO=$(GO) bash scripts/slurm-test.sh

clean-bin:
	rm -rf bin
