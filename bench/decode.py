#!/usr/bin/env python3
"""attnc's decode kernels on the GPU: correctness sweep, then bandwidth next to cuDNN and FA2.

Decode is one step of generation: Nq = 1 query token per sequence (a few for
speculative decoding) against a KV cache of Nk keys, with grouped-query heads
(bench/decode.mlir: 32 query heads on 8 kv heads, GQA, or on 1, MQA; BHSD,
bf16, no mask, O only). bench/prepare-gpu.sh compiles them into
artifacts/decode/ and the same kernels with one option changed into
artifacts/decode-<label>/ (variants, timed as extra columns).

Correctness: every kernel of every directory at Nq in {1, 4}, Nk in {1, 17,
1000, 4097}, B in {1, 3}, scale 1/sqrt(D), on fresh random inputs with O
poisoned with NaN before the launch, against float64 attention (K/V heads
repeated for the groups): gpu_check.py's make_inputs and check, with the
norm-based relative error ||O - ref|| / ||ref|| held to REL_TOL here. A
failure makes the exit status nonzero; the benchmark runs anyway.

Benchmark: at each (B, Nk), Nq = 1, every kernel and its variants, and the
peers on the same tensors in the same process: cuDNN (SDPA,
SDPBackend.CUDNN_ATTENTION) and FlashAttention-2 (SDPBackend.FLASH_ATTENTION),
given the kv heads as they are (enable_gqa=True); a backend that refuses that
runs on K/V expanded with repeat_interleave outside the timed call (marked
"expanded", its bytes still counted unexpanded). Everything is timed with
peers.bench_ms (do_bench median, L2 flushed), as gpu_check.py times. Decode
reads each byte once, so the figure is bandwidth: TB/s = bytes of Q, K, V and
O, each once, / median time; it is set against the copy bandwidth of
peers.ceilings(), measured in the same run.

Phases (--phases, after the benchmark): each kernel of each directory at
each shape, launched PHASE_ITERS times under the PyTorch profiler (CUPTI
traces the driver-API launches too): the mean GPU time of the attention
kernel and of the combine kernel, the gap from the attention kernel's end to
the combine's start (negative where a programmatic launch overlaps them),
the span from the attention's start to the combine's end, and the span's
TB/s: where a decode step's time goes. Next to them, what lies outside the
kernels: the host's time per launch call (20 calls, no synchronization),
the period of back-to-back launches on the GPU (first kernel's start to last
kernel's end over the launches), and the benchmark's median time again with
the device's memory pool told to keep freed memory
(CU_MEMPOOL_ATTR_RELEASE_THRESHOLD = UINT64_MAX), since a split-KV launch
allocates and frees its workspace on the stream unless the caller gives
one. The benchmark table times split kernels with a caller's workspace, as
attnc.attention passes one; "runtime ws" is the median time with the
runtime's own allocation instead.

Graphs (--graphs): decode as serving frameworks replay it, from a CUDA
graph: GRAPH_LAUNCHES launches of each directory's kernel (with a caller's
workspace) and of each peer captured into one graph, the graph replayed
GRAPH_REPLAYS times, TB/s from the median replay over the launches. The
host's launch path and the gaps between launches that a benchmark of single
calls times leave the figure; the launches follow one another on the same
tensors, which at the GQA shapes are larger than the 50 MB L2 (but B = 1,
Nk = 4096's 16 MB, which the L2 holds; so do MQA's B = 1, 32k at 17 MB and
B = 8, 8k at 34 MB, whose graph rows replay partly from the L2). The last
column, `read K,V`, is the TB/s of a PyTorch reduction of K and of V (two
`sum` kernels) replayed the same way: a reference for reading the step's
cache with no attention, not a roofline.

Flush (--flush): what the benchmark's L2 flush costs a short kernel. Before
each timed call do_bench zeroes a 256 MB buffer, which leaves the 50 MB L2
full of dirty lines; the timed kernel's first reads evict them, and their
write-back shares the memory bus with the kernel. Each kernel of the default
directory, cuDNN and a device-to-device copy of the step's bytes are timed
(median of FLUSH_REPS single calls between CUDA events) after three
flushes: do_bench's (zero the buffer), a read-only one (sum the buffer: the
L2 left holding clean lines) and none (back-to-back calls).

  python3 bench/decode.py --artifacts artifacts [--json decode.json] [--no-check]
      [--shapes 1x32768,8x8192,64x4096] [--kernels d128,decode_d64_gqa] [--phases] [--graphs]
      [--flush]
"""
import argparse
import ctypes
import json
import math
import os
import sys
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from attnc_runtime import AttncError, Runtime  # noqa: E402
from gpu_check import check, make_inputs  # noqa: E402
import peers  # noqa: E402

