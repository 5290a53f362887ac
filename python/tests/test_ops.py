"""attnc.attention without a GPU: argument checks, mask mapping, layouts, the
packed launch arguments and the outputs, with the kernel replaced by a fake."""
import json
import math
import os
import subprocess
import sys
import unittest
from unittest import mock

from helpers import compiler_or_none, skip_unless_torch

try:
    import torch
except ImportError:
    torch = None

from attnc import _capi
from attnc.errors import AttncError
from attnc.masks import resolve_mask
from attnc.spec import UNBOUNDED


class FakeKernel:
    # A split-KV kernel's (a decode step's, a paged cache's, one of dynamic
    # rows above D = 64: attn-split-kv's dynamic-rows=auto) launches get a
    # workspace of this many bytes from PyTorch's allocator.
    SPLIT_WORKSPACE_BYTES = 4096

    def __init__(self, spec):
        self.spec, self.launches, self.events = spec, [], []
        self.split_kv = spec.decode_step or spec.page_size is not None or spec.head_dim > 64

    def workspace_size(self, args):  # attnc_attention_workspace_size
        self.events.append(("workspace_size", bytes(args)))
        return self.SPLIT_WORKSPACE_BYTES if self.split_kv else 0

    def launch(self, args, stream):
        self.launches.append((_capi.AttentionArgs.from_buffer_copy(args), stream))
        self.events.append(("launch", bytes(args), stream))

    def check(self, args, stream):  # attnc_attention_check
        self.events.append(("check", bytes(args), stream))


class FakeCache:
    def __init__(self):
        self.kernels = {}

    def kernel(self, spec):
        return self.kernels.setdefault(spec, FakeKernel(spec))


# Debian's torch 1.13 (CI) has no torch.library.custom_op and no torch.compile
# of this path: the attnc::attention op and the torch.compile'd call are
# covered by the GPU check (python/tests/gpu_check_attnc.py, on a newer
# PyTorch) and by CompiledVarlenTest where custom_op exists; the op's fake
# implementation is traced with symbolic shapes here too (FakeImplTraceTest,
# make_fx). These tests run the eager path, with the kernel replaced by a fake.
class RefusingCache(FakeCache):
    """A cache that has no kernel for the specs `refuses` names (ahead-of-time
    kernels only, no compiler)."""

    def __init__(self, refuses):
        super().__init__()
        self.refuses = refuses

    def kernel(self, spec):
        if self.refuses(spec):
            raise AttncError("attnc kernel cache", f"no kernel {spec.key}")
        return super().kernel(spec)


class FakeKernelTest(unittest.TestCase):
    """attnc.ops with the kernel cache, the device check and the stream replaced by fakes."""

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

    def only_launch(self):
        (kernel,) = self.cache.kernels.values()
        self.assertEqual(len(kernel.launches), 1)
        return kernel.spec, kernel.launches[0]


