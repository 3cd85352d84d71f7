#!/usr/bin/env python3
"""PyTorch baseline for `closure bench bool`: what a GPU user gets from PyTorch alone.

- one closure step R = R | (R @ R > 0) in bf16 (one GEMM with R added, then a compare),
  at n = 8192, 16384, 32768;
- fp32 matmul at n = 8192 with TF32 off (the float GEMM ceiling of issue 5);
- full repeated-squaring closure of random DAGs (about 8 edges per vertex, uniform
  pairs u < v, the same model as `closure bench bool --closure`) at n = 16384, 32768,
  65536 where memory allows, until nothing changes (as closure's square_in_place).

Times are CUDA-event medians after warm-up; --times writes "<kind> <n> <seconds>" lines
that `closure bench bool --torch-times` reads, so both sides come from the same run.
"""
import argparse
import math
import statistics
import sys

import torch


def timed(fn, warmup=2, repeat=5):
    """Median seconds of fn() over `repeat` runs after `warmup`, by CUDA events."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(repeat):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / 1e3)
    return statistics.median(times)


def step(r):
    # R@R + R > 0 is R | (R@R > 0) for 0/1 entries: one GEMM (fp32 accumulation, exact for
    # these counts) and one compare. bf16 keeps the tensor cores' fastest dense path.
    return (torch.addmm(r, r, r) > 0).to(torch.bfloat16)


def random_dag(n, degree, seed):
    """Dense bf16 adjacency of a DAG in topological order: degree*n uniform pairs u < v."""
    g = torch.Generator(device="cuda").manual_seed(seed)
    m = int(degree * n)
    u = torch.randint(0, n, (m,), device="cuda", generator=g)
    v = torch.randint(0, n, (m,), device="cuda", generator=g)
    keep = u != v
    u, v = u[keep], v[keep]
    lo, hi = torch.minimum(u, v), torch.maximum(u, v)
    r = torch.zeros((n, n), dtype=torch.bfloat16, device="cuda")
    r[lo, hi] = 1
    return r


def closure(r):
    """Repeated squaring until nothing changes (at most ceil(log2 n) rounds)."""
    rounds = 0
    for _ in range(max(1, math.ceil(math.log2(r.shape[0])))):
        nxt = step(r)
        rounds += 1
        changed = not torch.equal(nxt, r)
        r = nxt
        if not changed:
            break
    return r, rounds


def fits(n, matrices):
    free, _ = torch.cuda.mem_get_info()
    return matrices * n * n * 2 < 0.9 * free


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--square", default="8192,16384,32768", help="n for the single step")
    p.add_argument("--closure", default="16384,32768,65536", help="n for the full closure")
    p.add_argument("--degree", type=float, default=8.0, help="edges per vertex of the DAGs")
    p.add_argument("--fp32", type=int, default=8192, help="n for the fp32 matmul (0: skip)")
    p.add_argument("--times", help="write '<kind> <n> <seconds>' lines here")
    a = p.parse_args()
    if not torch.cuda.is_available():
        sys.exit("torch_closure_baseline: no CUDA device")
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    print(f"PyTorch {torch.__version__} on {torch.cuda.get_device_name()}", flush=True)
    lines = []

    print(f"{'what':<28} {'n':>6} {'seconds':>10} {'rate':>24}  note", flush=True)
    for n in [int(x) for x in a.square.split(",") if x]:
        if not fits(n, 5):
            print(f"{'bf16 step R|(R@R>0)':<28} {n:>6} skipped: memory", flush=True)
            continue
        r = (torch.rand((n, n), device="cuda") < 0.01).to(torch.bfloat16)
        s = timed(lambda: step(r))
        print(f"{'bf16 step R|(R@R>0)':<28} {n:>6} {s:>10.4g} {n**3 / s:>14.3e} Bool MAC/s", flush=True)
        lines.append(f"square {n} {s:.6g}")
        del r
        torch.cuda.empty_cache()

    if a.fp32:
        n = a.fp32
        x, y = torch.rand((n, n), device="cuda"), torch.rand((n, n), device="cuda")
        s = timed(lambda: x @ y)
        print(f"{'fp32 matmul, TF32 off':<28} {n:>6} {s:>10.4g} {2 * n**3 / s / 1e12:>14.2f} TFLOP/s", flush=True)
        lines.append(f"fp32 {n} {s:.6g}")
        del x, y
        torch.cuda.empty_cache()

    for n in [int(x) for x in a.closure.split(",") if x]:
        if not fits(n, 6):
            print(f"{'closure, repeated squaring':<28} {n:>6} skipped: memory", flush=True)
            continue
        r0 = random_dag(n, a.degree, 1000 + n)
        edges = int(r0.sum(dtype=torch.float64).item())
        step(r0)  # warm-up: allocator, cuBLAS heuristics
        torch.cuda.synchronize()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        result, rounds = closure(r0)
        end.record()
        end.synchronize()
        s = start.elapsed_time(end) / 1e3
        pairs = int(result.sum(dtype=torch.float64).item())
        print(f"{'closure, repeated squaring':<28} {n:>6} {s:>10.4g} {rounds:>14d} rounds  "
              f"{edges} edges, {pairs} pairs", flush=True)
        lines.append(f"closure {n} {s:.6g}")
        del r0, result
        torch.cuda.empty_cache()

    if a.times:
        with open(a.times, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
