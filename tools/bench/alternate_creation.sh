#!/bin/bash
# Alternates two creation_bench binaries in one sitting, for before / after figures of session
# creation: three rounds, each running OLD then NEW over every shape and size with --cpu_time
# --reps=3, with the time and load printed before each run.
#   bash tools/bench/alternate_creation.sh OLD_BINARY NEW_BINARY [ROUNDS]
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 OLD_BINARY NEW_BINARY [ROUNDS]" >&2; exit 2; }
rounds=${3:-3}
for r in $(seq 1 "$rounds"); do
  for b in "$1" "$2"; do
    echo "=== round $r $b $(date +%H:%M:%S) $(uptime | sed 's/.*load/load/')"
    "$b" --cpu_time --reps=3
  done
done
echo "=== end $(date +%H:%M:%S) $(uptime | sed 's/.*load/load/')"
