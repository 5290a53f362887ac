"""Host cost of attnc_attention_launch and of the driver calls in it.

How much of a launch's host time a tensor-map cache could save: the
microseconds of host time per attnc_attention_launch (called through ctypes
directly, arguments built once) of an unsplit kernel and of a split decode
step, against one cuTensorMapEncodeTiled and one cuCtxGetCurrent (the
floor of a ctypes call into the driver).

On the device, after bench/prepare-gpu.sh:
    python3 bench/host_probe.py [RUNTIME_LIB...]
times the launches through each runtime library given (an A/B of two
runtimes), twice in turn.
"""
import ctypes
import sys
import time

import torch

sys.path.insert(0, "bench")
from attnc_runtime import Runtime  # noqa: E402
from gpu_check import make_inputs  # noqa: E402


def host_us(fn, n=2000, sync_every=20):
    """Microseconds of host time per fn() call, synchronizing every sync_every calls."""
    for _ in range(50):
        fn()
    torch.cuda.synchronize()
    total = 0.0
    for _ in range(n // sync_every):
        t = time.perf_counter()
        for _ in range(sync_every):
            fn()
        total += time.perf_counter() - t
        torch.cuda.synchronize()
    return total / n * 1e6


def time_launches(lib, gen):
    """Host us per attnc_attention_launch through runtime `lib` of each probe kernel."""
    rt = Runtime(lib)
    stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
    launch = rt.lib.attnc_attention_launch
    for label, path, B, Nq, Nk, hq, hkv in (
            ("unsplit d64_full, 1x128", "artifacts/kernels/d64_full", 1, 128, 128, 32, 32),
            ("split decode step, 1x4096", "artifacts/decode-step/decode_d128_gqa", 1, 1, 4096, 32, 8)):
        kernel = rt.load(path)
        q, k, v, o, lse = make_inputs(kernel, B, Nq, Nk, hq, hkv, gen)
        args = kernel.args(q, k, v, o, lse, kernel.default_scale())
        keep = None  # noqa: F841 - the workspace lives as long as the launches
        if kernel.split_kv:
            args, keep = kernel.with_workspace(args)
        ref = ctypes.byref(args)
        us = host_us(lambda: launch(kernel.handle, ref, stream))
        print(f"{label:<28} {lib:<36} attnc_attention_launch {us:6.2f} us host", flush=True)


def main():
    """Each runtime library given (default artifacts/lib's), twice in turn, then the driver calls."""
    libs = sys.argv[1:] or ["artifacts/lib/libAttncRuntime.so"]
    gen = torch.Generator(device="cuda").manual_seed(1)
    for _ in range(2):
        for lib in libs:
            time_launches(lib, gen)

    cuda = ctypes.CDLL("libcuda.so.1")
    ctx = ctypes.c_void_p()
    floor = host_us(lambda: cuda.cuCtxGetCurrent(ctypes.byref(ctx)))
    print(f"{'cuCtxGetCurrent (ctypes floor)':<55} {floor:6.2f} us host", flush=True)
    x = torch.empty(4 * 16 * 4096 * 128, dtype=torch.bfloat16, device="cuda")
    # A CUtensorMap is 64-byte aligned.
    tmap_buffer = (ctypes.c_uint8 * 192)()
    tmap = ctypes.c_void_p(-ctypes.addressof(tmap_buffer) % 64 + ctypes.addressof(tmap_buffer))
    dims = (ctypes.c_uint64 * 4)(128, 4096, 16, 4)
    strides = (ctypes.c_uint64 * 3)(256, 256 * 4096, 256 * 4096 * 16)
    box = (ctypes.c_uint32 * 4)(64, 128, 1, 1)
    estr = (ctypes.c_uint32 * 4)(1, 1, 1, 1)
    BF16, SWIZZLE_128B, L2_128B = 9, 3, 2
    ptr = ctypes.c_void_p(x.data_ptr())

    def encode():
        assert cuda.cuTensorMapEncodeTiled(tmap, BF16, 4, ptr, dims, strides, box, estr, 0, SWIZZLE_128B, L2_128B,
                                           0) == 0

    print(f"{'cuTensorMapEncodeTiled (4-D bf16, 128B swizzle)':<55} {host_us(encode):6.2f} us host", flush=True)


if __name__ == "__main__":
    main()
