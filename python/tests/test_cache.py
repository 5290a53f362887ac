"""KernelCache: lookup order, the on-disk cache, errors without a compiler."""
import json
import os
import tempfile
import time
import unittest
from unittest import mock

from helpers import compiler_or_none, manifest_for

import attnc.cache
from attnc import AttncError, KernelCache, KernelSpec

SPEC = KernelSpec(dtype="bf16", heads_q=4, heads_kv=2, head_dim=64, head_dim_v=64, mask="causal", lse=True)


class FakeRuntime:
    """Stands in for _capi.Runtime: load() hands out handles and records paths."""

    def __init__(self):
        self.loaded = []

    def load(self, path):
        self.loaded.append(path)
        return len(self.loaded)


def write_artifact(folder, spec, manifest=None):
    path = os.path.join(folder, spec.key)
    os.makedirs(path)
    with open(os.path.join(path, "manifest.json"), "w") as f:
        json.dump(manifest or manifest_for(spec), f)
    return path


class AheadOfTimeTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.aot = [os.path.join(self.tmp.name, "a"), os.path.join(self.tmp.name, "b")]

    def cache(self, **kw):
        return KernelCache(kernel_dirs=self.aot, cache_dir=os.path.join(self.tmp.name, "cache"),
                           compiler=False, runtime=FakeRuntime(), **kw)

    def test_first_kernel_dir_wins_and_loads_once(self):
        write_artifact(self.aot[1], SPEC)
        first = write_artifact(self.aot[0], SPEC)
        cache = self.cache()
        kernel = cache.kernel(SPEC)
        self.assertEqual(kernel.path, first)
        self.assertIs(cache.kernel(SPEC), kernel)
        self.assertEqual(cache._runtime.loaded, [first])

    def test_environment_defaults(self):
        env = {"ATTNC_KERNEL_DIR": os.pathsep.join(self.aot), "ATTNC_CACHE_DIR": "/c"}
        with mock.patch.dict(os.environ, env):
            cache = KernelCache()
        self.assertEqual((cache.kernel_dirs, cache.cache_dir), (self.aot, "/c"))
        with mock.patch.dict(os.environ, {"XDG_CACHE_HOME": "/x"}):
            os.environ.pop("ATTNC_CACHE_DIR", None)
            self.assertEqual(attnc.cache.default_cache_dir(), "/x/attnc")

    def test_missing_kernel_without_compiler(self):
        with self.assertRaises(AttncError) as cm:
            self.cache().kernel(SPEC)
        message = str(cm.exception)
        self.assertIn(f"no kernel {SPEC.key} in {os.pathsep.join(self.aot)}", message)
        self.assertIn(f"python3 -m attnc.precompile --out DIR {SPEC.key}", message)

    def test_stale_artifact_is_rejected(self):
        other = KernelSpec(dtype="bf16", heads_q=4, heads_kv=2, head_dim=64, head_dim_v=64, lse=True)
        write_artifact(self.aot[0], SPEC, manifest_for(other))  # a no-mask kernel under a causal key
        with self.assertRaisesRegex(AttncError, "problem.mask is 'none' but kernel"):
            self.cache().kernel(SPEC)

    def test_unreadable_manifest(self):
        path = os.path.join(self.aot[0], SPEC.key)
        os.makedirs(path)
        with open(os.path.join(path, "manifest.json"), "w") as f:
            f.write("{")
        with self.assertRaisesRegex(AttncError, "^attnc kernel cache: .*manifest.json: "):
            self.cache().kernel(SPEC)


@unittest.skipUnless(compiler_or_none(), "attnc-compile not found (set ATTNC_COMPILER)")
class CompileTest(unittest.TestCase):
    def test_miss_compiles_once_into_the_disk_cache(self):
        with tempfile.TemporaryDirectory() as tmp:
            first = KernelCache(kernel_dirs=[], cache_dir=tmp, runtime=FakeRuntime())
            start = time.perf_counter()
            kernel = first.kernel(SPEC)
            seconds = time.perf_counter() - start
            self.assertTrue(kernel.path.startswith(tmp))
            self.assertEqual(kernel.manifest["entry"], SPEC.function_name)
            print(f"\n  first call of {SPEC.key}: compiled in {seconds * 1e3:.0f} ms", end=" ")
            # A second process finds it on disk without compiling.
            with mock.patch("attnc.cache.compile_spec", side_effect=AssertionError("compiled again")):
                again = KernelCache(kernel_dirs=[], cache_dir=tmp, runtime=FakeRuntime()).kernel(SPEC)
            self.assertEqual(again.path, kernel.path)
            self.assertEqual([n for n in os.listdir(os.path.dirname(kernel.path)) if n.startswith(".")], [])

    def test_compiler_error_names_the_kernel(self):
        spec = KernelSpec(dtype="bf16", heads_q=2, heads_kv=2, head_dim=20, head_dim_v=20)
        with tempfile.TemporaryDirectory() as tmp:
            with self.assertRaisesRegex(AttncError, rf"^attnc-compile: kernel {spec.key} failed \(exit 1\):\n"
                                                    ".*head dim must be a multiple of 8"):
                KernelCache(kernel_dirs=[], cache_dir=tmp, runtime=FakeRuntime()).kernel(spec)


if __name__ == "__main__":
    unittest.main()
