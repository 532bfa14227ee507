#!/usr/bin/env bash
# The checks GPU work must pass, on the device machine: the GPU tests, compute-sanitizer memcheck
# and racecheck, the CUDA differential against clingo 5.8.3 and its regressions, the interrupt
# tests on the GPU engine and on the farm (--gpu-mode=auto), and the time-limit overshoot per phase (scripts/limit_bench.py) on the
# CPU and GPU engines. Build first with scripts/gpu_bundle.sh, then run through the device tool:
#   command "CHECKS=tests,sanitize,diff,interrupts,interrupts-farm,limits bash scripts/gpu_checks.sh",
#   carry [".gpu", ".whl"]
# CHECKS picks the parts (default: all but limits). One line per check is printed; the logs go
# to $OUT. LIMIT_BACKENDS and LIMIT_PROGRAMS choose what the limits part measures.
cd "$(dirname "$0")/.."
set -u
# Each call of the device tool copies the working tree over again, replacing files while they may
# be read: checks run in the background between calls read a private copy of the tree.
if [ -z "${GPU_CHECKS_COPY:-}" ]; then
    copy=$(mktemp -d /tmp/gpu-checks-tree.XXXXXX)
    tar -cf - --exclude=./target --exclude=./.git . | tar -xf - -C "$copy"
    GPU_CHECKS_COPY=1 exec bash "$copy/scripts/gpu_checks.sh"
fi
OUT=${OUT:-/tmp/gpu-checks}
mkdir -p "$OUT"
K="timeout -s KILL"
B=.gpu
CHECKS=${CHECKS:-tests,sanitize,diff,interrupts,interrupts-farm}
has() { [[ ",$CHECKS," == *",$1,"* ]]; }
echo "commit $(cat $B/commit 2>/dev/null); $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1)"
export YASMIN_CACHE_DIR=/tmp/yc
# Compiles the kernels once (NVRTC; the PTX is cached): the grid-wide engine's and the farm's.
for mode in grid farm; do $K 120 $B/yasmin --backend=cuda --gpu-mode=$mode -q instances/queens.aspif > /dev/null 2>&1; done
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl > /dev/null 2>&1
export PYTHONPATH=/tmp/site YASMIN_PYTHON=python3 YASMIN_REPO=$PWD YASMIN_BIN=$PWD/$B/yasmin
summary() { grep -E "$2" "$1" | sed -E 's/; features:.*//' | cut -c1-300 | tr '\n' '|'; }

if has tests; then
    YASMIN_GPU_DIFF_PROGRAMS=300 $K 400 $B/gpu-tests --test-threads=4 > $OUT/gpu-tests.txt 2>&1
    echo "gpu tests rc=$?: $(summary $OUT/gpu-tests.txt 'test result|panicked|FAILED')"
fi

if has sanitize; then
    # Each tool on a tight and a non-tight program, both learning schemes, decisions on rules and
    # on variables, an optimization, a
    # program with head cycles, a race of two engines, and the search farm (a model, and a proof
    # that there is none; one farm, and two on device 0 dividing the space, relaying nogoods; one
    # farm whose searches divide the space; enumeration by one farm and by two; a farm racing two
    # CPU searches that win; programs that are not tight, a model and all of them, and aggregates on
    # positive cycles, all models and a proof that there is none).
    q=/tmp/qbf.aspif
    python3 instances/gen/qbf/generate.py --xs 10 --ys 10 --terms 18 --seed 4 > $q
    # A race the CPU searches win only after seconds (pigeon-hole, 9 holes, unsatisfiable): the
    # farm joins it and is stopped mid-search. (On a small program they answer before the driver
    # has initialized, and the sanitizer has nothing to check.)
    ph=/tmp/pigeonhole-9.aspif
    python3 instances/gen/pigeonhole/generate.py --n 9 > /tmp/ph.lp
    python3 -m clingo --mode=gringo instances/gen/pigeonhole/encoding.lp /tmp/ph.lp > $ph
    for tool in memcheck racecheck; do
        fails=0 runs=0
        for args in "-n 0 instances/queens.aspif" "--learning=fwd -n 0 instances/queens.aspif" \
            "--decisions=vars -n 0 instances/queens.aspif" "--decisions=vars --learning=fwd instances/tiling.aspif" \
            "-n 0 instances/hamiltonian.aspif" "--learning=fwd instances/tiling.aspif" \
            "-n 0 instances/disjunction.aspif" "-n 0 $q" "-t 2 instances/colouring.aspif" \
            "--gpu-mode=farm --gpu-searches=2 tests/conformance/tight/4-queens.smodels" \
            "--gpu-mode=farm --gpu-searches=2 tests/conformance/tight/bug1.smodels" \
            "--gpu-mode=farm --gpu-searches=4 --gpu-devices=0,0 -t 2,split tests/conformance/tight/4-queens.smodels" \
            "--gpu-mode=farm --gpu-searches=4 --gpu-devices=0,0 tests/conformance/tight/bug1.smodels" \
            "--gpu-mode=farm --gpu-searches=3 -t 2,split tests/conformance/tight/4-queens.smodels" \
            "--gpu-mode=farm --gpu-searches=3 -t 2,split tests/conformance/tight/bug1.smodels" \
            "--gpu-mode=farm --gpu-searches=3 -n 0 tests/conformance/tight/5-queens.smodels" \
            "--gpu-mode=farm --gpu-searches=2 -t 2 $ph" \
            "--gpu-mode=farm --gpu-searches=2 --gpu-devices=0,0 -n 0 tests/conformance/tight/4-queens.smodels" \
            "--gpu-mode=farm --gpu-searches=2 instances/hamiltonian.aspif" \
            "--gpu-mode=farm --gpu-searches=3 -n 0 instances/hamiltonian.aspif" \
            "--gpu-mode=farm --gpu-searches=3 -n 0 tests/farm_emu/recursive/recursive-030.smodels" \
            "--gpu-mode=farm --gpu-searches=2 tests/farm_emu/recursive/recursive-007.smodels"; do
            log=$OUT/$tool.txt
            echo "== $args" >> $log
            # The grid-wide engine where the farm is not named (auto would give most to the farm).
            case $args in *gpu-mode*) mode=;; *) mode=--gpu-mode=grid;; esac
            $K 300 compute-sanitizer --tool $tool --error-exitcode 99 $B/yasmin --backend=cuda $mode -q $args >> $log 2>&1
            rc=$?
            runs=$((runs + 1))
            case $rc in 10|20|30) ;; *) fails=$((fails + 1)); echo "   rc=$rc: $args";; esac
        done
        echo "$tool: $runs runs, $fails failed; $(grep -cE 'ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards' $OUT/$tool.txt) clean summaries"
    done