@skip_unless_torch
class AttentionTest(FakeKernelTest):
    def qkv(self, b=2, hq=8, hkv=2, sq=33, sk=65, d=64, dv=64, layout="bhsd", dtype=None):
        dtype = dtype or torch.bfloat16

        def make(h, s, dim):
            if layout == "bhsd":
                return torch.randn(b, h, s, dim).to(dtype)
            return torch.randn(b, s, h, dim).to(dtype).transpose(1, 2)
        return make(hq, sq, d), make(hkv, sk, d), make(hkv, sk, dv)

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

    def test_decode_step_kernel(self):
        """One query token per sequence gets the class's decode-step kernel
        (-q1: compiled for Sq = 1, packed, split at launch), a speculative
        step's few theirs (-q4, -q32: up to 128 packed rows, 32 tokens at GQA
        4:1), more the general one, each a kernel of its own."""
        import attnc
        q, k, v = self.qkv(sq=1, sk=300)
        o = attnc.attention(q, k, v, causal=True, causal_alignment="bottom_right")
        spec, (args, _) = self.only_launch()
        self.assertEqual(spec.key, "bf16-hq8-hkv2-d64-dv64-bhsd-causal_bottom_right-q1")
        self.assertTrue(spec.decode_step)
        self.assertEqual((tuple(args.q.shape), o.shape), ((2, 8, 1, 64), (2, 8, 1, 64)))
        for sq in (4, 32, 33):
            attnc.attention(*self.qkv(sq=sq, sk=300), causal=True, causal_alignment="bottom_right")
        self.assertEqual(sorted(s.key for s in self.cache.kernels),
                         ["bf16-hq8-hkv2-d64-dv64-bhsd-causal_bottom_right",
                          "bf16-hq8-hkv2-d64-dv64-bhsd-causal_bottom_right-q1",
                          "bf16-hq8-hkv2-d64-dv64-bhsd-causal_bottom_right-q32",
                          "bf16-hq8-hkv2-d64-dv64-bhsd-causal_bottom_right-q4"])

    def test_draft_slice_takes_the_decode_step_kernel(self):
        """A q of a few tokens gets its decode-step kernel whatever its
        strides (packed rows are a token-major view of any q): a slice of a
        longer draft buffer and the same tokens contiguous share one, and a
        BSHD q gets its layout's."""
        import attnc
        q, k, v = self.qkv(sq=8, sk=300)
        attnc.attention(q[:, :, :4], k, v, causal=True, causal_alignment="bottom_right")
        attnc.attention(q[:, :, :4].contiguous(), k, v, causal=True, causal_alignment="bottom_right")
        q, k, v = self.qkv(sq=8, sk=300, layout="bshd")
        attnc.attention(q[:, :, :4], k, v, causal=True, causal_alignment="bottom_right")
        self.assertEqual(sorted(s.key for s in self.cache.kernels),
                         ["bf16-hq8-hkv2-d64-dv64-bhsd-causal_bottom_right-q4",
                          "bf16-hq8-hkv2-d64-dv64-bshd-causal_bottom_right-q4"])

    def test_decode_step_falls_back_to_the_general_kernel(self):
        """Without a decode-step kernel (ahead-of-time kernels without -q<n>, no
        compiler) a one-token call runs on the class's general kernel."""
        import attnc

        self.cache = RefusingCache(lambda spec: spec.decode_step)
        q, k, v = self.qkv(sq=1, sk=300)
        attnc.attention(q, k, v)
        spec, _ = self.only_launch()
        self.assertEqual(spec.key, "bf16-hq8-hkv2-d64-dv64-bhsd-none")

    def test_split_kernel_gets_a_workspace(self):
        """A split-KV kernel's launch carries a workspace of the bytes the
        runtime asked for, from PyTorch's allocator (asked once per
        signature); other kernels' launches none."""
        import attnc
        q, k, v = self.qkv(sq=1, sk=300)
        for _ in range(2):
            attnc.attention(q, k, v)
        kernel = self.cache.kernels[next(iter(self.cache.kernels))]
        self.assertEqual([e[0] for e in kernel.events], ["workspace_size", "launch", "launch"])
        for args, _ in kernel.launches:
            self.assertNotEqual(args.workspace, None)
            self.assertEqual(args.workspace_bytes, FakeKernel.SPLIT_WORKSPACE_BYTES)
        q, k, v = self.qkv(sq=33, sk=300)
        attnc.attention(q, k, v)
        (_, (args, _)), = [(s, kern.launches[0]) for s, kern in self.cache.kernels.items() if not s.decode_step]
        self.assertEqual((args.workspace, args.workspace_bytes), (None, 0))

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
            # Past 32 query tokens at GQA 4:1: the general kernel (fewer get
            # decode-step kernels of their own).
            for sq in range(1, 8):
                attnc.attention(*self.qkv(sq=sq + 32, sk=9))
                self.assertLessEqual(len(self.ops._plans), 3)
        (kernel,) = self.cache.kernels.values()
        self.assertEqual(len(kernel.launches), 7)

    def test_open_layout_uses_either_kernel(self):
        """One query and one key leave BHSD and BSHD open: where only the BSHD
        kernel exists (ahead of time), it runs."""
        import attnc
        from attnc import AttncError

        self.cache = RefusingCache(lambda spec: spec.layout == "bhsd")
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
             "q has \S+ heads, not a multiple of the \S+ heads of k and v"),
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
class PagedTest(FakeKernelTest):
    """attnc.attention with block_table and cache_lengths: k and v are page pools."""

    def paged(self, b=3, hq=8, hkv=2, sq=1, d=64, dv=64, page_size=16, pages=10, pages_per_seq=4,
              layout="bhsd", dtype=None):
        """q in `layout`, pools [pages, page_size, hkv, d], a table of -1 past
        each sequence's pages, cache lengths 0, 1, ... ."""
        dtype = dtype or torch.bfloat16
        if layout == "bhsd":
            q = torch.randn(b, hq, sq, d).to(dtype)
        else:
            q = torch.randn(b, sq, hq, d).to(dtype).transpose(1, 2)
        k = torch.randn(pages, page_size, hkv, d).to(dtype)
        v = torch.randn(pages, page_size, hkv, dv).to(dtype)
        table = torch.full((b, pages_per_seq), -1, dtype=torch.int32)
        table[:, 0] = torch.arange(b, dtype=torch.int32) % pages
        lengths = torch.arange(b, dtype=torch.int32) % (page_size + 1)
        return q, k, v, table, lengths

    def test_decode_launch(self):
        """A decode step (Sq = 1, layout open: the BHSD decode-step kernel): the
        pools go as the logical [pages, Hkv, page_size, D] with the pools'
        strides, the index tensors as int32 [B, pages_per_seq] and [B]."""
        import attnc
        q, k, v, table, lengths = self.paged(dv=128)
        o, lse = attnc.attention(q, k, v, block_table=table, cache_lengths=lengths, causal=True,
                                 causal_alignment="bottom_right", return_lse=True)
        spec, (args, stream) = self.only_launch()
        self.assertEqual(spec.key, "bf16-hq8-hkv2-d64-dv128-bhsd-causal_bottom_right-p16-q1-lse")
        self.assertEqual((spec.page_size, spec.decode_step), (16, True))
        self.assertEqual(stream, 0x5EED)
        self.assertEqual((o.shape, lse.shape), ((3, 8, 1, 128), (3, 8, 1)))
        self.assertEqual((args.q.data, tuple(args.q.shape), tuple(args.q.strides)),
                         (q.data_ptr(), (3, 8, 1, 64), q.stride()))
        self.assertEqual((args.k.data, tuple(args.k.shape), tuple(args.k.strides), args.k.dtype),
                         (k.data_ptr(), (10, 2, 16, 64), (16 * 2 * 64, 64, 2 * 64, 1), 1))
        self.assertEqual(tuple(args.k.strides), k.transpose(1, 2).stride())  # a BSHD tensor of pages
        self.assertEqual((args.v.data, tuple(args.v.shape), tuple(args.v.strides)),
                         (v.data_ptr(), (10, 2, 16, 128), (16 * 2 * 128, 128, 2 * 128, 1)))
        self.assertEqual((args.o.data, tuple(args.o.shape)), (o.data_ptr(), (3, 8, 1, 128)))
        self.assertEqual(args.lse, lse.data_ptr())
        bt, cl = args.block_table, args.cache_lengths
        self.assertEqual((bt.data, tuple(bt.shape), tuple(bt.strides), bt.dtype, bt.device_id),
                         (table.data_ptr(), (3, 4, 1, 1), (4, 1, 0, 0), _capi.I32, 0))
        self.assertEqual((cl.data, tuple(cl.shape), tuple(cl.strides), cl.dtype),
                         (lengths.data_ptr(), (3, 1, 1, 1), (1, 0, 0, 0), _capi.I32))
        self.assertEqual(len(bytes(args)), _capi.ARGS_SIZE)

    def test_speculative_step_limit_follows_packing(self):
        """A paged speculative step of 32 tokens at GQA 4:1 (128 packed rows)
        gets its decode-step kernel (max_query_tokens)."""
        import attnc
        q, k, v, table, lengths = self.paged(sq=32)
        attnc.attention(q, k, v, block_table=table, cache_lengths=lengths, causal=True,
                        causal_alignment="bottom_right")
        spec, _ = self.only_launch()
        self.assertEqual(spec.key, "bf16-hq8-hkv2-d64-dv64-bhsd-causal_bottom_right-p16-q32")

    def test_bshd_q_chunked_prefill(self):
        """q's strides alone give the layout; O comes back in it. Its 20
        tokens get a decode-step kernel (past 16, GQA steps whose packed rows
        stay within 128 do: max_query_tokens); 40 run on the general one."""
        import attnc
        q, k, v, table, lengths = self.paged(sq=20, layout="bshd", dtype=torch.float16, page_size=256, pages=3)
        o = attnc.attention(q, k, v, block_table=table, cache_lengths=lengths, scale=0.25)
        spec, (args, _) = self.only_launch()
        self.assertEqual(spec.key, "f16-hq8-hkv2-d64-dv64-bshd-none-p256-q20")
        self.assertTrue(o.transpose(1, 2).is_contiguous(), o.stride())
        self.assertEqual(tuple(args.k.shape), (3, 2, 256, 64))
        self.assertAlmostEqual(args.scale, 0.25, places=6)
        self.assertIsNone(args.lse)
        q, k, v, table, lengths = self.paged(sq=40, layout="bshd", dtype=torch.float16, page_size=256, pages=3)
        attnc.attention(q, k, v, block_table=table, cache_lengths=lengths, scale=0.25)
        self.assertEqual(sorted(s.key for s in self.cache.kernels),
                         ["f16-hq8-hkv2-d64-dv64-bshd-none-p256", "f16-hq8-hkv2-d64-dv64-bshd-none-p256-q20"])

    def test_plan_reused_and_index_check(self):
        """The second call reuses the plan; check_index_inputs=True runs
        attnc_attention_check on the launch's own arguments first."""
        import attnc
        q, k, v, table, lengths = self.paged()
        attnc.attention(q, k, v, block_table=table, cache_lengths=lengths)
        attnc.attention(q, k, v, block_table=table, cache_lengths=lengths, check_index_inputs=True)
        (kernel,) = self.cache.kernels.values()
        self.assertEqual([e[0] for e in kernel.events], ["workspace_size", "launch", "check", "launch"])
        # The second call checks its launch's own arguments (its workspace
        # included, which may be another buffer than the first call's).
        self.assertEqual(kernel.events[2][1:], kernel.events[3][1:])
        self.assertEqual(len(self.ops._plans), 1)
        other = self.paged(pages_per_seq=7)[3]
        attnc.attention(q, k, v, block_table=other, cache_lengths=lengths, check_index_inputs=True)
        self.assertEqual([e[0] for e in kernel.events][4:], ["workspace_size", "check", "launch"])
        self.assertEqual(kernel.launches[-1][0].block_table.shape[1], 7)
        self.assertEqual(len(self.ops._plans), 2)
        # A dense call of the same q is another kernel.
        attnc.attention(q, torch.randn(3, 2, 9, 64).to(torch.bfloat16), torch.randn(3, 2, 9, 64).to(torch.bfloat16))
        self.assertEqual(sorted(str(s.page_size) for s in self.cache.kernels), ["16", "None"])

    def test_strided_head_dim_of_q_is_copied(self):
        import attnc
        q, k, v, table, lengths = self.paged()
        q = torch.randn(3, 8, 1, 128).to(torch.bfloat16)[..., ::2]
        attnc.attention(q, k, v, block_table=table, cache_lengths=lengths)
        _, (args, _) = self.only_launch()
        self.assertEqual(args.q.strides[3], 1)

    def test_empty_batch_or_queries_do_not_launch(self):
        import attnc
        q, k, v, table, lengths = self.paged(b=0)
        o, lse = attnc.attention(q, k, v, block_table=table, cache_lengths=lengths, return_lse=True)
        self.assertEqual((o.shape, lse.shape), ((0, 8, 1, 64), (0, 8, 1)))
        q, k, v, table, lengths = self.paged(sq=0)
        self.assertEqual(attnc.attention(q, k, v, block_table=table, cache_lengths=lengths).shape, (3, 8, 0, 64))
        self.assertTrue(self.cache.kernels)
        self.assertEqual(sum(len(kern.launches) for kern in self.cache.kernels.values()), 0)

    def test_errors_name_the_argument_and_value(self):
        import attnc
        q, k, v, table, lengths = self.paged()
        pool = (10, 16, 2, 64)
        cases = [
            (dict(cache_lengths=None), ValueError, "block_table is given but cache_lengths is None; a paged KV "
             r"cache takes both \(cache_lengths: the int32 \[batch\] tensor"),
            (dict(block_table=None), ValueError, "cache_lengths is given but block_table is None; a paged KV "
             r"cache takes both \(block_table: the int32 \[batch, pages_per_seq\] tensor"),
            (dict(block_table=table.long()), TypeError, r"block_table.dtype is torch.int64; expected torch.int32 "
             r"\[batch, pages_per_seq\]"),
            (dict(cache_lengths=lengths.float()), TypeError, "cache_lengths.dtype is torch.float32; expected "
             "torch.int32"),
            (dict(block_table=table.tolist()), TypeError, "block_table is a list; expected an int32 torch.Tensor"),
            (dict(block_table=table[0]), ValueError, r"block_table has shape \(4,\); expected 2 dims \[batch, "
             r"pages_per_seq\]"),
            (dict(cache_lengths=lengths[None]), ValueError, r"cache_lengths has shape \(1, 3\); expected 1 dim "
             r"\[batch\]"),
            (dict(block_table=table[:2]), ValueError, r"block_table.shape\[0\] \(batch\) is 2 but q.shape\[0\] "
             "is 3"),
            (dict(cache_lengths=lengths[:1]), ValueError, r"cache_lengths.shape\[0\] \(batch\) is 1 but "
             r"q.shape\[0\] is 3"),
            (dict(block_table=self.paged(pages_per_seq=8)[3][:, ::2]), ValueError,
             r"block_table has strides \(8, 2\) for shape \(3, 4\); expected a contiguous tensor "
             r"\(pass block_table.contiguous\(\)\)"),
            (dict(cache_lengths=torch.zeros(6, dtype=torch.int32)[::2]), ValueError,
             r"cache_lengths has strides \(2,\) for shape \(3,\); expected a contiguous tensor"),
            (dict(block_table=table[:, :0]), ValueError, r"block_table has shape \(3, 0\); expected at least one "
             "page column"),
            (dict(k=k[0]), ValueError, r"k has shape \(16, 2, 64\); with block_table, k is a page pool of 4 dims "
             r"\[num_pages, page_size, heads_kv, head_dim\]"),
            (dict(k=torch.randn(10, 24, 2, 64).to(torch.bfloat16)), ValueError,
             r"k.shape\[1\] \(page size\) is 24; expected a power of two from 16 to 256"),
            (dict(k=torch.randn(10, 512, 2, 64).to(torch.bfloat16)), ValueError,
             r"k.shape\[1\] \(page size\) is 512; expected a power of two"),
            # A dense [B, Hkv, Sk, D] k with a block table: its heads read as the page size.
            (dict(k=torch.randn(3, 2, 33, 64).to(torch.bfloat16)), ValueError,
             r"k.shape\[1\] \(page size\) is 2; expected a power of two"),
            (dict(v=torch.randn(11, 16, 2, 64).to(torch.bfloat16)), ValueError,
             r"v.shape\[0\] \(pages\) is 11 but k.shape\[0\] is 10: k and v are page pools of the same pages"),
            (dict(v=torch.randn(10, 32, 2, 64).to(torch.bfloat16)), ValueError,
             r"v.shape\[1\] \(page size\) is 32 but k.shape\[1\] is 16"),
            (dict(v=torch.randn(10, 16, 4, 64).to(torch.bfloat16)), ValueError,
             r"v.shape\[2\] \(heads\) is 4 but k.shape\[2\] is 2"),
            (dict(k=torch.randn(10, 16, 2, 32).to(torch.bfloat16)), ValueError,
             r"k.shape\[3\] \(head dim\) is 32 but q.shape\[3\] is 64"),
            (dict(k=torch.randn(10, 16, 3, 64).to(torch.bfloat16), v=torch.randn(10, 16, 3, 64).to(torch.bfloat16)),
             ValueError, r"q has 8 heads, not a multiple of the 3 heads of the page pools k and v \(k.shape\[2\]\)"),
            (dict(k=k[:0], v=v[:0]), ValueError, r"k.shape\[0\] \(pages\) is 0; the page pools"),
            (dict(k=torch.randn(10, 2, 16, 64).to(torch.bfloat16).transpose(1, 2)), ValueError,
             r"k has strides \(2048, 64, 1024, 1\) for shape \(10, 16, 2, 64\); expected a contiguous page pool "
             r"\[num_pages, page_size, heads_kv, head_dim\] \(vLLM's layout\)"),
            (dict(v=torch.randn(10, 16, 2, 128).to(torch.bfloat16)[..., ::2]), ValueError,
             r"v has strides \(4096, 256, 128, 2\) for shape \(10, 16, 2, 64\); expected a contiguous page pool"),
            (dict(k=k.half()), TypeError, "k.dtype is torch.float16 but q.dtype is torch.bfloat16"),
            (dict(v=v.tolist()), TypeError, "v is a list; expected a torch.Tensor"),
            (dict(q=q.float()), TypeError, "q.dtype is torch.float32; expected torch.bfloat16 or torch.float16"),
            (dict(q=q[0]), ValueError, r"q has shape \(8, 1, 64\); expected 4 dims"),
            (dict(check_index_inputs=1), TypeError, "check_index_inputs is 1; expected a bool"),
            (dict(scale=-1.0), ValueError, "scale is -1.0; expected a finite positive float"),
            (dict(window=(4, 1), causal_alignment="bottom_right"), ValueError, r"window is \(4, 1\) with causal=False"),
        ]
        self.assertEqual(tuple(k.shape), pool)
        for kwargs, kind, message in cases:
            call = {**dict(q=q, k=k, v=v, block_table=table, cache_lengths=lengths), **kwargs}
            with self.assertRaisesRegex(kind, "^attnc.attention: " + message, msg=str(kwargs)):
                attnc.attention(call.pop("q"), call.pop("k"), call.pop("v"), **call)
        self.assertEqual(self.cache.kernels, {})

    def test_index_tensors_on_another_device(self):
        """An index tensor must be on q's device (here q on the meta device, so
        no GPU is needed)."""
        import attnc
        q, k, v, table, lengths = self.paged()
        with self.assertRaisesRegex(ValueError, "^attnc.attention: block_table is on cpu but q is on meta"):
            attnc.attention(q.to("meta"), k.to("meta"), v.to("meta"), block_table=table,
                            cache_lengths=lengths.to("meta"))
        with self.assertRaisesRegex(ValueError, "^attnc.attention: cache_lengths is on cpu but q is on meta"):
            attnc.attention(q.to("meta"), k.to("meta"), v.to("meta"), block_table=table.to("meta"),
                            cache_lengths=lengths)
        with self.assertRaisesRegex(ValueError, "^attnc.attention: k is on cpu but q is on meta"):
            attnc.attention(q.to("meta"), k, v, block_table=table, cache_lengths=lengths)



