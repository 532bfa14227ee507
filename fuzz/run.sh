#!/usr/bin/env bash
# Runs one fuzz target of fuzz/ for a number of executions, on the stable toolchain:
#
#   bash fuzz/run.sh TARGET [EXECUTIONS] [extra libFuzzer args]
#
# TARGET is `readers` (both readers, invariants, the aspif round trip) or `pipeline` (small
# programs read, completed, solved under varied options and checked); EXECUTIONS defaults to
# 1000000. The corpus fuzz/corpus/TARGET (gitignored) is seeded from instances/*.aspif and
# *.smodels, tests/regressions/*.aspif and *.smodels, and the conformance programs
# (tests/conformance/*/*.smodels, ../shared/conformance/*/*.smodels where present; one copy of
# each); libFuzzer adds what it finds there. A crash is saved in fuzz/artifacts/TARGET/ and ends
# the run (rerun one input: `RUSTC_BOOTSTRAP=1 cargo fuzz run TARGET fuzz/artifacts/TARGET/FILE`).
# The whole log goes to fuzz/logs/TARGET-DATE.log; libFuzzer's final stats are printed
# at the end.
#
# Needs cargo-fuzz (`cargo install cargo-fuzz --locked`) and the toolchain's sanitizer runtimes
# (stable rustup toolchains have them). libFuzzer's instrumentation and AddressSanitizer take
# unstable rustc flags (-Zsanitizer=address): RUSTC_BOOTSTRAP=1 lets stable rustc accept them, so
# no nightly is needed. FUZZ_SANITIZER=none builds without ASan (faster, finds fewer bugs); debug
# assertions and overflow checks are on either way. The build honours CARGO_TARGET_DIR and
# CARGO_BUILD_JOBS. The run is one process, in the foreground: no -jobs/-workers, which would
# make libFuzzer fork workers that log to fuzz-N.log instead.
set -euo pipefail

if [[ $# -lt 1 ]]; then
    echo "usage: $0 TARGET [EXECUTIONS] [extra libFuzzer args]" >&2
    exit 2
fi
target=$1
runs=${2:-1000000}
shift $(($# >= 2 ? 2 : 1))

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "cargo-fuzz is not installed: cargo install cargo-fuzz --locked" >&2
    exit 2
fi

# Seeds, each under a name of its own (libFuzzer names what it adds by content hash).
corpus=fuzz/corpus/$target
mkdir -p "$corpus" "fuzz/artifacts/$target"
shopt -s nullglob
for f in instances/*.aspif instances/*.smodels tests/regressions/*.aspif tests/regressions/*.smodels \
    tests/conformance/*/*.smodels ../shared/conformance/*/*.smodels; do
    name=seed-$(basename "$(dirname "$f")")-$(basename "$f")
    [[ -e $corpus/$name ]] || cp "$f" "$corpus/$name"
done
shopt -u nullglob
echo "corpus $corpus: $(find "$corpus" -type f | wc -l) files"

# Not in fuzz/artifacts/TARGET/: cargo-fuzz takes the newest file there for the failing input.
mkdir -p fuzz/logs
# The pipeline target starts threads in every execution (the stop token's timer, a race's
# searches) that end after it returns: LeakSanitizer's check after an input then takes what an
# exiting thread still holds for a leak. Leaks are checked for the readers only.
leaks=()
[[ $target == pipeline ]] && leaks=(-detect_leaks=0)
log=fuzz/logs/$target-$(date -u +%Y%m%dT%H%M%SZ).log
status=0
RUSTC_BOOTSTRAP=1 cargo fuzz run --sanitizer "${FUZZ_SANITIZER:-address}" "$target" "$corpus" -- \
    -runs="$runs" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 "${leaks[@]}" "$@" 2>&1 | tee "$log" || status=$?

echo "---- $target: final stats (log: $log)"
grep -E '^#[0-9]+[[:space:]]+(DONE|pulse|NEW|REDUCE|INITED)' "$log" | tail -n 1 || true
grep -E '^(Done [0-9]+ runs|stat::)' "$log" || true
echo "corpus $corpus: $(find "$corpus" -type f | wc -l) files"
exit "$status"