KERNEL_DIR = "decode"  # artifacts/decode; variants are artifacts/decode-<label>
DEFAULT = "default"  # the label of artifacts/decode
KERNELS = ("decode_d128_gqa", "decode_d128_mqa", "decode_d64_gqa", "decode_d256_gqa",
           "decode_d128_gqa_causal")
REL_TOL = 2e-2
CHECK_NQ = (1, 4)
CHECK_NK = (1, 17, 1000, 4097)
CHECK_B = (1, 3)
BENCH_SHAPES = ((1, 32768), (8, 8192), (64, 4096))  # (B, Nk), Nq = 1
SDPA_PEERS = ("cudnn", "fa2")


def load_dirs(rt, artifacts, wanted):
    """{label: {name: Kernel}}: artifacts/decode as DEFAULT, then each
    artifacts/decode-<label>/; a missing directory or kernel is skipped with a
    message. Returns it and the number of artifacts that failed to load."""
    dirs = [(DEFAULT, os.path.join(artifacts, KERNEL_DIR))]
    if os.path.isdir(artifacts):
        dirs += [(e[len(KERNEL_DIR) + 1:], os.path.join(artifacts, e)) for e in sorted(os.listdir(artifacts))
                 if e.startswith(KERNEL_DIR + "-") and os.path.isdir(os.path.join(artifacts, e))]
    loaded, broken = {}, 0
    for label, path in dirs:
        if not os.path.isdir(path):
            print(f"skip {label}: no {path} (bench/prepare-gpu.sh compiles bench/decode.mlir into it)", flush=True)
            continue
        kernels = {}
        for name in wanted:
            kdir = os.path.join(path, name)
            if not os.path.isdir(kdir):
                print(f"skip {label} {name}: no {kdir}", flush=True)
                continue
            try:
                kernels[name] = rt.load(kdir)
            except AttncError as e:
                print(f"load {label} {name}: {e}", flush=True)
                broken += 1
                continue
            print(f"kernel {label} {name}: {describe(kernels[name])}", flush=True)
        if kernels:
            loaded[label] = kernels
    return loaded, broken


def tile(kernel):
    """The manifest's tiling: block sizes, stages, consumers and the query heads packed per kv head."""
    opts = kernel.options
    t = {k: opts.get(k) for k in ("block_m", "block_n", "stages", "consumer_warpgroups")}
    t["packed_query_heads"] = kernel.problem.get("packed_query_heads", 1)
    return t


def describe(kernel):
    opts, at = kernel.options, kernel.attrs()
    return (f"{opts['heads_q']}:{opts['heads_kv']} heads, D {kernel.problem['head_dim']}; "
            + ", ".join(f"{k} {v}" for k, v in tile(kernel).items())
            + f"; {at.num_regs} registers, {at.local_bytes} B local (spills), {at.dynamic_smem_bytes} B dynamic smem")


def sweep(dirs):
    """Every kernel of every directory at every (Nq, Nk, B) of CHECK_*; rows and failure count."""
    gen = torch.Generator(device="cuda").manual_seed(2027)
    rows, failed = [], 0
    print(f"{'dir':<10} {'kernel':<16} {'B':>2} {'Nq':>3} {'Nk':>5} {'rel_err':>9} {'max_abs':>9}  result",
          flush=True)
    for label, kernels in dirs.items():
        for name, kernel in kernels.items():
            scale = kernel.default_scale()
            for nq in CHECK_NQ:
                for nk in CHECK_NK:
                    for batch in CHECK_B:
                        try:
                            _, why, st = check(kernel, batch, nq, nk, scale, gen)
                        except AttncError as e:
                            why, st = str(e), {}
                        rel = st.get("rel_err")
                        # No rel_err from check() where O has a NaN (or no launch): a failure.
                        ok = rel is not None and rel <= REL_TOL
                        why = "" if ok else (f"rel_err {rel:.2e} > {REL_TOL:.0e}" if rel is not None else why)
                        rows.append(dict(dir=label, kernel=name, B=batch, Nq=nq, Nk=nk, scale=scale, ok=ok, why=why,
                                         **st))
                        failed += not ok
                        print(f"{label:<10} {name:<16} {batch:>2} {nq:>3} {nk:>5} "
                              f"{st.get('rel_err', float('nan')):9.2e} {st.get('max_abs', float('nan')):9.2e}  "
                              f"{'PASS' if ok else 'FAIL ' + why}", flush=True)
    errs = [r["rel_err"] for r in rows if "rel_err" in r]
    print(f"correctness sweep: {len(rows) - failed} passed, {failed} failed; max rel_err "
          f"{max(errs) if errs else float('nan'):.2e} (tolerance {REL_TOL:.0e})", flush=True)
    for label, kernels in dirs.items():
        for name in kernels:
            mine = [r for r in rows if r["dir"] == label and r["kernel"] == name]
            e = [r["rel_err"] for r in mine if "rel_err" in r]
            print(f"  {label:<10} {name:<16} max rel_err {max(e) if e else float('nan'):.2e}, "
                  f"{sum(not r['ok'] for r in mine)} of {len(mine)} failed", flush=True)
    return rows, failed


