#!/usr/bin/env python3
"""Compares the two-GPU benchmark results of ishmem and NVSHMEM and draws them as SVG.

Reads the CSV files that benchmarks/nvshmem/peer_bench.cu writes (one per library, the same
loops), and writes:
  --text FILE   tables by size, ratios to NVSHMEM and the targets, met or not
  --csv FILE    every row matched: ishmem and NVSHMEM microseconds and GB/s, and the ratio
  --svg-dir DIR put_bw.svg, get_bw.svg, ratio.svg, stream_bw.svg, latency.svg
  --overhead F... (alone) the per-call cost of small transfers in each file: library put,
                plain store kernel and copy engine side by side
Ratios are NVSHMEM time / ishmem time: above 1, ishmem is faster. Standard library only
(no matplotlib), so it runs wherever python3 does.

  usage: benchmarks/plot.py --ishmem ishmem.csv [--nvshmem nvshmem.csv] [--text F] [--csv F]
                            [--svg-dir DIR]
"""
import argparse
import csv
import math
import os
import sys

SCOPES = ("block", "warp", "thread")
TARGET_FROM = 4096  # the bandwidth target holds from 4 KiB up
TARGET_PEAK = 390.0  # GB/s


def load(path):
    rows = {}
    if not path or not os.path.exists(path) or os.path.getsize(path) == 0:
        return rows
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            key = (r["bench"], r["op"], r["what"], int(r["bytes"]))
            rows[key] = {"usec": float(r["usec"]), "gbps": float(r["gbps"]),
                         "blocks": int(r["blocks"]), "threads": int(r["threads"])}
    return rows


