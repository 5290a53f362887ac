#!/usr/bin/env python3
"""attnc on the GPU: correctness sweep, then the benchmark next to the peers, in one run.

Loads the kernel artifacts compiled by attnc-compile (bench/kernels.mlir) through
libAttncRuntime (ctypes), checks every kernel on fresh random inputs against a
float64 reference (outputs poisoned with NaN before each launch, so an unwritten
element fails), then times attnc and the peers of bench/peers.py (cuDNN,
FlashAttention-2, FlexAttention) on the FlashAttention benchmark shapes. Every
phase prints a line per kernel or shape as it goes; the benchmark table is
printed again at the end. bench/summarize.py turns the JSON into a Markdown
table and a plot.

  python3 bench/gpu_check.py --artifacts artifacts [--json out.json] [--no-flex] [--head-dims=128]
      [--seqlens=4096,16384] [--no-sweep | --no-bench]
"""
import argparse
import json
import statistics
import math
import re
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from attnc_runtime import AttncError, Runtime  # noqa: E402

DTYPES = {"bf16": torch.bfloat16, "f16": torch.float16}
# Scales besides the default for kernels that take the scale at launch.
SWEEP_SCALES = [0.05, 0.4]
# And for a soft-capped kernel one that puts scale * s / cap near 1 (at a
# cap of 30), where tanh bends and its approximations err the most.
SOFTCAP_SWEEP_SCALE = 2.0
SWEEP_SEQS = [(1, 1, 1), (2, 17, 33), (1, 113, 203), (2, 128, 128), (1, 200, 100), (1, 257, 513), (1, 1000, 1000)]


def make_inputs(kernel, batch, seq_q, seq_k, heads_q, heads_kv, gen):
    p = kernel.problem
    dt = DTYPES[p["dtype"]]

    def rand(h, s, d):
        shape = (batch, s, h, d) if p["layout"] == "bshd" else (batch, h, s, d)
        return torch.randn(shape, device="cuda", dtype=dt, generator=gen)

    q = rand(heads_q, seq_q, p["head_dim"])
    k = rand(heads_kv, seq_k, p["head_dim"])
    v = rand(heads_kv, seq_k, p["head_dim_v"])
    o = torch.full_like(rand(heads_q, seq_q, p["head_dim_v"]), float("nan"))  # poison
    lse = torch.full((batch, heads_q, seq_q), float("nan"), device="cuda") if p["has_lse"] else None
    return q, k, v, o, lse


def to_bhsd(t, layout):
    return t.transpose(1, 2) if layout == "bshd" else t


def reference(kernel, q, k, v, scale):
    """float64 attention with the kernel's mask; returns O (BHSD) and LSE."""
    p, opts = kernel.problem, kernel.options
    q, k, v = (to_bhsd(t, p["layout"]).double() for t in (q, k, v))
    group = q.shape[1] // k.shape[1]
    k, v = k.repeat_interleave(group, 1), v.repeat_interleave(group, 1)
    s = (q @ k.transpose(-1, -2)) * scale
    if "softcap" in opts:
        cap = float(opts["softcap"])
        s = cap * torch.tanh(s / cap)
    nq, nk = q.shape[2], k.shape[2]
    i = torch.arange(nq, device="cuda")[:, None]
    j = torch.arange(nk, device="cuda")[None, :]
    diag = i + (nk - nq) if p["mask"] == "causal_bottom_right" else i
    visible = torch.ones(nq, nk, dtype=torch.bool, device="cuda")
    if p["mask"] != "none":
        visible &= j <= diag
    if "window_left" in opts:
        visible &= j >= diag - opts["window_left"]
        if p["mask"] == "none":
            visible &= j <= diag + opts["window_right"]
    s = s.masked_fill(~visible, float("-inf"))
    lse = torch.logsumexp(s, dim=-1)
    probs = torch.nan_to_num(torch.exp(s - lse[..., None]), nan=0.0)
    return probs @ v, lse


