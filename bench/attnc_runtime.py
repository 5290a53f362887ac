"""ctypes binding of attnc's runtime C ABI (include/attnc/Runtime/Runtime.h).

Loads libAttncRuntime.so and launches compiled kernel artifacts on PyTorch
CUDA tensors; timing comes from libAttncRuntimeTesting.so beside it
(include/attnc/Runtime/Testing.h, not part of the product ABI). The runtime
opens the CUDA driver itself; this module needs no MLIR and no compiler.
"""
import ctypes
import json
import math
import os
import sys

# The C structs come from the attnc package's ctypes mirror, the one module
# that knows their layout; it is imported from the working tree (python/
# beside bench/), which is what the GPU machine has, not an installed package.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

from attnc._capi import DTYPE_CODES, I32, AttentionArgs, KernelAttrs, Tensor, index_tensor  # noqa: E402

__all__ = ["AttentionArgs", "AttncError", "BF16", "F16", "F32", "I32", "Kernel", "KernelAttrs", "Runtime", "Tensor",
           "describe", "describe_index"]

BF16, F16, F32 = DTYPE_CODES["bf16"], DTYPE_CODES["f16"], DTYPE_CODES["f32"]


class AttncError(RuntimeError):
    pass


class Runtime:
    def __init__(self, path):
        self.lib = ctypes.CDLL(path)
        self.testing = ctypes.CDLL(os.path.join(os.path.dirname(os.path.abspath(path)),
                                                "libAttncRuntimeTesting.so"))
        self.lib.attnc_last_error.restype = ctypes.c_char_p
        self.testing.attnc_testing_last_error.restype = ctypes.c_char_p
        self.lib.attnc_kernel_load.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
        self.lib.attnc_attention_launch.argtypes = [ctypes.c_void_p, ctypes.POINTER(AttentionArgs), ctypes.c_void_p]
        self.lib.attnc_attention_check.argtypes = [ctypes.c_void_p, ctypes.POINTER(AttentionArgs), ctypes.c_void_p]
        self.testing.attnc_testing_time_launches.argtypes = [
            ctypes.c_void_p, ctypes.POINTER(AttentionArgs), ctypes.c_void_p, ctypes.c_int, ctypes.c_int,
            ctypes.POINTER(ctypes.c_float)]
        self.lib.attnc_kernel_get_attrs.argtypes = [ctypes.c_void_p, ctypes.POINTER(KernelAttrs)]
        self.lib.attnc_attention_workspace_size.argtypes = [ctypes.c_void_p, ctypes.POINTER(AttentionArgs),
                                                            ctypes.POINTER(ctypes.c_uint64)]

    def check(self, status, call):
        if status != 0:
            raise AttncError(f"{call}: {self.lib.attnc_last_error().decode()}")

    def check_testing(self, status, call):
        if status != 0:
            raise AttncError(f"{call}: {self.testing.attnc_testing_last_error().decode()}")

    def load(self, artifact_dir):
        handle = ctypes.c_void_p()
        self.check(self.lib.attnc_kernel_load(artifact_dir.encode(), ctypes.byref(handle)), "attnc_kernel_load")
        with open(os.path.join(artifact_dir, "manifest.json")) as f:
            manifest = json.load(f)
        return Kernel(self, handle, manifest)


def describe(t, layout):
    """An attnc_tensor in logical BHSD order for a torch tensor stored in `layout`."""
    dtype = {"torch.bfloat16": BF16, "torch.float16": F16, "torch.float32": F32}[str(t.dtype)]
    shape, strides = list(t.shape), list(t.stride())
    if layout == "bshd":  # physical [B, S, H, D] -> logical [B, H, S, D]
        shape = [shape[0], shape[2], shape[1], shape[3]]
        strides = [strides[0], strides[2], strides[1], strides[3]]
    device = t.device.index if t.device.index is not None else 0
    return Tensor(t.data_ptr(), (ctypes.c_int64 * 4)(*shape), (ctypes.c_int64 * 4)(*strides), dtype, device, 0)


def describe_index(t):
    """The attnc_tensor of an int32 index tensor (a paged KV cache's torch block table [B, pages_per_seq] or
    cache lengths [B]; a varlen batch's offsets cu_seqlens_q or cu_seqlens_k [B + 1]); None is absent (a zero
    attnc_tensor)."""
    if t is None:
        return Tensor()
    if str(t.dtype) != "torch.int32" or t.dim() not in (1, 2):
        raise AttncError(f"describe_index: expected a 1-d or 2-d torch.int32 tensor, found {t.dtype} of "
                         f"{t.dim()} dims")
    device = t.device.index if t.device.index is not None else 0
    return index_tensor(t.data_ptr(), list(t.shape), list(t.stride()), device)


