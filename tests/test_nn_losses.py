"""Losses beyond cross entropy and mse against torch: values, gradients of every float
input, reductions, dtype, warnings and errors; functional and module forms."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import tensorlab as tl
from tests.oracle import check_op
from tests.test_nn_double_backward import check_double_backward

REDUCTIONS = ["none", "mean", "sum"]
rng = np.random.default_rng(0)


def F(lib):  # noqa: N802 - reads like the usual ``F.``
    return lib.nn.functional


def randn(*shape: int, dtype: str = "float64", seed: int = 0) -> np.ndarray:
    return np.asarray(np.random.default_rng(seed).standard_normal(shape), dtype=dtype)


def signs(*shape: int, seed: int = 1, dtype: str = "float64") -> np.ndarray:
    return np.where(np.random.default_rng(seed).random(shape) < 0.5, -1, 1).astype(dtype)


def probabilities(*shape: int, seed: int = 2) -> np.ndarray:
    p = np.random.default_rng(seed).random(shape)
    p[..., 0] = 0.0  # an impossible class: 0 log 0 = 0
    return p / p.sum(-1, keepdims=True)


# --- regression -------------------------------------------------------------------------------
# The error x - t hits the knee exactly (|d| == beta/delta) and both sides of it.
KNEE_INPUT = np.array([0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 3.0, -0.5, -1.0, -3.0, 100.0])


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("beta", [1.0, 0.5, 3.0, 0.0])
def test_smooth_l1_loss_knee(beta, reduction):
    check_op(lambda lib, x, t: F(lib).smooth_l1_loss(x, t, reduction=reduction, beta=beta), KNEE_INPUT, np.zeros_like(KNEE_INPUT))


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("delta", [1.0, 0.5, 3.0])
def test_huber_loss_knee(delta, reduction):
    check_op(lambda lib, x, t: F(lib).huber_loss(x, t, reduction=reduction, delta=delta), KNEE_INPUT, np.zeros_like(KNEE_INPUT))


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("name", ["l1_loss", "huber_loss"])
def test_weighted_l1_and_huber(name, reduction):
    weight = np.random.default_rng(3).random((3, 4))
    check_op(lambda lib, x, t, w: getattr(F(lib), name)(x, t, reduction=reduction, weight=w), randn(3, 4), randn(3, 4, seed=1), weight)


@pytest.mark.parametrize("name", ["l1_loss", "smooth_l1_loss", "huber_loss"])
def test_regression_losses_mixed_dtypes_and_integers(name):
    # torch's huber_loss keeps the input's dtype, and its backward then fails on the wider target
    mixed_grad = name != "huber_loss"
    check_op(lambda lib, x, t: getattr(F(lib), name)(x, t), randn(5, dtype="float32"), randn(5, seed=1), grad=mixed_grad)
    check_op(lambda lib, x, t: getattr(F(lib), name)(x, t), np.arange(5), np.arange(5)[::-1].copy())
    check_op(lambda lib, x, t: getattr(F(lib), name)(x, t, reduction="sum"), np.arange(5), np.ones(5, dtype="int64"))


@pytest.mark.parametrize("name", ["l1_loss", "smooth_l1_loss", "huber_loss"])
def test_regression_losses_broadcast_with_torchs_warning(name):
    x, t = randn(3, 1), randn(3, seed=1)
    check_op(lambda lib, x, t: getattr(F(lib), name)(x, t), x, t)
    with pytest.warns(UserWarning, match="different to the input size"):
        getattr(F(tl), name)(tl.tensor(x), tl.tensor(t))
    check_op(lambda lib, x, t: getattr(F(lib), name)(x, t), randn(3), randn(2))  # not broadcastable


@pytest.mark.parametrize(
    "call",
    [
        lambda lib, x, t: F(lib).smooth_l1_loss(x, t, beta=-1.0),
        lambda lib, x, t: F(lib).huber_loss(x, t, delta=0.0),
        lambda lib, x, t: F(lib).huber_loss(x, t, delta=-2.0),
        lambda lib, x, t: F(lib).l1_loss(x, t, reduction="average"),
        lambda lib, x, t: F(lib).smooth_l1_loss(x, t, reduction="average"),
        lambda lib, x, t: F(lib).l1_loss(x, t, weight=x[:2]),
    ],
)
def test_regression_loss_errors(call):
    check_op(call, randn(3), randn(3, seed=1))


# --- distributions ------------------------------------------------------------------------------
@pytest.mark.parametrize("reduction", [*REDUCTIONS, "batchmean"])
@pytest.mark.parametrize("log_target", [False, True])
def test_kl_div(reduction, log_target):
    log_q = np.log(probabilities(3, 5, seed=4) + 0.01)
    target = probabilities(3, 5)
    if log_target:
        target = np.log(target + 1e-3)
        check_op(lambda lib, x, t: F(lib).kl_div(x, t, reduction=reduction, log_target=True), log_q, target)
    else:  # d/dt of 0 log 0 is nan in torch (t / t): the target's gradient is compared where t > 0
        check_op(lambda lib, x, t: F(lib).kl_div(x, t, reduction=reduction), log_q, target, grad=[True, False])
        check_op(lambda lib, x, t: F(lib).kl_div(x, t, reduction=reduction), log_q, target + 0.1)


def test_kl_div_mean_warns_batchmean_does_not_and_legacy_flags():
    x, t = tl.tensor(np.log(probabilities(2, 3) + 0.1)), tl.tensor(probabilities(2, 3))
    with pytest.warns(UserWarning, match="batchmean"):
        F(tl).kl_div(x, t)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        F(tl).kl_div(x, t, reduction="batchmean")
    check_op(lambda lib, x, t: F(lib).kl_div(x, t, size_average=False), x.numpy(), t.numpy())
    check_op(lambda lib, x, t: F(lib).kl_div(x, t, reduction="batchmean"), np.array(-1.0), np.array(0.5))
    check_op(lambda lib, x, t: F(lib).kl_div(x, t), np.arange(3), np.arange(3))
    check_op(lambda lib, x, t: F(lib).kl_div(x, t, reduction="batch"), x.numpy(), t.numpy())


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize(("log_input", "full"), [(True, False), (True, True), (False, False), (False, True)])
def test_poisson_nll_loss(log_input, full, reduction):
    counts = np.array([[0.0, 1.0, 2.0, 5.0], [3.0, 0.0, 1.5, 10.0]])
    rates = randn(2, 4) if log_input else np.random.default_rng(5).random((2, 4)) * 3
    check_op(
        lambda lib, x, t: F(lib).poisson_nll_loss(x, t, log_input=log_input, full=full, reduction=reduction),
        rates, counts, grad=[True, not full],  # full: torch's d/dt of t log t at t = 0 is nan
    )
    check_op(lambda lib, x, t: F(lib).poisson_nll_loss(x, t, reduction="avg"), rates, counts)


VAR_SHAPES = [(4, 3), (4,), (4, 1)]


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("full", [False, True])
@pytest.mark.parametrize("var_shape", VAR_SHAPES)
def test_gaussian_nll_loss(var_shape, full, reduction):
    var = np.random.default_rng(6).random(var_shape) + 0.1
    var.flat[0] = 1e-9  # clamped to eps, gradient still flows
    check_op(lambda lib, x, t, v: F(lib).gaussian_nll_loss(x, t, v, full=full, reduction=reduction), randn(4, 3), randn(4, 3, seed=1), var)


@pytest.mark.parametrize(
    "var",
    [np.array([-1.0, 1.0, 1.0]), np.ones(2), np.ones((3, 3)), 0.5, -0.5],
    ids=["negative", "short", "too-big", "float", "negative-float"],
)
def test_gaussian_nll_loss_variance_checks(var):
    check_op(lambda lib, x, t: F(lib).gaussian_nll_loss(x, t, var if isinstance(var, float) else lib.tensor(var)), randn(3), randn(3, seed=1))


def test_gaussian_nll_loss_bad_reduction():
    check_op(lambda lib, x, t, v: F(lib).gaussian_nll_loss(x, t, v, reduction="total"), randn(3), randn(3), np.ones(3))


# --- margins ------------------------------------------------------------------------------------
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("margin", [0.0, 0.5])
def test_margin_ranking_loss(margin, reduction):
    x1 = np.array([0.0, 1.0, -1.0, 2.0, 0.5, 0.25])
    x2 = np.array([0.0, 0.5, 1.0, 2.5, 0.0, 0.0])  # includes ties and a loss of exactly 0
    check_op(lambda lib, a, b, y: F(lib).margin_ranking_loss(a, b, y, margin=margin, reduction=reduction), x1, x2, signs(6))


def test_margin_ranking_loss_dimension_check():
    check_op(lambda lib, a, b, y: F(lib).margin_ranking_loss(a, b, y), randn(3), randn(3), signs(1, 3))


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("margin", [1.0, 2.0])
def test_hinge_embedding_loss(margin, reduction):
    distance = np.array([0.0, 0.5, 1.0, 2.0, 3.0, -1.0, 0.5])
    labels = np.array([1.0, -1.0, -1.0, -1.0, 1.0, -1.0, 0.0])  # 0 is neither: torch adds both terms
    check_op(lambda lib, x, y: F(lib).hinge_embedding_loss(x, y, margin=margin, reduction=reduction), distance, labels)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_soft_margin_loss(reduction):
    x = np.array([-800.0, -30.0, -1.0, 0.0, 1.0, 30.0, 800.0])  # -y x = 800 overflows exp, as in torch
    check_op(lambda lib, x, y: F(lib).soft_margin_loss(x, y, reduction=reduction), x, signs(7), grad=[True, False])
    check_op(lambda lib, x, y: F(lib).soft_margin_loss(x, y, reduction=reduction), randn(3, 4, dtype="float32"), signs(3, 4, dtype="float32"), grad=[True, False])
    check_op(lambda lib, x, y: F(lib).soft_margin_loss(x, y), randn(3), signs(3), match="not differentiable")


@pytest.mark.parametrize(
    ("x", "y"),
    [(randn(3), np.ones(2)), (randn(3), np.ones((2, 3))), (np.arange(3), np.ones(3)), (randn(3), np.ones(3, dtype="int64"))],
    ids=["sizes", "broadcast-beyond-input", "integer-input", "integer-target"],
)
def test_soft_margin_loss_shapes_and_dtypes(x, y):
    check_op(lambda lib, x, y: F(lib).soft_margin_loss(x, y), x, y)


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weighted", [False, True])
def test_multilabel_soft_margin_loss(weighted, reduction):
    target = (np.random.default_rng(7).random((3, 4)) < 0.5).astype("float64")
    weight = np.random.default_rng(8).random(4)
    if weighted:
        check_op(lambda lib, x, y, w: F(lib).multilabel_soft_margin_loss(x, y, weight=w, reduction=reduction), randn(3, 4) * 10, target, weight)
    else:
        check_op(lambda lib, x, y: F(lib).multilabel_soft_margin_loss(x, y, reduction=reduction), randn(3, 4) * 10, target)
    check_op(lambda lib, x, y: F(lib).multilabel_soft_margin_loss(x, y, reduction="avg"), randn(3, 4), target)


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize(("p", "margin"), [(1, 1.0), (2, 1.0), (1, 0.3), (2, 2.0)])
def test_multi_margin_loss(p, margin, reduction):
    scores = randn(4, 5)
    scores[0] = [0.0, 1.0, 0.0, -1.0, 2.0]  # a gap of exactly 0 (margin 1): no push
    target = np.array([1, 0, 4, 2])
    check_op(lambda lib, x, y: F(lib).multi_margin_loss(x, y, p=p, margin=margin, reduction=reduction), scores, target)
    weight = np.random.default_rng(9).random(5)
    check_op(lambda lib, x, y, w: F(lib).multi_margin_loss(x, y, p=p, margin=margin, weight=w, reduction=reduction), scores, target, weight, grad=[True, False, False])
    check_op(lambda lib, x, y, w: F(lib).multi_margin_loss(x, y, weight=w), scores, target, weight, match="not differentiable")


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_multi_margin_loss_single_sample(reduction):
    check_op(lambda lib, x, y: F(lib).multi_margin_loss(x, y, reduction=reduction), randn(5), np.array(3))
    check_op(lambda lib, x, y: F(lib).multi_margin_loss(x, y, reduction=reduction), randn(5), np.array([3]))


@pytest.mark.parametrize(
    "call",
    [
        lambda lib, x: F(lib).multi_margin_loss(x, lib.tensor([1, 5])),
        lambda lib, x: F(lib).multi_margin_loss(x, lib.tensor([1, 0, 1])),
        lambda lib, x: F(lib).multi_margin_loss(x, lib.tensor([1.0, 0.0])),
        lambda lib, x: F(lib).multi_margin_loss(x.reshape(1, 2, 5), lib.tensor([1, 0])),
        lambda lib, x: F(lib).multi_margin_loss(x, lib.tensor([1, 0]), p=3),
        lambda lib, x: F(lib).multi_margin_loss(x, lib.tensor([1, 0]), weight=lib.ones(4)),
        lambda lib, x: F(lib).multi_margin_loss(x, lib.tensor([1, 0]), weight=lib.ones(5, 1)),
        lambda lib, x: F(lib).multi_margin_loss(x, lib.tensor([1, 0]), reduction="avg"),
    ],
    ids=["target-range", "target-size", "float-target", "3-d", "p", "weight-size", "weight-dim", "reduction"],
)
def test_multi_margin_loss_errors(call):
    check_op(call, randn(2, 5))


COSINE_X1 = np.array([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0], [1.0, -1.0, 0.5], [2.0, 0.0, 1.0]])  # a zero vector: eps keeps it finite
COSINE_X2 = np.array([[1.0, 2.0, 3.5], [1.0, 0.0, 0.0], [-1.0, 1.0, -0.5], [0.0, 1.0, 0.0]])


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("margin", [0.0, 0.5, -0.5])
def test_cosine_embedding_loss(margin, reduction):
    target = np.array([1, -1, -1, 1])
    # the zero vector's gradient is ~1e5 (1/sqrt(1e-12)): torch and NumPy round it 2e-9 apart
    check_op(lambda lib, a, b, y: F(lib).cosine_embedding_loss(a, b, y, margin=margin, reduction=reduction), COSINE_X1, COSINE_X2, target, rtol=1e-8)
    check_op(lambda lib, a, b, y: F(lib).cosine_embedding_loss(a, b, y, margin=margin, reduction=reduction), COSINE_X1[2], COSINE_X2[2], np.array(-1))


@pytest.mark.parametrize(
    ("a", "b", "y"),
    [(randn(4, 3), randn(4, 3), np.ones((4, 1))), (randn(3), randn(3), np.ones(1)), (randn(4, 3), randn(4, 3), np.array(1))],
    ids=["2-d-target", "1-d-target-1-d-inputs", "0-d-target-2-d-inputs"],
)
def test_cosine_embedding_loss_shape_checks(a, b, y):
    check_op(lambda lib, a, b, y: F(lib).cosine_embedding_loss(a, b, y), a, b, y)


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize(("p", "swap", "margin"), [(2.0, False, 1.0), (1.0, False, 1.0), (2.0, True, 0.5), (3.0, True, 2.0)])
def test_triplet_margin_loss(p, swap, margin, reduction):
    a, pos, neg = randn(5, 3), randn(5, 3, seed=1), randn(5, 3, seed=2)
    pos[0] = a[0]  # anchor == positive: eps keeps the distance's gradient finite
    check_op(lambda lib, a, b, c: F(lib).triplet_margin_loss(a, b, c, margin=margin, p=p, swap=swap, reduction=reduction), a, pos, neg)


def test_triplet_margin_loss_errors_and_pairwise_distance():
    check_op(lambda lib, a, b, c: F(lib).triplet_margin_loss(a, b, c, margin=0.0), randn(2, 3), randn(2, 3), randn(2, 3))
    check_op(lambda lib, a, b, c: F(lib).triplet_margin_loss(a, b, c), randn(2, 3), randn(2, 3), randn(3))
    check_op(lambda lib, a, b: F(lib).pairwise_distance(a, b), randn(4, 3), randn(3, seed=1))
    check_op(lambda lib, a, b: F(lib).pairwise_distance(a, b, p=1.0, keepdim=True), randn(4, 3), randn(4, 3, seed=1))


# --- random cases -----------------------------------------------------------------------------------
ELEMENTWISE = {
    "l1_loss": lambda lib, x, t, o: F(lib).l1_loss(x, t, **o),
    "smooth_l1_loss": lambda lib, x, t, o: F(lib).smooth_l1_loss(x, t, beta=0.5, **o),
    "huber_loss": lambda lib, x, t, o: F(lib).huber_loss(x, t, delta=2.0, **o),
    "soft_margin_loss": lambda lib, x, t, o: F(lib).soft_margin_loss(x, t.detach().sign(), **o),
    "kl_div_log_target": lambda lib, x, t, o: F(lib).kl_div(x, t, log_target=True, **o),
    "poisson_nll_loss": lambda lib, x, t, o: F(lib).poisson_nll_loss(x, t.abs(), **o),
    "gaussian_nll_loss": lambda lib, x, t, o: F(lib).gaussian_nll_loss(x, t, t.abs(), **o),
    "hinge_embedding_loss": lambda lib, x, t, o: F(lib).hinge_embedding_loss(x, t.sign(), **o),
    "margin_ranking_loss": lambda lib, x, t, o: F(lib).margin_ranking_loss(x, t, t.sign(), margin=0.1, **o),
}


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(sorted(ELEMENTWISE)),
    shape=st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple),
    dtype=st.sampled_from(["float32", "float64"]),
    scale=st.sampled_from([0.1, 1.0, 10.0]),
    reduction=st.sampled_from(REDUCTIONS),
    seed=st.integers(0, 2**16),
)
def test_elementwise_losses_random(name, shape, dtype, scale, reduction, seed):
    x, t = randn(*shape, dtype=dtype, seed=seed) * np.asarray(scale, dtype), randn(*shape, dtype=dtype, seed=seed + 1)
    check_op(lambda lib, x, t: ELEMENTWISE[name](lib, x, t, {"reduction": reduction}), x, t, rtol=1e-4 if dtype == "float32" else None)


@settings(max_examples=40, deadline=None)
@given(
    batch=st.integers(1, 4),
    classes=st.integers(1, 5),
    p=st.sampled_from([1, 2]),
    reduction=st.sampled_from(REDUCTIONS),
    seed=st.integers(0, 2**16),
)
def test_class_losses_random(batch, classes, p, reduction, seed):
    x = randn(batch, classes, seed=seed) * 2
    target = np.random.default_rng(seed).integers(0, classes, batch)
    check_op(lambda lib, x, y: F(lib).multi_margin_loss(x, y, p=p, reduction=reduction), x, target)
    labels = (np.random.default_rng(seed + 1).random((batch, classes)) < 0.5).astype("float64")
    check_op(lambda lib, x, y: F(lib).multilabel_soft_margin_loss(x, y, reduction=reduction), x, labels)
    check_op(lambda lib, x, y: F(lib).kl_div(x, y, reduction="batchmean"), -np.abs(x), labels + 0.1)
    a, b = randn(batch, classes, seed=seed + 2), randn(batch, classes, seed=seed + 3)
    check_op(lambda lib, a, b, y: F(lib).cosine_embedding_loss(a, b, y, margin=0.2, reduction=reduction), a, b, signs(batch, seed=seed, dtype="int64"))
    check_op(lambda lib, a, b, c: F(lib).triplet_margin_loss(a, b, c, p=p, swap=bool(seed % 2), reduction=reduction), x, a, b)


# --- modules --------------------------------------------------------------------------------------
MODULES = [
    ("L1Loss", {}, "regression"), ("SmoothL1Loss", {"beta": 0.5}, "regression"), ("HuberLoss", {"delta": 2.0, "reduction": "sum"}, "regression"),
    ("KLDivLoss", {"reduction": "batchmean"}, "kl"), ("KLDivLoss", {"log_target": True, "reduction": "sum"}, "kl"),
    ("PoissonNLLLoss", {"full": True}, "poisson"), ("GaussianNLLLoss", {"full": True}, "gaussian"),
    ("MarginRankingLoss", {"margin": 0.2}, "ranking"), ("HingeEmbeddingLoss", {"margin": 2.0}, "hinge"),
    ("SoftMarginLoss", {"reduction": "none"}, "hinge-no-target-grad"), ("MultiLabelSoftMarginLoss", {}, "multilabel"),
    ("MultiMarginLoss", {"p": 2}, "classes"), ("CosineEmbeddingLoss", {"margin": 0.1}, "cosine"),
    ("TripletMarginLoss", {"swap": True}, "triplet"), ("PairwiseDistance", {"p": 1.0}, "pair"),
    ("L1Loss", {"size_average": False}, "regression"), ("SmoothL1Loss", {"reduce": False}, "regression"),
]
MODULE_INPUTS = {
    "regression": (randn(3, 4), randn(3, 4, seed=1)),
    "kl": (-np.abs(randn(3, 4)), probabilities(3, 4) + 0.05),
    "poisson": (randn(3, 4), np.abs(randn(3, 4, seed=1)) * 3),
    "gaussian": (randn(3, 4), randn(3, 4, seed=1), np.abs(randn(3, 4, seed=2))),
    "ranking": (randn(5), randn(5, seed=1), signs(5)),
    "hinge": (randn(5), signs(5)),
    "hinge-no-target-grad": (randn(5), signs(5)),
    "multilabel": (randn(3, 4), (randn(3, 4, seed=1) > 0).astype("float64")),
    "classes": (randn(3, 4), np.array([0, 3, 1])),
    "cosine": (randn(3, 4), randn(3, 4, seed=1), signs(3, dtype="int64")),
    "triplet": (randn(3, 4), randn(3, 4, seed=1), randn(3, 4, seed=2)),
    "pair": (randn(3, 4), randn(3, 4, seed=1)),
}


@pytest.mark.parametrize(("name", "options", "inputs"), MODULES, ids=[f"{n}-{o}" for n, o, _ in MODULES])
def test_loss_modules_match_torch(name, options, inputs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the legacy size_average/reduce flags warn in torch
        module_t, module_m = getattr(torch.nn, name)(**options), getattr(tl.nn, name)(**options)
    assert repr(module_m) == repr(module_t)
    assert list(module_m.state_dict()) == list(module_t.state_dict())
    assert module_m.reduction == module_t.reduction if hasattr(module_t, "reduction") else True
    grad = [True, False] if inputs == "hinge-no-target-grad" else None  # soft_margin_loss refuses a target grad
    check_op(lambda lib, *xs: (module_t if lib is torch else module_m)(*xs), *MODULE_INPUTS[inputs], grad=grad)


def test_weighted_loss_modules_keep_weight_as_buffer():
    weight = np.random.default_rng(3).random(4)
    for name in ["MultiMarginLoss", "MultiLabelSoftMarginLoss"]:
        module_t, module_m = getattr(torch.nn, name)(weight=torch.tensor(weight)), getattr(tl.nn, name)(weight=tl.tensor(weight))
        assert list(module_m.state_dict()) == list(module_t.state_dict()) == ["weight"]


@pytest.mark.parametrize(
    "make",
    [
        lambda lib: lib.nn.MultiMarginLoss(p=3),
        lambda lib: lib.nn.MultiMarginLoss(weight=lib.ones(2, 2)),
        lambda lib: lib.nn.TripletMarginLoss(margin=0.0),
    ],
)
def test_loss_module_construction_errors(make):
    check_op(lambda lib: make(lib))


def test_grad_fn_names_match_torch():
    x_t, x_m = torch.randn(3, requires_grad=True), tl.randn(3, requires_grad=True)
    for call in [
        lambda lib, x: F(lib).smooth_l1_loss(x, x.detach() * 0),
        lambda lib, x: F(lib).huber_loss(x, x.detach() * 0),
        lambda lib, x: F(lib).soft_margin_loss(x, x.detach().sign()),
        lambda lib, x: F(lib).multi_margin_loss(x, lib.tensor(1)),
    ]:
        assert call(tl, x_m).grad_fn.name() == call(torch, x_t).grad_fn.name()


# --- second order ---------------------------------------------------------------------------------
SECOND_X = randn(3, 4, seed=11).clip(-3, 3) + 0.01
SECOND_T = np.abs(randn(3, 4, seed=12)) + 0.2


@pytest.mark.parametrize(
    ("call", "x"),
    [
        (lambda lib, x, t: F(lib).smooth_l1_loss(x, t, beta=0.7, reduction="sum"), SECOND_X),
        (lambda lib, x, t: F(lib).huber_loss(x, t, delta=0.7), SECOND_X),
        (lambda lib, x, t: F(lib).kl_div(x, t, reduction="batchmean"), -np.abs(SECOND_X)),
        (lambda lib, x, t: F(lib).poisson_nll_loss(x, t, log_input=False, full=True), np.abs(SECOND_X)),
        (lambda lib, x, t: F(lib).gaussian_nll_loss(x, t, t.abs(), reduction="sum"), SECOND_X),
        (lambda lib, x, t: F(lib).cosine_embedding_loss(x, t, lib.tensor([1, -1, 1]), margin=-0.5), SECOND_X),
        (lambda lib, x, t: F(lib).triplet_margin_loss(x, t, t * 0.5 + 1), SECOND_X),
    ],
    ids=["smooth_l1", "huber", "kl_div", "poisson", "gaussian", "cosine_embedding", "triplet"],
)
@pytest.mark.parametrize("square", [False, True])
def test_second_order_gradients_match_torch(call, x, square):
    check_double_backward(call, [x, SECOND_T], square=square)


def test_soft_margin_second_order_and_multi_margin_refuses_it():
    check_double_backward(lambda lib, x, y: F(lib).soft_margin_loss(x, y), [randn(6, seed=3)], constants=[signs(6)], square=True)
    for lib in (torch, tl):
        x = lib.tensor(randn(2, 4), requires_grad=True)
        (grad,) = lib.autograd.grad(F(lib).multi_margin_loss(x, lib.tensor([0, 3]), p=2), x, create_graph=True)
        with pytest.raises(RuntimeError):
            (grad * grad).sum().backward()


# --- multilabel margin and triplet with any distance ------------------------------------------------------
MULTILABEL_TARGET = np.array([[3, 0, -1, 1], [1, 2, 3, -1], [0, 1, 2, 3], [-1, 2, 0, 0]])  # a full row, an empty one


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_multilabel_margin_loss(reduction):
    scores = randn(4, 4)
    scores[0, 3] = scores[0, 2] + 1  # a margin met exactly: no push
    check_op(lambda lib, x, y: F(lib).multilabel_margin_loss(x, y, reduction=reduction), scores, MULTILABEL_TARGET)
    check_op(lambda lib, x, y: F(lib).multilabel_margin_loss(x, y, reduction=reduction), scores[1], MULTILABEL_TARGET[1])
    check_op(lambda lib, x, y: F(lib).multilabel_margin_loss(x, y, reduction=reduction), np.array(0.5), np.array(0))


@settings(max_examples=25, deadline=None)
@given(batch=st.integers(1, 3), classes=st.integers(1, 5), seed=st.integers(0, 2**16), reduction=st.sampled_from(REDUCTIONS))
def test_multilabel_margin_loss_random(batch, classes, seed, reduction):
    rng = np.random.default_rng(seed)
    target = np.stack([np.concatenate([rng.permutation(classes)[: rng.integers(0, classes + 1)], [-1] * classes])[:classes] for _ in range(batch)])
    check_op(lambda lib, x, y: F(lib).multilabel_margin_loss(x, y, reduction=reduction), randn(batch, classes, seed=seed), target)


@pytest.mark.parametrize(
    ("x", "y"),
    [(randn(2, 4), MULTILABEL_TARGET[:2, :3]), (randn(2, 4), MULTILABEL_TARGET[:2].astype("float64")),
     (randn(2, 4), np.array([[5, 0, -1, 1], [1, 2, 3, -1]])), (randn(1, 2, 4), MULTILABEL_TARGET[:2].reshape(1, 2, 4))],
    ids=["sizes", "float-target", "out-of-range", "3-d"],
)
def test_multilabel_margin_loss_errors(x, y):
    check_op(lambda lib, x, y: F(lib).multilabel_margin_loss(x, y), x, y)


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("distance", ["default", "cosine", "l1"])
@pytest.mark.parametrize("swap", [False, True])
def test_triplet_margin_with_distance_loss(distance, swap, reduction):
    functions = {
        "default": lambda lib: None,
        "cosine": lambda lib: lambda a, b: 1 - F(lib).cosine_similarity(a, b),
        "l1": lambda lib: lambda a, b: (a - b).abs().sum(-1),
    }
    check_op(
        lambda lib, a, p, n: F(lib).triplet_margin_with_distance_loss(a, p, n, distance_function=functions[distance](lib), swap=swap, margin=0.5, reduction=reduction),
        randn(4, 3), randn(4, 3, seed=1), randn(4, 3, seed=2),
    )


@pytest.mark.parametrize(
    "options", [{"margin": 0.0}, {"reduction": "avg"}], ids=["margin", "reduction"]
)
def test_triplet_margin_with_distance_loss_errors(options):
    check_op(lambda lib, a, p, n: F(lib).triplet_margin_with_distance_loss(a, p, n, **options), randn(2, 3), randn(2, 3), randn(2, 3))
    check_op(lambda lib, a, p, n: F(lib).triplet_margin_with_distance_loss(a, p, n), randn(2, 3), randn(2, 3), randn(3))


def test_multilabel_and_distance_triplet_modules():
    for name, options, inputs in [
        ("MultiLabelMarginLoss", {}, (randn(4, 4), MULTILABEL_TARGET)),
        ("TripletMarginWithDistanceLoss", {"margin": 0.5, "swap": True}, (randn(3, 4), randn(3, 4, seed=1), randn(3, 4, seed=2))),
    ]:
        module_t, module_m = getattr(torch.nn, name)(**options), getattr(tl.nn, name)(**options)
        assert repr(module_m) == repr(module_t)
        check_op(lambda lib, *xs, t=module_t, m=module_m: (t if lib is torch else m)(*xs), *inputs)
    with pytest.raises(ValueError, match="expected margin to be greater than 0"):
        tl.nn.TripletMarginWithDistanceLoss(margin=-1.0)
