#!/usr/bin/env python3
"""A causal GQA kernel of dynamic Nq, packed against unpacked, at prefill shapes.

`attn-pack-gqa` packs a masked attention of dynamic rows under
`pack-gqa=auto` (since run 145): the query heads of a kv head become one
head of g * Nq rows whose masks see row / g (token-major: row n * g + j is
head j's token n), so a decode step run by that kernel fills a tile with g
rows. This script measures what packing costs the same kernel's prefill
launches (run 142 measured the head-major order before it, whose tiles
straddled two query heads where block_m does not divide Nq: up to 1.17x the
time; run 145 the token-major one: none).

  python3 bench/gqa_prefill.py --artifacts artifacts [--json out.json]

Loads <artifacts>/kernels/<NAME> (the default) and every
<artifacts>/kernels-<label>/<NAME> as variants (bench/prepare-gpu.sh's
`kernels-unpacked`, compiled with --pack-gqa=unmasked). Correctness first:
each at ragged shapes (gpu_check.py's check: float64 reference, NaN-poisoned outputs, LSE of empty rows). Then at
B * N = 16k for each N, the default and each variant timed alternately for
ROUNDS rounds (peers.bench_ms, L2 flushed), and cuDNN (SDPA with
enable_gqa=True) on the same tensors; prints TFLOP/s and the default's speed
over each variant (median times; > 1: the default is faster).
"""
import argparse
import json
import os
import statistics
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import peers  # noqa: E402
from attnc_runtime import Runtime  # noqa: E402
from gpu_check import check, make_inputs  # noqa: E402

NAME = "d128_gqa4_causal"
CHECK_SHAPES = [(1, 1, 1), (2, 17, 33), (1, 100, 300), (2, 200, 200), (1, 1000, 1000), (1, 1003, 4099)]
SEQLENS = [1000, 1024, 3000, 4096, 16384]
ROUNDS = 3


def cudnn_ms(q, k, v, scale):
    from torch.nn.attention import SDPBackend, sdpa_kernel
    sdpa = torch.nn.functional.scaled_dot_product_attention
    try:
        with sdpa_kernel([SDPBackend.CUDNN_ATTENTION]):
            return peers.bench_ms(lambda: sdpa(q, k, v, is_causal=True, scale=scale, enable_gqa=True))
    except RuntimeError as e:
        print(f"cuDNN: {str(e).splitlines()[0]}", flush=True)
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--artifacts", default="artifacts")
    ap.add_argument("--json")
    a = ap.parse_args()
    rt = Runtime(os.path.join(a.artifacts, "lib", "libAttncRuntime.so"))
    kernels = {"default": rt.load(os.path.join(a.artifacts, "kernels", NAME))}
    for entry in sorted(os.listdir(a.artifacts)):
        path = os.path.join(a.artifacts, entry, NAME)
        if entry.startswith("kernels-") and os.path.isdir(path):
            kernels[entry[len("kernels-"):]] = rt.load(path)
    for label, k in kernels.items():
        print(f"{label}: packed_query_heads {k.problem.get('packed_query_heads', 1)}", flush=True)

    gen = torch.Generator(device="cuda").manual_seed(2026)
    failed, rows = 0, []
    for label, k in kernels.items():
        for (B, nq, nk) in CHECK_SHAPES:
            ok, why, st = check(k, B, nq, nk, k.default_scale(), gen)
            failed += not ok
            print(f"check {label:<10} B {B} Nq {nq:>5} Nk {nk:>5} rel_err {st.get('rel_err', float('nan')):.2e} "
                  f"{'PASS' if ok else 'FAIL ' + why}", flush=True)
    print(f"checks: {len(kernels) * len(CHECK_SHAPES) - failed} passed, {failed} failed", flush=True)

    base = kernels["default"]
    hq, hkv, scale = base.options["heads_q"], base.options["heads_kv"], base.default_scale()
    for N in SEQLENS:
        B = max(1, 16384 // N)
        q, k, v, o, lse = make_inputs(base, B, N, N, hq, hkv, gen)
        flops = peers.attention_flops(B, hq, N, base.problem["head_dim"], True)
        times = {label: [] for label in kernels}
        for _ in range(ROUNDS):
            for label, kern in kernels.items():
                args = kern.args(q, k, v, o, lse, scale)
                times[label].append(peers.bench_ms(lambda: kern.launch(args)))
        med = {label: statistics.median(t) for label, t in times.items()}
        cud = cudnn_ms(q, k, v, scale)
        tf = lambda ms: flops / (ms * 1e-3) / 1e12
        row = dict(B=B, N=N, tflops={label: tf(ms) for label, ms in med.items()},
                   cudnn_tflops=tf(cud) if cud else None,
                   default_over={label: med[label] / med["default"] for label in kernels if label != "default"})
        rows.append(row)
        print(f"B {B:>2} N {N:>5}: " + ", ".join(f"{label} {x:.0f}" for label, x in row["tflops"].items()) +
              (f", cuDNN {row['cudnn_tflops']:.0f}" if cud else "") + " TFLOP/s; default's speed over " +
              ", ".join(f"{label} {r:.3f}" for label, r in row["default_over"].items()), flush=True)
        del q, k, v, o, lse
        torch.cuda.empty_cache()
    if a.json:
        with open(a.json, "w") as f:
            json.dump(dict(environment=peers.environment(), checks_failed=failed, rows=rows), f, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
