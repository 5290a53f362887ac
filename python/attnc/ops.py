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
from .spec import PAGE_SIZES, KernelSpec, max_query_tokens

_CALL = "attnc.attention"
_DTYPES = {torch.bfloat16: "bf16", torch.float16: "f16"}

# (dtype, Hq, Hkv, D, Dv, mask, window, softcap, layout, lse, page_size, varlen, query_tokens) -> cache.Kernel
_kernels = {}


def _check_bhsd(name, t):
    """Raises, naming `name` and the value, unless t is a 4-d tensor (SDPA's [B, H, S, D])."""
    if not isinstance(t, torch.Tensor):
        raise argument_error(_CALL, f"{name} is a {type(t).__name__}; expected a torch.Tensor", TypeError)
    if t.dim() != 4:
        raise argument_error(_CALL, f"{name} has shape {tuple(t.shape)}; expected 4 dims "
                             "[batch, heads, seq, head_dim] (for [B, S, H, D] tensors pass x.transpose(1, 2))")


def _check_query(q):
    """Raises, naming the value, unless q is a 4-d bf16 or f16 tensor."""
    _check_bhsd("q", q)
    if q.dtype not in _DTYPES:
        raise argument_error(_CALL, f"q.dtype is {q.dtype}; expected torch.bfloat16 or torch.float16", TypeError)


def _check_tensors(q, k, v):
    """Raises, naming the tensor and value, unless q, k, v can be one attention's inputs."""
    _check_query(q)
    for name, t in (("k", k), ("v", v)):
        _check_bhsd(name, t)
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


def _find_kernel(head, layout, open_layout, tail, device):
    """(kernel, its layout) for the fast-path key head + (layout,) + tail.
    With `open_layout` (size-1 heads or seq dims: either kernel can run the
    tensors) the other layout's kernel serves where `layout`'s cannot be had
    (an ahead-of-time kernel of that layout only). A decode step (tail's last
    field) falls back to its class's general kernel where no decode-step
    kernel can be had (ahead-of-time kernels without `-q<n>`, no compiler)."""
    candidates = [layout, "bshd" if layout == "bhsd" else "bhsd"] if open_layout else [layout]
    for i, candidate in enumerate(candidates):
        key = head + (candidate,) + tail
        try:
            return _kernels.get(key) or _kernel_for(key, device), candidate
        except AttncError:
            if i < len(candidates) - 1:
                continue
            if tail[-1] is None:
                raise
    return _find_kernel(head, layout, open_layout, tail[:-1] + (None,), device)


def _decode_tokens(q, heads_kv):
    """The query_tokens of the kernel for q [B, Hq, Sq, D] against `heads_kv`
    kv heads: a decode step's Sq (one token, or a speculative step's few) up
    to max_query_tokens, else None (the class's general kernel)."""
    heads, sq = q.shape[1], q.shape[2]
    return sq if 1 <= sq <= max_query_tokens(heads, heads_kv) else None


def _kernel_for(key, device):
    """The kernel for a fast-path key, compiling or loading it on first use."""
    dtype, hq, hkv, d, dv, mask, window, softcap, layout, lse, page_size, varlen, query_tokens = key
    spec = KernelSpec(dtype=dtype, heads_q=hq, heads_kv=hkv, head_dim=d, head_dim_v=dv, mask=mask,
                      window=window, softcap=softcap, layout=layout, lse=lse, page_size=page_size, varlen=varlen,
                      query_tokens=query_tokens)
    if device.index:  # the runtime opens device 0 unless told otherwise
        _capi.runtime().init(device.index)
    kernel = _kernels[key] = default_cache().kernel(spec)
    return kernel


class _Plan:
    """What a launch with one signature of shapes, strides, dtypes and options
    needs besides the data pointers and the scale: the kernel, O's physical
    shape and the permutation back to logical order, LSE's shape."""
    __slots__ = ("kernel", "device", "device_index", "code", "o_shape", "order", "lse_shape", "workspace_bytes")

    def __init__(self, kernel, q, layout, head_dim_v, code):
        B, Hq, Sq, _ = q.shape
        order = physical_order(layout)
        logical = (B, Hq, Sq, head_dim_v)
        self.kernel, self.device, self.device_index, self.code = kernel, q.device, q.device.index or 0, code
        # A split-KV kernel's workspace bytes, asked of the runtime at the
        # first launch (the same for every launch of one signature).
        self.workspace_bytes = None
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


def _outputs(plan, q, return_lse):
    """O in the plan's layout (and the LSE), allocated for one launch."""
    o = torch.empty(plan.o_shape, dtype=q.dtype, device=plan.device)
    if plan.order is not None:
        o = o.permute(plan.order)
    lse = torch.empty(plan.lse_shape, dtype=torch.float32, device=plan.device) if return_lse else None
    return o, lse


_WORKSPACE_ALIGNMENT = 256


