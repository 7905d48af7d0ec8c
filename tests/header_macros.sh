#!/bin/sh
# Checks that a public header leaves none of ishmem's internal macros (ISHMEMI_*) defined in
# the code that includes it: the generators, compile-mode flags and vendor helpers of
# include/ishmem/detail are undefined after use, so only documented ISHMEM_/ISHMEMX_ names
# remain. Preprocesses `#include <HEADER>` with COMPILER ARGS... -E and lists what leaks; ARGS
# include the compiler's option to print the macros (-dM; nvcc: -Xcompiler -dM).
#   usage: header_macros.sh HEADER SUFFIX COMPILER [ARGS...]   (SUFFIX: c, cpp or cu)
set -eu
header=$1 suffix=$2
shift 2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
printf '#include <%s>\n' "$header" > "$dir/probe.$suffix"
"$@" -E "$dir/probe.$suffix" > "$dir/macros" 2> "$dir/errors" || {
  cat "$dir/errors" >&2
  echo "FAIL: could not preprocess <$header>" >&2
  exit 1
}
# The public tables must be there: an empty or wrong preprocess must not pass.
grep -q '^#define ISHMEMX_RMA_TYPES(' "$dir/macros" || {
  echo "FAIL: <$header> did not define ISHMEMX_RMA_TYPES; preprocessed the wrong header?" >&2
  exit 1
}
leaked=$(grep -o '^#define ISHMEMI_[A-Za-z0-9_]*' "$dir/macros" | cut -d' ' -f2 | sort -u)
if [ -n "$leaked" ]; then
  echo "FAIL: internal macros still defined after <$header>:" $leaked >&2
  exit 1
fi
echo "ok: <$header> leaves no ISHMEMI_ macro ($(grep -c '^#define ISHMEM' "$dir/macros") ISHMEM macros)"
