#!/usr/bin/env bash
# run_fault.sh MPIEXEC PROGRAM NP SCENARIO MAX_SECONDS PATTERN [ALONE_PATTERN]: runs the fault
# program on NP PEs with Open MPI's recovery on (the launcher does not kill the survivors of a
# dead PE) and checks that the job ends within MAX_SECONDS, that no PE finished normally, that
# the output matches PATTERN (an extended regular expression; ALONE_PATTERN instead when the
# program says that PE 1 has no node-local peer to watch it, as in split mode with
# ISHMEM_MAX_LOCAL_PES=1), and that no process, socket name
# or file of the job is left behind. Under recovery Open MPI's mpirun exits 0 whatever its
# processes did, so the PEs' own "finished" lines tell how they ended.
# Scenario node-lost runs on the cluster of scripts/cluster (mpiexec under `scripts/cluster
# run`; elsewhere it is skipped, status 77): once every PE loops on RMA to a PE of another node,
# every process of the last node is killed, and MAX_SECONDS counts from that kill.
set -uo pipefail
mpiexec=$1 program=$2 np=$3 scenario=$4 max_s=$5 pattern=$6 alone_pattern=${7:-}
cluster="$(cd "$(dirname "$0")/../.." && pwd)/scripts/cluster"
kill_node=""
if [ "$scenario" = node-lost ]; then
  hostfile=${OMPI_MCA_orte_default_hostfile:-}
  nodes=$([ -r "$hostfile" ] && grep -c '^node' "$hostfile" || echo 0)
  if [[ "${OMPI_MCA_plm_rsh_agent:-}" != *"cluster agent" ]] || [ "$nodes" -lt 2 ]; then
    echo "run_fault: $scenario needs a cluster of 2 or more nodes (scripts/cluster run)"
    exit 77
  fi
  kill_node=$((nodes - 1))
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# ishmem's memory is memfd and its sockets are abstract: it should leave no file anywhere;
# look where a file would go. (Other jobs on the machine may come and go meanwhile.)
ishmem_files() { ls /dev/shm /tmp 2>/dev/null | grep -i ishmem | sort -u; }
files_before=$(ishmem_files)
job_sockets() { grep -o '@ishmem-[^ ]*' /proc/net/unix | sort -u; }
sockets_before=$(job_sockets)

now_ms() { echo $(($(date +%s%N) / 1000000)); }
start_ms=$(now_ms)
timeout -s KILL $((max_s + 30)) "$mpiexec" --mca orte_enable_recovery 1 -np "$np" \
  "$program" "$scenario" >"$out" 2>&1 &
job=$!
if [ -n "$kill_node" ]; then
  for _ in $(seq 600); do
    [ "$(grep -c '^fault: PE [0-9]* looping' "$out")" -ge "$np" ] && break
    kill -0 $job 2>/dev/null || break
    sleep 0.1
  done
  # Every process of the node but the holder of its namespaces: the PEs and Open MPI's daemon.
  start_ms=$(now_ms)
  "$cluster" exec "$kill_node" kill -KILL -1
  echo "run_fault: killed every process of node$kill_node"
  # The PEs must end within MAX_SECONDS. Under recovery mpirun then goes on trying to start a
  # daemon on the lost node: once the PEs are gone it gets 5 s, and then it is ended.
  for _ in $(seq $((max_s * 10 + 50))); do
    pgrep -f "^$program $scenario" >/dev/null || break  # the PEs, not mpirun
    sleep 0.1
  done
  elapsed_ms=$(($(now_ms) - start_ms))
  for _ in $(seq 50); do kill -0 $job 2>/dev/null || break; sleep 0.1; done
  kill -0 $job 2>/dev/null && echo "run_fault: the PEs are gone; ending mpirun" && kill $job
fi
wait $job
status=$?
[ -n "$kill_node" ] || elapsed_ms=$(($(now_ms) - start_ms))
elapsed=$((elapsed_ms / 1000)).$(printf %03d $((elapsed_ms % 1000)))
sleep 0.5  # the launcher's last processes
cat "$out"
echo "run_fault: $scenario on $np PEs ended with status $status after ${elapsed} s"

fail() { echo "run_fault: FAILED: $*"; exit 1; }
grep -q "fault: PE [0-9]* finished" "$out" && fail "a PE finished normally"
[ "$elapsed_ms" -lt $((max_s * 1000)) ] || fail "took ${elapsed} s, more than $max_s s"
if [ -n "$alone_pattern" ] && grep -q "fault: PE 1 shares its node with 0 PEs" "$out"; then
  pattern=$alone_pattern
fi
grep -Eq "$pattern" "$out" || fail "no line matches /$pattern/"
pgrep -f "$program $scenario" >/dev/null && fail "processes left: $(pgrep -af "$program $scenario")"
# A new name that no process holds is left behind; one a live process holds belongs to a job
# running beside this one (this job's processes are gone, checked above). A listener's queued
# connections carry its name without being held, so a name counts as held when any socket
# under it is.
held() {
  local inode
  for inode in $(grep -F " $1" /proc/net/unix | awk '{print $7}'); do
    find /proc/[0-9]*/fd -lname "socket:\[$inode\]" 2>/dev/null | grep -q . && return 0
  done
  return 1
}
orphans() {
  comm -13 <(echo "$sockets_before") <(job_sockets) | while read -r name; do
    held "$name" || echo "$name"
  done
}
left=$(orphans)
[ -z "$left" ] || { sleep 2; left=$(orphans); }
[ -z "$left" ] || fail "socket names left: $left"
left=$(comm -13 <(echo "$files_before") <(ishmem_files))
[ -z "$left" ] || fail "files left: $left"
echo "run_fault: passed"
