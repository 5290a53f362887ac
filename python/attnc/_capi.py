"""The runtime's C ABI (include/attnc/Runtime/Runtime.h), mirrored with ctypes.

This is the only module that knows the layout of the C structs and the
signatures of the C functions: when the header changes, change this file (and
`test_capi.py`, which checks the two views of each struct against each other).

Two views of `attnc_attention_args` are kept:
  * `AttentionArgs`, a ctypes.Structure, readable and used by tests and tools;
  * `pack_attention_args`, one `struct.pack` of the same bytes, which the
    per-call path of `attnc.attention` uses because it costs about a microsecond
    where filling the Structure costs several.
"""
import ctypes
import ctypes.util
import os
import struct
import threading

from .errors import AttncError

# attnc_dtype (starts at 1 so that a zeroed struct is rejected). ATTNC_I32 is
# for index tensors only: a paged KV cache's (block_table, cache_lengths) and
# a varlen batch's offsets (cu_seqlens_q, cu_seqlens_k).
DTYPE_CODES = {"bf16": 1, "f16": 2, "f32": 3}
I32 = 4
STATUS_OK = 0


class Tensor(ctypes.Structure):
    """attnc_tensor: logical [batch, heads, seq, head_dim] shape, element
    strides, the CUDA device and a byte offset from `data` (DLPack's fields).
    An int32 index tensor of rank 1 or 2 gives its dims first, and shape 1,
    stride 0 for each unused trailing one (`index_tensor`)."""
    _fields_ = [("data", ctypes.c_void_p), ("shape", ctypes.c_int64 * 4),
                ("strides", ctypes.c_int64 * 4), ("dtype", ctypes.c_int),
                ("device_id", ctypes.c_int32), ("byte_offset", ctypes.c_uint64)]


class AttentionArgs(ctypes.Structure):
    """attnc_attention_args; `struct_size` must be its size (ABI 0.5.0).
    block_table and cache_lengths (0.3.0) are a paged KV cache's index
    tensors, cu_seqlens_q and cu_seqlens_k (0.4.0) a varlen batch's offsets,
    each zero (absent) for any other kernel; workspace and workspace_bytes
    (0.5.0) a split-KV kernel's workspace, or zero: the runtime allocates it."""
    _fields_ = [("struct_size", ctypes.c_uint32), ("q", Tensor), ("k", Tensor),
                ("v", Tensor), ("o", Tensor), ("lse", ctypes.c_void_p),
                ("scale", ctypes.c_float), ("block_table", Tensor),
                ("cache_lengths", Tensor), ("cu_seqlens_q", Tensor),
                ("cu_seqlens_k", Tensor), ("workspace", ctypes.c_void_p),
                ("workspace_bytes", ctypes.c_uint64)]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.struct_size = ctypes.sizeof(AttentionArgs)


class KernelAttrs(ctypes.Structure):
    """attnc_kernel_attrs (attnc_kernel_get_attrs); `struct_size` must be its size."""
    _fields_ = [("struct_size", ctypes.c_uint32)] + [(name, ctypes.c_int32) for name in (
        "num_regs", "local_bytes", "static_smem_bytes", "dynamic_smem_bytes",
        "max_threads_per_block", "threads_per_block")]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.struct_size = ctypes.sizeof(KernelAttrs)


def index_tensor(data, shape, strides, device_id=0):
    """An attnc_tensor of int32 (a paged KV cache's block_table, [B, pages_per_seq],
    or cache_lengths, [B]; a varlen batch's cu_seqlens_q or cu_seqlens_k, [B + 1]):
    its 1 or 2 dims first, then size 1 and stride 0."""
    pad = 4 - len(shape)
    return Tensor(data, (ctypes.c_int64 * 4)(*shape, *[1] * pad), (ctypes.c_int64 * 4)(*strides, *[0] * pad),
                  I32, device_id, 0)


