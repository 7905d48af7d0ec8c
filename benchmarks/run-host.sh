#!/usr/bin/env bash
# Runs the host benchmarks of ishmem and its peers (Open MPI's OSHMEM, MPI one-sided) back to
# back on 2 PEs and prints one comparison table per operation, with ratios, then the
# performance targets (docs/PERFORMANCE.md). Builds nothing: build first with
#   cmake -B build -G Ninja -DISHMEM_GPU=none && cmake --build build
#
# usage: benchmarks/run-host.sh [--quick] [--csv] [--rounds N] [BUILD_DIR]   (default ./build)
#        benchmarks/run-host.sh --from FILE      tables from the output of an earlier --csv run
#   --quick     fewer iterations and one round (well under a minute in all)
#   --rounds N  run every program N times, interleaved, and report the median of the runs
#               (default 3): two runs of one program can differ by 10% on a shared VM
#   --csv       print the figures as CSV (impl,op,size_bytes,latency_us,bandwidth_MBps)
# Environment: BENCH_MPIRUN_ARGS  extra mpirun/oshrun arguments (e.g. "--mca osc sm").
# Exit status: non-zero if an ishmem program fails; peers' failures are reported, not fatal
# (Open MPI 4.1's OSHMEM may crash in shmem_finalize after printing its figures).
set -u
# shellcheck source=benchmarks/runner.sh
source "$(dirname "$0")/runner.sh"
runner_options "$0" "$@"
build="" rounds=""
set -- "${rest[@]}"
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds="${2:?--rounds needs a number}"; shift ;;
    -*) echo "run-host.sh: unknown option $1" >&2; exit 2 ;;
    *) build="$1" ;;
  esac
  shift
done
build="${build:-build}"
bench="$build/benchmarks"
limit=600
[ "$quick" -eq 1 ] && limit=60
rounds="${rounds:-$((quick ? 1 : 3))}"
runner_counts "--rounds" "$rounds"
runner_program_args "" "--csv - --quick" "--csv -"

# run IMPL PROGRAM: runs IMPL-bench-PROGRAM on 2 PEs and appends its rows to $tmp/raw.csv.
run() {
  launch_env=()
  # malloc + free goes up to 1 GiB: ishmem's heap must hold it (peers report what fits).
  [ "$2" = malloc ] && launch_env=(ISHMEM_SYMMETRIC_SIZE=2G)
  runner_launch "$1" "$2" 2 "$limit" "${prog_args[@]}"
  cat "$tmp/rows" >>"$tmp/raw.csv"
}

: >"$tmp/raw.csv"
if ! runner_rows '^[a-z]+,[a-z_]+,[0-9]' "$tmp/raw.csv" "$bench/ishmem-bench-put" "$build"; then
  for ((round = 1; round <= rounds; ++round)); do
    for prog in put get barrier malloc p_pingpong amo; do
      run ishmem "$prog"
      run oshmem "$prog"
      run mpi "$prog"
    done
    # Off-node put and get beside raw MPI one-sided calls, one program (split mode).
    launch_env=(ISHMEM_MAX_LOCAL_PES=1 OMPI_MCA_osc=^ucx)
    runner_launch ishmem offnode 2 "$limit" "${prog_args[@]}"
    cat "$tmp/rows" >>"$tmp/raw.csv"
  done
fi
# One row per (impl, op, size): the median over the rounds, in first-seen order.
runner_summarize 3 "impl,op,size_bytes,latency_us,bandwidth_MBps"

