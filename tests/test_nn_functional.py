"""nn.functional against torch.nn.functional: forward, backward, dtype and errors."""

from __future__ import annotations

import itertools
import warnings
from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import tensorlab as tl
from tests.oracle import assert_same, check_op, layout, standard_normal

random_nonempty_shapes = st.lists(st.integers(1, 3), max_size=3).map(tuple)
random_shapes = st.lists(st.integers(0, 3), max_size=3).map(tuple)
seeds = st.integers(0, 2**16)

rng = np.random.default_rng(0)


def randn(*shape: int, dtype: str = "float64") -> np.ndarray:
    return rng.standard_normal(shape).astype(dtype)


def F(lib):  # noqa: N802 - reads like the usual ``F.``
    return lib.nn.functional


shapes = st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple)
float_dtypes = st.sampled_from(["float32", "float64"])


# --- activations -----------------------------------------------------------------------------
@given(shape=shapes, dtype=float_dtypes, name=st.sampled_from(["relu", "sigmoid", "tanh"]))
def test_simple_activations(shape, dtype, name):
    check_op(lambda lib, x: getattr(F(lib), name)(x), randn(*shape, dtype=dtype))


@given(shape=shapes, dtype=float_dtypes, approximate=st.sampled_from(["none", "tanh"]))
def test_gelu(shape, dtype, approximate):
    check_op(lambda lib, x: F(lib).gelu(x, approximate=approximate), randn(*shape, dtype=dtype) * 3)


def test_gelu_grad_fn_name_and_bad_approximate():
    assert F(tl).gelu(tl.randn(3, requires_grad=True)).grad_fn.name() == "GeluBackward0"
    check_op(lambda lib, x: F(lib).gelu(x, approximate="fast"), randn(3))


def test_relu_inplace():
    check_op(lambda lib, x: F(lib).relu(x.clone(), inplace=True), randn(3, 4))


@given(shape=shapes, dtype=float_dtypes, data=st.data())
def test_softmax_and_log_softmax(shape, dtype, data):
    dim = data.draw(st.integers(-len(shape), len(shape) - 1))
    x = randn(*shape, dtype=dtype) * 5
    check_op(lambda lib, x: F(lib).softmax(x, dim), x)
    check_op(lambda lib, x: F(lib).log_softmax(x, dim=dim), x)


def test_log_softmax_is_stable_for_large_logits():
    x = np.array([[1000.0, 0.0, -1000.0], [1000.0, 1000.0, 999.0]], dtype="float32")
    out = check_op(lambda lib, x: F(lib).log_softmax(x, 1), x)
    assert np.isfinite(out.detach().numpy()).all()
    check_op(lambda lib, x: F(lib).softmax(x, 1), x)


def test_softmax_grad_fn_names_and_dtype_argument():
    x = tl.randn(2, 3, requires_grad=True)
    assert F(tl).softmax(x, 1).grad_fn.name() == "SoftmaxBackward0"
    assert F(tl).log_softmax(x, 1).grad_fn.name() == "LogSoftmaxBackward0"
    check_op(lambda lib, x: F(lib).softmax(x, 0, dtype=lib.float64), randn(3, 2, dtype="float32"))


def test_softmax_without_dim_warns_and_picks_torchs_dim():
    for shape in [(3,), (2, 3), (2, 3, 4)]:
        x = randn(*shape)
        with pytest.warns(UserWarning, match="Implicit dimension choice for softmax"):
            got = F(tl).softmax(tl.tensor(x))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = torch.nn.functional.softmax(torch.tensor(x))
        assert_same(expected, got)


# --- layers as functions ---------------------------------------------------------------------
@pytest.mark.parametrize("x_shape", [(4,), (3, 4), (2, 3, 4)])
@pytest.mark.parametrize("bias", [True, False])
def test_linear(x_shape, bias):
    w, b = randn(5, 4), randn(5)
    if bias:
        check_op(lambda lib, x, w, b: F(lib).linear(x, w, b), randn(*x_shape), w, b)
    else:
        check_op(lambda lib, x, w: F(lib).linear(x, w), randn(*x_shape), w)


