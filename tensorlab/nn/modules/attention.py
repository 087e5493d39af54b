"""MultiheadAttention: project queries, keys and values, attend in several heads, project back.

The three input projections are one (3E, E) matrix, ``in_proj_weight`` (rows 0..E-1 for the
queries, then keys, then values), and one ``in_proj_bias``: the layout of torch's state dict,
so weights load both ways. Each head attends over its own E / num_heads slice.
"""

from __future__ import annotations

import math
from typing import Any

from ..._creation import empty, zeros
from ..._tensor import Tensor
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .linear import Linear
from .module import Module

__all__ = ["MultiheadAttention"]


class NonDynamicallyQuantizableLinear(Linear):
    """A Linear under the name torch gives MultiheadAttention's output projection (so reprs match)."""


class MultiheadAttention(Module):
    """Attention with ``num_heads`` heads over ``embed_dim`` features.

    Inputs are (L, N, E) (or (N, L, E) with ``batch_first``, or unbatched (L, E)). The mask
    convention is the opposite of F.scaled_dot_product_attention's: here True means *masked out*.
    Returns (output, weights), the weights averaged over heads unless ``average_attn_weights=False``.
    """

    def __init__(
        self,
        embed_dim: int,
        num_heads: int,
        dropout: float = 0.0,
        bias: bool = True,
        add_bias_kv: bool = False,
        add_zero_attn: bool = False,
        kdim: int | None = None,
        vdim: int | None = None,
        batch_first: bool = False,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(f"embed_dim and num_heads must be greater than 0, got embed_dim={embed_dim} and num_heads={num_heads} instead")
        if embed_dim % num_heads != 0:
            raise AssertionError("embed_dim must be divisible by num_heads")
        if add_bias_kv or add_zero_attn or (kdim not in (None, embed_dim)) or (vdim not in (None, embed_dim)):
            raise NotImplementedError("tensorlab's MultiheadAttention has no add_bias_kv, add_zero_attn, kdim or vdim")
        self.embed_dim, self.kdim, self.vdim = embed_dim, embed_dim, embed_dim
        self.num_heads, self.dropout, self.batch_first = num_heads, dropout, batch_first
        self.head_dim = embed_dim // num_heads
        self.in_proj_weight = Parameter(empty(3 * embed_dim, embed_dim, dtype=dtype))
        self.register_parameter("q_proj_weight", None)
        self.register_parameter("k_proj_weight", None)
        self.register_parameter("v_proj_weight", None)
        if bias:
            self.in_proj_bias = Parameter(empty(3 * embed_dim, dtype=dtype))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias, dtype=dtype)
        self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _reset_parameters(self) -> None:
        init.xavier_uniform_(self.in_proj_weight)
        if self.in_proj_bias is not None:
            init.constant_(self.in_proj_bias, 0.0)
            init.constant_(self.out_proj.bias, 0.0)

    def _additive(self, mask: Tensor | None, like: Tensor) -> Tensor | None:
        """True (masked out) -> -inf, False -> 0; a float mask is added as it is."""
        if mask is None:
            return None
        if mask.dtype.name == "bool":
            return zeros(tuple(mask.shape), dtype=like.dtype).masked_fill(mask, float("-inf"))
        return mask

    def forward(
        self,
        query: Tensor,
        key: Tensor,
        value: Tensor,
        key_padding_mask: Tensor | None = None,
        need_weights: bool = True,
        attn_mask: Tensor | None = None,
        average_attn_weights: bool = True,
        is_causal: bool = False,
    ) -> tuple[Tensor, Tensor | None]:
        if is_causal and attn_mask is None:
            raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the Transformer module method `generate_square_subsequent_mask` to create this mask.")
        batched = query.ndim == 3
        if not batched:
            query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
            key_padding_mask = None if key_padding_mask is None else key_padding_mask.unsqueeze(0)
        elif self.batch_first:
            query, key, value = query.transpose(0, 1), key.transpose(0, 1), value.transpose(0, 1)
        # from here on: (L, N, E)
        length, batch, embed = query.shape
        source = key.shape[0]
        heads, head_dim = self.num_heads, self.head_dim
        w_q, w_k, w_v = self.in_proj_weight.chunk(3)
        b_q, b_k, b_v = self.in_proj_bias.chunk(3) if self.in_proj_bias is not None else (None, None, None)

        def split_heads(x: Tensor, steps: int) -> Tensor:  # (steps, N, E) -> (N, H, steps, D)
            return x.reshape(steps, batch, heads, head_dim).permute(1, 2, 0, 3)

        q = split_heads(F.linear(query, w_q, b_q), length)
        k = split_heads(F.linear(key, w_k, b_k), source)
        v = split_heads(F.linear(value, w_v, b_v), source)
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(head_dim)  # (N, H, L, S)
        mask = self._additive(attn_mask, query)
        if mask is not None:
            scores = scores + (mask.reshape(batch, heads, length, source) if mask.ndim == 3 else mask)
        padding = self._additive(key_padding_mask, query)
        if padding is not None:
            scores = scores + padding.reshape(batch, 1, 1, source)
        weights = F.dropout(scores.softmax(-1), self.dropout, self.training)  # returned after dropout, as torch does
        attended = weights @ v  # (N, H, L, D)
        output = self.out_proj(attended.permute(2, 0, 1, 3).reshape(length, batch, embed))
        if not batched:
            output = output.squeeze(1)
        elif self.batch_first:
            output = output.transpose(0, 1)
        if not need_weights:
            return output, None
        returned = weights.mean(dim=1) if average_attn_weights else weights
        return output, returned if batched else returned.squeeze(0)