def _with_workspace(plan, pack):
    """The launch's args (`pack(workspace)` bytes) and, for a split-KV kernel,
    its workspace: a buffer of PyTorch's caching allocator on the current
    stream, which reuses it in stream order, instead of the runtime's
    allocation and free on the stream at every launch. The tensor must live
    until the launch is queued."""
    if plan.workspace_bytes is None:
        plan.workspace_bytes = plan.kernel.workspace_size(pack(None)) if plan.kernel.split_kv else 0
    if not plan.workspace_bytes:
        return pack(None), None
    # The runtime takes a 256-byte aligned workspace (CUDA's allocator gives
    # 512; the slack keeps the contract for any allocator).
    workspace = torch.empty(plan.workspace_bytes + _WORKSPACE_ALIGNMENT, dtype=torch.uint8, device=plan.device)
    base = -workspace.data_ptr() % _WORKSPACE_ALIGNMENT + workspace.data_ptr()
    return pack((base, plan.workspace_bytes)), workspace


def _launch(plan, q, k, v, scale, return_lse):
    """Allocates O (and LSE) and launches the plan's kernel on the current stream."""
    o, lse = _outputs(plan, q, return_lse)
    code = plan.code
    args, _workspace = _with_workspace(plan, lambda workspace: _capi.pack_attention_args(
        (q.data_ptr(), q.shape, q.stride(), code), (k.data_ptr(), k.shape, k.stride(), code),
        (v.data_ptr(), v.shape, v.stride(), code), (o.data_ptr(), o.shape, o.stride(), code),
        lse.data_ptr() if lse is not None else 0, scale, plan.device_index, workspace=workspace))
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
    open_layout = all(tensor_layout(t.shape, t.stride()) is None for t in (q, k, v))
    # A few query tokens per sequence are a decode step: its own kernel
    # (64-row tiles, keys split at launch, query heads packed where the
    # pipeline packs them).
    kernel, layout = _find_kernel((dtype, Hq, k.shape[1], D, Dv, mask, window, softcap), layout, open_layout,
                                  (return_lse, None, False, _decode_tokens(q, k.shape[1])), q.device)
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


# A paged KV cache (block_table, cache_lengths): k and v are page pools.
_POOL = "[num_pages, page_size, heads_kv, head_dim]"
_INT32_MAX = 2**31 - 1


def _missing_index_input(block_table, cache_lengths):
    """The error for a paged call given one index input without the other."""
    missing = "cache_lengths" if cache_lengths is None else "block_table"
    given = "block_table" if missing == "cache_lengths" else "cache_lengths"
    what = ("the int32 [batch] tensor of each sequence's cached tokens" if missing == "cache_lengths"
            else "the int32 [batch, pages_per_seq] tensor of each sequence's pages in the pools")
    return argument_error(_CALL, f"{given} is given but {missing} is None; a paged KV cache takes both "
                          f"({missing}: {what})")


def _check_index_tensor(name, t, q, rank, dims):
    """Raises, naming `name` and the value, unless `t` is a contiguous int32 [batch, ...] tensor on q's device."""
    if not isinstance(t, torch.Tensor):
        raise argument_error(_CALL, f"{name} is a {type(t).__name__}; expected an int32 torch.Tensor {dims}",
                             TypeError)
    if t.dtype != torch.int32:
        raise argument_error(_CALL, f"{name}.dtype is {t.dtype}; expected torch.int32 {dims}", TypeError)
    if t.device != q.device:
        raise argument_error(_CALL, f"{name} is on {t.device} but q is on {q.device}")
    if t.dim() != rank:
        raise argument_error(_CALL, f"{name} has shape {tuple(t.shape)}; expected {rank} dim{'s' * (rank > 1)} "
                             f"{dims}")
    if t.shape[0] != q.shape[0]:
        raise argument_error(_CALL, f"{name}.shape[0] (batch) is {t.shape[0]} but q.shape[0] is {q.shape[0]}")
    if not t.is_contiguous():
        raise argument_error(_CALL, f"{name} has strides {t.stride()} for shape {tuple(t.shape)}; expected a "
                             f"contiguous tensor (pass {name}.contiguous())")