@skip_unless_torch
class VarlenTest(FakeKernelTest):
    """attnc.attention with cu_seqlens_q and cu_seqlens_k: q, k and v pack the
    sequences of a variable-length batch without padding."""

    def varlen(self, hq=8, hkv=2, d=64, dv=64, rows=(100, 1, 199, 0), keys=(200, 1, 299, 0), dtype=None):
        """FlashAttention's varlen layout: q [total_q, hq, d], k and v [total_k,
        hkv, d and dv], the offsets int32 [B + 1]."""
        dtype = dtype or torch.bfloat16
        total_q, total_k = sum(rows), sum(keys)
        q = torch.randn(total_q, hq, d).to(dtype)
        k = torch.randn(total_k, hkv, d).to(dtype)
        v = torch.randn(total_k, hkv, dv).to(dtype)
        cu_q = torch.tensor([sum(rows[:b]) for b in range(len(rows) + 1)], dtype=torch.int32)
        cu_k = torch.tensor([sum(keys[:b]) for b in range(len(keys) + 1)], dtype=torch.int32)
        return q, k, v, cu_q, cu_k

    def test_fa_layout_launch(self):
        """[total, heads, head_dim] tensors go as the logical [1, heads, total,
        head_dim] (BSHD strides), the offsets as int32 [B + 1]; O comes back as
        [total_q, Hq, Dv] and LSE as [Hq, total_q], FlashAttention's shapes."""
        import attnc
        q, k, v, cu_q, cu_k = self.varlen(dv=128)
        o, lse = attnc.attention(q, k, v, cu_seqlens_q=cu_q, cu_seqlens_k=cu_k, causal=True,
                                 causal_alignment="bottom_right", return_lse=True)
        spec, (args, stream) = self.only_launch()
        self.assertEqual(spec.key, "bf16-hq8-hkv2-d64-dv128-bshd-causal_bottom_right-varlen-lse")
        self.assertTrue(spec.varlen)
        self.assertEqual(stream, 0x5EED)
        self.assertEqual((o.shape, o.dtype, lse.shape, lse.dtype),
                         ((300, 8, 128), torch.bfloat16, (8, 300), torch.float32))
        self.assertTrue(o.is_contiguous(), o.stride())
        self.assertEqual((args.q.data, tuple(args.q.shape), tuple(args.q.strides), args.q.dtype),
                         (q.data_ptr(), (1, 8, 300, 64), (300 * 8 * 64, 64, 8 * 64, 1), 1))
        self.assertEqual((args.k.data, tuple(args.k.shape), tuple(args.k.strides)),
                         (k.data_ptr(), (1, 2, 500, 64), (500 * 2 * 64, 64, 2 * 64, 1)))
        self.assertEqual((args.v.data, tuple(args.v.shape), tuple(args.v.strides)),
                         (v.data_ptr(), (1, 2, 500, 128), (500 * 2 * 128, 128, 2 * 128, 1)))
        self.assertEqual((args.o.data, tuple(args.o.shape), tuple(args.o.strides)),
                         (o.data_ptr(), (1, 8, 300, 128), (300 * 8 * 128, 128, 8 * 128, 1)))
        self.assertEqual(args.lse, lse.data_ptr())
        for a, t in ((args.cu_seqlens_q, cu_q), (args.cu_seqlens_k, cu_k)):
            self.assertEqual((a.data, tuple(a.shape), tuple(a.strides), a.dtype, a.device_id),
                             (t.data_ptr(), (5, 1, 1, 1), (1, 0, 0, 0), _capi.I32, 0))
        self.assertIsNone(args.block_table.data)
        self.assertIsNone(args.cache_lengths.data)
        self.assertEqual(args.struct_size, _capi.ARGS_SIZE)

    def test_logical_4d_tensors(self):
        """[1, heads, total, head_dim] tensors in either layout: O and LSE keep
        the batch of 1, O in q's layout."""
        import attnc
        q, k, v, cu_q, cu_k = self.varlen()
        q4, k4, v4 = (t.transpose(0, 1).contiguous()[None] for t in (q, k, v))  # BHSD
        o = attnc.attention(q4, k4, v4, cu_seqlens_q=cu_q, cu_seqlens_k=cu_k, scale=0.25)
        spec, (args, _) = self.only_launch()
        self.assertEqual(spec.key, "bf16-hq8-hkv2-d64-dv64-bhsd-none-varlen")
        self.assertEqual((o.shape, o.stride()), ((1, 8, 300, 64), q4.stride()))
        self.assertEqual(tuple(args.q.strides), q4.stride())
        self.assertAlmostEqual(args.scale, 0.25, places=6)
        self.assertIsNone(args.lse)
        _, lse = attnc.attention(q[None].transpose(1, 2), k[None].transpose(1, 2), v[None].transpose(1, 2),
                                 cu_seqlens_q=cu_q, cu_seqlens_k=cu_k, return_lse=True)
        self.assertEqual(lse.shape, (1, 8, 300))
        self.assertEqual(sorted(s.key for s in self.cache.kernels),
                         ["bf16-hq8-hkv2-d64-dv64-bhsd-none-varlen", "bf16-hq8-hkv2-d64-dv64-bshd-none-varlen-lse"])

    def test_plan_reused_and_index_check(self):
        """The second call reuses the plan (same pointers and shapes);
        check_index_inputs=True runs attnc_attention_check on the launch's own
        arguments first."""
        import attnc
        q, k, v, cu_q, cu_k = self.varlen()
        attnc.attention(q, k, v, cu_seqlens_q=cu_q, cu_seqlens_k=cu_k)
        self.assertEqual(len(self.ops._plans), 1)
        attnc.attention(q, k, v, cu_seqlens_q=cu_q, cu_seqlens_k=cu_k, check_index_inputs=True)
        (kernel,) = self.cache.kernels.values()
        self.assertEqual([e[0] for e in kernel.events], ["launch", "check", "launch"])
        self.assertEqual(kernel.events[1][1:], kernel.events[2][1:])
        first, second = (_capi.AttentionArgs.from_buffer_copy(e[1]) for e in (kernel.events[0], kernel.events[2]))
        for name in ("q", "k", "v", "cu_seqlens_q", "cu_seqlens_k"):
            a, b = getattr(first, name), getattr(second, name)
            self.assertEqual((a.data, tuple(a.shape), tuple(a.strides)), (b.data, tuple(b.shape), tuple(b.strides)),
                             name)
        self.assertEqual(len(self.ops._plans), 1)

    def test_nothing_to_launch(self):
        """No query row, no key or no sequence: no launch. Without keys every
        row sees none: O = 0, LSE = -inf."""
        import attnc
        q, k, v, cu_q, cu_k = self.varlen(rows=(0, 0), keys=(3, 4))
        o = attnc.attention(q, k, v, cu_seqlens_q=cu_q, cu_seqlens_k=cu_k)
        self.assertEqual(o.shape, (0, 8, 64))
        q, k, v, cu_q, cu_k = self.varlen(rows=(5, 2), keys=(0, 0))
        o, lse = attnc.attention(q, k, v, cu_seqlens_q=cu_q, cu_seqlens_k=cu_k, causal=True, return_lse=True)
        self.assertEqual((o.shape, lse.shape), ((7, 8, 64), (8, 7)))
        self.assertTrue(bool((o == 0).all()) and bool((lse == -math.inf).all()))
        q, k, v, _, _ = self.varlen(rows=(5,), keys=(6,))
        zero = torch.zeros(1, dtype=torch.int32)
        self.assertEqual(attnc.attention(q, k, v, cu_seqlens_q=zero, cu_seqlens_k=zero).shape, (5, 8, 64))
        self.assertEqual([len(kern.launches) for kern in self.cache.kernels.values()], [0, 0])

    def test_strided_head_dim_is_copied(self):
        """A strided head dim is copied for the launch (TMA reads contiguous
        rows), and such a call makes no plan."""
        import attnc
        q, k, v, cu_q, cu_k = self.varlen()
        q = torch.randn(300, 8, 128).to(torch.bfloat16)[..., ::2]
        attnc.attention(q, k, v, cu_seqlens_q=cu_q, cu_seqlens_k=cu_k)
        _, (args, _) = self.only_launch()
        self.assertEqual(args.q.strides[3], 1)
        self.assertNotEqual(args.q.data, q.data_ptr())
        self.assertEqual(self.ops._plans, {})

    def test_errors_name_the_call_and_value(self):
        import attnc
        q, k, v, cu_q, cu_k = self.varlen()
        cases = [
            (dict(cu_seqlens_k=None), ValueError, r"cu_seqlens_q is given but cu_seqlens_k is None; a varlen batch "
             r"takes both \(cu_seqlens_k: the int32 \[batch \+ 1\] offsets of the sequences' rows in k and v\)"),
            (dict(cu_seqlens_q=None), ValueError, r"cu_seqlens_k is given but cu_seqlens_q is None; a varlen batch "
             r"takes both \(cu_seqlens_q: the int32 \[batch \+ 1\] offsets of the sequences' rows in q\)"),
            (dict(block_table=torch.zeros(4, 1, dtype=torch.int32)), ValueError, "cu_seqlens_q is given with "
             "block_table; attnc has no varlen kernel over a paged KV cache"),
            (dict(cache_lengths=torch.zeros(4, dtype=torch.int32)), ValueError, "cu_seqlens_q is given with "
             "cache_lengths"),
            (dict(q=q.flatten(1)), ValueError, r"q has shape \(300, 512\); with cu_seqlens_q, q packs the sequences: "
             r"expected 3 dims \[total, heads, head_dim\] \(FlashAttention's varlen layout\) or 4 dims "
             r"\[1, heads, total, head_dim\]"),
            (dict(q=q.reshape(2, 150, 8, 64).transpose(1, 2), k=k.reshape(2, 250, 2, 64).transpose(1, 2),
                  v=v.reshape(2, 250, 2, 64).transpose(1, 2)), ValueError,
             r"q.shape\[0\] \(batch\) is 2; with cu_seqlens_q, q packs the sequences in a batch of 1: "
             r"\[1, heads, total, head_dim\]"),
            (dict(k=k[None].transpose(1, 2)), ValueError, r"k has shape \(1, 2, 500, 64\) but q has 3 dims; with "
             r"cu_seqlens_q, pass q, k and v alike"),
            (dict(q=q.float()), TypeError, "q.dtype is torch.float32; expected torch.bfloat16 or torch.float16"),
            (dict(q=q.tolist()), TypeError, "q is a list; expected a torch.Tensor"),
            (dict(v=v.half()), TypeError, "v.dtype is torch.float16 but q.dtype is torch.bfloat16"),
            (dict(k=None), TypeError, "k is a NoneType; expected a torch.Tensor"),
            (dict(k=k[..., :32]), ValueError, r"k.shape\[2\] \(head dim\) is \S+ but q.shape\[2\] is \S+$"),
            (dict(v=torch.randn(500, 4, 64).to(torch.bfloat16)), ValueError,
             r"v.shape\[1\] \(heads\) is 4 but k.shape\[1\] is 2"),
            (dict(v=v[:499]), ValueError, r"v.shape\[0\] \(tokens\) is 499 but k.shape\[0\] is 500"),
            (dict(k=torch.randn(500, 3, 64).to(torch.bfloat16), v=torch.randn(500, 3, 64).to(torch.bfloat16)),
             ValueError, "q has \S+ heads, not a multiple of the \S+ heads of k and v"),
            (dict(cu_seqlens_q=cu_q.long()), TypeError, r"cu_seqlens_q.dtype is torch.int64; expected torch.int32 "
             r"\[batch \+ 1\]"),
            (dict(cu_seqlens_k=cu_k.tolist()), TypeError, r"cu_seqlens_k is a list; expected an int32 torch.Tensor "
             r"\[batch \+ 1\]"),
            (dict(cu_seqlens_q=cu_q[None]), ValueError, r"cu_seqlens_q has shape \(1, 5\); expected 1 dim "
             r"\[batch \+ 1\] of at least one offset"),
            (dict(cu_seqlens_k=cu_k[:0]), ValueError, r"cu_seqlens_k has shape \(0,\); expected 1 dim"),
            (dict(cu_seqlens_k=torch.zeros(10, dtype=torch.int32)[::2]), ValueError,
             r"cu_seqlens_k has strides \(2,\) for shape \(5,\); expected a contiguous tensor "
             r"\(pass cu_seqlens_k.contiguous\(\)\)"),
            (dict(cu_seqlens_k=cu_k[:3]), ValueError, r"cu_seqlens_k has 3 offsets but cu_seqlens_q has 5; both are "
             r"\[batch \+ 1\], an offset pair per sequence"),
            (dict(check_index_inputs=1), TypeError, "check_index_inputs is 1; expected a bool"),
            (dict(scale=-1.0), ValueError, "scale is -1.0; expected a finite positive float"),
            (dict(window=(4, 1), causal_alignment="bottom_right"), ValueError, r"window is \(4, 1\) with causal=False"),
        ]
        for kwargs, kind, message in cases:
            call = {**dict(q=q, k=k, v=v, cu_seqlens_q=cu_q, cu_seqlens_k=cu_k), **kwargs}
            with self.assertRaisesRegex(kind, "^attnc.attention: " + message, msg=str(kwargs)):
                attnc.attention(call.pop("q"), call.pop("k"), call.pop("v"), **call)
        # 4-d tensors must agree on their layout as dense ones do.
        with self.assertRaisesRegex(ValueError, "^attnc.attention: k is stored BHSD"):
            attnc.attention(q[None].transpose(1, 2), k.transpose(0, 1).contiguous()[None], v[None].transpose(1, 2),
                            cu_seqlens_q=cu_q, cu_seqlens_k=cu_k)
        self.assertEqual(self.cache.kernels, {})

    def test_offsets_on_another_device(self):
        """The offsets must be on q's device (here q on the meta device, so no
        GPU is needed)."""
        import attnc
        q, k, v, cu_q, cu_k = self.varlen()
        meta = [t.to("meta") for t in (q, k, v)]
        with self.assertRaisesRegex(ValueError, "^attnc.attention: cu_seqlens_q is on cpu but q is on meta"):
            attnc.attention(*meta, cu_seqlens_q=cu_q, cu_seqlens_k=cu_k.to("meta"))
        with self.assertRaisesRegex(ValueError, "^attnc.attention: cu_seqlens_k is on cpu but q is on meta"):
            attnc.attention(*meta, cu_seqlens_q=cu_q.to("meta"), cu_seqlens_k=cu_k)
        with self.assertRaisesRegex(ValueError, "^attnc.attention: v is on cpu but q is on meta"):
            attnc.attention(meta[0], meta[1], v, cu_seqlens_q=cu_q, cu_seqlens_k=cu_k)


