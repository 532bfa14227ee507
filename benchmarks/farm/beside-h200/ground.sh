set -e
cd /work/main
mkdir -p /tmp/inst18
B=../shared/bench
g() { # name enc inst
  [ -s /tmp/inst18/$1.aspif.gz ] && return 0
  timeout 300 .venv/bin/python -m clingo --mode=gringo $2 $3 2>/dev/null | gzip -1 > /tmp/inst18/$1.aspif.gz
}
for x in Nomistery_0009 RicochetRobots_001 RicochetRobots_038 RicochetRobots_089 Sokoban_0207 Sokoban_0219 Sokoban_0308 Visit-all_0009 Visit-all_0029; do
  fam=${x%_*}; num=${x#*_}
  inst=$(ls $B/aspcomp2015/$fam/instances/$num-* | head -1)
  g aspcomp2015_$x $B/aspcomp2015/$fam/encoding.asp $inst
done
for n in 0002 0004 0006 0011 0012 0015; do
  g gc$n $B/aspcomp2015/GraphColouring/encoding.asp $(ls $B/aspcomp2015/GraphColouring/instances/$n-* | head -1)
done
for n in 0004 0013 0021; do
  g planning_HanoiTower_$n $B/planning/HanoiTower/encoding.asp $(ls $B/planning/HanoiTower/instances/$n-* | head -1)
done
echo done
