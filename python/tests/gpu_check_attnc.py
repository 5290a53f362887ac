#!/usr/bin/env python3
"""attnc.attention on the GPU, checked against PyTorch (issue 14 item 1).

Checks, each printing PASS/FAIL lines, then a summary:
  * correctness against torch.nn.functional.scaled_dot_product_attention in
    float64 (a float64 formula where SDPA has no equivalent: softcap; the LSE),
    on ragged shapes, both layouts, GQA/MQA, every mask, two scales;
  * a paged KV cache (block_table, cache_lengths): decode steps and a
    chunked prefill against pools of 16 and 256 tokens, cache lengths
    including 0 and 1, pages in a shuffled order with -1 past each
    sequence's pages, against float64 attention over each sequence's own
    keys; check_index_inputs=True's errors for a page outside the pool and a
    length past the table;
  * variable-length batches (cu_seqlens_q, cu_seqlens_k): sequences of mixed
    lengths (0, 1, one much longer) packed without padding, FlashAttention's
    [total, heads, head_dim] tensors and the logical [1, heads, total,
    head_dim] ones, with rows and keys past the last offsets, O poisoned
    with NaN first, against float64 attention over each sequence with its
    own mask; check_index_inputs=True's errors for offsets that decrease,
    pass the rows or start below 0;
  * a launch on a non-default stream (ordered after work queued on it);
  * a torch.compile'd function calling attnc.attention (dense, paged and
    varlen), and torch.library.opcheck (dense, paged and varlen);
  * the overhead per call on a cache hit over a direct attnc_attention_launch;
  * the first call of a new shape class (compile, where a compiler is
    installed; otherwise the load of a precompiled artifact).

On a machine with attnc-compile, precompile the kernels it uses:
  python3 python/tests/gpu_check_attnc.py --precompile DIR
On the GPU machine (no compiler needed):
  ATTNC_KERNEL_DIR=DIR ATTNC_RUNTIME_LIB=.../libAttncRuntime.so python3 python/tests/gpu_check_attnc.py
"""
import argparse
import dataclasses
import math
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from attnc import KernelCache, KernelSpec  # noqa: E402
from attnc.masks import resolve_mask  # noqa: E402
from attnc.spec import max_query_tokens  # noqa: E402

# (dtype, Hq, Hkv, D, Dv, layout, attention() mask kwargs, return_lse)
CASES = [
    ("bf16", 8, 2, 128, 128, "bhsd", {}, True),
    ("bf16", 8, 2, 128, 128, "bshd", {"causal": True}, True),
    ("f16", 4, 4, 64, 64, "bshd", {"causal": True, "causal_alignment": "bottom_right"}, False),
    ("bf16", 4, 1, 64, 64, "bhsd", {"window": (32, 8)}, True),
    ("bf16", 8, 2, 128, 128, "bshd", {"causal": True, "causal_alignment": "bottom_right", "window": (64, 0)},
     True),
    ("f16", 2, 2, 256, 256, "bhsd", {"causal": True, "softcap": 30.0}, True),
    ("bf16", 4, 2, 64, 128, "bhsd", {}, False),
    # g = 6 does not divide 64: its one-token decode step packs that token's
    # six heads, more tokens stay unpacked.
    ("bf16", 12, 2, 64, 64, "bshd", {"causal": True, "causal_alignment": "bottom_right"}, True),
]
SHAPES = [(1, 1, 1), (3, 4, 300), (2, 17, 33), (1, 113, 203), (2, 128, 128), (1, 200, 100), (1, 257, 513),
          (1, 1000, 1000)]
SCALES = [None, 0.3]
# Paged KV caches: (dtype, Hq, Hkv, D, Dv, layout of q and O, attention() mask kwargs, return_lse, page_size).
BOTTOM_RIGHT = {"causal": True, "causal_alignment": "bottom_right"}
PAGED_CASES = [
    ("bf16", 32, 8, 128, 128, "bhsd", BOTTOM_RIGHT, True, 16),
    ("bf16", 32, 8, 128, 128, "bhsd", {}, False, 256),
    ("f16", 8, 1, 64, 64, "bshd", {**BOTTOM_RIGHT, "window": (40, 0)}, True, 16),
    ("bf16", 8, 2, 128, 128, "bshd", {"softcap": 30.0}, True, 256),
    ("bf16", 16, 2, 64, 64, "bhsd", BOTTOM_RIGHT, True, 64),
]
# (cache lengths of the batch, Sq): empty caches, one token, a page and one,
# one sequence much longer than the rest; decode (Sq = 1), a speculative
# step (Sq = 4) and a chunked prefill (Sq = 100: the last 100 tokens' rows).
PAGED_SHAPES = [((1,), 1), ((0, 1, 17, 257), 1), ((3, 5000, 40, 0, 129), 1), ((0, 1, 17, 300), 4),
                ((513, 100, 1000), 100), ((0,), 1)]