def _check_paged(q, k, v, block_table, cache_lengths):
    """Raises, naming the argument and value, unless q, the page pools k and v,
    block_table and cache_lengths can be one paged attention's inputs;
    returns the page size."""
    if block_table is None or cache_lengths is None:
        raise _missing_index_input(block_table, cache_lengths)
    _check_query(q)
    for name, t in (("k", k), ("v", v)):
        if not isinstance(t, torch.Tensor):
            raise argument_error(_CALL, f"{name} is a {type(t).__name__}; expected a torch.Tensor", TypeError)
        if t.dim() != 4:
            raise argument_error(_CALL, f"{name} has shape {tuple(t.shape)}; with block_table, {name} is a page "
                                 f"pool of 4 dims {_POOL}")
        if t.dtype != q.dtype:
            raise argument_error(_CALL, f"{name}.dtype is {t.dtype} but q.dtype is {q.dtype}", TypeError)
        if t.device != q.device:
            raise argument_error(_CALL, f"{name} is on {t.device} but q is on {q.device}")
    page_size = k.shape[1]
    if page_size not in PAGE_SIZES:
        raise argument_error(_CALL, f"k.shape[1] (page size) is {page_size}; expected a power of two from "
                             f"{PAGE_SIZES[0]} to {PAGE_SIZES[-1]} (with block_table, k and v are page pools "
                             f"{_POOL})")
    for dim, what in ((0, "pages"), (1, "page size"), (2, "heads")):
        if v.shape[dim] != k.shape[dim]:
            raise argument_error(_CALL, f"v.shape[{dim}] ({what}) is {v.shape[dim]} but k.shape[{dim}] is "
                                 f"{k.shape[dim]}: k and v are page pools of the same pages {_POOL}")
    if k.shape[3] != q.shape[3]:
        raise argument_error(_CALL, f"k.shape[3] (head dim) is {k.shape[3]} but q.shape[3] is {q.shape[3]}")
    heads_q, heads_kv = q.shape[1], k.shape[2]
    if heads_kv == 0 or heads_q % heads_kv:
        raise argument_error(_CALL, f"q has {heads_q} heads, not a multiple of the {heads_kv} heads of the page "
                             "pools k and v (k.shape[2])")
    if k.shape[0] == 0:
        raise argument_error(_CALL, f"k.shape[0] (pages) is 0; the page pools {_POOL} must hold at least one page")
    for name, t in (("k", k), ("v", v)):
        if not t.is_contiguous():
            raise argument_error(_CALL, f"{name} has strides {t.stride()} for shape {tuple(t.shape)}; expected a "
                                 f"contiguous page pool {_POOL} (vLLM's layout)")
    _check_index_tensor("block_table", block_table, q, 2, "[batch, pages_per_seq]")
    _check_index_tensor("cache_lengths", cache_lengths, q, 1, "[batch]")
    pages = block_table.shape[1]
    if pages == 0:
        raise argument_error(_CALL, f"block_table has shape {tuple(block_table.shape)}; expected at least one page "
                             "column (entries past a sequence's pages are not read: fill them with -1)")
    if pages * page_size > _INT32_MAX:
        raise argument_error(_CALL, f"block_table.shape[1] (pages_per_seq) is {pages}: {pages} pages of "
                             f"{page_size} tokens are more than the kernel's 32-bit lengths hold")
    return page_size


class _PagedPlan(_Plan):
    """A _Plan of a paged launch, with the logical [num_pages, Hkv, page_size,
    D] shapes and strides of the contiguous pools (memory [num_pages,
    page_size, Hkv, D], a BSHD tensor of pages) and the index tensors'."""
    __slots__ = ("k_shape", "k_strides", "v_shape", "v_strides", "table_shape", "table_strides",
                 "lengths_shape", "lengths_strides")

    def __init__(self, kernel, q, layout, code, k, v, block_table):
        num_pages, page_size, heads, head_dim = k.shape
        head_dim_v = v.shape[3]
        super().__init__(kernel, q, layout, head_dim_v, code)
        # Strides from the shapes: a contiguous tensor's strides of size-1
        # dims are arbitrary in PyTorch, and never read.
        self.k_shape = (num_pages, heads, page_size, head_dim)
        self.k_strides = (page_size * heads * head_dim, head_dim, heads * head_dim, 1)
        self.v_shape = (num_pages, heads, page_size, head_dim_v)
        self.v_strides = (page_size * heads * head_dim_v, head_dim_v, heads * head_dim_v, 1)
        batch, pages = block_table.shape
        self.table_shape, self.table_strides = (batch, pages), (pages, 1)
        self.lengths_shape, self.lengths_strides = (batch,), (1,)


def _indexed_signature(kind, q, k, v, first, second, mask, window, softcap, return_lse):
    """_signature of a call with two index tensors (a paged call's block table and cache lengths, a varlen
    call's offsets): theirs too."""
    return (kind, q.shape, q.stride(), k.shape, k.stride(), v.shape, v.stride(), first.shape, first.stride(),
            second.shape, second.stride(), q.dtype, k.dtype, v.dtype, first.dtype, second.dtype, q.get_device(),
            k.get_device(), v.get_device(), first.get_device(), second.get_device(), mask, window, softcap,
            return_lse)


def _paged_signature(q, k, v, block_table, cache_lengths, mask, window, softcap, return_lse):
    """_signature of a paged call: the index tensors' too."""
    return _indexed_signature("paged", q, k, v, block_table, cache_lengths, mask, window, softcap, return_lse)


