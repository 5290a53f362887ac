#!/usr/bin/env python3
"""attnc's varlen prefill kernels on the GPU: correctness sweep, then TFLOP/s next to the dense kernel and cuDNN.

bench/varlen.mlir's kernels take Q, K and V packed without padding ([1, total, H, D], BSHD) with cumulative
offsets cu_seqlens_q / cu_seqlens_k ([B + 1], int32), bottom-right causal per sequence, GQA 32:8, bf16;
bench/prepare-gpu.sh compiles them into artifacts/varlen/.

The GQA kernels pack the 4 query heads of a kv head into a tile's rows (pack-gqa=auto), and those above D = 64
split the keys at launch where the grid is small (attn-split-kv's dynamic-rows=auto: one split count for the
batch, each split a share of every sequence's own keys); prepare-gpu.sh also compiles varlen_d128_causal
unpacked (artifacts/varlen-unpacked/) and unsplit (artifacts/varlen-whole/) to time next to it.

Correctness: batches whose sequences include length 0 and 1, a chunked prefill (more keys than queries),
one sequence much longer than the rest, a batch of more than 32 sequences (the tile scheduler's scan
takes 32 at a time), decode and speculative steps (1 to 5 query tokens against 100 to 3000 keys: a packed
tile holds a sequence's 4 to 20 rows), and small batches that the split kernels split (a few sequences of 1 to
3 tokens against up to 30000 keys, one of no keys and one of one key; one sequence of 200 tokens against 30000
keys, several tiles of a sequence each split); O and LSE are poisoned with NaN before each launch and compared with float64 attention
of each sequence over its own keys (O = 0 and LSE = -inf for a row without keys), and the runtime checks the
offsets (ATTNC_CHECK_INDEX_INPUTS=1); q and O have 3 rows past cu_seqlens_q[B], which must stay NaN.

Benchmark: 16 sequences of lengths drawn between 100 and 4000 tokens (fixed seed), and 256 of 64 to 512, causal,
GQA 32:8, D = 128; the unpacked and the unsplit kernels on the same batches. Then varlen decode steps: 64
sequences of one query token against 1000 to 4000 cached keys, and 4 sequences against 8000 to 32000 (which the
split kernel splits), bottom-right causal, in TB/s (Q, K, V and O once), packed and split, unsplit, unpacked.
Split kernels get a caller's workspace, as attnc.attention gives them.
TFLOP/s count the useful work (each sequence's causal attention). Next to it, in the same process: the dense
attnc kernel on the padded batch (B sequences, N = the longest) and on a batch of B equal sequences of the mean
length, each at its own work's TFLOP/s (the dense kernel's rate); cuDNN and FlashAttention-2 (SDPA) on the
padded batch, timed, with the useful work's TFLOP/s and their own.

  python3 bench/varlen.py --artifacts artifacts [--json varlen.json] [--no-check | --check-only]
"""
import argparse
import json
import math
import os
import random
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from attnc_runtime import AttncError, Runtime  # noqa: E402
import peers  # noqa: E402

HEADS_Q, HEADS_KV = 32, 8
KERNELS = ("varlen_d128_causal", "varlen_d64_causal", "varlen_d128_full", "varlen_d80_bhsd_causal",
           "varlen_d192_dv128_causal")
REL_TOL = 2e-2
SPARE_ROWS = 3
# (query lengths, key lengths) per batch of the sweep.
CHECK_BATCHES = (
    ((1,), (1,)),
    ((100, 0, 1, 257, 3000), (100, 0, 1, 257, 3000)),
    ((5, 130, 64, 1), (300, 130, 700, 9)),  # chunked prefill: more keys than queries
    (tuple(random.Random(3).randint(0, 300) for _ in range(45)),) * 2,  # more than 32 sequences
    ((1,) * 40, tuple(random.Random(4).randint(100, 3000) for _ in range(40))),  # decode
    (tuple(random.Random(5).randint(1, 5) for _ in range(24)),
     tuple(random.Random(6).randint(100, 3000) for _ in range(24))),  # speculative steps
    ((1, 1, 1, 1), (0, 30000, 1, 7000)),  # a small decode batch: split
    ((3, 1), (9000, 20000)),  # a small speculative batch: split
    ((200,), (30000,)),  # a chunk of a long prefill: split tiles of one sequence
)
# Whether a split kernel's launch of CHECK_BATCHES[i] splits (its workspace is
# not empty), where the batch is there for it: the last three split (whether
# the others do depends on the kernel's heads).
SPLITS = {6: True, 7: True, 8: True}
# Varlen decode steps: sequences, and the range of their cached keys (64 fill
# the SMs unsplit; 4 are split).
DECODE_BATCHES = ((64, 1000, 4000), (4, 8000, 32000))
# (sequences, shortest, longest): the prefill batch, and many short
# sequences (the scheduler scans 32 offsets a step, and padding wastes most).
BENCH_BATCHES = ((16, 100, 4000), (256, 64, 512))