# Variable-length batches: (dtype, Hq, Hkv, D, Dv, layout, attention() mask
# kwargs, return_lse). BSHD cases pass FlashAttention's [total, heads,
# head_dim] tensors, BHSD ones the logical [1, heads, total, head_dim].
VARLEN_CASES = [
    ("bf16", 32, 8, 128, 128, "bshd", BOTTOM_RIGHT, True),
    ("bf16", 8, 2, 128, 128, "bhsd", {"causal": True}, True),
    ("f16", 4, 4, 64, 64, "bshd", {}, False),
    ("bf16", 8, 2, 128, 128, "bshd", {**BOTTOM_RIGHT, "window": (64, 0)}, True),
    ("bf16", 8, 8, 64, 64, "bshd", {"causal": True, "softcap": 30.0}, True),
]
# (rows of each sequence, keys of each sequence, spare rows, spare keys):
# single tokens, empty sequences (no rows; no keys: O = 0, LSE = -inf), one
# much longer than the rest, chunked prefills (more keys than rows), and
# rows and keys past the last offsets (not written, not read), and a decode
# step of few sequences against long caches (the kernels above D = 64 split
# its keys at launch; one sequence has none).
VARLEN_SHAPES = [((1,), (1,), 0, 0), ((100, 1, 0, 37), (200, 1, 0, 37), 0, 0),
                 ((5, 0, 1, 1000, 3), (5, 7, 1, 1000, 300), 3, 5), ((17, 300), (0, 300), 0, 0),
                 ((128, 129, 1, 255), (128, 129, 1, 255), 64, 0), ((2000,), (2000,), 0, 0),
                 ((1, 1, 3), (9000, 0, 20000), 2, 0)]
# The shape class timed for overhead, and one compiled only to time a first call.
OVERHEAD_CASE = ("bf16", 8, 2, 128, 128, "bhsd", {}, False)
FRESH_CASE = ("bf16", 8, 8, 96, 96, "bhsd", {"causal": True}, False)


def spec_of(case):
    dtype, hq, hkv, d, dv, layout, kwargs, lse = case
    mask, window, softcap = resolve_mask(kwargs.get("causal", False), kwargs.get("causal_alignment", "top_left"),
                                         kwargs.get("window"), kwargs.get("softcap"))
    return KernelSpec(dtype=dtype, heads_q=hq, heads_kv=hkv, head_dim=d, head_dim_v=dv, mask=mask,
                      window=window, softcap=softcap, layout=layout, lse=lse)


class Report:
    def __init__(self):
        self.passed, self.failed = 0, []

    def line(self, ok, name, detail=""):
        print(f"{'PASS' if ok else 'FAIL'} {name}" + (f": {detail}" if detail else ""), flush=True)
        if ok:
            self.passed += 1
        else:
            self.failed.append(name)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--precompile", metavar="DIR", help="compile the kernels this check uses into DIR and exit")
    a = ap.parse_args()
    if a.precompile:
        from attnc.precompile import precompile
        specs = [spec_of(c) for c in CASES + [OVERHEAD_CASE, FRESH_CASE]] + paged_specs()
        # A call with up to max_query_tokens query tokens (SHAPES' Sq = 1, 4
        # and, in GQA classes whose g divides 64, 17; PAGED_SHAPES' decode and speculative
        # steps) gets the decode-step kernel of its class for that many.
        specs += [dataclasses.replace(s, query_tokens=n) for s in specs for n in (1, 4, 17)
                  if n <= max_query_tokens(s.heads_q, s.heads_kv)] + varlen_specs()
        for spec, seconds in precompile(specs, a.precompile):
            print(f"{spec.key}: " + ("exists" if seconds is None else f"compiled in {seconds * 1e3:.0f} ms"))
        return 0
    import torch  # noqa: F401 - only the GPU run needs it
    report = Report()
    gen = torch.Generator(device="cuda").manual_seed(2026)
    for case in CASES:
        for i, shape in enumerate(SHAPES):
            check_case(report, case, shape, SCALES[i % len(SCALES)], gen)
    for case in PAGED_CASES:
        for i, (lengths, seq_q) in enumerate(PAGED_SHAPES):
            check_paged_case(report, case, lengths, seq_q, SCALES[i % len(SCALES)], gen)
    check_paged_errors(report, gen)
    for case in VARLEN_CASES:
        for i, shape in enumerate(VARLEN_SHAPES):
            check_varlen_case(report, case, shape, SCALES[i % len(SCALES)], gen)
    check_varlen_errors(report, gen)
    check_stream(report, gen)
    check_compile(report, gen)
    check_overhead(report, gen)
    check_first_call(report)
    print(f"SUMMARY: {report.passed} passed, {len(report.failed)} failed"
          + (f" ({', '.join(report.failed[:10])}{' ...' if len(report.failed) > 10 else ''})"
             if report.failed else ""))
    return 1 if report.failed else 0