@pytest.mark.parametrize("normalized", [(4,), (3, 4)])
@pytest.mark.parametrize("affine", ["both", "weight", "none"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_layer_norm(normalized, affine, dtype):
    x = randn(2, 3, 4, dtype=dtype) * 3 + 1
    w, b = randn(*normalized, dtype=dtype), randn(*normalized, dtype=dtype)
    if affine == "both":
        out = check_op(lambda lib, x, w, b: F(lib).layer_norm(x, normalized, w, b), x, w, b, rtol=1e-4, atol=1e-5)
    elif affine == "weight":
        out = check_op(lambda lib, x, w: F(lib).layer_norm(x, normalized, w, eps=1e-3), x, w, rtol=1e-4, atol=1e-5)
    else:
        out = check_op(lambda lib, x: F(lib).layer_norm(x, normalized), x, rtol=1e-4, atol=1e-5)
    assert out.grad_fn.name() == "NativeLayerNormBackward0"


def test_layer_norm_shape_error():
    check_op(lambda lib, x: F(lib).layer_norm(x, (3,)), randn(2, 4))


def test_dropout_eval_mode_and_p_zero_are_identity():
    x = tl.randn(4, 5)
    assert F(tl).dropout(x, 0.5, training=False) is x
    assert F(tl).dropout(x, 0.0) is x


def test_dropout_p_one_zeros_everything_and_bad_p_raises():
    check_op(lambda lib, x: F(lib).dropout(x, 1.0), randn(3, 4))
    check_op(lambda lib, x: F(lib).dropout(x, 1.5), randn(3, 4))


def test_dropout_statistics_and_gradient():
    tl.manual_seed(0)
    x = tl.ones(200, 50, requires_grad=True)
    y = F(tl).dropout(x, 0.3)
    values = y.detach().numpy()
    kept = values != 0
    assert abs(kept.mean() - 0.7) < 0.02
    np.testing.assert_allclose(values[kept], 1 / 0.7, rtol=1e-6)
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), values, rtol=1e-6)  # d(x * noise)/dx = noise
    assert y.grad_fn.name() == torch.nn.functional.dropout(torch.ones(2, requires_grad=True), 0.3).grad_fn.name()


@pytest.mark.parametrize("padding_idx", [None, 1, -1])
def test_embedding_with_repeated_indices(padding_idx):
    indices = np.array([[0, 1, 3], [1, 1, 4]])
    check_op(lambda lib, w, i: F(lib).embedding(i, w, padding_idx=padding_idx), randn(5, 3), indices)


def test_embedding_errors_and_name():
    check_op(lambda lib, w, i: F(lib).embedding(i, w), randn(5, 3), np.array([5]))
    out = F(tl).embedding(tl.tensor([1]), tl.randn(3, 2, requires_grad=True))
    assert out.grad_fn.name() == "EmbeddingBackward0"


@pytest.mark.parametrize("num_classes", [-1, 6])
def test_one_hot(num_classes):
    check_op(lambda lib, t: F(lib).one_hot(t, num_classes), np.array([[0, 2], [4, 1]]))


@pytest.mark.parametrize("bad", [np.array([1.0]), np.array([-1]), np.array([3])])
def test_one_hot_errors(bad):
    check_op(lambda lib, t: F(lib).one_hot(t, 2), bad, grad=False)


# --- losses ----------------------------------------------------------------------------------
def test_seed_cross_entropy_is_log_softmax_then_nll():
    x = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]], dtype="float32")
    y = np.array([0, 1, 2])
    ce = check_op(lambda lib, x, y: F(lib).cross_entropy(x, y), x, y)
    nll = check_op(lambda lib, x, y: F(lib).nll_loss(F(lib).log_softmax(x, 1), y), x, y)
    check_op(lambda lib, x: F(lib).softmax(x, 1).log(), x)
    assert abs(ce.item() - 0.5514) < 1e-4 and abs(nll.item() - ce.item()) < 1e-7


def _class_problem(case: str):
    """(input, target) arrays for (N, C), (C,) and (N, C, d) inputs, with one target == 1."""
    if case == "NC":
        return randn(5, 4), np.array([1, 0, 3, 1, 2])
    if case == "C":
        return randn(4), np.array(1)
    return randn(3, 4, 2), np.array([[1, 0], [3, 1], [2, 2]])