def time_peer(peer, q, k, v, scale):
    """One SDPA backend on BHSD q, k, v: (ms, O, expanded, why expanded).

    First with the kv heads as they are (enable_gqa=True); where the backend
    (or this PyTorch) refuses that, on K and V expanded to the query heads,
    built before the timing. Raises where the backend cannot run either.
    """
    from torch.nn.attention import SDPBackend, sdpa_kernel
    backend = {"cudnn": SDPBackend.CUDNN_ATTENTION, "fa2": SDPBackend.FLASH_ATTENTION}[peer]
    sdpa = torch.nn.functional.scaled_dot_product_attention
    with sdpa_kernel([backend]):  # that backend only: an error, not a fallback, where it cannot run
        try:
            fn = lambda: sdpa(q, k, v, is_causal=False, scale=scale, enable_gqa=True)  # noqa: E731
            out = fn()
            torch.cuda.synchronize()
            expanded, why = False, ""
        except Exception as e:  # noqa: BLE001 - a refusal of GQA is data
            group = q.shape[1] // k.shape[1]
            ke, ve = k.repeat_interleave(group, 1), v.repeat_interleave(group, 1)
            fn = lambda: sdpa(q, ke, ve, is_causal=False, scale=scale)  # noqa: E731
            out = fn()
            torch.cuda.synchronize()
            expanded, why = True, f"{type(e).__name__}: {str(e)[:160]}"
        return peers.bench_ms(fn), out, expanded, why


def rel_err(got, ref):
    return ((got.double() - ref.double()).norm() / ref.double().norm().clamp_min(1e-30)).item()


def tbps(nbytes, ms):
    return nbytes / (ms * 1e-3) / 1e12


def bench_row(name, dirs, variants, B, Nk, copy, gen):
    """One (kernel, B, Nk) of the benchmark, Nq = 1: attnc in each directory, then the peers."""
    default = dirs.get(DEFAULT, {})
    # The shapes from the default artifact's manifest, or else a variant's.
    kernel = default.get(name) or next(d[name] for d in dirs.values() if name in d)
    hq, hkv = kernel.options["heads_q"], kernel.options["heads_kv"]
    scale = kernel.default_scale()
    q, k, v, o, lse = make_inputs(kernel, B, 1, Nk, hq, hkv, gen)
    nbytes = sum(t.numel() * t.element_size() for t in (q, k, v, o))
    row = dict(kernel=name, B=B, Nq=1, Nk=Nk, Hq=hq, Hkv=hkv, D=kernel.problem["head_dim"], bytes=nbytes,
               attnc={}, peers={})

    def timed(label):
        alt = dirs[label].get(name)
        if alt is None or (alt.options["heads_q"], alt.options["heads_kv"]) != (hq, hkv):
            return None, {"error": "absent, or compiled for other heads"}
        try:
            # A split kernel's workspace from the caller, as attnc.attention
            # passes one (PyTorch's allocator), not allocated per launch.
            args, _workspace = alt.with_workspace(alt.args(q, k, v, o, lse, scale))
            ms = peers.bench_ms(lambda: alt.launch(args))
        except AttncError as e:
            return None, {"error": str(e)}
        return ms, dict(ms=ms, tbps=tbps(nbytes, ms), copy_fraction=tbps(nbytes, ms) / copy)
    # The default is timed before the variants and again after them, and the
    # slower time is kept, as gpu_check.py does (the first kernel timed after
    # a pause can run at higher clocks: bench/HISTORY.md run 12). Last, so
    # that O is the default kernel's for the comparison with the peers.
    first, _ = timed(DEFAULT) if DEFAULT in dirs else (None, None)
    for label in variants:
        row["attnc"][label] = timed(label)[1]
    if DEFAULT in dirs:
        again, cell = timed(DEFAULT)
        if first is not None and again is not None:
            ms = max(first, again)
            cell = dict(ms=ms, tbps=tbps(nbytes, ms), copy_fraction=tbps(nbytes, ms) / copy, first_ms=first,
                        again_ms=again)
        row["attnc"][DEFAULT] = cell
    has_o = "ms" in row["attnc"].get(DEFAULT, {})
    for peer in SDPA_PEERS:
        try:
            ms, out, expanded, why = time_peer(peer, q, k, v, scale)
        except Exception as e:  # noqa: BLE001 - a peer that cannot run a shape is data
            row["peers"][peer] = {"error": f"{type(e).__name__}: {str(e)[:160]}"}
            continue
        row["peers"][peer] = cell = dict(ms=ms, tbps=tbps(nbytes, ms), expanded=expanded)
        if expanded:
            cell["why_expanded"] = why
        if has_o:
            cell["err_vs_attnc"] = rel_err(o, out)
    mine, cud = row["attnc"].get(DEFAULT, {}).get("tbps"), row["peers"]["cudnn"].get("tbps")
    row["ratio_vs_cudnn"] = mine / cud if mine and cud else None
    row["copy_fraction"] = mine / copy if mine else None
    return row


