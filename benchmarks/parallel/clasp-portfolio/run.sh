#!/bin/bash
# -t 8: yasmin's default portfolio against clasp's eight searches read from clasp8.txt (clasp's
# own format, --configuration=FILE), H200 host's 16 cores, 20 s, two runs at a time, one round.
# The 18 instances of instances.txt (those of ../berkmin-h200 where a -t 8 run took over two
# seconds), ground by clingo 5.8.3's gringo, gzipped in .bench/s; the binary in .bench/bin/yport (main at fde9031, whose default portfolio is the one before clasp's).
# Output: t8-round1.csv and t8-round2.csv (two runs of this script).
cd "$(dirname "$0")/../../.."
mkdir -p /tmp/s
for f in $(cat benchmarks/parallel/clasp-portfolio/instances.txt); do zcat .bench/s/$f.aspif.gz > /tmp/s/$f.aspif; done
python3 scripts/parallel_bench.py --yasmin .bench/bin/yport --python python3 --jobs 2 --timeout 20 --out $OUT/t8.csv \
  --config 'yasmin --backend=cpu -t 8' --config 'yasmin --backend=cpu -t 8 --configuration=benchmarks/parallel/clasp-portfolio/clasp8.txt' \
  /tmp/s/*.aspif