# attnc_tensor as struct format: data, shape[4], strides[4], dtype, device_id,
# byte_offset.
_TENSOR_FORMAT = "P4q4qiiQ"
# attnc_attention_args up to 0.2.0's end: struct_size and padding, q, k, v, o,
# lse, scale, padding to 8 bytes; then 0.3.0's block_table and cache_lengths,
# 0.4.0's cu_seqlens_q and cu_seqlens_k, and 0.5.0's workspace and
# workspace_bytes.
_ARGS_HEAD = struct.Struct("@I4x" + _TENSOR_FORMAT * 4 + "Pf4x")
_INDEX_TENSORS = struct.Struct("@" + _TENSOR_FORMAT * 4)
_WORKSPACE = struct.Struct("@PQ")
ARGS_SIZE = _ARGS_HEAD.size + _INDEX_TENSORS.size + _WORKSPACE.size
_NO_INDEX_TENSORS = bytes(_INDEX_TENSORS.size)
_NO_WORKSPACE = bytes(_WORKSPACE.size)


def pack_attention_args(q, k, v, o, lse, scale, device_id=0, block_table=None, cache_lengths=None,
                        cu_seqlens_q=None, cu_seqlens_k=None, workspace=None):
    """The bytes of an attnc_attention_args.

    q, k, v and o are (data pointer, shape[4], strides[4], dtype code) in
    logical BHSD order, all on CUDA device `device_id`; lse is a pointer or
    0; scale a float. A paged kernel's block_table and cache_lengths, and a
    varlen kernel's cu_seqlens_q and cu_seqlens_k, are (data pointer, shape,
    strides) of int32 tensors (rank 2 and 1; rank 1 and 1); None (for any
    other kernel) leaves them zero, i.e. absent. A split-KV kernel's
    workspace is (data pointer, bytes), None for the runtime's own.
    """
    values = [ARGS_SIZE]
    for data, shape, strides, dtype in (q, k, v, o):
        values.append(data)
        values.extend(shape)
        values.extend(strides)
        values.append(dtype)
        values.append(device_id)
        values.append(0)  # byte_offset: data points at the first element
    values.append(lse or 0)
    values.append(scale)
    head = _ARGS_HEAD.pack(*values)
    tail = _NO_WORKSPACE if workspace is None else _WORKSPACE.pack(*workspace)
    if block_table is None and cache_lengths is None and cu_seqlens_q is None and cu_seqlens_k is None:
        return head + _NO_INDEX_TENSORS + tail
    indices = []
    for index in (block_table, cache_lengths, cu_seqlens_q, cu_seqlens_k):
        if index is None:
            indices.extend([0] * 12)  # absent: zero-initialized
            continue
        data, shape, strides = index
        pad = 4 - len(shape)
        indices.append(data)
        indices.extend(list(shape) + [1] * pad)
        indices.extend(list(strides) + [0] * pad)
        indices.extend([I32, device_id, 0])
    return head + _INDEX_TENSORS.pack(*indices) + tail


def find_library():
    """The path of libAttncRuntime.so, or None.

    Looked for, in order: $ATTNC_RUNTIME_LIB; attnc/lib/ inside this package;
    build/lib/ of the source tree this package sits in (python/attnc -> ../..);
    the dynamic loader's search path.
    """
    env = os.environ.get("ATTNC_RUNTIME_LIB")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    for candidate in (os.path.join(here, "lib", "libAttncRuntime.so"),
                      os.path.join(here, "..", "..", "build", "lib", "libAttncRuntime.so")):
        if os.path.isfile(candidate):
            return os.path.normpath(candidate)
    return ctypes.util.find_library("AttncRuntime")