def offsets(lengths):
    cu = [0]
    for n in lengths:
        cu.append(cu[-1] + n)
    return torch.tensor(cu, dtype=torch.int32, device="cuda")


def causal_flag(name):
    return "causal" in name


def head_dim(kernel):
    return kernel.problem["head_dim"]


class Shape:
    """A kernel's heads, head dims, dtype and layout (its manifest)."""

    def __init__(self, kernel):
        p, o = kernel.problem, kernel.manifest["options"]
        self.hq, self.hkv = o["heads_q"], o["heads_kv"]
        self.d, self.dv = p["head_dim"], p["head_dim_v"]
        self.dtype = {"bf16": torch.bfloat16, "f16": torch.float16}[p["dtype"]]
        self.bshd = p["layout"] == "bshd"

    def packed(self, total, heads, dim, gen, fill=None):
        """A packed tensor of `total` rows in the kernel's layout: [1, total, H, D] (bshd) or [1, H, total, D]."""
        shape = (1, total, heads, dim) if self.bshd else (1, heads, total, dim)
        if fill is not None:
            return torch.full(shape, fill, device="cuda", dtype=self.dtype)
        return torch.randn(shape, device="cuda", dtype=self.dtype, generator=gen)

    def logical(self, t):
        """[H, total, D] of a packed tensor."""
        return t[0].transpose(0, 1) if self.bshd else t[0]


def reference(shape, q, k, v, lq, lk, causal, scale):
    """float64 O [Hq, total_q, Dv] and LSE [Hq, total_q] of each sequence over its own keys, bottom-right
    causal: row i of a sequence with n queries and m keys sees keys j <= i + m - n."""
    group = shape.hq // shape.hkv
    q, k, v = (shape.logical(t).double() for t in (q, k, v))
    out = torch.zeros(shape.hq, q.shape[1], shape.dv, dtype=torch.float64, device="cuda")
    lse = torch.full((shape.hq, q.shape[1]), -math.inf, dtype=torch.float64, device="cuda")
    qs = ks = 0
    for n, m in zip(lq, lk):
        if n and m:
            kb = k[:, ks:ks + m].repeat_interleave(group, 0)
            vb = v[:, ks:ks + m].repeat_interleave(group, 0)
            s = (q[:, qs:qs + n] @ kb.transpose(-1, -2)) * scale
            if causal:
                i = torch.arange(n, device="cuda")[:, None]
                j = torch.arange(m, device="cuda")[None, :]
                s = s.masked_fill(j > i + m - n, -math.inf)
            row_lse = torch.logsumexp(s, dim=-1)
            p = torch.exp(s - row_lse[..., None]).nan_to_num(0.0)
            out[:, qs:qs + n] = p @ vb
            lse[:, qs:qs + n] = row_lse
        qs, ks = qs + n, ks + m
    return out, lse


