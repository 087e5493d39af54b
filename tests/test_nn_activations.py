"""Activations beyond relu/gelu against torch: values, gradients, dtype, errors, modules.

Every case runs through ``check_op``: torch computes the expected numbers, including inf and nan
where torch's own formula overflows (softplus with a large threshold).
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import tensorlab as tl
from tests.oracle import assert_same, check_op
from tests.test_nn_double_backward import check_double_backward, second_order

# Kinks, thresholds, and inputs large enough that a naive exp overflows.
EDGES = [-800.0, -30.0, -20.0, -6.0, -3.0, -1.0, -1e-8, -0.0, 0.0, 1e-8, 1.0, 3.0, 6.0, 19.99, 20.0, 20.01, 40.0, 800.0]


def F(lib):  # noqa: N802 - reads like the usual ``F.``
    return lib.nn.functional


# (name, options): each is called as F.name(x, **options)
CASES = [
    ("softplus", {}),
    ("softplus", {"beta": 2.0}),
    ("softplus", {"beta": 0.5, "threshold": 5.0}),
    ("softplus", {"beta": 2.0, "threshold": 40.0}),  # beta * 20 == 40: exactly at the threshold
    ("softplus", {"threshold": 1000.0}),  # exp(800) overflows: torch gives inf (and a nan slope)
    ("softplus", {"beta": -1.0}),
    ("elu", {}),
    ("elu", {"alpha": 0.5}),
    ("elu", {"alpha": -2.0}),
    ("selu", {}),
    ("celu", {}),
    ("celu", {"alpha": 0.5}),
    ("celu", {"alpha": 3.0}),
    ("silu", {}),
    ("mish", {}),
    ("hardtanh", {}),
    ("hardtanh", {"min_val": -3.0, "max_val": 6.0}),
    ("hardtanh", {"min_val": 1.0, "max_val": 1.0}),
    ("relu6", {}),
    ("leaky_relu", {}),
    ("leaky_relu", {"negative_slope": 0.2}),
    ("leaky_relu", {"negative_slope": -0.5}),
    ("logsigmoid", {}),
    ("softsign", {}),
    ("hardsigmoid", {}),
    ("hardswish", {}),
    ("gelu", {"approximate": "tanh"}),
    ("gelu", {}),
]
CASE_IDS = [f"{name}-{options}" for name, options in CASES]
INPLACE = ["elu", "selu", "celu", "silu", "mish", "hardtanh", "relu6", "leaky_relu", "hardsigmoid", "hardswish"]
FLOAT_ONLY = {
    "softplus": "softplus_cpu", "elu": "elu_cpu", "selu": "elu_cpu", "celu": "elu_cpu", "silu": "silu_cpu",
    "mish": "mish_cpu", "leaky_relu": "leaky_relu_cpu", "logsigmoid": "log_sigmoid_cpu",
    "hardsigmoid": "hardsigmoid_cpu", "hardswish": "hardswish_cpu",
}


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize(("name", "options"), CASES, ids=CASE_IDS)
def test_edges_match_torch(name, options, dtype):
    """float16 computes in float32 and rounds, as torch's CPU kernels do (exp(12) overflows float16)."""
    x = np.array(EDGES, dtype=dtype)
    check_op(lambda lib, x: getattr(F(lib), name)(x, **options), x)


@settings(max_examples=60, deadline=None)
@given(
    case=st.sampled_from(CASES),
    shape=st.lists(st.integers(0, 4), max_size=3).map(tuple),
    dtype=st.sampled_from(["float32", "float64"]),
    scale=st.sampled_from([0.1, 1.0, 10.0, 1000.0]),
    seed=st.integers(0, 2**16),
)
def test_random_inputs_match_torch(case, shape, dtype, scale, seed):
    name, options = case
    x = np.asarray(np.random.default_rng(seed).standard_normal(shape) * scale, dtype=dtype)
    check_op(lambda lib, x: getattr(F(lib), name)(x, **options), x)


