# shellcheck shell=bash
# Sourced by the runners (run-host.sh, run-collectives.sh, run-scaling.sh, run-osu.sh): what
# they do alike.
# shellcheck disable=SC2034  # quick, csv, from, rest, extra, bind, notes and status are the runners' to read
# shellcheck disable=SC2154  # bench, tmp and launch_env are set by the runner that sources this

# runner_options SCRIPT ARGS...: the options every runner takes: --quick, --csv, --from FILE
# and -h/--help (prints SCRIPT's header comment and exits). Sets quick, csv and from, and
# leaves every other argument, in order, in the array `rest` for the runner's own options.
runner_options() {
  local script="$1"
  shift
  quick=0 csv=0 from="" rest=()
  while [ $# -gt 0 ]; do
    case "$1" in
      --quick) quick=1 ;;
      --csv) csv=1 ;;
      --from) from="${2:?--from needs a file}"; shift ;;
      -h | --help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$script"; exit 0 ;;
      *) rest+=("$1") ;;
    esac
    shift
  done
}

# runner_mpi_env: Open MPI refuses root, and more ranks than cores, unless told; and the
# extra mpirun arguments of BENCH_MPIRUN_ARGS, in the array `extra`.
runner_mpi_env() {
  if [ "$(id -u)" -eq 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  fi
  export OMPI_MCA_rmaps_base_oversubscribe="${OMPI_MCA_rmaps_base_oversubscribe:-1}"
  read -r -a extra <<<"${BENCH_MPIRUN_ARGS:-}"
}

# runner_bind PES: sets the array `bind`: one core per PE where there are enough cores (so a PE
# keeps its caches), no binding beyond that (two spinning PEs pinned to one core would take
# turns by whole time slices) or where the runner sets no_bind=1 (a cluster's nodes place
# their own ranks).
runner_bind() {
  if [ "${no_bind:-0}" -eq 0 ] && [ "$1" -le "$(nproc 2>/dev/null || echo 1)" ]; then bind=(--bind-to core); else bind=(--bind-to none); fi
}

# runner_launch IMPL PROGRAM PES LIMIT [ARGS...]: runs $bench/IMPL-bench-PROGRAM on PES PEs
# (oshrun for OSHMEM, mpirun otherwise) with ARGS, under `timeout LIMIT`, the environment
# assignments of the array `launch_env`, the command prefix of the array `launch_prefix` (if
# set; e.g. scripts/cluster run) and the binding of runner_bind. Its rows for IMPL are
# left in $tmp/rows. An ishmem program that is missing, fails or prints no row sets status=1;
# a peer's failure is noted (array `notes`) and its rows are kept (Open MPI 4.1's OSHMEM may
# crash in shmem_finalize after printing its figures). Returns 1 when there are no rows.
runner_launch() {
  local impl="$1" prog="$2" pes="$3" limit="$4" exe="$bench/$1-bench-$2" launcher=mpirun rc
  shift 4
  : >"$tmp/rows"
  if [ ! -x "$exe" ]; then
    [ "$impl" = ishmem ] && { notes+=("ishmem-bench-$prog is missing"); status=1; }
    return 1
  fi
  if [ "$impl" = oshmem ]; then
    command -v oshrun >/dev/null || return 1
    launcher=oshrun
  fi
  runner_bind "$pes"
  # Progress on a terminal only (the programs' own stderr goes to $tmp/err here).
  [ -t 2 ] && printf '\r\033[K%s: %s-bench-%s on %s PEs' "$(basename "$0")" "$impl" "$prog" "$pes" >&2
  timeout "$limit" env "${launch_env[@]}" "${launch_prefix[@]}" "$launcher" -np "$pes" "${bind[@]}" "${extra[@]}" \
    "$exe" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  grep -E "^$impl,[a-z_]+,[0-9]" "$tmp/out" >"$tmp/rows" # ishmem put adds memcpy rows
  if [ -s "$tmp/rows" ] && [ "$rc" -eq 0 ]; then return 0; fi
  if [ "$impl" = ishmem ]; then
    status=1
    notes+=("FAILED: ishmem-bench-$prog on $pes PEs (exit $rc)")
    { echo "== ishmem-bench-$prog on $pes PEs failed (exit $rc):"; tail -n 20 "$tmp/err"; } >&2
  elif [ -s "$tmp/rows" ]; then
    notes+=("$impl-bench-$prog exited with status $rc after printing its figures (kept)")
  else
    notes+=("$impl-bench-$prog on $pes PEs failed (exit $rc) and gave no figures")
  fi
  [ -s "$tmp/rows" ]
}

# runner_medians NKEY FILE: one row per key (the first NKEY fields) in first-seen order, with
# the median over all its rows of each of the next two fields (latency, bandwidth; empty
# fields are skipped, and stay empty where no row has one).
runner_medians() {
  awk -F, -v nk="$1" '
    function median(list,   v, n, i, j, t) {
      n = split(substr(list, 2), v, " ")
      if (n == 0) return ""
      for (i = 2; i <= n; ++i)
        for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; --j) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
      return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    }
    function fmt(x, f) { return x == "" ? "" : sprintf(f, x) }
    { key = $1
      for (i = 2; i <= nk; ++i) key = key "," $i
      if (!(key in seen)) { seen[key] = 1; order[++n] = key }
      if ($(nk + 1) != "") lat[key] = lat[key] " " $(nk + 1)
      if ($(nk + 2) != "") bw[key] = bw[key] " " $(nk + 2) }
    END {
      for (i = 1; i <= n; ++i)
        print order[i] "," fmt(median(lat[order[i]]), "%.4f") "," fmt(median(bw[order[i]]), "%.1f")
    }' "$2"
}