def _launch_paged(plan, q, k, v, block_table, cache_lengths, scale, return_lse, check_index_inputs):
    """_launch of a paged plan; with check_index_inputs, attnc_attention_check first."""
    o, lse = _outputs(plan, q, return_lse)
    code = plan.code
    args, _workspace = _with_workspace(plan, lambda workspace: _capi.pack_attention_args(
        (q.data_ptr(), q.shape, q.stride(), code), (k.data_ptr(), plan.k_shape, plan.k_strides, code),
        (v.data_ptr(), plan.v_shape, plan.v_strides, code), (o.data_ptr(), o.shape, o.stride(), code),
        lse.data_ptr() if lse is not None else 0, scale, plan.device_index,
        (block_table.data_ptr(), plan.table_shape, plan.table_strides),
        (cache_lengths.data_ptr(), plan.lengths_shape, plan.lengths_strides), workspace=workspace))
    stream = _current_stream(plan.device)
    if check_index_inputs:
        plan.kernel.check(args, stream)
    plan.kernel.launch(args, stream)
    return o, lse


def run_paged(q, k, v, block_table, cache_lengths, mask, window, softcap, scale, return_lse,
              check_index_inputs=False):
    """run() against a paged KV cache: k and v are page pools."""
    try:
        signature = _paged_signature(q, k, v, block_table, cache_lengths, mask, window, softcap, return_lse)
        plan = _plans.get(signature)
    except (AttributeError, TypeError):  # not tensors, or an index input is None: the checks say which
        signature = plan = None
    if plan is None:
        return _run_paged_checked(q, k, v, block_table, cache_lengths, mask, window, softcap, scale, return_lse,
                                  check_index_inputs, signature)
    return _launch_paged(plan, q, k, v, block_table, cache_lengths, _check_scale(scale, q.shape[3]), return_lse,
                         check_index_inputs)


def _run_paged_checked(q, k, v, block_table, cache_lengths, mask, window, softcap, scale, return_lse,
                       check_index_inputs, signature):
    """run_paged() for a signature without a plan (_run_checked's paged twin)."""
    page_size = _check_paged(q, k, v, block_table, cache_lengths)
    given = q
    q = _contiguous_head_dim(q)
    _check_device(q)
    B, Hq, Sq, D = q.shape
    Hkv, Dv = k.shape[2], v.shape[3]
    scale = _check_scale(scale, D)
    dtype = _DTYPES[q.dtype]
    layout = tensor_layout(q.shape, q.stride())  # the pools' layout is fixed: q alone says
    kernel, layout = _find_kernel((dtype, Hq, Hkv, D, Dv, mask, window, softcap), layout or "bhsd",
                                  layout is None, (return_lse, page_size, False,
                                   _decode_tokens(q, Hkv)),
                                  q.device)
    if B == 0 or Sq == 0:
        return empty_outputs(q, layout, Dv, return_lse)
    plan = _PagedPlan(kernel, q, layout, _capi.DTYPE_CODES[dtype], k, v, block_table)
    if signature is not None and q is given:
        if len(_plans) >= _MAX_PLANS:
            _plans.clear()
        _plans[signature] = plan
    return _launch_paged(plan, q, k, v, block_table, cache_lengths, scale, return_lse, check_index_inputs)


# A variable-length batch (cu_seqlens_q, cu_seqlens_k): q, k and v pack the
# sequences without padding, [total, heads, head_dim] (FlashAttention's varlen
# layout) or the logical [1, heads, total, head_dim].
_VARLEN_3D = "[total, heads, head_dim]"
_VARLEN_4D = "[1, heads, total, head_dim]"


def _check_varlen_index_inputs(cu_seqlens_q, cu_seqlens_k, block_table, cache_lengths):
    """Raises unless both offset arrays are given, without a paged cache's index inputs."""
    if cu_seqlens_q is None or cu_seqlens_k is None:
        missing = "cu_seqlens_k" if cu_seqlens_k is None else "cu_seqlens_q"
        given = "cu_seqlens_q" if missing == "cu_seqlens_k" else "cu_seqlens_k"
        rows = "k and v" if missing == "cu_seqlens_k" else "q"
        raise argument_error(_CALL, f"{given} is given but {missing} is None; a varlen batch takes both "
                             f"({missing}: the int32 [batch + 1] offsets of the sequences' rows in {rows})")
    if block_table is not None or cache_lengths is not None:
        given = "block_table" if block_table is not None else "cache_lengths"
        raise argument_error(_CALL, f"cu_seqlens_q is given with {given}; attnc has no varlen kernel over a paged "
                             "KV cache (pass one or the other)")


