#!/usr/bin/env python3
"""Compares the GPU collectives of ishmem with NVSHMEM's and NCCL's, measured in one call.

Reads the CSV files of ishmem-gpu-bench-coll, nvshmem-coll-bench (benchmarks/nvshmem/
peer_collectives.cu) and nccl_collectives.py (columns impl,bench,op,what,blocks,threads,bytes,
usec,gbps) and writes:
  --text FILE   (appended) tables by size with the ratios, and one "target" line per target
                of issue 12, met or not
  --csv FILE    every row of the three files in one (one header)
Ratios are ishmem time / peer time: below 1, ishmem is faster. Bus bandwidth of an all-reduce
of S bytes over n PEs in t: S / t * 2 (n - 1) / n (NCCL's convention). Standard library only.

  usage: compare_collectives.py --ishmem F [--nvshmem F] [--nccl F] [--pes N] [--text F] [--csv F]
"""
import argparse
import csv
import os

KIB, MIB = 1 << 10, 1 << 20
COLUMNS = ("impl", "bench", "op", "what", "blocks", "threads", "bytes", "usec", "gbps")


def load(path):
    if not path or not os.path.exists(path) or os.path.getsize(path) == 0:
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def index(rows):
    """(impl, bench, op, what, bytes) -> usec; a kernel that did not launch ("what/no-launch")
    is its 'what' at -1 usec."""
    t = {}
    for r in rows:
        what = r["what"][:-len("/no-launch")] if r["what"].endswith("/no-launch") else r["what"]
        t[(r["impl"], r["bench"], r["op"], what, int(r["bytes"]))] = float(r["usec"])
    return t


