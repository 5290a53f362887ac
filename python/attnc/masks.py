"""attnc.attention's mask arguments (causal, causal_alignment, window, softcap)
mapped to what a kernel is compiled for: KernelSpec's mask, window and softcap."""
import math

from .errors import argument_error
from .spec import UNBOUNDED

_CALL = "attnc.attention"
_ALIGNMENTS = ("top_left", "bottom_right")
# (causal, causal_alignment, window, softcap) -> (mask, window, softcap)
_masks = {}


def _window_side(side, value):
    """A window side: an int >= 0, or None / -1 for unbounded (FlashAttention's -1)."""
    if value is None or value == -1:
        return UNBOUNDED
    if type(value) is not int or not 0 <= value <= UNBOUNDED:
        raise argument_error(_CALL, f"window {side} is {value!r}; expected an int >= 0, -1 or None (unbounded)")
    return value


def resolve_mask(causal, causal_alignment, window, softcap):
    """The kernel's (mask, window, softcap) for attention()'s mask arguments,
    memoized (the eager path calls it on every call)."""
    if causal is not True and causal is not False:  # before the lookup: 1 == True
        raise argument_error(_CALL, f"causal is {causal!r}; expected a bool", TypeError)
    cache_key = (causal, causal_alignment, window if window is None else tuple(window), softcap)
    resolved = _masks.get(cache_key)
    if resolved is None:
        resolved = _masks[cache_key] = resolve_mask_uncached(causal, causal_alignment, window, softcap)
    return resolved


def resolve_mask_uncached(causal, causal_alignment, window, softcap):
    """resolve_mask without the memo (pure, so torch.compile can trace it)."""
    if causal is not True and causal is not False:
        raise argument_error(_CALL, f"causal is {causal!r}; expected a bool", TypeError)
    if causal_alignment not in _ALIGNMENTS:
        raise argument_error(_CALL, f"causal_alignment is {causal_alignment!r}; expected "
                             f"{' or '.join(map(repr, _ALIGNMENTS))}")
    if window is not None:
        if len(tuple(window)) != 2:
            raise argument_error(_CALL, f"window is {window!r}; expected (left, right)")
        window = (_window_side("left", window[0]), _window_side("right", window[1]))
    mask = "none"
    if causal:
        mask = "causal" if causal_alignment == "top_left" else "causal_bottom_right"
    elif window is not None and causal_alignment == "bottom_right":
        # attnc's kernels put a non-causal window on the top-left diagonal;
        # a bottom-right window that ends at the diagonal is causal anyway.
        if window[1] != 0:
            raise argument_error(_CALL, f"window is {window!r} with causal=False and causal_alignment="
                                 "'bottom_right'; attnc supports a non-causal window only on the top-left "
                                 "diagonal (or right = 0, which is causal)")
        mask = "causal_bottom_right"
    if softcap is not None:
        if softcap == 0:
            softcap = None  # FlashAttention's "no softcap"
        elif not (isinstance(softcap, (int, float)) and 0 < softcap < math.inf):
            raise argument_error(_CALL, f"softcap is {softcap!r}; expected a positive finite float, 0 or None")
        else:
            softcap = float(softcap)
    return mask, window, softcap
