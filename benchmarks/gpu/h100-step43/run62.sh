#!/usr/bin/env bash
# Device run 62: step 43 (forward learning's dependency rows of literals with long reasons taken by a
# warp, deps_d) in .gpu/s43 against main (6a50168, .gpu/base). 5 s A/B runs, two rounds, fwd on the
# Table's instances and res on three (res's kernel only lost dead code); then memcheck and racecheck
# on the new path.
cd "$(dirname "$0")/../../.."
set -u
mkdir -p $OUT/keep
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/keep/gpu.txt
tar xJf .gpu/inst.tar.xz -C .gpu
export YASMIN_CACHE_DIR=/tmp/yc
I=.gpu/inst
K="timeout -s KILL"
for b in base s43; do $K 30 .gpu/$b/yasmin --backend=cuda -q instances/queens.aspif > /dev/null 2>&1; done
ab() { # round, learning, instance, binary
  local r=$1 L=$2 inst=$3 b=$4
  local f=/tmp/ab-$r-$L-$inst-$b.txt
  $K 12 .gpu/$b/yasmin --backend=cuda --learning=$L --stats -V -q --time-limit=5 $I/$inst.aspif > $f 2>&1
  echo "$r $b $L $inst: $(grep -E '^(SATIS|UNSAT|UNKNOWN)' $f | head -1) $(grep -E '^(Choices|Conflicts|Propagations)' $f | tr -s ' ' | sed -E 's/: ([0-9]+) +\(per second: ([0-9]+)\)/ \1 (\2\/s)/' | tr '\n' ' ') $(grep -oE '\([0-9]+ rounds; device: input rounds [0-9.]+ ms, [0-9]+ sweeps [0-9.]+ ms' $f)"
}
for r in 1 2; do
  for inst in ppm-200 Visit-all_0029 Sokoban_0312 Labyrinth_0073 marriage-60 GraphColouring_0006 pigeonhole-9; do
    ab $r fwd $inst base; ab $r fwd $inst s43
  done
  for inst in ppm-200 Visit-all_0029 GraphColouring_0006; do ab $r res $inst base; ab $r res $inst s43; done
done
one() { # name, limit, command...
  local n=$1 t=$2; shift 2
  $K $t "$@" > $OUT/keep/$n.txt 2>&1; echo "$n rc=$?: $(grep -E '^(SATIS|UNSAT|UNKNOWN)|ERROR SUMMARY|test result|panicked' $OUT/keep/$n.txt | head -4 | cut -c1-200 | tr -s ' ' | tr '\n' '|')"
}
B=.gpu/s43
one memcheck-fwd-ppm 40 compute-sanitizer --tool memcheck --show-backtrace no $B/yasmin --backend=cuda --learning=fwd -q --time-limit=3 $I/ppm-200.aspif
one memcheck-fwd-visit 40 compute-sanitizer --tool memcheck --show-backtrace no $B/yasmin --backend=cuda --learning=fwd -q --time-limit=3 $I/Visit-all_0029.aspif
rc() { # name, limit, file, flags...
  local n=$1 t=$2 f=$3; shift 3
  $K $t compute-sanitizer --tool racecheck --racecheck-report hazard $B/yasmin --backend=cuda --learning=fwd -q "$@" $f > $OUT/keep/racecheck-$n.txt 2>&1
  echo "racecheck $n fwd $* rc=$?: $(grep -E '^(SATIS|UNSAT|UNKNOWN)|RACECHECK SUMMARY' $OUT/keep/racecheck-$n.txt | head -3 | tr '\n' '|') hazards: $(grep -c 'hazard detected' $OUT/keep/racecheck-$n.txt)"
}
rc wide40 60 .gpu/wide40.aspif -n0; rc ph4 60 $I/pigeonhole-4.aspif