def _varlen_views(q, k, v):
    """Raises, naming the argument and value, unless q, k, v can be one varlen
    attention's packed inputs; returns them as the logical [1, H, total, D]
    tensors (views of the caller's, or copies where a head dim was strided),
    the caller's rank (3 or 4) and whether any was copied."""
    if not isinstance(q, torch.Tensor):
        raise argument_error(_CALL, f"q is a {type(q).__name__}; expected a torch.Tensor", TypeError)
    rank = q.dim()
    if rank not in (3, 4):
        raise argument_error(_CALL, f"q has shape {tuple(q.shape)}; with cu_seqlens_q, q packs the sequences: "
                             f"expected 3 dims {_VARLEN_3D} (FlashAttention's varlen layout) or 4 dims {_VARLEN_4D}")
    if q.dtype not in _DTYPES:
        raise argument_error(_CALL, f"q.dtype is {q.dtype}; expected torch.bfloat16 or torch.float16", TypeError)
    for name, t in (("k", k), ("v", v)):
        if not isinstance(t, torch.Tensor):
            raise argument_error(_CALL, f"{name} is a {type(t).__name__}; expected a torch.Tensor", TypeError)
        if t.dim() != rank:
            raise argument_error(_CALL, f"{name} has shape {tuple(t.shape)} but q has {rank} dims; with "
                                 f"cu_seqlens_q, pass q, k and v alike ({_VARLEN_3D} or {_VARLEN_4D})")
        if t.dtype != q.dtype:
            raise argument_error(_CALL, f"{name}.dtype is {t.dtype} but q.dtype is {q.dtype}", TypeError)
        if t.device != q.device:
            raise argument_error(_CALL, f"{name} is on {t.device} but q is on {q.device}")
    if rank == 4:
        for name, t in (("q", q), ("k", k), ("v", v)):
            if t.shape[0] != 1:
                raise argument_error(_CALL, f"{name}.shape[0] (batch) is {t.shape[0]}; with cu_seqlens_q, {name} "
                                     f"packs the sequences in a batch of 1: {_VARLEN_4D} (or {_VARLEN_3D})")
    tokens, heads, dim = (0, 1, 2) if rank == 3 else (2, 1, 3)
    agree = ((k, "k", dim, q, "q", "head dim"), (v, "v", heads, k, "k", "heads"), (v, "v", tokens, k, "k", "tokens"))
    for t, name, d, ref, ref_name, what in agree:
        if t.shape[d] != ref.shape[d]:
            raise argument_error(_CALL, f"{name}.shape[{d}] ({what}) is {t.shape[d]} but {ref_name}.shape[{d}] is "
                                 f"{ref.shape[d]}")
    if k.shape[heads] == 0 or q.shape[heads] % k.shape[heads]:
        raise argument_error(_CALL, f"q has {q.shape[heads]} heads, not a multiple of the {k.shape[heads]} heads "
                             "of k and v")
    # Head dims made contiguous in the caller's layout, so [total, H, D]
    # copies stay BSHD (_contiguous_head_dim of the 4-d view would not).
    # Whether one was copied is told by identity (contiguous() returns the
    # tensor itself when there is nothing to copy), not by data pointers:
    # the fake implementation runs this on fake tensors, whose data_ptr()
    # raises (newer PyTorch: "Cannot access data pointer of Tensor (e.g.
    # FakeTensor...)"; under symbolic shapes: "Cannot call numel()").
    given = (q, k, v)
    q, k, v = (t if t.stride(-1) == 1 or t.shape[-1] == 1 else t.contiguous() for t in given)
    copied = any(a is not b for a, b in zip(given, (q, k, v)))
    if rank == 3:
        q, k, v = (t.unsqueeze(0).transpose(1, 2) for t in (q, k, v))
    return q, k, v, rank, copied


def _check_offsets(name, t, q):
    """Raises, naming `name` and the value, unless `t` is a contiguous int32 [batch + 1] tensor on q's device."""
    dims = "[batch + 1]"
    if not isinstance(t, torch.Tensor):
        raise argument_error(_CALL, f"{name} is a {type(t).__name__}; expected an int32 torch.Tensor {dims}",
                             TypeError)
    if t.dtype != torch.int32:
        raise argument_error(_CALL, f"{name}.dtype is {t.dtype}; expected torch.int32 {dims}", TypeError)
    if t.device != q.device:
        raise argument_error(_CALL, f"{name} is on {t.device} but q is on {q.device}")
    if t.dim() != 1 or t.shape[0] == 0:
        raise argument_error(_CALL, f"{name} has shape {tuple(t.shape)}; expected 1 dim {dims} of at least one "
                             "offset (sequence b is rows cu_seqlens[b] .. cu_seqlens[b + 1])")
    if not t.is_contiguous():
        raise argument_error(_CALL, f"{name} has strides {t.stride()} for shape {tuple(t.shape)}; expected a "
                             f"contiguous tensor (pass {name}.contiguous())")


def _prepare_varlen(q, k, v, cu_seqlens_q, cu_seqlens_k):
    """Once every argument of a varlen call is checked: q, k, v as logical
    [1, H, total, D] tensors (views; copies where a head dim was strided),
    their common layout, the caller's rank and whether any was copied."""
    q, k, v, rank, copied = _varlen_views(q, k, v)
    _check_offsets("cu_seqlens_q", cu_seqlens_q, q)
    _check_offsets("cu_seqlens_k", cu_seqlens_k, q)
    if cu_seqlens_k.shape[0] != cu_seqlens_q.shape[0]:
        raise argument_error(_CALL, f"cu_seqlens_k has {cu_seqlens_k.shape[0]} offsets but cu_seqlens_q has "
                             f"{cu_seqlens_q.shape[0]}; both are [batch + 1], an offset pair per sequence")
    layout = common_layout(_CALL, (("q", q.shape, q.stride()), ("k", k.shape, k.stride()),
                                   ("v", v.shape, v.stride())))
    return q, k, v, layout, rank, copied


