#!/usr/bin/env python3
"""attnc's paged decode kernels on the GPU: correctness sweep, then bandwidth next to the dense kernel.

bench/decode-paged.mlir's kernels read K and V from page pools [num_pages,
page_size, Hkv, D] through a block table [B, pages_per_seq] and per-sequence
cache lengths (GQA 32:8, D = 128, bf16, no mask, O only, split at launch);
bench/prepare-gpu.sh compiles them into artifacts/paged/ (128-row tiles) and
artifacts/paged-bm64/ (64-row tiles). The dense kernel of the same graph is
bench/decode.mlir's decode_d128_gqa with kv_splits (artifacts/decode-split/
and decode-split-bm64/).

Correctness: each kernel at Nq 1 and 4 on batches whose cache lengths
include 0, 1, a length of one page plus one, and one sequence much longer
than the rest, with pages assigned in a shuffled order, unused block-table
entries -1 and a pool larger than the pages in use; O is poisoned with NaN
before the launch and compared with float64 attention over each sequence's
own keys (O = 0 for an empty cache). The runtime checks the index inputs
(ATTNC_CHECK_INDEX_INPUTS=1) during the sweep.

Benchmark: at each (B, Nk), Nq = 1, every sequence's cache of Nk tokens: the
paged kernels and the dense kernel on the same keys, TB/s = bytes of Q, K, V
and O once / median time (peers.bench_ms), and paged / dense.

  python3 bench/decode_paged.py --artifacts artifacts [--json paged.json] [--no-check]
"""
import argparse
import json
import math
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from attnc_runtime import AttncError, Runtime  # noqa: E402
import peers  # noqa: E402

HEADS_Q, HEADS_KV, D = 32, 8, 128
PAGED = {"paged": "paged", "paged-bm64": "paged-bm64"}  # label: artifacts dir
KERNELS = ("paged_d128_p16", "paged_d128_p256")
DENSE = {"paged": ("decode-split", "decode_d128_gqa"), "paged-bm64": ("decode-split-bm64", "decode_d128_gqa")}
REL_TOL = 2e-2
# Cache lengths per batch of the sweep: empty, one token, a page and one, and
# one sequence much longer than the rest.
CHECK_LENGTHS = ((1,), (0, 1, 17, 257), (3, 5000, 40, 0, 129))
CHECK_NQ = (1, 4)
BENCH_SHAPES = ((1, 32768), (8, 8192), (64, 4096))


def page_size(kernel):
    return kernel.problem["page_size"]


def make_paged(k, v, lengths, ps, gen, spare_pages=3):
    """Pools, block table and cache lengths holding dense k, v ([B, Hkv, Nk, D]) for the given lengths:
    each sequence's pages in a shuffled order of the pool, unused table entries -1."""
    batch = len(lengths)
    pages_of = [math.ceil(n / ps) for n in lengths]
    per_seq = max(1, max(pages_of))
    total = sum(pages_of) + spare_pages
    order = torch.randperm(total, generator=torch.Generator().manual_seed(7)).tolist()
    pool_k = torch.randn(total, ps, HEADS_KV, D, device="cuda", dtype=k.dtype, generator=gen)
    pool_v = torch.randn(total, ps, HEADS_KV, D, device="cuda", dtype=v.dtype, generator=gen)
    table = torch.full((batch, per_seq), -1, dtype=torch.int32)
    next_page = 0
    for b, n in enumerate(lengths):
        for p in range(pages_of[b]):
            page = order[next_page]
            next_page += 1
            table[b, p] = page
            rows = min(ps, n - p * ps)
            pool_k[page, :rows] = k[b, :, p * ps:p * ps + rows].transpose(0, 1)
            pool_v[page, :rows] = v[b, :, p * ps:p * ps + rows].transpose(0, 1)
    return pool_k, pool_v, table.cuda(), torch.tensor(lengths, dtype=torch.int32, device="cuda")


def reference(q, k, v, lengths, scale):
    """float64 attention of each sequence over its own keys; O = 0 without keys."""
    out = torch.zeros(q.shape, dtype=torch.float64, device="cuda")
    group = HEADS_Q // HEADS_KV
    for b, n in enumerate(lengths):
        if n == 0:
            continue
        kb = k[b, :, :n].double().repeat_interleave(group, 0)
        vb = v[b, :, :n].double().repeat_interleave(group, 0)
        s = (q[b].double() @ kb.transpose(-1, -2)) * scale
        out[b] = torch.softmax(s, dim=-1) @ vb
    return out


def paged_args(kernel, q, pool_k, pool_v, o, table, lengths, scale):
    """The launch's arguments: a pool [P, ps, Hkv, D] is the runtime's logical [P, Hkv, ps, D], as a BSHD
    tensor would be."""
    return kernel.args(q, pool_k, pool_v, o, None, scale, kv_layout="bshd", block_table=table,
                       cache_lengths=lengths)


