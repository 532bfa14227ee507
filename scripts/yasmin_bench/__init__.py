"""yasmin's batch benchmark runner (scripts/bench.py), one module per concern.

  instances   instance sets (families, gen:, list:, anchor) and their selection
  grounding   gringo runs, cached by content hash (a task of its own)
  solvers     solver configurations and their command lines
  measure     one run under a time and a memory limit: BenchExec's runexec or rusage
  running     the solving task that runs on a Dask worker (or in-process)
  results     CSV rows, classification of a run, agreement between solvers, resumption
  cluster     where the tasks run: in-process, a LocalCluster, a scheduler, Slurm or PBS
  progress    the progress bar
  campaign    the batch: tasks submitted, results streamed into the CSV
  cli         the command line of scripts/bench.py
  summary     tables and cactus plots (scripts/summarize.py)
"""
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent.parent
REPO = SCRIPTS.parent
GEN_DIR = REPO / "instances" / "gen"
VENV_PYTHON = REPO / ".venv" / "bin" / "python"
