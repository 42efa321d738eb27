#!/usr/bin/env bash
# Cross-platform bit-identity check (make xplat, part of make test).
#
# Builds repro for amd64 at GOAMD64=v1 and v3 with the generic kernels (the
# purego tag), at v3 with the vector kernels (the AVX2 path where the CPU has
# AVX2 and FMA, and the AVX-512 path too where it has AVX-512) and for arm64, runs
# `repro digest` (the cases of experiments.CrossPlatform: ELM-FBPINN, FBPINN
# and PINN runs of every problem) with each, and requires the same output:
# the SHA-256 of every e_L1 history's bits and the exact best and final
# errors; on arm64 with the NEON kernels and with the generic ones, whose
# bit-exactness tests of the products (core/sparse) run there too. amd64
# runs natively; arm64 runs under qemu-aarch64-static (Debian's
# qemu-user-static), installed with apt-get when root and apt are there and
# skipped, saying so, otherwise. A difference means some arithmetic on the
# numerical path is not the same on every platform (see package core/fp).
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

build() { # name goarch goamd64 [tags]
	echo "xplat: building $1"
	GOOS=linux GOARCH=$2 GOAMD64=${3:-v1} GOEXPERIMENT= CGO_ENABLED=0 "$GO" build -tags "${4:-}" -o "$out/repro-$1" ./cmd/repro
}
# digest name runner...: runs the cases in two halves at once (2 cores)
# with the binary repro-$name, or with repro-$bin if bin is set.
digest() {
	local name=$1
	local exe=$out/repro-${bin:-$name}
	shift
	local half1 half2
	half1=osc-elm-s0,osc-elm-s1,osc-elm-s2,osc-elm-multilevel,laplace-elm-300,helmholtz-elm-300,osc-fbpinn-300
	half2=osc-elm-stop,osc-elm-block,osc-elm-block-multilevel-stop,laplace-elm-block-300,osc-pinn-300,laplace-fbpinn-40,laplace-pinn-5,helmholtz-fbpinn-40,helmholtz-pinn-5
	local start=$SECONDS
	"$@" "$exe" digest -cases "$half1" >"$out/$name.1" &
	local p1=$!
	"$@" "$exe" digest -cases "$half2" >"$out/$name.2"
	wait "$p1"
	cat "$out/$name.1" "$out/$name.2" >"$out/$name.txt"
	echo "xplat: $name: $(wc -l <"$out/$name.txt") cases in $((SECONDS - start)) s"
}

build amd64-v1 amd64 v1 purego
build amd64-v3 amd64 v3 purego
digest amd64-v1
digest amd64-v3
targets=(amd64-v3)
# The vector kernels: the AVX2 path where the CPU has
# AVX2 and FMA (forced with ELMFBPINN_KERNEL=avx2 on an AVX-512 CPU), and
# the AVX-512 path where it has AVX-512.
if grep -qw avx2 /proc/cpuinfo 2>/dev/null && grep -qw fma /proc/cpuinfo; then
	build amd64-v3-vector amd64 v3
	bin=amd64-v3-vector digest amd64-v3-avx2 env ELMFBPINN_KERNEL=avx2
	targets+=(amd64-v3-avx2)
	if grep -qw avx512f /proc/cpuinfo; then
		bin=amd64-v3-vector digest amd64-v3-avx512
		targets+=(amd64-v3-avx512)
	else
		echo "xplat: SKIPPED the AVX-512 kernels: this CPU has no AVX-512"
	fi
else
	echo "xplat: SKIPPED the vector kernels: this CPU has no AVX2 and FMA"
fi

qemu=$(command -v qemu-aarch64-static || true)
if [ -z "$qemu" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
	echo "xplat: installing qemu-user-static"
	if apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qemu-user-static >/dev/null 2>&1; then
		qemu=$(command -v qemu-aarch64-static || true)
	fi
fi
if [ -n "$qemu" ]; then
	build arm64 arm64
	digest arm64 env ELMFBPINN_KERNEL=neon "$qemu"
	bin=arm64 digest arm64-generic env ELMFBPINN_KERNEL=generic "$qemu"
	targets+=(arm64 arm64-generic)
	# The NEON kernels against the products' chain definitions on the
	# package's edge cases (every width of a panel's last group, block
	# widths around multiples of 8), which the digest's runs do not all reach.
	echo "xplat: core/sparse's tests on arm64 (NEON and generic paths)"
	GOOS=linux GOARCH=arm64 GOEXPERIMENT= CGO_ENABLED=0 "$GO" test -c -o "$out/sparse-arm64.test" ./core/sparse
	if ! (cd core/sparse && "$qemu" "$out/sparse-arm64.test" -test.run 'BitExact|SameBits' >"$out/sparse-arm64.log" 2>&1); then
		cat "$out/sparse-arm64.log"
		echo "xplat: FAIL: core/sparse's tests on arm64"
		exit 1
	fi
else
	echo "xplat: SKIPPED arm64: qemu-aarch64-static is not installed and cannot be (needs root and apt-get)"
fi

# The digests themselves (a SHA-256 and two hex floats per case) are shown
# only where two platforms differ, in the diff.
status=0
same=()
for t in "${targets[@]}"; do
	if diff -u --label amd64-v1 --label "$t" "$out/amd64-v1.txt" "$out/$t.txt"; then
		echo "xplat: $t: same bits as amd64-v1"
		same+=("$t")
	else
		echo "xplat: FAIL: $t computes different bits from amd64-v1 (see the diff above)"
		status=1
	fi
done
if [ $status = 0 ]; then
	echo "xplat: PASS: the same bits on amd64-v1 and ${same[*]} ($(wc -l <"$out/amd64-v1.txt") cases)"
fi
exit $status