def _symbolic_trace(fn, *args):
    """fn traced by make_fx on fake tensors of symbolic sizes and strides, as
    torch.compile(dynamic=True) and opcheck's test_aot_dispatch_dynamic run
    attnc::attention's fake implementation (make_fx is in PyTorch 1.13 too,
    which has no torch.library.custom_op)."""
    from torch.fx.experimental.proxy_tensor import make_fx
    return make_fx(fn, tracing_mode="symbolic")(*args)


def _layout_of(t):
    return None if t is None else (tuple(t.shape), t.stride(), t.dtype)


@skip_unless_torch
class FakeImplTraceTest(FakeKernelTest):
    """attnc::attention's fake implementation (ops._attention_fake) traced
    with symbolic shapes: it must not read values, data pointers or element
    counts (a fake tensor of symbolic sizes has none), must keep the checks
    that shapes, strides and dtypes decide, and the traced graph must give
    the eager call's output shapes and strides for other sizes too."""

    def varlen(self, rows, keys, hq=8, hkv=2, d=64, dv=64, form="bshd"):
        total_q, total_k = sum(rows), sum(keys)
        q, k, v = (torch.randn(total, h, dim).to(torch.bfloat16)
                   for total, h, dim in ((total_q, hq, d), (total_k, hkv, d), (total_k, hkv, dv)))
        if form == "bhsd":  # the logical [1, heads, total, head_dim], stored BHSD
            q, k, v = (t.transpose(0, 1).contiguous()[None] for t in (q, k, v))
        elif form == "strided":  # q's head dim strided: copied by the fake as by the eager call
            q = torch.randn(total_q, hq, 2 * d).to(torch.bfloat16)[..., ::2]
        cu_q, cu_k = (torch.tensor([sum(n[:b]) for b in range(len(n) + 1)], dtype=torch.int32) for n in (rows, keys))
        return q, k, v, cu_q, cu_k

    @staticmethod
    def fake_varlen(return_lse, mask="causal_bottom_right"):
        import attnc.ops as ops

        def call(q, k, v, cu_q, cu_k):
            return ops._attention_fake(q, k, v, mask, None, None, None, return_lse, None, None, False, cu_q, cu_k)
        return call

    def test_varlen_traces_with_symbolic_shapes(self):
        import attnc
        for form in ("bshd", "bhsd", "strided"):
            for return_lse in (True, False):
                name = f"{form}, return_lse={return_lse}"
                graph = _symbolic_trace(self.fake_varlen(return_lse),
                                        *self.varlen((100, 3, 35), (200, 3, 35), form=form))
                # Other totals and another batch size, through the same graph.
                for rows, keys in (((100, 3, 35), (200, 3, 35)), ((7, 50, 2, 9, 30), (64, 7, 2, 5, 40))):
                    q, k, v, cu_q, cu_k = self.varlen(rows, keys, form=form)
                    o, lse = graph(q, k, v, cu_q, cu_k)
                    want = attnc.attention(q, k, v, cu_seqlens_q=cu_q, cu_seqlens_k=cu_k, causal=True,
                                           causal_alignment="bottom_right", return_lse=return_lse)
                    want_o, want_lse = want if return_lse else (want, None)
                    self.assertEqual(_layout_of(o), _layout_of(want_o), name)
                    self.assertEqual(_layout_of(lse), _layout_of(want_lse) if return_lse
                                     else ((0,), (1,), torch.float32), name)

    def test_varlen_checks_on_symbolic_shapes(self):
        """The checks of shapes, strides, dtypes and ranks still raise while
        tracing (the values in the messages may be symbols, as s0 or t0.size(0))."""
        q, k, v, cu_q, cu_k = self.varlen((100, 3, 35), (200, 3, 35))
        cases = [
            ((q, k, v, cu_q.long(), cu_k), TypeError, r"cu_seqlens_q.dtype is torch.int64; expected torch.int32"),
            ((q, k, v, cu_q, cu_k[:3]), ValueError,
             r"cu_seqlens_k has \S+ offsets but cu_seqlens_q has \S+; both are \[batch \+ 1\]"),
            ((q, k, v, cu_q, torch.zeros(8, dtype=torch.int32)[::2]), ValueError,
             r"cu_seqlens_k has strides .+; expected a contiguous tensor"),
            ((q, k, v[:137], cu_q, cu_k), ValueError, r"v.shape\[0\] \(tokens\) is \S+ but k.shape\[0\] is \S+$"),
            ((q, k[..., :32], v, cu_q, cu_k), ValueError, r"k.shape\[2\] \(head dim\) is \S+ but q.shape\[2\] is \S+$"),
            ((q, k[:, :1].expand(238, 3, 64), v[:, :1].expand(238, 3, 64), cu_q, cu_k), ValueError,
             "q has \S+ heads, not a multiple of the \S+ heads of k and v"),
            ((q.flatten(1), k, v, cu_q, cu_k), ValueError, r"q has shape .+; with cu_seqlens_q, q packs the sequences"),
        ]
        for args, kind, message in cases:
            with self.assertRaisesRegex(kind, "^attnc.attention: " + message):
                _symbolic_trace(self.fake_varlen(True), *args)

    def test_dense_and_paged_trace_with_symbolic_shapes(self):
        import attnc.ops as ops
        q, k, v = (torch.randn(2, s, h, 64).to(torch.bfloat16).transpose(1, 2) for s, h in ((33, 8), (65, 2), (65, 2)))
        graph = _symbolic_trace(lambda q, k, v: ops._attention_fake(q, k, v, "causal", None, None, None, True,
                                                                    None, None, False, None, None), q, k, v)
        q, k, v = (torch.randn(3, s, h, 64).to(torch.bfloat16).transpose(1, 2) for s, h in ((17, 8), (90, 2), (90, 2)))
        o, lse = graph(q, k, v)
        self.assertEqual((_layout_of(o), _layout_of(lse)), (((3, 8, 17, 64), q.stride(), torch.bfloat16),
                                                            ((3, 8, 17), (8 * 17, 17, 1), torch.float32)))

        def paged(q, k, v, table, lengths):
            return ops._attention_fake(q, k, v, "none", None, None, None, False, table, lengths, False, None, None)
        pools = [torch.randn(10, 16, 2, 64).to(torch.bfloat16) for _ in range(2)]
        table, lengths = torch.zeros(3, 4, dtype=torch.int32), torch.zeros(3, dtype=torch.int32)
        graph = _symbolic_trace(paged, torch.randn(3, 8, 5, 64).to(torch.bfloat16), *pools, table, lengths)
        pools = [torch.randn(12, 16, 2, 64).to(torch.bfloat16) for _ in range(2)]
        o, lse = graph(torch.randn(4, 8, 6, 64).to(torch.bfloat16), *pools, torch.zeros(4, 7, dtype=torch.int32),
                       torch.zeros(4, dtype=torch.int32))
        self.assertEqual((_layout_of(o), tuple(lse.shape)), (((4, 8, 6, 64), (8 * 6 * 64, 6 * 64, 64, 1),
                                                              torch.bfloat16), (0,)))