def table_header(variants):
    return (f"{'kernel':<16} {'B':>3} {'Nk':>6} {'attnc':>7}" + "".join(f" {v:>9}" for v in variants) +
            f" {'cuDNN':>8} {'FA2':>8} {'vs cuDNN':>8} {'of copy':>7} {'err vs cuDNN':>12}")


def table_line(row, variants):
    fmt = lambda x, w=7: f"{x:{w}.2f}" if x is not None else f"{'-':>{w}}"  # noqa: E731
    peer = lambda c: fmt(c.get("tbps")) + ("*" if c.get("expanded") else " ")  # noqa: E731
    err = row["peers"]["cudnn"].get("err_vs_attnc")
    return (f"{row['kernel']:<16} {row['B']:>3} {row['Nk']:>6} {fmt(row['attnc'].get(DEFAULT, {}).get('tbps'))}" +
            "".join(f" {fmt(row['attnc'][v].get('tbps'), 9)}" for v in variants) +
            f" {peer(row['peers']['cudnn'])} {peer(row['peers']['fa2'])} {fmt(row['ratio_vs_cudnn'], 8)}"
            f" {fmt(row['copy_fraction'])} {err if err is not None else math.nan:12.1e}")


def benchmark(dirs, names, shapes):
    print("ceilings: measuring", flush=True)
    ceil = peers.ceilings()
    copy = ceil["copy_tbps"]
    print(f"ceilings: bf16 GEMM 8192^3 {ceil['gemm_bf16_tflops']:.0f} TFLOP/s, copy {copy:.2f} TB/s", flush=True)
    variants = [label for label in dirs if label != DEFAULT]
    names = [n for n in names if any(n in d for d in dirs.values())]
    gen = torch.Generator(device="cuda").manual_seed(7)
    table, rows = [table_header(variants)], []
    print(f"benchmark: {len(names)} kernels x {len(shapes)} shapes, Nq = 1, TB/s", flush=True)
    print(table[0], flush=True)
    for name in names:
        for (B, Nk) in shapes:
            rows.append(bench_row(name, dirs, variants, B, Nk, copy, gen))
            table.append(table_line(rows[-1], variants))
            print(table[-1], flush=True)
            torch.cuda.empty_cache()  # the row's tensors are freed on return
    print(f"benchmark table (TB/s: Q, K, V and O bytes once / median time; copy {copy:.2f} TB/s; "
          "* = the peer ran on K/V expanded to the query heads, bytes counted unexpanded):", flush=True)
    print("\n".join(table), flush=True)
    return dict(ceilings=ceil, variants=variants, rows=rows)


PHASE_ITERS = 20
GRAPH_LAUNCHES = 20
GRAPH_REPLAYS = 15


