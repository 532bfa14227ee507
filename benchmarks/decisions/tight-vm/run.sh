#!/bin/bash
# The default decisions of 01d5db8, where rules-vars-60s.csv was measured (auto: rules on these
# tight programs, which optimize nothing; today auto alternates, so its config `yasmin` is
# `yasmin --decisions=rules` now) against --decisions=vars, one search, 60 s, two runs at a time on the project VM (2 cores): the 23
# tight instances of ../../parallel/t8-clasp-h200's one-search run that some solver solved there
# in 60 s and not both within 1.5 s (instances.txt). GROUND: a folder with NAME.aspif of each.
# Output: rules-vars-60s.csv, alt-60s.csv (turns of conflicts, 5b4905c) and effort-60s.csv (turns of
# effort, auto's choice since); strengthen-*-60s.csv and rand-freq-60s.csv (below).
cd "$(dirname "$0")/../../.."
GROUND=${GROUND:?a folder of ground programs}
files=(); for i in $(cat benchmarks/decisions/tight-vm/instances.txt); do files+=("$GROUND/$i.aspif"); done
python3 scripts/parallel_bench.py --yasmin target/release/yasmin --python .venv/bin/python --jobs 2 --timeout 60 \
  --out benchmarks/decisions/tight-vm/rules-vars-60s.csv --config 'yasmin --backend=cpu' --config 'yasmin --backend=cpu --decisions=vars' "${files[@]}"
# Decisions by turns (alt-60s.csv), the same way:
python3 scripts/parallel_bench.py --yasmin target/release/yasmin --python .venv/bin/python --jobs 2 --timeout 60 \
  --out benchmarks/decisions/tight-vm/alt-60s.csv --config 'yasmin --backend=cpu --decisions=alternate' "${files[@]}"
# Decisions by turns of effort (effort-60s.csv; auto's choice on these programs), the same way:
python3 scripts/parallel_bench.py --yasmin target/release/yasmin --python .venv/bin/python --jobs 2 --timeout 60 \
  --out benchmarks/decisions/tight-vm/effort-60s.csv --config 'yasmin --backend=cpu' "${files[@]}"
# Strengthening of learned nogoods (strengthen-local-60s.csv, strengthen-short-60s.csv), the same way:
python3 scripts/parallel_bench.py --yasmin target/release/yasmin --python .venv/bin/python --jobs 2 --timeout 60 \
  --out benchmarks/decisions/tight-vm/strengthen-local-60s.csv --config 'yasmin --backend=cpu --strengthen=local' "${files[@]}"
python3 scripts/parallel_bench.py --yasmin target/release/yasmin --python .venv/bin/python --jobs 2 --timeout 60 \
  --out benchmarks/decisions/tight-vm/strengthen-short-60s.csv --config 'yasmin --backend=cpu --strengthen=recursive,short' "${files[@]}"
# Random decisions (rand-freq-60s.csv), the same way:
python3 scripts/parallel_bench.py --yasmin target/release/yasmin --python .venv/bin/python --jobs 2 --timeout 60 \
  --out benchmarks/decisions/tight-vm/rand-freq-60s.csv --config 'yasmin --backend=cpu --rand-freq=0.02' "${files[@]}"
