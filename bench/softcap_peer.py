#!/usr/bin/env python3
"""What a logit softcap costs a peer: FlexAttention with and without one.

attnc's softcap (attn.softcap, s = cap * tanh(s / cap)) costs a second MUFU op
per score next to the exponential; gpu_check.py's ablation columns time it
against the same kernel without it. This script times FlexAttention (the
compiled flex_attention of bench/peers.py) on the same shapes with a tanh
softcap score_mod and without one, in one process, and prints the ratio of
the two speeds, the figure gpu_check.py prints for attnc:

  python3 bench/softcap_peer.py [--cap 30] [--seqlen 4096] [--json out.json]

Shapes: bf16, B * N = 16k tokens, D 64 (32 heads), 128 and 256 (16 heads),
without a mask and causal. TFLOP/s counts 4 B H N^2 D (halved when causal).
"""
import argparse
import json

import torch

import peers


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cap", type=float, default=30.0)
    ap.add_argument("--seqlen", type=int, default=4096)
    ap.add_argument("--json", help="write the rows here")
    a = ap.parse_args()
    flex = peers._flex_runner()
    if flex is None:
        raise SystemExit("softcap_peer.py: this PyTorch has no flex_attention")
    compiled, create_block_mask = flex
    cap = a.cap

    def softcap(score, b, h, q_idx, kv_idx):
        return cap * torch.tanh(score / cap)

    rows = []
    N = a.seqlen
    B = max(1, 16384 // N)
    print(f"{'D':>4} {'causal':>6} {'plain':>7} {'softcap':>8} {'plain/softcap':>14}  (FlexAttention TFLOP/s, cap {cap:g})",
          flush=True)
    for D, H in ((64, 32), (128, 16), (256, 16)):
        gen = torch.Generator(device="cuda").manual_seed(7)
        q, k, v = (torch.randn(B, H, N, D, device="cuda", dtype=torch.bfloat16, generator=gen) for _ in range(3))
        for causal in (False, True):
            mask = create_block_mask(peers._causal, None, None, N, N, device="cuda") if causal else None
            flops = peers.attention_flops(B, H, N, D, causal)
            speeds = {}
            for label, mod in (("plain", None), ("softcap", softcap)):
                fn = lambda: compiled(q, k, v, score_mod=mod, block_mask=mask)  # noqa: E731
                fn()  # compiles
                speeds[label] = flops / (peers.bench_ms(fn) * 1e-3) / 1e12
            ratio = speeds["plain"] / speeds["softcap"]
            rows.append(dict(D=D, H=H, B=B, N=N, causal=causal, cap=cap, **speeds, plain_over_softcap=ratio))
            print(f"{D:>4} {int(causal):>6} {speeds['plain']:7.0f} {speeds['softcap']:8.0f} {ratio:14.3f}", flush=True)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(dict(device=torch.cuda.get_device_name(), torch=torch.__version__, rows=rows), f, indent=1)


if __name__ == "__main__":
    main()
