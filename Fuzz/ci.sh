#!/usr/bin/env bash
# The short fuzzing pass CI runs: every target for SECONDS (default 60) on its checked-in corpus,
# two at a time (the machine has 2 cores). Fails on any crash, failed invariant, hang (10 s) or
# memory past 2 GB, naming the target; the input is left in Fuzz/.build/findings.
set -uo pipefail
cd "$(dirname "$0")"
seconds="${1:-60}"
./build.sh 2>&1 | grep -E "error|warning: " | grep -v "__asan_extra_spill_area" && { echo "fuzz build failed" >&2; exit 1; }
[ -x .build/release/FuzzJSON ] || { echo "fuzz build failed" >&2; exit 1; }
targets=(FuzzJSON FuzzXML FuzzBinary FuzzObjects FuzzConfig FuzzStyles FuzzStrings FuzzLenient FuzzGraphs FuzzVersions FuzzConfigLayers FuzzEdits FuzzMarkupReader FuzzMarkupBuilder)
failed=0
lane() {
    for target in "$@"; do
        if ./run.sh "$target" "$seconds" > ".build/$target.log" 2>&1; then
            echo "$target: $(grep -E '^Done' ".build/$target.log"), $(grep -oE 'cov: [0-9]+' ".build/$target.log" | tail -1)"
        else
            echo "$target: FINDING"; tail -30 ".build/$target.log"; return 1
        fi
    done
}
lane FuzzJSON FuzzBinary FuzzConfig FuzzStrings FuzzGraphs FuzzConfigLayers FuzzMarkupReader & first=$!
lane FuzzXML FuzzObjects FuzzStyles FuzzLenient FuzzVersions FuzzEdits FuzzMarkupBuilder & second=$!
wait $first || failed=1
wait $second || failed=1
exit $failed