def graph_us(fn):
    """Median microseconds per launch of fn() replayed from a CUDA graph of GRAPH_LAUNCHES calls."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            fn()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(GRAPH_LAUNCHES):
            fn()
    graph.replay()
    torch.cuda.synchronize()
    times = []
    for _ in range(GRAPH_REPLAYS):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        graph.replay()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1e3 / GRAPH_LAUNCHES)
    return sorted(times)[len(times) // 2]


def graphs(dirs, names, shapes):
    """TB/s of every directory's kernel and of the peers, replayed from CUDA graphs."""
    from torch.nn.attention import SDPBackend, sdpa_kernel
    gen = torch.Generator(device="cuda").manual_seed(13)
    rows = []
    labels = list(dirs)
    print(f"graphs: {GRAPH_LAUNCHES} launches a graph, median of {GRAPH_REPLAYS} replays, TB/s", flush=True)
    print(f"{'kernel':<22} {'B':>3} {'Nk':>6}" + "".join(f" {l:>12}" for l in labels) + f" {'cuDNN':>7} {'FA2':>7}"
          f" {'read K,V':>8}", flush=True)
    for name in names:
        for (B, Nk) in shapes:
            kernel = next((d[name] for d in dirs.values() if name in d), None)
            if kernel is None:
                continue
            hq, hkv = kernel.options["heads_q"], kernel.options["heads_kv"]
            scale = kernel.default_scale()
            q, k, v, o, lse = make_inputs(kernel, B, 1, Nk, hq, hkv, gen)
            nbytes = sum(t.numel() * t.element_size() for t in (q, k, v, o))
            row = dict(kernel=name, B=B, Nk=Nk, attnc={}, peers={})
            for label in labels:
                alt = dirs[label].get(name)
                if alt is None:
                    continue
                try:
                    args, workspace = alt.with_workspace(alt.args(q, k, v, o, lse, scale))
                    us = graph_us(lambda: alt.launch(args, torch.cuda.current_stream().cuda_stream))
                    row["attnc"][label] = dict(us=us, tbps=tbps(nbytes, us * 1e-3))
                except (AttncError, RuntimeError) as e:
                    row["attnc"][label] = {"error": str(e)[:200]}
            for peer, backend in (("cudnn", SDPBackend.CUDNN_ATTENTION), ("fa2", SDPBackend.FLASH_ATTENTION)):
                try:
                    group = q.shape[1] // k.shape[1]
                    with sdpa_kernel([backend]):
                        try:
                            torch.nn.functional.scaled_dot_product_attention(q, k, v, scale=scale, enable_gqa=True)
                            kv = (k, v)
                            gqa = True
                        except RuntimeError:
                            kv = (k.repeat_interleave(group, 1), v.repeat_interleave(group, 1))
                            gqa = False
                        us = graph_us(lambda: torch.nn.functional.scaled_dot_product_attention(
                            q, *kv, scale=scale, enable_gqa=gqa))
                    row["peers"][peer] = dict(us=us, tbps=tbps(nbytes, us * 1e-3), expanded=not gqa)
                except Exception as e:  # noqa: BLE001 - a peer that cannot be captured is data
                    row["peers"][peer] = {"error": f"{type(e).__name__}: {str(e)[:160]}"}
            # A reference for reading the step's K and V without attention:
            # a PyTorch sum of each (two reduction kernels, as a split step is
            # two kernels), in TB/s of those bytes.
            kv_bytes = sum(t.numel() * t.element_size() for t in (k, v))
            try:
                us = graph_us(lambda: (k.sum(dtype=torch.float32), v.sum(dtype=torch.float32)))
                row["read_kv"] = dict(us=us, tbps=tbps(kv_bytes, us * 1e-3))
            except RuntimeError as e:  # a reference that cannot be captured is data
                row["read_kv"] = {"error": f"{type(e).__name__}: {str(e)[:160]}"}
            rows.append(row)
            cell = lambda c: f"{c['tbps']:7.2f}" if "tbps" in c else f"{'-':>7}"  # noqa: E731
            print(f"{name:<22} {B:>3} {Nk:>6}" + "".join(f" {cell(row['attnc'].get(l, {})):>12}" for l in labels)
                  + f" {cell(row['peers']['cudnn'])} {cell(row['peers']['fa2'])} {cell(row['read_kv']):>8}",
                  flush=True)
            torch.cuda.empty_cache()
    return rows


def kernel_events(prof):
    """The GPU kernels of a profile, by start time: (name, start us, end us)."""
    from torch.autograd import DeviceType
    events = [e for e in prof.events() if e.device_type == DeviceType.CUDA and e.time_range.end > e.time_range.start]
    return sorted(((e.name, e.time_range.start, e.time_range.end) for e in events), key=lambda t: t[1])