class Runtime:
    """libAttncRuntime.so with its signatures declared; methods raise AttncError."""

    def __init__(self, path):
        try:
            self.lib = lib = ctypes.CDLL(path)
        except OSError as e:
            raise AttncError("attnc runtime", f"cannot load {path!r}: {e}") from None
        self.path = path
        lib.attnc_last_error.restype = ctypes.c_char_p
        lib.attnc_last_error.argtypes = []
        lib.attnc_status_name.restype = ctypes.c_char_p
        lib.attnc_status_name.argtypes = [ctypes.c_int]
        lib.attnc_version.restype = ctypes.c_char_p
        lib.attnc_version.argtypes = []
        lib.attnc_init.argtypes = [ctypes.c_int]
        lib.attnc_kernel_load.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
        lib.attnc_kernel_release.argtypes = [ctypes.c_void_p]
        lib.attnc_kernel_info.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t,
                                          ctypes.POINTER(ctypes.c_size_t)]
        # args: the bytes of pack_attention_args, or ctypes.byref(AttentionArgs).
        lib.attnc_attention_launch.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
        for fn in ("attnc_init", "attnc_kernel_load", "attnc_kernel_release", "attnc_kernel_info",
                   "attnc_attention_launch"):
            getattr(lib, fn).restype = ctypes.c_int
        self.launch_fn = lib.attnc_attention_launch
        # 0.3.0; None in an older runtime (attention_check says so).
        self.check_fn = getattr(lib, "attnc_attention_check", None)
        if self.check_fn is not None:
            self.check_fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
            self.check_fn.restype = ctypes.c_int
        # 0.5.0; None in an older runtime (workspace_size says so).
        self.workspace_size_fn = getattr(lib, "attnc_attention_workspace_size", None)
        if self.workspace_size_fn is not None:
            self.workspace_size_fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint64)]
            self.workspace_size_fn.restype = ctypes.c_int

    def error(self, status, call):
        """The AttncError for a failed `call` that returned `status`."""
        detail = self.lib.attnc_last_error().decode(errors="replace")
        if not detail:
            detail = self.lib.attnc_status_name(status).decode()
        return AttncError(call, detail)

    def check(self, status, call):
        if status != STATUS_OK:
            raise self.error(status, call)

    def version(self):
        return self.lib.attnc_version().decode()

    def init(self, device_ordinal):
        self.check(self.lib.attnc_init(device_ordinal), "attnc_init")

    def load(self, path):
        """attnc_kernel_load: the kernel handle (an int) of an artifact directory."""
        handle = ctypes.c_void_p()
        self.check(self.lib.attnc_kernel_load(os.fsencode(path), ctypes.byref(handle)),
                   "attnc_kernel_load")
        return handle.value

    def release(self, handle):
        self.check(self.lib.attnc_kernel_release(handle), "attnc_kernel_release")

    def info(self, handle):
        """attnc_kernel_info: the normalized manifest as a JSON string."""
        required = ctypes.c_size_t()
        self.check(self.lib.attnc_kernel_info(handle, None, 0, ctypes.byref(required)),
                   "attnc_kernel_info")
        buf = ctypes.create_string_buffer(required.value)
        self.check(self.lib.attnc_kernel_info(handle, buf, required.value, None), "attnc_kernel_info")
        return buf.value.decode()

    def launch(self, handle, args, stream):
        """attnc_attention_launch; `args` from pack_attention_args, `stream` a CUstream (int)."""
        status = self.launch_fn(handle, args, stream)
        if status != STATUS_OK:
            raise self.error(status, "attnc_attention_launch")

    def workspace_size(self, handle, args):
        """attnc_attention_workspace_size: the bytes of split-KV workspace a
        launch with `args` needs (0 for a kernel without split_kv)."""
        if self.workspace_size_fn is None:
            raise AttncError("attnc_attention_workspace_size", f"{self.path} is runtime {self.version()}, which "
                             "has no attnc_attention_workspace_size (added in 0.5.0)")
        size = ctypes.c_uint64()
        status = self.workspace_size_fn(handle, args, ctypes.byref(size))
        if status != STATUS_OK:
            raise self.error(status, "attnc_attention_workspace_size")
        return size.value

    def attention_check(self, handle, args, stream):
        """attnc_attention_check: the launch's checks without the launch, and
        for a paged kernel the values of block_table and cache_lengths, for a
        varlen kernel those of cu_seqlens_q and cu_seqlens_k (copied to the
        host on `stream` after the work queued there, which it waits for)."""
        if self.check_fn is None:
            raise AttncError("attnc_attention_check", f"{self.path} is runtime {self.version()}, which has no "
                             "attnc_attention_check (added in 0.3.0)")
        status = self.check_fn(handle, args, stream)
        if status != STATUS_OK:
            raise self.error(status, "attnc_attention_check")


_runtime = None
_runtime_lock = threading.Lock()


def runtime():
    """The process's Runtime, loaded on first use from find_library()."""
    global _runtime
    if _runtime is None:
        with _runtime_lock:
            if _runtime is None:
                path = find_library()
                if path is None:
                    raise AttncError("attnc runtime",
                                     "libAttncRuntime.so not found: set ATTNC_RUNTIME_LIB to its path "
                                     "(the build puts it in build/lib/)")
                _runtime = Runtime(path)
    return _runtime