@unittest.skipUnless(torch is not None and hasattr(torch.library, "custom_op"),
                     "needs torch.library.custom_op (PyTorch >= 2.4; Debian's 1.13 has none)")
class CompiledVarlenTest(FakeKernelTest):
    """The varlen call through attnc::attention under torch.compile and
    opcheck, on CPU tensors with the kernel replaced by a fake (whose O and
    LSE are zeros, so that opcheck's comparisons of real runs agree)."""

    def setUp(self):
        super().setUp()
        outputs = self.ops._outputs

        def zeroed(plan, q, return_lse):
            o, lse = outputs(plan, q, return_lse)
            return o.zero_(), None if lse is None else lse.zero_()
        patcher = mock.patch.object(self.ops, "_outputs", zeroed)
        patcher.start()
        self.addCleanup(patcher.stop)
        torch._dynamo.reset()
        self.addCleanup(torch._dynamo.reset)

    def test_compile_and_opcheck(self):
        import attnc
        varlen = FakeImplTraceTest.varlen

        def h(q, k, v, cu_q, cu_k):
            o, lse = attnc.attention(q, k, v, cu_seqlens_q=cu_q, cu_seqlens_k=cu_k, causal=True,
                                     causal_alignment="bottom_right", return_lse=True)
            return o * 2, lse + 1
        for dynamic in (False, True):
            compiled = torch.compile(h, fullgraph=True, dynamic=dynamic, backend="aot_eager")
            for rows, keys in (((100, 3, 35), (200, 3, 35)), ((7, 50, 2, 9), (64, 7, 2, 5))):
                q, k, v, cu_q, cu_k = varlen(self, rows, keys)
                o, lse = compiled(q, k, v, cu_q, cu_k)
                want_o, want_lse = h(q, k, v, cu_q, cu_k)
                self.assertEqual((_layout_of(o), _layout_of(lse)), (_layout_of(want_o), _layout_of(want_lse)))
        q, k, v, cu_q, cu_k = varlen(self, (100, 3, 35), (200, 3, 35))
        torch.library.opcheck(self.ops.attention_op, (q, k, v, "causal_bottom_right", None, None, None, True, None,
                                                      None, False, cu_q, cu_k))