def check(kernel, batch, seq_q, seq_k, scale, gen):
    opts = kernel.options
    hq, hkv = opts["heads_q"], opts["heads_kv"]
    q, k, v, o, lse = make_inputs(kernel, batch, seq_q, seq_k, hq, hkv, gen)
    kernel.launch(kernel.args(q, k, v, o, lse, scale))
    torch.cuda.synchronize()
    ref_o, ref_lse = reference(kernel, q, k, v, scale)
    got = to_bhsd(o, kernel.problem["layout"]).double()
    if torch.isnan(got).any():
        return False, "NaN in output (unwritten or NaN-producing)", {}
    rel = ((got - ref_o).norm() / ref_o.norm().clamp_min(1e-30)).item()
    # Per element too, so one wrong row cannot hide in a large tensor.
    max_abs = (got - ref_o).abs().max().item() if got.numel() else 0.0
    max_ref = ref_o.abs().max().item() if got.numel() else 0.0
    stats = {"rel_err": rel, "max_abs": max_abs}
    ok = rel < 1e-2 and max_abs <= 5e-2 * max(max_ref, 1e-30)
    why = "" if ok else f"rel_err {rel:.2e}, max_abs {max_abs:.2e} (max |ref| {max_ref:.2e})"
    if lse is not None:
        empty = torch.isinf(ref_lse)
        stats["empty_rows"] = int(empty.sum().item())
        if torch.isnan(lse).any():
            return False, "NaN in lse", stats
        if not torch.equal(torch.isinf(lse) & (lse < 0), empty):
            return False, "rows without visible keys must have lse -inf (and only they)", stats
        fin = ~empty
        lse_err = ((lse.double()[fin] - ref_lse[fin]).abs() / ref_lse[fin].abs().clamp_min(1.0)).max().item() \
            if fin.any() else 0.0
        stats["lse_err"] = lse_err
        if lse_err > 1e-3:
            ok, why = False, f"lse_err {lse_err:.2e}"
        if empty.any() and got[empty].abs().max().item() != 0.0:
            ok, why = False, "rows without visible keys must have O = 0"
    return ok, why, stats


def sweep(kernels):
    gen = torch.Generator(device="cuda").manual_seed(2026)
    passed = failed = 0
    rows = []
    print(f"{'kernel':<20} {'B':>2} {'Nq':>5} {'Nk':>5} {'scale':>8} {'rel_err':>9} {'lse_err':>9} {'empty':>6}  "
          "result")
    for name, kernel in kernels.items():
        # A kernel that takes the scale at launch is checked with several.
        scales = [kernel.default_scale()] + (SWEEP_SCALES if kernel.takes_scale else [])
        if kernel.takes_scale and "softcap" in kernel.options:
            scales.append(SOFTCAP_SWEEP_SCALE)
        for i, (batch, nq, nk) in enumerate(SWEEP_SEQS):
            scale = scales[i % len(scales)]
            try:
                ok, why, st = check(kernel, batch, nq, nk, scale, gen)
            except AttncError as e:
                ok, why, st = False, str(e), {}
            rows.append(dict(kernel=name, B=batch, Nq=nq, Nk=nk, scale=scale, ok=ok, why=why, **st))
            print(f"{name:<20} {batch:>2} {nq:>5} {nk:>5} {scale:8.4f} {st.get('rel_err', float('nan')):9.2e} "
                  f"{st.get('lse_err', float('nan')):9.2e} {st.get('empty_rows', 0):>6}  "
                  f"{'PASS' if ok else 'FAIL ' + why}", flush=True)
            passed, failed = passed + ok, failed + (not ok)
    print(f"correctness sweep: {passed} passed, {failed} failed", flush=True)
    return rows, failed


