"""nn.Conv1d/Conv2d/ConvTranspose1d/ConvTranspose2d, the pooling layers, F.pad and create_graph through conv, against torch."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
import torch
import torch.nn.functional as torch_f
from hypothesis import given
from hypothesis import strategies as st

import tensorlab as tl
import tensorlab.nn.functional as tl_f
from tensorlab import nn
from tensorlab.ops import conv as ops_conv
from tensorlab.ops import pooling as ops_pooling
from tensorlab.ops import windows as ops_windows
from tests.oracle import assert_same, check_op


def functional(lib):
    return torch_f if lib.__name__ == "torch" else tl_f


def as_tl(t: torch.Tensor) -> tl.Tensor:
    return tl.tensor(t.detach().numpy().copy())


def copy_weights(torch_layer: torch.nn.Module, tl_layer: nn.Module) -> None:
    """Give tensorlab's layer torch's (randomly initialised) parameters, through load_state_dict."""
    state = {name: as_tl(value) for name, value in torch_layer.state_dict().items()}
    assert list(state) == list(tl_layer.state_dict())
    tl_layer.load_state_dict(state)


def compare_layer(torch_layer: torch.nn.Module, tl_layer: nn.Module, x: np.ndarray) -> None:
    """Same forward, same input gradient, same parameter gradients (loss: weighted sum of the output)."""
    copy_weights(torch_layer, tl_layer)
    xt = torch.tensor(x, requires_grad=True)
    xm = tl.tensor(x, requires_grad=True)
    yt, ym = torch_layer(xt), tl_layer(xm)
    assert_same(yt, ym, where="forward")
    weights = np.random.default_rng(1).standard_normal(tuple(yt.shape)).astype(x.dtype)
    (yt * torch.tensor(weights)).sum().backward()
    (ym * tl.tensor(weights)).sum().backward()
    assert_same(xt.grad, xm.grad, where="input grad")
    for (name, pt), (_, pm) in zip(torch_layer.named_parameters(), tl_layer.named_parameters(), strict=True):
        assert_same(pt.grad, pm.grad, where=f"{name}.grad")


# --- Conv1d / Conv2d ----------------------------------------------------------------------------
@st.composite
def conv_layer_case(draw: st.DrawFn, n: int) -> tuple:
    groups = draw(st.sampled_from([1, 1, 2]))
    c_in, c_out = groups * draw(st.integers(1, 3)), groups * draw(st.integers(1, 3))
    kernel = tuple(draw(st.integers(1, 3)) for _ in range(n))
    dilation = tuple(draw(st.integers(1, 2)) for _ in range(n))
    padding: object = draw(st.one_of(st.integers(0, 2), st.sampled_from(["valid", "same"])))
    stride = (1,) * n if padding == "same" else tuple(draw(st.integers(1, 2)) for _ in range(n))
    mode = draw(st.sampled_from(["zeros", "zeros", "reflect", "replicate", "circular"]))
    pad_total = [2 * padding] * n if isinstance(padding, int) else [d * (k - 1) for k, d in zip(kernel, dilation, strict=True)]
    # reflect needs padding < size; every mode needs a window to fit
    spatial = tuple(
        max(d * (k - 1) + 1, p + 1) + draw(st.integers(0, 4)) for k, d, p in zip(kernel, dilation, pad_total, strict=True)
    )
    batch = draw(st.sampled_from([None, 2]))
    kwargs = {
        "stride": stride, "padding": padding, "dilation": dilation, "groups": groups,
        "bias": draw(st.booleans()), "padding_mode": mode,
    }
    dtype = draw(st.sampled_from([np.float32, np.float64]))
    shape = ((batch,) if batch else ()) + (c_in, *spatial)
    x = np.random.default_rng(draw(st.integers(0, 2**16))).standard_normal(shape).astype(dtype)
    return c_in, c_out, kernel, kwargs, x


@given(conv_layer_case(1))
def test_conv1d_layer_matches_torch(case: tuple) -> None:
    c_in, c_out, kernel, kwargs, x = case
    torch_dtype = torch.float64 if x.dtype == np.float64 else torch.float32
    tl_dtype = tl.float64 if x.dtype == np.float64 else tl.float32
    layer_t = torch.nn.Conv1d(c_in, c_out, kernel, **kwargs, dtype=torch_dtype)
    layer_m = nn.Conv1d(c_in, c_out, kernel, **kwargs, dtype=tl_dtype)
    assert repr(layer_m) == repr(layer_t)
    compare_layer(layer_t, layer_m, x)


@given(conv_layer_case(2))
def test_conv2d_layer_matches_torch(case: tuple) -> None:
    c_in, c_out, kernel, kwargs, x = case
    layer_t = torch.nn.Conv2d(c_in, c_out, kernel, **kwargs, dtype=torch.float64 if x.dtype == np.float64 else None)
    layer_m = nn.Conv2d(c_in, c_out, kernel, **kwargs, dtype=tl.float64 if x.dtype == np.float64 else None)
    assert repr(layer_m) == repr(layer_t)
    compare_layer(layer_t, layer_m, x)


@st.composite
def conv_transpose_layer_case(draw: st.DrawFn, n: int) -> tuple:
    groups = draw(st.sampled_from([1, 1, 2]))
    c_in, c_out = groups * draw(st.integers(1, 3)), groups * draw(st.integers(1, 3))
    kernel = tuple(draw(st.integers(1, 3)) for _ in range(n))
    stride = tuple(draw(st.integers(1, 3)) for _ in range(n))
    dilation = tuple(draw(st.integers(1, 2)) for _ in range(n))
    padding = tuple(draw(st.integers(0, 2)) for _ in range(n))
    output_padding = tuple(draw(st.integers(0, max(s, d) - 1)) for s, d in zip(stride, dilation, strict=True))
    spatial = tuple(2 * p + 1 + draw(st.integers(0, 3)) for p in padding)  # every output size stays positive
    batch = draw(st.sampled_from([None, 2]))
    kwargs = {"stride": stride, "padding": padding, "output_padding": output_padding, "groups": groups,
              "bias": draw(st.booleans()), "dilation": dilation}
    shape = ((batch,) if batch else ()) + (c_in, *spatial)
    x = np.random.default_rng(draw(st.integers(0, 2**16))).standard_normal(shape)
    return c_in, c_out, kernel, kwargs, x


@pytest.mark.parametrize("n", [1, 2])
@given(data=st.data())
def test_conv_transpose_layers_match_torch(n: int, data: st.DataObject) -> None:
    c_in, c_out, kernel, kwargs, x = data.draw(conv_transpose_layer_case(n))
    layer_t = getattr(torch.nn, f"ConvTranspose{n}d")(c_in, c_out, kernel, **kwargs, dtype=torch.float64)
    layer_m = getattr(nn, f"ConvTranspose{n}d")(c_in, c_out, kernel, **kwargs, dtype=tl.float64)
    assert repr(layer_m) == repr(layer_t)
    assert layer_m.weight.shape == tuple(layer_t.weight.shape)
    compare_layer(layer_t, layer_m, x)


def test_conv_transpose_output_size_picks_the_output_padding() -> None:
    """output_size chooses among the sizes a strided transposed conv can give; others raise torch's ValueError."""
    x = np.random.default_rng(0).standard_normal((1, 2, 4))
    for size in ([9], [10], [1, 3, 10]):
        layer_t = torch.nn.ConvTranspose1d(2, 3, 3, stride=2, dtype=torch.float64)
        layer_m = nn.ConvTranspose1d(2, 3, 3, stride=2, dtype=tl.float64)
        copy_weights(layer_t, layer_m)
        assert_same(layer_t(torch.tensor(x), output_size=size), layer_m(tl.tensor(x), output_size=size))
    for size in ([20], [1, 2]):
        check_op(lambda lib, a, size=size: lib.nn.ConvTranspose1d(2, 3, 3, stride=2)(a, output_size=size),
                 x.astype(np.float32), same_message=True)