def _fake_cuda():
    """libattnc-fake-cuda.so (the CUDA driver stand-in of test/Runtime/FakeCuda):
    $ATTNC_FAKE_CUDA, else beside $ATTNC_RUNTIME_LIB or the runtime
    _capi finds (the build's lib/); None where there is none."""
    env = os.environ.get("ATTNC_FAKE_CUDA")
    if env:
        return env
    runtime = _capi.find_library()
    if runtime and os.path.isfile(runtime):
        path = os.path.join(os.path.dirname(runtime), "libattnc-fake-cuda.so")
        if os.path.isfile(path):
            return path
    return None


# Run in a child process whose runtime drives the fake CUDA driver (device
# memory is host memory there, so CPU tensors serve): a compiled paged kernel,
# launched and checked through the real runtime. Prints one JSON object.
_FAKE_DRIVER_SCRIPT = r"""
import ctypes, json, os, sys
from unittest import mock
import torch
import attnc, attnc.ops as ops
from attnc import AttncError

fake = ctypes.CDLL(os.environ["ATTNC_LIBCUDA"])
fake.attnc_fake_cuda_trace.restype = ctypes.c_char_p
torch.manual_seed(0)
q = torch.randn(3, 1, 8, 64).to(torch.bfloat16).transpose(1, 2)  # a decode step's q
k = torch.randn(10, 16, 2, 64).to(torch.bfloat16)
v = torch.randn(10, 16, 2, 64).to(torch.bfloat16)
table = torch.full((3, 4), -1, dtype=torch.int32)
table[:, 0] = torch.tensor([3, 1, 7], dtype=torch.int32)
table[2, 1] = 9
lengths = torch.tensor([0, 1, 17], dtype=torch.int32)
out = {"pointers": {"table": table.data_ptr(), "lengths": lengths.data_ptr()}, "errors": []}


def call(check):
    return attnc.attention(q, k, v, block_table=table, cache_lengths=lengths, causal=True,
                           causal_alignment="bottom_right", return_lse=True, check_index_inputs=check)


with mock.patch.object(ops, "_check_device", lambda q: None), mock.patch.object(ops, "_current_stream",
                                                                                lambda device: 0):
    fake.attnc_fake_cuda_trace_enable(1)
    call(False)
    out["trace"] = fake.attnc_fake_cuda_trace().decode()
    call(True)
    out["checked_trace"] = fake.attnc_fake_cuda_trace().decode()
    good_table, good_lengths = table.clone(), lengths.clone()
    for row, col, page, length in ((2, 1, 10, None), (2, 1, -1, None), (1, 0, 3, 65)):
        table[row, col] = page
        if length is not None:
            lengths[1] = length
        try:
            call(True)
            out["errors"].append(None)
        except AttncError as e:
            out["errors"].append(str(e))
        table.copy_(good_table)
        lengths.copy_(good_lengths)
    table[2, 1] = 10
    call(False)  # the kernel trusts the values: no check, no error
    out["unchecked_bad_page"] = "launched"
print(json.dumps(out))
"""


