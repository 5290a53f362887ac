"""Decode steps at forced split counts: which count the split heuristic should pick.

For each decode-step kernel (artifacts/decode-step, static Nq = 1) and each
(B, Nk): the heuristic's count (ATTNC_KV_SPLITS unset) and every forced count
of --splits (the runtime reads the variable at each launch). Each launch's O,
NaN-poisoned before it, is checked against a float64 reference; then the
microseconds a launch replayed from a CUDA graph (as serving frameworks run
decode) and cuDNN's in the same way, with TB/s from Q, K, V and O's bytes.

  python3 bench/split_sweep.py --artifacts artifacts [--json out.json]
      [--kernels decode_d128_mqa,decode_d128_gqa] [--shapes 1x1024,1x32768] [--splits 1,2,4,8]
"""
import argparse
import json
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from attnc_runtime import AttncError, Runtime  # noqa: E402
from decode import REL_TOL, graph_us, parse_shapes, tbps  # noqa: E402
from gpu_check import make_inputs, reference, to_bhsd  # noqa: E402

VARIABLE = "ATTNC_KV_SPLITS"


def splits_of(kernel, args, batch, heads_q):
    """The split count a launch with `args` takes, from its workspace size:
    S partial rows of Dv f32 values and one f32 LSE per (batch, query head)."""
    dv = kernel.problem["head_dim_v"]
    size = kernel.workspace_size(args)
    # One split of a kernel that writes O itself needs no workspace.
    return max(1, round(size / (batch * heads_q * (dv * 4 + 4))))


def run_one(kernel, tensors, ref_o, scale, forced):
    """Checks and times one split count (None: the heuristic's)."""
    q, k, v, o, lse = tensors
    if forced is None:
        os.environ.pop(VARIABLE, None)
    else:
        os.environ[VARIABLE] = str(forced)
    o.fill_(float("nan"))
    args, workspace = kernel.with_workspace(kernel.args(q, k, v, o, lse, scale))
    heads_q = kernel.options["heads_q"]
    row = dict(forced=forced, splits=splits_of(kernel, args, q.shape[0], heads_q))
    kernel.launch(args)
    torch.cuda.synchronize()
    got = to_bhsd(o, kernel.problem["layout"]).double()
    rel = ((got - ref_o).norm() / ref_o.norm().clamp_min(1e-30)).item()
    row["rel_err"] = rel
    row["ok"] = bool(not torch.isnan(got).any() and rel <= REL_TOL)
    row["us"] = graph_us(lambda: kernel.launch(args, torch.cuda.current_stream().cuda_stream))
    del workspace
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--artifacts", default="artifacts")
    ap.add_argument("--json")
    ap.add_argument("--kernels", default="decode_d128_mqa,decode_d128_gqa")
    ap.add_argument("--shapes", type=parse_shapes, default=parse_shapes("1x1024,1x4096,1x32768,8x8192"))
    ap.add_argument("--splits", default="1,2,4,8,16,32,64,128")
    a = ap.parse_args()
    from torch.nn.attention import SDPBackend, sdpa_kernel
    rt = Runtime(os.path.join(a.artifacts, "lib", "libAttncRuntime.so"))
    forced = [int(s) for s in a.splits.split(",")]
    gen = torch.Generator(device="cuda").manual_seed(61)
    rows, failed = [], 0
    print(f"{'kernel':<18} {'B':>3} {'Nk':>6} {'S':>5} {'chosen':>6} {'us':>8} {'TB/s':>6} {'rel_err':>9}", flush=True)
    for name in a.kernels.split(","):
        kernel = rt.load(os.path.join(a.artifacts, "decode-step", name))
        hq, hkv = kernel.options["heads_q"], kernel.options["heads_kv"]
        scale = kernel.default_scale()
        for (B, Nk) in a.shapes:
            tensors = make_inputs(kernel, B, 1, Nk, hq, hkv, gen)
            q, k, v, o, _ = tensors
            nbytes = sum(t.numel() * t.element_size() for t in (q, k, v, o))
            ref_o, _ = reference(kernel, q, k, v, scale)
            qb, kb, vb = (to_bhsd(t, kernel.problem["layout"]) for t in (q, k, v))
            with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                cudnn_us = graph_us(lambda: torch.nn.functional.scaled_dot_product_attention(
                    qb, kb, vb, scale=scale, enable_gqa=True))
            print(f"{name:<18} {B:>3} {Nk:>6} {'cuDNN':>5} {'':>6} {cudnn_us:8.1f} "
                  f"{tbps(nbytes, cudnn_us * 1e-3):6.2f}", flush=True)
            for s in [None] + forced:
                try:
                    row = run_one(kernel, tensors, ref_o, scale, s)
                except (AttncError, RuntimeError) as e:
                    row = dict(forced=s, ok=False, error=str(e)[:200])
                row.update(kernel=name, B=B, Nk=Nk, cudnn_us=cudnn_us)
                if "us" in row:
                    row["tbps"] = tbps(nbytes, row["us"] * 1e-3)
                rows.append(row)
                failed += not row["ok"]
                label = "heur" if s is None else str(s)
                print(f"{name:<18} {B:>3} {Nk:>6} {label:>5} {row.get('splits', '-'):>6} "
                      f"{row.get('us', float('nan')):8.1f} {row.get('tbps', float('nan')):6.2f} "
                      f"{row.get('rel_err', float('nan')):9.2e}"
                      + ("" if row["ok"] else f"  FAIL {row.get('error', '')}"), flush=True)
    os.environ.pop(VARIABLE, None)
    print(f"checks: {len(rows) - failed} passed, {failed} failed", flush=True)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(dict(rows=rows, device=torch.cuda.get_device_name()), f, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