def phase_row(kernel, q, k, v, o, lse, scale, nbytes):
    """One kernel's phases at one shape (see the module doc), or {"error": ...}."""
    from torch.profiler import ProfilerActivity, profile
    args = kernel.args(q, k, v, o, lse, scale)
    for _ in range(3):
        kernel.launch(args)
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(PHASE_ITERS):
            kernel.launch(args)
        torch.cuda.synchronize()
    events = kernel_events(prof)
    attention = [e for e in events if not e[0].endswith("_combine")]
    combine = [e for e in events if e[0].endswith("_combine")]
    if len(attention) != PHASE_ITERS or combine and len(combine) != PHASE_ITERS:
        return {"error": f"profiled {len(attention)} attention and {len(combine)} combine kernels "
                         f"for {PHASE_ITERS} launches"}
    mean = lambda xs: sum(xs) / len(xs)  # noqa: E731
    row = {"attention_us": mean([e - s for _, s, e in attention]),
           "period_us": (events[-1][2] - events[0][1]) / PHASE_ITERS}
    ends = [e for _, _, e in attention]
    if combine:
        row["combine_us"] = mean([e - s for _, s, e in combine])
        row["gap_us"] = mean([c[1] - a[2] for a, c in zip(attention, combine)])
        ends = [e for _, _, e in combine]
    row["span_us"] = mean([end - a[1] for a, end in zip(attention, ends)])
    row["span_tbps"] = tbps(nbytes, row["span_us"] * 1e-3)
    row["attention_tbps"] = tbps(nbytes, row["attention_us"] * 1e-3)
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(PHASE_ITERS):
        kernel.launch(args)
    row["host_us"] = (time.perf_counter() - start) / PHASE_ITERS * 1e6
    torch.cuda.synchronize()
    row["runtime_ws_bench_us"] = peers.bench_ms(lambda: kernel.launch(args)) * 1e3
    caller_args, _workspace = kernel.with_workspace(kernel.args(q, k, v, o, lse, scale))
    # The caller's workspace gives the runtime's O bit for bit (O poisoned
    # between the two).
    torch.cuda.synchronize()
    expected = o.clone()
    o.fill_(float("nan"))
    kernel.launch(caller_args)
    torch.cuda.synchronize()
    row["caller_ws_same_o"] = bool(torch.equal(o, expected))
    row["bench_us"] = peers.bench_ms(lambda: kernel.launch(caller_args)) * 1e3
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(PHASE_ITERS):
        kernel.launch(caller_args)
    row["caller_ws_host_us"] = (time.perf_counter() - start) / PHASE_ITERS * 1e6
    return row


def keep_pool_memory():
    """Tells the current device's memory pool (the one cuMemAllocAsync takes
    the split-KV workspace from) to keep freed memory instead of releasing it
    at synchronizations; returns the threshold it had."""
    cuda = ctypes.CDLL("libcuda.so.1")
    pool, device = ctypes.c_void_p(), ctypes.c_int()
    threshold = ctypes.c_uint64()
    release_threshold = 4  # CU_MEMPOOL_ATTR_RELEASE_THRESHOLD
    for call, args in (("cuCtxGetDevice", (ctypes.byref(device),)),
                       ("cuDeviceGetMemPool", (ctypes.byref(pool), device)),
                       ("cuMemPoolGetAttribute", (pool, release_threshold, ctypes.byref(threshold)))):
        if getattr(cuda, call)(*args) != 0:
            raise RuntimeError(f"{call} failed")
    keep = ctypes.c_uint64(2**64 - 1)
    if cuda.cuMemPoolSetAttribute(pool, release_threshold, ctypes.byref(keep)) != 0:
        raise RuntimeError("cuMemPoolSetAttribute failed")
    return threshold.value