def make_qkv(case, batch, seq_q, seq_k, gen):
    import torch
    dtype, hq, hkv, d, dv, layout, _, _ = case
    dt = {"bf16": torch.bfloat16, "f16": torch.float16}[dtype]

    def rand(h, s, dim):
        if layout == "bhsd":
            return torch.randn(batch, h, s, dim, device="cuda", dtype=dt, generator=gen)
        return torch.randn(batch, s, h, dim, device="cuda", dtype=dt, generator=gen).transpose(1, 2)
    return rand(hq, seq_q, d), rand(hkv, seq_k, d), rand(hkv, seq_k, dv)


def visible_mask(kwargs, seq_q, seq_k, device):
    """Which keys each query sees, from attention()'s documented semantics."""
    import torch
    i = torch.arange(seq_q, device=device)[:, None]
    j = torch.arange(seq_k, device=device)[None, :]
    diag = i + (seq_k - seq_q) if kwargs.get("causal_alignment") == "bottom_right" else i
    visible = torch.ones(seq_q, seq_k, dtype=torch.bool, device=device)
    if kwargs.get("causal"):
        visible &= j <= diag
    if kwargs.get("window"):
        left, right = kwargs["window"]
        visible &= j >= diag - left
        if not kwargs.get("causal"):
            visible &= j <= diag + right
    return visible


def reference(case, q, k, v, scale):
    """float64 O (BHSD) and LSE: SDPA, or the formula where softcap is set."""
    import torch
    import torch.nn.functional as F
    kwargs = case[6]
    q, k, v = q.double(), k.double(), v.double()
    group = q.shape[1] // k.shape[1]
    k, v = k.repeat_interleave(group, 1), v.repeat_interleave(group, 1)
    scale = scale if scale is not None else 1 / math.sqrt(q.shape[-1])
    visible = visible_mask(kwargs, q.shape[2], k.shape[2], q.device)
    s = (q @ k.transpose(-1, -2)) * scale
    if kwargs.get("softcap"):
        s = kwargs["softcap"] * torch.tanh(s / kwargs["softcap"])
    s = s.masked_fill(~visible, -math.inf)
    lse = torch.logsumexp(s, dim=-1)
    if kwargs.get("softcap"):
        o = torch.nan_to_num(torch.exp(s - lse[..., None]), nan=0.0) @ v
    else:
        o = F.scaled_dot_product_attention(q, k, v, attn_mask=visible, scale=scale)
    empty = ~visible.any(-1)
    return o.masked_fill(empty[:, None], 0.0).nan_to_num(0.0), lse


def compare(o, lse, ref_o, ref_lse):
    """'' when O (and LSE) match the float64 reference, else why not."""
    import torch
    got = o.double()
    if torch.isnan(got).any():
        return "NaN in O"
    norm = ref_o.norm().item()
    rel = (got - ref_o).norm().item() / max(norm, 1e-30)
    max_abs = (got - ref_o).abs().max().item() if got.numel() else 0.0
    max_ref = ref_o.abs().max().item() if got.numel() else 0.0
    if (norm > 0 and rel >= 1e-2) or max_abs > 5e-2 * max(max_ref, 1e-30):
        return f"rel_err {rel:.2e}, max_abs {max_abs:.2e} (max |ref| {max_ref:.2e})"
    if lse is not None:
        empty = torch.isinf(ref_lse)
        if not torch.equal(torch.isinf(lse) & (lse < 0), empty):
            return "LSE is -inf exactly where no key is visible: not so"
        fin = ~empty
        if fin.any():
            err = ((lse.double()[fin] - ref_lse[fin]).abs() / ref_lse[fin].abs().clamp_min(1.0)).max().item()
            if err > 1e-3:
                return f"lse_err {err:.2e}"
    return ""


