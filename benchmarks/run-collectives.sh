#!/usr/bin/env bash
# Runs the collective benchmarks of ishmem and its peers (Open MPI's OSHMEM; MPI's
# MPI_Barrier, MPI_Allreduce, MPI_Bcast, MPI_Allgather, MPI_Alltoall) side by side at several
# PE counts, interleaved, and prints one table per collective and PE count with the ratios,
# then the targets of docs/PERFORMANCE.md. Builds nothing: build first with
#   cmake -B build -G Ninja -DISHMEM_GPU=none && cmake --build build
#
# usage: benchmarks/run-collectives.sh [OPTIONS] [BUILD_DIR [PES...]]   (default build 2 4)
#        benchmarks/run-collectives.sh --from FILE   tables from the output of an earlier --csv
#   --rounds N  run every program N times at every PE count, interleaved (ishmem, OSHMEM,
#               MPI, then the next PE count), and report the median of the runs (default 3)
#   --quick     one round, fewer iterations, sizes up to 64 KiB (about a minute)
#   --csv       print the figures as CSV (pes,impl,op,size_bytes,latency_us,bandwidth_MBps)
#   --split K   split mode for ishmem: ISHMEM_MAX_LOCAL_PES=K (groups of K consecutive PEs
#               are separate "nodes", so WORLD's collectives run hierarchically: node memory
#               inside a group, MPI between the groups' first PEs; docs/MULTI_NODE.md), with
#               OMPI_MCA_osc=^ucx. The peers run as always: MPI's collectives see one node.
# Environment: COLL_ARGS  arguments for the programs (default "--iters 1000 --reps 5
#              --max-size 4M"; --quick: "--iters 200 --reps 3 --max-size 64K");
#              BENCH_MPIRUN_ARGS  extra mpirun/oshrun arguments.
# PEs are bound one to a core where there are enough cores; beyond that they run unbound, and
# with Open MPI's mpi_yield_when_idle=1 for every implementation (unless set).
# Exit status: non-zero if an ishmem program is missing or fails.
set -u
# shellcheck source=benchmarks/runner.sh
source "$(dirname "$0")/runner.sh"
runner_options "$0" "$@"
build="" rounds="" split="" pes=()
set -- "${rest[@]}"
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds="${2:?--rounds needs a number}"; shift ;;
    --split) split="${2:?--split needs a group size}"; shift ;;
    -*) echo "run-collectives.sh: unknown option $1" >&2; exit 2 ;;
    *) if [ -z "$build" ]; then build="$1"; else pes+=("$1"); fi ;;
  esac
  shift
done
build="${build:-build}"
bench="$build/benchmarks"
[ ${#pes[@]} -gt 0 ] || pes=(2 4)
rounds="${rounds:-$((quick ? 1 : 3))}"
runner_counts "PE count" "${pes[@]}"
runner_counts "--rounds" "$rounds"
[ -z "$split" ] || runner_counts "--split" "$split"
runner_program_args "${COLL_ARGS:-}" "--iters 200 --reps 3 --max-size 64K" \
  "--iters 1000 --reps 5 --max-size 4M"
cores="$(nproc 2>/dev/null || echo 1)"
launch_env=()
: >"$tmp/raw.csv"
if ! runner_rows '^[0-9]+,[a-z]+,[a-z_]+,[0-9]' "$tmp/raw.csv" "$bench/mpi-bench-collectives" \
  "$build"; then
  load_before="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
  for ((round = 1; round <= rounds; ++round)); do
    for n in "${pes[@]}"; do
      launch_env=()
      [ "$n" -gt "$cores" ] && launch_env=("OMPI_MCA_mpi_yield_when_idle=${OMPI_MCA_mpi_yield_when_idle:-1}")
      for impl in ishmem oshmem mpi; do
        base_env=("${launch_env[@]}")
        [ -n "$split" ] && [ "$impl" = ishmem ] &&
          launch_env+=("ISHMEM_MAX_LOCAL_PES=$split" "OMPI_MCA_osc=^ucx")
        runner_launch "$impl" collectives "$n" 900 --csv - "${prog_args[@]}" &&
          sed "s/^/$n,/" "$tmp/rows" >>"$tmp/raw.csv"
        launch_env=("${base_env[@]}")
      done
    done
  done
fi
# One row per (PEs, impl, op, size): the median over the rounds.
runner_summarize 4 "pes,impl,op,size_bytes,latency_us,bandwidth_MBps"

if [ -z "$from" ]; then
  echo "collectives on $(hostname): $cores cores ($(grep -m1 'model name' /proc/cpuinfo 2>/dev/null |
    sed 's/.*: //')), $(git -C "$(dirname "$0")" rev-parse --short HEAD 2>/dev/null || echo '?')"
  [ -z "$split" ] || echo "split mode: ishmem with ISHMEM_MAX_LOCAL_PES=$split (groups of $split PEs as nodes)"
  echo "program arguments: ${prog_args[*]}; $rounds round(s); load average before:" \
    "$load_before, after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
