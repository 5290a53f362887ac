"""attnc.attention on PyTorch tensors, and the `attnc::attention` torch.library op.

The eager path calls the kernel directly (a dict lookup, two allocations, one
struct pack and the launch); under torch.compile, attnc.attention calls the
custom op, whose fake implementation gives the compiler O's and LSE's shapes
and strides without running anything.
"""
import math
from typing import List, Optional, Tuple

import torch

from . import _capi
from .cache import default_cache
from .errors import AttncError, argument_error
from .layout import common_layout, physical_order, tensor_layout
from .masks import resolve_mask, resolve_mask_uncached
from .spec import KernelSpec

_CALL = "attnc.attention"
_DTYPES = {torch.bfloat16: "bf16", torch.float16: "f16"}

# (dtype, Hq, Hkv, D, Dv, mask, window, softcap, layout, lse) -> cache.Kernel
_kernels = {}


def _check_tensors(q, k, v):
    """Raises, naming the tensor and value, unless q, k, v can be one attention's inputs."""
    for name, t in (("q", q), ("k", k), ("v", v)):
        if not isinstance(t, torch.Tensor):
            raise argument_error(_CALL, f"{name} is a {type(t).__name__}; expected a torch.Tensor", TypeError)
        if t.dim() != 4:
            raise argument_error(_CALL, f"{name} has shape {tuple(t.shape)}; expected 4 dims "
                                 "[batch, heads, seq, head_dim] (for [B, S, H, D] tensors pass x.transpose(1, 2))")
    if q.dtype not in _DTYPES:
        raise argument_error(_CALL, f"q.dtype is {q.dtype}; expected torch.bfloat16 or torch.float16", TypeError)
    for name, t in (("k", k), ("v", v)):
        if t.dtype != q.dtype:
            raise argument_error(_CALL, f"{name}.dtype is {t.dtype} but q.dtype is {q.dtype}", TypeError)
        if t.device != q.device:
            raise argument_error(_CALL, f"{name} is on {t.device} but q is on {q.device}")
    B, Hq, _, D = q.shape
    agree = ((k, "k", 0, q, "q", "batch"), (v, "v", 0, q, "q", "batch"), (k, "k", 3, q, "q", "head dim"),
             (v, "v", 1, k, "k", "heads"), (v, "v", 2, k, "k", "seq"))
    for t, name, dim, ref, ref_name, what in agree:
        if t.shape[dim] != ref.shape[dim]:
            raise argument_error(_CALL, f"{name}.shape[{dim}] ({what}) is {t.shape[dim]} but "
                                 f"{ref_name}.shape[{dim}] is {ref.shape[dim]}")
    if k.shape[1] == 0 or Hq % k.shape[1]:
        raise argument_error(_CALL, f"q has {Hq} heads, not a multiple of the {k.shape[1]} heads of k and v")


def _check_device(q):
    if q.device.type != "cuda":
        raise argument_error(_CALL, f"q is on {q.device}; attnc kernels run on CUDA devices")


def _contiguous_head_dim(t):
    """`t`, copied if its head dim is strided (TMA reads rows of contiguous elements)."""
    return t if t.stride(3) == 1 or t.shape[3] == 1 else t.contiguous()


def _prepare(q, k, v):
    """Checked q, k, v (head dims made contiguous) and their common layout."""
    _check_tensors(q, k, v)
    q, k, v = _contiguous_head_dim(q), _contiguous_head_dim(k), _contiguous_head_dim(v)
    layout = common_layout(_CALL, (("q", q.shape, q.stride()), ("k", k.shape, k.stride()),
                                   ("v", v.shape, v.stride())))
    return q, k, v, layout


def empty_outputs(q, layout, head_dim_v, return_lse):
    """Uninitialized O (logical [B, Hq, Sq, Dv], stored in `layout`) and LSE (or None)."""
    B, Hq, Sq, _ = q.shape
    order = physical_order(layout)
    logical = (B, Hq, Sq, head_dim_v)
    o = torch.empty([logical[i] for i in order], dtype=q.dtype, device=q.device).permute(order)
    lse = torch.empty((B, Hq, Sq), dtype=torch.float32, device=q.device) if return_lse else None
    return o, lse


def _current_stream(device):
    """The raw CUstream of PyTorch's current stream on `device`."""
    return torch.cuda.current_stream(device).cuda_stream


if hasattr(torch._C, "_cuda_getCurrentRawStream"):
    def _current_stream(device):  # noqa: F811 - the same, without building a Stream object
        return torch._C._cuda_getCurrentRawStream(device.index)