def test_conv_transpose_layer_is_the_input_gradient_of_a_conv() -> None:
    """ConvTranspose1d(O, C) with a Conv1d(C, O)'s weight maps dY to that conv's dX (what the name means)."""
    rng = np.random.default_rng(1)
    conv = nn.Conv1d(3, 4, 3, stride=2, padding=1, bias=False)
    up = nn.ConvTranspose1d(4, 3, 3, stride=2, padding=1, output_padding=1, bias=False)
    up.weight = conv.weight
    x = tl.tensor(rng.standard_normal((1, 3, 8)).astype(np.float32), requires_grad=True)
    dy = tl.tensor(rng.standard_normal((1, 4, 4)).astype(np.float32))
    conv(x).backward(dy)
    np.testing.assert_allclose(up(dy).detach().numpy(), x.grad.numpy(), rtol=1e-5, atol=1e-6)


def test_conv_transpose_layer_padding_mode_error() -> None:
    for lib in (torch, tl):
        with pytest.raises(ValueError, match='Only "zeros" padding mode is supported for ConvTranspose2d'):
            lib.nn.ConvTranspose2d(2, 3, 3, padding_mode="reflect")


REPR_CASES = [
    ("Conv1d", (16, 32, 5), {}),
    ("Conv1d", (4, 4, 3), {"padding": "same", "groups": 2}),
    ("Conv1d", (4, 6, 3), {"padding": "valid", "bias": False}),
    ("Conv1d", (2, 3, (3,)), {"stride": 2, "padding": 1, "dilation": 2, "padding_mode": "circular"}),
    ("Conv2d", (3, 8, (3, 5)), {"stride": 2, "padding": 1, "dilation": 2, "bias": False, "padding_mode": "reflect"}),
    ("Conv2d", (3, 8, 3), {"padding": (1, 0)}),
    ("MaxPool1d", (2,), {}),
    ("MaxPool1d", (3,), {"stride": 1, "padding": 1, "dilation": 2, "ceil_mode": True}),
    ("MaxPool2d", ((2, 3),), {"stride": 1, "return_indices": True}),
    ("AvgPool1d", (2,), {}),
    ("AvgPool1d", (3,), {"stride": 2, "padding": 1, "count_include_pad": False}),
    ("AvgPool2d", (2,), {"divisor_override": 3}),
    ("AvgPool2d", ((2, 3),), {"stride": (1, 2), "padding": (1, 1)}),
]


