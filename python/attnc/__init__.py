"""attnc from Python: attention kernels compiled by attnc, called on PyTorch tensors.

    import attnc
    o = attnc.attention(q, k, v, causal=True)

`attention` (attnc.ops) needs PyTorch; KernelSpec, KernelCache, the
compiler driver and `python3 -m attnc.precompile` do not, so importing attnc
does not import torch until attnc.attention is first used.
"""
from .cache import KernelCache, default_cache
from .errors import AttncError
from .spec import KernelSpec

__version__ = "0.1.0"
__all__ = ["attention", "AttncError", "KernelCache", "KernelSpec", "default_cache"]


def __getattr__(name):
    # PEP 562: import torch on first use of attnc.attention, then bind it.
    if name == "attention":
        from .ops import attention
        globals()["attention"] = attention
        return attention
    raise AttributeError(f"module 'attnc' has no attribute {name!r}")
