#!/usr/bin/env python3
"""The attention peers attnc is benchmarked against, timed on the local GPU.

Peers (PyTorch 2.x on a CUDA device):
  cudnn      torch SDPA, cuDNN backend (SDPBackend.CUDNN_ATTENTION)
  flash      torch SDPA, FlashAttention-2 backend (SDPBackend.FLASH_ATTENTION)
  efficient  torch SDPA, memory-efficient backend (SDPBackend.EFFICIENT_ATTENTION)
  flex       FlexAttention (torch.nn.attention.flex_attention under torch.compile,
             which generates a Triton kernel per shape)

Every peer is timed with `bench_ms` (triton.testing.do_bench, median), the same
function bench/gpu_check.py times attnc with, so both sides of a ratio are
measured alike and in one process. `ceilings` measures the card's two roofs: a
bf16 matrix product and a device-to-device copy.

Shapes follow the FlashAttention benchmark convention (`default_shapes`):
B * N = 16384 tokens, H = 2048 / D heads (16 for D > 128), Q, K and V of one
shape [B, H, N, D], bf16. FLOPs (`attention_flops`) = 4 * B * H * N^2 * D, the
two matrix products; halved for a causal mask.

bench/gpu_check.py imports this module. As a script it times the peers alone:

  python3 bench/peers.py --hdims 64,128,256 --seqlens 1024,4096,16384 [--peers cudnn,flash,flex] \
      [--json peers.json]
"""
import argparse
import contextlib
import json
import sys

import torch
import triton

DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16}
ALL_PEERS = ("flash", "cudnn", "efficient", "flex")
# do_bench's warm-up and repeat budgets are in milliseconds, not iterations.
WARMUP_MS = 50
REPEAT_MS = 200
# The fp32 reference (SDPA math backend) materializes B*H*N*N fp32 scores;
# above this many it is skipped and no relerr is recorded.
MAX_REFERENCE_SCORES = 2**31


def bench_ms(fn):
    """Median milliseconds of fn() over CUDA-event timed repeats (triton.testing.do_bench).

    Before each timed call do_bench overwrites a buffer larger than the L2
    cache, so an input that would fit in the L2 is not timed out of it.
    """
    return triton.testing.do_bench(fn, warmup=WARMUP_MS, rep=REPEAT_MS, return_mode="median")


def _gemm_tflops(device, n=8192):
    a = torch.randn(n, n, device=device, dtype=torch.bfloat16)
    b = torch.randn(n, n, device=device, dtype=torch.bfloat16)
    return 2 * n**3 / (bench_ms(lambda: a @ b) * 1e-3) / 1e12


def _copy_tbps(device, nbytes=2 * 1024**3):
    x = torch.empty(nbytes, dtype=torch.uint8, device=device).random_()
    y = torch.empty_like(x)
    return 2 * nbytes / (bench_ms(lambda: y.copy_(x)) * 1e-3) / 1e12


def ceilings(device="cuda"):
    """The card's roofs: {"gemm_bf16_tflops": 8192^3 bf16 matmul, "copy_tbps": 2 GiB copy}.

    The copy counts the bytes read plus the bytes written. Inputs are random:
    a product of zeros runs faster than one of real data.
    """
    result = {"gemm_bf16_tflops": _gemm_tflops(device), "copy_tbps": _copy_tbps(device)}
    torch.cuda.empty_cache()  # the helpers' tensors are freed on return
    return result


def attention_flops(B, H, N, D, causal):
    """FLOPs of the forward pass: S = Q K^T and O = P V, 2 * B*H*N*N*D each; half when causal."""
    flops = 4.0 * B * H * N * N * D
    return flops / 2 if causal else flops