def check(kernel, name, lq, lk, gen, splits=None):
    shape = Shape(kernel)
    scale = 1.0 / math.sqrt(shape.d)
    # Rows past cu_seqlens_q[B] must not be written (nor read): q and O have SPARE_ROWS more.
    tq, tk = sum(lq) + SPARE_ROWS, max(1, sum(lk))
    q = shape.packed(tq, shape.hq, shape.d, gen)
    k = shape.packed(tk, shape.hkv, shape.d, gen)
    v = shape.packed(tk, shape.hkv, shape.dv, gen)
    o = shape.packed(tq, shape.hq, shape.dv, gen, fill=float("nan"))
    has_lse = kernel.problem["has_lse"]
    lse = torch.full((1, shape.hq, tq), float("nan"), device="cuda") if has_lse else None
    cu_q, cu_k = offsets(lq), offsets(lk)
    args = kernel.args(q, k, v, o, lse, scale, cu_seqlens_q=cu_q, cu_seqlens_k=cu_k)
    if kernel.split_kv and splits is not None and (kernel.workspace_size(args) > 0) != splits:
        return None, f"the launch {'does not split' if splits else 'splits'} the keys"
    kernel.launch(args)
    torch.cuda.synchronize()
    ref, ref_lse = reference(shape, q, k, v, lq, lk, causal_flag(name), scale)
    rows = sum(lq)
    got = shape.logical(o)[:, :rows].double()
    ref = ref[:, :rows]
    if torch.isnan(got).any():
        return None, "NaN in O"
    if not torch.isnan(shape.logical(o)[:, rows:]).all() or (lse is not None and not torch.isnan(lse[0, :, rows:]).all()):
        return None, "a row past cu_seqlens_q[B] was written"
    rel = ((got - ref).norm() / ref.norm().clamp_min(1e-30)).item()
    if rel > REL_TOL:
        return rel, f"rel_err {rel:.2e} > {REL_TOL:.0e}"
    empty = torch.isinf(ref_lse[:, :rows])
    if empty.any() and got[empty].abs().max().item() != 0:
        return rel, "a row without keys has O != 0"
    if lse is not None:
        got_lse = lse[0, :, :rows].double()
        if torch.isnan(got_lse).any():
            return rel, "NaN in LSE"
        finite = torch.isfinite(ref_lse[:, :rows])
        if not torch.equal(torch.isfinite(got_lse), finite):
            return rel, "LSE -inf where a row has keys, or finite where it has none"
        err = (got_lse[finite] - ref_lse[:, :rows][finite]).abs().max().item() if finite.any() else 0.0
        if err > 2e-2:
            return rel, f"LSE error {err:.2e}"
    return rel, ""


def sweep(kernels):
    gen = torch.Generator(device="cuda").manual_seed(2030)
    os.environ["ATTNC_CHECK_INDEX_INPUTS"] = "1"
    rows, failed = [], 0
    for name, kernel in kernels.items():
        for i, (lq, lk) in enumerate(CHECK_BATCHES):
            try:
                rel, why = check(kernel, name, list(lq), list(lk), gen, SPLITS.get(i))
            except AttncError as e:
                rel, why = None, str(e)
            ok = not why
            failed += not ok
            rows.append(dict(kernel=name, lengths_q=list(lq), lengths_k=list(lk), rel_err=rel, ok=ok, why=why))
            shown = list(lq) if len(lq) <= 8 else f"{len(lq)} sequences"
            print(f"{name:<20} q {shown} k {'= q' if lq == lk else list(lk)}: "
                  f"{'nan' if rel is None else f'{rel:.2e}'}  {'PASS' if ok else 'FAIL ' + why}", flush=True)
    os.environ.pop("ATTNC_CHECK_INDEX_INPUTS", None)
    print(f"varlen correctness sweep: {len(rows) - failed} passed, {failed} failed", flush=True)
    return rows, failed


def sdpa_ms(backend, q, k, v):
    """Median ms of SDPA restricted to `backend` on BHSD q, k, v (causal, GQA), or None where it refuses."""
    from torch.nn.attention import SDPBackend, sdpa_kernel
    sdpa = torch.nn.functional.scaled_dot_product_attention
    kb = {"cudnn": SDPBackend.CUDNN_ATTENTION, "flash": SDPBackend.FLASH_ATTENTION}[backend]
    try:
        with sdpa_kernel([kb]):
            fn = lambda: sdpa(q, k, v, is_causal=True, enable_gqa=True)  # noqa: E731
            fn()
            return peers.bench_ms(fn)
    except RuntimeError as e:
        print(f"{backend}: {str(e).splitlines()[0]}", flush=True)
        return None


def timed_args(kernel, *tensors, **offsets):
    """The launch args of `kernel`, with a caller's workspace where it splits (returned to keep it alive)."""
    return kernel.with_workspace(kernel.args(*tensors, **offsets))


