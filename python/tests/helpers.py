"""Shared pieces of the attnc Python tests."""
import functools
import os
import sys
import unittest

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
                        "has_lse": spec.lse, **({} if spec.page_size is None else {"page_size": spec.page_size}),
                        **({"varlen": True} if spec.varlen else {})},
            "params": params, "options": options}


def compiler_or_none():
    try:
        return find_compiler()
    except Exception:
        return None


def skip_unless_torch(test):
    """Decorates a test class or method that needs PyTorch: skipped where
    torch cannot be imported, except with ATTNC_REQUIRE_TORCH=1 (set by
    tools/bootstrap.sh test, whose machine installs python3-torch), where
    it fails instead, so that CI cannot pass by skipping the torch tests."""
    try:
        import torch  # noqa: F401
        return test
    except ImportError as e:
        error = e
    if os.environ.get("ATTNC_REQUIRE_TORCH") != "1":
        return unittest.skip(f"PyTorch is not installed ({error})")(test)
    message = (f"PyTorch is not installed ({error}) but ATTNC_REQUIRE_TORCH=1 "
               "(install python3-torch, or unset it to skip these tests)")
    if isinstance(test, type):
        def setUpClass(cls):
            raise AssertionError(message) from error
        test.setUpClass = classmethod(setUpClass)
        return test

    @functools.wraps(test)
    def fail(*args, **kwargs):
        raise AssertionError(message) from error
    return fail
