"""KernelSpec: the shape class of an attention kernel, its cache key and its MLIR.

One kernel serves every batch size, sequence length and softmax scale (those
are launch arguments); everything else it is compiled for is a field here.
"""
import dataclasses
import hashlib
import json
import re
from typing import Optional, Tuple

from .errors import AttncError, argument_error

DTYPES = ("bf16", "f16")
LAYOUTS = ("bhsd", "bshd")
MASKS = ("none", "causal", "causal_bottom_right")
# Tokens per page of a paged KV cache the kernels take (problem.page_size).
PAGE_SIZES = (16, 32, 64, 128, 256)
# The rows per kv head of a decode step that the GPU pipeline splits:
# attn-split-kv splits a step of at most 128 static rows (its max-rows
# default); pack-gqa=auto packs any. A decode-step kernel (query_tokens) is compiled for up
# to BASE_QUERY_TOKENS tokens in any class, and for as many as pack into
# DECODE_STEP_ROWS where the pipeline packs them (max_query_tokens): each
# distinct token count is a kernel of its own, and past 16 tokens only
# packing (K and V read once per kv head, not per query head) repays it.
# Packed rows are token-major, and a kernel's boxes of them hold whole
# tokens of a warpgroup's 64 rows: more than one token packs where g
# divides WARPGROUP_ROWS.
DECODE_STEP_ROWS = 128
BASE_QUERY_TOKENS = 16
WARPGROUP_ROWS = 64
# The largest window side the op accepts: "unbounded" in practice.
UNBOUNDED = 2**31 - 1
_OPTION_NAME = re.compile(r"^[a-z][a-z0-9-]*$")
_CALL = "attnc.KernelSpec"


def _softcap_text(cap):
    """A positive float as key text: its repr, which round-trips exactly, with
    a negative exponent's "e-" spelled "em" (keys are split on "-"): 30.0,
    0.1, 1em05 for 1e-05."""
    return repr(cap).replace("e-", "em")


def _parse_softcap(text):
    """The float _softcap_text wrote `text` for."""
    return float(text.replace("em", "e-"))


def _same_f32(a, b):
    """Whether two floats agree to float32 precision (the manifest prints f32 attributes)."""
    return (isinstance(a, float) and isinstance(b, float)
            and abs(a - b) <= 1e-6 * max(abs(a), abs(b)))


