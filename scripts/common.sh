# Shared by scripts/demo, scripts/test and scripts/gpu-test: package install, build and mpirun
# settings. Source it; it sets ROOT (the repository) and defines the functions below.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JOBS="$(nproc 2>/dev/null || echo 2)"

# Open MPI refuses root and more ranks than cores unless told; tests run 4 PEs on 2 cores.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
export PRTE_MCA_rmaps_default_mapping_policy=:oversubscribe

log() { printf '\n== %s\n' "$*"; }

# install_packages PKG...: installs those that are missing (Debian/Ubuntu, as root).
install_packages() {
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" ||
      missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
    echo "missing packages: ${missing[*]} (install them as root: apt-get install ${missing[*]})" >&2
    return 1
  fi
  log "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

BASE_PACKAGES=(g++ make ninja-build cmake pkg-config openmpi-bin libopenmpi-dev libhwloc-dev libgtest-dev)

# build DIR [CMAKE ARGS...]: configures and builds (only the targets in BUILD_TARGETS, when
# set).
build() {
  local dir="$1"
  shift
  mkdir -p "$dir"
  cmake -S "$ROOT" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" \
    >"$dir/configure.log" 2>&1 || { cat "$dir/configure.log"; return 1; }
  # shellcheck disable=SC2086 # a list of target names
  cmake --build "$dir" -j "$JOBS" ${BUILD_TARGETS:+--target $BUILD_TARGETS}
}

has_nvidia_gpu() { command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; }
