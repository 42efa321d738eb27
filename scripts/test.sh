#!/usr/bin/env bash
# make test: what CI runs, step by step, saying what each long step does,
# and a summary at the end in words and as one line "N passed, N failed,
# N skipped" (the test cases of every go test run; the cross-platform
# check counts as one).
set -uo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
step() { echo; echo "make test: $*"; }

# go test -v, filtered to one line per test (PASS, FAIL, SKIP), build
# errors, the messages of failing tests and the package summaries.
filter='^ *--- (PASS|FAIL|SKIP)|^(ok|FAIL|PASS|panic:|# )|^ +[A-Za-z0-9_]+\.go:[0-9]+: |^[^ ]+\.go:[0-9]+:[0-9]+: '

step "1/3 every package's tests, with the quick-tier regression tests (go test -v ./...: about 5 minutes on 2 cores; a line per test as each package finishes)"
"$GO" test -v -timeout 14m ./... 2>&1 | grep --line-buffered -E "$filter" | tee -a "$log"
unit=${PIPESTATUS[0]}

step "2/3 the generic kernels, with Go's checks of unsafe pointer arithmetic (go test -tags purego -gcflags=all=-d=checkptr ./core/...: about a minute)"
"$GO" test -v -tags purego -gcflags=all=-d=checkptr -count=1 ./core/... 2>&1 | grep --line-buffered -E "$filter" | tee -a "$log" | grep -E '^(ok|FAIL|panic:)|--- FAIL'
generic=${PIPESTATUS[0]}

step "3/3 the cross-platform check (make xplat: the same bits from amd64 v1, v3, the vector kernels and arm64 under qemu, its NEON and generic paths; 4-6 minutes)"
GO=$GO bash scripts/xplat.sh 2>&1 | tee "$log.xplat"
xplat=${PIPESTATUS[0]}
verdict=$(grep -E '^xplat: (PASS|FAIL)' "$log.xplat" | tail -1)
skipped_legs=$(grep -c '^xplat: SKIPPED' "$log.xplat")
rm -f "$log.xplat"

passed=$(grep -cE '^ *--- PASS' "$log" || true)
failed=$(grep -cE '^ *--- FAIL' "$log" || true)
skipped=$(grep -cE '^ *--- SKIP' "$log" || true)
packages=$(grep -cE '^ok ' "$log" || true)
badpk=$(grep -cE '^FAIL[[:space:]]' "$log" || true)
if [ "$xplat" = 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
echo
legs=""
if [ "$skipped_legs" -gt 0 ]; then legs=" ($skipped_legs legs skipped, said above)"; fi
echo "make test: $packages package runs passed, $badpk failed (the purego run of core/ included); $passed tests passed, $failed failed, $skipped skipped; cross-platform: ${verdict#xplat: }$legs"
echo "make-test: $passed passed, $failed failed, $skipped skipped"
[ "$unit" = 0 ] && [ "$generic" = 0 ] && [ "$xplat" = 0 ]
