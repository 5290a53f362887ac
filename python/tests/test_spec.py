"""KernelSpec: validation, keys, the generated MLIR and the manifest check."""
import json
import os
import subprocess
import tempfile
import unittest

from helpers import compiler_or_none, manifest_for

from attnc import AttncError, KernelSpec
from attnc.spec import max_query_tokens

GQA = dict(dtype="bf16", heads_q=8, heads_kv=2, head_dim=128, head_dim_v=128)
VARIANTS = [KernelSpec(**GQA),
            KernelSpec(**GQA, mask="causal", lse=True),
            KernelSpec(**GQA, mask="causal_bottom_right", window=(256, 0), layout="bshd"),
            KernelSpec(dtype="f16", heads_q=4, heads_kv=4, head_dim=64, head_dim_v=96, window=(16, 8),
                       softcap=30.0),
            KernelSpec(dtype="f16", heads_q=2, heads_kv=1, head_dim=256, head_dim_v=256, mask="causal",
                       softcap=0.1, lse=True, layout="bshd")]
# Paged KV caches: pools of 16 and 256 tokens, both layouts of q and o, masks,
# a window and a softcap.
PAGED = [KernelSpec(**GQA, mask="causal_bottom_right", lse=True, page_size=16),
         KernelSpec(**GQA, page_size=256),
         KernelSpec(dtype="f16", heads_q=4, heads_kv=1, head_dim=64, head_dim_v=64, mask="causal_bottom_right",
                    window=(32, 0), layout="bshd", lse=True, page_size=32),
         KernelSpec(dtype="bf16", heads_q=8, heads_kv=8, head_dim=64, head_dim_v=64, softcap=30.0, layout="bshd",
                    page_size=128)]
VARIANTS += PAGED
# Decode steps (one query token per sequence, or a speculative step's four):
# dense and paged, both layouts, masked (packed too) and not, with and without
# LSE.
DECODE = [KernelSpec(**GQA, mask="causal_bottom_right", lse=True, query_tokens=1),
          KernelSpec(dtype="f16", heads_q=32, heads_kv=8, head_dim=64, head_dim_v=64, layout="bshd",
                     query_tokens=1),
          KernelSpec(**GQA, mask="causal_bottom_right", lse=True, page_size=16, query_tokens=1),
          KernelSpec(**GQA, mask="causal_bottom_right", query_tokens=4),
          KernelSpec(**GQA, mask="causal_bottom_right", page_size=16, query_tokens=4)]
VARIANTS += DECODE
# Variable-length batches (q, k, v packed in a batch of 1, cu_seqlens_q and
# cu_seqlens_k): both layouts, GQA and not, masks, a window, LSE. Kept out of
# VARIANTS, whose every entry test_every_variant_compiles_to_its_manifest
# compiles for the GPU: test_varlen_variants_compile_to_their_manifest does
# that for these.
VARLEN = [KernelSpec(**GQA, mask="causal_bottom_right", layout="bshd", lse=True, varlen=True),
          KernelSpec(**GQA, varlen=True),
          KernelSpec(dtype="f16", heads_q=4, heads_kv=4, head_dim=64, head_dim_v=64, mask="causal",
                     window=(32, 0), layout="bshd", varlen=True)]


