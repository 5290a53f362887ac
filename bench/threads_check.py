#!/usr/bin/env python3
"""The runtime used from several threads at once, each on its own CUDA stream.

Every thread loads its own kernel artifact (a different family each), makes
fresh random inputs on its stream (outputs poisoned with NaN), launches the
kernel there several times, waits for its stream only, and checks O and LSE
against the float64 reference of bench/gpu_check.py. All threads start
together behind a barrier, so loads and launches interleave.

  python3 bench/threads_check.py --artifacts artifacts [--threads 8]
"""
import argparse
import ctypes
import os
import sys
import threading

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from attnc_runtime import Runtime  # noqa: E402
from gpu_check import make_inputs, reference  # noqa: E402

FAMILIES = ["d64_causal", "d128_window", "d128_bshd_causal", "d64_mqa", "d128_nolse",
            "d96_full", "d256_causal", "d128_softcap", "d192v128_causal", "d40_causal",
            "d128_gqa4_causal", "d128_causal_br"]


def worker(rt, kdir, index, name, start, results):
    try:
        start.wait()
        kernel = rt.load(os.path.join(kdir, name))
        opts = kernel.options
        stream = torch.cuda.Stream()
        gen = torch.Generator(device="cuda").manual_seed(1000 + index)
        batch, nq, nk = 2, 97 + 61 * index, 211 + 37 * index
        with torch.cuda.stream(stream):
            q, k, v, o, lse = make_inputs(kernel, batch, nq, nk, opts["heads_q"], opts["heads_kv"], gen)
            args = kernel.args(q, k, v, o, lse, kernel.default_scale())
            for _ in range(5):
                kernel.launch(args, stream=ctypes.c_void_p(stream.cuda_stream))
            stream.synchronize()
            ref_o, ref_lse = reference(kernel, q, k, v, kernel.default_scale())
            got = o.double().transpose(1, 2) if kernel.problem["layout"] == "bshd" else o.double()
            rel = ((got - ref_o).norm() / ref_o.norm().clamp_min(1e-30)).item()
            ok = rel < 1e-2 and not torch.isnan(o).any().item()
            if lse is not None:
                fin = ~torch.isinf(ref_lse)
                ok = ok and torch.equal(torch.isinf(lse), ~fin) and \
                    ((lse.double()[fin] - ref_lse[fin]).abs().max().item() if fin.any() else 0.0) < 1e-3
            stream.synchronize()
        results[index] = (name, nq, nk, rel, ok, "")
    except Exception as e:  # noqa: BLE001 - reported per thread
        results[index] = (name, 0, 0, float("nan"), False, str(e))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--artifacts", default="artifacts")
    ap.add_argument("--threads", type=int, default=8)
    a = ap.parse_args()
    rt = Runtime(os.path.join(a.artifacts, "lib", "libAttncRuntime.so"))
    kdir = os.path.join(a.artifacts, "kernels")
    names = [FAMILIES[i % len(FAMILIES)] for i in range(a.threads)]
    results = [None] * a.threads
    start = threading.Barrier(a.threads)
    threads = [threading.Thread(target=worker, args=(rt, kdir, i, n, start, results)) for i, n in enumerate(names)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    failed = 0
    for name, nq, nk, rel, ok, why in results:
        print(f"thread {name:<18} Nq={nq:<5} Nk={nk:<5} rel_err={rel:.2e} {'PASS' if ok else 'FAIL ' + why}")
        failed += not ok
    print(f"threads check: {a.threads - failed} passed, {failed} failed ({a.threads} threads, one stream each)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