def phases(dirs, names, shapes):
    """The phases of every kernel of every directory at every shape."""
    gen = torch.Generator(device="cuda").manual_seed(11)
    rows = []
    print(f"phases: mean of {PHASE_ITERS} launches, us (TB/s of Q, K, V and O bytes over the span, "
          "and over the attention kernel alone)", flush=True)
    print(f"{'dir':<18} {'kernel':<22} {'B':>3} {'Nk':>6} {'attention':>9} {'combine':>8} {'gap':>6} "
          f"{'span':>7} {'TB/s':>5} {'attn TB/s':>9} {'period':>7} {'host':>6} {'host cws':>8} {'bench':>7} "
          f"{'rt ws':>7} {'kept':>7}",
          flush=True)
    pool_rows = []
    for name in names:
        for (B, Nk) in shapes:
            for label, kernels in dirs.items():
                kernel = kernels.get(name)
                if kernel is None:
                    continue
                hq, hkv = kernel.options["heads_q"], kernel.options["heads_kv"]
                q, k, v, o, lse = make_inputs(kernel, B, 1, Nk, hq, hkv, gen)
                nbytes = sum(t.numel() * t.element_size() for t in (q, k, v, o))
                try:
                    row = phase_row(kernel, q, k, v, o, lse, kernel.default_scale(), nbytes)
                except (AttncError, RuntimeError) as e:
                    row = {"error": str(e)[:200]}
                rows.append(dict(dir=label, kernel=name, B=B, Nk=Nk, **row))
                pool_rows.append((rows[-1], kernel, (q, k, v, o, lse)))
            torch.cuda.empty_cache()
    # The same launches' median time with freed pool memory kept, after
    # every other measurement (the setting stays for the process).
    try:
        before = keep_pool_memory()
        print(f"memory pool release threshold {before} -> UINT64_MAX", flush=True)
        for row, kernel, tensors in pool_rows:
            if "error" not in row:
                args = kernel.args(*tensors, kernel.default_scale())  # the runtime's workspace
                row["kept_bench_us"] = peers.bench_ms(lambda: kernel.launch(args)) * 1e3
    except (RuntimeError, OSError, AttributeError) as e:
        print(f"memory pool: {e}", flush=True)
    for row, _, _ in pool_rows:
        f = lambda key, w, p=1: (f"{row[key]:{w}.{p}f}" if key in row else f"{'-':>{w}}")  # noqa: E731
        print(f"{row['dir']:<18} {row['kernel']:<22} {row['B']:>3} {row['Nk']:>6} {f('attention_us', 9)} "
              f"{f('combine_us', 8)} {f('gap_us', 6)} {f('span_us', 7)} {f('span_tbps', 5, 2)} "
              f"{f('attention_tbps', 9, 2)} {f('period_us', 7)} {f('host_us', 6)} {f('caller_ws_host_us', 8)} "
              f"{f('bench_us', 7)} {f('runtime_ws_bench_us', 7)} {f('kept_bench_us', 7)}"
              + ("" if row.get("caller_ws_same_o", True) else "  CALLER WORKSPACE O DIFFERS")
              + (f"  {row['error']}" if "error" in row else ""), flush=True)
    return rows


def parse_shapes(text):
    try:
        shapes = [tuple(int(x) for x in s.lower().split("x")) for s in text.split(",") if s]
    except ValueError:
        shapes = []
    if not shapes or any(len(s) != 2 or min(s) < 1 for s in shapes):
        raise argparse.ArgumentTypeError(f"expected BxNk[,BxNk...] such as 1x32768,8x8192, got {text!r}")
    return shapes


FLUSH_REPS = 50
FLUSH_BYTES = 256 * 1024**2


