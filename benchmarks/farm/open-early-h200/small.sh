python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site
python3 instances/gen/queens/generate.py --n 12 | python3 -m clingo --mode=gringo instances/gen/queens/encoding.lp - > /tmp/q12.aspif
xz -dc .bench/gc4.aspif.xz > /tmp/gc4.aspif
export YASMIN_CACHE_DIR=/tmp/yc
.gpu/yasmin --backend=cuda --gpu-mode=farm -q -n 0 instances/queens.aspif > /dev/null
.bench/yprev --backend=cuda --gpu-mode=farm -q -n 0 instances/queens.aspif > /dev/null
TIMEFORMAT="%R"
for r in 1 2 3; do
  for b in .bench/yprev .gpu/yasmin; do
    for a in "--gpu-mode=farm -n 0 /tmp/q12.aspif" "--gpu-mode=farm /tmp/gc4.aspif" "instances/queens.aspif" "--gpu-mode=farm --time-limit=3 /tmp/gc4.aspif"; do
      echo "$r $b $a: $( { time $b --backend=cuda -q $a | grep -E '^Time' | cut -c1-60; } 2>&1 | tr '\n' ' ')"
    done
  done
done
echo "== phases"
for b in .bench/yprev .gpu/yasmin; do echo "-- $b"; python3 .bench/ts.py $b --backend=cuda --gpu-mode=farm -q -V /tmp/gc4.aspif | grep -E "CUDA|problem:|completion|cubes|set up|searches on|end|Time"; done
