#!/usr/bin/env bash
# Installs the build tree into a temporary prefix and builds programs outside the source tree
# against it, the way a user would: with find_package (tests/install/consumer: C on the static
# library, C++ on the shared one) and with pkg-config (the same C and C++ sources on the shared
# library). Each program runs on 2 PEs and checks the values it moved. In a CUDA or HIP build the
# kernel of tests/gpu/install_consumer is also compiled and linked against the install (it
# runs on the GPU machine, through scripts/gpu-test).
# Usage: consumer_test.sh <build dir> <source dir> <gpu backend> <mpiexec>
set -euo pipefail
build=$1 src=$2 backend=$3 mpiexec=$4
# scripts/test runs the host suite again in split mode (ISHMEM_MAX_LOCAL_PES); the install is
# the same there, so this test reports itself skipped (ctest: SKIP_RETURN_CODE 77).
if [ -n "${ISHMEM_MAX_LOCAL_PES:-}" ]; then
  echo "consumer_test: skipped in split mode (ISHMEM_MAX_LOCAL_PES=$ISHMEM_MAX_LOCAL_PES)"
  exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/ishmem-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
fail() { echo "consumer_test: $*" >&2; exit 1; }
run2() { "$mpiexec" -np 2 "$@" || fail "2-PE run of $* failed"; }

cmake --install "$build" --prefix "$prefix" > "$work/install.log" ||
  { cat "$work/install.log"; fail "cmake --install $build failed"; }
so=$(find "$prefix" -name 'libishmem.so' -print -quit)
[ -n "$so" ] || fail "no libishmem.so under $prefix"
libdir=$(dirname "$so")
for f in libishmem.a libishmem.so.0 "pkgconfig/ishmem.pc" "cmake/ishmem/ishmemConfig.cmake"; do
  [ -e "$libdir/$f" ] || fail "$libdir/$f is not installed"
done
[ "$(readlink "$libdir/libishmem.so.0")" = libishmem.so.0.1.0 ] ||
  fail "libishmem.so.0 points at '$(readlink "$libdir/libishmem.so.0")', not libishmem.so.0.1.0"
for f in bin/ishmem-info include/ishmem.h share/doc/ishmem/README.md share/doc/ishmem/INSTALL.md; do
  [ -e "$prefix/$f" ] || fail "$prefix/$f is not installed"
done

# find_package
cmake -S "$src/tests/install/consumer" -B "$work/cmake" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" > "$work/cmake.log" ||
  { cat "$work/cmake.log"; fail "configuring the find_package consumer failed"; }
cmake --build "$work/cmake" -j2 || fail "building the find_package consumer failed"
run2 "$work/cmake/ring_put"
run2 "$work/cmake/sum_reduce"

# pkg-config: plain compilers, no MPI wrapper; the flags come from ishmem.pc (and MPI's .pc).
export PKG_CONFIG_PATH=$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
cflags=$(pkg-config --cflags ishmem) || fail "pkg-config --cflags ishmem failed"
libs=$(pkg-config --libs ishmem) || fail "pkg-config --libs ishmem failed"
# shellcheck disable=SC2086 # the flags are lists of words
cc -std=c11 -o "$work/ring_put_pc" "$src/tests/install/consumer/ring_put.c" $cflags $libs \
  -Wl,-rpath,"$libdir" || fail "compiling ring_put.c with pkg-config's flags failed"
# shellcheck disable=SC2086
c++ -std=c++17 -o "$work/sum_reduce_pc" "$src/tests/install/consumer/sum_reduce.cpp" $cflags \
  $libs -Wl,-rpath,"$libdir" || fail "compiling sum_reduce.cpp with pkg-config's flags failed"
loaded=$(ldd "$work/ring_put_pc") || fail "ldd $work/ring_put_pc failed"
grep -q "libishmem.so.0 => $libdir/" <<<"$loaded" ||
  fail "ring_put_pc does not load $libdir/libishmem.so.0:"$'\n'"$loaded"
run2 "$work/ring_put_pc"
run2 "$work/sum_reduce_pc"

if [ "$backend" = cuda ] || [ "$backend" = hip ]; then
  # CUDA: nvcc (CUDACXX); HIP: the build's C++ compiler, hipcc (ISHMEM_TEST_CXX).
  gpu_compiler=(-DCMAKE_CUDA_COMPILER="${CUDACXX:-nvcc}")
  [ "$backend" = hip ] && gpu_compiler=(-DCMAKE_CXX_COMPILER="${ISHMEM_TEST_CXX:-hipcc}")
  cmake -S "$src/tests/gpu/install_consumer" -B "$work/gpu" -G Ninja \
    -DCMAKE_PREFIX_PATH="$prefix" "${gpu_compiler[@]}" > "$work/gpu.log" ||
    { cat "$work/gpu.log"; fail "configuring the kernel consumer failed"; }
  cmake --build "$work/gpu" -j2 || fail "building the kernel consumer failed"
fi
echo "consumer_test: ok (prefix $prefix, backend $backend)"