awk -F, -v quick="$quick" -v rounds="$([ -n "$from" ] && echo 1 || echo "$rounds")" '
  # The memcpy reference (measured by ishmem-bench-put in the same process) is a peer of put.
  { impl = $1; op = $2
    if (op == "memcpy") { impl = "memcpy"; op = "put" }
    if (op ~ /^offnode_mpi_/) { impl = "mpi_raw"; sub(/_mpi/, "", op) }
    key = impl SUBSEP op SUBSEP $3
    lat[key] = $4; bw[key] = $5; have[impl, op] = 1
    if (!((op, $3) in seen)) { seen[op, $3] = 1; sizes[op] = sizes[op] " " $3 } }
  function ratio(a, b) { return (a == "" || b == "" || b + 0 == 0) ? "-" : sprintf("%.2f", a / b) }
  function table(op, kind, title, peers,   n, p, s, i, k, line, v, mine) {
    n = split(peers, p, " ")
    printf "\n== %s\n%10s %12s", title, "size(B)", "ishmem"
    for (i = 1; i <= n; ++i) if (have[p[i], op]) printf " %12s %6s", p[i], "ratio"
    printf "\n"
    split(substr(sizes[op], 2), s, " ")
    for (k = 1; k in s; ++k) {
      mine = kind == "lat" ? lat["ishmem", op, s[k]] : bw["ishmem", op, s[k]]
      line = sprintf("%10s %12s", s[k], mine == "" ? "-" : mine)
      for (i = 1; i <= n; ++i) {
        if (!have[p[i], op]) continue
        v = kind == "lat" ? lat[p[i], op, s[k]] : bw[p[i], op, s[k]]
        line = line sprintf(" %12s %6s", v == "" ? "-" : v, ratio(mine, v))
      }
      print line
    }
  }
  function rnum(a, b) { return (a == "" || b == "" || b + 0 == 0) ? "" : a / b }
  function target(what, r, ok, goal,   verdict) {
    verdict = r == "" ? "n/a" : (ok ? "PASS" : "FAIL")
    printf "%-46s %7s  %-4s (goal %s)\n", what, r == "" ? "-" : sprintf("%.3f", r), verdict, goal
  }
  END {
    print "ishmem vs peers on 2 PEs" (quick ? " (--quick)" : "") "; figures are medians" \
      (rounds > 1 ? " over " rounds " runs of each program" : "") ";"
    print "ratio = ishmem / peer: below 1 is faster for latency, above 1 is faster for bandwidth"
    table("put", "lat", "put latency (us): putmem + quiet", "oshmem mpi memcpy")
    table("put", "bw", "put bandwidth (MB/s): putmem_nbi x window + quiet", "oshmem mpi memcpy")
    table("get", "lat", "get latency (us): getmem", "oshmem mpi")
    table("get", "bw", "get bandwidth (MB/s): getmem_nbi x window + quiet", "oshmem mpi")
    table("barrier", "lat", "barrier_all latency (us) (mpi: MPI_Barrier)", "oshmem mpi")
    table("malloc", "lat", "malloc + free latency (us)", "oshmem")
    table("p_pingpong", "lat", "long_p ping-pong, one-way latency (us)", "oshmem")
    table("fetch_add", "lat", "long atomic_fetch_add latency (us)", "oshmem")
    table("compare_swap", "lat", "long atomic_compare_swap latency (us)", "oshmem")
    table("swap", "lat", "long atomic_swap latency (us)", "oshmem")
    table("offnode_put", "lat", "off-node putmem + quiet latency (us), split mode " \
          "(mpi_raw: MPI_Put + MPI_Win_flush, same run)", "mpi_raw")
    table("offnode_put", "bw", "off-node put bandwidth (MB/s): putmem_nbi x window + quiet " \
          "(mpi_raw: MPI_Put x window + MPI_Win_flush)", "mpi_raw")
    table("offnode_get", "lat", "off-node getmem latency (us) (mpi_raw: MPI_Get + MPI_Win_flush)",
          "mpi_raw")
    table("offnode_get", "bw", "off-node get bandwidth (MB/s): getmem_nbi x window + quiet " \
          "(mpi_raw: MPI_Get x window + MPI_Win_flush)", "mpi_raw")
    table("signal_pingpong", "lat",
          "putmem_signal ping-pong, one-way latency (us) (no OSHMEM peer: 1.5 call)", "oshmem")

    print "\n== targets"
    r = rnum(lat["ishmem", "put", 8], lat["oshmem", "put", 8])
    target("put + quiet 8 B, ishmem / oshmem", r, r != "" && r <= 0.5, "<= 0.5")
    r = rnum(lat["ishmem", "barrier", 0], lat["mpi", "barrier", 0])
    target("barrier_all, ishmem / MPI_Barrier", r, r != "" && r <= 0.5, "<= 0.5")
    r = rnum(lat["ishmem", "malloc", 1048576], lat["oshmem", "malloc", 1048576])
    target("malloc + free 1 MiB, ishmem / oshmem", r, r != "" && r <= 1, "<= 1.0")
    worst = ""
    split(substr(sizes["malloc"], 2), s, " ")
    for (k = 1; k in s; ++k) {
      if (s[k] + 0 <= 1048576) continue
      r = rnum(lat["ishmem", "malloc", s[k]], lat["ishmem", "malloc", 1048576])
      if (r != "" && (worst == "" || r > worst)) worst = r
    }
    target("malloc + free > 1 MiB, worst / 1 MiB", worst, worst != "" && worst <= 2, "<= 2.0")
    r = rnum(lat["ishmem", "fetch_add", 8], lat["oshmem", "fetch_add", 8])
    target("atomic_fetch_add, ishmem / oshmem", r, r != "" && r <= 1, "<= 1.0")
    r = rnum(lat["ishmem", "p_pingpong", 8], lat["oshmem", "p_pingpong", 8])
    target("p ping-pong one way, ishmem / oshmem", r, r != "" && r <= 1, "<= 1.0")
    worst = ""
    split(substr(sizes["put"], 2), s, " ")
    for (k = 1; k in s; ++k) {
      if (s[k] + 0 < 1048576) continue
      r = rnum(bw["ishmem", "put", s[k]], bw["memcpy", "put", s[k]])
      if (r != "" && (worst == "" || r < worst)) worst = r
    }
    target("put bandwidth >= 1 MiB, worst ishmem / memcpy", worst, worst != "" && worst >= 0.9,
           ">= 0.9")
    lat_worst = bw_worst = ""
    split(substr(sizes["offnode_put"], 2), s, " ")
    for (k = 1; k in s; ++k) {
      r = rnum(lat["ishmem", "offnode_put", s[k]], lat["mpi_raw", "offnode_put", s[k]])
      if (s[k] + 0 <= 1048576 && r != "" && (lat_worst == "" || r > lat_worst)) lat_worst = r
      r = rnum(bw["ishmem", "offnode_put", s[k]], bw["mpi_raw", "offnode_put", s[k]])
      if (r != "" && (bw_worst == "" || r < bw_worst)) bw_worst = r
    }
    target("off-node put + quiet 8 B-1 MiB, worst / MPI", lat_worst,
           lat_worst != "" && lat_worst <= 1.1, "<= 1.1")
    target("off-node put bandwidth, worst ishmem / MPI", bw_worst,
           bw_worst != "" && bw_worst >= 0.9, ">= 0.9")
  }' "$tmp/all.csv"
runner_end
