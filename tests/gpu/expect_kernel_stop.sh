#!/bin/sh
# Runs a program whose kernel makes a bad device call under ISHMEM_DEBUG=1: passes if the
# program fails (non-zero exit) and its output has a line matching PATTERN (grep -E), the
# message the device check prints. Passes as skipped where the program finds no usable GPU.
#   usage: expect_kernel_stop.sh PATTERN COMMAND [ARGS...]
set -u
pattern=$1
shift
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if printf '%s\n' "$out" | grep -q 'no usable GPU'; then
  echo "skipped: no usable GPU"
  exit 0
fi
if [ "$rc" -eq 0 ]; then
  echo "FAIL: the program exited 0; the bad device call should have stopped its kernel" >&2
  exit 1
fi
if ! printf '%s\n' "$out" | grep -Eq "$pattern"; then
  echo "FAIL: no line of the output matches: $pattern" >&2
  exit 1
fi
echo "ok: exit status $rc and the device check's message"
