#!/usr/bin/env bash
# A campaign: Fuzz/run.sh TARGET SECONDS [libFuzzer options...]. Runs TARGET on a copy of its
# checked-in corpus (Fuzz/Corpus/TARGET) with its dictionary, for SECONDS; new inputs go to
# .build/corpus/TARGET, a crash or failed invariant to .build/findings/TARGET-*. Exit status 1
# on a finding. Prints libFuzzer's last status line (executions, coverage).
set -euo pipefail
cd "$(dirname "$0")"
target="$1"; seconds="$2"; shift 2
binary=".build/release/$target"
[ -x "$binary" ] || { echo "build first: Fuzz/build.sh" >&2; exit 2; }
mkdir -p ".build/corpus/$target" .build/findings
dictionary=()
[ -f "Dictionaries/$target.dict" ] && dictionary=("-dict=Dictionaries/$target.dict")
ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" "$binary" ".build/corpus/$target" "Corpus/$target" \
    "${dictionary[@]}" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
    -artifact_prefix=".build/findings/$target-" "$@"