def _kernel_for(key, device):
    """The kernel for a fast-path key, compiling or loading it on first use."""
    dtype, hq, hkv, d, dv, mask, window, softcap, layout, lse = key
    spec = KernelSpec(dtype=dtype, heads_q=hq, heads_kv=hkv, head_dim=d, head_dim_v=dv, mask=mask,
                      window=window, softcap=softcap, layout=layout, lse=lse)
    if device.index:  # the runtime opens device 0 unless told otherwise
        _capi.runtime().init(device.index)
    kernel = _kernels[key] = default_cache().kernel(spec)
    return kernel


class _Plan:
    """What a launch with one signature of shapes, strides, dtypes and options
    needs besides the data pointers and the scale: the kernel, O's physical
    shape and the permutation back to logical order, LSE's shape."""
    __slots__ = ("kernel", "device", "device_index", "code", "o_shape", "order", "lse_shape")

    def __init__(self, kernel, q, layout, head_dim_v, code):
        B, Hq, Sq, _ = q.shape
        order = physical_order(layout)
        logical = (B, Hq, Sq, head_dim_v)
        self.kernel, self.device, self.device_index, self.code = kernel, q.device, q.device.index or 0, code
        self.o_shape = tuple(logical[i] for i in order)
        self.order = None if order == (0, 1, 2, 3) else order
        self.lse_shape = (B, Hq, Sq)


# Launch plans of the signatures seen before (see _signature): a hit skips
# the argument checks, which that signature passed, and the kernel lookup.
# Sequence lengths are part of a signature, so a workload of varying lengths
# makes new ones without end: when _plans holds _MAX_PLANS, it is cleared
# before the next plan is added. That bounds its memory at the cost of
# re-planning (checks and a dict lookup of the kernel, no compilation) the
# signatures still in use; an LRU would spend time on every hit instead.
_MAX_PLANS = 4096
_plans = {}


def _signature(q, k, v, mask, window, softcap, return_lse):
    """Everything the checks, the kernel and the output shapes depend on."""
    return (q.shape, q.stride(), k.shape, k.stride(), v.shape, v.stride(), q.dtype, k.dtype, v.dtype,
            q.get_device(), k.get_device(), v.get_device(), mask, window, softcap, return_lse)


def _check_scale(scale, head_dim):
    if scale is None:
        return 1.0 / math.sqrt(head_dim)
    # Positive only: the kernel's masked scores are -inf, and with a negative
    # scale exp2((s - m) * scale * log2(e)) is +inf there, so O comes back NaN.
    # (`0 < nan` is False, so NaN fails here too.)
    if not (isinstance(scale, (int, float)) and 0 < scale < math.inf):
        raise argument_error(_CALL, f"scale is {scale!r}; expected a finite positive float or None (1/sqrt(D))")
    return scale


def _launch(plan, q, k, v, scale, return_lse):
    """Allocates O (and LSE) and launches the plan's kernel on the current stream."""
    o = torch.empty(plan.o_shape, dtype=q.dtype, device=plan.device)
    if plan.order is not None:
        o = o.permute(plan.order)
    lse = torch.empty(plan.lse_shape, dtype=torch.float32, device=plan.device) if return_lse else None
    code = plan.code
    args = _capi.pack_attention_args(
        (q.data_ptr(), q.shape, q.stride(), code), (k.data_ptr(), k.shape, k.stride(), code),
        (v.data_ptr(), v.shape, v.stride(), code), (o.data_ptr(), o.shape, o.stride(), code),
        lse.data_ptr() if lse is not None else 0, scale, plan.device_index)
    plan.kernel.launch(args, _current_stream(plan.device))
    return o, lse


def run(q, k, v, mask, window, softcap, scale, return_lse):
    """attention() with its mask arguments resolved; returns (O, LSE or None)."""
    try:
        signature = _signature(q, k, v, mask, window, softcap, return_lse)
        plan = _plans.get(signature)
    except (AttributeError, TypeError):  # not tensors: _run_checked says which
        signature = plan = None
    if plan is None:
        return _run_checked(q, k, v, mask, window, softcap, scale, return_lse, signature)
    return _launch(plan, q, k, v, _check_scale(scale, q.shape[3]), return_lse)