@settings(max_examples=30, deadline=None)
@given(
    beta=st.floats(-4, 4).filter(lambda b: abs(b) > 1e-3),
    threshold=st.floats(-5, 60),
    values=st.lists(st.floats(-100, 100), min_size=1, max_size=6),
)
def test_softplus_options_match_torch(beta, threshold, values):
    check_op(lambda lib, x: F(lib).softplus(x, beta=beta, threshold=threshold), np.array(values))


@pytest.mark.parametrize("name", INPLACE)
def test_inplace_writes_into_input_and_backpropagates(name):
    x = np.array(EDGES[2:-2])

    def run(lib, x):
        y = x * 1  # a non-leaf that requires grad: what an in-place activation may overwrite
        out = getattr(F(lib), name)(y, inplace=True)
        assert out is y
        return out

    check_op(run, x)


@pytest.mark.parametrize(
    "call",
    [
        lambda lib, x: F(lib).elu(x * 1, alpha=-1.0, inplace=True).sum().backward(),
        lambda lib, x: F(lib).celu(x * 1, alpha=-1.0, inplace=True).sum().backward(),
        lambda lib, x: F(lib).leaky_relu(x * 1, -0.5, inplace=True).sum().backward(),
    ],
    ids=["elu", "celu", "leaky_relu"],
)
def test_inplace_backward_with_negative_slope_fails_as_in_torch(call):
    check_op(call, np.array([-2.0, 0.5, 3.0]), match="negative slope")


@pytest.mark.parametrize("name", ["elu_", "selu_", "celu_", "hardtanh_", "leaky_relu_"])
def test_underscore_functions(name):
    check_op(lambda lib, x: getattr(F(lib), name)(x.clone()), np.array(EDGES[2:-2]), grad=False)


@pytest.mark.parametrize("name", sorted(FLOAT_ONLY))
@pytest.mark.parametrize("dtype", ["int64", "bool"])
def test_integer_input_raises_not_implemented(name, dtype):
    check_op(lambda lib, x: getattr(F(lib), name)(x), np.array([1, 0, 2]).astype(dtype), match=FLOAT_ONLY[name])


@pytest.mark.parametrize("name", ["hardtanh", "relu6", "softsign"])
def test_integer_input_where_torch_allows_it(name):
    check_op(lambda lib, x: getattr(F(lib), name)(x), np.array([-7, -1, 0, 1, 3, 9]))


def test_hardtanh_truncates_bounds_on_integers():
    check_op(lambda lib, x: F(lib).hardtanh(x, 1.5, 2.5), np.array([0, 1, 2, 3]))


@pytest.mark.parametrize(
    "call",
    [
        lambda lib, x: F(lib).celu(x, alpha=0.0),
        lambda lib, x: F(lib).hardtanh(x, 2.0, 1.0),
        lambda lib, x: F(lib).hardtanh(x > 0),
        lambda lib, x: F(lib).softplus(x.tolist()),
        lambda lib, x: F(lib).elu(x.tolist()),
        lambda lib, x: F(lib).softsign(x.tolist()),
    ],
    ids=["celu-alpha-0", "hardtanh-bounds", "hardtanh-bool", "softplus-list", "elu-list", "softsign-list"],
)
def test_bad_arguments_raise_torchs_error(call):
    check_op(call, np.array([1.0, -2.0]))


# --- prelu ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("x_shape", "w_shape"),
    [((5,), (1,)), ((2, 3), (3,)), ((2, 3, 4), (3,)), ((2, 3, 4, 2), (1,)), ((), (1,)), ((2, 3), ()), ((0, 3), (3,))],
)
def test_prelu_matches_torch(x_shape, w_shape):
    rng = np.random.default_rng(1)
    check_op(lambda lib, x, w: F(lib).prelu(x, w), rng.standard_normal(x_shape), rng.standard_normal(w_shape))