def size_label(n):
    for unit, div in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= div and n % div == 0:
            return "%d %s" % (n // div, unit)
    return "%d B" % n


def scope_of(what):
    return what.split("/")[0]


def best(rows, bench, op, scope, nbytes):
    """The fastest configuration of one scope at one size: (what, usec) or None."""
    cands = [(v["usec"], k[2]) for k, v in rows.items()
             if k[0] == bench and k[1] == op and k[3] == nbytes and scope_of(k[2]) == scope]
    if not cands:
        return None
    us, what = min(cands)
    return what, us


def sizes_of(rows, bench, op):
    return sorted({k[3] for k in rows if k[0] == bench and k[1] == op})


def fmt_bw(nbytes, us):
    if us is None:
        return "—"
    if nbytes < 65536:
        return "%.2f µs" % us
    return "%.0f GB/s" % (nbytes / us / 1e3)


def fmt_ratio(r):
    return "—" if r is None else "%.3f" % r


class Report:
    def __init__(self):
        self.lines = []

    def __call__(self, s=""):
        self.lines.append(s)

    def text(self):
        return "\n".join(self.lines) + "\n"


def compare(ish, nv, out):
    """Tables and targets into `out` (a Report); returns the matched rows."""
    matched = []
    for key, a in sorted(ish.items()):
        b = nv.get(key)
        ratio = b["usec"] / a["usec"] if b and a["usec"] > 0 else None
        matched.append((key, a, b, ratio))

    have_nv = bool(nv)
    if not have_nv:
        out("summary: NO NVSHMEM RESULTS: ratios and targets cannot be judged")

    # Bandwidth tables: best grid per scope, both libraries.
    target_lines = []
    for op in ("put", "get"):
        sizes = sizes_of(ish, op, op)
        if not sizes:
            continue
        out("")
        out("== device %s, PE 0 -> PE 1 over NVLink: best grid per scope (GB/s from 64 KiB, "
            "else µs per call); ratio = NVSHMEM time / ishmem time" % op)
        head = "%-9s" % "bytes"
        for s in SCOPES:
            head += " | %-10s %-10s %-6s" % (s + " ish", s + " nv", "ratio")
        head += " | %-10s" % "copy-eng"
        out(head)
        for n in sizes:
            line = "%-9s" % size_label(n)
            for s in SCOPES:
                a = best(ish, op, op, s, n)
                b = best(nv, op, op, s, n)
                r = b[1] / a[1] if a and b else None
                line += " | %-10s %-10s %-6s" % (fmt_bw(n, a and a[1]), fmt_bw(n, b and b[1]),
                                                 fmt_ratio(r))
            ce = ish.get((op, op, "copy-engine", n))
            line += " | %-10s" % fmt_bw(n, ce and ce["usec"])
            out(line)

        # Targets: ishmem >= 1.0x NVSHMEM at every size from 4 KiB (same kernel and grid, and
        # best grid against best grid per scope); ishmem's peak >= 390 GB/s.
        if have_nv:
            same = [(r, k) for k, a, b, r in matched
                    if k[0] == op and k[1] == op and r is not None and k[3] >= TARGET_FROM
                    and scope_of(k[2]) in SCOPES]
            if same:
                worst, wk = min(same)
                below = sum(1 for r, _ in same if r < 1.0)
                target_lines.append(
                    "target %s, same kernel and grid, every size from 4 KiB: min ratio %.3f "
                    "(%s, %s); %d of %d pairs below 1.0 -> %s" %
                    (op, worst, wk[2], size_label(wk[3]), below, len(same),
                     "met" if worst >= 1.0 else "NOT met"))
            for s in SCOPES:
                rs = []
                for n in sizes:
                    if n < TARGET_FROM:
                        continue
                    a, b = best(ish, op, op, s, n), best(nv, op, op, s, n)
                    if a and b:
                        rs.append((b[1] / a[1], n))
                if rs:
                    worst, wn = min(rs)
                    target_lines.append(
                        "target %s, %s scope, best grid vs best grid, every size from 4 KiB: "
                        "min ratio %.3f at %s -> %s" %
                        (op, s, worst, size_label(wn), "met" if worst >= 1.0 else "NOT met"))
        peak = max(((v["gbps"], k) for k, v in ish.items()
                    if k[0] == op and scope_of(k[2]) in SCOPES), default=None)
        if peak:
            nvpeak = max(((v["gbps"], k) for k, v in nv.items()
                          if k[0] == op and scope_of(k[2]) in SCOPES), default=None)
            ce = max((v["gbps"] for k, v in ish.items() if k[0] == op and k[2] == "copy-engine"),
                     default=0)
            target_lines.append(
                "peak %s: ishmem %.1f GB/s (%s, %s)%s; copy engine %.1f GB/s -> target >= %.0f "
                "GB/s %s" %
                (op, peak[0], peak[1][2], size_label(peak[1][3]),
                 "; NVSHMEM %.1f GB/s (%s, %s)" % (nvpeak[0], nvpeak[1][2], size_label(nvpeak[1][3]))
                 if nvpeak else "", ce, TARGET_PEAK, "met" if peak[0] >= TARGET_PEAK else "NOT met"))

    # Latencies: p, signal, barrier, and small on-stream puts.
    out("")
    out("== latencies (µs; ratio = NVSHMEM / ishmem, above 1: ishmem faster)")
    out("%-50s %10s %10s %8s" % ("what", "ishmem", "nvshmem", "ratio"))
    for key, a, b, r in matched:
        if key[0] in ("p", "signal", "barrier") or (key[0] == "stream" and key[3] <= 4096):
            label = "%s %s %s" % (key[0], key[2], size_label(key[3]) if key[3] else "")
            out("%-50s %10.3f %10s %8s" % (label.strip(), a["usec"],
                                           "%.3f" % b["usec"] if b else "—", fmt_ratio(r)))
    for key, b in sorted(nv.items()):
        if key not in ish and key[0] in ("signal", "barrier", "p"):
            label = "%s %s %s" % (key[0], key[2], size_label(key[3]) if key[3] else "")
            out("%-50s %10s %10.3f %8s" % (label.strip(), "— (none)", b["usec"], "—"))
    if have_nv:
        for variant in ("events", "in-kernel"):
            k = ("p", "pingpong", "int_p/one-way/" + variant, 4)
            if k in ish and k in nv:
                a, b = ish[k]["usec"], nv[k]["usec"]
                target_lines.append(
                    "target p ping-pong one way (%s): ishmem %.3f µs, NVSHMEM %.3f µs, ratio %.3f "
                    "-> %s" % (variant, a, b, b / a, "met" if a <= b else "NOT met"))
    if not any(k[0] == "signal" for k in ish):
        out("(ishmem: no signal ping-pong in this run: its device API had no put-with-signal)")

    # On-stream put bandwidth.
    sizes = sizes_of(ish, "stream", "put")
    if sizes:
        out("")
        out("== host putmem_on_stream (GB/s from 64 KiB, else µs); cudaMemcpyAsync to the peer "
            "from the ishmem run")
        out("%-9s %-12s %-12s %-7s %-12s" % ("bytes", "ishmem", "nvshmem", "ratio", "memcpy"))
        for n in sizes:
            a = ish.get(("stream", "put", "putmem_on_stream", n))
            b = nv.get(("stream", "put", "putmem_on_stream", n))
            c = ish.get(("stream", "put", "memcpy_async", n))
            out("%-9s %-12s %-12s %-7s %-12s" % (
                size_label(n), fmt_bw(n, a and a["usec"]), fmt_bw(n, b and b["usec"]),
                fmt_ratio(b["usec"] / a["usec"] if a and b else None), fmt_bw(n, c and c["usec"])))

    out("")
    for t in target_lines:
        out(t)
    return matched


# ---- SVG -------------------------------------------------------------------------------------
COLORS = {"block": "#1f77b4", "warp": "#2ca02c", "thread": "#d62728", "copy": "#7f7f7f",
          "store": "#9467bd", "memcpy": "#7f7f7f", "put": "#1f77b4", "get": "#ff7f0e"}


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def nice_ticks(lo, hi, n=5):
    if hi <= lo:
        hi = lo + 1
    raw = (hi - lo) / n
    mag = 10 ** math.floor(math.log10(raw))
    step = min((m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw), default=mag * 10)
    t, ticks = math.floor(lo / step) * step, []
    while not ticks or ticks[-1] < hi - 1e-9:  # the last tick at or above the top
        ticks.append(round(t, 10))
        t += step
    return ticks


def line_chart(path, title, series, ylabel, xlog2=True, yref=None, ymin=None):
    """series: list of (label, color, dashed, [(x, y), ...])."""
    W, H, L, R, T, B = 820, 460, 70, 220, 40, 55
    pts = [p for s in series for p in s[3]]
    if not pts:
        return
    xs = [math.log2(p[0]) if xlog2 else p[0] for p in pts]
    x0, x1 = min(xs), max(xs)
    ys = [p[1] for p in pts] + ([yref] if yref else [])
    y0 = 0 if ymin is None else ymin
    yt = nice_ticks(y0, max(ys) * 1.05)
    y1 = yt[-1]
    y0 = yt[0]

    def X(x):
        v = math.log2(x) if xlog2 else x
        return L + (v - x0) / max(x1 - x0, 1e-9) * (W - L - R)

    def Y(y):
        return H - B - (y - y0) / max(y1 - y0, 1e-9) * (H - T - B)

    o = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
         'font-family="sans-serif" font-size="12">' % (W, H),
         '<rect width="100%" height="100%" fill="white"/>',
         '<text x="%d" y="22" font-size="15" font-weight="bold">%s</text>' % (L, esc(title))]
    for t in yt:
        o.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>' % (L, W - R, Y(t), Y(t)))
        o.append('<text x="%d" y="%.1f" text-anchor="end">%g</text>' % (L - 6, Y(t) + 4, t))
    if xlog2:
        e = math.ceil(x0)
        while e <= x1 + 1e-9:
            if e % 3 == 0 or (x1 - x0) < 12:
                x = L + (e - x0) / max(x1 - x0, 1e-9) * (W - L - R)
                o.append('<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#eee"/>' % (x, x, T, H - B))
                o.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>' %
                         (x, H - B + 16, size_label(2 ** e).replace(" ", "")))
            e += 1
    o.append('<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="black"/>' % (L, W - R, H - B, H - B))
    o.append('<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="black"/>' % (L, L, T, H - B))
    o.append('<text x="%d" y="%d" text-anchor="middle">bytes</text>' % ((L + W - R) // 2, H - 14))
    o.append('<text transform="translate(16,%d) rotate(-90)" text-anchor="middle">%s</text>' %
             ((T + H - B) // 2, esc(ylabel)))
    if yref:
        o.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="black" stroke-dasharray="2,3"/>' %
                 (L, W - R, Y(yref), Y(yref)))
    for i, (label, color, dashed, data) in enumerate(series):
        if not data:
            continue
        d = " ".join("%.1f,%.1f" % (X(x), Y(y)) for x, y in sorted(data))
        o.append('<polyline fill="none" stroke="%s" stroke-width="2" %s points="%s"/>' %
                 (color, 'stroke-dasharray="6,4"' if dashed else "", d))
        for x, y in data:
            o.append('<circle cx="%.1f" cy="%.1f" r="2.5" fill="%s"/>' % (X(x), Y(y), color))
        ly = T + 10 + 20 * i
        o.append('<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="%s" stroke-width="2" %s/>' %
                 (W - R + 12, W - R + 42, ly, ly, color, 'stroke-dasharray="6,4"' if dashed else ""))
        o.append('<text x="%d" y="%d">%s</text>' % (W - R + 48, ly + 4, esc(label)))
    o.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(o) + "\n")


def bar_chart(path, title, groups, unit):
    """groups: list of (label, ishmem value or None, nvshmem value or None); log scale."""
    groups = [g for g in groups if g[1] or g[2]]
    if not groups:
        return
    W, L, R, T, row = 860, 330, 80, 40, 34
    H = T + row * len(groups) + 50
    vals = [v for g in groups for v in g[1:] if v]
    lo = 10 ** math.floor(math.log10(min(vals)))
    hi = 10 ** math.ceil(math.log10(max(vals)))

    def X(v):
        return L + (math.log10(v) - math.log10(lo)) / (math.log10(hi) - math.log10(lo)) * (W - L - R)

    o = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
         'font-family="sans-serif" font-size="12">' % (W, H),
         '<rect width="100%" height="100%" fill="white"/>',
         '<text x="10" y="22" font-size="15" font-weight="bold">%s</text>' % esc(title)]
    e = math.log10(lo)
    while e <= math.log10(hi) + 1e-9:
        x = X(10 ** e)
        o.append('<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#ddd"/>' % (x, x, T, H - 40))
        o.append('<text x="%.1f" y="%d" text-anchor="middle">%g %s</text>' % (x, H - 24, 10 ** e, unit))
        e += 1
    for i, (label, a, b) in enumerate(groups):
        y = T + i * row
        o.append('<text x="%d" y="%d" text-anchor="end">%s</text>' % (L - 8, y + 18, esc(label)))
        for j, (v, color, name) in enumerate(((a, COLORS["block"], "ishmem"),
                                             (b, "#ff7f0e", "NVSHMEM"))):
            if not v:
                continue
            yy = y + 4 + j * 13
            o.append('<rect x="%d" y="%d" width="%.1f" height="11" fill="%s"/>' %
                     (L, yy, max(X(v) - L, 1), color))
            o.append('<text x="%.1f" y="%d" font-size="10">%.2f</text>' % (X(v) + 4, yy + 9, v))
    o.append('<rect x="%d" y="8" width="12" height="10" fill="%s"/><text x="%d" y="17">ishmem</text>'
             % (W - 200, COLORS["block"], W - 184))
    o.append('<rect x="%d" y="8" width="12" height="10" fill="#ff7f0e"/><text x="%d" y="17">NVSHMEM</text>'
             % (W - 120, W - 104))
    o.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(o) + "\n")


