#!/usr/bin/env bash
# Builds the collective programs of the OSU OpenSHMEM benchmarks (OMB's c/openshmem: barrier,
# reduce, broadcast, collect, fcollect; they call the deprecated active-set forms over every
# PE) from an OMB source tree outside this repository, once with an installed ishmem's
# ishmemcc and once with Open MPI's oshcc, then runs each pair alternately, ishmem first,
# and prints per program a table of medians with ishmem / OSHMEM ratios and the worst one.
#
# usage: benchmarks/run-osu.sh [--rounds N] [--pes N] [--cluster] OMB_DIR PREFIX [OUT_DIR]
#   OMB_DIR    the OMB sources (holding c/openshmem and c/util)
#   PREFIX     where ishmem is installed (cmake --install build --prefix PREFIX)
#   OUT_DIR    the programs and each run's output (default: a temporary directory, removed)
#   --rounds N alternating rounds (default 3); --pes N PEs (default 2, one core each when
#              there are enough cores)
#   --cluster  across the nodes of scripts/cluster (bring it up first: one PE per node),
#              OSHMEM on UCX's TCP transport, ishmem on Open MPI's own choice
# Environment: BENCH_MPIRUN_ARGS  extra mpirun/oshrun arguments.
set -eu
rounds=3 pes=2 cluster=0
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds="${2:?--rounds needs a number}"; shift ;;
    --pes) pes="${2:?--pes needs a number}"; shift ;;
    --cluster) cluster=1 ;;
    -h | --help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    -*) echo "run-osu.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
  shift
done
omb="${1:?usage: run-osu.sh [options] OMB_DIR PREFIX [OUT_DIR]}"
prefix="${2:?usage: run-osu.sh [options] OMB_DIR PREFIX [OUT_DIR]}"
out="${3:-}"
if [ -z "$out" ]; then
  out="$(mktemp -d)"
  trap 'rm -rf "$out"' EXIT
fi
programs=(barrier reduce broadcast collect fcollect)
# shellcheck source=benchmarks/runner.sh
source "$(dirname "$0")/runner.sh"
runner_mpi_env

# OMB's configure writes config.h; these programs need nothing from it.
mkdir -p "$out/util" "$out/ishmem" "$out/oshmem"
cp "$omb"/c/util/osu_util.[ch] "$omb"/c/util/osu_util_pgas.[ch] "$omb"/c/util/osu_util_options.h "$out/util/"
touch "$out/util/config.h"
for p in "${programs[@]}"; do
  for impl in ishmem oshmem; do
    cc="$prefix/bin/ishmemcc"
    [ "$impl" = oshmem ] && cc=oshcc
    "$cc" -O2 -I"$out/util" "$omb/c/openshmem/osu_oshm_$p.c" "$out/util/osu_util_pgas.c" \
      "$out/util/osu_util.c" -o "$out/$impl/$p" -lm
  done
done

launch=() ucx_env=() no_bind=0
if [ "$cluster" -eq 1 ]; then
  launch=("$(cd "$(dirname "$0")/.." && pwd)/scripts/cluster" run)
  ucx_env=(OMPI_MCA_pml=ucx OMPI_MCA_osc=ucx OMPI_MCA_pml_ucx_tls=any OMPI_MCA_pml_ucx_devices=any
    UCX_TLS=tcp,self)
  no_bind=1
fi
runner_bind "$pes"
for r in $(seq 1 "$rounds"); do
  for p in "${programs[@]}"; do
    # Open MPI 4.1's OSHMEM may crash in shmem_finalize after printing its table: the rows
    # count, not the status.
    timeout 600 "${launch[@]}" "$prefix/bin/ishmemrun" -np "$pes" "${bind[@]}" "${extra[@]}" "$out/ishmem/$p" \
      >"$out/ishmem-$p-r$r.txt" 2>&1 || echo "run-osu.sh: ishmem $p failed (round $r)" >&2
    timeout 600 env "${ucx_env[@]}" OMPI_MCA_spml=ucx "${launch[@]}" oshrun -np "$pes" "${bind[@]}" \
      "${extra[@]}" "$out/oshmem/$p" >"$out/oshmem-$p-r$r.txt" 2>&1 || true
  done
done

python3 - "$out" "${programs[@]}" <<'EOF'
import collections, glob, re, statistics, sys
out, programs = sys.argv[1], sys.argv[2:]
for p in programs:
    rows = collections.defaultdict(lambda: collections.defaultdict(list))
    for impl in ("ishmem", "oshmem"):
        for name in glob.glob(f"{out}/{impl}-{p}-r*.txt"):
            for line in open(name):
                m = re.match(r"^\s*(\d+)?\s+([\d.]+)\s*$", line)
                if m:
                    rows[m.group(1) or "-"][impl].append(float(m.group(2)))
    print(f"\n{p}: size (bytes), ishmem µs, OSHMEM µs, ishmem / OSHMEM (medians; rounds)")
    worst = None
    for size in sorted(rows, key=lambda s: -1 if s == "-" else int(s)):
        i, o = rows[size]["ishmem"], rows[size]["oshmem"]
        if not i or not o:
            print(f"{size:>8}  missing: ishmem {len(i)} rounds, OSHMEM {len(o)}")
            continue
        ratio = statistics.median(i) / statistics.median(o)
        worst = ratio if worst is None else max(worst, ratio)
        print(f"{size:>8} {statistics.median(i):10.2f} {statistics.median(o):10.2f} {ratio:8.2f}"
              f"  ({len(i)}/{len(o)})")
    print(f"worst ratio: {worst:.2f}" if worst is not None else "no rows")
EOF