CLASS_CASES = list(itertools.product(["NC", "C", "NCd"], [False, True], [-100, 1], ["none", "mean", "sum"]))


@pytest.mark.parametrize(("case", "weighted", "ignore_index", "reduction"), CLASS_CASES)
def test_nll_loss(case, weighted, ignore_index, reduction):
    x, y = _class_problem(case)
    w = np.array([0.5, 2.0, 1.0, 3.0])
    out = check_op(
        lambda lib, x, y: F(lib).nll_loss(
            x, y, weight=lib.tensor(w) if weighted else None, ignore_index=ignore_index, reduction=reduction
        ),
        x, y,
    )
    assert out.grad_fn.name() == "NllLossBackward0"


@pytest.mark.parametrize("label_smoothing", [0.0, 0.25])
@pytest.mark.parametrize(("case", "weighted", "ignore_index", "reduction"), CLASS_CASES)
def test_cross_entropy_class_indices(case, weighted, ignore_index, reduction, label_smoothing):
    x, y = _class_problem(case)
    w = np.array([0.5, 2.0, 1.0, 3.0])
    check_op(
        lambda lib, x, y: F(lib).cross_entropy(
            x, y, weight=lib.tensor(w) if weighted else None, ignore_index=ignore_index,
            reduction=reduction, label_smoothing=label_smoothing,
        ),
        x, y,
    )


@pytest.mark.parametrize("label_smoothing", [0.0, 0.25])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("shape", [(5, 4), (4,), (3, 4, 2)])
def test_cross_entropy_class_probabilities(shape, reduction, weighted, label_smoothing):
    x = randn(*shape)
    probabilities = np.exp(randn(*shape))
    probabilities /= probabilities.sum(axis=1 if len(shape) > 1 else 0, keepdims=True)
    w = np.array([0.5, 2.0, 1.0, 3.0])
    check_op(
        lambda lib, x, p: F(lib).cross_entropy(
            x, p.detach(), weight=lib.tensor(w) if weighted else None, reduction=reduction, label_smoothing=label_smoothing
        ),
        x, probabilities,
    )


def test_cross_entropy_all_targets_ignored_is_nan():
    check_op(lambda lib, x, y: F(lib).cross_entropy(x, y), randn(2, 3), np.array([-100, -100]))


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize(
    ("y", "w"),
    [
        ([0, 1, 2, 0], [0.0, 0.0, 0.0]),  # every weight 0: mean is 0/0
        ([0, 1, 2, 0], [1.0, -1.0, 0.0]),  # weights that cancel: mean divides by 0
        ([2, 1, 2, 0], [1.0, -1.0, 0.0]),
    ],
)
def test_nll_loss_with_weights_that_sum_to_zero(y, w, reduction):
    """torch divides by the zero total weight (nan or inf), in the loss and in its gradient."""
    check_op(
        lambda lib, x, t: F(lib).nll_loss(x, t, lib.tensor(w, dtype=lib.float64), reduction=reduction),
        randn(4, 3), np.array(y),
    )


@pytest.mark.parametrize("loss", ["nll_loss", "cross_entropy"])
def test_class_weights_cannot_require_grad(loss):
    check_op(lambda lib, x, t, w: getattr(F(lib), loss)(x, t, w), randn(3, 4), np.array([0, 1, 2]), randn(4), grad=True)


@pytest.mark.parametrize("method", ["softmax", "log_softmax"])
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_softmax_tensor_methods(method, dim):
    check_op(lambda lib, x: getattr(x, method)(dim), randn(3, 4))


def test_class_weights_of_another_dtype_are_refused():
    check_op(lambda lib, x, t, w: F(lib).nll_loss(x, t, w), randn(3, 4), np.array([0, 1, 2]), randn(4, dtype="float32"))