def draw(ish, nv, d):
    os.makedirs(d, exist_ok=True)
    for op in ("put", "get"):
        series = []
        for s in SCOPES:
            for rows, name, dashed in ((ish, "ishmem", False), (nv, "NVSHMEM", True)):
                data = []
                for n in sizes_of(rows, op, op):
                    b = best(rows, op, op, s, n)
                    if b:
                        data.append((n, n / b[1] / 1e3))
                series.append(("%s %s" % (name, s), COLORS[s], dashed, data))
        ce = [(k[3], v["gbps"]) for k, v in ish.items() if k[0] == op and k[2] == "copy-engine"]
        series.append(("copy engine", COLORS["copy"], False, ce))
        line_chart(os.path.join(d, "%s_bw.svg" % op),
                   "Device %s, GPU 0 -> GPU 1 over NVLink (best grid per scope)" % op, series,
                   "GB/s", yref=TARGET_PEAK)
    # Ratio to NVSHMEM, best grid per scope, from 4 KiB.
    series = []
    for op in ("put", "get"):
        for s in SCOPES:
            data = []
            for n in sizes_of(ish, op, op):
                a, b = best(ish, op, op, s, n), best(nv, op, op, s, n)
                if a and b and n >= 512:
                    data.append((n, b[1] / a[1]))
            series.append(("%s %s" % (op, s), COLORS[s], op == "get", data))
    if any(s[3] for s in series):
        line_chart(os.path.join(d, "ratio.svg"),
                   "ishmem speed / NVSHMEM speed (best grid per scope; above 1: ishmem faster)",
                   series, "ratio", yref=1.0, ymin=0)
    series = []
    for rows, name, dashed in ((ish, "ishmem putmem_on_stream", False),
                               (nv, "NVSHMEM putmem_on_stream", True)):
        series.append((name, COLORS["block"] if not dashed else "#ff7f0e", dashed,
                       [(k[3], v["gbps"]) for k, v in rows.items()
                        if k[0] == "stream" and k[2] == "putmem_on_stream"]))
    series.append(("cudaMemcpyAsync", COLORS["memcpy"], False,
                   [(k[3], v["gbps"]) for k, v in ish.items()
                    if k[0] == "stream" and k[2] == "memcpy_async"]))
    line_chart(os.path.join(d, "stream_bw.svg"), "Host put on a stream, GPU 0 -> GPU 1", series,
               "GB/s")
    groups = []
    keys = [k for k in list(ish) + [k for k in nv if k not in ish]
            if k[0] in ("p", "signal", "barrier") or (k[0] == "stream" and k[3] == 8)]
    seen = set()
    for k in keys:
        if k in seen or (k[0] == "stream" and k[2] != "putmem_on_stream"):
            continue
        seen.add(k)
        if k[2].endswith("/one-way/events"):
            continue  # the in-kernel timing of the same runs is shown (free of launch skew)
        label = "%s %s" % (k[2].replace("/one-way/in-kernel", " one way"),
                           size_label(k[3]) if k[0] in ("signal", "stream") else "")
        groups.append((label.strip(), ish.get(k, {}).get("usec"), nv.get(k, {}).get("usec")))
    bar_chart(os.path.join(d, "latency.svg"), "Latencies, GPU 0 <-> GPU 1 (µs, log scale)",
              groups, "µs")


