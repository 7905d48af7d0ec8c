#!/usr/bin/env python3
"""NCCL through PyTorch: the peer of ishmem-gpu-bench-coll and nvshmem-coll-bench.

torch.distributed with the NCCL backend, one rank per GPU, timed as the C++ benchmarks time
(benchmarks/gpu/gpu_harness.h): CUDA events around batches of calls on the current stream,
after warm-ups; the median of the batches, per call. The same sizes and CSV columns
(impl,bench,op,what,blocks,threads,bytes,usec,gbps; impl nccl):
  reduce    stream all_reduce               float sum, 8 B to 256 MiB (bytes: the tensor)
  alltoall  stream all_to_all_single        1 KiB to 64 MiB per rank (bytes: per rank)
  broadcast stream broadcast                from rank 0, 8 B to 64 MiB
  fcollect  stream all_gather_into_tensor   8 B to 16 MiB per rank (bytes: per rank)
Each result is checked against the values it must hold. Rank 0 reports.

  usage: python3 -m torch.distributed.run --standalone --nproc_per_node 2 \
             benchmarks/nvshmem/nccl_collectives.py [--csv FILE] [--largest BYTES] [--quick]
         or under mpirun -np 2 (the ranks come from OMPI_COMM_WORLD_*; MASTER_ADDR/PORT
         default to 127.0.0.1:29533)
"""
import argparse
import os
import sys

import torch
import torch.distributed as dist

KIB, MIB = 1 << 10, 1 << 20


def coll_sizes(lo, hi):
    """8 B, 64 B, then every power of 4 from 1 KiB (benchmarks/gpu/gpu_coll.h's sizes)."""
    sizes = [b for b in (8, 64) if lo <= b <= hi]
    b = KIB
    while b <= hi:
        if b >= lo:
            sizes.append(b)
        b *= 4
    return sizes


