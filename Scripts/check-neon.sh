#!/usr/bin/env bash
# The fold's NEON step (cfold_pair_run on AArch64, Sources/CFoldSupport/CFoldPairRun.c) checked on
# this x86-64 machine: Tests/CrossChecks/pair_run_check.c built for aarch64 with Debian's cross
# compiler and run under qemu's user-mode emulator, against the portable step. Installs
# gcc-aarch64-linux-gnu, libc6-dev-arm64-cross and qemu-user-static with apt-get when missing
# (and says so). Part of `make test` (make test-neon).
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || missing+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross)
[ -e /usr/aarch64-linux-gnu/lib/libc.a ] || missing+=(libc6-dev-arm64-cross)
command -v qemu-aarch64-static >/dev/null 2>&1 || missing+=(qemu-user-static)
if [ ${#missing[@]} -gt 0 ]; then
    packages=$(printf '%s\n' "${missing[@]}" | awk '!seen[$0]++' | tr '\n' ' ')
    echo "check-neon: missing ${packages}; installing them with apt-get" >&2
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
            echo "check-neon: not root and no sudo: install ${packages}yourself" >&2
            exit 1
        fi
    fi
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    # shellcheck disable=SC2086
    $SUDO apt-get install -y -qq $packages
fi
out=.build-cross
mkdir -p "$out"
aarch64-linux-gnu-gcc -O2 -static -Wall -Wextra -Werror -I Sources/CFoldSupport/include \
    Tests/CrossChecks/pair_run_check.c Sources/CFoldSupport/CFoldPairRun.c -o "$out/pair_run_check-aarch64"
if result=$(qemu-aarch64-static "$out/pair_run_check-aarch64"); then
    echo "check-neon: $result"
else
    echo "check-neon: the NEON step differs from the portable one: $result" >&2
    exit 1
fi