def size_label(n):
    for unit, div in (("MiB", MIB), ("KiB", KIB)):
        if n >= div and n % div == 0:
            return "%d %s" % (n // div, unit)
    return "%d B" % n


def stream_us(t, impl, bench, nbytes):
    """The on-stream time of one library's call of `bench` at `nbytes`, or None."""
    for (i, b, op, _, n), us in t.items():
        if i == impl and b == bench and op == "stream" and n == nbytes:
            return us
    return None


def fmt(us):
    return "%10.2f" % us if us is not None and us > 0 else "%10s" % "-"


def ratio(a, b):
    return a / b if a is not None and b is not None and a > 0 and b > 0 else None


def fmt_ratio(r):
    return "%8.2fx" % r if r is not None else "%9s" % "-"


def verdict(ratios, limit):
    """'met' when every ratio is there and within the limit."""
    if not ratios or any(r is None for r in ratios):
        return "NOT met (missing measurements)"
    worst = max(ratios)
    return "%s (worst %.2fx)" % ("met" if worst <= limit else "NOT met", worst)


def sizes(t, bench, op="stream"):
    return sorted({k[4] for k in t if k[1] == bench and k[2] == op})


def compare_stream(t, bench, out, title):
    """A table of one on-stream collective: ishmem, NCCL, NVSHMEM and the two ratios."""
    out.append("")
    out.append("collectives: %s (usec; ratio = ishmem / peer)" % title)
    out.append("%10s %10s %10s %10s %9s %9s" % ("bytes", "ishmem", "nccl", "nvshmem",
                                                 "/nccl", "/nvshmem"))
    rows = {}
    for n in sizes(t, bench):
        i, c, v = (stream_us(t, impl, bench, n) for impl in ("ishmem", "nccl", "nvshmem"))
        rows[n] = (ratio(i, c), ratio(i, v))
        out.append("%10s %s %s %s %s %s" % (size_label(n), fmt(i), fmt(c), fmt(v),
                                             fmt_ratio(rows[n][0]), fmt_ratio(rows[n][1])))
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--ishmem", required=True)
    p.add_argument("--nvshmem")
    p.add_argument("--nccl")
    p.add_argument("--pes", type=int, default=2, help="PEs of the runs (bus bandwidth)")
    p.add_argument("--text")
    p.add_argument("--csv")
    a = p.parse_args()
    rows = load(a.ishmem) + load(a.nvshmem) + load(a.nccl)
    t = index(rows)
    out = ["", "==== GPU collectives, %d PEs: ishmem, NVSHMEM and NCCL (PyTorch) in one call ===="
           % a.pes]

    red = compare_stream(t, "reduce", out, "float sum-reduce on a stream (NCCL: all_reduce)")
    small = [n for n in red if n <= MIB]
    out.append("target coll: on-stream sum-reduce 8 B..1 MiB <= 0.5x NCCL: %s" %
               verdict([red[n][0] for n in small], 0.5))
    out.append("target coll: on-stream sum-reduce 8 B..1 MiB <= 1.0x NVSHMEM on stream: %s" %
               verdict([red[n][1] for n in small], 1.0))
    big = 256 * MIB
    bus = 2.0 * (a.pes - 1) / a.pes
    bw = {}
    for impl in ("ishmem", "nccl", "nvshmem"):
        us = stream_us(t, impl, "reduce", big)
        bw[impl] = big / us / 1e3 * bus if us and us > 0 else None
    r = bw["ishmem"] / bw["nccl"] if bw["ishmem"] and bw["nccl"] else None
    out.append("target coll: 256 MiB all-reduce bus bandwidth >= 1.0x NCCL: ishmem %s GB/s, NCCL "
               "%s GB/s, NVSHMEM %s GB/s: %s" %
               tuple(["%.1f" % bw[x] if bw[x] else "-" for x in ("ishmem", "nccl", "nvshmem")] +
                     ["%s (%.2fx)" % ("met" if r >= 1.0 else "NOT met", r) if r else
                      "NOT met (missing measurements)"]))

    # In a kernel: ishmem's block reduce (1024 and 256 threads) and NVSHMEM's.
    out.append("")
    out.append("collectives: block sum-reduce inside a running kernel (usec per call, no launch)")
    whats = sorted({(k[0], k[3]) for k in t if k[1] == "reduce" and k[2] == "block"})
    out.append("%10s " % "bytes" + " ".join("%20s" % ("%s %s" % w)[:20] for w in whats))
    worst = []
    def cell(impl, what, n):
        us = t.get((impl, "reduce", "block", what, n))
        return "-" if us is None else "no launch" if us < 0 else "%.2f" % us

    for n in sizes(t, "reduce", "block"):
        out.append("%10s " % size_label(n) + " ".join("%20s" % cell(i, w, n) for i, w in whats))
        if n <= 64 * KIB:
            worst.append(t.get(("ishmem", "reduce", "block", "block/1024", n)))
    ok = worst and all(w is not None and w > 0 for w in worst)
    out.append("target coll: block sum-reduce in a kernel, 1024 threads, 8 B..64 KiB <= 10 us: %s" %
               (("%s (worst %.2f us)" % ("met" if max(worst) <= 10 else "NOT met", max(worst)))
                if ok else "NOT met (missing measurements or no launch)"))

    # The grid form beside the read of the peer's buffer.
    out.append("")
    out.append("collectives: grid sum-reduce in a kernel beside one read of the peer's buffer "
               "(usec per call)")
    gw = sorted({k[3] for k in t if k[0] == "ishmem" and k[2] in ("grid", "kernel")})
    out.append("%10s " % "bytes" + " ".join("%14s" % w for w in gw))
    def grid_cell(w, n):
        us = t.get(("ishmem", "reduce", "grid", w, n))
        return fmt(us if us is not None else t.get(("ishmem", "peer-read", "kernel", w, n))).strip()

    for n in sizes(t, "peer-read", "kernel"):
        out.append("%10s " % size_label(n) + " ".join("%14s" % grid_cell(w, n) for w in gw))
    read = t.get(("ishmem", "peer-read", "kernel", "read/16x1024", MIB))
    for blocks in (8, 16):
        g = t.get(("ishmem", "reduce", "grid", "grid/%dx1024" % blocks, MIB))
        rr = ratio(g, read)
        out.append("target coll: grid sum-reduce of 1 MiB, %d blocks <= ~2x the 16-block read of "
                   "the peer's 1 MiB: %s us vs %s us: %s" %
                   (blocks, fmt(g).strip(), fmt(read).strip(),
                    "%s (%.2fx)" % ("met" if rr <= 2.0 else "NOT met", rr) if rr else
                    "NOT met (missing measurements)"))

    a2a = compare_stream(t, "alltoall", out,
                         "alltoall on a stream, bytes per PE (NCCL: all_to_all_single)")
    out.append("target coll: alltoall 1 KiB..64 MiB per PE <= 1.0x NCCL: %s" %
               verdict([v[0] for v in a2a.values()], 1.0))
    out.append("target coll: alltoall 1 KiB..64 MiB per PE <= 1.0x NVSHMEM: %s" %
               verdict([v[1] for v in a2a.values()], 1.0))
    compare_stream(t, "broadcast", out, "broadcast on a stream from PE 0 (NCCL: broadcast)")
    compare_stream(t, "fcollect", out,
                   "fcollect on a stream, bytes per PE (NCCL: all_gather_into_tensor)")

    text = "\n".join(out) + "\n"
    if a.text:
        with open(a.text, "a") as f:
            f.write(text)
    print(text, end="")
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(COLUMNS)
            for r in rows:
                w.writerow([r[k] for k in COLUMNS])


if __name__ == "__main__":
    main()
