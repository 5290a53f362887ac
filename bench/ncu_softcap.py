"""One launch of each named kernel at N = 4096, for Nsight Compute.

Where a soft-capped kernel's time goes: run under ncu, one launch of
d<D>_full from each directory given, at the standard table's 4k shape
(B = 4, H = 2048 / D), so that ncu's stall reasons and pipe utilization
of the kernel without softcap, the table's soft-capped kernel and a
variant of it (another software exp2 period) sit side by side.

    ncu --clock-control none --section WarpStateStats ... \
        python3 bench/ncu_softcap.py 128 artifacts/kernels artifacts/kernels-softcap
"""
import sys

import torch

sys.path.insert(0, "bench")
from attnc_runtime import Runtime  # noqa: E402
from gpu_check import make_inputs  # noqa: E402

D = int(sys.argv[1])
N, B, H = 4096, 4, 2048 // D
rt = Runtime("artifacts/lib/libAttncRuntime.so")
gen = torch.Generator(device="cuda").manual_seed(3)
for path in sys.argv[2:]:
    kernel = rt.load(f"{path}/d{D}_full")
    q, k, v, o, lse = make_inputs(kernel, B, N, N, H, H, gen)
    kernel.launch(kernel.args(q, k, v, o, lse, kernel.default_scale()))
    torch.cuda.synchronize()
    assert not torch.isnan(o).any(), f"{path}: NaN in O"
    print(f"{path}/d{D}_full launched", flush=True)