def bench(kernels, dense, variants, sequences, shortest, longest_allowed):
    d = 128
    lengths = [random.Random(11 + i).randint(shortest, longest_allowed) for i in range(sequences)]
    total, longest = sum(lengths), max(lengths)
    useful = sum(peers.attention_flops(1, HEADS_Q, n, d, True) for n in lengths)
    scale = 1.0 / math.sqrt(d)
    gen = torch.Generator(device="cuda").manual_seed(2031)
    result = dict(lengths=lengths, total=total, useful_flops=useful)
    q = torch.randn(1, total, HEADS_Q, d, device="cuda", dtype=torch.bfloat16, generator=gen)
    k = torch.randn(1, total, HEADS_KV, d, device="cuda", dtype=torch.bfloat16, generator=gen)
    v = torch.randn_like(k)
    o = torch.empty_like(q)
    lse = torch.empty(1, HEADS_Q, total, device="cuda")
    cu = offsets(lengths)
    for label, kernel in (("attnc_varlen", kernels["varlen_d128_causal"]), *variants.items()):
        args, _workspace = timed_args(kernel, q, k, v, o, lse, scale, cu_seqlens_q=cu, cu_seqlens_k=cu)
        ms = peers.bench_ms(lambda: kernel.launch(args))
        result[label] = dict(ms=ms, tflops=useful / (ms * 1e-3) / 1e12)

    def padded(n):
        return [torch.randn(sequences, n, h, d, device="cuda", dtype=torch.bfloat16, generator=gen)
                for h in (HEADS_Q, HEADS_KV, HEADS_KV)]

    # The dense kernel at its own work: the padded batch and 16 equal sequences of the mean length.
    for label, n in (("attnc_dense_padded", longest), ("attnc_dense_mean", round(total / sequences))):
        if dense is None:
            break
        qd, kd, vd = padded(n)
        od, lsed = torch.empty_like(qd), torch.empty(sequences, HEADS_Q, n, device="cuda")
        dargs = dense.args(qd, kd, vd, od, lsed, scale)
        ms = peers.bench_ms(lambda: dense.launch(dargs))
        work = peers.attention_flops(sequences, HEADS_Q, n, d, True)
        result[label] = dict(N=n, ms=ms, tflops=work / (ms * 1e-3) / 1e12)
        del qd, kd, vd, od, lsed
    # cuDNN and FA2 on the padded batch (BHSD views of it).
    qp, kp, vp = (t.transpose(1, 2) for t in padded(longest))
    for backend in ("cudnn", "flash"):
        ms = sdpa_ms(backend, qp, kp, vp)
        if ms is not None:
            own = peers.attention_flops(sequences, HEADS_Q, longest, d, True)
            result[f"{backend}_padded"] = dict(ms=ms, useful_tflops=useful / (ms * 1e-3) / 1e12,
                                              own_tflops=own / (ms * 1e-3) / 1e12)
    torch.cuda.empty_cache()
    v_t = result["attnc_varlen"]["tflops"]
    print(f"varlen prefill: {sequences} sequences {shortest}..{longest_allowed} (total {total}, longest {longest}), causal, "
          f"GQA 32:8, D 128", flush=True)
    print(f"  attnc varlen      {result['attnc_varlen']['ms']:8.3f} ms  {v_t:6.1f} TFLOP/s (useful)", flush=True)
    for label in variants:
        r = result[label]
        print(f"  {label[len('attnc_varlen_'):]:<17} {r['ms']:8.3f} ms  {r['tflops']:6.1f} TFLOP/s (useful)  "
              f"attnc varlen / this {v_t / r['tflops']:.3f}", flush=True)
    for label in ("attnc_dense_padded", "attnc_dense_mean"):
        if label in result:
            r = result[label]
            print(f"  {label:<17} {r['ms']:8.3f} ms  {r['tflops']:6.1f} TFLOP/s (own work, N = {r['N']})  "
                  f"varlen / dense {v_t / r['tflops']:.3f}", flush=True)
    for backend in ("cudnn", "flash"):
        r = result.get(f"{backend}_padded")
        if r:
            print(f"  {backend + ' padded':<17} {r['ms']:8.3f} ms  {r['useful_tflops']:6.1f} TFLOP/s useful "
                  f"({r['own_tflops']:.1f} own)  attnc varlen speedup {r['ms'] / result['attnc_varlen']['ms']:.2f}x",
                  flush=True)
    return result


