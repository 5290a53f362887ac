#!/usr/bin/env python3
"""Sweeps tile candidates (bench/tune.mlir, compiled by bench/prepare-gpu.sh) on the GPU.

Each candidate is first checked on ragged shapes against the float64 reference of
gpu_check.py, then timed at the benchmark shapes of its head dim; prints the best
tile per shape, which is what the sm_90a entries of lib/Transforms/TileConfig.cpp
should say.

  python3 bench/tune.py --artifacts artifacts [--json out.json]
"""
import argparse
import json
import os
import re
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from attnc_runtime import AttncError, Runtime  # noqa: E402
from gpu_check import check, make_inputs  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--artifacts", default="artifacts")
    ap.add_argument("--json")
    a = ap.parse_args()
    rt = Runtime(os.path.join(a.artifacts, "lib", "libAttncRuntime.so"))
    import peers  # bench/peers.py, next to this file
    tdir = os.path.join(a.artifacts, "tune")
    gen = torch.Generator(device="cuda").manual_seed(11)
    results, best = [], {}
    for name in sorted(os.listdir(tdir)):
        m = re.match(r"t(\d+)_([cn])_(\d+)x(\d+)$", name)
        D, causal, bm, bn = int(m[1]), m[2] == "c", int(m[3]), int(m[4])
        try:
            kernel = rt.load(os.path.join(tdir, name))
            ok = all(check(kernel, b, nq, nk, gen)[0] for b, nq, nk in ((1, 113, 203), (2, 200, 100), (1, 257, 513)))
        except AttncError as e:
            print(f"{name}: {e}", flush=True)
            continue
        H = kernel.options["heads_q"]
        regs = kernel.attrs().num_regs
        for N in (1024, 4096, 16384):
            B = 16384 // N
            q, k, v, o, lse = make_inputs(kernel, B, N, N, H, H, gen)
            args = kernel.args(q, k, v, o, lse, kernel.default_scale())
            # Timed as gpu_check.py times attnc and the peers (do_bench median):
            # back-to-back event timing favoured whichever kernel ran first
            # (bench/HISTORY.md run 12).
            ms = peers.bench_ms(lambda: kernel.launch(args))
            flops = 4.0 * B * H * N * N * D / (2 if causal else 1)
            tf = flops / (ms * 1e-3) / 1e12
            row = dict(kernel=name, D=D, causal=causal, block_m=bm, block_n=bn, N=N, tflops=tf, correct=ok, regs=regs)
            results.append(row)
            print(f"{name:<16} regs {regs:>3} N={N:<6} {tf:6.0f} TFLOP/s  {'ok' if ok else 'WRONG'}", flush=True)
            key = (D, causal, N)
            if ok and (key not in best or tf > best[key]["tflops"]):
                best[key] = row
            del q, k, v, o, lse
    print("best tile per shape:")
    for (D, causal, N), r in sorted(best.items()):
        print(f"  D={D:<3} causal={int(causal)} N={N:<6} -> {r['block_m']}x{r['block_n']} ({r['tflops']:.0f} TFLOP/s)")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