def default_shapes(hdims, seqlens, causals):
    """(B, H, N, D, causal) tuples: B * N = 16384 tokens, H = 2048 / D (16 above D = 128)."""
    shapes = []
    for D in hdims:
        H = 2048 // D if D <= 128 else 16
        for N in seqlens:
            B = max(1, 16384 // N)
            for causal in causals:
                shapes.append((B, H, N, D, causal))
    return shapes


def _flex_runner():
    """A compiled flex_attention and create_block_mask; None if this PyTorch lacks them."""
    try:
        from torch.nn.attention.flex_attention import create_block_mask, flex_attention
    except ImportError:
        return None
    import torch._dynamo
    # One compilation per shape (dynamic=False): the default limits would fall
    # back to eager after a few shapes, and eager flex is not the peer.
    # The limit is recompile_limit in newer PyTorch, cache_size_limit before
    # (setting a name this version's config lacks raises).
    config = torch._dynamo.config
    for name in ("recompile_limit", "cache_size_limit"):
        if hasattr(config, name):
            setattr(config, name, 1024)
    return torch.compile(flex_attention, dynamic=False), create_block_mask


def _causal(b, h, q_idx, kv_idx):
    return q_idx >= kv_idx


def _peer_fn(peer, q, k, v, causal, flex):
    """(fn, context): fn() runs one peer's forward pass on q, k, v inside context.

    For the SDPA peers the context is sdpa_kernel([backend]), which restricts
    SDPA to that one backend (an error, not a silent fallback, where it cannot
    run the shape); it is entered once around the warm-up and the timing, so
    the timed callable is the plain SDPA call.
    """
    from torch.nn.attention import SDPBackend, sdpa_kernel
    if peer == "flex":
        if flex is None:
            raise RuntimeError("this PyTorch has no torch.nn.attention.flex_attention")
        compiled, create_block_mask = flex
        N = q.shape[2]
        block_mask = create_block_mask(_causal, None, None, N, N, device=q.device) if causal else None
        return (lambda: compiled(q, k, v, block_mask=block_mask)), contextlib.nullcontext()
    backend = {"flash": SDPBackend.FLASH_ATTENTION, "cudnn": SDPBackend.CUDNN_ATTENTION,
               "efficient": SDPBackend.EFFICIENT_ATTENTION}[peer]
    sdpa = torch.nn.functional.scaled_dot_product_attention
    return (lambda: sdpa(q, k, v, is_causal=causal)), sdpa_kernel([backend])


def _print_now(line):
    print(line, flush=True)


def measure_peers(shapes, dtype=torch.bfloat16, device="cuda", peers=ALL_PEERS, log=_print_now):
    """Times each peer at each (B, H, N, D, causal) shape.

    Returns one dict per (shape, peer): peer, B, H, N, D, causal, dtype and
    either ms, tflops (and relerr, ||O - ref|| / ||ref|| against the fp32 SDPA
    math backend, where the reference fits) or error (a peer that cannot run
    a shape is recorded, not fatal). Passes one line per shape to `log` (a
    function of one string; None: silent).
    """
    flex = _flex_runner() if "flex" in peers else None
    rows = []
    for i, (B, H, N, D, causal) in enumerate(shapes):
        gen = torch.Generator(device=device).manual_seed(1234)
        q, k, v = (torch.randn(B, H, N, D, device=device, dtype=dtype, generator=gen) for _ in range(3))
        ref = None
        if B * H * N * N <= MAX_REFERENCE_SCORES:
            from torch.nn.attention import SDPBackend, sdpa_kernel
            with sdpa_kernel([SDPBackend.MATH]):
                ref = torch.nn.functional.scaled_dot_product_attention(q.float(), k.float(), v.float(),
                                                                       is_causal=causal)
        cells = []
        for peer in peers:
            row = dict(peer=peer, B=B, H=H, N=N, D=D, causal=causal, dtype=str(dtype).split(".")[-1])
            try:
                fn, context = _peer_fn(peer, q, k, v, causal, flex)
                with context:
                    out = fn()  # the first call compiles (flex) and creates handles: not timed
                    ms = bench_ms(fn)
                row.update(ms=ms, tflops=attention_flops(B, H, N, D, causal) / (ms * 1e-3) / 1e12)
                if ref is not None:
                    row["relerr"] = ((out.float() - ref).norm() / ref.norm()).item()
                cells.append(f"{peer} {row['tflops']:.0f}")
            except Exception as e:  # noqa: BLE001 - any failure of a peer is data
                row["error"] = f"{type(e).__name__}: {str(e)[:160]}"
                cells.append(f"{peer} error ({type(e).__name__})")
            rows.append(row)
        if log:
            log(f"peers [{i + 1}/{len(shapes)}] B={B} H={H} N={N} D={D} causal={int(causal)}: "
                + ", ".join(cells) + " TFLOP/s")
        del q, k, v, ref
        torch.cuda.empty_cache()
    return rows


def environment():
    """The software and device the numbers were measured on."""
    return {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "triton": triton.__version__,
            "cudnn": torch.backends.cudnn.version(), "cuda": torch.version.cuda}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dtype", default="bf16", choices=sorted(DTYPES))
    ap.add_argument("--hdims", default="64,128,256")
    ap.add_argument("--seqlens", default="1024,4096,16384")
    ap.add_argument("--causal", default="0,1", help="comma-separated 0/1")
    ap.add_argument("--peers", default=",".join(ALL_PEERS))
    ap.add_argument("--json", help="write the ceilings and all rows here")
    a = ap.parse_args(argv)
    peers = tuple(a.peers.split(","))
    unknown = set(peers) - set(ALL_PEERS)
    if unknown:
        ap.error(f"unknown peers {sorted(unknown)}; known: {', '.join(ALL_PEERS)}")
    shapes = default_shapes([int(x) for x in a.hdims.split(",")], [int(x) for x in a.seqlens.split(",")],
                            [bool(int(x)) for x in a.causal.split(",")])
    env = environment()
    print(" | ".join(f"{k} {v}" for k, v in env.items()), flush=True)
    ceil = ceilings()
    print(f"ceilings: bf16 GEMM 8192^3 {ceil['gemm_bf16_tflops']:.0f} TFLOP/s, copy {ceil['copy_tbps']:.2f} TB/s",
          flush=True)
    rows = measure_peers(shapes, DTYPES[a.dtype], peers=peers)
    print(f"{'B':>3} {'H':>3} {'N':>6} {'D':>4} {'causal':>6} " + " ".join(f"{p:>10}" for p in peers)
          + "   (TFLOP/s)")
    for s in shapes:
        cells = []
        for p in peers:
            r = next(r for r in rows if r["peer"] == p and (r["B"], r["H"], r["N"], r["D"], r["causal"]) == s)
            cells.append(f"{r['tflops']:10.0f}" if "tflops" in r else f"{'n/a':>10}")
        print(f"{s[0]:3d} {s[1]:3d} {s[2]:6d} {s[3]:4d} {int(s[4]):6d} " + " ".join(cells))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"environment": env, "ceilings": ceil, "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
