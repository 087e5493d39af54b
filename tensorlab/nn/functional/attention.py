"""scaled_dot_product_attention: softmax(Q K^T * scale + mask) V, the core of a transformer.

Built from tensor ops (matmul, softmax, masked_fill), so autograd differentiates it with no
backward of its own: read it as the formula.
"""

from __future__ import annotations

import math

from ..._creation import ones, zeros
from ..._tensor import Tensor
from .dropout import dropout

__all__ = ["scaled_dot_product_attention"]


def attention_bias(mask: Tensor | None, is_causal: bool, length: int, source_length: int, like: Tensor) -> Tensor | None:
    """The additive form of a mask: a bool mask (True = may attend) becomes 0 / -inf; a float
    mask is added as it is; ``is_causal`` forbids attending to later positions."""
    if is_causal:
        mask = ones(length, source_length).tril().bool()
    if mask is None:
        return None
    if mask.dtype.name == "bool":
        return zeros(tuple(mask.shape), dtype=like.dtype).masked_fill(mask.logical_not(), float("-inf"))
    return mask


def _c_type_name(t: Tensor) -> str:
    """How torch's C++ checks name a dtype: float, double, long ..."""
    return {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int", "int32": "int"}.get(t.dtype.name, t.dtype.name)


def scaled_dot_product_attention(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    attn_mask: Tensor | None = None,
    dropout_p: float = 0.0,
    is_causal: bool = False,
    scale: float | None = None,
    enable_gqa: bool = False,
) -> Tensor:
    """(..., L, E) queries attend over (..., S, E) keys and return the weighted (..., S, Ev)
    values. ``scale`` defaults to 1/sqrt(E), which keeps the scores' variance near 1 so the
    softmax does not saturate as E grows."""
    if enable_gqa:
        raise NotImplementedError("tensorlab's scaled_dot_product_attention has no grouped-query attention")
    if is_causal and attn_mask is not None:
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True")
    if query.dtype is not key.dtype or query.dtype is not value.dtype:
        q_name, k_name, v_name = (_c_type_name(t) for t in (query, key, value))
        raise RuntimeError(
            "Expected query, key, and value to have the same dtype, but got query.dtype: "
            f"{q_name} key.dtype: {k_name} and value.dtype: {v_name} instead."
        )
    factor = 1.0 / math.sqrt(query.shape[-1]) if scale is None else scale
    scores = (query @ key.transpose(-2, -1)) * factor
    bias = attention_bias(attn_mask, is_causal, query.shape[-2], key.shape[-2], query)
    if bias is not None:
        scores = scores + bias
    weights = scores.softmax(-1)
    if dropout_p > 0.0:
        weights = dropout(weights, dropout_p, training=True)
    return weights @ value
