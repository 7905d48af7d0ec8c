#!/usr/bin/env bash
# Runs the host benchmarks across two nodes of a cluster on this machine (scripts/cluster: 2
# namespace nodes, one PE on each, joined by TCP only), ishmem beside its peers in alternating
# rounds: Open MPI's OSHMEM (spml ucx), MPI itself (MPI_Put/MPI_Get + MPI_Win_flush,
# MPI_Barrier, MPI_Allreduce) and the link (ucx_perftest over TCP: tag_lat, tag_bw). Prints
# one table per operation with ratios, then the targets (docs/PERFORMANCE.md). Brings its own
# cluster up and down: nothing else may use scripts/cluster meanwhile. Build first with
#   cmake -B build -G Ninja -DISHMEM_GPU=none && cmake --build build
#
# usage: benchmarks/run-cluster.sh [--quick] [--csv] [--rounds N] [--transport T] [BUILD_DIR]
#        benchmarks/run-cluster.sh --from FILE     tables from the output of an earlier --csv run
#   --transport ob1|ucx  the MPI transport of ishmem and MPI (default ob1: Open MPI's own
#               choice on TCP; ucx: pml and osc ucx on UCX's TCP transport). OSHMEM always
#               runs on UCX; raw MPI one-sided calls need osc pt2pt under ob1.
#   --quick, --rounds N (default 3), --csv: as in run-host.sh
set -u
# shellcheck source=benchmarks/runner.sh
source "$(dirname "$0")/runner.sh"
runner_options "$0" "$@"
build="" rounds="" transport=ob1
set -- "${rest[@]}"
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds="${2:?--rounds needs a number}"; shift ;;
    --transport) transport="${2:?--transport needs ob1 or ucx}"; shift ;;
    -*) echo "run-cluster.sh: unknown option $1" >&2; exit 2 ;;
    *) build="$1" ;;
  esac
  shift
done
case "$transport" in ob1 | ucx) ;; *) echo "run-cluster.sh: --transport ob1 or ucx" >&2; exit 2 ;; esac
build="${build:-build}"
bench="$build/benchmarks"
cluster="$(cd "$(dirname "$0")/.." && pwd)/scripts/cluster"
limit=300
[ "$quick" -eq 1 ] && limit=60
rounds="${rounds:-$((quick ? 1 : 3))}"
runner_counts "--rounds" "$rounds"
runner_program_args "" "--csv - --quick" "--csv -"

# UCX's TCP transport must be named for Open MPI 4.1 to take UCX at all.
ucx_env=(OMPI_MCA_pml=ucx OMPI_MCA_osc=ucx OMPI_MCA_pml_ucx_tls=any OMPI_MCA_pml_ucx_devices=any)
mpi_env=()
[ "$transport" = ucx ] && mpi_env=("${ucx_env[@]}")
oshmem_env=("${ucx_env[@]}" OMPI_MCA_spml=ucx)
no_bind=1 launch_prefix=("$cluster" run)

# run IMPL PROGRAM [ARGS...]: IMPL-bench-PROGRAM on the 2 nodes, rows to $tmp/raw.csv.
run() {
  local impl=$1 prog=$2
  shift 2
  case "$impl" in
    ishmem) launch_env=("${mpi_env[@]}") ;;
    mpi) launch_env=("${mpi_env[@]}") && [ "$transport" = ob1 ] && launch_env+=(OMPI_MCA_osc=pt2pt) ;;
    oshmem) launch_env=("${oshmem_env[@]}" UCX_TLS=tcp,self) ;;
  esac
  runner_launch "$impl" "$prog" 2 "$limit" "${prog_args[@]}" "$@"
  cat "$tmp/rows" >>"$tmp/raw.csv"
}

# link OP SIZE TEST: ucx_perftest TEST of SIZE bytes from node0 to node1 over TCP, as a row
# "link,OP,SIZE,one-way latency,bandwidth" (median latency; average bandwidth).
link() {
  local n=20000
  [ "$2" -ge 65536 ] && n=$((2000 * 65536 / $2 + 20))
  [ "$quick" -eq 1 ] && n=$((n / 10 + 10))
  "$cluster" exec 1 env UCX_TLS=tcp timeout "$limit" ucx_perftest -t "$3" -s "$2" -n "$n" \
    >/dev/null 2>&1 &
  local server=$! i out=""
  for i in 1 2 3 4 5; do  # until the server listens
    sleep 0.5
    out=$("$cluster" exec 0 env UCX_TLS=tcp timeout "$limit" ucx_perftest 10.77.0.2 -t "$3" \
      -s "$2" -n "$n" 2>/dev/null) && break
  done
  wait "$server" 2>/dev/null
  awk -v op="$1" -v size="$2" '/^Final:/ { printf "link,%s,%s,%s,%s\n", op, size, $3, $6 }' \
    <<<"$out" >>"$tmp/raw.csv"
}