@pytest.mark.parametrize(("name", "args", "kwargs"), REPR_CASES)
def test_repr_and_state_dict_keys(name: str, args: tuple, kwargs: dict) -> None:
    layer_t, layer_m = getattr(torch.nn, name)(*args, **kwargs), getattr(nn, name)(*args, **kwargs)
    assert repr(layer_m) == repr(layer_t)
    assert list(layer_m.state_dict()) == list(layer_t.state_dict())
    for attribute in ("kernel_size", "stride", "padding", "dilation", "groups", "padding_mode", "ceil_mode", "count_include_pad"):
        if hasattr(layer_t, attribute):
            assert getattr(layer_m, attribute) == getattr(layer_t, attribute), attribute


@pytest.mark.parametrize(
    "kwargs",
    [{"groups": 3}, {"groups": 0}, {"padding": "foo"}, {"padding": "same", "stride": 2}, {"padding_mode": "bogus"}],
)
def test_conv_layer_constructor_errors(kwargs: dict) -> None:
    with pytest.raises(ValueError) as expected:
        torch.nn.Conv1d(4, 6, 3, **kwargs)
    with pytest.raises(ValueError) as got:
        nn.Conv1d(4, 6, 3, **kwargs)
    without_set = lambda e: re.sub(r"\{.*\}", "{...}", str(e.value))  # noqa: E731 - torch prints a set: its order varies
    assert without_set(got) == without_set(expected)


def test_conv_layer_channel_mismatch_error() -> None:
    check_op(lambda lib, a: lib.nn.Conv1d(3, 2, 1)(a), np.ones((1, 4, 5), np.float32))


