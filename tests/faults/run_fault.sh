#!/usr/bin/env bash
# run_fault.sh MPIEXEC PROGRAM NP SCENARIO MAX_SECONDS PATTERN: runs the fault program on NP
# PEs with Open MPI's recovery on (the launcher does not kill the survivors of a dead PE)
# and checks that the job ends within MAX_SECONDS, that no PE finished normally, that the
# output matches PATTERN (an extended regular expression), and that no process, socket name
# or file of the job is left behind. Under recovery Open MPI's mpirun exits 0 whatever its
# processes did, so the PEs' own "finished" lines tell how they ended.
set -uo pipefail
mpiexec=$1 program=$2 np=$3 scenario=$4 max_s=$5 pattern=$6
out=$(mktemp)
trap 'rm -f "$out"' EXIT
shm_before=$(ls /dev/shm | wc -l)
job_sockets() { grep -o '@ishmem-[^ ]*' /proc/net/unix | sort -u; }
sockets_before=$(job_sockets)

start_ms=$(($(date +%s%N) / 1000000))
timeout -s KILL $((max_s + 30)) "$mpiexec" --mca orte_enable_recovery 1 -np "$np" \
  "$program" "$scenario" >"$out" 2>&1
status=$?
elapsed_ms=$(($(date +%s%N) / 1000000 - start_ms))
elapsed=$((elapsed_ms / 1000)).$(printf %03d $((elapsed_ms % 1000)))
sleep 0.5  # the launcher's last processes
cat "$out"
echo "run_fault: $scenario on $np PEs ended with status $status after ${elapsed} s"

fail() { echo "run_fault: FAILED: $*"; exit 1; }
grep -q "fault: PE [0-9]* finished" "$out" && fail "a PE finished normally"
[ "$elapsed_ms" -lt $((max_s * 1000)) ] || fail "took ${elapsed} s, more than $max_s s"
grep -Eq "$pattern" "$out" || fail "no line matches /$pattern/"
pgrep -f "$program $scenario" >/dev/null && fail "processes left: $(pgrep -af "$program $scenario")"
left=$(comm -13 <(echo "$sockets_before") <(job_sockets))
[ -z "$left" ] || fail "socket names left: $left"
[ "$(ls /dev/shm | wc -l)" -le "$shm_before" ] || fail "files left in /dev/shm"
echo "run_fault: passed"