def max_query_tokens(heads_q, heads_kv):
    """The most query tokens per sequence a decode-step kernel (query_tokens)
    of this class is compiled for: BASE_QUERY_TOKENS, or in GQA whose g =
    heads_q / heads_kv query heads of a kv head attn-pack-gqa packs into
    g * Sq token-major rows (g dividing WARPGROUP_ROWS), as many as keep
    those within DECODE_STEP_ROWS if that is more (32 tokens at g = 4, 64
    at g = 2)."""
    group = heads_q // heads_kv
    if group < 2 or WARPGROUP_ROWS % group != 0:
        return BASE_QUERY_TOKENS
    return max(BASE_QUERY_TOKENS, DECODE_STEP_ROWS // group)


@dataclasses.dataclass(frozen=True)
class KernelSpec:
    """What an attnc kernel is compiled for.

    dtype: "bf16" or "f16"; heads and head dims as in `attn.attention`; mask:
    "none", "causal" (top-left diagonal) or "causal_bottom_right"; window:
    (left, right) around the mask's diagonal or None; softcap: a positive
    float or None; layout: "bhsd" or "bshd" (memory order of q, k, v, o);
    lse: whether the kernel writes the log-sum-exp; options: attnc-compile
    pipeline options as sorted (name, value) string pairs; page_size: None
    for dense K and V, else the tokens per page (a power of two from 16 to
    256) of a paged KV cache: K and V are page pools [num_pages, page_size,
    heads_kv, head_dim] read through a block table and per-sequence cache
    lengths, and the kv split count is chosen at launch (layout then
    describes q and o only); varlen: whether the kernel computes a
    variable-length batch (FlashAttention's varlen form): q, k, v and o pack
    the batch's sequences without padding in a batch of 1, and the int32
    offsets cu_seqlens_q and cu_seqlens_k [B + 1] delimit them (masks apply
    per sequence); above D = 64 its keys are split at a count chosen at
    launch, as a kernel of any Nq's are. Not with page_size. query_tokens: None for a kernel of any
    number of query tokens per sequence; n (1 to max_query_tokens(heads_q,
    heads_kv): 16, or in GQA 128 // g if more where g divides 64) for a
    decode step of n query tokens per sequence (Sq = n in its graph; the
    key's ``-q<n>``): one token, or a speculative step's few, for which the
    pipeline takes 64-row tiles (128 for more packed rows), packs the query
    heads of each kv head into one tile's rows, token-major (masked too, in
    either layout; more than one token where g divides 64) and, while the
    packed rows are at most 128, splits the keys
    across CTAs at a count the runtime chooses at each launch
    (flash-decoding). Not with varlen.
    """
    dtype: str
    heads_q: int
    heads_kv: int
    head_dim: int
    head_dim_v: int
    mask: str = "none"
    window: Optional[Tuple[int, int]] = None
    softcap: Optional[float] = None
    layout: str = "bhsd"
    lse: bool = False
    options: Tuple[Tuple[str, str], ...] = ()
    page_size: Optional[int] = None
    varlen: bool = False
    query_tokens: Optional[int] = None

    def __post_init__(self):
        def bad(message):
            return argument_error(_CALL, message)
        if self.dtype not in DTYPES:
            raise bad(f"dtype is {self.dtype!r}; expected one of {', '.join(DTYPES)}")
        if self.layout not in LAYOUTS:
            raise bad(f"layout is {self.layout!r}; expected one of {', '.join(LAYOUTS)}")
        if self.mask not in MASKS:
            raise bad(f"mask is {self.mask!r}; expected one of {', '.join(MASKS)}")
        for name in ("heads_q", "heads_kv", "head_dim", "head_dim_v"):
            value = getattr(self, name)
            if type(value) is not int or value < 1:
                raise bad(f"{name} is {value!r}; expected a positive int")
        if self.heads_q % self.heads_kv:
            raise bad(f"heads_q ({self.heads_q}) is not a multiple of heads_kv ({self.heads_kv})")
        if self.window is not None:
            window = tuple(self.window)
            if len(window) != 2 or any(type(s) is not int or not 0 <= s <= UNBOUNDED for s in window):
                raise bad(f"window is {self.window!r}; expected (left, right) ints in 0..{UNBOUNDED}")
            # A causal mask already hides everything right of the diagonal.
            if self.mask != "none":
                window = (window[0], 0)
            object.__setattr__(self, "window", window)
        if self.softcap is not None:
            cap = float(self.softcap)
            if not 0.0 < cap < float("inf"):
                raise bad(f"softcap is {self.softcap!r}; expected a positive finite float or None")
            object.__setattr__(self, "softcap", cap)
        if self.page_size is not None and (type(self.page_size) is not int or self.page_size not in PAGE_SIZES):
            raise bad(f"page_size is {self.page_size!r}; expected None (a dense KV cache) or a power of two "
                      f"from {PAGE_SIZES[0]} to {PAGE_SIZES[-1]} (tokens per page)")
        if self.varlen is not True and self.varlen is not False:
            raise bad(f"varlen is {self.varlen!r}; expected a bool")
        limit = max_query_tokens(self.heads_q, self.heads_kv)
        if self.query_tokens is not None and (type(self.query_tokens) is not int
                                              or not 1 <= self.query_tokens <= limit):
            raise bad(f"query_tokens is {self.query_tokens!r}; expected None (any number of query tokens) or an "
                      f"int from 1 to {limit} (a decode step's tokens per sequence: {self.heads_q} query heads "
                      f"over {self.heads_kv} kv heads)")
        if self.varlen and self.decode_step:
            raise bad(f"varlen is True with query_tokens {self.query_tokens}; a varlen batch's queries are its "
                      "packed tokens, not a fixed number per sequence")
        if self.varlen and self.page_size is not None:
            raise bad(f"varlen is True with page_size {self.page_size}; attnc has no varlen kernel over a paged KV "
                      "cache")
        options = tuple(sorted((str(n), str(v)) for n, v in self.options))
        for name, _ in options:
            if not _OPTION_NAME.match(name):
                raise bad(f"option name {name!r} is not an attnc-compile option name")
        object.__setattr__(self, "options", options)

    @property
    def decode_step(self):
        """Whether the kernel is compiled for a decode step's query tokens (query_tokens)."""
        return self.query_tokens is not None

    @property
    def key(self):
        """A readable, file-name-safe identity, e.g. ``bf16-hq8-hkv2-d128-dv128-bhsd-causal-lse``
        (a paged spec's has ``-p<page_size>`` after the mask's parts: ``...-causal_bottom_right-p16-lse``;
        a varlen spec's ``-varlen`` there: ``...-bshd-causal_bottom_right-varlen-lse``; a decode step's
        ``-q<query_tokens>`` after those: ``...-causal_bottom_right-p16-q1-lse``).

        Two specs have the same key exactly when they are equal. The softmax
        scale is not part of it: kernels take it at launch.
        """
        parts = [self.dtype, f"hq{self.heads_q}", f"hkv{self.heads_kv}", f"d{self.head_dim}",
                 f"dv{self.head_dim_v}", self.layout, self.mask]
        if self.window is not None:
            parts.append(f"w{self.window[0]}x{self.window[1]}")
        if self.softcap is not None:
            parts.append(f"cap{_softcap_text(self.softcap)}")
        if self.page_size is not None:
            parts.append(f"p{self.page_size}")
        if self.varlen:
            parts.append("varlen")
        if self.decode_step:
            parts.append(f"q{self.query_tokens}")
        if self.lse:
            parts.append("lse")
        if self.options:
            digest = hashlib.sha256(json.dumps(self.options).encode()).hexdigest()[:12]
            parts.append(f"o{digest}")
        return "-".join(parts)

    @classmethod
    def from_key(cls, key):
        """The spec whose key is `key` (keys with compile options cannot be parsed back)."""
        fields = {}
        parts = key.split("-")
        try:
            fields["dtype"], hq, hkv, d, dv, fields["layout"], fields["mask"] = parts[:7]
            for name, prefix, text in (("heads_q", "hq", hq), ("heads_kv", "hkv", hkv),
                                       ("head_dim", "d", d), ("head_dim_v", "dv", dv)):
                if not text.startswith(prefix):
                    raise ValueError(text)
                fields[name] = int(text[len(prefix):])
            for part in parts[7:]:
                if part == "lse":
                    fields["lse"] = True
                elif part == "varlen":
                    fields["varlen"] = True
                elif part.startswith("q") and part[1:].isdigit():
                    fields["query_tokens"] = int(part[1:])
                elif part.startswith("w"):
                    left, right = part[1:].split("x")
                    fields["window"] = (int(left), int(right))
                elif part.startswith("cap"):
                    fields["softcap"] = _parse_softcap(part[3:])
                elif part.startswith("p") and part[1:].isdigit():
                    fields["page_size"] = int(part[1:])
                else:
                    raise ValueError(part)
        except ValueError:
            raise argument_error("attnc.KernelSpec.from_key",
                                 f"{key!r} is not a kernel key (e.g. bf16-hq8-hkv2-d128-dv128-bhsd-causal-lse)"
                                 ) from None
        spec = cls(**fields)
        if spec.key != key:
            raise argument_error("attnc.KernelSpec.from_key", f"{key!r} is not canonical; its spec's key is "
                                 f"{spec.key!r}")
        return spec

    @property
    def function_name(self):
        """The MLIR function (and so the PTX kernel) name: the key as an identifier."""
        return "attnc_" + re.sub(r"[^A-Za-z0-9_]", "_", self.key)

    def _tensor_type(self, heads, head_dim, element=None, seq="?"):
        # A varlen batch packs its sequences in a batch of 1.
        batch = 1 if self.varlen else "?"
        dims = (batch, heads, seq, head_dim) if self.layout == "bhsd" else (batch, seq, heads, head_dim)
        return f"tensor<{'x'.join(map(str, dims))}x{element or self.dtype}>"

    def _pool_type(self, head_dim):
        """A paged KV cache's page pool: [num_pages, page_size, heads_kv, head_dim] whatever the layout."""
        return f"tensor<?x{self.page_size}x{self.heads_kv}x{head_dim}x{self.dtype}>"

    def mlir(self):
        """The `attn.attention` graph this kernel is compiled from, as MLIR text.

        Batch and sequence lengths are dynamic (but a decode step's query
        tokens); heads and head dims static. A
        paged spec's K and V are page pools of a static page size, and its
        function also takes the block table, the cache lengths and the kv
        split count (`%splits`, which the runtime chooses at each launch).
        A varlen spec's q, k, v and o have batch 1 and its function also
        takes the offsets `%cu_seqlens_q` and `%cu_seqlens_k`
        (examples/varlen_prefill_gqa.mlir's form).
        """
        queries = str(self.query_tokens) if self.decode_step else "?"
        q = self._tensor_type(self.heads_q, self.head_dim, seq=queries)
        o = self._tensor_type(self.heads_q, self.head_dim_v, seq=queries)
        if self.page_size is None:
            k = self._tensor_type(self.heads_kv, self.head_dim)
            v = self._tensor_type(self.heads_kv, self.head_dim_v)
        else:
            k, v = self._pool_type(self.head_dim), self._pool_type(self.head_dim_v)
        attrs = []
        if self.mask != "none":
            attrs.append(f"mask = {self.mask}")
        if self.window is not None:
            attrs.append(f"window = [{self.window[0]}, {self.window[1]}]")
        if self.softcap is not None:
            attrs.append(f"softcap = {self.softcap:.9e}")  # MLIR floats need the '.'
        if self.layout != "bhsd":
            attrs.append(f"layout = {self.layout}")
        arguments = f"%q: {q}, %k: {k}, %v: {v}"
        if self.page_size is not None:
            index_types = "tensor<?x?xi32>, tensor<?xi32>"
            arguments += ", %block_table: tensor<?x?xi32>, %cache_lengths: tensor<?xi32>, %splits: index"
            attrs.append(f"kv_splits(%splits) pages(%block_table, %cache_lengths : {index_types})")
        if self.varlen:
            arguments += ", %cu_seqlens_q: tensor<?xi32>, %cu_seqlens_k: tensor<?xi32>"
            attrs.append("varlen(%cu_seqlens_q, %cu_seqlens_k : tensor<?xi32>, tensor<?xi32>)")
        results, names = [o], ["%o"]
        if self.lse:
            results.append(f"tensor<{1 if self.varlen else '?'}x{self.heads_q}x{queries}xf32>")
            names.append("%lse")
        result_types = ", ".join(results)
        signature = result_types if len(results) == 1 else f"({result_types})"
        return (f"// attnc kernel {self.key}\n"
                f"func.func @{self.function_name}({arguments}) -> {signature} {{\n"
                f"  {', '.join(names)} = attn.attention %q, %k, %v {' '.join(attrs)}\n"
                f"      : {q}, {k}, {v} -> {result_types}\n"
                f"  return {', '.join(names)} : {result_types}\n"
                f"}}\n")

    def check_manifest(self, manifest, where):
        """Raises AttncError unless `manifest` (a parsed manifest.json) is a kernel for this spec.

        Catches artifacts compiled for another shape class, from an older
        compiler (a compiled-in scale) or renamed by hand. `where` names it.
        """
        problem = manifest.get("problem", {})
        options = manifest.get("options", {})
        expected = {"problem.dtype": (problem.get("dtype"), self.dtype),
                    "problem.head_dim": (problem.get("head_dim"), self.head_dim),
                    "problem.head_dim_v": (problem.get("head_dim_v"), self.head_dim_v),
                    "problem.layout": (problem.get("layout"), self.layout),
                    "problem.mask": (problem.get("mask"), self.mask),
                    "problem.has_lse": (problem.get("has_lse"), self.lse),
                    "problem.page_size": (problem.get("page_size"), self.page_size),
                    "problem.varlen": (problem.get("varlen", False), self.varlen),
                    "options.heads_q": (options.get("heads_q"), self.heads_q),
                    "options.heads_kv": (options.get("heads_kv"), self.heads_kv),
                    "options.window_left": (options.get("window_left"), self.window and self.window[0]),
                    "options.window_right": (options.get("window_right"), self.window and self.window[1]),
                    "options.softcap": (options.get("softcap"), self.softcap)}
        for name, (got, want) in expected.items():
            if got != want and not _same_f32(got, want):
                raise AttncError("attnc kernel cache", f"{where}: {name} is {got!r} but kernel {self.key} "
                                 f"needs {want!r}; delete the artifact or compile it again")
        if "scale" in options or not any(p.get("kind") == "f32" and p.get("value") == "scale"
                                         for p in manifest.get("params", [])):
            raise AttncError("attnc kernel cache", f"{where}: the kernel has its softmax scale compiled in "
                             "(an older attnc-compile); compile it again")