@pytest.mark.parametrize(("layer", "fan_in"), [(lambda: nn.Conv1d(16, 32, 5), 80), (lambda: nn.Conv2d(6, 40, (3, 2), groups=2), 18)])
def test_default_init_is_torchs_distribution(layer, fan_in: int) -> None:
    """kaiming_uniform_(a=sqrt 5) and the bias both draw from U(-1/sqrt(fan_in), 1/sqrt(fan_in))."""
    conv = layer()
    bound = 1 / math.sqrt(fan_in)
    w, b = conv.weight.detach().numpy(), conv.bias.detach().numpy()
    assert np.abs(w).max() <= bound and np.abs(b).max() <= bound
    assert abs(w.std() - bound / math.sqrt(3)) < 0.15 * bound  # a uniform's std, not a constant
    assert conv.weight.requires_grad and conv.bias.requires_grad
    assert conv.weight.dtype is tl.float32


def test_small_convnet_matches_torch() -> None:
    """Conv1d -> ReLU -> MaxPool1d -> Conv1d -> AvgPool1d -> Flatten -> Linear, end to end."""

    def build(lib):
        m = lib.nn
        return m.Sequential(
            m.Conv1d(3, 4, 3, padding="same"), m.ReLU(), m.MaxPool1d(2),
            m.Conv1d(4, 2, 3, stride=2, padding_mode="replicate", padding=1), m.AvgPool1d(2), m.Flatten(), m.Linear(4, 5),
        )

    net_t, net_m = build(torch), build(tl)
    x = np.random.default_rng(0).standard_normal((2, 3, 16)).astype(np.float32)
    compare_layer(net_t, net_m, x)


# --- pooling layers -----------------------------------------------------------------------------
POOL_CASES = [
    ("MaxPool1d", (3,), {"stride": 2, "padding": 1}, (2, 3, 9)),
    ("MaxPool1d", (2,), {"dilation": 2, "ceil_mode": True}, (3, 8)),
    ("MaxPool2d", ((2, 3),), {"stride": 1, "padding": (1, 1)}, (2, 2, 5, 6)),
    ("AvgPool1d", (3,), {"stride": 2, "padding": 1, "count_include_pad": False}, (2, 3, 9)),
    ("AvgPool1d", (2,), {"ceil_mode": True}, (3, 7)),
    ("AvgPool2d", (2,), {"divisor_override": 3}, (2, 2, 5, 6)),
    ("AvgPool2d", ((3, 2),), {"stride": (1, 2), "padding": (1, 0), "ceil_mode": True}, (1, 4, 5)),
]


@pytest.mark.parametrize(("name", "args", "kwargs", "shape"), POOL_CASES)
def test_pool_layers_match_torch(name: str, args: tuple, kwargs: dict, shape: tuple) -> None:
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    check_op(lambda lib, a: getattr(lib.nn, name)(*args, **kwargs)(a), x)


def test_max_pool_layer_return_indices() -> None:
    x = np.random.default_rng(0).standard_normal((2, 3, 4, 6)).astype(np.float32)
    check_op(lambda lib, a: lib.nn.MaxPool2d(2, return_indices=True)(a), x)


# --- F.pad ----------------------------------------------------------------------------------------
@given(
    mode=st.sampled_from(["constant", "reflect", "replicate", "circular"]),
    dims=st.integers(1, 2),
    pads=st.lists(st.integers(-1, 3), min_size=4, max_size=4),
    seed=st.integers(0, 2**16),
)
def test_pad_matches_torch(mode: str, dims: int, pads: list, seed: int) -> None:
    pad = tuple(pads[: 2 * dims])
    if mode != "constant":
        pad = tuple(max(p, 0) for p in pad)  # negative padding is a constant-mode idea
    x = np.random.default_rng(seed).standard_normal((2, 3, 4, 5)[-(dims + 1) - (seed % 2) :]).astype(np.float32)
    kwargs = {"value": 1.5} if mode == "constant" and seed % 3 == 0 else {}
    check_op(lambda lib, a: functional(lib).pad(a, pad, mode=mode, **kwargs), x)


