"""Layout detection from shapes and strides (no torch needed)."""
import unittest

import helpers  # noqa: F401 - puts the package on sys.path

from attnc.layout import common_layout, physical_order, tensor_layout


def bhsd(b, h, s, d):
    return (b, h, s, d), (h * s * d, s * d, d, 1)


def bshd(b, h, s, d):
    """A [B, S, H, D] buffer seen as [B, H, S, D] (x.transpose(1, 2))."""
    return (b, h, s, d), (s * h * d, d, h * d, 1)


class LayoutTest(unittest.TestCase):
    def test_packed_layouts(self):
        self.assertEqual(tensor_layout(*bhsd(2, 8, 100, 64)), "bhsd")
        self.assertEqual(tensor_layout(*bshd(2, 8, 100, 64)), "bshd")

    def test_slice_of_packed_qkv_is_bshd(self):
        # qkv: [B, S, 3, H, D]; q = qkv[:, :, 0].transpose(1, 2)
        b, s, h, d = 2, 50, 4, 64
        self.assertEqual(tensor_layout((b, h, s, d), (s * 3 * h * d, d, 3 * h * d, 1)), "bshd")

    def test_size_one_dims_are_open(self):
        self.assertIsNone(tensor_layout(*bhsd(2, 1, 100, 64)))
        self.assertIsNone(tensor_layout(*bshd(2, 8, 1, 64)))

    def test_open_tensors_follow_the_others(self):
        decode_q = ("q",) + bshd(2, 8, 1, 64)
        cache_k, cache_v = ("k",) + bshd(2, 2, 500, 64), ("v",) + bshd(2, 2, 500, 64)
        self.assertEqual(common_layout("f", [decode_q, cache_k, cache_v]), "bshd")
        self.assertEqual(common_layout("f", [("q",) + bhsd(1, 1, 1, 64)]), "bhsd")

    def test_disagreement_names_both_tensors(self):
        with self.assertRaisesRegex(ValueError, r"^f: k is stored BSHD \(strides \(6400, 64, 128, 1\)\) "
                                                r"but q is BHSD"):
            common_layout("f", [("q",) + bhsd(2, 2, 50, 64), ("k",) + bshd(2, 2, 50, 64)])

    def test_physical_order(self):
        self.assertEqual(physical_order("bhsd"), (0, 1, 2, 3))
        self.assertEqual(physical_order("bshd"), (0, 2, 1, 3))


if __name__ == "__main__":
    unittest.main()
