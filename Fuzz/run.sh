#!/usr/bin/env bash
# Runs the fuzz targets built into .build-fuzz (`make fuzz` builds them first; docs/security.md, "Fuzzing").
#
#   Fuzz/run.sh [TARGET...]        every target when none is named
#
# Each target runs FUZZ_SECONDS (default 60) from its committed seed corpus Fuzz/Corpus/<target>/;
# what it learns goes to .build-fuzz/corpus/<target>/ (kept between runs, never committed), a
# crashing or hanging input to .build-fuzz/artifacts/<target>/, the log to .build-fuzz/logs/.
# Prints the executions of each target; exits 1 when any target found a crash, a timeout
# (10 s for one input) or more than 2 GB of memory.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

seconds=${FUZZ_SECONDS:-60}
scratch=${FUZZ_SCRATCH:-.build-fuzz}
case "$seconds" in ''|*[!0-9]*) echo "FUZZ_SECONDS must be a whole number of seconds, not '$seconds'" >&2; exit 2;; esac
if [ "$seconds" -lt 1 ] || [ "$seconds" -gt 86400 ]; then
    echo "FUZZ_SECONDS must be between 1 and 86400, not $seconds" >&2; exit 2
fi

all=(FuzzOrderedJSON FuzzCassette FuzzScenarioScript FuzzAMCLVectors FuzzSuiteVectors FuzzLegacyImport FuzzCrypto
     FuzzSDKResponses FuzzSDKStorage FuzzBackend)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all[@]}")

# The largest input each target is given, in bytes.
max_len() {
    case "$1" in
        FuzzCrypto) echo 1024 ;;
        FuzzSDKStorage|FuzzOrderedJSON) echo 16384 ;;
        FuzzCassette|FuzzLegacyImport|FuzzSuiteVectors|FuzzAMCLVectors) echo 65536 ;;
        *) echo 32768 ;;
    esac
}

failed=0
printf '%-20s %12s %10s  %s\n' target executions exec/s result
for target in "${targets[@]}"; do
    binary="$scratch/release/$target"
    if [ ! -x "$binary" ]; then
        echo "$target: not built ($binary); run make fuzz" >&2
        failed=1
        continue
    fi
    mkdir -p "$scratch/corpus/$target" "$scratch/artifacts/$target" "$scratch/logs"
    log="$scratch/logs/$target.log"
    SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0:${ASAN_OPTIONS:-} "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -max_len="$(max_len "$target")" -print_final_stats=1 -artifact_prefix="$scratch/artifacts/$target/" \
        "$scratch/corpus/$target" "Fuzz/Corpus/$target" >"$log" 2>&1
    status=$?
    executions=$(awk '/stat::number_of_executed_units/ {print $2}' "$log" | tail -1)
    speed=$(awk '/stat::average_exec_per_sec/ {print $2}' "$log" | tail -1)
    if [ $status -eq 0 ]; then
        result=ok
    else
        failed=1
        artifact=$(grep -o "Test unit written to [^ ]*" "$log" | tail -1 | sed 's/Test unit written to //')
        result="FAILED (exit $status) ${artifact:-see $log}"
    fi
    printf '%-20s %12s %10s  %s\n' "$target" "${executions:-?}" "${speed:-?}" "$result"
done
exit $failed
