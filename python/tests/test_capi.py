"""The ctypes mirror of the runtime's C ABI and its error messages."""
import ctypes
import os
import re
import subprocess
import tempfile
import unittest

import helpers  # noqa: F401 - puts the package on sys.path

from attnc import AttncError, _capi
from attnc.errors import strip_call


class PackTest(unittest.TestCase):
    def test_packed_bytes_equal_the_structure(self):
        """pack_attention_args and AttentionArgs must describe the same C struct."""
        tensors = []
        expected = _capi.AttentionArgs()
        for i, name in enumerate("qkvo"):
            t = getattr(expected, name)
            t.data = 0x1000 * (i + 1)
            t.shape[:] = [i + 1, i + 2, i + 3, i + 4]
            t.strides[:] = [100 + i, 200 + i, 300 + i, 1]
            t.dtype = i + 1
            t.device_id = 0
            tensors.append((t.data, list(t.shape), list(t.strides), t.dtype))
        expected.lse = 0xdead0
        expected.scale = 0.125
        packed = _capi.pack_attention_args(*tensors, 0xdead0, 0.125)
        # The sizes of include/attnc/Runtime/Runtime.h (ABI 0.5.0; 0.2.0's
        # struct ends where block_table begins, at 376, 0.3.0's where
        # cu_seqlens_q begins, at 552, and 0.4.0's where workspace begins,
        # at 728).
        self.assertEqual(ctypes.sizeof(_capi.Tensor), 88)
        self.assertEqual(ctypes.sizeof(_capi.AttentionArgs), 744)
        self.assertEqual(_capi.AttentionArgs.block_table.offset, 376)
        self.assertEqual(_capi.AttentionArgs.cu_seqlens_q.offset, 552)
        self.assertEqual(_capi.AttentionArgs.workspace.offset, 728)
        self.assertEqual(len(packed), ctypes.sizeof(_capi.AttentionArgs))
        self.assertEqual(_capi.ARGS_SIZE, 744)
        self.assertEqual(expected.struct_size, 744)
        self.assertEqual(packed, bytes(expected))
        # A paged KV cache's index tensors: int32, rank 2 and 1.
        expected.block_table = _capi.index_tensor(0x5000, (2, 16), (16, 1))
        expected.cache_lengths = _capi.index_tensor(0x6000, (2,), (1,))
        packed = _capi.pack_attention_args(*tensors, 0xdead0, 0.125, 0, (0x5000, (2, 16), (16, 1)),
                                           (0x6000, (2,), (1,)))
        self.assertEqual(packed, bytes(expected))
        self.assertEqual(list(expected.block_table.shape), [2, 16, 1, 1])
        self.assertEqual(list(expected.cache_lengths.strides), [1, 0, 0, 0])
        self.assertEqual(expected.cache_lengths.dtype, _capi.I32)
        # A varlen batch's offsets: int32, rank 1, [B + 1]; the paged cache's
        # tensors absent.
        expected.block_table = _capi.Tensor()
        expected.cache_lengths = _capi.Tensor()
        expected.cu_seqlens_q = _capi.index_tensor(0x7000, (5,), (1,))
        expected.cu_seqlens_k = _capi.index_tensor(0x8000, (5,), (1,), device_id=0)
        packed = _capi.pack_attention_args(*tensors, 0xdead0, 0.125, 0, cu_seqlens_q=(0x7000, (5,), (1,)),
                                           cu_seqlens_k=(0x8000, (5,), (1,)))
        self.assertEqual(packed, bytes(expected))
        self.assertEqual(list(expected.cu_seqlens_k.shape), [5, 1, 1, 1])
        self.assertEqual(list(expected.cu_seqlens_q.strides), [1, 0, 0, 0])
        self.assertEqual(bytes(expected)[376:552], bytes(176))
        # A split-KV kernel's workspace: a pointer and its bytes.
        expected.workspace, expected.workspace_bytes = 0x9000, 264192
        packed = _capi.pack_attention_args(*tensors, 0xdead0, 0.125, 0, cu_seqlens_q=(0x7000, (5,), (1,)),
                                           cu_seqlens_k=(0x8000, (5,), (1,)), workspace=(0x9000, 264192))
        self.assertEqual(packed, bytes(expected))
        packed = _capi.pack_attention_args(*tensors, 0xdead0, 0.125, 0, workspace=(0x9000, 264192))
        self.assertEqual(packed[728:], bytes(expected)[728:])

    def test_kernel_attrs(self):
        """attnc_kernel_attrs: struct_size set on construction, six int32 after it."""
        attrs = _capi.KernelAttrs()
        self.assertEqual(ctypes.sizeof(attrs), 28)
        self.assertEqual(attrs.struct_size, 28)
        self.assertEqual(_capi.KernelAttrs.threads_per_block.offset, 24)

    def test_null_lse(self):
        t = (1, (1, 1, 1, 8), (8, 8, 8, 1), 1)
        args = _capi.AttentionArgs.from_buffer_copy(_capi.pack_attention_args(t, t, t, t, None, 1.0))
        self.assertIsNone(args.lse)


_REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
# The C struct each `attnc-rt-check abi` line names -> its ctypes mirror.
_STRUCTS = {"attnc_tensor": _capi.Tensor, "attnc_attention_args": _capi.AttentionArgs,
            "attnc_kernel_attrs": _capi.KernelAttrs}
_OFFSETOF = re.compile(r"^offsetof\((\w+), (\w+)\): (\d+)$")


def _rt_check():
    """attnc-rt-check: $ATTNC_RT_CHECK, else $BUILD_DIR/bin (default build/) of
    the source tree; None if neither is set and the build has none."""
    env = os.environ.get("ATTNC_RT_CHECK")
    if env:
        return env
    path = os.path.join(_REPO, os.environ.get("BUILD_DIR") or "build", "bin", "attnc-rt-check")
    return path if os.path.isfile(path) else None


@unittest.skipUnless(_rt_check(), "attnc-rt-check not built (set ATTNC_RT_CHECK or BUILD_DIR)")
class HeaderSizeTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        path = _rt_check()
        if not os.path.isfile(path):
            raise AssertionError(f"ATTNC_RT_CHECK is {path!r}, which does not exist")
        cls.out = subprocess.run([path, "abi"], capture_output=True, text=True, check=True).stdout

    def test_sizes_match_the_c_header(self):
        """The ctypes structs have the sizes the C compiler gives Runtime.h's."""
        sizes = dict(line.split(": ") for line in self.out.splitlines() if line.startswith("sizeof("))
        for name, cls in _STRUCTS.items():
            self.assertEqual(int(sizes[f"sizeof({name})"]), ctypes.sizeof(cls), name)

    def test_offsets_match_the_c_header(self):
        """Every field's offset, as the C compiler lays Runtime.h out, is the
        ctypes field's: the same sizes could hide reordered fields."""
        seen = set()
        for line in self.out.splitlines():
            if not line.startswith("offsetof("):
                continue
            m = _OFFSETOF.match(line)
            self.assertIsNotNone(m, f"unexpected line {line!r}")
            struct_name, field, offset = m.group(1), m.group(2), int(m.group(3))
            self.assertIn(struct_name, _STRUCTS, line)
            cls = _STRUCTS[struct_name]
            self.assertTrue(hasattr(cls, field), f"{line}: _capi.{cls.__name__} has no field {field}")
            self.assertEqual(getattr(cls, field).offset, offset, line)
            seen.add((struct_name, field))
        self.assertTrue(seen, "attnc-rt-check abi printed no offsetof(...) line")
        # Both ways: a ctypes field the C struct lacks is caught here.
        expected = {(name, field) for name, cls in _STRUCTS.items() for field, *_ in cls._fields_}
        self.assertEqual(expected - seen, set(), "fields attnc-rt-check abi printed no offset for")


class ErrorTest(unittest.TestCase):
    def test_call_is_named_once(self):
        e = AttncError("attnc_kernel_load", "attnc_kernel_load: attnc_kernel_load: bad manifest")
        self.assertEqual(str(e), "attnc_kernel_load: bad manifest")
        self.assertEqual(e.detail, "bad manifest")
        self.assertEqual(strip_call("f", "g: f: x"), "g: f: x")


@unittest.skipUnless(_capi.find_library(), "libAttncRuntime.so not found (set ATTNC_RUNTIME_LIB)")
class RuntimeTest(unittest.TestCase):
    """The real runtime, on a machine with or without a GPU."""

    def setUp(self):
        self.rt = _capi.runtime()

    def test_version(self):
        self.assertRegex(self.rt.version(), r"^\d+\.\d+\.\d+$")

    def test_missing_artifact(self):
        with self.assertRaises(AttncError) as cm:
            self.rt.load("/nonexistent/artifact")
        message = str(cm.exception)
        self.assertTrue(message.startswith("attnc_kernel_load: "), message)
        self.assertEqual(message.count("attnc_kernel_load"), 1, message)
        self.assertIn("/nonexistent/artifact", message)

    def test_invalid_manifest_names_the_key(self):
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "manifest.json"), "w") as f:
                f.write('{"format": "attnc-kernel-manifest", "version": 7}')
            with self.assertRaisesRegex(AttncError, "^attnc_kernel_load: .*version"):
                self.rt.load(tmp)


if __name__ == "__main__":
    unittest.main()