@pytest.mark.parametrize(
    ("x", "y", "kwargs"),
    [
        (randn(3, 4), np.array([0, 1, 2.0]), {}),  # float target for nll: RuntimeError
        (randn(3, 4), np.array([0, 1]), {}),  # batch mismatch: ValueError
        (randn(3, 4), np.array([0, 1, 5]), {}),  # class out of range: IndexError
        (randn(3, 4), rng.random((3, 4)), {"ignore_index": 1}),  # probabilities + ignore_index
    ],
)
def test_class_loss_errors(x, y, kwargs):
    check_op(lambda lib, x, y: F(lib).nll_loss(F(lib).log_softmax(x, 1), y, **kwargs), x, y)
    check_op(lambda lib, x, y: F(lib).cross_entropy(x, y, **kwargs), x, y)


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_binary_cross_entropy(reduction, weighted, dtype):
    p = rng.uniform(0.05, 0.95, (3, 4)).astype(dtype)
    t = rng.random((3, 4)).astype(dtype)
    w = rng.random((3, 4)).astype(dtype)
    out = check_op(
        lambda lib, p, t: F(lib).binary_cross_entropy(p, t, weight=lib.tensor(w) if weighted else None, reduction=reduction),
        p, t,
    )
    assert out.grad_fn.name() == "BinaryCrossEntropyBackward0"


def test_binary_cross_entropy_edges_and_errors():
    check_op(lambda lib, p, t: F(lib).binary_cross_entropy(p, t), np.array([0.0, 1.0, 0.5]), np.array([1.0, 0.0, 1.0]), grad=False)
    check_op(lambda lib, p, t: F(lib).binary_cross_entropy(p, t), rng.random(3) + 2, rng.random(3))
    check_op(lambda lib, p, t: F(lib).binary_cross_entropy(p, t), rng.random(3), rng.random(2))


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("pos_weighted", [False, True])
def test_binary_cross_entropy_with_logits(reduction, weighted, pos_weighted):
    x = randn(3, 4) * 4
    t = rng.random((3, 4))
    w, pw = rng.random((3, 4)), rng.random(4) * 3
    out = check_op(
        lambda lib, x, t: F(lib).binary_cross_entropy_with_logits(
            x, t, weight=lib.tensor(w) if weighted else None, reduction=reduction,
            pos_weight=lib.tensor(pw) if pos_weighted else None,
        ),
        x, t,
    )
    assert out.grad_fn.name() == "BinaryCrossEntropyWithLogitsBackward0"


def test_binary_cross_entropy_with_logits_is_stable_and_checks_size():
    check_op(lambda lib, x, t: F(lib).binary_cross_entropy_with_logits(x, t), np.array([-200.0, 200.0, 0.0], dtype="float32"), np.array([1.0, 0.0, 1.0], dtype="float32"))
    check_op(lambda lib, x, t: F(lib).binary_cross_entropy_with_logits(x, t), randn(3), randn(2))


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
def test_mse_loss(reduction):
    out = check_op(lambda lib, x, y: F(lib).mse_loss(x, y, reduction=reduction), randn(3, 4), randn(3, 4))
    assert out.grad_fn.name() == "MseLossBackward0"


def test_mse_loss_broadcast_warns_like_torch():
    with pytest.warns(UserWarning, match="different to the input size"):
        F(tl).mse_loss(tl.randn(3, 1), tl.randn(3))
    check_op(lambda lib, x, y: F(lib).mse_loss(x, y), randn(3, 1), randn(3))


def test_legacy_reduce_flags_and_bad_reduction():
    check_op(lambda lib, x, y: F(lib).mse_loss(x, y, reduce=False), randn(2, 2), randn(2, 2))
    check_op(lambda lib, x, y: F(lib).mse_loss(x, y, size_average=False), randn(2, 2), randn(2, 2))
    check_op(lambda lib, x, y: F(lib).mse_loss(x, y, reduction="avg"), randn(2, 2), randn(2, 2))


# --- losses, linear, layer_norm, embedding on random shapes; errors; dropout's exact cases -------
@given(batch=st.integers(1, 4), classes=st.integers(2, 4), seed=seeds, reduction=st.sampled_from(["mean", "sum", "none"]), weighted=st.booleans(), smoothing=st.sampled_from([0.0, 0.2]))
def test_class_losses_random(batch: int, classes: int, seed: int, reduction: str, weighted: bool, smoothing: float) -> None:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((batch, classes))
    y = rng.integers(0, classes, batch)
    w = rng.uniform(0.5, 2, classes)
    probs = rng.dirichlet(np.ones(classes), batch)

    def kw(lib: Any) -> dict:
        """Class weights are constants: torch refuses a weight that requires grad."""
        return {"weight": lib.tensor(w), "reduction": reduction} if weighted else {"reduction": reduction}

    check_op(lambda lib, a, t: F(lib).cross_entropy(a, t, label_smoothing=smoothing, **kw(lib)), x, y)
    check_op(lambda lib, a, t: F(lib).cross_entropy(a, t, label_smoothing=smoothing, **kw(lib)), x, probs)
    check_op(lambda lib, a, t: F(lib).nll_loss(F(lib).log_softmax(a, 1), t, **kw(lib)), x, y)


