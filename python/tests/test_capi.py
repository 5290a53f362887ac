"""The ctypes mirror of the runtime's C ABI and its error messages."""
import ctypes
import os
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
        # The sizes of include/attnc/Runtime/Runtime.h (ABI 0.2.0).
        self.assertEqual(ctypes.sizeof(_capi.Tensor), 88)
        self.assertEqual(ctypes.sizeof(_capi.AttentionArgs), 376)
        self.assertEqual(len(packed), ctypes.sizeof(_capi.AttentionArgs))
        self.assertEqual(expected.struct_size, 376)
        self.assertEqual(packed, bytes(expected))

    def test_null_lse(self):
        t = (1, (1, 1, 1, 8), (8, 8, 8, 1), 1)
        args = _capi.AttentionArgs.from_buffer_copy(_capi.pack_attention_args(t, t, t, t, None, 1.0))
        self.assertIsNone(args.lse)


def _rt_check():
    """build/bin/attnc-rt-check of the source tree, if it was built."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "build", "bin",
                        "attnc-rt-check")
    return path if os.path.isfile(path) else None


@unittest.skipUnless(_rt_check(), "attnc-rt-check not built")
class HeaderSizeTest(unittest.TestCase):
    def test_sizes_match_the_c_header(self):
        """The ctypes structs have the sizes the C compiler gives Runtime.h's."""
        import subprocess
        out = subprocess.run([_rt_check(), "abi"], capture_output=True, text=True, check=True).stdout
        sizes = dict(line.split(": ") for line in out.splitlines() if line.startswith("sizeof("))
        self.assertEqual(int(sizes["sizeof(attnc_tensor)"]), ctypes.sizeof(_capi.Tensor))
        self.assertEqual(int(sizes["sizeof(attnc_attention_args)"]), ctypes.sizeof(_capi.AttentionArgs))


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
