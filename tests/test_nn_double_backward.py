"""Second-order gradients through nn.functional, against torch.

For each op: the first gradients with ``create_graph=True`` (for a grad_output ``v`` that is
itself a leaf), then the gradient of a weighted sum of them with respect to every input and ``v``.
A backward computed as NumPy constants would give wrong (usually zero) second derivatives here.
Ops whose backward is marked once-differentiable (pooling) must raise instead; convolution's
backward is made of differentiable ops (unfold, matmul, fold), so its second derivatives are torch's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch
import torch.nn.functional as torch_f
from hypothesis import given
from hypothesis import strategies as st

import tensorlab as tl
import tensorlab.nn.functional as tl_f

ONCE_DIFFERENTIABLE = "trying to differentiate twice a function that was marked with @once_differentiable"


def functional(lib: Any) -> Any:
    return torch_f if lib is torch else tl_f


def second_order(lib: Any, fn: Callable, leaves: list, constants: list, square: bool, seed: int = 0) -> list[np.ndarray]:
    """First gradients of ``fn`` and the second derivatives of a weighted sum of them, as arrays.

    ``square`` squares the output first, so the gradient reaching the op depends on its inputs
    (this exercises differentiating the op's backward with respect to its incoming gradient).
    """
    rng = np.random.default_rng(seed)
    inputs = [lib.tensor(a.copy(), requires_grad=True) for a in leaves]
    fixed = [None if c is None else lib.tensor(c.copy()) for c in constants]
    out = fn(lib, *inputs, *fixed)
    if square:
        out = out * out
    v = lib.tensor(rng.standard_normal(tuple(out.shape)), requires_grad=True)
    firsts = lib.autograd.grad(out, inputs, grad_outputs=v, create_graph=True, allow_unused=True)
    total = sum((g * lib.tensor(rng.standard_normal(tuple(g.shape)))).sum() for g in firsts if g is not None)
    seconds = lib.autograd.grad(total, [*inputs, v], allow_unused=True)
    every = [*firsts, *seconds]
    like = [*inputs, *inputs, v]
    return [np.zeros(tuple(x.shape)) if g is None else g.detach().numpy() for g, x in zip(every, like, strict=True)]


def check_double_backward(fn: Callable, leaves: list, constants: list = (), square: bool = False) -> None:
    """tensorlab's first and second-order gradients equal torch's (float64)."""
    leaves = [np.asarray(a, np.float64) for a in leaves]
    expected = second_order(torch, fn, leaves, list(constants), square)
    got = second_order(tl, fn, leaves, list(constants), square)
    names = [f"first grad {i}" for i in range(len(leaves))] + [f"second grad {i}" for i in range(len(leaves))] + ["second grad of v"]
    for name, e, g in zip(names, expected, got, strict=True):
        np.testing.assert_allclose(g, e, rtol=1e-7, atol=1e-9, err_msg=name)


def randn(*shape: int, seed: int = 1, scale: float = 1.0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape) * scale


def uniform(*shape: int, low: float = 0.05, high: float = 0.95, seed: int = 2) -> np.ndarray:
    return np.random.default_rng(seed).uniform(low, high, shape)


SQUARE = pytest.mark.parametrize("square", [False, True], ids=["plain", "squared"])


# --- activations ---------------------------------------------------------------------------------
@SQUARE
@pytest.mark.parametrize("name", ["relu", "sigmoid", "tanh"])
def test_pointwise_activations(name: str, square: bool) -> None:
    check_double_backward(lambda lib, x: getattr(functional(lib), name)(x), [randn(3, 4)], square=square)


@SQUARE
@pytest.mark.parametrize("approximate", ["none", "tanh"])
def test_gelu(approximate: str, square: bool) -> None:
    check_double_backward(lambda lib, x: functional(lib).gelu(x, approximate=approximate), [randn(3, 4, scale=2)], square=square)


@given(st.lists(st.floats(-6, 6), min_size=1, max_size=6), st.sampled_from(["none", "tanh"]))
def test_gelu_any_values(values: list, approximate: str) -> None:
    check_double_backward(lambda lib, x: functional(lib).gelu(x, approximate=approximate), [np.array(values)])


@SQUARE
@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_softmax_and_log_softmax(name: str, dim: int, square: bool) -> None:
    check_double_backward(lambda lib, x: getattr(functional(lib), name)(x, dim), [randn(3, 4)], square=square)


@given(st.integers(1, 3), st.integers(1, 4), st.integers(0, 2**16))
def test_log_softmax_any_shape(rows: int, columns: int, seed: int) -> None:
    check_double_backward(lambda lib, x: functional(lib).log_softmax(x, -1), [randn(rows, columns, seed=seed)], square=True)


# --- layers --------------------------------------------------------------------------------------
@SQUARE
@pytest.mark.parametrize("bias", [True, False])
def test_linear(bias: bool, square: bool) -> None:
    leaves = [randn(2, 3), randn(4, 3, seed=3)] + ([randn(4, seed=4)] if bias else [])
    check_double_backward(lambda lib, *args: functional(lib).linear(*args), leaves, square=square)


@SQUARE
@pytest.mark.parametrize("normalized", [(4,), (3, 4)])
@pytest.mark.parametrize("affine", ["none", "weight", "both"])
def test_layer_norm(normalized: tuple, affine: str, square: bool) -> None:
    x = randn(2, 3, 4, scale=2)
    extra = {"none": [], "weight": [randn(*normalized, seed=3)], "both": [randn(*normalized, seed=3), randn(*normalized, seed=4)]}[affine]
    check_double_backward(lambda lib, x, *wb: functional(lib).layer_norm(x, normalized, *wb, eps=1e-3), [x, *extra], square=square)


@given(st.integers(1, 3), st.integers(2, 5), st.integers(0, 2**16))
def test_layer_norm_any_shape(rows: int, width: int, seed: int) -> None:
    leaves = [randn(rows, width, seed=seed), randn(width, seed=seed + 1), randn(width, seed=seed + 2)]
    check_double_backward(lambda lib, x, w, b: functional(lib).layer_norm(x, (width,), w, b), leaves, square=True)


@SQUARE
@pytest.mark.parametrize("padding_idx", [None, 1, -1])
def test_embedding(padding_idx: int | None, square: bool) -> None:
    indices = np.array([[0, 2, 1], [2, 2, 4]], np.int64)  # row 2 read three times
    check_double_backward(
        lambda lib, w, i: functional(lib).embedding(i, w, padding_idx=padding_idx), [randn(5, 3)], [indices], square=square
    )


def test_dropout_in_eval_mode_and_pad() -> None:
    check_double_backward(lambda lib, x: functional(lib).dropout(x, 0.5, training=False), [randn(3, 4)], square=True)
    check_double_backward(lambda lib, x: functional(lib).pad(x, (1, 2)), [randn(3, 4)], square=True)


def test_unfold_and_fold_support_double_backward() -> None:
    check_double_backward(lambda lib, x: functional(lib).unfold(x, 2), [randn(1, 2, 3, 3)], square=True)
    check_double_backward(lambda lib, x: functional(lib).fold(x, (3, 3), 2), [randn(1, 8, 4)], square=True)


# --- losses --------------------------------------------------------------------------------------
REDUCTIONS = pytest.mark.parametrize("reduction", ["none", "mean", "sum"])


@SQUARE
@REDUCTIONS
@pytest.mark.parametrize("weighted", [False, True])
def test_nll_loss(reduction: str, weighted: bool, square: bool) -> None:
    target = np.array([0, 3, 1, -100], np.int64)
    weight = uniform(4, seed=5) if weighted else None
    check_double_backward(
        lambda lib, x, t, w: functional(lib).nll_loss(x, t, w, reduction=reduction),
        [randn(4, 4)], [target, weight], square=square,
    )


@SQUARE
@REDUCTIONS
@pytest.mark.parametrize("label_smoothing", [0.0, 0.2])
def test_cross_entropy_class_indices(reduction: str, label_smoothing: float, square: bool) -> None:
    target = np.array([0, 2, 1], np.int64)
    check_double_backward(
        lambda lib, x, t: functional(lib).cross_entropy(x, t, reduction=reduction, label_smoothing=label_smoothing),
        [randn(3, 4)], [target], square=square,
    )


@REDUCTIONS
def test_cross_entropy_class_probabilities(reduction: str) -> None:
    probabilities = uniform(3, 4, seed=6)
    probabilities /= probabilities.sum(1, keepdims=True)
    check_double_backward(
        lambda lib, x, p: functional(lib).cross_entropy(x, p, reduction=reduction), [randn(3, 4), probabilities], square=True
    )


@SQUARE
@REDUCTIONS
@pytest.mark.parametrize("weighted", [False, True])
def test_binary_cross_entropy(reduction: str, weighted: bool, square: bool) -> None:
    weight = uniform(3, 4, seed=7) if weighted else None
    check_double_backward(
        lambda lib, x, t, w: functional(lib).binary_cross_entropy(x, t, w, reduction=reduction),
        [uniform(3, 4), uniform(3, 4, low=0, high=1, seed=8)], [weight], square=square,
    )


@SQUARE
@REDUCTIONS
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("with_pos_weight", [False, True])
def test_binary_cross_entropy_with_logits(reduction: str, weighted: bool, with_pos_weight: bool, square: bool) -> None:
    weight = uniform(3, 4, seed=7) if weighted else None
    pos_weight = uniform(4, low=0.5, high=3, seed=9) if with_pos_weight else None
    check_double_backward(
        lambda lib, x, t, w, p: functional(lib).binary_cross_entropy_with_logits(x, t, w, reduction=reduction, pos_weight=p),
        [randn(3, 4, scale=3), uniform(3, 4, low=0, high=1, seed=8)], [weight, pos_weight], square=square,
    )


@given(st.lists(st.floats(-30, 30), min_size=1, max_size=5), st.floats(0, 1), st.floats(0.2, 4))
def test_binary_cross_entropy_with_logits_any_values(logits: list, target: float, pos_weight: float) -> None:
    n = len(logits)
    check_double_backward(
        lambda lib, x, t, p: functional(lib).binary_cross_entropy_with_logits(x, t, pos_weight=p),
        [np.array(logits), np.full(n, target)], [np.full(n, pos_weight)], square=True,
    )


@SQUARE
@REDUCTIONS
def test_mse_loss(reduction: str, square: bool) -> None:
    check_double_backward(lambda lib, x, t: functional(lib).mse_loss(x, t, reduction=reduction), [randn(3, 4), randn(3, 4, seed=3)], square=square)


# --- convolution: its backward is unfold + matmul + fold, differentiable again ------------------
CONVOLUTIONS = {
    "conv1d": (lambda lib, x, w, b: functional(lib).conv1d(x, w, b, stride=2, padding=1, dilation=2, groups=2),
               [randn(2, 4, 9), randn(6, 2, 3, seed=3), randn(6, seed=4)]),
    "conv1d unbatched 'same'": (lambda lib, x, w: functional(lib).conv1d(x, w, padding="same"), [randn(2, 6), randn(3, 2, 3, seed=3)]),
    "conv2d": (lambda lib, x, w, b: functional(lib).conv2d(x, w, b, stride=(2, 1), padding=(1, 0), dilation=(1, 2)),
               [randn(2, 2, 5, 6), randn(3, 2, 2, 2, seed=3), randn(3, seed=4)]),
    "conv_transpose1d": (lambda lib, x, w, b: functional(lib).conv_transpose1d(x, w, b, stride=2, padding=1, output_padding=1, groups=2, dilation=2),
                         [randn(2, 4, 5), randn(4, 3, 3, seed=3), randn(6, seed=4)]),
    "conv_transpose2d": (lambda lib, x, w: functional(lib).conv_transpose2d(x, w, stride=(2, 1), padding=(0, 1)),
                         [randn(1, 2, 3, 3), randn(2, 3, 2, 2, seed=3)]),
}


@SQUARE
@pytest.mark.parametrize("fast", [True, False], ids=["fast", "plain"])
@pytest.mark.parametrize("name", sorted(CONVOLUTIONS))
def test_convolution_double_backward(name: str, fast: bool, square: bool) -> None:
    fn, leaves = CONVOLUTIONS[name]
    with tl.fast_path(fast):
        check_double_backward(fn, leaves, square=square)


def test_convolution_second_gradient_is_built_from_unfold_and_fold() -> None:
    """The first gradient of conv's input is a fold (col2im) of W^T @ dY, as torch's is a transposed conv."""
    x = tl.tensor(randn(1, 2, 6), requires_grad=True)
    w = tl.tensor(randn(3, 2, 3, seed=3), requires_grad=True)
    (grad_x,) = tl.autograd.grad(tl_f.conv1d(x, w).pow(2).sum(), (x,), create_graph=True)
    assert grad_x.grad_fn.name() == "Col2ImBackward0"


# --- once-differentiable ops: first order works, the second raises ------------------------------
ONCE = {
    "max_pool1d": (lambda f, x: f.max_pool1d(x, 2), [randn(1, 2, 6)]),
    "max_pool2d": (lambda f, x: f.max_pool2d(x, 2), [randn(1, 2, 4, 4)]),
    "avg_pool1d": (lambda f, x: f.avg_pool1d(x, 2), [randn(1, 2, 6)]),
    "avg_pool2d": (lambda f, x: f.avg_pool2d(x, 2), [randn(1, 2, 4, 4)]),
}


@pytest.mark.parametrize("name", sorted(ONCE))
def test_once_differentiable_ops_raise_on_double_backward(name: str) -> None:
    fn, leaves = ONCE[name]
    inputs = [tl.tensor(a, requires_grad=True) for a in leaves]
    out = fn(tl_f, *inputs)
    expected_inputs = [torch.tensor(a, requires_grad=True) for a in leaves]
    expected = torch.autograd.grad((fn(torch_f, *expected_inputs) ** 2).sum(), expected_inputs, create_graph=True)
    firsts = tl.autograd.grad((out * out).sum(), inputs, create_graph=True)
    for e, g in zip(expected, firsts, strict=True):  # first order is still right
        np.testing.assert_allclose(g.detach().numpy(), e.detach().numpy(), rtol=1e-7, atol=1e-9)
    with pytest.raises(RuntimeError, match=ONCE_DIFFERENTIABLE):
        tl.autograd.grad(sum(g.sum() for g in firsts), inputs)


@pytest.mark.parametrize(
    ("name", "node"),
    [("relu", "ThresholdBackwardBackward0"), ("log_softmax", "LogSoftmaxBackwardDataBackward0")],
)
def test_a_first_gradient_records_torchs_backward_op(name: str, node: str) -> None:
    """relu's and log_softmax's backwards are single ops in torch (threshold_backward,
    _log_softmax_backward_data); a gradient made with create_graph shows them as its grad_fn."""
    for lib in (torch, tl):
        x = lib.tensor(randn(3, 4), requires_grad=True)
        out = functional(lib).relu(x) if name == "relu" else functional(lib).log_softmax(x, 1)
        (grad,) = lib.autograd.grad(out, x, lib.ones(3, 4, requires_grad=True), create_graph=True)
        assert grad.grad_fn.name() == node, lib.__name__


def test_relu_backward_masks_even_a_nan_gradient() -> None:
    """threshold_backward selects: a nan arriving where the input was negative becomes 0."""
    grads = []
    for lib in (torch, tl):
        x = lib.tensor([-1.0, 1.0], requires_grad=True)
        functional(lib).relu(x).backward(lib.tensor([float("nan"), float("nan")]))
        grads.append(x.grad)
    np.testing.assert_array_equal(grads[1].numpy(), grads[0].numpy())