def benchmark(kernels, peers_module, with_flex, ablations=None, head_dims=(64, 128, 256),
              seqlens=(1024, 4096, 16384), ab_rounds=0):
    """ablations: {label: {kernel name: Kernel}} timed at the same shapes.
    ab_rounds > 0: also time attnc and each ablation alternately that many
    rounds per shape and record the ratio of their median times (an A/B
    that no other timing sits between)."""
    ablations = ablations or {}
    shapes = [s for s in peers_module.default_shapes(list(head_dims), list(seqlens), [False, True])]
    env = peers_module.environment()
    print(" | ".join(f"{k} {v}" for k, v in env.items()), flush=True)
    print("ceilings: measuring", flush=True)
    ceil = peers_module.ceilings()
    print(f"ceilings: bf16 GEMM 8192^3 {ceil['gemm_bf16_tflops']:.0f} TFLOP/s, copy {ceil['copy_tbps']:.2f} TB/s",
          flush=True)
    peer_names = ("cudnn", "flash")
    print(f"peers {', '.join(peer_names)}: {len(shapes)} shapes", flush=True)
    peer_rows = peers_module.measure_peers(shapes, peers=peer_names)
    if with_flex:
        # FlexAttention is timed at D = 128 only; each shape is a torch.compile of its own.
        flex_shapes = [s for s in shapes if s[3] == 128]
        print(f"peers flex: {len(flex_shapes)} shapes (D = 128)", flush=True)
        peer_rows += peers_module.measure_peers(flex_shapes, peers=("flex",))
    results = []
    gen = torch.Generator(device="cuda").manual_seed(7)
    header = f"{'B':>3} {'H':>3} {'N':>6} {'D':>4} {'causal':>6} {'attnc':>7} {'first':>7} {'again':>7} " \
             f"{'cuDNN':>7} {'FA2':>7} {'Flex':>7} " \
             f"{'vs cuDNN':>9} {'err vs cuDNN':>12}" + "".join(f" {label:>10}" for label in ablations)
    table = [header]
    ab_lines = []
    print(f"attnc: {len(shapes)} shapes, one line each", flush=True)
    print(header, flush=True)
    for (B, H, N, D, causal) in shapes:
        kernel = kernels[f"d{D}_{'causal' if causal else 'full'}"]
        scale = kernel.default_scale()
        q, k, v, o, lse = make_inputs(kernel, B, N, N, H, H, gen)
        args = kernel.args(q, k, v, o, lse, scale)
        # attnc is timed exactly as the peers are (peers.bench_ms: do_bench,
        # median), once before its ablations and once after them; the slower
        # of the two is reported, since the first kernel timed after a pause
        # can run at higher clocks (bench/HISTORY.md run 12).
        bench = lambda kern, kargs: peers_module.bench_ms(lambda: kern.launch(kargs))
        ms_first = bench(kernel, args)
        flops = peers_module.attention_flops(B, H, N, D, causal)
        with torch.nn.attention.sdpa_kernel([torch.nn.attention.SDPBackend.CUDNN_ATTENTION]):
            ref = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=scale)
        err = ((o.float() - ref.float()).norm() / ref.float().norm()).item()
        ablation_tflops = {}
        for label, alt in ablations.items():
            other = alt.get(f"d{D}_{'causal' if causal else 'full'}")
            # Absent at this tile, or compiled for other head counts (a
            # variant from another commit).
            if other is None or other.options["heads_q"] != kernel.options["heads_q"]:
                ablation_tflops[label] = None
                continue
            alt_ms = bench(other, other.args(q, k, v, o, lse, scale))
            ablation_tflops[label] = flops / (alt_ms * 1e-3) / 1e12
        ms_again = bench(kernel, args)
        ab = {}
        for label, alt in ablations.items() if ab_rounds > 0 else ():
            if ablation_tflops[label] is None:
                continue
            other = alt[f"d{D}_{'causal' if causal else 'full'}"]
            other_args = other.args(q, k, v, o, lse, scale)
            mine, theirs = [], []
            for _ in range(ab_rounds):
                mine.append(bench(kernel, args))
                theirs.append(bench(other, other_args))
            # attnc's speed over the variant's: > 1 means attnc is faster.
            ab[label] = statistics.median(theirs) / statistics.median(mine)
        ms = max(ms_first, ms_again)
        tflops = flops / (ms * 1e-3) / 1e12
        first_tflops, again_tflops = (flops / (t * 1e-3) / 1e12 for t in (ms_first, ms_again))

        def peer(name):
            r = [r for r in peer_rows if r["peer"] == name and (r["B"], r["H"], r["N"], r["D"], r["causal"]) ==
                 (B, H, N, D, causal)]
            return r[0].get("tflops") if r else None
        cud, fa2, flex = peer("cudnn"), peer("flash"), peer("flex")
        fmt = lambda x: f"{x:7.0f}" if x else f"{'-':>7}"
        table.append(f"{B:>3} {H:>3} {N:>6} {D:>4} {int(causal):>6} {tflops:7.0f} {first_tflops:7.0f} "
                     f"{again_tflops:7.0f} {fmt(cud)} {fmt(fa2)} {fmt(flex)} "
                     f"{(tflops / cud if cud else float('nan')):9.2f} {err:12.1e}" +
                     "".join(f" {ablation_tflops[label]:10.0f}" if ablation_tflops[label] else f" {'-':>10}"
                             for label in ablations))
        print(table[-1], flush=True)
        if ab:
            ab_lines.append(f"{B:>3} {H:>3} {N:>6} {D:>4} {int(causal):>6} " +
                            " ".join(f"{label} {r:.3f}" for label, r in ab.items()))
            print(f"  A/B, attnc's speed over each (median of {ab_rounds} alternating rounds): " +
                  ", ".join(f"{label} {r:.3f}" for label, r in ab.items()), flush=True)
        results.append(dict(B=B, H=H, N=N, D=D, causal=causal, attnc_ms=ms, attnc_tflops=tflops,
                            attnc_first_tflops=first_tflops, attnc_again_tflops=again_tflops, cudnn=cud,
                            fa2=fa2, flex=flex, err_vs_cudnn=err, ablations=ablation_tflops,
                            ab_ratios=ab))
        del q, k, v, o, lse, ref
        torch.cuda.empty_cache()
    print("benchmark table (TFLOP/s):", flush=True)
    print("\n".join(table), flush=True)
    if ab_lines:
        print(f"A/B (attnc's speed over each variant, median of {ab_rounds} alternating rounds):",
              flush=True)
        print("\n".join(ab_lines), flush=True)
    return dict(environment=env, ceilings=ceil, rows=results, peers=peer_rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--artifacts", default="artifacts")
    ap.add_argument("--json")
    ap.add_argument("--no-bench", action="store_true")
    ap.add_argument("--no-sweep", action="store_true",
                    help="leave the correctness sweep out (a second benchmark in a run that swept)")
    ap.add_argument("--no-flex", action="store_true")
    ap.add_argument("--head-dims", default="64,128,256",
                    help="benchmark only these head dims (comma-separated)")
    ap.add_argument("--seqlens", default="1024,4096,16384",
                    help="benchmark only these sequence lengths (comma-separated)")
    ap.add_argument("--ab-rounds", type=int, default=0,
                    help="also time attnc and each artifacts/kernels-<label> alternately this many "
                         "rounds per shape; prints attnc's speed over each (median times)")
    a = ap.parse_args()
    rt = Runtime(os.path.join(a.artifacts, "lib", "libAttncRuntime.so"))
    kernels = {}
    kdir = os.path.join(a.artifacts, "kernels")
    for name in sorted(os.listdir(kdir)):
        try:
            kernels[name] = rt.load(os.path.join(kdir, name))
        except AttncError as e:
            print(f"load {name}: {e}", flush=True)
    for name, k in kernels.items():
        at = k.attrs()
        print(f"kernel {name}: {at.num_regs} registers, {at.local_bytes} B local (spills), "
              f"{at.dynamic_smem_bytes} B dynamic smem", flush=True)
    out, failed = {}, 0
    if not a.no_sweep:
        print(f"correctness sweep: {len(kernels)} kernels", flush=True)
        out["sweep"], failed = sweep(kernels)

    def write_json():
        if a.json:
            with open(a.json, "w") as f:
                json.dump(out, f, indent=1, default=str)
    # The sweep's rows are kept even if the benchmark does not finish.
    write_json()
    if not a.no_bench:
        import peers  # bench/peers.py, next to this file
        # artifacts/kernels-<label>/: the same kernels compiled without one
        # optimization, timed at the same shapes (ablations).
        ablations = {}
        for entry in sorted(os.listdir(a.artifacts)):
            if entry.startswith("kernels-") and os.path.isdir(os.path.join(a.artifacts, entry)):
                adir = os.path.join(a.artifacts, entry)
                variant = ablations[entry[len("kernels-"):]] = {}
                for n in sorted(os.listdir(adir)):
                    if re.match(r"d\d+_(full|causal)$", n):
                        variant[n] = rt.load(os.path.join(adir, n))
        head_dims = [int(d) for d in a.head_dims.split(",")]
        seqlens = [int(n) for n in a.seqlens.split(",")]
        out["bench"] = benchmark(kernels, peers, not a.no_flex, ablations, head_dims, seqlens,
                                 a.ab_rounds)
        write_json()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