# runner_rows PATTERN OUT EXE BUILD: with --from, copies the rows of that file that match
# PATTERN to OUT (exits 2 if there are none) and returns 0. Otherwise checks that EXE is built
# (in BUILD) and mpirun is there (exits 2 if not), sets the MPI environment (runner_mpi_env)
# and returns 1: the runner then runs its programs.
runner_rows() {
  local name
  name="$(basename "$0")"
  if [ -n "$from" ]; then
    grep -E "$1" "$from" >"$2" && return 0
    echo "$name: no rows in $from" >&2
    exit 2
  fi
  if [ ! -x "$3" ]; then
    echo "$name: no $3; build first (cmake --build $4)" >&2
    exit 2
  fi
  command -v mpirun >/dev/null || { echo "$name: mpirun not found" >&2; exit 2; }
  runner_mpi_env
  return 1
}

# runner_summarize NKEY HEADER: the medians over the runs of $tmp/raw.csv into $tmp/all.csv
# (runner_medians NKEY) and the notes without repeats. With --csv it prints HEADER and the
# rows, the notes on stderr, and exits with $status.
runner_summarize() {
  [ -t 2 ] && printf '\r\033[K' >&2 # the progress line
  runner_medians "$1" "$tmp/raw.csv" >"$tmp/all.csv"
  mapfile -t notes < <(printf '%s\n' "${notes[@]}" | awk 'NF && !seen[$0]++')
  [ "$csv" -eq 1 ] || return 0
  echo "$2"
  cat "$tmp/all.csv"
  for n in "${notes[@]}"; do echo "$(basename "$0"): $n" >&2; done
  exit "$status"
}

# runner_end: prints the notes under the tables and exits with $status.
runner_end() {
  if [ "${#notes[@]}" -gt 0 ]; then
    echo
    for n in "${notes[@]}"; do echo "note: $n"; done
  fi
  exit "$status"
}

# runner_counts WHAT VALUE...: exits 2 unless every VALUE is a positive integer.
runner_counts() {
  local what="$1" v
  shift
  for v in "$@"; do
    case "$v" in '' | *[!0-9]* | 0) echo "$(basename "$0"): bad $what '$v'" >&2; exit 2 ;; esac
  done
}

# runner_program_args VALUE QUICK FULL: the array prog_args, the programs' arguments: VALUE
# (an environment variable's) if set, else QUICK under --quick and FULL otherwise. Also makes
# the scratch folder $tmp, removed on exit, and sets status=0 and no notes.
runner_program_args() {
  local chosen="$3"
  [ "$quick" -eq 1 ] && chosen="$2"
  read -r -a prog_args <<<"${1:-$chosen}"
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  status=0
  notes=()
}