def check_case(report, case, shape, scale, gen):
    import attnc
    batch, seq_q, seq_k = shape
    spec = spec_of(case)
    name = f"sdpa {spec.key} B={batch} Sq={seq_q} Sk={seq_k} scale={scale}"
    try:
        q, k, v = make_qkv(case, batch, seq_q, seq_k, gen)
        out = attnc.attention(q, k, v, scale=scale, return_lse=case[7], **case[6])
        o, lse = out if case[7] else (out, None)
        if o.stride() != attnc_layout_strides(o, case[5]):
            report.line(False, name, f"O strides {o.stride()} are not {case[5]}")
            return
        ref_o, ref_lse = reference(case, q, k, v, scale)
        why = compare(o, lse, ref_o, ref_lse)
        report.line(not why, name, why)
    except Exception as e:  # a failure of one case must not hide the others
        report.line(False, name, f"{type(e).__name__}: {e}")


def paged_spec_of(case, layout=None):
    dtype, hq, hkv, d, dv, case_layout, kwargs, lse, page_size = case
    return dataclasses.replace(spec_of((dtype, hq, hkv, d, dv, layout or case_layout, kwargs, lse)),
                               page_size=page_size)


def paged_specs():
    """The paged kernels the check uses: each case's, and its BHSD twin, which
    a decode step's q (Sq = 1: either layout) gets where it can be had."""
    return list(dict.fromkeys(paged_spec_of(c, layout) for c in PAGED_CASES for layout in (c[5], "bhsd")))