else
  echo "collectives, from $from"
fi

awk -F, -v rounds="$rounds" '
  { key = $1 SUBSEP $2 SUBSEP $3 SUBSEP $4
    lat[key] = $5; have[$1, $2, $3] = 1
    if (!($1 in pseen)) { pseen[$1] = 1; plist[++np] = $1 }
    if (!(($1, $3, $4) in seen)) { seen[$1, $3, $4] = 1; sizes[$1, $3] = sizes[$1, $3] " " $4 } }
  function ratio(a, b) { return (a == "" || b == "" || b + 0 == 0) ? "-" : sprintf("%.2f", a / b) }
  function table(p, op, title,   s, k, i, line, v, mine, peer) {
    if (!have[p, "ishmem", op] && !have[p, "mpi", op] && !have[p, "oshmem", op]) return
    printf "\n== %d PEs: %s, time per call (us)\n%10s %11s", p, title, "size(B)", "ishmem"
    split("oshmem mpi", peer, " ")
    for (i = 1; i <= 2; ++i) if (have[p, peer[i], op]) printf " %11s %6s", peer[i], "ratio"
    printf "\n"
    split(substr(sizes[p, op], 2), s, " ")
    for (k = 1; k in s; ++k) {
      mine = lat[p, "ishmem", op, s[k]]
      line = sprintf("%10s %11s", s[k], mine == "" ? "-" : mine)
      for (i = 1; i <= 2; ++i) {
        if (!have[p, peer[i], op]) continue
        v = lat[p, peer[i], op, s[k]]
        line = line sprintf(" %11s %6s", v == "" ? "-" : v, ratio(mine, v))
      }
      print line
    }
  }
  # The worst ishmem / MPI ratio of op at p PEs over sizes lo..hi, and where it is.
  function worst(p, op, lo, hi, goal, what,   s, k, r, w, at, a, b) {
    split(substr(sizes[p, op], 2), s, " ")
    w = ""
    for (k = 1; k in s; ++k) {
      if (s[k] + 0 < lo || s[k] + 0 > hi) continue
      a = lat[p, "ishmem", op, s[k]]; b = lat[p, "mpi", op, s[k]]
      if (a == "" || b == "" || b + 0 == 0) continue
      r = a / b
      if (w == "" || r > w) { w = r; at = s[k] }
    }
    printf "%d PEs  %-40s %7s  %-4s (goal <= %s%s)\n", p, what, w == "" ? "-" : sprintf("%.3f", w),
      w == "" ? "n/a" : (w <= goal ? "PASS" : "FAIL"), goal, w == "" || op ~ /barrier|sync/ ? "" : "; worst at " at " B"
  }
  END {
    print "figures: medians" (rounds > 1 ? " over " rounds " runs of each program" : "") \
      " of each run'"'"'s median time per call, slowest PE;"
    print "ratio = ishmem / peer: below 1 is faster"
    for (i = 1; i <= np; ++i) {
      p = plist[i]
      table(p, "barrier_all", "barrier_all (MPI: MPI_Barrier)")
      table(p, "sync", "team_sync (OSHMEM: sync_all; MPI: MPI_Barrier)")
      table(p, "reduce_long", "long sum-reduce (MPI_Allreduce)")
      table(p, "reduce_double", "double sum-reduce (MPI_Allreduce)")
      table(p, "broadcast", "broadcast, root 0 (MPI_Bcast)")
      table(p, "fcollect", "fcollect, size per PE (MPI_Allgather)")
      table(p, "alltoall", "alltoall, size per PE pair (MPI_Alltoall)")
    }
    print "\n== targets: worst ishmem / MPI over the sizes"
    for (i = 1; i <= np; ++i) {
      p = plist[i]
      worst(p, "reduce_long", 8, 65536, "1.0", "long sum-reduce 8 B - 64 KiB")
      worst(p, "reduce_double", 8, 65536, "1.0", "double sum-reduce 8 B - 64 KiB")
      worst(p, "barrier_all", 0, 0, "0.5", "barrier_all / MPI_Barrier")
      worst(p, "sync", 0, 0, "0.5", "team_sync / MPI_Barrier")
      worst(p, "broadcast", 0, 2^53, "1.0", "broadcast, every size")
      worst(p, "fcollect", 0, 2^53, "1.0", "fcollect, every size")
    }
  }' "$tmp/all.csv"
runner_end