fi

if has diff; then
    # DIFF_FARM_DEVICES: the farm also on these devices (0,0: two farms on device 0), competing and
    # in split mode.
    YASMIN_DIFF_FARM_DEVICES=${DIFF_FARM_DEVICES:-0,0} \
    YASMIN_DIFF_BACKEND=cuda YASMIN_DIFF_FARM=${DIFF_FARM:-64} YASMIN_DIFF_PROGRAMS=${DIFF_PROGRAMS:-200} YASMIN_DIFF_PROJECTED=40 YASMIN_DIFF_THREADS=8 \
        $K 420 $B/differential-tests yasmin_agrees > $OUT/diff.txt 2>&1
    echo "differential rc=$?: $(summary $OUT/diff.txt 'test result|differential: [0-9]+ programs|disagree')"
    # A child per regression program opens the device afresh and runs its checks (a child per
    # check, about 1,300, took more than 400 s on one H100); per program times with --nocapture.
    YASMIN_DIFF_BACKEND=cuda $K ${REGRESSIONS_LIMIT:-900} $B/differential-tests regressions_agree_with_brute_force > $OUT/regressions.txt 2>&1
    echo "regressions rc=$?: $(summary $OUT/regressions.txt 'test result|panicked|disagree')"
fi

if has interrupts; then
    YASMIN_INTERRUPT_BACKEND=cuda $K 500 $B/interrupts-tests --test-threads=1 > $OUT/interrupts.txt 2>&1
    echo "interrupts (cuda) rc=$?: $(summary $OUT/interrupts.txt 'runs, |test result|panicked')"
fi

if has interrupts-farm; then
    YASMIN_INTERRUPT_BACKEND=cuda YASMIN_INTERRUPT_GPU_MODE=auto $K 500 $B/interrupts-tests --test-threads=1 \
        > $OUT/interrupts-farm.txt 2>&1
    echo "interrupts (cuda, auto) rc=$?: $(summary $OUT/interrupts-farm.txt 'runs, |test result|panicked')"
fi

if has limits; then
    # The generated programs and the ground competition instances carried in .gpu/bench
    # (scripts/gpu_bundle.sh does not make them: gzip the ones to measure into it).
    for f in $B/bench/*.aspif.gz; do [ -f "$f" ] && gunzip -c "$f" > /tmp/bench-$(basename "${f%.gz}"); done
    for be in ${LIMIT_BACKENDS:-cuda cpu}; do
        $K 580 python3 scripts/limit_bench.py --bin $B/yasmin --backend $be --cache /tmp/limits \
            --out $OUT/limits-$be ${LIMIT_PROGRAMS:-big:40 qbf enum:22} /tmp/bench-*.aspif > $OUT/limits-$be.txt 2>&1
        echo "limits ($be) rc=$?:"
        tail -9 $OUT/limits-$be.txt
    done
fi
