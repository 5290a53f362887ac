"""Which memory layout (BHSD or BSHD) a logical [B, H, S, D] tensor is stored in.

attnc.attention takes tensors in PyTorch's SDPA convention, shape
[batch, heads, seq, head_dim]. A tensor that is a transposed [B, S, H, D]
buffer (FlashAttention's layout, `x.transpose(1, 2)`) has a smaller heads
stride than seq stride: that is the BSHD layout. These functions look only at
shapes and strides, so they work on any tensor type and on plain tuples.
"""
from .errors import argument_error


def tensor_layout(shape, strides):
    """"bhsd", "bshd", or None when a size-1 heads or seq dim leaves it open."""
    heads, seq = shape[1], shape[2]
    if heads == 1 or seq == 1:
        return None
    return "bhsd" if strides[1] >= strides[2] else "bshd"


def common_layout(call, tensors):
    """The layout of (name, shape, strides) triples; they must not disagree.

    Tensors whose layout is open (size-1 heads or seq) follow the others;
    "bhsd" when all are open. Raises ValueError naming both tensors.
    """
    found = None
    for name, shape, strides in tensors:
        layout = tensor_layout(shape, strides)
        if layout is None:
            continue
        if found is None:
            found = (name, layout)
        elif layout != found[1]:
            raise argument_error(call, f"{name} is stored {layout.upper()} (strides {tuple(strides)}) but "
                                 f"{found[0]} is {found[1].upper()}; pass all of q, k, v in one layout")
    return found[1] if found else "bhsd"


def physical_order(layout):
    """The permutation from logical [B, H, S, D] to memory order (its own inverse)."""
    return (0, 1, 2, 3) if layout == "bhsd" else (0, 2, 1, 3)