class Kernel:
    def __init__(self, rt, handle, manifest):
        self.rt, self.handle, self.manifest = rt, handle, manifest
        self.problem = manifest["problem"]
        self.options = manifest.get("options", {})

    @property
    def takes_scale(self):
        """Whether the softmax scale is a launch parameter (attn-generalize-scale);
        otherwise it is compiled in and recorded as options.scale."""
        return any(p["kind"] == "f32" and p.get("value") == "scale" for p in self.manifest["params"])

    def default_scale(self):
        """The compiled-in scale, or 1/sqrt(head_dim) for a kernel that takes any."""
        if "scale" in self.options:
            return float(self.options["scale"])
        return 1.0 / math.sqrt(self.problem["head_dim"])

    @property
    def page_size(self):
        """Tokens per page of a kernel over a paged KV cache (problem.page_size), else None."""
        return self.problem.get("page_size")

    @property
    def varlen(self):
        """Whether the kernel computes a variable-length batch (problem.varlen)."""
        return bool(self.problem.get("varlen", False))

    def args(self, q, k, v, o, lse, scale, kv_layout=None, block_table=None, cache_lengths=None,
             cu_seqlens_q=None, cu_seqlens_k=None):
        """The launch's arguments for torch tensors. For a paged kernel, k and v are the page pools
        [num_pages, page_size, Hkv, D] (read as bshd, a page for a batch entry: kv_layout's default then),
        block_table int32 [B, pages_per_seq] and cache_lengths int32 [B], both contiguous. For a varlen
        kernel, q, k, v and o pack the sequences in a batch of 1 ([1, total, H, D] in memory for bshd,
        [1, H, total, D] for bhsd), lse is float32 [1, Hq, total_q], and cu_seqlens_q and cu_seqlens_k are
        int32 [B + 1], contiguous."""
        layout = self.problem["layout"]
        if kv_layout is None:
            kv_layout = "bshd" if self.page_size else layout
        # Keywords: attnc._capi.AttentionArgs sets struct_size itself.
        return AttentionArgs(q=describe(q, layout), k=describe(k, kv_layout), v=describe(v, kv_layout),
                             o=describe(o, layout), lse=lse.data_ptr() if lse is not None else None, scale=scale,
                             block_table=describe_index(block_table), cache_lengths=describe_index(cache_lengths),
                             cu_seqlens_q=describe_index(cu_seqlens_q), cu_seqlens_k=describe_index(cu_seqlens_k))

    @staticmethod
    def _with_indices(args, block_table, cache_lengths, cu_seqlens_q=None, cu_seqlens_k=None):
        for name, t in (("block_table", block_table), ("cache_lengths", cache_lengths),
                        ("cu_seqlens_q", cu_seqlens_q), ("cu_seqlens_k", cu_seqlens_k)):
            if t is not None:
                setattr(args, name, describe_index(t))
        return args

    @property
    def split_kv(self):
        """Whether the artifact splits the keys (two kernels and a workspace)."""
        return "split_kv" in self.manifest

    def workspace_size(self, args):
        """attnc_attention_workspace_size: the split-KV workspace bytes a launch with `args` needs."""
        size = ctypes.c_uint64()
        self.rt.check(self.rt.lib.attnc_attention_workspace_size(self.handle, ctypes.byref(args),
                                                                 ctypes.byref(size)),
                      "attnc_attention_workspace_size")
        return size.value

    def with_workspace(self, args):
        """`args` given a caller's split-KV workspace (a torch buffer, returned to keep it alive) where the
        kernel splits, as attnc.attention passes one; unchanged (and None) otherwise."""
        import torch
        if not self.split_kv:
            return args, None
        size = self.workspace_size(args)
        buffer = torch.empty(size + 256, dtype=torch.uint8, device="cuda")
        args.workspace = -buffer.data_ptr() % 256 + buffer.data_ptr()
        args.workspace_bytes = size
        return args, buffer

    def launch(self, args, stream=None, block_table=None, cache_lengths=None, cu_seqlens_q=None,
               cu_seqlens_k=None):
        """attnc_attention_launch; the index tensors (torch int32) given here replace those of `args`."""
        args = self._with_indices(args, block_table, cache_lengths, cu_seqlens_q, cu_seqlens_k)
        self.rt.check(self.rt.lib.attnc_attention_launch(self.handle, ctypes.byref(args), stream),
                      "attnc_attention_launch")

    def check(self, args, stream=None, block_table=None, cache_lengths=None, cu_seqlens_q=None,
              cu_seqlens_k=None):
        """attnc_attention_check: every check of a launch, and a paged kernel's block table and cache lengths
        or a varlen kernel's offsets by value (copied to the host after the work on `stream`), without
        launching."""
        args = self._with_indices(args, block_table, cache_lengths, cu_seqlens_q, cu_seqlens_k)
        self.rt.check(self.rt.lib.attnc_attention_check(self.handle, ctypes.byref(args), stream),
                      "attnc_attention_check")

    def time(self, args, warmup=10, iters=50, stream=None):
        ms = ctypes.c_float()
        self.rt.check_testing(self.rt.testing.attnc_testing_time_launches(
            self.handle, ctypes.byref(args), stream, warmup, iters, ctypes.byref(ms)), "attnc_testing_time_launches")
        return ms.value

    def attrs(self):
        a = KernelAttrs()
        self.rt.check(self.rt.lib.attnc_kernel_get_attrs(self.handle, ctypes.byref(a)), "attnc_kernel_get_attrs")
        return a
