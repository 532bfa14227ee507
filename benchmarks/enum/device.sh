# Sourced by the enumeration benchmarks that run on the device machine, from the repository root:
# clingo 5.8.3 from the wheels in .whl, the kernels' cache in /tmp/yc (compiled once, before the
# runs, by .gpu/yasmin), $OUT made; `bench ARGS` runs scripts/enum_bench.py with .gpu/yasmin on the
# programs ground into .bench/g, -q, 40 s.
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site YASMIN_CACHE_DIR=/tmp/yc
mkdir -p "$OUT"
.gpu/yasmin --backend=cuda --gpu-mode=farm -q -n 0 instances/queens.aspif > /dev/null
bench() {
  python3 scripts/enum_bench.py --yasmin .gpu/yasmin --python python3 --timeout 40 --outputs q \
    --work .bench/g "$@"
}