@settings(max_examples=25, deadline=None)
@given(batch=st.integers(1, 3), channels=st.integers(1, 4), rest=st.lists(st.integers(1, 3), max_size=2), seed=st.integers(0, 999))
def test_prelu_random_shapes(batch, channels, rest, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((batch, channels, *rest)).astype("float32")
    check_op(lambda lib, x, w: F(lib).prelu(x, w), x, rng.standard_normal(channels).astype("float32"))


@pytest.mark.parametrize(
    ("x", "w"),
    [
        (np.ones((2, 3)), np.ones(2)),
        (np.ones(3), np.ones(3)),
        (np.array(1.0), np.ones(2)),
        (np.ones((2, 3)), np.ones((3, 1))),
        (np.ones(3), np.ones(1, dtype="float32")),
        (np.ones(3, dtype="int64"), np.ones(1)),
    ],
    ids=["channels", "1-d", "0-d", "2-d-weight", "dtypes", "int-input"],
)
def test_prelu_errors(x, w):
    check_op(lambda lib, x, w: F(lib).prelu(x, w), x, w)


# --- modules ----------------------------------------------------------------------------------
MODULES = [
    ("Softplus", {}), ("Softplus", {"beta": 2.0, "threshold": 10.0}), ("ELU", {}), ("ELU", {"alpha": 0.3, "inplace": True}),
    ("SELU", {}), ("SELU", {"inplace": True}), ("CELU", {"alpha": 0.5}), ("SiLU", {}), ("SiLU", {"inplace": True}),
    ("Mish", {}), ("Hardtanh", {}), ("Hardtanh", {"min_val": -2, "max_val": 2}), ("ReLU6", {}), ("ReLU6", {"inplace": True}),
    ("LeakyReLU", {}), ("LeakyReLU", {"negative_slope": 0.2, "inplace": True}), ("LogSigmoid", {}), ("Softsign", {}),
    ("Hardsigmoid", {}), ("Hardsigmoid", {"inplace": True}), ("Hardswish", {}), ("GELU", {"approximate": "tanh"}),
    ("PReLU", {}), ("PReLU", {"num_parameters": 3, "init": 0.1}),
]


@pytest.mark.parametrize(("name", "options"), MODULES, ids=[f"{n}-{o}" for n, o in MODULES])
def test_modules_match_torch(name, options):
    x = np.random.default_rng(2).standard_normal((2, 3, 4)) * 4
    module_t, module_m = getattr(torch.nn, name)(**options), getattr(tl.nn, name)(**options)
    assert repr(module_m) == repr(module_t)
    assert list(module_m.state_dict()) == list(module_t.state_dict())
    for p_t, p_m in zip(module_t.parameters(), module_m.parameters(), strict=True):
        p_t.data = p_t.data.double()
        p_m.data = p_m.data.double()
        assert_same(p_t.detach(), p_m.detach())
    check_op(lambda lib, x: (module_t if lib is torch else module_m)(x * 1), x)
    for p_t, p_m in zip(module_t.parameters(), module_m.parameters(), strict=True):
        assert_same(p_t.grad, p_m.grad, where="parameter grad")


def test_hardtanh_module_checks_bounds_and_renamed_keywords():
    with pytest.raises(AssertionError, match="must be greater than"):
        tl.nn.Hardtanh(2.0, 1.0)
    with pytest.warns(FutureWarning, match="min_value"):
        module = tl.nn.Hardtanh(min_value=-3.0)
    assert module.min_val == torch.nn.Hardtanh(min_val=-3.0).min_val


NAMED_CALLS = [
    lambda lib, x: F(lib).softplus(x, beta=2.0), lambda lib, x: F(lib).elu(x), lambda lib, x: F(lib).selu(x),
    lambda lib, x: F(lib).celu(x), lambda lib, x: F(lib).silu(x), lambda lib, x: F(lib).mish(x),
    lambda lib, x: F(lib).hardtanh(x), lambda lib, x: F(lib).relu6(x), lambda lib, x: F(lib).leaky_relu(x),
    lambda lib, x: F(lib).logsigmoid(x), lambda lib, x: F(lib).softsign(x), lambda lib, x: F(lib).hardsigmoid(x),
    lambda lib, x: F(lib).hardswish(x), lambda lib, x: F(lib).prelu(x, lib.tensor([0.25])),
    lambda lib, x: F(lib).elu_(x * 1), lambda lib, x: F(lib).selu_(x * 1), lambda lib, x: F(lib).celu_(x * 1),
    lambda lib, x: F(lib).hardtanh_(x * 1), lambda lib, x: F(lib).leaky_relu_(x * 1),
]


@pytest.mark.parametrize("call", NAMED_CALLS)
def test_grad_fn_names_match_torch(call):
    x_t = torch.tensor([-2.0, 0.5, 3.0], requires_grad=True)
    x_m = tl.tensor([-2.0, 0.5, 3.0], requires_grad=True)
    assert call(tl, x_m).grad_fn.name() == call(torch, x_t).grad_fn.name()


# --- second order: each backward is written in tensor ops, so it differentiates again -------------
SECOND_ORDER = {
    "softplus": lambda lib, x: F(lib).softplus(x, beta=2.0, threshold=3.0),
    "elu": lambda lib, x: F(lib).elu(x, alpha=0.7),
    "selu": lambda lib, x: F(lib).selu(x),
    "celu": lambda lib, x: F(lib).celu(x, alpha=2.0),
    "silu": lambda lib, x: F(lib).silu(x),
    "mish": lambda lib, x: F(lib).mish(x),
    "logsigmoid": lambda lib, x: F(lib).logsigmoid(x),
    "softsign": lambda lib, x: F(lib).softsign(x),
    "hardtanh": lambda lib, x: F(lib).hardtanh(x, -1.5, 2.0),
    "leaky_relu": lambda lib, x: F(lib).leaky_relu(x, 0.2),
    "hardswish": lambda lib, x: F(lib).hardswish(x),
}


@pytest.mark.parametrize("name", sorted(SECOND_ORDER))
@pytest.mark.parametrize("square", [False, True])
def test_second_order_gradients_match_torch(name, square):
    x = np.array([-4.0, -2.5, -0.7, 0.3, 1.2, 2.9, 5.0])  # off every kink
    check_double_backward(SECOND_ORDER[name], [x], square=square)


def test_hardsigmoid_differentiates_twice_where_torch_refuses():
    """torch has no derivative for hardsigmoid's backward; its twin relu6(x + 3) / 6 has one."""
    x = np.array([-4.0, -2.5, -0.7, 0.3, 1.2, 2.9, 5.0])
    expected = second_order(torch, lambda lib, x: F(lib).relu6(x + 3) / 6, [x], [], square=True)
    got = second_order(tl, lambda lib, x: F(lib).hardsigmoid(x), [x], [], square=True)
    for e, g in zip(expected, got, strict=True):
        np.testing.assert_allclose(g, e, rtol=1e-7)


def test_prelu_second_order_gradients_match_torch():
    check_double_backward(lambda lib, x, w: F(lib).prelu(x, w), [randn_like_channels(), np.array([0.2, -0.4, 0.9])], square=True)


def randn_like_channels() -> np.ndarray:
    return np.random.default_rng(4).standard_normal((2, 3, 2)) + 0.05


# --- threshold, shrinking, softmin, glu, rrelu -----------------------------------------------------------
SHRINK_EDGES = np.array([-3.0, -0.5, -0.49, -0.2, 0.0, 0.2, 0.5, 0.51, 1.0, 20.0])
MORE_CASES = [
    ("threshold", {"threshold": 0.2, "value": 9.0}),
    ("threshold", {"threshold": -0.5, "value": -1.0}),
    ("hardshrink", {}),
    ("hardshrink", {"lambd": 0.2}),
    ("hardshrink", {"lambd": -1.0}),
    ("softshrink", {}),
    ("softshrink", {"lambd": 0.0}),
    ("tanhshrink", {}),
    ("rrelu", {}),
    ("rrelu", {"lower": 0.1, "upper": 0.5}),
]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize(("name", "options"), MORE_CASES, ids=[f"{n}-{o}" for n, o in MORE_CASES])
def test_more_activations_match_torch(name, options, dtype):
    check_op(lambda lib, x: getattr(F(lib), name)(x, **options), SHRINK_EDGES.astype(dtype))


def test_threshold_and_shrink_dtypes_and_errors():
    check_op(lambda lib, x: F(lib).threshold(x, 1.5, 5.5), np.array([-2, 0, 1, 2, 3]))
    check_op(lambda lib, x: F(lib).threshold(x, 0, 1), np.array([True, False]))
    check_op(lambda lib, x: F(lib).threshold_(x * 1, 0.1, 20.0), randn_like_channels())
    check_op(lambda lib, x: F(lib).threshold(x * 1, 0.1, 20.0, inplace=True), randn_like_channels())
    check_op(lambda lib, x: F(lib).hardshrink(x), np.array([1, 2]))
    check_op(lambda lib, x: F(lib).softshrink(x), np.array([1, 2]))
    for dtype in ["float32", "float64"]:
        check_op(lambda lib, x: F(lib).softshrink(x, -1.0), np.ones(2, dtype=dtype), same_message=True)
    check_op(lambda lib, x: F(lib).tanhshrink(x), np.array([-2, 0, 3]))
    check_op(lambda lib, x: F(lib).relu_(x * 1), randn_like_channels())


@pytest.mark.parametrize("dim", [-1, 0, 1, 2])
def test_glu_matches_torch(dim):
    x = np.random.default_rng(5).standard_normal((2, 4, 6)) * 3
    check_op(lambda lib, x: F(lib).glu(x, dim), x)


@pytest.mark.parametrize(
    "x", [np.ones((2, 3)), np.array(1.0), np.ones((2, 4), dtype="int64")], ids=["odd", "scalar", "integer"]
)
def test_glu_errors(x):
    check_op(lambda lib, x: F(lib).glu(x), x)


@pytest.mark.parametrize("dim", [0, 1, -1, None])
def test_softmin_matches_torch(dim):
    check_op(lambda lib, x: F(lib).softmin(x, dim), np.random.default_rng(6).standard_normal((3, 4)) * 5)
    check_op(lambda lib, x: F(lib).softmin(x, dim, dtype=lib.float64), np.random.default_rng(6).standard_normal((3, 4)).astype("float32"))


def test_rrelu_training_draws_slopes_between_lower_and_upper():
    """The random slopes cannot equal torch's (other generator): check what they must satisfy."""
    tl.manual_seed(0)
    x = tl.tensor(-np.linspace(0.1, 2.0, 200), requires_grad=True)
    y = F(tl).rrelu(x, 0.1, 0.3, training=True)
    slopes = (y / x).detach().numpy()
    assert slopes.min() >= 0.1 and slopes.max() <= 0.3 and slopes.std() > 0.02
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), slopes)
    assert y.grad_fn.name() == torch.nn.functional.rrelu(torch.tensor([-1.0], requires_grad=True), training=True).grad_fn.name()
    positive = F(tl).rrelu(tl.tensor([0.5, 2.0]), training=True)
    np.testing.assert_array_equal(positive.numpy(), [0.5, 2.0])


MORE_MODULES = [
    ("Threshold", {"threshold": 0.1, "value": 20.0}), ("Threshold", {"threshold": 0.1, "value": 20.0, "inplace": True}),
    ("Hardshrink", {}), ("Softshrink", {"lambd": 0.3}), ("Tanhshrink", {}), ("Softmin", {"dim": 1}), ("GLU", {"dim": 1}),
    ("RReLU", {"lower": 0.1, "upper": 0.3}),
]


@pytest.mark.parametrize(("name", "options"), MORE_MODULES, ids=[f"{n}-{o}" for n, o in MORE_MODULES])
def test_more_modules_match_torch(name, options):
    module_t, module_m = getattr(torch.nn, name)(**options), getattr(tl.nn, name)(**options)
    module_t.eval()
    module_m.eval()  # RReLU: the mean slope, which both libraries agree on
    assert repr(module_m) == repr(module_t)
    check_op(lambda lib, x: (module_t if lib is torch else module_m)(x * 1), np.random.default_rng(2).standard_normal((2, 4, 3)))