: >"$tmp/raw.csv"
if ! runner_rows '^[a-z]+,[a-z_]+,[0-9]' "$tmp/raw.csv" "$bench/ishmem-bench-put" "$build"; then
  command -v ucx_perftest >/dev/null || notes+=("no ucx_perftest (ucx-utils): no link rows")
  ISHMEM_CLUSTER_SLOTS=1 "$cluster" up 2 >/dev/null || exit 2
  trap '"$cluster" down; rm -rf "$tmp"' EXIT
  for ((round = 1; round <= rounds; ++round)); do
    for prog in p_pingpong amo put get barrier; do
      for impl in ishmem oshmem mpi; do run "$impl" "$prog"; done
    done
    for impl in ishmem oshmem mpi; do
      run "$impl" collectives --op reduce_long --min-size 8 --max-size 8
    done
    if command -v ucx_perftest >/dev/null; then
      link put 8 tag_lat
      for size in 65536 1048576 16777216; do link put "$size" tag_bw; done
    fi
  done
fi
runner_summarize 3 "impl,op,size_bytes,latency_us,bandwidth_MBps"

awk -F, -v quick="$quick" -v transport="$transport" -v rounds="$([ -n "$from" ] && echo 1 || echo "$rounds")" '
  { impl = $1; op = $2; key = impl SUBSEP op SUBSEP $3
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
      if (mine == "") continue
      line = sprintf("%10s %12s", s[k], mine)
      for (i = 1; i <= n; ++i) {
        if (!have[p[i], op]) continue
        v = kind == "lat" ? lat[p[i], op, s[k]] : bw[p[i], op, s[k]]
        line = line sprintf(" %12s %6s", v == "" ? "-" : v, ratio(mine, v))
      }
      print line
    }
  }
  function rnum(a, b) { return (a == "" || b == "" || b + 0 == 0) ? "" : a / b }
  function target(what, r, ok, goal) {
    printf "%-50s %7s  %-4s (goal %s)\n", what, r == "" ? "-" : sprintf("%.3f", r),
      r == "" ? "n/a" : (ok ? "PASS" : "FAIL"), goal
  }
  # The best peer bandwidth of OP at SIZE (0 if none).
  function best(op, size,   b, i, n, p) {
    n = split("oshmem mpi link", p, " ")
    for (i = 1; i <= n; ++i) if (bw[p[i], op, size] + 0 > b) b = bw[p[i], op, size] + 0
    return b
  }
  END {
    print "ishmem vs peers across 2 namespace nodes, 1 PE each, ishmem and MPI over " transport \
      (quick ? " (--quick)" : "") "; medians" (rounds > 1 ? " over " rounds " runs" : "") ";"
    print "ratio = ishmem / peer: below 1 is faster for latency, above 1 is faster for bandwidth"
    table("p_pingpong", "lat", "long_p ping-pong, one-way latency (us)", "oshmem")
    table("put", "lat", "put latency (us): putmem + quiet (link: tag_lat one way)", "oshmem mpi link")
    table("put", "bw", "put bandwidth (MB/s): putmem_nbi x window + quiet (link: tag_bw)",
          "oshmem mpi link")
    table("get", "lat", "get latency (us): getmem", "oshmem mpi")
    table("get", "bw", "get bandwidth (MB/s): getmem_nbi x window + quiet", "oshmem mpi")
    table("fetch_add", "lat", "long atomic_fetch_add latency (us)", "oshmem")
    table("barrier", "lat", "barrier_all latency (us) (mpi: MPI_Barrier)", "oshmem mpi")
    table("reduce_long", "lat", "long sum-reduce 8 B latency (us) (mpi: MPI_Allreduce)",
          "oshmem mpi")

    print "\n== targets"
    r = rnum(lat["ishmem", "p_pingpong", 8], lat["oshmem", "p_pingpong", 8])
    target("p ping-pong one way, ishmem / oshmem", r, r != "" && r <= 1, "<= 1.0")
    r = rnum(lat["ishmem", "put", 8], lat["oshmem", "put", 8])
    target("put + quiet 8 B, ishmem / oshmem", r, r != "" && r <= 1, "<= 1.0")
    r = rnum(lat["ishmem", "put", 8], lat["mpi", "put", 8])
    target("put + quiet 8 B, ishmem / MPI_Put + flush", r, r != "" && r <= 1.1, "<= 1.1")
    for (o = 1; o <= 2; ++o) {
      op = o == 1 ? "put" : "get"; worst = ""
      split(substr(sizes[op], 2), s, " ")
      for (k = 1; k in s; ++k) {
        if (s[k] + 0 < 65536 || s[k] + 0 > 16777216 || best(op, s[k]) == 0) continue
        r = rnum(bw["ishmem", op, s[k]], best(op, s[k]))
        if (r != "" && (worst == "" || r < worst)) worst = r
      }
      target(op " bandwidth 64 KiB-16 MiB, worst / best peer", worst, worst != "" && worst >= 0.9,
             ">= 0.9")
    }
    r = rnum(lat["ishmem", "fetch_add", 8], lat["oshmem", "fetch_add", 8])
    target("atomic_fetch_add, ishmem / oshmem", r, r != "" && r <= 1, "<= 1.0")
    r = rnum(lat["ishmem", "barrier", 0], lat["mpi", "barrier", 0])
    target("barrier_all, ishmem / MPI_Barrier", r, r != "" && r <= 1, "<= 1.0")
    r = rnum(lat["ishmem", "reduce_long", 8], lat["mpi", "reduce_long", 8])
    target("sum-reduce 8 B, ishmem / MPI_Allreduce", r, r != "" && r <= 1, "<= 1.0")
  }' "$tmp/all.csv"
runner_end
