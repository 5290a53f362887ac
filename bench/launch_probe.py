"""Host cost of the pieces of a split-KV launch (bench/HISTORY.md run 57).

On the device, after bench/prepare-gpu.sh (with bench/decode.mlir compiled
with --split-kv-dynamic-rows=off into artifacts/old/decode): python3 bench/launch_probe.py
"""
import ctypes
import sys

import torch
sys.path.insert(0, "bench")
from attnc_runtime import Runtime
from gpu_check import make_inputs
from host_probe import host_us as host_us_of


def host_us(fn):
    return host_us_of(fn, n=400)


rt = Runtime("artifacts/lib/libAttncRuntime.so")
gen = torch.Generator(device="cuda").manual_seed(1)
for label, path, nk in (("split step", "artifacts/decode-step/decode_d128_gqa", 32768),
                        ("split step, Nk 4096", "artifacts/decode-step/decode_d128_gqa", 4096),
                        ("unsplit dynamic", "artifacts/old/decode/decode_d128_gqa", 32768)):
    k = rt.load(path)
    q_, k_, v_, o_, lse_ = make_inputs(k, 1, 1, nk, 32, 8, gen)
    args = k.args(q_, k_, v_, o_, lse_, k.default_scale())
    print(f"{label:<22} attnc_attention_launch {host_us(lambda: k.launch(args)):7.1f} us host", flush=True)

cuda = ctypes.CDLL("libcuda.so.1")
stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
ptr = ctypes.c_uint64()
def alloc_free():
    assert cuda.cuMemAllocAsync(ctypes.byref(ptr), ctypes.c_size_t(264192), stream) == 0
    assert cuda.cuMemFreeAsync(ptr, stream) == 0
print(f"cuMemAllocAsync + cuMemFreeAsync (264192 B)  {host_us(alloc_free):7.1f} us host", flush=True)
def empty():
    torch.empty(264192, dtype=torch.uint8, device="cuda")
print(f"torch.empty(264192 B) (caching allocator)     {host_us(empty):7.1f} us host", flush=True)
def noop():
    pass
print(f"python loop                                   {host_us(noop):7.2f} us host", flush=True)
# GPU-side: a stream of alloc/free pairs between two events.
s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
torch.cuda.synchronize(); s.record()
for _ in range(200):
    alloc_free()
e.record(); torch.cuda.synchronize()
print(f"GPU time of 200 alloc/free pairs: {s.elapsed_time(e) * 1e3 / 200:.2f} us each", flush=True)
