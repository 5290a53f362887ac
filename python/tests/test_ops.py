"""attnc.attention without a GPU: argument checks, mask mapping, layouts, the
packed launch arguments and the outputs, with the kernel replaced by a fake."""
import math
import unittest
from unittest import mock

from helpers import skip_unless_torch

try:
    import torch
except ImportError:
    torch = None

from attnc import _capi
from attnc.masks import resolve_mask
from attnc.spec import UNBOUNDED


class FakeKernel:
    def __init__(self, spec):
        self.spec, self.launches = spec, []

    def launch(self, args, stream):
        self.launches.append((_capi.AttentionArgs.from_buffer_copy(args), stream))


class FakeCache:
    def __init__(self):
        self.kernels = {}

    def kernel(self, spec):
        return self.kernels.setdefault(spec, FakeKernel(spec))


# Debian's torch 1.13 (CI) has no torch.library.custom_op and no torch.compile
# of this path: the attnc::attention op, its fake implementation and the
# torch.compile'd call are covered only by the GPU check
# (python/tests/gpu_check_attnc.py, on a newer PyTorch). These tests run the
# eager path, with the kernel replaced by a fake.
@skip_unless_torch
class AttentionTest(unittest.TestCase):
    def setUp(self):
        import attnc.ops as ops
        self.ops = ops
        self.cache = FakeCache()
        for target, value in (("default_cache", lambda: self.cache), ("_check_device", lambda q: None),
                              ("_current_stream", lambda device: 0x5EED), ("_kernels", {}),
                              ("_plans", {})):
            patcher = mock.patch.object(ops, target, value)
            patcher.start()
            self.addCleanup(patcher.stop)

    def qkv(self, b=2, hq=8, hkv=2, sq=33, sk=65, d=64, dv=64, layout="bhsd", dtype=None):
        dtype = dtype or torch.bfloat16

        def make(h, s, dim):
            if layout == "bhsd":
                return torch.randn(b, h, s, dim).to(dtype)
            return torch.randn(b, s, h, dim).to(dtype).transpose(1, 2)
        return make(hq, sq, d), make(hkv, sk, d), make(hkv, sk, dv)

    def only_launch(self):
        (kernel,) = self.cache.kernels.values()
        self.assertEqual(len(kernel.launches), 1)
        return kernel.spec, kernel.launches[0]

    def test_bhsd_launch(self):
        import attnc
        q, k, v = self.qkv()
        o, lse = attnc.attention(q, k, v, causal=True, return_lse=True)
        spec, (args, stream) = self.only_launch()
        self.assertEqual(spec.key, "bf16-hq8-hkv2-d64-dv64-bhsd-causal-lse")
        self.assertEqual(stream, 0x5EED)
        self.assertEqual((o.shape, o.dtype, o.stride()), ((2, 8, 33, 64), torch.bfloat16, q.stride()))
        self.assertEqual((lse.shape, lse.dtype), ((2, 8, 33), torch.float32))
        for name, t in (("q", q), ("k", k), ("v", v), ("o", o)):
            a = getattr(args, name)
            self.assertEqual((a.data, tuple(a.shape), tuple(a.strides), a.dtype),
                             (t.data_ptr(), tuple(t.shape), t.stride(), 1), name)
        self.assertEqual(args.lse, lse.data_ptr())
        self.assertAlmostEqual(args.scale, 1 / math.sqrt(64), places=6)

    def test_plan_reused(self):
        """A second call with the same signature launches the same kernel with
        its own pointers and scale; other strides make another plan."""
        import attnc
        q, k, v = self.qkv()
        attnc.attention(q, k, v)
        o = attnc.attention(q, k, v, scale=0.5)
        (kernel,) = self.cache.kernels.values()
        self.assertEqual(len(kernel.launches), 2)
        args = kernel.launches[1][0]
        self.assertEqual((args.o.data, args.scale), (o.data_ptr(), 0.5))
        self.assertEqual(len(self.ops._plans), 1)
        attnc.attention(*self.qkv(layout="bshd"))
        self.assertEqual(len(self.ops._plans), 2)

    def test_plan_checks_the_scale(self):
        import attnc
        q, k, v = self.qkv()
        attnc.attention(q, k, v)
        with self.assertRaisesRegex(ValueError, "scale is nan"):
            attnc.attention(q, k, v, scale=float("nan"))
        # A negative scale would make the kernel return NaN (masked scores are -inf).
        with self.assertRaisesRegex(ValueError, "scale is -0.5; expected a finite positive float"):
            attnc.attention(q, k, v, scale=-0.5)

    def test_plans_are_bounded(self):
        """Varying sequence lengths make new signatures; _plans is cleared at
        _MAX_PLANS instead of growing, and calls still launch."""
        import attnc
        with mock.patch.object(self.ops, "_MAX_PLANS", 3):
            for sq in range(1, 8):
                attnc.attention(*self.qkv(sq=sq + 1, sk=9))
                self.assertLessEqual(len(self.ops._plans), 3)
        (kernel,) = self.cache.kernels.values()
        self.assertEqual(len(kernel.launches), 7)

    def test_open_layout_uses_either_kernel(self):
        """One query and one key leave BHSD and BSHD open: where only the BSHD
        kernel exists (ahead of time), it runs."""
        import attnc
        from attnc import AttncError

        class BshdOnly(FakeCache):
            def kernel(self, spec):
                if spec.layout == "bhsd":
                    raise AttncError("attnc kernel cache", f"no kernel {spec.key}")
                return super().kernel(spec)
        self.cache = BshdOnly()
        q, k, v = self.qkv(sq=1, sk=1)
        attnc.attention(q, k, v)
        spec, _ = self.only_launch()
        self.assertEqual(spec.layout, "bshd")

    def test_bshd_from_strides_and_scale(self):
        import attnc
        q, k, v = self.qkv(layout="bshd", dv=128, dtype=torch.float16)
        o = attnc.attention(q, k, v, scale=0.3)
        spec, (args, _) = self.only_launch()
        self.assertEqual(spec.key, "f16-hq8-hkv2-d64-dv128-bshd-none")
        self.assertEqual(o.shape, (2, 8, 33, 128))
        self.assertTrue(o.transpose(1, 2).is_contiguous(), o.stride())  # O in q's layout
        self.assertIsNone(args.lse)
        self.assertEqual(args.o.dtype, 2)
        self.assertAlmostEqual(args.scale, 0.3, places=6)

    def test_scale_is_not_part_of_the_key(self):
        import attnc
        q, k, v = self.qkv()
        for scale in (None, 0.1, 2.0):
            attnc.attention(q, k, v, scale=scale)
        (kernel,) = self.cache.kernels.values()
        self.assertEqual([round(a.scale, 6) for a, _ in kernel.launches], [0.125, 0.1, 2.0])

    def test_mask_mapping(self):
        cases = {(False, "top_left", None, None): ("none", None, None),
                 (True, "top_left", None, None): ("causal", None, None),
                 (True, "bottom_right", (128, 5), None): ("causal_bottom_right", (128, 5), None),
                 (False, "top_left", (-1, 16), 0.0): ("none", (UNBOUNDED, 16), None),
                 (False, "bottom_right", (64, 0), 30): ("causal_bottom_right", (64, 0), 30.0),
                 (False, "bottom_right", None, None): ("none", None, None)}
        for args, want in cases.items():
            self.assertEqual(resolve_mask(*args), want, args)

    def test_window_key_is_canonical(self):
        import attnc
        q, k, v = self.qkv()
        attnc.attention(q, k, v, causal=True, causal_alignment="bottom_right", window=[256, 9])
        spec, _ = self.only_launch()
        self.assertEqual(spec.key, "bf16-hq8-hkv2-d64-dv64-bhsd-causal_bottom_right-w256x0")

    def test_empty_inputs_do_not_launch(self):
        import attnc
        q, k, v = self.qkv(sk=0)
        o, lse = attnc.attention(q, k, v, return_lse=True)
        self.assertTrue(bool((o == 0).all()) and bool((lse == -math.inf).all()))
        q, k, v = self.qkv(sq=0)
        self.assertEqual(attnc.attention(q, k, v).shape, (2, 8, 0, 64))
        self.assertEqual([len(kern.launches) for kern in self.cache.kernels.values()], [0, 0])

    def test_strided_head_dim_is_copied(self):
        import attnc
        q, k, v = self.qkv()
        q = torch.randn(2, 8, 33, 128).to(torch.bfloat16)[..., ::2]
        attnc.attention(q, k, v)
        _, (args, _) = self.only_launch()
        self.assertEqual(args.q.strides[3], 1)

    def test_errors_name_the_call_and_value(self):
        import attnc
        q, k, v = self.qkv()
        cases = [
            (dict(q=q.float()), TypeError, "q.dtype is torch.float32; expected torch.bfloat16 or torch.float16"),
            (dict(k=k.half()), TypeError, "k.dtype is torch.float16 but q.dtype is torch.bfloat16"),
            (dict(q=q[0]), ValueError, r"q has shape \(8, 33, 64\); expected 4 dims"),
            (dict(v=[1]), TypeError, "v is a list; expected a torch.Tensor"),
            (dict(k=self.qkv(d=32)[1]), ValueError, r"k.shape\[3\] \(head dim\) is 32 but q.shape\[3\] is 64"),
            (dict(v=self.qkv(sk=7)[2]), ValueError, r"v.shape\[2\] \(seq\) is 7 but k.shape\[2\] is 65"),
            (dict(k=self.qkv(hkv=3)[1], v=self.qkv(hkv=3)[2]), ValueError,
             "q has 8 heads, not a multiple of the 3 heads of k and v"),
            (dict(k=self.qkv(layout="bshd")[1]), ValueError, "k is stored BSHD"),
            (dict(scale=0.0), ValueError, r"scale is 0.0; expected a finite positive float"),
            (dict(scale=-0.5), ValueError,
             r"scale is -0.5; expected a finite positive float or None \(1/sqrt\(D\)\)"),
            (dict(scale=math.inf), ValueError, "scale is inf"),
            (dict(scale=math.nan), ValueError, "scale is nan"),
            (dict(causal_alignment="top-left"), ValueError, "causal_alignment is 'top-left'"),
            (dict(causal=1), TypeError, "causal is 1; expected a bool"),
            (dict(window=(4,)), ValueError, r"window is \(4,\); expected \(left, right\)"),
            (dict(window=(4, -2)), ValueError, "window right is -2"),
            (dict(window=(4, 1), causal_alignment="bottom_right"), ValueError, r"window is \(4, 1\) with causal=False and causal_alignment=.bottom_right.; attnc supports a non-causal window only"),
            (dict(softcap=-3.0), ValueError, "softcap is -3.0"),
        ]
        for kwargs, kind, message in cases:
            call = {**dict(q=q, k=k, v=v), **kwargs}
            with self.assertRaisesRegex(kind, "^attnc.attention: " + message, msg=str(kwargs)):
                attnc.attention(call.pop("q"), call.pop("k"), call.pop("v"), **call)



@skip_unless_torch
class DeviceTest(unittest.TestCase):
    def test_cpu_tensors_are_rejected(self):
        import attnc
        q = torch.zeros(1, 2, 16, 64, dtype=torch.bfloat16)
        with self.assertRaisesRegex(ValueError, "^attnc.attention: q is on cpu; attnc kernels run on CUDA"):
            attnc.attention(q, q, q)


if __name__ == "__main__":
    unittest.main()