def overhead(paths):
    """Per-call cost of small transfers (8 B to 32 KiB, median over sizes) in each result file:
    the library's block put, the plain store kernel and the copy engine. Where the store kernel,
    which calls no library, differs between files as much as the puts do, the difference is the
    process (launch cost), not the library."""
    print("small-transfer cost per call, median of 8 B..32 KiB (µs): file: block put 1x1024 | "
          "best block put | store16 kernel | copy engine")
    for path in paths:
        rows = load(path)
        if not rows:
            print("%s: no results" % os.path.basename(path))
            continue

        def med(vals):
            vals = sorted(vals)
            return vals[len(vals) // 2] if vals else float("nan")
        small = sorted(n for n in sizes_of(rows, "put", "put") if n <= 32768)
        one = med([rows[k]["usec"] for k in rows if k[:3] == ("put", "put", "block/1x1024")
                   and k[3] <= 32768])
        bb = med([best(rows, "put", "put", "block", n)[1] for n in small
                  if best(rows, "put", "put", "block", n)])
        st = med([rows[k]["usec"] for k in rows if k[:3] == ("put", "put", "store16")
                  and k[3] <= 32768])
        ce = med([rows[k]["usec"] for k in rows if k[:3] == ("put", "put", "copy-engine")
                  and k[3] <= 32768])
        print("%s: %.2f | %.2f | %.2f | %.2f" % (os.path.basename(path), one, bb, st, ce))


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--overhead":
        overhead(sys.argv[2:])
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ishmem", required=True)
    ap.add_argument("--nvshmem")
    ap.add_argument("--text")
    ap.add_argument("--csv")
    ap.add_argument("--svg-dir")
    a = ap.parse_args()
    ish, nv = load(a.ishmem), load(a.nvshmem)
    if not ish:
        print("no ishmem results in %s" % a.ishmem, file=sys.stderr)
        return 1
    rep = Report()
    matched = compare(ish, nv, rep)
    sys.stdout.write(rep.text())
    if a.text:
        with open(a.text, "w") as f:
            f.write(rep.text())
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["bench", "op", "what", "bytes", "ishmem_usec", "nvshmem_usec",
                        "ishmem_gbps", "nvshmem_gbps", "ratio_nvshmem_time_over_ishmem_time"])
            for k, x, y, r in matched:
                w.writerow(list(k) + ["%.4f" % x["usec"], "%.4f" % y["usec"] if y else "",
                                      "%.3f" % x["gbps"], "%.3f" % y["gbps"] if y else "",
                                      "%.4f" % r if r else ""])
    if a.svg_dir:
        draw(ish, nv, a.svg_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