def bench_decode(kernels, dense, variants, sequences, fewest, most):
    """A varlen decode step: one query token per sequence against its cached keys, in TB/s; next to it the
    dense kernel's step of as many sequences of the mean length (the same bytes; dense_d128_causal, a kernel
    for every Nq like the varlen one, not the decode-step kernel of one static token)."""
    d = 128
    keys = [random.Random(21 + i).randint(fewest, most) for i in range(sequences)]
    total_k = sum(keys)
    scale = 1.0 / math.sqrt(d)
    gen = torch.Generator(device="cuda").manual_seed(2032)
    q = torch.randn(1, sequences, HEADS_Q, d, device="cuda", dtype=torch.bfloat16, generator=gen)
    k = torch.randn(1, total_k, HEADS_KV, d, device="cuda", dtype=torch.bfloat16, generator=gen)
    v = torch.randn_like(k)
    o = torch.empty_like(q)
    lse = torch.empty(1, HEADS_Q, sequences, device="cuda")
    cu_q, cu_k = offsets([1] * sequences), offsets(keys)
    moved = 2 * (q.numel() + k.numel() + v.numel() + o.numel())
    result = dict(sequences=sequences, keys=keys, bytes=moved)
    print(f"varlen decode: {sequences} sequences of 1 token, {fewest}..{most} keys (total {total_k}), "
          f"GQA 32:8, D 128", flush=True)
    for label, kernel in (("attnc_varlen", kernels.get("varlen_d128_causal")), *variants.items()):
        if kernel is None:
            continue
        args, _workspace = timed_args(kernel, q, k, v, o, lse, scale, cu_seqlens_q=cu_q, cu_seqlens_k=cu_k)
        ms = peers.bench_ms(lambda: kernel.launch(args))
        result[label] = dict(ms=ms, tbps=moved / (ms * 1e-3) / 1e12)
        print(f"  {label:<22} {ms * 1e3:8.1f} us  {result[label]['tbps']:5.2f} TB/s", flush=True)
    if dense is not None:
        mean = round(total_k / sequences)
        qd = torch.randn(sequences, 1, HEADS_Q, d, device="cuda", dtype=torch.bfloat16, generator=gen)
        kd = torch.randn(sequences, mean, HEADS_KV, d, device="cuda", dtype=torch.bfloat16, generator=gen)
        vd, od = torch.randn_like(kd), torch.empty_like(qd)
        lsed = torch.empty(sequences, HEADS_Q, 1, device="cuda")
        args, _workspace = timed_args(dense, qd, kd, vd, od, lsed, scale)
        ms = peers.bench_ms(lambda: dense.launch(args))
        dense_moved = 2 * (qd.numel() + kd.numel() + vd.numel() + od.numel())
        result["attnc_dense_mean"] = dict(N=mean, ms=ms, tbps=dense_moved / (ms * 1e-3) / 1e12)
        print(f"  {'attnc_dense_mean':<22} {ms * 1e3:8.1f} us  {result['attnc_dense_mean']['tbps']:5.2f} TB/s "
              f"(Nk = {mean})", flush=True)
    return result


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--artifacts", default="artifacts")
    ap.add_argument("--json")
    ap.add_argument("--no-check", action="store_true")
    ap.add_argument("--check-only", action="store_true", help="the sweep without the benchmark")
    a = ap.parse_args()
    rt = Runtime(os.path.join(a.artifacts, "lib", "libAttncRuntime.so"))
    kernels = {}
    for name in KERNELS:
        kdir = os.path.join(a.artifacts, "varlen", name)
        if os.path.isdir(kdir):
            kernels[name] = rt.load(kdir)
    ddir = os.path.join(a.artifacts, "varlen", "dense_d128_causal")
    dense = rt.load(ddir) if os.path.isdir(ddir) else None
    # varlen_d128_causal compiled with one option changed (prepare-gpu.sh).
    variants = {}
    for label in ("whole", "unpacked"):
        vdir = os.path.join(a.artifacts, f"varlen-{label}", "varlen_d128_causal")
        if os.path.isdir(vdir):
            variants[f"attnc_varlen_{label}"] = rt.load(vdir)
    result, failed = {}, 0
    if not a.no_check:
        result["sweep"], failed = sweep(kernels)
    if not a.check_only:
        result["ceilings"] = peers.ceilings()
        result["bench"] = [bench(kernels, dense, variants, *batch) for batch in BENCH_BATCHES]
        result["decode"] = [bench_decode(kernels, dense, variants, *batch) for batch in DECODE_BATCHES]
    if a.json:
        with open(a.json, "w") as f:
            json.dump(result, f, indent=1)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