@given(shape=random_nonempty_shapes, seed=seeds, reduction=st.sampled_from(["mean", "sum", "none"]), dtype=st.sampled_from(["float32", "float64"]))
def test_elementwise_losses_random(shape: tuple, seed: int, reduction: str, dtype: str) -> None:
    rng = np.random.default_rng(seed)
    x, y = rng.standard_normal(shape).astype(dtype), rng.standard_normal(shape).astype(dtype)
    p, target = rng.uniform(0.05, 0.95, shape).astype(dtype), rng.uniform(0, 1, shape).astype(dtype)
    w = rng.uniform(0.5, 2, shape).astype(dtype)
    check_op(lambda lib, a, b: F(lib).mse_loss(a, b, reduction=reduction), x, y, rtol=1e-4, atol=1e-5)
    bce = lambda lib, a, b: F(lib).binary_cross_entropy(a, b.detach(), weight=lib.tensor(w), reduction=reduction)  # noqa: E731
    check_op(bce, p, target, rtol=1e-4, atol=1e-5)
    check_op(lambda lib, a, b: F(lib).binary_cross_entropy_with_logits(a, b, reduction=reduction), x, target, rtol=1e-4, atol=1e-5)
    check_op(lambda lib, a, b: F(lib).binary_cross_entropy_with_logits(a, b, pos_weight=lib.tensor(w)), x, target, rtol=1e-4, atol=1e-5)


@given(batch=st.lists(st.integers(1, 3), max_size=2).map(tuple), n_in=st.integers(1, 4), n_out=st.integers(1, 4), bias=st.booleans(), seed=seeds)
def test_linear_random(batch: tuple, n_in: int, n_out: int, bias: bool, seed: int) -> None:
    args = [standard_normal((*batch, n_in), seed), standard_normal((n_out, n_in), seed + 1)] + ([standard_normal((n_out,), seed + 2)] if bias else [])
    check_op(lambda lib, *t: F(lib).linear(*t), *args)


@given(shape=st.lists(st.integers(1, 3), min_size=1, max_size=3).map(tuple), seed=seeds, data=st.data())
def test_layer_norm_random(shape: tuple, seed: int, data: st.DataObject) -> None:
    k = data.draw(st.integers(1, len(shape)))
    normalized = shape[-k:]
    affine = data.draw(st.booleans())
    args = [standard_normal(shape, seed)] + ([standard_normal(normalized, seed + 1), standard_normal(normalized, seed + 2)] if affine else [])
    check_op(lambda lib, x, *wb: F(lib).layer_norm(x, normalized, *wb, eps=1e-5), *args, rtol=1e-6, atol=1e-6)


@given(num=st.integers(1, 5), dim=st.integers(1, 3), index_shape=st.lists(st.integers(0, 3), max_size=2).map(tuple), seed=seeds, padding=st.booleans())
def test_embedding_and_one_hot_random(num: int, dim: int, index_shape: tuple, seed: int, padding: bool) -> None:
    index = np.random.default_rng(seed).integers(0, num, index_shape)
    check_op(lambda lib, i, w: F(lib).embedding(i, w, padding_idx=0 if padding else None), index, standard_normal((num, dim), seed))
    check_op(lambda lib, i: F(lib).one_hot(i, num), index)
    if index.size:
        check_op(lambda lib, i: F(lib).one_hot(i), index)