def _run_checked(q, k, v, mask, window, softcap, scale, return_lse, signature):
    """run() for a signature without a plan: checks the arguments, finds the
    kernel and records the plan (unless the tensors had to be copied)."""
    given = (q, k, v)
    q, k, v, layout = _prepare(q, k, v)
    copied = any(a is not b for a, b in zip(given, (q, k, v)))
    _check_device(q)
    B, Hq, Sq, D = q.shape
    Sk, Dv = k.shape[2], v.shape[3]
    scale = _check_scale(scale, D)
    dtype = _DTYPES[q.dtype]
    # Size-1 heads and seq dims leave the layout open: both kernels can run
    # the tensors, so an ahead-of-time kernel of either layout serves.
    candidates = [layout]
    if all(tensor_layout(t.shape, t.stride()) is None for t in (q, k, v)):
        candidates = [layout, "bshd" if layout == "bhsd" else "bhsd"]
    kernel = None
    for i, candidate in enumerate(candidates):
        key = (dtype, Hq, k.shape[1], D, Dv, mask, window, softcap, candidate, return_lse)
        try:
            kernel = _kernels.get(key) or _kernel_for(key, q.device)
            layout = candidate
            break
        except AttncError:
            if i == len(candidates) - 1:
                raise
    if B == 0 or Sq == 0 or Sk == 0:
        o, lse = empty_outputs(q, layout, Dv, return_lse)
        if Sk == 0:  # no visible key anywhere: O = 0, LSE = -inf (the op's definition)
            o.zero_()
            if lse is not None:
                lse.fill_(-math.inf)
        return o, lse
    plan = _Plan(kernel, q, layout, Dv, _capi.DTYPE_CODES[dtype])
    if signature is not None and not copied:
        if len(_plans) >= _MAX_PLANS:
            _plans.clear()
        _plans[signature] = plan
    return _launch(plan, q, k, v, scale, return_lse)


_is_compiling = getattr(getattr(torch, "compiler", None), "is_compiling", lambda: False)
attention_op = None  # torch.ops.attnc.attention where torch.library.custom_op exists (PyTorch >= 2.4)


def attention(q, k, v, *, causal=False, causal_alignment="top_left", window=None, softcap=None,
              scale=None, return_lse=False):
    """Scaled dot-product attention with an attnc kernel: softmax(scale · q kᵀ + mask) v.

    q: [B, Hq, Sq, D], k: [B, Hkv, Sk, D], v: [B, Hkv, Sk, Dv], CUDA tensors of
    torch.bfloat16 or torch.float16, as for torch.nn.functional.scaled_dot_product_attention.
    Each may be stored BHSD (contiguous) or BSHD (a transposed [B, S, H, D]
    tensor, as FlashAttention holds them): the layout is read from the strides,
    and O is returned in q's layout. Hq must be a multiple of Hkv (GQA, MQA).

    causal: hide keys after the query's diagonal. causal_alignment: "top_left"
    (query i sees keys j <= i, like SDPA's is_causal) or "bottom_right"
    (j <= i + Sk - Sq, like FlashAttention: the last query sees every key).
    window: (left, right): query i sees only keys in [i' - left, i' + right],
    i' being i on the diagonal causal_alignment names; None or -1 for an
    unbounded side; right is moot when causal. FlashAttention's
    window_size=(l, r), causal=c is window=(l, r), causal=c,
    causal_alignment="bottom_right" (non-causal windows: top_left only).
    softcap: scores become softcap · tanh(scores / softcap) (0 or None: off).
    scale: the softmax scale, default 1/sqrt(D); not compiled into the kernel.
    return_lse: also return the float32 log-sum-exp [B, Hq, Sq] (natural log).
    A query row that sees no key gets O = 0 and LSE = -inf.

    The kernel for the call's shape class (dtype, heads, head dims, mask,
    layout, LSE) is loaded from $ATTNC_KERNEL_DIR or the on-disk cache, or
    compiled on first use (see attnc.cache). Launched on the current CUDA
    stream; forward only (no autograd).
    Returns O, or (O, LSE) when return_lse.
    """
    if attention_op is not None and _is_compiling():
        mask, window, softcap = resolve_mask_uncached(causal, causal_alignment, window, softcap)
        o, lse = attention_op(q, k, v, mask, None if window is None else list(window), softcap, scale, return_lse)
        return (o, lse) if return_lse else o
    mask, window, softcap = resolve_mask(causal, causal_alignment, window, softcap)
    o, lse = run(q, k, v, mask, window, softcap, scale, return_lse)
    return (o, lse) if return_lse else o


def _register_op():
    """Defines attnc::attention and its fake (meta) implementation."""
    @torch.library.custom_op("attnc::attention", mutates_args=())
    def op(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, mask: str, window: Optional[List[int]],
           softcap: Optional[float], scale: Optional[float], return_lse: bool) -> Tuple[torch.Tensor, torch.Tensor]:
        o, lse = run(q, k, v, mask, None if window is None else tuple(window), softcap, scale, return_lse)
        return o, lse if lse is not None else q.new_empty((0,), dtype=torch.float32)

    @op.register_fake
    def _(q, k, v, mask, window, softcap, scale, return_lse):
        q, k, v, layout = _prepare(q, k, v)
        o, lse = empty_outputs(q, layout, v.shape[3], return_lse)
        return o, lse if lse is not None else q.new_empty((0,), dtype=torch.float32)

    return op


if hasattr(torch.library, "custom_op"):
    attention_op = _register_op()