def make_paged(case, lengths, seq_q, gen, spare_pages=3, spare_columns=1):
    """q, the pools, the block table and the cache lengths: each sequence's
    pages in a shuffled order of a pool larger than the pages in use, -1 in
    the table past its pages (and in `spare_columns` more columns); the pools
    are random everywhere, past each sequence's length too."""
    import torch
    dtype, hq, hkv, d, dv, layout, _, _, page_size = case
    dt = {"bf16": torch.bfloat16, "f16": torch.float16}[dtype]
    batch = len(lengths)
    if layout == "bhsd":
        q = torch.randn(batch, hq, seq_q, d, device="cuda", dtype=dt, generator=gen)
    else:
        q = torch.randn(batch, seq_q, hq, d, device="cuda", dtype=dt, generator=gen).transpose(1, 2)
    pages_of = [-(-n // page_size) for n in lengths]
    total = sum(pages_of) + spare_pages
    order = torch.randperm(total, generator=torch.Generator().manual_seed(7 + total)).tolist()
    k = torch.randn(total, page_size, hkv, d, device="cuda", dtype=dt, generator=gen)
    v = torch.randn(total, page_size, hkv, dv, device="cuda", dtype=dt, generator=gen)
    table = torch.full((batch, max(pages_of) + spare_columns), -1, dtype=torch.int32)
    for b, count in enumerate(pages_of):
        for p in range(count):
            table[b, p] = order.pop()
    return q, k, v, table.cuda(), torch.tensor(lengths, dtype=torch.int32, device="cuda")


def paged_reference(case, q, k, v, table, lengths, scale):
    """float64 O (BHSD) and LSE: each sequence's own keys gathered from the
    pools through its row of the table, then the dense reference with
    Sk = its length (no key: O = 0, LSE = -inf)."""
    import torch
    batch, hq, seq_q, _ = q.shape
    page_size = k.shape[1]
    o = torch.zeros(batch, hq, seq_q, v.shape[3], dtype=torch.float64, device=q.device)
    lse = torch.full((batch, hq, seq_q), -math.inf, dtype=torch.float64, device=q.device)
    dense_case = case[:8]
    for b, n in enumerate(lengths.tolist()):
        if n == 0:
            continue
        t = torch.arange(n, device=q.device)
        pages = table[b].long()[t // page_size]
        kb = k[pages, t % page_size].permute(1, 0, 2)[None]  # [1, Hkv, n, D]
        vb = v[pages, t % page_size].permute(1, 0, 2)[None]
        o[b:b + 1], lse[b:b + 1] = reference(dense_case, q[b:b + 1], kb, vb, scale)
    return o, lse


def check_paged_case(report, case, lengths, seq_q, scale, gen):
    import attnc
    spec = paged_spec_of(case)
    name = f"paged {spec.key} lengths={list(lengths)} Sq={seq_q} scale={scale}"
    try:
        q, k, v, table, lens = make_paged(case, lengths, seq_q, gen)
        out = attnc.attention(q, k, v, block_table=table, cache_lengths=lens, scale=scale, return_lse=case[7],
                              **case[6])
        o, lse = out if case[7] else (out, None)
        if seq_q > 1 and o.stride() != attnc_layout_strides(o, case[5]):
            report.line(False, name, f"O strides {o.stride()} are not {case[5]}")
            return
        ref_o, ref_lse = paged_reference(case, q, k, v, table, lens, scale)
        why = compare(o, lse, ref_o, ref_lse)
        report.line(not why, name, why)
    except Exception as e:  # a failure of one case must not hide the others
        report.line(False, name, f"{type(e).__name__}: {e}")


def check_paged_errors(report, gen):
    """check_index_inputs=True: a page outside the pool and a length past the
    table are AttncErrors naming the entry; valid inputs pass and match."""
    import attnc
    from attnc import AttncError
    case = PAGED_CASES[0]
    q, k, v, table, lens = make_paged(case, (0, 1, 17, 257), 1, gen)
    kwargs = dict(block_table=table, cache_lengths=lens, return_lse=True, check_index_inputs=True, **case[6])
    name = "paged check_index_inputs=True on valid inputs"
    try:
        o, lse = attnc.attention(q, k, v, **kwargs)
        why = compare(o, lse, *paged_reference(case, q, k, v, table, lens, None))
        report.line(not why, name, why)
    except Exception as e:
        report.line(False, name, f"{type(e).__name__}: {e}")
    num_pages = k.shape[0]
    bad = [("a page outside the pool", (3, 16), num_pages, None,
            f"block_table[3][16] = {num_pages} is not a page of k, which has {num_pages} pages"),
           ("a negative page", (2, 1), -1, None, "block_table[2][1] = -1 is not a page of k"),
           ("a length past the table", None, None, (1, table.shape[1] * 16 + 1),
            f"cache_lengths[1] = {table.shape[1] * 16 + 1} exceeds the block table's {table.shape[1]} pages")]
    for what, entry, page, length, expected in bad:
        name = f"paged check_index_inputs=True: {what}"
        t, n = table.clone(), lens.clone()
        if entry is not None:
            t[entry] = page
        if length is not None:
            n[length[0]] = length[1]
        try:
            attnc.attention(q, k, v, **{**kwargs, "block_table": t, "cache_lengths": n})
            report.line(False, name, "no error")
        except AttncError as e:
            report.line(expected in str(e) and str(e).startswith("attnc_attention_check: "), name, str(e))
        except Exception as e:
            report.line(False, name, f"{type(e).__name__}: {e}")


def varlen_spec_of(case):
    return dataclasses.replace(spec_of(case), varlen=True)


def varlen_specs():
    return list(dict.fromkeys(varlen_spec_of(c) for c in VARLEN_CASES))


def make_varlen(case, rows, keys, spare_rows, spare_keys, gen):
    """q, k, v packing the sequences (plus spare rows and keys past the last
    offsets), in the caller's form (BSHD cases: [total, heads, head_dim];
    BHSD: [1, heads, total, head_dim]), and the int32 offsets."""
    import torch
    dtype, hq, hkv, d, dv, layout, _, _ = case
    dt = {"bf16": torch.bfloat16, "f16": torch.float16}[dtype]
    total_q, total_k = sum(rows) + spare_rows, sum(keys) + spare_keys

    def rand(total, h, dim):
        t = torch.randn(total, h, dim, device="cuda", dtype=dt, generator=gen)
        return t if layout == "bshd" else t.transpose(0, 1).contiguous()[None]
    cu_q = torch.tensor([sum(rows[:b]) for b in range(len(rows) + 1)], dtype=torch.int32, device="cuda")
    cu_k = torch.tensor([sum(keys[:b]) for b in range(len(keys) + 1)], dtype=torch.int32, device="cuda")
    return rand(total_q, hq, d), rand(total_k, hkv, d), rand(total_k, hkv, dv), cu_q, cu_k


def as_logical(t, lse=False):
    """A varlen tensor or O in the caller's form as the logical [1, H, total,
    D]: FlashAttention's [total, H, D] viewed so; a varlen LSE as [1, H,
    total] (FlashAttention's is [H, total])."""
    if lse:
        return t[None] if t.dim() == 2 else t
    return t[None].transpose(1, 2) if t.dim() == 3 else t


def varlen_reference(case, q, k, v, cu_q, cu_k, scale):
    """float64 O (logical [1, Hq, rows, Dv]) and LSE ([1, Hq, rows]) of the
    rows the sequences hold (up to cu_seqlens_q[B]): the dense reference over
    each sequence's own rows and keys, its mask with its own lengths (no key:
    O = 0, LSE = -inf)."""
    import torch
    q, k, v = as_logical(q), as_logical(k), as_logical(v)
    offsets_q, offsets_k = cu_q.tolist(), cu_k.tolist()
    rows = offsets_q[-1]
    o = torch.zeros(1, q.shape[1], rows, v.shape[3], dtype=torch.float64, device=q.device)
    lse = torch.full((1, q.shape[1], rows), -math.inf, dtype=torch.float64, device=q.device)
    for b in range(len(offsets_q) - 1):
        q0, q1, k0, k1 = offsets_q[b], offsets_q[b + 1], offsets_k[b], offsets_k[b + 1]
        if q1 == q0 or k1 == k0:
            continue
        o[:, :, q0:q1], lse[:, :, q0:q1] = reference(case, q[:, :, q0:q1], k[:, :, k0:k1], v[:, :, k0:k1], scale)
    return o, lse


def poison_allocator(*shapes_and_dtypes):
    """Leaves NaN in the CUDA caching allocator's free blocks of these sizes,
    so outputs allocated next (torch.empty) start as NaN: a row the kernel
    does not write shows up."""
    import torch
    blocks = [torch.full(shape, math.nan, dtype=dtype, device="cuda") for shape, dtype in shapes_and_dtypes]
    torch.cuda.synchronize()
    del blocks


def check_varlen_case(report, case, shape, scale, gen):
    import attnc
    import torch
    rows, keys, spare_rows, spare_keys = shape
    spec = varlen_spec_of(case)
    name = f"varlen {spec.key} rows={list(rows)}+{spare_rows} keys={list(keys)}+{spare_keys} scale={scale}"
    try:
        q, k, v, cu_q, cu_k = make_varlen(case, rows, keys, spare_rows, spare_keys, gen)
        total_q = sum(rows) + spare_rows
        poison_allocator(((total_q * case[1] * case[4],), q.dtype), ((case[1] * total_q,), torch.float32))
        out = attnc.attention(q, k, v, cu_seqlens_q=cu_q, cu_seqlens_k=cu_k, scale=scale, return_lse=case[7],
                              **case[6])
        o, lse = out if case[7] else (out, None)
        want = (total_q, case[1], case[4]) if case[5] == "bshd" else (1, case[1], total_q, case[4])
        if tuple(o.shape) != want or (lse is not None and lse.dim() != q.dim() - 1):
            report.line(False, name, f"O has shape {tuple(o.shape)}, LSE {None if lse is None else tuple(lse.shape)}")
            return
        ref_o, ref_lse = varlen_reference(case, q, k, v, cu_q, cu_k, scale)
        held = sum(rows)  # rows past cu_seqlens_q[B] are not written
        got_o = as_logical(o)[:, :, :held]
        got_lse = None if lse is None else as_logical(lse, lse=True)[:, :, :held]
        why = compare(got_o, got_lse, ref_o, ref_lse)
        report.line(not why, name, why)
    except Exception as e:  # a failure of one case must not hide the others
        report.line(False, name, f"{type(e).__name__}: {e}")


def check_varlen_errors(report, gen):
    """check_index_inputs=True: offsets that decrease, pass the rows or start
    below 0 are AttncErrors naming the entry; valid ones pass and match."""
    import attnc
    from attnc import AttncError
    case = VARLEN_CASES[0]
    rows, keys = (100, 1, 0, 37), (200, 1, 0, 37)
    q, k, v, cu_q, cu_k = make_varlen(case, rows, keys, 0, 0, gen)
    kwargs = dict(cu_seqlens_q=cu_q, cu_seqlens_k=cu_k, return_lse=True, check_index_inputs=True, **case[6])
    name = "varlen check_index_inputs=True on valid inputs"
    try:
        o, lse = attnc.attention(q, k, v, **kwargs)
        why = compare(as_logical(o), as_logical(lse, lse=True), *varlen_reference(case, q, k, v, cu_q, cu_k, None))
        report.line(not why, name, why)
    except Exception as e:
        report.line(False, name, f"{type(e).__name__}: {e}")
    bad = [("offsets that decrease", "cu_seqlens_q", 2, 50,
            "cu_seqlens_q[2] = 50 is below cu_seqlens_q[1] = 100: offsets must not decrease"),
           ("an offset past k's rows", "cu_seqlens_k", 4, 239, "cu_seqlens_k[4] = 239 exceeds the 238 rows of k"),
           ("a negative offset", "cu_seqlens_q", 0, -1, "cu_seqlens_q[0] = -1 is negative")]
    for what, which, index, value, expected in bad:
        name = f"varlen check_index_inputs=True: {what}"
        offsets = kwargs[which].clone()
        offsets[index] = value
        try:
            attnc.attention(q, k, v, **{**kwargs, which: offsets})
            report.line(False, name, "no error")
        except AttncError as e:
            report.line(expected in str(e) and str(e).startswith("attnc_attention_check: "), name, str(e))
        except Exception as e:
            report.line(False, name, f"{type(e).__name__}: {e}")


def attnc_layout_strides(o, layout):
    b, h, s, d = o.shape
    return (h * s * d, s * d, d, 1) if layout == "bhsd" else (s * h * d, d, h * d, 1)


def check_stream(report, gen):
    """On a side stream, q is overwritten after a long sleep: a kernel on any
    other stream would read the old q and fail the comparison."""
    import attnc
    import torch
    case = CASES[1]
    name = "non-default stream"
    try:
        q, k, v = make_qkv(case, 2, 1000, 1000, gen)
        q_new = torch.randn(q.shape, device="cuda", dtype=q.dtype, generator=gen)
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            torch.cuda._sleep(200_000_000)  # ~0.1 s
            q.copy_(q_new)
            o, lse = attnc.attention(q, k, v, causal=True, return_lse=True)
        pending = not side.query()
        side.synchronize()
        ref_o, ref_lse = reference(case, q_new, k, v, None)
        why = compare(o, lse, ref_o, ref_lse)
        report.line(pending and not why, name, why or ("" if pending else "the side stream finished too soon"))
    except Exception as e:
        report.line(False, name, f"{type(e).__name__}: {e}")


def check_compile(report, gen):
    import attnc
    import attnc.ops
    import torch
    case = CASES[4]
    q, k, v = make_qkv(case, 2, 300, 500, gen)

    def f(q, k, v):
        o, lse = attnc.attention(q, k, v, return_lse=True, **case[6])
        return o * 2, lse + 1

    for name, run in (("torch.compile(fullgraph=True)", lambda: torch.compile(f, fullgraph=True)(q, k, v)),
                      ("torch.compile(dynamic=True)", lambda: torch.compile(f, dynamic=True)(q, k, v))):
        try:
            o, lse = run()
            ref_o, ref_lse = reference(case, q, k, v, None)
            why = compare(o / 2, lse - 1, ref_o, ref_lse)
            report.line(not why, name, why)
        except Exception as e:
            report.line(False, name, f"{type(e).__name__}: {e}")
    try:
        torch.library.opcheck(attnc.ops.attention_op, (q, k, v, "causal_bottom_right", [64, 0], None, None, True,
                                                       None, None, False, None, None))
        report.line(True, "torch.library.opcheck attnc::attention")
    except Exception as e:
        report.line(False, "torch.library.opcheck attnc::attention", f"{type(e).__name__}: {e}")

    # A paged decode step, compiled, and its op checked.
    case = PAGED_CASES[0]
    q, k, v, table, lens = make_paged(case, (0, 1, 17, 257), 1, gen)

    def g(q, k, v, table, lens):
        o, lse = attnc.attention(q, k, v, block_table=table, cache_lengths=lens, return_lse=True, **case[6])
        return o * 2, lse + 1

    ref_o, ref_lse = paged_reference(case, q, k, v, table, lens, None)
    for name, run in (("paged torch.compile(fullgraph=True)", lambda: torch.compile(g, fullgraph=True)),
                      ("paged torch.compile(dynamic=True)", lambda: torch.compile(g, dynamic=True))):
        try:
            o, lse = run()(q, k, v, table, lens)
            why = compare(o / 2, lse - 1, ref_o, ref_lse)
            report.line(not why, name, why)
        except Exception as e:
            report.line(False, name, f"{type(e).__name__}: {e}")
    try:
        torch.library.opcheck(attnc.ops.attention_op, (q, k, v, "causal_bottom_right", None, None, None, True,
                                                       table, lens, False, None, None))
        report.line(True, "torch.library.opcheck attnc::attention (paged)")
    except Exception as e:
        report.line(False, "torch.library.opcheck attnc::attention (paged)", f"{type(e).__name__}: {e}")

    # A varlen prefill ([total, heads, head_dim] tensors), compiled, and its op checked.
    case = VARLEN_CASES[0]
    q, k, v, cu_q, cu_k = make_varlen(case, (100, 1, 0, 37), (200, 1, 0, 37), 0, 0, gen)

    def h(q, k, v, cu_q, cu_k):
        o, lse = attnc.attention(q, k, v, cu_seqlens_q=cu_q, cu_seqlens_k=cu_k, return_lse=True, **case[6])
        return o * 2, lse + 1

    ref_o, ref_lse = varlen_reference(case, q, k, v, cu_q, cu_k, None)
    for name, run in (("varlen torch.compile(fullgraph=True)", lambda: torch.compile(h, fullgraph=True)),
                      ("varlen torch.compile(dynamic=True)", lambda: torch.compile(h, dynamic=True))):
        try:
            o, lse = run()(q, k, v, cu_q, cu_k)
            why = compare(as_logical(o / 2), as_logical(lse - 1, lse=True), ref_o, ref_lse)
            report.line(not why, name, why)
        except Exception as e:
            report.line(False, name, f"{type(e).__name__}: {e}")
    try:
        torch.library.opcheck(attnc.ops.attention_op, (q, k, v, "causal_bottom_right", None, None, None, True,
                                                       None, None, False, cu_q, cu_k))
        report.line(True, "torch.library.opcheck attnc::attention (varlen)")
    except Exception as e:
        report.line(False, "torch.library.opcheck attnc::attention (varlen)", f"{type(e).__name__}: {e}")


def per_call_us(fn, calls=200, rounds=21):
    """Median CPU time per call of `fn` over `rounds` bursts of `calls` (GPU drained between)."""
    import torch
    times = []
    for _ in range(rounds):
        torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        times.append((time.perf_counter() - start) / calls * 1e6)
    torch.cuda.synchronize()
    return statistics.median(times)


def check_overhead(report, gen):
    import attnc
    from attnc import _capi
    from attnc.cache import default_cache
    import torch
    name = "overhead per call on a cache hit"
    try:
        q, k, v = make_qkv(OVERHEAD_CASE, 1, 128, 128, gen)
        o = attnc.attention(q, k, v)  # loads the kernel
        kernel = default_cache().kernel(spec_of(OVERHEAD_CASE))
        code = _capi.DTYPE_CODES["bf16"]
        args = _capi.pack_attention_args(*[(t.data_ptr(), t.shape, t.stride(), code) for t in (q, k, v, o)],
                                         0, 1 / math.sqrt(128))
        launch, handle = kernel.runtime.launch_fn, kernel.handle
        stream = torch.cuda.current_stream().cuda_stream
        direct = per_call_us(lambda: launch(handle, args, stream))
        full = per_call_us(lambda: attnc.attention(q, k, v))
        report.line(full - direct < 20.0, name,
                    f"attnc.attention {full:.1f} us, direct attnc_attention_launch {direct:.1f} us, "
                    f"overhead {full - direct:.1f} us (limit 20)")
    except Exception as e:
        report.line(False, name, f"{type(e).__name__}: {e}")


def check_first_call(report):
    """A new shape class: compile + load where a compiler exists, else load of an AOT artifact."""
    cache = KernelCache(kernel_dirs=[], cache_dir=tempfile.mkdtemp(prefix="attnc-check-"))
    spec = spec_of(FRESH_CASE)
    if cache.compiler is None:
        try:
            start = time.perf_counter()
            KernelCache().kernel(spec)  # from ATTNC_KERNEL_DIR
            ms = (time.perf_counter() - start) * 1e3
            print(f"SKIP first-call compile: no attnc-compile here (ATTNC_COMPILER unset, not on PATH); "
                  f"loading a precompiled {spec.key} took {ms:.0f} ms")
        except Exception as e:
            report.line(False, "first-call load", f"{type(e).__name__}: {e}")
        return
    try:
        start = time.perf_counter()
        cache.kernel(spec)
        seconds = time.perf_counter() - start
        report.line(seconds < 1.0, "first call of a new shape class",
                    f"{spec.key} compiled and loaded in {seconds * 1e3:.0f} ms (limit 1000)")
    except Exception as e:
        report.line(False, "first call of a new shape class", f"{type(e).__name__}: {e}")


if __name__ == "__main__":
    sys.exit(main())
