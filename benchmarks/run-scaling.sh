#!/usr/bin/env bash
# Runs ishmem-bench-scaling at several node-local PE counts (or cluster node counts, --nodes),
# several launches each, and prints one table per cost by PE count: the median over launches,
# its ratio to the 2-PE figure (else the fewest PEs'), the ratio linear growth would give, and
# the growth exponent (1 = linear, 2 = quadratic); then
# the targets of docs/PERFORMANCE.md. Builds nothing: build first with
#   cmake -B build -G Ninja -DISHMEM_GPU=none && cmake --build build
# The program takes whatever backend ISHMEM_BACKEND gives (a CUDA build measures GPU heaps).
#
# usage: benchmarks/run-scaling.sh [OPTIONS] [BUILD_DIR [PES...]]   (defaults: build 1 2 4 8)
#        benchmarks/run-scaling.sh --from FILE      tables from the rows of an earlier run
#   --launches N  launches per PE count (default 9, --quick 3); every figure is the median
#                 over launches of each launch's own median
#   --quick       fewer iterations and launches (about a minute on 2 cores)
#   --csv         print every launch's rows as CSV instead of the tables
#   --save FILE   also write every launch's rows to FILE (for --from)
#   --nodes       the counts are nodes of a cluster on this machine (scripts/cluster), 2 PEs
#                 on each, brought up for each count and down after it; nothing else may use
#                 scripts/cluster meanwhile (defaults: 2 4 8 nodes)
# Environment: SCALING_ARGS  arguments for the program (default "--iters 3000 --reps 5");
#              BENCH_MPIRUN_ARGS  extra mpirun arguments.
# Each PE count runs --bind-to none and with Open MPI's mpi_yield_when_idle=1 (unless set):
# with more PEs than cores, MPI's busy polling would otherwise hold a core for a whole time
# slice at every collective of ishmem_init. Exit status: non-zero if a launch fails.
set -u
# shellcheck source=benchmarks/runner.sh
source "$(dirname "$0")/runner.sh"
runner_options "$0" "$@"
launches="" save="" build="" pes=() nodes=0
set -- "${rest[@]}"
while [ $# -gt 0 ]; do
  case "$1" in
    --launches) launches="${2:?--launches needs a number}"; shift ;;
    --save) save="${2:?--save needs a file}"; shift ;;
    --nodes) nodes=1 ;;
    -*) echo "run-scaling.sh: unknown option $1" >&2; exit 2 ;;
    *) if [ -z "$build" ]; then build="$1"; else pes+=("$1"); fi ;;
  esac
  shift