def _varlen_result(o, lse, rank):
    """O and LSE in the caller's convention: for 3-d inputs, O [total_q, Hq, Dv]
    and LSE [Hq, total_q] (FlashAttention's varlen outputs)."""
    if rank == 4:
        return o, lse
    # squeeze(0) of the batch of 1, not [0]: indexing a tensor of symbolic
    # sizes fails in PyTorch 1.13's tracing (the fake implementation's, see
    # test_ops.FakeImplTraceTest); the views are the same.
    return o.transpose(1, 2).squeeze(0), None if lse is None else lse.squeeze(0)


class _VarlenPlan(_Plan):
    """A _Plan of a varlen launch, with the logical [1, H, total, D] shapes
    and strides of the caller's q, k and v (views of 3-d tensors) and the
    offsets' shapes, so a launch packs the caller's pointers directly."""
    __slots__ = ("rank", "q_shape", "q_strides", "k_shape", "k_strides", "v_shape", "v_strides", "offsets")

    def __init__(self, kernel, q, k, v, layout, code, rank, offsets):
        super().__init__(kernel, q, layout, v.shape[3], code)
        self.rank = rank
        self.q_shape, self.q_strides = tuple(q.shape), q.stride()
        self.k_shape, self.k_strides = tuple(k.shape), k.stride()
        self.v_shape, self.v_strides = tuple(v.shape), v.stride()
        self.offsets = ((offsets,), (1,))


def _varlen_signature(q, k, v, cu_seqlens_q, cu_seqlens_k, mask, window, softcap, return_lse):
    """_signature of a varlen call: the offsets' too."""
    return _indexed_signature("varlen", q, k, v, cu_seqlens_q, cu_seqlens_k, mask, window, softcap, return_lse)


def _launch_varlen(plan, q, k, v, cu_seqlens_q, cu_seqlens_k, scale, return_lse, check_index_inputs):
    """_launch of a varlen plan; with check_index_inputs, attnc_attention_check first."""
    o, lse = _outputs(plan, q, return_lse)
    code = plan.code
    shape, strides = plan.offsets
    # The split count, and so the workspace, follow from the shapes alone
    # (the heuristic takes the mean keys of a sequence, total_k / B).
    args, _workspace = _with_workspace(plan, lambda workspace: _capi.pack_attention_args(
        (q.data_ptr(), plan.q_shape, plan.q_strides, code), (k.data_ptr(), plan.k_shape, plan.k_strides, code),
        (v.data_ptr(), plan.v_shape, plan.v_strides, code), (o.data_ptr(), o.shape, o.stride(), code),
        lse.data_ptr() if lse is not None else 0, scale, plan.device_index,
        cu_seqlens_q=(cu_seqlens_q.data_ptr(), shape, strides), cu_seqlens_k=(cu_seqlens_k.data_ptr(), shape, strides),
        workspace=workspace))
    stream = _current_stream(plan.device)
    if check_index_inputs:
        plan.kernel.check(args, stream)
    plan.kernel.launch(args, stream)
    return _varlen_result(o, lse, plan.rank)


def run_varlen(q, k, v, cu_seqlens_q, cu_seqlens_k, mask, window, softcap, scale, return_lse,
               check_index_inputs=False, block_table=None, cache_lengths=None):
    """run() of a varlen batch: q, k and v pack the sequences that the offsets delimit."""
    _check_varlen_index_inputs(cu_seqlens_q, cu_seqlens_k, block_table, cache_lengths)
    try:
        signature = _varlen_signature(q, k, v, cu_seqlens_q, cu_seqlens_k, mask, window, softcap, return_lse)
        plan = _plans.get(signature)
    except (AttributeError, TypeError):  # not tensors: the checks say which
        signature = plan = None
    if plan is None:
        return _run_varlen_checked(q, k, v, cu_seqlens_q, cu_seqlens_k, mask, window, softcap, scale, return_lse,
                                   check_index_inputs, signature)
    return _launch_varlen(plan, q, k, v, cu_seqlens_q, cu_seqlens_k, _check_scale(scale, plan.q_shape[3]),
                          return_lse, check_index_inputs)