@pytest.mark.parametrize(
    ("shape", "pad", "kwargs"),
    [
        ((1, 2, 3), (1,), {}),
        ((1, 2, 3), (1, 2, 3, 4, 5, 6, 7, 8), {}),
        ((1, 2, 3), (4, 4), {"mode": "reflect"}),
        ((1, 2, 3), (1, 1), {"mode": "bogus"}),
        ((1, 2, 3), (1, 1), {"mode": "reflect", "value": 2.0}),
        ((3,), (1, 1), {"mode": "replicate"}),
        ((2, 3), (1, 2, 3, 4), {}),
    ],
)
def test_pad_errors_and_edge_cases(shape: tuple, pad: tuple, kwargs: dict) -> None:
    check_op(lambda lib, a: functional(lib).pad(a, pad, **kwargs), np.ones(shape, np.float32))


def test_pad_integer_input() -> None:
    check_op(lambda lib, a: functional(lib).pad(a, (1, 2), value=7), np.arange(6).reshape(2, 3))


# --- nn.functional re-exports ops/conv.py, ops/windows.py, ops/pooling.py (one implementation) ---
@pytest.mark.parametrize(
    "name",
    ["conv1d", "conv2d", "conv_transpose1d", "conv_transpose2d", "unfold", "fold", "max_pool1d", "max_pool2d", "avg_pool1d", "avg_pool2d"],
)
def test_functional_reexports_ops(name: str) -> None:
    op = next(getattr(m, name) for m in (ops_conv, ops_pooling, ops_windows) if hasattr(m, name))
    assert getattr(tl_f, name).__wrapped__ is op  # the op itself, behind the function-mode check (overrides.py)
    assert name in tl_f.__all__


# --- double backward: first order with create_graph works; pooling's second order raises clearly --
def test_conv_create_graph_first_order_matches_torch() -> None:
    rng = np.random.default_rng(0)
    x, w = rng.standard_normal((2, 3, 7)), rng.standard_normal((4, 3, 3))
    xt, wt = torch.tensor(x, requires_grad=True), torch.tensor(w, requires_grad=True)
    xm, wm = tl.tensor(x, requires_grad=True), tl.tensor(w, requires_grad=True)
    gt = torch.autograd.grad(torch_f.conv1d(xt, wt, padding=1).pow(2).sum(), (xt, wt), create_graph=True)
    gm = tl.autograd.grad(tl_f.conv1d(xm, wm, padding=1).pow(2).sum(), (xm, wm), create_graph=True)
    assert_same(gt, gm)


@pytest.mark.parametrize(
    "op",
    [
        lambda f, x, w: f.max_pool1d(x * w.sum(), 2),
        lambda f, x, w: f.avg_pool1d(x * w.sum(), 2),
    ],
)
def test_double_backward_raises_instead_of_being_silently_wrong(op) -> None:
    rng = np.random.default_rng(0)
    x = tl.tensor(rng.standard_normal((2, 3, 8)), requires_grad=True)
    w = tl.tensor(rng.standard_normal((4, 3, 3)), requires_grad=True)
    (grad_x,) = tl.autograd.grad(op(tl_f, x, w).pow(2).sum(), (x,), create_graph=True)
    with pytest.raises(RuntimeError, match="differentiate twice"):
        grad_x.sum().backward()


def test_unfold_and_fold_double_backward_match_torch() -> None:
    """Unfold and fold are each other's backward (tensor ops), so second derivatives work."""
    x = np.random.default_rng(0).standard_normal((1, 2, 4, 5))
    results = []
    for lib, f in ((torch, torch_f), (tl, tl_f)):
        a = lib.tensor(x, requires_grad=True)
        columns = f.unfold(a, (2, 3), padding=1)
        loss = (columns.pow(3) + f.fold(columns, (4, 5), (2, 3), padding=1).pow(3).sum()).sum()
        (grad_a,) = lib.autograd.grad(loss, (a,), create_graph=True)
        (second,) = lib.autograd.grad(grad_a.pow(2).sum(), (a,))
        results.append((grad_a, second))
    assert_same(*results)