def check(kernel, lengths, nq, gen):
    ps, scale = page_size(kernel), 1.0 / math.sqrt(D)
    batch, nk = len(lengths), max(1, max(lengths))
    q = torch.randn(batch, HEADS_Q, nq, D, device="cuda", dtype=torch.bfloat16, generator=gen)
    k = torch.randn(batch, HEADS_KV, nk, D, device="cuda", dtype=torch.bfloat16, generator=gen)
    v = torch.randn(batch, HEADS_KV, nk, D, device="cuda", dtype=torch.bfloat16, generator=gen)
    pool_k, pool_v, table, lens = make_paged(k, v, list(lengths), ps, gen)
    o = torch.full_like(q, float("nan"))
    kernel.launch(paged_args(kernel, q, pool_k, pool_v, o, table, lens, scale))
    torch.cuda.synchronize()
    ref = reference(q, k, v, lengths, scale)
    got = o.double()
    if torch.isnan(got).any():
        return None, "NaN in output"
    rel = ((got - ref).norm() / ref.norm().clamp_min(1e-30)).item()
    empty = [b for b, n in enumerate(lengths) if n == 0]
    if empty and got[empty].abs().max().item() != 0:
        return rel, "an empty cache's O is not 0"
    return rel, "" if rel <= REL_TOL else f"rel_err {rel:.2e} > {REL_TOL:.0e}"


def sweep(kernels):
    gen = torch.Generator(device="cuda").manual_seed(2028)
    os.environ["ATTNC_CHECK_INDEX_INPUTS"] = "1"
    rows, failed = [], 0
    for label, named in kernels.items():
        for name, kernel in named.items():
            for lengths in CHECK_LENGTHS:
                for nq in CHECK_NQ:
                    try:
                        rel, why = check(kernel, lengths, nq, gen)
                    except AttncError as e:
                        rel, why = None, str(e)
                    ok = not why
                    failed += not ok
                    rows.append(dict(dir=label, kernel=name, lengths=list(lengths), Nq=nq, rel_err=rel, ok=ok, why=why))
                    print(f"{label:<10} {name:<16} Nq {nq} lengths {list(lengths)}: "
                          f"{'nan' if rel is None else f'{rel:.2e}'}  {'PASS' if ok else 'FAIL ' + why}", flush=True)
    os.environ.pop("ATTNC_CHECK_INDEX_INPUTS", None)
    print(f"paged correctness sweep: {len(rows) - failed} passed, {failed} failed", flush=True)
    return rows, failed


def bench(kernels, dense, copy_tbps):
    gen = torch.Generator(device="cuda").manual_seed(2029)
    rows = []
    scale = 1.0 / math.sqrt(D)
    header = f"{'tiles':<11} {'B':>3} {'Nk':>6} {'dense':>7} " + " ".join(f"{n[-4:]:>7} {'/dense':>6}" for n in KERNELS)
    print(f"paged decode, Nq = 1, TB/s (copy {copy_tbps:.2f} TB/s):\n{header}", flush=True)
    for label, named in kernels.items():
        for batch, nk in BENCH_SHAPES:
            q = torch.randn(batch, HEADS_Q, 1, D, device="cuda", dtype=torch.bfloat16, generator=gen)
            k = torch.randn(batch, HEADS_KV, nk, D, device="cuda", dtype=torch.bfloat16, generator=gen)
            v = torch.randn_like(k)
            o = torch.empty_like(q)
            nbytes = sum(t.numel() * t.element_size() for t in (q, k, v, o))
            row = dict(tiles=label, B=batch, Nk=nk)
            dense_kernel = dense.get(label)
            if dense_kernel:
                args = dense_kernel.args(q, k, v, o, None, scale)
                row["dense"] = nbytes / (peers.bench_ms(lambda: dense_kernel.launch(args)) * 1e-3) / 1e12
            for name, kernel in named.items():
                pool_k, pool_v, table, lens = make_paged(k, v, [nk] * batch, page_size(kernel), gen)
                args = paged_args(kernel, q, pool_k, pool_v, o, table, lens, scale)
                row[name] = nbytes / (peers.bench_ms(lambda: kernel.launch(args)) * 1e-3) / 1e12
                del pool_k, pool_v
            rows.append(row)
            cells = " ".join(f"{row.get(n, float('nan')):7.2f} {row.get(n, float('nan')) / row['dense']:6.2f}"
                             if "dense" in row else f"{row.get(n, float('nan')):7.2f} {'':>6}" for n in KERNELS)
            print(f"{label:<11} {batch:>3} {nk:>6} {row.get('dense', float('nan')):7.2f} {cells}", flush=True)
            torch.cuda.empty_cache()
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--artifacts", default="artifacts")
    ap.add_argument("--json")
    ap.add_argument("--no-check", action="store_true")
    a = ap.parse_args()
    rt = Runtime(os.path.join(a.artifacts, "lib", "libAttncRuntime.so"))
    kernels, dense = {}, {}
    for label, path in PAGED.items():
        for name in KERNELS:
            kdir = os.path.join(a.artifacts, path, name)
            if os.path.isdir(kdir):
                kernels.setdefault(label, {})[name] = rt.load(kdir)
        ddir = os.path.join(a.artifacts, *DENSE[label])
        if os.path.isdir(ddir):
            dense[label] = rt.load(ddir)
    result, failed = {}, 0
    if not a.no_check:
        result["sweep"], failed = sweep(kernels)
    result["ceilings"] = peers.ceilings()
    result["bench"] = bench(kernels, dense, result["ceilings"]["copy_tbps"])
    if a.json:
        with open(a.json, "w") as f:
            json.dump(result, f, indent=1)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
