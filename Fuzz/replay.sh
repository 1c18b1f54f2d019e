#!/usr/bin/env bash
# Replays inputs through a target: Fuzz/replay.sh TARGET FILE... (a finding, a corpus file).
# Exit status 0 when each ran without a crash or failed invariant.
set -euo pipefail
cd "$(dirname "$0")"
target="$1"; shift
files=()
for file in "$@"; do files+=("$(cd "$(dirname "$file")" && pwd)/$(basename "$file")"); done
ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" ".build/release/$target" "${files[@]}"
