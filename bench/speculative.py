#!/usr/bin/env python3
"""A speculative decode step through attnc.attention: its decode-step kernel against the general one.

A speculative step verifies Sq draft tokens per sequence against the cache:
q [B, 32, Sq, 128], k and v [B, 8, Nk, 128] (GQA 32:8, BHSD, bf16), causal
with the queries as the cache's last Sq tokens (bottom-right alignment).
attnc.attention gives Sq up to 32 (at GQA 4:1: max_query_tokens) a kernel
compiled for that many tokens (KernelSpec.query_tokens: query heads packed
per kv head into at most 128 rows, keys split at launch); the same call with the decode-step kernels refused runs on
the class's general kernel (any Sq: not packed; at D = 128 split at launch, one split where the grid fills). Both in one
process on the same tensors, timed with peers.bench_ms (do_bench median, L2
flushed), as bench/decode.py times; TB/s = bytes of Q, K, V and O, each once,
/ median time. Each output is first checked against float64 attention.

Kernels: precompiled where the compiler is, into a directory the runtime
loads from (ATTNC_KERNEL_DIR):
  python3 bench/speculative.py --precompile DIR
then on the GPU:
  ATTNC_KERNEL_DIR=DIR python3 bench/speculative.py --json out.json
"""

import argparse
import dataclasses
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))

from attnc import KernelSpec  # noqa: E402

HEADS_Q, HEADS_KV, HEAD_DIM = 32, 8, 128
TOKENS = (1, 4, 8, 16, 32)
SHAPES = ((8, 8192), (1, 32768))  # (B, Nk)
SPEC = KernelSpec(dtype="bf16", heads_q=HEADS_Q, heads_kv=HEADS_KV, head_dim=HEAD_DIM, head_dim_v=HEAD_DIM,
                  mask="causal_bottom_right")
REL_TOL = 2e-2


def reference(q, k, v):
    """float64 attention with the queries as the last Sq of Nk positions."""
    import torch
    group = q.shape[1] // k.shape[1]
    q, k, v = (t.double() for t in (q, k.repeat_interleave(group, 1), v.repeat_interleave(group, 1)))
    s = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
    sq, sk = s.shape[-2:]
    hidden = torch.ones(sq, sk, dtype=torch.bool, device=q.device).triu(sk - sq + 1)
    return torch.softmax(s.masked_fill(hidden, -math.inf), -1) @ v


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--precompile", metavar="DIR", help="compile the kernels this script times into DIR and exit")
    ap.add_argument("--json", help="write the rows here")
    a = ap.parse_args()
    if a.precompile:
        from attnc.precompile import precompile
        specs = [SPEC] + [dataclasses.replace(SPEC, query_tokens=n) for n in TOKENS]
        for spec, seconds in precompile(specs, a.precompile):
            print(f"{spec.key}: " + ("exists" if seconds is None else f"compiled in {seconds * 1e3:.0f} ms"))
        return 0
    import torch
    import attnc
    import attnc.ops
    sys.path.insert(0, HERE)
    from peers import bench_ms

    decode_tokens = attnc.ops._decode_tokens
    kernels = {"decode-step": decode_tokens, "general": lambda q, heads_kv: None}
    gen = torch.Generator(device="cuda").manual_seed(2026)
    rows, failed = [], 0
    print(f"{'B':>2} {'Nk':>6} {'Sq':>3} " + " ".join(f"{k + ' TB/s':>16}" for k in kernels) + "   speedup")
    for batch, keys in SHAPES:
        k, v = (torch.randn(batch, HEADS_KV, keys, HEAD_DIM, device="cuda", dtype=torch.bfloat16, generator=gen)
                for _ in range(2))
        for tokens in TOKENS:
            q = torch.randn(batch, HEADS_Q, tokens, HEAD_DIM, device="cuda", dtype=torch.bfloat16, generator=gen)
            nbytes = 2 * (2 * q.numel() + k.numel() + v.numel())
            want = reference(q, k, v)
            row = dict(B=batch, Nk=keys, Sq=tokens)
            for name, choose in kernels.items():
                attnc.ops._decode_tokens = choose
                attnc.ops._plans.clear()
                call = lambda: attnc.attention(q, k, v, causal=True, causal_alignment="bottom_right")  # noqa: E731
                o = call()
                err = ((o.double() - want).norm() / want.norm()).item()
                ok = err < REL_TOL and not torch.isnan(o).any().item()
                failed += not ok
                row[name] = dict(tbps=nbytes / bench_ms(call) / 1e9, rel_err=err, ok=ok)
            attnc.ops._decode_tokens = decode_tokens
            speedup = row["decode-step"]["tbps"] / row["general"]["tbps"]
            row["speedup"] = speedup
            rows.append(row)
            print(f"{batch:>2} {keys:>6} {tokens:>3} " + " ".join(
                f"{row[k]['tbps']:>10.2f} {'ok' if row[k]['ok'] else 'FAIL':>5}" for k in kernels)
                + f"   {speedup:.2f}x")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(dict(device=torch.cuda.get_device_name(), rows=rows), f, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
