"""scaled_dot_product_attention and MultiheadAttention against torch: values, gradients (of the
inputs and of the weights), masks, layouts, state dicts loading both ways, errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import tensorlab as tl
from tests.oracle import assert_same, check_op


def F(lib):  # noqa: N802 - reads like the usual ``F.``
    return lib.nn.functional


def randn(*shape: int, seed: int = 0, dtype: str = "float64") -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


CAUSAL_BOOL = np.tril(np.ones((3, 4), dtype=bool))


# --- scaled_dot_product_attention ------------------------------------------------------------
@pytest.mark.parametrize(
    "options",
    [{}, {"is_causal": True}, {"scale": 0.3}, {"attn_mask": CAUSAL_BOOL}, {"attn_mask": randn(3, 4, seed=9)}, {"attn_mask": np.ones((2, 1, 3, 4), dtype=bool)}],
    ids=["plain", "causal", "scale", "bool-mask", "float-mask", "broadcast-mask"],
)
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_sdpa_matches_torch(options, dtype):
    q, k, v = randn(2, 2, 3, 5, dtype=dtype), randn(2, 2, 4, 5, seed=1, dtype=dtype), randn(2, 2, 4, 6, seed=2, dtype=dtype)
    mask = options.get("attn_mask")
    rest = {name: value for name, value in options.items() if name != "attn_mask"}
    if mask is None:
        check_op(lambda lib, q, k, v: F(lib).scaled_dot_product_attention(q, k, v, **rest), q, k, v)
    else:
        mask = mask.astype(dtype) if mask.dtype.kind == "f" else mask
        check_op(lambda lib, q, k, v, m: F(lib).scaled_dot_product_attention(q, k, v, attn_mask=m, **rest), q, k, v, mask, grad=[True, True, True, False])


def test_sdpa_errors():
    q = randn(2, 3, 4)
    check_op(lambda lib, q, m: F(lib).scaled_dot_product_attention(q, q, q, attn_mask=m, is_causal=True), q, np.ones((3, 3), dtype=bool), match="attn_mask should not be set")
    check_op(lambda lib, q, k: F(lib).scaled_dot_product_attention(q, k, q), q.astype("float32"), q, same_message=True)
    check_op(lambda lib, q, k: F(lib).scaled_dot_product_attention(q, k, k), q, randn(2, 3, 5))


@settings(max_examples=25, deadline=None)
@given(batch=st.integers(1, 2), length=st.integers(1, 4), source=st.integers(1, 4), dim=st.integers(1, 4), causal=st.booleans(), seed=st.integers(0, 2**16))
def test_random_sdpa(batch, length, source, dim, causal, seed):
    q, k, v = randn(batch, length, dim, seed=seed), randn(batch, source, dim, seed=seed + 1), randn(batch, source, dim, seed=seed + 2)
    if causal and length > source:
        causal = False  # rows with every key masked are nan in both libraries: no gradient to compare
    check_op(lambda lib, q, k, v: F(lib).scaled_dot_product_attention(q, k, v, is_causal=causal), q, k, v)


# --- MultiheadAttention ----------------------------------------------------------------------
def twin_modules(embed_dim: int = 6, num_heads: int = 2, **options):
    """A torch and a tensorlab MultiheadAttention holding the same (torch-initialised) weights."""
    torch.manual_seed(0)
    module_t = torch.nn.MultiheadAttention(embed_dim, num_heads, dtype=torch.float64, **options)
    with torch.no_grad():
        for p in module_t.parameters():
            p.add_(torch.randn_like(p) * 0.1)  # non-zero biases too
    module_m = tl.nn.MultiheadAttention(embed_dim, num_heads, dtype=tl.float64, **options)
    module_m.load_state_dict({name: tl.tensor(value.numpy()) for name, value in module_t.state_dict().items()})
    return module_t, module_m


def test_state_dicts_load_both_ways_and_repr():
    module_t, module_m = twin_modules()
    assert repr(module_m) == repr(module_t)
    assert list(module_m.state_dict()) == list(module_t.state_dict())
    for name, value in module_m.state_dict().items():
        assert tuple(value.shape) == tuple(module_t.state_dict()[name].shape)
    fresh_t = torch.nn.MultiheadAttention(6, 2, dtype=torch.float64)
    fresh_t.load_state_dict({name: torch.tensor(value.numpy()) for name, value in module_m.state_dict().items()})
    for name, value in fresh_t.state_dict().items():
        np.testing.assert_array_equal(value.numpy(), module_t.state_dict()[name].numpy())


@pytest.mark.parametrize(
    ("options", "call"),
    [
        ({}, {}),
        ({"batch_first": True}, {}),
        ({}, {"average_attn_weights": False}),
        ({}, {"need_weights": False}),
        ({"bias": False}, {}),
        ({}, {"attn_mask": np.triu(np.ones((3, 4), dtype=bool), k=1)}),
        ({}, {"attn_mask": randn(3, 4, seed=5)}),
        ({}, {"key_padding_mask": np.array([[False, False, True, True], [False, False, False, True]])}),
        ({}, {"attn_mask": np.triu(np.ones((3, 4), dtype=bool), k=1), "is_causal": True}),
    ],
    ids=["plain", "batch-first", "per-head", "no-weights", "no-bias", "bool-mask", "float-mask", "padding", "causal-hint"],
)
def test_multihead_attention_matches_torch(options, call):
    module_t, module_m = twin_modules(**options)
    shape_q, shape_kv = ((2, 3, 6), (2, 4, 6)) if options.get("batch_first") else ((3, 2, 6), (4, 2, 6))
    arrays = {name: value for name, value in call.items() if isinstance(value, np.ndarray)}
    flags = {name: value for name, value in call.items() if not isinstance(value, np.ndarray)}
    names = list(arrays)

    def run(lib, q, k, v, *masks):
        module = module_t if lib is torch else module_m
        return module(q, k, v, **dict(zip(names, masks, strict=True)), **flags)

    check_op(run, randn(*shape_q), randn(*shape_kv, seed=1), randn(*shape_kv, seed=2), *arrays.values(), grad=[True] * 3 + [False] * len(arrays))
    for (name, p_t), (_, p_m) in zip(module_t.named_parameters(), module_m.named_parameters(), strict=True):
        assert_same(p_t.grad, p_m.grad, where=f"grad of {name}")


def test_unbatched_input():
    module_t, module_m = twin_modules()
    check_op(lambda lib, x: (module_t if lib is torch else module_m)(x, x, x), randn(3, 6))


def test_multihead_attention_errors():
    for lib in (torch, tl):
        with pytest.raises(AssertionError):
            lib.nn.MultiheadAttention(5, 2)
        with pytest.raises(RuntimeError, match="Need attn_mask if specifying the is_causal hint"):
            x = lib.ones(3, 1, 4)
            lib.nn.MultiheadAttention(4, 2)(x, x, x, is_causal=True)


@settings(max_examples=10, deadline=None)
@given(heads=st.sampled_from([1, 2, 3]), length=st.integers(1, 4), source=st.integers(1, 4), batch=st.integers(1, 2), batch_first=st.booleans(), seed=st.integers(0, 2**16))
def test_random_multihead_attention(heads, length, source, batch, batch_first, seed):
    module_t, module_m = twin_modules(6, heads, batch_first=batch_first)
    order = (lambda steps: (batch, steps, 6)) if batch_first else (lambda steps: (steps, batch, 6))
    check_op(lambda lib, q, kv: (module_t if lib is torch else module_m)(q, kv, kv), randn(*order(length), seed=seed), randn(*order(source), seed=seed + 1))


def test_dropout_applies_to_the_returned_weights_in_training_only():
    """As in torch: in training the weights returned are the dropped ones (rows no longer sum to
    1); in eval mode dropout is off and the module matches torch exactly."""
    module_t, module_m = twin_modules(dropout=0.5)
    x = tl.tensor(randn(4, 2, 6))
    tl.manual_seed(0)
    _, weights = module_m(x, x, x, average_attn_weights=False)
    values = weights.detach().numpy()
    assert np.any(values == 0) and not np.allclose(values.sum(-1), 1.0)
    module_t.eval()
    module_m.eval()
    check_op(lambda lib, x: (module_t if lib is torch else module_m)(x, x, x), randn(4, 2, 6))
