#!/bin/bash
# One search, 60 s, sixteen runs at a time on the GPU machine's 16 cores: clingo and yasmin's
# default (auto: on these tight programs that optimize nothing, rules and variables by turns) on
# ../shared/bench's 56 instances (those of ../../parallel/t8-clasp-h200), and the former default,
# --decisions=rules, on the 23 tight ones of ../tight-vm/instances.txt, where auto meant rules.
# Sources in .bench/src and .bench/src2 (encoding NAME.enc, instance NAME__*.asp), ground here by
# clingo 5.8.3's gringo (wheels in .whl); the stripped binary in .bench/y. Output under $OUT.
cd "$(dirname "$0")/../../.."
mkdir -p $OUT
t0=$(date +%s)
source benchmarks/ground.sh /tmp/g .bench/src .bench/src2
tight=(); for i in $(cat benchmarks/decisions/tight-vm/instances.txt); do tight+=("/tmp/g/$i.aspif"); done
python3 scripts/parallel_bench.py --yasmin .bench/y --python python3 --jobs 16 --timeout 60 --out $OUT/t1.csv \
  --config 'clingo' --config 'yasmin --backend=cpu' /tmp/g/*.aspif > $OUT/t1.txt 2>&1
echo "clingo and the default done at $(( $(date +%s) - t0 )) s"; tail -3 $OUT/t1.txt
python3 scripts/parallel_bench.py --yasmin .bench/y --python python3 --jobs 16 --timeout 60 --out $OUT/rules.csv \
  --config 'yasmin --backend=cpu --decisions=rules' "${tight[@]}" > $OUT/rules.txt 2>&1
echo "rules done at $(( $(date +%s) - t0 )) s"; tail -3 $OUT/rules.txt
