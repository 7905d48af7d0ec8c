# shellcheck shell=bash
# Sourced by benchmarks/run-host.sh and benchmarks/run-scaling.sh: what both runners do alike.
# shellcheck disable=SC2034  # quick, csv, from, rest and extra are the runners' to read

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