class KeyTest(unittest.TestCase):
    def test_keys_are_distinct_and_parse_back(self):
        keys = [spec.key for spec in VARIANTS + VARLEN]
        self.assertEqual(len(set(keys)), len(keys))
        for spec in VARIANTS + VARLEN:
            self.assertEqual(KernelSpec.from_key(spec.key), spec)

    def test_small_softcap_round_trips(self):
        """repr(1e-05) is '1e-05', and keys are split on '-': the key spells the
        exponent 'em' and parses back to the same float."""
        spec = KernelSpec(**GQA, softcap=1e-05)
        self.assertNotIn("-", spec.key.split("-cap")[1])
        self.assertEqual(spec.key, "bf16-hq8-hkv2-d128-dv128-bhsd-none-cap1em05")
        back = KernelSpec.from_key(spec.key)
        self.assertEqual(back, spec)
        self.assertEqual(back.softcap, 1e-05)
        self.assertEqual(KernelSpec.from_key(KernelSpec(**GQA, softcap=2.5e-07, lse=True).key).softcap, 2.5e-07)

    def test_key_is_readable(self):
        self.assertEqual(VARIANTS[1].key, "bf16-hq8-hkv2-d128-dv128-bhsd-causal-lse")
        self.assertEqual(PAGED[0].key, "bf16-hq8-hkv2-d128-dv128-bhsd-causal_bottom_right-p16-lse")
        self.assertEqual(PAGED[2].key, "f16-hq4-hkv1-d64-dv64-bshd-causal_bottom_right-w32x0-p32-lse")
        self.assertEqual(VARLEN[0].key, "bf16-hq8-hkv2-d128-dv128-bshd-causal_bottom_right-varlen-lse")
        self.assertEqual(VARLEN[2].key, "f16-hq4-hkv4-d64-dv64-bshd-causal-w32x0-varlen")
        self.assertEqual(DECODE[0].key, "bf16-hq8-hkv2-d128-dv128-bhsd-causal_bottom_right-q1-lse")
        self.assertEqual(DECODE[2].key, "bf16-hq8-hkv2-d128-dv128-bhsd-causal_bottom_right-p16-q1-lse")

    def test_decode_step_keys(self):
        """-q<n> follows the page size and precedes -lse; keys without it are
        not decode steps."""
        self.assertEqual(KernelSpec.from_key("bf16-hq8-hkv2-d128-dv128-bshd-none-q1").query_tokens, 1)
        self.assertEqual(KernelSpec.from_key("bf16-hq8-hkv2-d128-dv128-bhsd-none-p16-q4").query_tokens, 4)
        self.assertEqual(DECODE[4].key, "bf16-hq8-hkv2-d128-dv128-bhsd-causal_bottom_right-p16-q4")
        self.assertFalse(KernelSpec.from_key("bf16-hq8-hkv2-d128-dv128-bshd-none").decode_step)
        with self.assertRaisesRegex(ValueError, "not canonical"):
            KernelSpec.from_key("bf16-hq8-hkv2-d128-dv128-bhsd-none-lse-q1")
        with self.assertRaisesRegex(ValueError, "not canonical"):
            KernelSpec.from_key("bf16-hq8-hkv2-d128-dv128-bhsd-none-q04")

    def test_varlen_keys(self):
        """-varlen follows the mask's parts and precedes -lse; keys without it
        are not varlen."""
        self.assertTrue(KernelSpec.from_key("bf16-hq8-hkv2-d128-dv128-bhsd-none-varlen").varlen)
        self.assertFalse(KernelSpec.from_key("bf16-hq8-hkv2-d128-dv128-bhsd-none-lse").varlen)
        with self.assertRaisesRegex(ValueError, "not canonical"):
            KernelSpec.from_key("bf16-hq8-hkv2-d128-dv128-bhsd-none-lse-varlen")
        with self.assertRaisesRegex(ValueError, "^attnc.KernelSpec: varlen is True with page_size 16"):
            KernelSpec.from_key("bf16-hq8-hkv2-d128-dv128-bhsd-none-p16-varlen")

    def test_keys_without_a_page_size_are_dense(self):
        """Keys written before page_size existed parse as they did: dense."""
        for key in ("bf16-hq8-hkv2-d128-dv128-bhsd-causal-lse", "f16-hq4-hkv4-d64-dv96-bhsd-none-w16x8-cap30.0"):
            spec = KernelSpec.from_key(key)
            self.assertIsNone(spec.page_size)
            self.assertEqual(spec.key, key)

    def test_page_size_keys(self):
        self.assertEqual(KernelSpec.from_key("bf16-hq8-hkv2-d128-dv128-bhsd-none-p256").page_size, 256)
        for key in ("bf16-hq8-hkv2-d128-dv128-bhsd-none-lse-p16", "bf16-hq8-hkv2-d128-dv128-bhsd-none-p016"):
            with self.assertRaisesRegex(ValueError, "not canonical"):
                KernelSpec.from_key(key)
        with self.assertRaisesRegex(ValueError, "^attnc.KernelSpec: page_size is 24"):
            KernelSpec.from_key("bf16-hq8-hkv2-d128-dv128-bhsd-none-p24")
        with self.assertRaisesRegex(ValueError, "^attnc.KernelSpec.from_key: 'bf16-hq8-hkv2-d128-dv128-bhsd-none-px'"):
            KernelSpec.from_key("bf16-hq8-hkv2-d128-dv128-bhsd-none-px")

    def test_every_field_changes_the_key(self):
        base = KernelSpec(**GQA)
        changes = dict(dtype="f16", heads_q=16, heads_kv=1, head_dim=64, head_dim_v=64, mask="causal",
                       window=(8, 8), softcap=5.0, layout="bshd", lse=True, options=(("stages", "2"),),
                       page_size=16, varlen=True)
        for name, value in changes.items():
            other = KernelSpec(**{**GQA, name: value})
            self.assertNotEqual(other.key, base.key, name)

    def test_causal_window_right_is_canonical(self):
        a = KernelSpec(**GQA, mask="causal", window=(64, 7))
        self.assertEqual(a.window, (64, 0))
        self.assertEqual(a, KernelSpec(**GQA, mask="causal", window=[64, 0]))

    def test_options_order_does_not_matter(self):
        a = KernelSpec(**GQA, options=(("stages", 2), ("block-m", 64)))
        b = KernelSpec(**GQA, options=(("block-m", "64"), ("stages", "2")))
        self.assertEqual(a.key, b.key)

    def test_non_canonical_key_is_rejected(self):
        with self.assertRaisesRegex(ValueError, "not canonical"):
            KernelSpec.from_key("bf16-hq8-hkv2-d128-dv128-bhsd-causal-w4x4")

    def test_bad_keys_name_the_key(self):
        for key in ("bf16", "bf16-h8-hkv2-d128-dv128-bhsd-none", "bf16-hq8-hkv2-d128-dv128-bhsd-none-zz"):
            with self.assertRaisesRegex(ValueError, "^attnc.KernelSpec.from_key: '" + key):
                KernelSpec.from_key(key)