@skip_unless_torch
@unittest.skipUnless(compiler_or_none() and _fake_cuda(), "needs attnc-compile and libattnc-fake-cuda.so (the build)")
class FakeDriverTest(unittest.TestCase):
    """A paged call through the real runtime and a compiled kernel, on the fake
    CUDA driver: what reaches the driver, and check_index_inputs' errors."""

    @classmethod
    def setUpClass(cls):
        import tempfile
        here = os.path.dirname(os.path.abspath(__file__))
        cls.tmp = tempfile.TemporaryDirectory()
        env = {**os.environ, "ATTNC_LIBCUDA": _fake_cuda(), "ATTNC_RUNTIME_LIB": _capi.find_library(),
               "ATTNC_COMPILER": compiler_or_none(), "ATTNC_CACHE_DIR": cls.tmp.name, "ATTNC_KERNEL_DIR": "",
               "PYTHONPATH": os.path.join(here, "..")}
        env.pop("ATTNC_CHECK_INDEX_INPUTS", None)
        result = subprocess.run([sys.executable, "-c", _FAKE_DRIVER_SCRIPT], env=env, capture_output=True, text=True)
        if result.returncode != 0:
            raise AssertionError(f"the fake-driver run failed:\n{result.stderr}")
        cls.out = json.loads(result.stdout.strip().splitlines()[-1])

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_pools_and_index_tensors_reach_the_kernel(self):
        """k's and v's tensor maps are the pools' (d, s, h, b = 64, 16, 2, 10
        pages; rows Hkv * D * 2 bytes apart); the launch of the decode-step
        kernel (one query token: -q1) passes the table and the lengths;
        without the check nothing is copied to the host."""
        trace = self.out["trace"]
        # The plan's first launch asks for its split-KV workspace first, which
        # makes the launch's checks and encodes its four tensor maps; the
        # launch reuses them (the runtime's tensor-map cache).
        maps = [line for line in trace.splitlines() if line.startswith("tensor_map")]
        self.assertEqual(len(maps), 4, trace)
        for line in maps[1:3]:
            self.assertIn("dims [64, 16, 2, 10] byte_strides [256, 128, 4096] box [64, 16, 1, 1]", line)
        launch = next(line for line in trace.splitlines() if line.startswith("launch attnc_bf16_hq8_hkv2_d64_dv64_"
                                                                            "bhsd_causal_bottom_right_p16_q1_lse "))
        pointers = self.out["pointers"]
        self.assertIn(f"{pointers['table']:#x}, {pointers['lengths']:#x}", launch)
        self.assertNotIn("memcpy_dtoh_async", trace)

    def test_check_copies_the_index_tensors(self):
        trace = self.out["checked_trace"]
        self.assertIn("memcpy_dtoh_async bytes 12 from", trace)  # cache_lengths: 3 int32
        self.assertIn("memcpy_dtoh_async bytes 48 from", trace)  # block_table: 3 x 4 int32
        self.assertIn("stream_synchronize", trace)
        self.assertLess(trace.index("stream_synchronize"), trace.index("launch "))

    def test_check_names_the_bad_entry(self):
        self.assertEqual(len(self.out["errors"]), 3)
        page, negative, length = self.out["errors"]
        self.assertRegex(page or "", r"^attnc_attention_check: block_table\[2\]\[1\] = 10 is not a page of k, "
                                     r"which has 10 pages \(cache_lengths\[2\] = 17")
        self.assertRegex(negative or "", r"^attnc_attention_check: block_table\[2\]\[1\] = -1 is not a page")
        self.assertRegex(length or "", r"^attnc_attention_check: cache_lengths\[1\] = 65 exceeds the block "
                                       r"table's 4 pages of 16 tokens \(64\)")
        self.assertEqual(self.out["unchecked_bad_page"], "launched")


