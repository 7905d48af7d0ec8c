#!/usr/bin/env bash
# The dynamic symbols that libishmem.so defines are the public C API only (lib/ishmem.map):
# every one has a public prefix, none is a C++ name, and known calls are there.
# Usage: exported_symbols.sh <path of libishmem.so>
set -euo pipefail
lib=$1
fail() { echo "exported_symbols: $lib: $*" >&2; exit 1; }
# nm prints versioned names as name@@ISHMEM_0.
names=$(nm -D --defined-only "$lib" | awk '{sub(/@.*/, "", $NF); print $NF}') || fail "nm -D failed"
[ -n "$names" ] || fail "exports nothing"
# The version node itself is listed as an absolute symbol; ISHMEM_CTX_DEFAULT (ctx.h) is the
# address of ishmemi_ctx_default_object.
others=$(grep -v -E '^(ishmemx?_|p?shmemx?_|ISHMEM_[0-9]+$|ishmemi_ctx_default_object$)' \
  <<<"$names" || true)
[ -z "$others" ] || fail "exports names outside the public API:"$'\n'"$others"
mangled=$(grep -E '^_Z' <<<"$names" || true)
[ -z "$mangled" ] || fail "exports C++ names:"$'\n'"$mangled"
# shmem.h's shmem_* calls are static inline wrappers of these (ishmemx_shmem_failed is theirs).
for known in ishmem_init ishmem_finalize ishmem_putmem ishmem_long_p ishmem_barrier_all \
  ishmem_calloc ishmemx_last_error ishmemx_shmem_failed ishmemi_ctx_default_object; do
  grep -qx "$known" <<<"$names" || fail "does not export $known"
done
echo "exported_symbols: $(wc -l <<<"$names") public names, none internal"