class ValidationTest(unittest.TestCase):
    def check(self, message, **changes):
        with self.assertRaises(ValueError) as cm:
            KernelSpec(**{**GQA, **changes})
        self.assertTrue(str(cm.exception).startswith("attnc.KernelSpec: "), str(cm.exception))
        self.assertIn(message, str(cm.exception))

    def test_messages_name_the_value(self):
        self.check("dtype is 'f32'", dtype="f32")
        self.check("layout is 'sbhd'", layout="sbhd")
        self.check("mask is 'sliding'", mask="sliding")
        self.check("heads_q is 0", heads_q=0)
        self.check("head_dim is 64.0", head_dim=64.0)
        self.check("heads_q (8) is not a multiple of heads_kv (3)", heads_kv=3)
        self.check("window is (1, 2, 3)", window=(1, 2, 3))
        self.check("window is (-1, 0)", window=(-1, 0))
        self.check("softcap is -1.0", softcap=-1.0)
        self.check("option name 'Block_M'", options=(("Block_M", 1),))
        for page_size in (24, 8, 512, 0, 16.0, True, "16"):
            self.check(f"page_size is {page_size!r}; expected None (a dense KV cache) or a power of two from 16 "
                       "to 256", page_size=page_size)
        for varlen in (1, None, "yes"):
            self.check(f"varlen is {varlen!r}; expected a bool", varlen=varlen)
        self.check("varlen is True with page_size 16; attnc has no varlen kernel over a paged KV cache",
                   varlen=True, page_size=16)
        for tokens in (0, 33, True, 1.0, "1"):
            self.check(f"query_tokens is {tokens!r}; expected None (any number of query tokens) or an int from 1 "
                       "to 32 (a decode step's tokens per sequence: 8 query heads over 2 kv heads)",
                       query_tokens=tokens)
        self.check("query_tokens is 17; expected None (any number of query tokens) or an int from 1 to 16 "
                   "(a decode step's tokens per sequence: 12 query heads over 2 kv heads)",
                   heads_q=12, query_tokens=17)
        self.check("varlen is True with query_tokens 1; a varlen batch's queries are its packed tokens",
                   varlen=True, query_tokens=1)


