#!/usr/bin/env bash
# Builds the libFuzzer targets in release mode with AddressSanitizer. SwiftPM's `--sanitize
# fuzzer` leaves each executable's main to libFuzzer; the Swift driver keeps only the last
# `-sanitize=`, so the flag passed to it carries both.
set -euo pipefail
cd "$(dirname "$0")"
swift build -c release --sanitize fuzzer -Xswiftc -sanitize=fuzzer,address "$@"
