#!/usr/bin/env bash
# The ctest bench_output_np2: runs one host benchmark on 2 PEs with --csv FILE and --json FILE
# (few iterations), checks both files (they parse, have bench_out.h's columns, a row per
# size with positive figures, the same rows in both), then draws them with scripts/plot and
# checks that PNG files come out. The plot part is left out, saying so, only when Debian's
# python3 cannot import matplotlib (scripts/test installs python3-matplotlib).
#   usage: benchmarks/check-output.sh BENCHMARK_EXE [MPIEXEC]
set -eu
exe="${1:?usage: check-output.sh BENCHMARK_EXE [MPIEXEC]}"
mpiexec="${2:-mpirun}"
root="$(cd "$(dirname "$0")/.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

"$mpiexec" -np 2 "$exe" --iters 50 --warmup 5 --reps 1 --min-size 8 --max-size 64K \
  --csv "$tmp/put.csv" --json "$tmp/put.json" >"$tmp/table.txt"
grep -q "^# ishmem put" "$tmp/table.txt" || { echo "no table on stdout:"; cat "$tmp/table.txt"; exit 1; }

python3 - "$tmp/put.csv" "$tmp/put.json" <<'EOF'
import csv, json, sys
columns = "impl,op,bytes,latency_us,bandwidth_MBps,benchmark,pes,count,backend,detail".split(",")
with open(sys.argv[1], newline="") as f:
    reader = csv.DictReader(f)
    assert reader.fieldnames == columns, "CSV header %s" % reader.fieldnames
    csv_rows = list(reader)
with open(sys.argv[2]) as f:
    json_rows = json.load(f)
assert isinstance(json_rows, list) and json_rows, "JSON: not a list of rows"
sizes = [8 << k for k in range(14)]  # 8 B .. 64 KiB
for name, rows in (("CSV", csv_rows), ("JSON", json_rows)):
    for r in rows:
        assert sorted(r) == sorted(columns), "%s row keys %s" % (name, sorted(r))
        assert r["benchmark"] == "put" and int(r["pes"]) == 2 and r["backend"] == "host", r
        assert float(r["latency_us"]) > 0 and float(r["bandwidth_MBps"]) > 0, r
    puts = [int(r["bytes"]) for r in rows if r["impl"] == "ishmem" and r["op"] == "put"]
    assert puts == sizes, "%s: put sizes %s" % (name, puts)
as_tuple = lambda r: (r["impl"], r["op"], int(r["bytes"]), float(r["latency_us"]),
                      float(r["bandwidth_MBps"]))
assert [as_tuple(r) for r in csv_rows] == [as_tuple(r) for r in json_rows], "CSV != JSON"
print("rows: %d in CSV and JSON, %d put sizes" % (len(csv_rows), len(sizes)))
EOF

if ! /usr/bin/python3 -c "import matplotlib" 2>/dev/null; then
  echo "NOT CHECKED: scripts/plot (Debian's python3 has no matplotlib: apt install python3-matplotlib)"
  exit 0
fi
"$root/scripts/plot" -o "$tmp/png" --machine "ctest" "$tmp/put.csv" "$tmp/put.json" >"$tmp/written"
cat "$tmp/written"
grep -q "/put.png$" "$tmp/written" || { echo "scripts/plot wrote no put.png"; exit 1; }
while read -r png; do
  [ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
    { echo "$png is not a PNG file"; exit 1; }
  [ "$(stat -c %s "$png")" -gt 10000 ] || { echo "$png is too small to hold a chart"; exit 1; }
done <"$tmp/written"
echo "plot: $(wc -l <"$tmp/written") PNG files"