class QueryTokensTest(unittest.TestCase):
    def test_limit_follows_the_packed_rows(self):
        """A decode-step kernel takes 16 tokens, or in GQA whose g divides 64
        as many as keep the packed rows per kv head within 128."""
        self.assertEqual(max_query_tokens(8, 2), 32)
        self.assertEqual(max_query_tokens(32, 8), 32)
        self.assertEqual(max_query_tokens(16, 8), 64)
        self.assertEqual(max_query_tokens(16, 2), 16)
        self.assertEqual(max_query_tokens(32, 1), 16)
        self.assertEqual(max_query_tokens(8, 8), 16)
        # g = 6 does not divide 64: one token packs, more do not.
        self.assertEqual(max_query_tokens(12, 2), 16)
        self.assertEqual(KernelSpec(**GQA, query_tokens=32).query_tokens, 32)


class MlirTest(unittest.TestCase):
    def test_text(self):
        text = VARIANTS[2].mlir()
        self.assertIn("func.func @attnc_bf16_hq8_hkv2_d128_dv128_bshd_causal_bottom_right_w256x0(", text)
        self.assertIn("attn.attention %q, %k, %v mask = causal_bottom_right window = [256, 0] layout = bshd",
                      text)
        self.assertIn("%q: tensor<?x?x8x128xbf16>, %k: tensor<?x?x2x128xbf16>", text)
        self.assertIn("softcap = 1.000000000e-01", VARIANTS[4].mlir())
        self.assertIn("-> (tensor<?x?x2x256xf16>, tensor<?x2x?xf32>)", VARIANTS[4].mlir())

    def test_paged_text(self):
        """A paged spec's function takes the pools, the block table, the cache
        lengths and the kv split count (bench/decode-paged.mlir's form)."""
        text = PAGED[0].mlir()
        self.assertIn("(%q: tensor<?x8x?x128xbf16>, %k: tensor<?x16x2x128xbf16>, %v: tensor<?x16x2x128xbf16>, "
                      "%block_table: tensor<?x?xi32>, %cache_lengths: tensor<?xi32>, %splits: index) -> "
                      "(tensor<?x8x?x128xbf16>, tensor<?x8x?xf32>)", text)
        self.assertIn("attn.attention %q, %k, %v mask = causal_bottom_right kv_splits(%splits) "
                      "pages(%block_table, %cache_lengths : tensor<?x?xi32>, tensor<?xi32>)\n"
                      "      : tensor<?x8x?x128xbf16>, tensor<?x16x2x128xbf16>, tensor<?x16x2x128xbf16>", text)
        # Whatever the layout of q and o, a pool is [num_pages, page_size, heads_kv, head_dim].
        text = PAGED[2].mlir()
        self.assertIn("%q: tensor<?x?x4x64xf16>, %k: tensor<?x32x1x64xf16>", text)
        self.assertIn("window = [32, 0] layout = bshd kv_splits(%splits) pages(", text)
        self.assertNotIn("pages", VARIANTS[0].mlir())

    def test_decode_step_text(self):
        """A decode step's q, o and LSE have its query tokens: the pipeline sees
        the static rows it packs, splits and tiles by; k and v stay dynamic."""
        text = DECODE[0].mlir()
        self.assertIn("(%q: tensor<?x8x1x128xbf16>, %k: tensor<?x2x?x128xbf16>, %v: tensor<?x2x?x128xbf16>) -> "
                      "(tensor<?x8x1x128xbf16>, tensor<?x8x1xf32>)", text)
        self.assertIn("%q: tensor<?x1x32x64xf16>, %k: tensor<?x?x8x64xf16>", DECODE[1].mlir())
        self.assertIn("%q: tensor<?x8x1x128xbf16>, %k: tensor<?x16x2x128xbf16>", DECODE[2].mlir())
        self.assertIn("(%q: tensor<?x8x4x128xbf16>, %k: tensor<?x2x?x128xbf16>", DECODE[3].mlir())
        self.assertNotIn("x1x", VARIANTS[0].mlir())

    def test_varlen_text(self):
        """A varlen spec's function takes batch-1 q, k and v and the offsets
        (examples/varlen_prefill_gqa.mlir's form); O and LSE have batch 1."""
        text = VARLEN[0].mlir()
        self.assertIn("(%q: tensor<1x?x8x128xbf16>, %k: tensor<1x?x2x128xbf16>, %v: tensor<1x?x2x128xbf16>, "
                      "%cu_seqlens_q: tensor<?xi32>, %cu_seqlens_k: tensor<?xi32>) -> "
                      "(tensor<1x?x8x128xbf16>, tensor<1x8x?xf32>)", text)
        self.assertIn("attn.attention %q, %k, %v mask = causal_bottom_right layout = bshd "
                      "varlen(%cu_seqlens_q, %cu_seqlens_k : tensor<?xi32>, tensor<?xi32>)\n"
                      "      : tensor<1x?x8x128xbf16>, tensor<1x?x2x128xbf16>, tensor<1x?x2x128xbf16> -> "
                      "tensor<1x?x8x128xbf16>, tensor<1x8x?xf32>", text)
        self.assertIn("%q: tensor<1x8x?x128xbf16>, %k: tensor<1x2x?x128xbf16>", VARLEN[1].mlir())
        self.assertIn("window = [32, 0] layout = bshd varlen(", VARLEN[2].mlir())
        self.assertNotIn("varlen", VARIANTS[0].mlir())

    @unittest.skipUnless(compiler_or_none(), "attnc-compile not found (set ATTNC_COMPILER)")
    def test_graphs_lower_to_the_cpu_reference(self):
        """attnc-opt (beside attnc-compile) lowers every variant's graph, paged
        and varlen ones included, through the CPU reference pipeline."""
        opt = os.path.join(os.path.dirname(compiler_or_none()), "attnc-opt")
        if not os.access(opt, os.X_OK):
            self.skipTest(f"no attnc-opt beside {compiler_or_none()}")
        for spec in VARIANTS + VARLEN:
            result = subprocess.run([opt, "-", "--attn-lower-to-cpu-pipeline", "-o", os.devnull], input=spec.mlir(),
                                    capture_output=True, text=True)
            self.assertEqual(result.returncode, 0, f"{spec.key}: {result.stderr}")

    @unittest.skipUnless(compiler_or_none(), "attnc-compile not found (set ATTNC_COMPILER)")
    def test_every_variant_compiles_to_its_manifest(self):
        """The generated graphs are valid, and check_manifest accepts what the compiler wrote."""
        from attnc.compiler import compile_spec
        compiler = compiler_or_none()
        with tempfile.TemporaryDirectory() as tmp:
            for spec in VARIANTS:
                path = compile_spec(compiler, spec, os.path.join(tmp, spec.key))
                with open(os.path.join(path, "manifest.json")) as f:
                    manifest = json.load(f)
                spec.check_manifest(manifest, path)
                self.assertEqual(manifest["entry"], spec.function_name)
                self.assertEqual(manifest["problem"].get("page_size"), spec.page_size)
                # The runtime chooses a paged kernel's or a decode step's
                # split count at each launch.
                if spec.page_size is not None or spec.decode_step:
                    self.assertEqual(manifest["split_kv"]["splits"], 0, spec.key)
                    self.assertIn({"kind": "i32", "value": "kv_splits"}, manifest["params"])
                self.assertTrue(os.path.isfile(os.path.join(path, "graph.mlir")))

    @unittest.skipUnless(compiler_or_none(), "attnc-compile not found (set ATTNC_COMPILER)")
    def test_varlen_variants_compile_to_their_manifest(self):
        """A varlen graph compiles to a kernel of the varlen contract
        (docs/Runtime.md): problem.varlen, grid x = ceil_div(seq_q, block_m)
        + batch, y = heads_q, z = one (times kv_splits), O and the offsets
        as pointers, the i32 seq_q, seq_k and batch. Above D = 64 the keys
        are split at launch (attn-split-kv's dynamic-rows=auto): the combine
        kernel's grid z is one, and it reads cu_seqlens_q and the batch."""
        from attnc.compiler import compile_spec
        compiler = compiler_or_none()
        with tempfile.TemporaryDirectory() as tmp:
            for spec in VARLEN:
                path = compile_spec(compiler, spec, os.path.join(tmp, spec.key))
                with open(os.path.join(path, "manifest.json")) as f:
                    manifest = json.load(f)
                spec.check_manifest(manifest, path)
                self.assertIs(manifest["problem"].get("varlen"), True, spec.key)
                x, y, z = manifest["grid"]
                self.assertEqual((x["product"], x.get("plus")), (["seq_q"], ["batch"]), spec.key)
                split = spec.head_dim > 64
                self.assertEqual(y, {"product": ["heads_q"]}, spec.key)
                self.assertEqual(z, {"product": ["one", "kv_splits"] if split else ["one"]}, spec.key)
                params = manifest["params"]
                for param in ({"kind": "pointer", "tensor": "o"}, {"kind": "pointer", "tensor": "cu_seqlens_q"},
                              {"kind": "pointer", "tensor": "cu_seqlens_k"}, {"kind": "i32", "value": "batch"}):
                    self.assertIn(param, params, spec.key)
                if not split:
                    self.assertNotIn("split_kv", manifest, spec.key)
                    continue
                combine = manifest["split_kv"]["combine"]
                self.assertEqual(manifest["split_kv"]["splits"], 0, spec.key)
                self.assertEqual(combine["grid"][2], {"product": ["one"]}, spec.key)
                for param in ({"kind": "pointer", "tensor": "cu_seqlens_q"}, {"kind": "i32", "value": "batch"}):
                    self.assertIn(param, combine["params"], spec.key)