@pytest.mark.parametrize(
    ("fn", "shape"),
    [
        (lambda lib, x: F(lib).softmax(x, 2), (2, 3)),
        (lambda lib, x: F(lib).log_softmax(x, -3), (2, 3)),
        (lambda lib, x: F(lib).linear(x, lib.zeros(2, 4)), (2, 3)),
        (lambda lib, x: F(lib).linear(x, lib.zeros(2, 3), lib.zeros(3)), (2, 3)),
        (lambda lib, x: F(lib).mse_loss(x, lib.zeros(3, 2)), (2, 3)),
        (lambda lib, x: F(lib).binary_cross_entropy(x.sigmoid(), lib.zeros(3)), (2, 3)),
        (lambda lib, x: F(lib).embedding(lib.tensor([3]), x), (2, 3)),
        (lambda lib, x: F(lib).embedding(lib.tensor([0.5]), x), (2, 3)),
        (lambda lib, x: F(lib).dropout(x, -0.1), (2, 3)),
        (lambda lib, x: F(lib).relu(x > 0), (2, 3)),
        (lambda lib, x: F(lib).gelu(x, approximate="exact"), (2, 3)),
        (lambda lib, x: F(lib).sigmoid([1.0]), (2, 3)),
        (lambda lib, x: F(lib).unfold(x, 2), (2, 3)),
        (lambda lib, x: F(lib).unfold(x.reshape(1, 1, 1, 2, 3), 2), (2, 3)),
        (lambda lib, x: F(lib).unfold(x.sum(0), 1), (2, 3)),
        (lambda lib, x: F(lib).unfold(x.reshape(1, 1, 2, 3), 3), (2, 3)),
        (lambda lib, x: F(lib).unfold(x.reshape(1, 1, 2, 3), 2, padding=-1), (2, 3)),
        (lambda lib, x: F(lib).avg_pool2d(x, 3), (1, 2, 2)),
        (lambda lib, x: F(lib).avg_pool2d(x, 2, padding=2), (1, 4, 4)),
    ],
)
def test_functional_errors(fn: Any, shape: tuple) -> None:
    check_op(fn, standard_normal(shape, 0))


@given(shape=random_shapes, seed=seeds, p=st.sampled_from([0.0, 1.0, 0.5]), training=st.booleans())
def test_dropout_deterministic_cases_random(shape: tuple, seed: int, p: float, training: bool) -> None:
    if p == 0.5 and training:
        check_op(lambda lib, x: layout(lib.nn.functional.dropout(x, p, training)), standard_normal(shape, seed), grad=False)
        return
    check_op(lambda lib, x: lib.nn.functional.dropout(x, p, training), standard_normal(shape, seed))


@pytest.mark.parametrize("shape, dim", [((0,), 0), ((0, 3), 1), ((0, 3), 0), ((2, 0), 1), ((2, 0, 4), -1)])
@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
def test_softmax_of_an_empty_tensor_is_empty(shape: tuple, dim: int, name: str) -> None:
    check_op(lambda lib, x: getattr(F(lib), name)(x, dim), np.zeros(shape, np.float32))
    check_op(lambda lib, x: getattr(lib, name)(x, dim), np.zeros(shape, np.float32))
    check_op(lambda lib, x: getattr(x, name)(dim), np.zeros(shape, np.float32))


@given(shape=st.lists(st.integers(1, 4), min_size=1, max_size=3), data=st.data())
def test_namespace_softmax_takes_torch_signature(shape: list, data: st.DataObject) -> None:
    """torch.softmax(x, dim, dtype=None): dim is required (F.softmax guesses it, warning)."""
    x = standard_normal(tuple(shape), seed=len(shape), dtype="float32")
    dim = data.draw(st.integers(-len(shape), len(shape) - 1))
    check_op(lambda lib, a: lib.softmax(a, dim), x)
    check_op(lambda lib, a: lib.log_softmax(a, dim, dtype=lib.float64), x)
    check_op(lambda lib, a: lib.softmax(a), x)  # TypeError in both
    check_op(lambda lib, a: lib.softmax(a.long(), dim), x)


@pytest.mark.parametrize("weighted", [False, True])
def test_cross_entropy_with_label_smoothing_and_every_target_ignored_is_a_silent_nan(weighted):
    x = np.arange(6.0).reshape(2, 3)
    weight = np.array([1.0, 2.0, 3.0]) if weighted else None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_op(lambda lib, a: lib.nn.functional.cross_entropy(
            a, lib.tensor([1, 1]), weight=None if weight is None else lib.tensor(weight), ignore_index=1, label_smoothing=0.2), x, grad=False)