# The varlen twin of _FAKE_DRIVER_SCRIPT: a compiled varlen kernel launched and
# checked through the real runtime on the fake driver. Prints one JSON object.
_VARLEN_FAKE_DRIVER_SCRIPT = r"""
import ctypes, json, os
from unittest import mock
import torch
import attnc, attnc.ops as ops
from attnc import AttncError

fake = ctypes.CDLL(os.environ["ATTNC_LIBCUDA"])
fake.attnc_fake_cuda_trace.restype = ctypes.c_char_p
torch.manual_seed(0)
q = torch.randn(300, 8, 64).to(torch.bfloat16)  # 4 sequences of 100, 1, 199 and 0 rows
k = torch.randn(500, 2, 64).to(torch.bfloat16)  # and of 200, 1, 299 and 0 keys
v = torch.randn(500, 2, 64).to(torch.bfloat16)
cu_q = torch.tensor([0, 100, 101, 300, 300], dtype=torch.int32)
cu_k = torch.tensor([0, 200, 201, 500, 500], dtype=torch.int32)
out = {"errors": []}


def call(check):
    return attnc.attention(q, k, v, cu_seqlens_q=cu_q, cu_seqlens_k=cu_k, causal=True,
                           causal_alignment="bottom_right", return_lse=True, check_index_inputs=check)


with mock.patch.object(ops, "_check_device", lambda q: None), mock.patch.object(ops, "_current_stream",
                                                                                lambda device: 0):
    fake.attnc_fake_cuda_trace_enable(1)
    o, lse = call(False)
    out["trace"] = fake.attnc_fake_cuda_trace().decode()
    (kernel,) = ops._kernels.values()
    out["manifest"] = kernel.manifest
    out["pointers"] = {"o": o.data_ptr(), "lse": lse.data_ptr(), "cu_q": cu_q.data_ptr(), "cu_k": cu_k.data_ptr()}
    call(True)
    out["checked_trace"] = fake.attnc_fake_cuda_trace().decode()
    for offsets, index, value in ((cu_q, 2, 50), (cu_k, 4, 501), (cu_q, 0, -1)):
        good = offsets.clone()
        offsets[index] = value
        try:
            call(True)
            out["errors"].append(None)
        except AttncError as e:
            out["errors"].append(str(e))
        offsets.copy_(good)
print(json.dumps(out))
"""


@skip_unless_torch
@unittest.skipUnless(compiler_or_none() and _fake_cuda(), "needs attnc-compile and libattnc-fake-cuda.so (the build)")
class VarlenFakeDriverTest(unittest.TestCase):
    """A varlen call through the real runtime and a compiled kernel (the
    compiler's GPU lowering of varlen tiles), on the fake CUDA driver: the
    grid, the parameters in the manifest's order, and check_index_inputs'
    errors."""

    @classmethod
    def setUpClass(cls):
        import tempfile
        here = os.path.dirname(os.path.abspath(__file__))
        cls.tmp = tempfile.TemporaryDirectory()
        env = {**os.environ, "ATTNC_LIBCUDA": _fake_cuda(), "ATTNC_RUNTIME_LIB": _capi.find_library(),
               "ATTNC_COMPILER": compiler_or_none(), "ATTNC_CACHE_DIR": cls.tmp.name, "ATTNC_KERNEL_DIR": "",
               "PYTHONPATH": os.path.join(here, "..")}
        env.pop("ATTNC_CHECK_INDEX_INPUTS", None)
        result = subprocess.run([sys.executable, "-c", _VARLEN_FAKE_DRIVER_SCRIPT], env=env, capture_output=True,
                                text=True)
        if result.returncode != 0:
            raise AssertionError(f"the varlen fake-driver run failed:\n{result.stderr}")
        cls.out = json.loads(result.stdout.strip().splitlines()[-1])

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_grid_and_params(self):
        """Grid x = ceil(total_q / block_m) + B query tiles, y = Hq, z = 1; o,
        lse and the offsets as pointers, then total_q, total_k and B; no
        tensor map of o. The GQA 8:2 kernel packs a kv head's 4 query heads
        (pack-gqa=auto): its rows are 4 total_q over Hkv = 2 heads."""
        manifest, pointers = self.out["manifest"], self.out["pointers"]
        block_m = manifest["grid"][0]["ceil_div"]
        group = manifest["problem"]["packed_query_heads"]
        self.assertEqual(group, 4)
        trace = self.out["trace"]
        maps = [line for line in trace.splitlines() if line.startswith("tensor_map")]
        self.assertEqual(len(maps), 3, trace)
        launch = next(line for line in trace.splitlines() if line.startswith("launch "))
        self.assertIn(f" grid [{-(-300 * group // block_m) + 4}, {8 // group}, 1] ", launch)
        self.assertIn(f"params [map, map, map, {pointers['o']:#x}, {pointers['lse']:#x}, {pointers['cu_q']:#x}, "
                      f"{pointers['cu_k']:#x}, {300 * group}, 500, 4, ", launch)
        self.assertNotIn("memcpy_dtoh_async", trace)

    def test_check_copies_the_offsets(self):
        trace = self.out["checked_trace"]
        self.assertEqual(trace.count("memcpy_dtoh_async bytes 20 from"), 2, trace)  # 5 int32 each
        self.assertLess(trace.index("stream_synchronize"), trace.index("launch "))

    def test_check_names_the_bad_entry(self):
        decrease, rows, negative = self.out["errors"]
        self.assertRegex(decrease or "", r"^attnc_attention_check: cu_seqlens_q\[2\] = 50 is below "
                                         r"cu_seqlens_q\[1\] = 100: offsets must not decrease")
        self.assertRegex(rows or "", r"^attnc_attention_check: cu_seqlens_k\[4\] = 501 exceeds the 500 rows of k")
        self.assertRegex(negative or "", r"^attnc_attention_check: cu_seqlens_q\[0\] = -1 is negative")


@skip_unless_torch
class DeviceTest(unittest.TestCase):
    def test_cpu_tensors_are_rejected(self):
        import attnc
        q = torch.zeros(1, 2, 16, 64, dtype=torch.bfloat16)
        with self.assertRaisesRegex(ValueError, "^attnc.attention: q is on cpu; attnc kernels run on CUDA"):
            attnc.attention(q, q, q)
        pool = torch.zeros(4, 16, 2, 64, dtype=torch.bfloat16)
        table, lengths = torch.zeros(1, 1, dtype=torch.int32), torch.zeros(1, dtype=torch.int32)
        with self.assertRaisesRegex(ValueError, "^attnc.attention: q is on cpu; attnc kernels run on CUDA"):
            attnc.attention(q, pool, pool, block_table=table, cache_lengths=lengths)


if __name__ == "__main__":
    unittest.main()