def batch_for(nbytes, cap):
    """gpu_harness.h's calls per timed batch."""
    return max(1, min((64 * MIB) // max(nbytes, 1), 50, cap))


def time_us(call, nbytes, plan):
    """Median microseconds per call: warm-ups, then timed batches, on the current stream."""
    for _ in range(plan["warmup"]):
        call()
    torch.cuda.synchronize()
    batch, per_call = batch_for(nbytes, plan["batch_cap"]), []
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    for _ in range(plan["runs"]):
        start.record()
        for _ in range(batch):
            call()
        stop.record()
        stop.synchronize()
        per_call.append(1000.0 * start.elapsed_time(stop) / batch)
    per_call.sort()
    return per_call[len(per_call) // 2]


def values(rank, n, device):
    """gpu_coll.h's value_of(rank, k) for k in [0, n): exact in float32."""
    k = torch.arange(n, device=device, dtype=torch.int64)
    return (rank * 8192 + k % 8191 + 1).to(torch.float32)


def expect(got, want, what):
    if not torch.equal(got, want):
        bad = (got != want).nonzero()[0].item()
        raise SystemExit("nccl_collectives: %s: element %d is %g, not %g" %
                         (what, bad, got[bad].item(), want[bad].item()))


class Report:
    def __init__(self, path, rank):
        self.rank = rank
        self.csv = open(path, "w") if path and rank == 0 else None
        if self.csv:
            self.csv.write("impl,bench,op,what,blocks,threads,bytes,usec,gbps\n")

    def row(self, bench, what, nbytes, us):
        if self.rank != 0:
            return
        gbps = nbytes / us / 1e3 if us > 0 else 0
        if self.csv:
            self.csv.write("nccl,%s,stream,%s,0,0,%d,%.4f,%.3f\n" % (bench, what, nbytes, us, gbps))
            self.csv.flush()
        print("%-8s %-9s %-6s %-28s %6d %6d %11d %11.3f %9.2f" %
              ("nccl", bench, "stream", what, 0, 0, nbytes, us, gbps), flush=True)


def run(args, report, rank, world, device):
    plan = {"warmup": 2, "runs": 7, "batch_cap": 50}
    caps = {"reduce": 256 * MIB, "alltoall": 64 * MIB, "broadcast": 64 * MIB,
            "fcollect": 16 * MIB}
    if args.quick:
        plan.update(runs=3, batch_cap=10)
        caps = {k: min(v, 4 * MIB if k in ("reduce", "broadcast") else MIB)
                for k, v in caps.items()}
    caps = {k: min(v, args.largest) for k, v in caps.items()}
    most = max(caps["reduce"], caps["broadcast"], world * caps["alltoall"],
               world * caps["fcollect"]) // 4
    src = values(rank, most, device)
    every = [values(r, most, device) for r in range(world)]

    for nbytes in coll_sizes(8, caps["reduce"]):
        n = nbytes // 4
        buf = src[:n].clone()
        # In place, as NCCL is used: each timed call sums the previous one's result (the
        # values grow to inf, at the same speed), so the check is of one more call from the
        # sources.
        us = time_us(lambda: dist.all_reduce(buf), nbytes, plan)
        buf.copy_(src[:n])
        dist.all_reduce(buf)
        expect(buf, sum(v[:n] for v in every), "all_reduce")
        report.row("reduce", "all_reduce", nbytes, us)

    for nbytes in coll_sizes(KIB, caps["alltoall"]):
        m = nbytes // 4
        out = torch.empty(world * m, device=device)
        us = time_us(lambda: dist.all_to_all_single(out, src[:world * m]), nbytes, plan)
        expect(out, torch.cat([every[j][rank * m:(rank + 1) * m] for j in range(world)]),
               "all_to_all_single")
        report.row("alltoall", "all_to_all_single", nbytes, us)

    for nbytes in coll_sizes(8, caps["broadcast"]):
        n = nbytes // 4
        buf = src[:n].clone() if rank == 0 else torch.zeros(n, device=device)
        us = time_us(lambda: dist.broadcast(buf, 0), nbytes, plan)
        expect(buf, every[0][:n], "broadcast")
        report.row("broadcast", "broadcast", nbytes, us)

    for nbytes in coll_sizes(8, caps["fcollect"]):
        m = nbytes // 4
        out = torch.empty(world * m, device=device)
        us = time_us(lambda: dist.all_gather_into_tensor(out, src[:m]), nbytes, plan)
        expect(out, torch.cat([v[:m] for v in every]), "all_gather_into_tensor")
        report.row("fcollect", "all_gather_into_tensor", nbytes, us)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--csv", help="write the rows here (rank 0)")
    # not --max: torch.distributed.run would take it for an abbreviation of its --max-restarts
    p.add_argument("--largest", type=lambda s: int(s, 0), default=1 << 30, help="largest size")
    p.add_argument("--quick", action="store_true", help="fewer sizes and runs")
    args = p.parse_args()
    # Under mpirun: the ranks from Open MPI's environment.
    for var, ompi in (("RANK", "OMPI_COMM_WORLD_RANK"), ("WORLD_SIZE", "OMPI_COMM_WORLD_SIZE"),
                      ("LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK")):
        if var not in os.environ and ompi in os.environ:
            os.environ[var] = os.environ[ompi]
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29533")
    local = int(os.environ.get("LOCAL_RANK", "0"))
    if not torch.cuda.is_available():
        sys.exit("nccl_collectives: no CUDA device visible to PyTorch")
    torch.cuda.set_device(local % torch.cuda.device_count())
    device = torch.device("cuda", torch.cuda.current_device())
    try:  # device_id (torch 2.3 and later) binds the communicator to the GPU at once
        dist.init_process_group("nccl", device_id=device)
    except TypeError:
        dist.init_process_group("nccl")
    rank, world = dist.get_rank(), dist.get_world_size()
    report = Report(args.csv, rank)
    if rank == 0:
        nccl = torch.cuda.nccl.version()
        nccl = ".".join(map(str, nccl)) if isinstance(nccl, tuple) else str(nccl)
        print("# nccl collectives (torch %s, NCCL %s), %d ranks (%s); columns: impl bench op "
              "what blocks threads bytes usec GB/s" %
              (torch.__version__, nccl, world,
               torch.cuda.get_device_name(device)), flush=True)
    run(args, report, rank, world, device)
    dist.barrier()
    dist.destroy_process_group()
    if report.csv:
        report.csv.close()


if __name__ == "__main__":
    main()