def flushed_us(fn, flush):
    """Median microseconds of single fn() calls between CUDA events, each after `flush()`."""
    for _ in range(3):
        fn()
    times = []
    for _ in range(FLUSH_REPS):
        flush()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        times.append((start, end))
    torch.cuda.synchronize()
    return sorted(s.elapsed_time(e) * 1e3 for s, e in times)[FLUSH_REPS // 2]


def flush_study(dirs, names, shapes):
    """TB/s of attnc's default kernels, cuDNN and a copy after each kind of L2 flush."""
    from torch.nn.attention import SDPBackend, sdpa_kernel
    buffer = torch.empty(FLUSH_BYTES // 4, dtype=torch.int32, device="cuda")
    flushes = {"zero": buffer.zero_, "read": lambda: buffer.sum(), "none": lambda: None}
    gen = torch.Generator(device="cuda").manual_seed(17)
    rows = []
    print(f"flush: median of {FLUSH_REPS} single calls after each flush, TB/s (zero = do_bench's)", flush=True)
    print(f"{'kernel':<22} {'B':>3} {'Nk':>6} " + " ".join(f"{w + ' ' + f:>11}" for w in ("attnc", "cuDNN", "copy")
                                                         for f in flushes), flush=True)
    for name in names:
        kernel = dirs.get(DEFAULT, {}).get(name)
        if kernel is None:
            continue
        for (B, Nk) in shapes:
            hq, hkv = kernel.options["heads_q"], kernel.options["heads_kv"]
            scale = kernel.default_scale()
            q, k, v, o, lse = make_inputs(kernel, B, 1, Nk, hq, hkv, gen)
            nbytes = sum(t.numel() * t.element_size() for t in (q, k, v, o))
            args, workspace = kernel.with_workspace(kernel.args(q, k, v, o, lse, scale))
            src = torch.empty(nbytes // 2, dtype=torch.uint8, device="cuda")
            dst = torch.empty_like(src)
            with sdpa_kernel([SDPBackend.CUDNN_ATTENTION]):
                # cuDNN on the kv heads as they are where it takes them, else
                # on K/V expanded outside the timed call (as time_peer does).
                try:
                    torch.nn.functional.scaled_dot_product_attention(q, k, v, scale=scale, enable_gqa=True)
                    kv, gqa = (k, v), True
                except RuntimeError:
                    group = q.shape[1] // k.shape[1]
                    kv, gqa = (k.repeat_interleave(group, 1), v.repeat_interleave(group, 1)), False
                fns = {"attnc": lambda: kernel.launch(args),
                       "cuDNN": lambda: torch.nn.functional.scaled_dot_product_attention(
                           q, *kv, scale=scale, enable_gqa=gqa),
                       "copy": lambda: dst.copy_(src)}  # reads and writes nbytes / 2: nbytes moved
                row = dict(kernel=name, B=B, Nk=Nk, bytes=nbytes)
                for who, fn in fns.items():
                    for label, flush in flushes.items():
                        try:
                            us = flushed_us(fn, flush)
                            row[f"{who}_{label}"] = dict(us=us, tbps=tbps(nbytes, us * 1e-3))
                        except Exception as e:  # noqa: BLE001 - a peer that cannot run is data
                            row[f"{who}_{label}"] = {"error": f"{type(e).__name__}: {str(e)[:160]}"}
            rows.append(row)
            cell = lambda c: f"{c['tbps']:11.2f}" if "tbps" in c else f"{'-':>11}"  # noqa: E731
            print(f"{name:<22} {B:>3} {Nk:>6} " + " ".join(cell(row[f"{w}_{f}"]) for w in fns for f in flushes),
                  flush=True)
            del src, dst, workspace, kv
            torch.cuda.empty_cache()
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--artifacts", default="artifacts")
    ap.add_argument("--json", help="write the sweep, the benchmark and the environment here")
    ap.add_argument("--no-check", action="store_true", help="skip the correctness sweep")
    ap.add_argument("--shapes", type=parse_shapes, default=list(BENCH_SHAPES),
                    help="benchmark (B, Nk) pairs as BxNk, comma-separated (default: 1x32768,8x8192,64x4096)")
    ap.add_argument("--kernels", help="only kernels whose names contain one of these (comma-separated), "
                                      "e.g. d128 or decode_d64_gqa")
    ap.add_argument("--phases", action="store_true",
                    help="after the benchmark, each kernel's phases from a profiler trace")
    ap.add_argument("--graphs", action="store_true",
                    help="after the benchmark, TB/s of attnc and the peers replayed from CUDA graphs")
    ap.add_argument("--flush", action="store_true",
                    help="after the benchmark, attnc, cuDNN and a copy timed after each kind of L2 flush")
    a = ap.parse_args()
    names = [n for n in KERNELS if not a.kernels or any(s in n for s in a.kernels.split(","))]
    if not names:
        ap.error(f"--kernels {a.kernels!r} matches none of {', '.join(KERNELS)}")
    rt = Runtime(os.path.join(a.artifacts, "lib", "libAttncRuntime.so"))
    env = peers.environment()
    print(" | ".join(f"{k} {v}" for k, v in env.items()), flush=True)
    dirs, failed = load_dirs(rt, a.artifacts, names)
    out = {"environment": env, "kernels": names, "load_failures": failed,
           "dirs": {label: {n: tile(k) for n, k in ks.items()} for label, ks in dirs.items()}}

    def write_json():
        if a.json:
            with open(a.json, "w") as f:
                json.dump(out, f, indent=1, default=str)
    if not dirs:
        print(f"no decode kernels under {a.artifacts}: nothing to check or time", flush=True)
        write_json()
        return 1
    if not a.no_check:
        print(f"correctness sweep: {sum(map(len, dirs.values()))} kernels in {len(dirs)} directories", flush=True)
        out["sweep"], sweep_failed = sweep(dirs)
        failed += sweep_failed
        out["sweep_failures"] = sweep_failed
        write_json()  # kept even if the benchmark does not finish
    out["bench"] = benchmark(dirs, names, a.shapes)
    write_json()
    if a.graphs:
        out["graphs"] = graphs(dirs, names, a.shapes)
        write_json()
    if a.phases:
        out["phases"] = phases(dirs, names, a.shapes)
        write_json()
    if a.flush:
        out["flush"] = flush_study(dirs, names, a.shapes)
        write_json()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