def _run_varlen_checked(q, k, v, cu_seqlens_q, cu_seqlens_k, mask, window, softcap, scale, return_lse,
                        check_index_inputs, signature):
    """run_varlen() for a signature without a plan (_run_checked's varlen twin)."""
    q, k, v, layout, rank, copied = _prepare_varlen(q, k, v, cu_seqlens_q, cu_seqlens_k)
    _check_device(q)
    _, Hq, total_q, D = q.shape
    total_k, Dv = k.shape[2], v.shape[3]
    scale = _check_scale(scale, D)
    dtype = _DTYPES[q.dtype]
    open_layout = all(tensor_layout(t.shape, t.stride()) is None for t in (q, k, v))
    kernel, layout = _find_kernel((dtype, Hq, k.shape[1], D, Dv, mask, window, softcap), layout, open_layout,
                                  (return_lse, None, True, None), q.device)
    batch = cu_seqlens_q.shape[0] - 1
    if batch == 0 or total_q == 0 or total_k == 0:
        # No sequence, no query row or no key: nothing to launch. Rows no
        # sequence holds are not written (as by the kernel); without keys
        # every row sees none: O = 0, LSE = -inf (the op's definition).
        o, lse = empty_outputs(q, layout, Dv, return_lse)
        if total_k == 0 and batch > 0:
            o.zero_()
            if lse is not None:
                lse.fill_(-math.inf)
        return _varlen_result(o, lse, rank)
    plan = _VarlenPlan(kernel, q, k, v, layout, _capi.DTYPE_CODES[dtype], rank, cu_seqlens_q.shape[0])
    # Copies of strided head dims (_contiguous_head_dim) are this call's:
    # no plan for them.
    if signature is not None and not copied:
        if len(_plans) >= _MAX_PLANS:
            _plans.clear()
        _plans[signature] = plan
    return _launch_varlen(plan, q, k, v, cu_seqlens_q, cu_seqlens_k, scale, return_lse, check_index_inputs)


_is_compiling = getattr(getattr(torch, "compiler", None), "is_compiling", lambda: False)
attention_op = None  # torch.ops.attnc.attention where torch.library.custom_op exists (PyTorch >= 2.4)


def attention(q, k, v, *, causal=False, causal_alignment="top_left", window=None, softcap=None,
              scale=None, return_lse=False, block_table=None, cache_lengths=None, check_index_inputs=False,
              cu_seqlens_q=None, cu_seqlens_k=None):
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

    A paged KV cache (vLLM's layout; FlashAttention-3's
    flash_attn_with_kvcache(q, k_cache, v_cache, cache_seqlens=...,
    page_table=...)): with block_table and cache_lengths (both or neither),
    k and v are page pools [num_pages, page_size, Hkv, D] and [num_pages,
    page_size, Hkv, Dv], contiguous, of q's dtype and device, page_size a
    power of two from 16 to 256; block_table is int32 [B, pages_per_seq],
    row b listing sequence b's pages in order (entries past its pages are
    not read: -1 is fine), and cache_lengths int32 [B], sequence b's cached
    tokens (0 .. pages_per_seq · page_size; 0 gives O = 0, LSE = -inf), both
    contiguous on q's device. q is [B, Hq, Sq, D] in either layout as above.
    The masks mean what they mean for dense k and v with Sk = cache_lengths[b]
    for sequence b: a decode step (Sq = 1) or a chunked prefill whose queries
    are the last Sq tokens of the cache is causal=True,
    causal_alignment="bottom_right" (or, for Sq = 1, no mask). The kernel
    splits each sequence's keys over as many blocks as the runtime chooses
    at launch. The kernel trusts the index values: a page outside the pool
    or a length past the table reads out of bounds. check_index_inputs=True
    first checks them (attnc_attention_check: every length in 0 ..
    pages_per_seq · page_size, every page a sequence's tokens lie in within
    0 .. num_pages - 1; an AttncError names the entry), at the cost of a
    device-to-host copy of both tensors on the current stream and a wait for
    that stream (a synchronization per call; not allowed while capturing a
    CUDA graph); for debugging, like ATTNC_CHECK_INDEX_INPUTS=1, which does
    the same for every paged launch of the process. Ignored without
    block_table.

    A variable-length batch (FlashAttention's flash_attn_varlen_func(q, k,
    v, cu_seqlens_q, cu_seqlens_k, ...)): with cu_seqlens_q and cu_seqlens_k
    (both or neither; not with block_table), q, k and v pack B sequences
    without padding, as [total_q, Hq, D], [total_k, Hkv, D] and [total_k,
    Hkv, Dv] (FlashAttention's layout; O comes back as [total_q, Hq, Dv]
    and LSE as [Hq, total_q]), or as the logical [1, Hq, total_q, D] etc.
    in either layout (O [1, Hq, total_q, Dv] in q's layout, LSE [1, Hq,
    total_q]). cu_seqlens_q and cu_seqlens_k are int32 [B + 1], contiguous
    on q's device: sequence b is rows cu_seqlens_q[b] .. cu_seqlens_q[b + 1]
    of q (and O, LSE) and rows cu_seqlens_k[b] .. cu_seqlens_k[b + 1] of k
    and v; the masks apply to each sequence with its own lengths
    (causal_alignment="bottom_right" aligns its queries to the end of its
    keys, as FlashAttention's causal does; a sequence without keys gets
    O = 0, LSE = -inf). Rows past cu_seqlens_q[B] are not written. The
    kernel trusts the offsets (non-decreasing, from 0 or more, at most
    total_q and total_k); check_index_inputs=True checks them first, as for
    a paged cache. No max_seqlen is needed: the kernel's grid is bounded by
    total_q / block_m + B tiles. Above D = 64 a launch whose grid leaves
    SMs idle (a decode step of few sequences against long caches) splits
    every sequence's keys across CTAs, at a count the runtime chooses from
    the shapes (the mean keys of a sequence), and merges the splits.

    The kernel for the call's shape class (dtype, heads, head dims, mask,
    layout, LSE, page size, varlen) is loaded from $ATTNC_KERNEL_DIR or the on-disk
    cache, or compiled on first use (see attnc.cache). Launched on the
    current CUDA stream; forward only (no autograd).
    Returns O, or (O, LSE) when return_lse.
    """
    if check_index_inputs is not False and check_index_inputs is not True:
        raise argument_error(_CALL, f"check_index_inputs is {check_index_inputs!r}; expected a bool", TypeError)
    if attention_op is not None and _is_compiling():
        mask, window, softcap = resolve_mask_uncached(causal, causal_alignment, window, softcap)
        o, lse = attention_op(q, k, v, mask, None if window is None else list(window), softcap, scale, return_lse,
                              block_table, cache_lengths, check_index_inputs, cu_seqlens_q, cu_seqlens_k)
        return (o, lse) if return_lse else o
    mask, window, softcap = resolve_mask(causal, causal_alignment, window, softcap)
    o, lse = _dispatch(q, k, v, mask, window, softcap, scale, return_lse, block_table, cache_lengths,
                       check_index_inputs, cu_seqlens_q, cu_seqlens_k)
    return (o, lse) if return_lse else o


def _dispatch(q, k, v, mask, window, softcap, scale, return_lse, block_table, cache_lengths, check_index_inputs,
              cu_seqlens_q, cu_seqlens_k):
    """The dense, paged or varlen run for attention()'s resolved arguments."""
    if cu_seqlens_q is not None or cu_seqlens_k is not None:
        return run_varlen(q, k, v, cu_seqlens_q, cu_seqlens_k, mask, window, softcap, scale, return_lse,
                          check_index_inputs, block_table, cache_lengths)
    if block_table is None and cache_lengths is None:
        return run(q, k, v, mask, window, softcap, scale, return_lse)
    return run_paged(q, k, v, block_table, cache_lengths, mask, window, softcap, scale, return_lse,
                     check_index_inputs)


