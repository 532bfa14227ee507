#!/usr/bin/env bash
# Builds what the device machine runs (it has no Rust): the release binary and the test binaries
# that run there (gpu, differential, interrupts), stripped, into .gpu/ (ignored through
# .git/info/exclude); clingo's wheels for Python 3.12 into .whl/. The repository travels with
# them (the conformance corpus is in tests/conformance).
# Then run scripts/gpu_checks.sh there with the device tool, carrying [".gpu", ".whl"].
set -euo pipefail
cd "$(dirname "$0")/.."
grep -qx '/.gpu/' .git/info/exclude 2>/dev/null || echo /.gpu/ >> .git/info/exclude
grep -qx '/.whl/' .git/info/exclude 2>/dev/null || echo /.whl/ >> .git/info/exclude
rm -rf .gpu && mkdir -p .gpu
cargo build --release --quiet
cp target/release/yasmin .gpu/yasmin
for t in gpu differential interrupts; do
    exe=$(cargo test --release --no-run --test "$t" --message-format=json 2>/dev/null \
        | python3 -c 'import json,sys; print([m["executable"] for m in map(json.loads, sys.stdin)
                if m.get("executable") and m["target"]["kind"] == ["test"]][-1])')
    cp "$exe" ".gpu/$t-tests"
done
strip .gpu/*
if ! ls .whl/clingo-5.8.3-*.whl > /dev/null 2>&1; then
    python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
        --platform manylinux_2_28_x86_64 --platform manylinux2014_x86_64 -d .whl clingo==5.8.3 cffi pycparser
fi
git rev-parse --short HEAD > .gpu/commit
du -sh .gpu .whl