done
build="${build:-build}"
[ ${#pes[@]} -gt 0 ] || { [ "$nodes" -eq 1 ] && pes=(2 4 8); } || pes=(1 2 4 8)
cluster="$(cd "$(dirname "$0")/.." && pwd)/scripts/cluster"
[ "$nodes" -eq 1 ] && trap '"$cluster" down; rm -rf "$tmp"' EXIT
runner_counts "PE count" "${pes[@]}"
launches="${launches:-$([ "$quick" -eq 1 ] && echo 3 || echo 9)}"
runner_program_args "${SCALING_ARGS:-}" "--iters 500 --reps 3" "--iters 3000 --reps 5"
exe="$build/benchmarks/ishmem-bench-scaling"
: >"$tmp/all.csv"
cores="$(nproc 2>/dev/null || echo '?')"
load_before="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"

if ! runner_rows '^ishmem,[a-z]+,[a-z_]+,[0-9]' "$tmp/all.csv" "$exe" "$build"; then
  export PRTE_MCA_rmaps_default_mapping_policy="${PRTE_MCA_rmaps_default_mapping_policy:-:oversubscribe}"
  export OMPI_MCA_mpi_yield_when_idle="${OMPI_MCA_mpi_yield_when_idle:-1}"
  for count in "${pes[@]}"; do
    n=$count prefix=()
    if [ "$nodes" -eq 1 ]; then
      ISHMEM_CLUSTER_SLOTS=2 "$cluster" up "$count" >/dev/null || exit 1
      n=$((2 * count)) prefix=("$cluster" run)
    fi
    for ((l = 1; l <= launches; ++l)); do
      timeout 300 "${prefix[@]}" mpirun -np "$n" --bind-to none "${extra[@]}" "$exe" --csv - \
        "${prog_args[@]}" >"$tmp/out" 2>"$tmp/err"
      rc=$?
      # bench_out.h's columns to this script's: impl,backend,op,pes,size,latency,bandwidth,count
      grep -E '^ishmem,' "$tmp/out" | awk -F, -v OFS=, '{ print $1, $9, $2, $7, $3, $4, $5, $8 }' \
        >>"$tmp/all.csv"
      if [ "$rc" -ne 0 ]; then
        status=1
        { echo "== $n PEs, launch $l failed (exit $rc):"; tail -n 20 "$tmp/err"; } >&2
      fi
    done
  done
fi
[ -n "$save" ] && cp "$tmp/all.csv" "$save"

if [ "$csv" -eq 1 ]; then
  echo "impl,backend,op,pes,size_bytes,latency_us,bandwidth_MBps,count"
  cat "$tmp/all.csv"
  exit "$status"
fi

if [ -z "$from" ]; then
  echo "ishmem scaling with $([ "$nodes" -eq 1 ] && echo "PEs on cluster nodes of 2" || echo "node-local PEs") on $(hostname): $cores cores" \
    "($(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //'))," \
    "$(git -C "$(dirname "$0")" rev-parse --short HEAD 2>/dev/null || echo '?')"
  echo "$launches launches per PE count, program arguments: ${prog_args[*]};" \
    "load average before: $load_before, after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
  echo "$([ "$nodes" -eq 1 ] && echo "scripts/cluster run ")mpirun -np N --bind-to none, OMPI_MCA_mpi_yield_when_idle=$OMPI_MCA_mpi_yield_when_idle"
else
  echo "ishmem scaling with node-local PEs, from $from"
fi

awk -F, -v cores="$cores" '
  function median(list,   v, n, i, j, t) {
    n = split(substr(list, 2), v, " ")
    for (i = 2; i <= n; ++i) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; --j) {
      t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
    return n == 0 ? "" : (n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2)
  }
  { backend = $2; op = $3; n = $4 + 0; size = $5
    if (op == "fds_mpi") ++launch # the first row of every launch
    if (op == "cpus") cores = $8 # the machine the rows come from
    if (op == "barrier") bar[launch] = $6
    if (op == "malloc_reuse" && bar[launch] != "" && bar[launch] + 0 > 0)
      reuse_ratio[n] = reuse_ratio[n] " " $6 / bar[launch]
    key = op SUBSEP n SUBSEP size
    if ($6 != "") lat[key] = lat[key] " " $6
    if ($7 != "") bw[key] = bw[key] " " $7
    if ($8 != "") cnt[key] = cnt[key] " " $8
    if (!(n in seen)) { seen[n] = 1; npes[++npe] = n }
    if (!(size in sizeseen) && op == "alltoall_put") { sizeseen[size] = 1; sizes[++nsize] = size } }
  function get(kind, op, n, size,   k) {
    k = op SUBSEP n SUBSEP size
    return median(kind == "lat" ? lat[k] : kind == "bw" ? bw[k] : cnt[k])
  }
  function fmt(v) { return v == "" ? "-" : (v + 0 >= 1000 ? sprintf("%.0f", v) : sprintf("%.3g", v)) }
  function expo(v, base, n, m) {
    return (v == "" || base == "" || v <= 0 || base <= 0 || n == m) ? "" : log(v / base) / log(n / m)
  }
  # A table of one figure by PE count: value, ratio to the 2-PE value, linear ratio, exponent
  # against 2 PEs and against the previous PE count.
  function table(title, kind, op, size, ideal,   i, n, v, base, prev, r, e, st) {
    printf "\n== %s\n%5s %12s %10s %8s %9s %6s\n", title, "PEs", "median", "ratio/" first "PE", ideal,
      "exponent", "step"
    base = get(kind, op, first, size); prev = ""
    for (i = 1; i <= npe; ++i) {
      n = npes[i]; v = get(kind, op, n, size)
      r = (v == "" || base == "" || base + 0 == 0) ? "" : v / base
      e = n == first ? "" : expo(v, base, n, first)
      st = i == 1 ? "" : expo(v, prev, n, npes[i - 1])
      printf "%5d %12s %10s %8s %9s %6s%s\n", n, fmt(v), r == "" ? "-" : sprintf("%.2f", r),
        ideal == "linear" ? sprintf("%.2f", n / first) : "1.00", e == "" ? "-" : sprintf("%.2f", e),
        st == "" ? "-" : sprintf("%.2f", st), (cores != "?" && n > cores + 0) ? "  (time-shared)" : ""
      if (n > first && e != "" && (!((op, size) in worst) || e > worst[op, size])) worst[op, size] = e
      if (n > 2 && st != "" && npes[i - 1] >= 2 && (!((op, size) in wstep) || st > wstep[op, size]))
        wstep[op, size] = st
      prev = v
    }
  }
  function target(what, ok, detail) {
    printf "%-62s %-4s %s\n", what, ok == "" ? "n/a" : (ok ? "PASS" : "FAIL"), detail
  }
  BEGIN { npe = 0; nsize = 0 }
  END {
    # PE counts in increasing order.
    for (i = 2; i <= npe; ++i) for (j = i; j > 1 && npes[j - 1] > npes[j]; --j) {
      t = npes[j]; npes[j] = npes[j - 1]; npes[j - 1] = t }
    print "backend: " backend "; times in microseconds (slowest PE), bandwidths in MB/s;"
    first = (2 in seen) ? 2 : npes[1] # the base of the ratios: 2 PEs, else the fewest
    print "exponent: log(value / " first "-PE value) / log(PEs / " first "); 1 is linear growth, 2 quadratic;"
    print "step: the same against the previous PE count"
    table("ishmem_init, first in the process (us)", "lat", "init_first", 0, "linear")
    table("ishmem_init after ishmem_finalize (us)", "lat", "init", 0, "linear")
    table("ishmem_finalize (us)", "lat", "finalize", 0, "linear")
    table("ishmem_malloc 2 MiB growing the heap: fd exchange with every peer (us)", "lat", "malloc_grow", 2097152, "linear")
    table("ishmem_free 2 MiB trimming the heap (us)", "lat", "free_trim", 2097152, "linear")
    table("ishmem_malloc 2 MiB reused, within the committed heap (us)", "lat", "malloc_reuse", 2097152, "linear")
    table("ishmem_barrier_all (us)", "lat", "barrier", 0, "linear")
    table("ishmem_long_sum_reduce of 8 B over the world (us)", "lat", "reduce8", 8, "linear")

    printf "\n== reused malloc against one barrier (measured interleaved; ratio: median over launches)\n"
    printf "%5s %12s %12s %8s\n", "PEs", "malloc(us)", "barrier(us)", "ratio"
    reuse_ok = ""
    for (i = 1; i <= npe; ++i) {
      n = npes[i]; m = get("lat", "malloc_reuse", n, 2097152); b = get("lat", "barrier", n, 0)
      r = median(reuse_ratio[n])
      printf "%5d %12s %12s %8s\n", n, fmt(m), fmt(b), r == "" ? "-" : sprintf("%.2f", r)
      if (n >= 2 && r != "") { ok = r <= 1.5; reuse_ok = reuse_ok == "" ? ok : reuse_ok && ok
        reuse_detail = reuse_detail sprintf(" %d:%.2f", n, r) }
    }

    printf "\n== open fds per process (most over PEs)\n%5s %6s %11s %15s %14s %14s\n", "PEs", "MPI", "after init", "32 growths held", "added by init", "after finalize"
    fds_ok = ""
    for (i = 1; i <= npe; ++i) {
      n = npes[i]; a = get("cnt", "fds_mpi", n, 0); b = get("cnt", "fds_init", n, 0)
      c = get("cnt", "fds_grown", n, 0); d = get("cnt", "fds_final", n, 0)
      own = (a == "" || b == "") ? "" : b - a
      printf "%5d %6s %11s %15s %14s %14s\n", n, fmt(a), fmt(b), fmt(c), own == "" ? "-" : own, fmt(d)
      # A GPU runtime opens its own fds at init and keeps them: there only growth is checked.
      if (own != "") { ok = c == b && (backend != "host" || (own <= n - 1 && d == a))
        fds_ok = fds_ok == "" ? ok : fds_ok && ok }
    }

    for (k = 1; k <= nsize; ++k) {
      s = sizes[k]
      table(sprintf("all-to-all put %d KiB, per PE (MB/s): (PEs - 1) x size per round", s / 1024), "bw", "alltoall_put", s, "flat")
      table(sprintf("all-to-all put %d KiB, all PEs together (MB/s)", s / 1024), "bw", "alltoall_put_total", s, "linear")
    }

    shared = ""
    for (i = 1; i <= npe; ++i) if (cores != "?" && npes[i] > cores + 0) shared = shared (shared == "" ? "" : ", ") npes[i]
    print "\n== targets (worst exponent over the PE counts above 2)"
    split("init_first init malloc_grow", names, " ")
    for (i = 1; i in names; ++i) {
      sz = names[i] == "malloc_grow" ? 2097152 : 0
      e = (names[i], sz) in worst ? worst[names[i], sz] : ""
      st = (names[i], sz) in wstep ? wstep[names[i], sz] : ""
      target(names[i] " grows no worse than linearly (exponent <= 1.1)", e == "" ? "" : e <= 1.1,
             e == "" ? "" : sprintf("(%.2f, worst step %.2f%s)", e, st,
                                    shared == "" ? "" : "; " shared " PEs time-share " cores " cores"))
    }
    target("reused malloc costs about one barrier (ratio <= 1.5)", reuse_ok, "(PEs:ratio" reuse_detail ")")
    target(backend == "host" ? "fds: at most one per peer, none per chunk, none after finalize" : "fds: none per chunk", fds_ok, "")
  }' "$tmp/all.csv"
exit "$status"