class ManifestCheckTest(unittest.TestCase):
    def test_matching_manifest_passes(self):
        for spec in VARIANTS:
            spec.check_manifest(manifest_for(spec), "m.json")

    def test_f32_softcap_matches(self):
        spec = VARIANTS[4]
        manifest = manifest_for(spec)
        manifest["options"]["softcap"] = 1.00000001e-01  # as the compiler prints the f32
        spec.check_manifest(manifest, "m.json")

    def test_mismatch_names_the_field_and_file(self):
        spec = VARIANTS[1]
        for path, value in ((("problem", "mask"), "none"), (("options", "heads_kv"), 8),
                            (("problem", "has_lse"), False), (("problem", "layout"), "bshd")):
            manifest = manifest_for(spec)
            manifest[path[0]][path[1]] = value
            with self.assertRaisesRegex(AttncError, rf"m.json: {'.'.join(path)} is {value!r} but kernel"):
                spec.check_manifest(manifest, "m.json")

    def test_page_size_must_match(self):
        """A paged spec needs its page size in the manifest; a dense spec a manifest without one."""
        paged, dense = PAGED[0], VARIANTS[0]
        manifest = manifest_for(paged)
        manifest["problem"]["page_size"] = 32
        with self.assertRaisesRegex(AttncError, "m.json: problem.page_size is 32 but kernel .*-p16-lse needs 16"):
            paged.check_manifest(manifest, "m.json")
        del manifest["problem"]["page_size"]
        with self.assertRaisesRegex(AttncError, "m.json: problem.page_size is None but kernel .* needs 16"):
            paged.check_manifest(manifest, "m.json")
        manifest = manifest_for(dense)
        manifest["problem"]["page_size"] = 16
        with self.assertRaisesRegex(AttncError, "m.json: problem.page_size is 16 but kernel .* needs None"):
            dense.check_manifest(manifest, "m.json")

    def test_varlen_must_match(self):
        """A varlen spec needs problem.varlen in the manifest; a dense spec a
        manifest without it (or with it false)."""
        varlen, dense = VARLEN[1], VARIANTS[0]
        manifest = manifest_for(varlen)
        self.assertIs(manifest["problem"]["varlen"], True)
        varlen.check_manifest(manifest, "m.json")
        del manifest["problem"]["varlen"]
        with self.assertRaisesRegex(AttncError, "m.json: problem.varlen is False but kernel .*-varlen needs True"):
            varlen.check_manifest(manifest, "m.json")
        manifest = manifest_for(dense)
        manifest["problem"]["varlen"] = False
        dense.check_manifest(manifest, "m.json")
        manifest["problem"]["varlen"] = True
        with self.assertRaisesRegex(AttncError, "m.json: problem.varlen is True but kernel .* needs False"):
            dense.check_manifest(manifest, "m.json")

    def test_compiled_in_scale_is_stale(self):
        spec = VARIANTS[0]
        with self.assertRaisesRegex(AttncError, "scale compiled in"):
            spec.check_manifest(manifest_for(spec, scale_param=False), "m.json")


class PrecompileTest(unittest.TestCase):
    def test_bad_key_fails_with_message(self):
        result = subprocess.run(["python3", "-m", "attnc.precompile", "--out", "/nonexistent", "nokey"],
                                cwd=os.path.join(os.path.dirname(__file__), ".."), capture_output=True,
                                text=True)
        self.assertEqual(result.returncode, 1)
        self.assertIn("'nokey' is not a kernel key", result.stderr)


if __name__ == "__main__":
    unittest.main()