def _attention_fake(q, k, v, mask, window, softcap, scale, return_lse, block_table, cache_lengths,
                    check_index_inputs, cu_seqlens_q, cu_seqlens_k):
    """attnc::attention's fake implementation: the op's argument checks that
    shapes, strides, dtypes and devices decide, and O and LSE (or an empty
    tensor) of the real op's shapes and strides, nothing launched. It runs
    on fake tensors whose sizes may be symbolic (torch.compile(dynamic=True),
    opcheck's test_aot_dispatch_dynamic): nothing here may read a value, a
    data pointer or a concrete element count."""
    rank = 4
    if cu_seqlens_q is not None or cu_seqlens_k is not None:
        _check_varlen_index_inputs(cu_seqlens_q, cu_seqlens_k, block_table, cache_lengths)
        q, k, v, layout, rank, _ = _prepare_varlen(q, k, v, cu_seqlens_q, cu_seqlens_k)
    elif block_table is None and cache_lengths is None:
        q, k, v, layout = _prepare(q, k, v)
    else:
        _check_paged(q, k, v, block_table, cache_lengths)
        q = _contiguous_head_dim(q)
        layout = tensor_layout(q.shape, q.stride()) or "bhsd"
    o, lse = _varlen_result(*empty_outputs(q, layout, v.shape[3], return_lse), rank)
    return o, lse if lse is not None else q.new_empty((0,), dtype=torch.float32)


def _register_op():
    """Defines attnc::attention and its fake (meta) implementation.

    Its schema is attention()'s, the mask arguments resolved (mask, window,
    softcap as in KernelSpec), every argument positional:
    (q, k, v, mask, window, softcap, scale, return_lse, block_table,
    cache_lengths, check_index_inputs, cu_seqlens_q, cu_seqlens_k) ->
    (O, LSE or an empty tensor).
    """
    @torch.library.custom_op("attnc::attention", mutates_args=())
    def op(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, mask: str, window: Optional[List[int]],
           softcap: Optional[float], scale: Optional[float], return_lse: bool, block_table: Optional[torch.Tensor],
           cache_lengths: Optional[torch.Tensor], check_index_inputs: bool, cu_seqlens_q: Optional[torch.Tensor],
           cu_seqlens_k: Optional[torch.Tensor]) -> Tuple[torch.Tensor, torch.Tensor]:
        window = None if window is None else tuple(window)
        o, lse = _dispatch(q, k, v, mask, window, softcap, scale, return_lse, block_table, cache_lengths,
                           check_index_inputs, cu_seqlens_q, cu_seqlens_k)
        return o, lse if lse is not None else q.new_empty((0,), dtype=torch.float32)

    op.register_fake(_attention_fake)
    return op


if hasattr(torch.library, "custom_op"):
    attention_op = _register_op()
