"""Shared pieces of the attnc Python tests."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from attnc.compiler import find_compiler  # noqa: E402


def manifest_for(spec, scale_param=True):
    """A manifest.json dict carrying exactly what KernelSpec.check_manifest reads."""
    options = {"heads_q": spec.heads_q, "heads_kv": spec.heads_kv}
    if spec.window is not None:
        options["window_left"], options["window_right"] = spec.window
    if spec.softcap is not None:
        options["softcap"] = spec.softcap
    params = [{"kind": "f32", "value": "scale"}] if scale_param else []
    return {"problem": {"dtype": spec.dtype, "head_dim": spec.head_dim, "head_dim_v": spec.head_dim_v,
                        "layout": spec.layout, "mask": spec.mask, "gqa": spec.heads_q != spec.heads_kv,
                        "has_lse": spec.lse},
            "params": params, "options": options}


def compiler_or_none():
    try:
        return find_compiler()
    except Exception:
        return None
