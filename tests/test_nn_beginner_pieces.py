"""Issue 18's last beginner nn pieces against torch: normalize, Unflatten, Dropout2d,
ParameterList/ParameterDict, init.trunc_normal_/orthogonal_."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import tensorlab as tl
from tests.oracle import check_op


def F(lib):  # noqa: N802 - reads like the usual ``F.``
    return lib.nn.functional


def randn(*shape: int, seed: int = 0, dtype: str = "float64") -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


# --- F.normalize -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("x", "options"),
    [
        (randn(4, 3), {}),
        (randn(2, 3, 4), {"dim": -1}),
        (randn(2, 3, 4), {"p": 1.0, "dim": 0}),
        (randn(5), {"dim": 0, "p": 3.0}),
        (np.zeros((2, 3)), {}),  # the norm is clamped at eps: gradient of x / eps
        (randn(2, 3) * 1e-14, {}),
        (randn(3, 4, dtype="float32"), {"eps": 0.5}),
    ],
    ids=["rows", "last-dim", "p1-dim0", "1-d", "zero", "tiny", "float32-eps"],
)
def test_normalize_matches_torch(x, options):
    check_op(lambda lib, x: F(lib).normalize(x, **options), x)


@pytest.mark.parametrize(("x", "dim"), [(randn(2, 3), 2), (np.array([[1, 2], [3, 4]]), 1)], ids=["bad-dim", "integers"])
def test_normalize_errors(x, dim):
    check_op(lambda lib, x: F(lib).normalize(x, dim=dim), x)


@settings(max_examples=30, deadline=None)
@given(shape=st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple), seed=st.integers(0, 2**16), p=st.sampled_from([1.0, 2.0, 3.0]), data=st.data())
def test_random_normalize(shape, seed, p, data):
    dim = data.draw(st.integers(-len(shape), len(shape) - 1))
    check_op(lambda lib, x: F(lib).normalize(x, p=p, dim=dim), randn(*shape, seed=seed))


# --- nn.Unflatten ----------------------------------------------------------------------------
@pytest.mark.parametrize(("dim", "size", "shape"), [(1, (3, 4), (2, 12)), (-1, [2, -1], (2, 3, 6)), (0, (2, 1, 3), (6,))])
def test_unflatten_matches_torch(dim, size, shape):
    module_t, module_m = torch.nn.Unflatten(dim, size), tl.nn.Unflatten(dim, size)
    assert repr(module_m) == repr(module_t)
    check_op(lambda lib, x: (module_t if lib is torch else module_m)(x), randn(*shape))


def test_unflatten_errors():
    check_op(lambda lib, x: lib.nn.Unflatten(1, (5, 5))(x), randn(2, 12))
    check_op(lambda lib, x: lib.nn.Unflatten(1, 12)(x), randn(2, 12), match="unflattened_size must be a tuple of ints")


@settings(max_examples=20, deadline=None)
@given(parts=st.lists(st.integers(1, 3), min_size=1, max_size=3), batch=st.integers(1, 3), seed=st.integers(0, 2**16))
def test_random_unflatten_undoes_flatten(parts, batch, seed):
    x = randn(batch, *parts, seed=seed)
    check_op(lambda lib, x: lib.nn.Unflatten(1, tuple(parts))(lib.nn.Flatten()(x)), x)


# --- F.dropout2d / nn.Dropout2d --------------------------------------------------------------
@pytest.mark.parametrize("shape", [(2, 3, 4, 5), (3, 4, 5)], ids=["NCHW", "NCL"])
def test_dropout2d_eval_and_p0_are_the_identity(shape):
    x = randn(*shape)
    check_op(lambda lib, x: F(lib).dropout2d(x, 0.5, training=False), x)
    check_op(lambda lib, x: F(lib).dropout2d(x, 0.0), x)
    module_t, module_m = torch.nn.Dropout2d(0.3), tl.nn.Dropout2d(0.3)
    assert repr(module_m) == repr(module_t)
    module_t.eval()
    module_m.eval()
    check_op(lambda lib, x: (module_t if lib is torch else module_m)(x), x)


def test_dropout2d_p1_zeroes_everything():
    check_op(lambda lib, x: F(lib).dropout2d(x, 1.0), randn(2, 3, 4, 4))


@pytest.mark.parametrize(("x", "p"), [(randn(2, 3, 4, 4), 1.5), (randn(2, 3, 4, 4), -0.1), (randn(3), 0.5)], ids=["p>1", "p<0", "1-d"])
def test_dropout2d_errors(x, p):
    check_op(lambda lib, x: F(lib).dropout2d(x, p), x)
    if 0 <= p <= 1:
        check_op(lambda lib, x: lib.nn.Dropout2d(p)(x), x, match="Feature dropout requires at least 2 dimensions")
    else:
        check_op(lambda lib, x: lib.nn.Dropout2d(p), x, match="dropout probability has to be between 0 and 1")


@pytest.mark.parametrize("p", [0.2, 0.5, 0.8])
def test_dropout2d_drops_whole_channels_at_rate_p(p):
    """Distribution: each (sample, channel) map is all zero or all x / (1 - p), the zeroed fraction
    is p (binomial, 4 standard deviations), and the gradient is the same mask; torch agrees."""
    n, c = 40, 50
    for lib in (torch, tl):
        lib.manual_seed(0)
        x = lib.ones(n, c, 3, 3, requires_grad=True)
        y = F(lib).dropout2d(x, p)
        maps = y.detach().numpy().reshape(n, c, 9)
        assert np.all(maps == maps[..., :1]), f"{lib.__name__}: a channel was partly dropped"
        assert set(np.unique(maps).round(6)) <= {0.0, round(1 / (1 - p), 6)}
        dropped = float((maps[..., 0] == 0).mean())
        assert abs(dropped - p) < 4 * np.sqrt(p * (1 - p) / (n * c)), f"{lib.__name__}: dropped {dropped}, p={p}"
        y.sum().backward()
        np.testing.assert_allclose(x.grad.numpy(), y.detach().numpy())


def test_dropout2d_module_train_mode_and_inplace():
    tl.manual_seed(1)
    x = tl.tensor(randn(4, 6, 2, 2))
    before = x.numpy().copy()
    y = tl.nn.Dropout2d(0.5, inplace=True)(x)
    assert y is x
    kept = (y.numpy() != 0).reshape(4, 6, 4).all(-1)
    np.testing.assert_allclose(y.numpy()[kept], before[kept] * 2)


@settings(max_examples=20, deadline=None)
@given(n=st.integers(1, 3), c=st.integers(1, 4), hw=st.integers(1, 3), p=st.floats(0.0, 1.0), seed=st.integers(0, 2**16))
def test_random_dropout2d_masks_are_per_channel(n, c, hw, p, seed):
    tl.manual_seed(seed)
    x = tl.tensor(randn(n, c, hw, hw, seed=seed) + 10.0)  # no zeros of its own
    y = F(tl).dropout2d(x, p).numpy()
    dropped = y == 0
    assert np.all(dropped == dropped[:, :, :1, :1])
    scale = 0.0 if p == 1.0 else 1.0 / (1.0 - p)
    np.testing.assert_allclose(y[~dropped], x.numpy()[~dropped] * scale, rtol=1e-12)
    check_op(lambda lib, x: F(lib).dropout2d(x, p, training=False), randn(n, c, hw, hw, seed=seed))


# --- ParameterList / ParameterDict -----------------------------------------------------------
def _parameter_lists(lib):
    return lib.nn.ParameterList([lib.nn.Parameter(lib.ones(3, 4)), lib.zeros(2, dtype=lib.float64)])


def _parameter_dicts(lib):
    return lib.nn.ParameterDict({"weight": lib.nn.Parameter(lib.ones(3, 4)), "bias": lib.zeros(2)})


@pytest.mark.parametrize("build", [_parameter_lists, _parameter_dicts], ids=["list", "dict"])
def test_parameter_containers_register_like_torch(build):
    made_t, made_m = build(torch), build(tl)
    assert repr(made_m) == repr(made_t).replace("torch.", "tensorlab.")
    assert list(made_m.state_dict()) == list(made_t.state_dict())
    assert [name for name, _ in made_m.named_parameters()] == [name for name, _ in made_t.named_parameters()]
    assert all(isinstance(p, tl.nn.Parameter) and p.requires_grad for p in made_m.parameters())  # tensors were wrapped
    owner_t, owner_m = torch.nn.Module(), tl.nn.Module()
    owner_t.held, owner_m.held = made_t, made_m
    assert list(owner_m.state_dict()) == list(owner_t.state_dict())
    owner_m.load_state_dict({k: tl.tensor(v.numpy() + 1) for k, v in owner_t.state_dict().items()})
    for value_t, value_m in zip(owner_t.state_dict().values(), owner_m.state_dict().values(), strict=True):
        np.testing.assert_array_equal(value_m.numpy(), value_t.numpy() + 1)
    with pytest.raises(RuntimeError, match="should not be called"):
        made_t(torch.ones(1))
    with pytest.raises(RuntimeError, match="should not be called"):
        made_m(tl.ones(1))


def test_parameter_list_behaves_as_a_list():
    for lib in (torch, tl):
        params = lib.nn.ParameterList()
        params.append(lib.ones(2))
        params.extend([lib.ones(3), lib.ones(4)])
        params += [lib.ones(5)]
        assert [p.shape[0] for p in params] == [2, 3, 4, 5]
        assert params[-1].shape[0] == 5 and len(params[1:3]) == 2
        params[0] = lib.zeros(7)
        assert isinstance(params[0], lib.nn.Parameter) and params[0].shape[0] == 7
        with pytest.raises(IndexError):
            params[4]
        with pytest.raises(TypeError):
            params.extend(lib.ones(2))


def test_parameter_dict_behaves_as_a_dict():
    for lib in (torch, tl):
        params = lib.nn.ParameterDict()
        params["a"] = lib.ones(2)
        params.update([("b", lib.ones(3))])
        assert list(params) == ["a", "b"] and "a" in params and len(params) == 2
        assert params.pop("a").shape[0] == 2 and list(params.keys()) == ["b"]
        assert [k for k, _ in params.named_parameters()] == ["b"]
        with pytest.raises(AttributeError):  # torch looks keys up as attributes
            params["missing"]
        params.clear()
        assert len(params) == 0 and list(params.parameters()) == []


def test_parameter_containers_train_with_an_optimizer():
    model = tl.nn.Module()
    model.weights = tl.nn.ParameterList([tl.ones(3)])
    model.extra = tl.nn.ParameterDict({"scale": tl.ones(1)})
    optimizer = tl.optim.SGD(model.parameters(), lr=0.5)
    (model.weights[0].sum() * model.extra["scale"]).sum().backward()
    optimizer.step()
    np.testing.assert_allclose(model.weights[0].detach().numpy(), [0.5, 0.5, 0.5])
    np.testing.assert_allclose(model.extra["scale"].detach().numpy(), [-0.5])


@settings(max_examples=15, deadline=None)
@given(sizes=st.lists(st.integers(1, 4), min_size=0, max_size=4))
def test_random_parameter_lists_have_torchs_keys_and_repr(sizes):
    made_t = torch.nn.ParameterList([torch.zeros(n) for n in sizes])
    made_m = tl.nn.ParameterList([tl.zeros(n) for n in sizes])
    assert list(made_m.state_dict()) == list(made_t.state_dict())
    assert repr(made_m) == repr(made_t).replace("torch.", "tensorlab.")


# --- nn.init.trunc_normal_ / orthogonal_ -----------------------------------------------------
@pytest.mark.parametrize(("mean", "std", "a", "b"), [(0.0, 1.0, -2.0, 2.0), (1.0, 2.0, -1.0, 3.0), (0.0, 0.02, -0.04, 0.04), (0.0, 1.0, 0.5, 4.0)])
def test_trunc_normal_has_torchs_distribution(mean, std, a, b):
    """Bounds are hard; mean and std agree with torch's samples (both are 20 000 draws)."""
    got = tl.nn.init.trunc_normal_(tl.empty(100, 200), mean, std, a, b)
    expected = torch.nn.init.trunc_normal_(torch.empty(100, 200), mean, std, a, b)
    assert got.dtype == tl.float32 and tuple(got.shape) == tuple(expected.shape)
    values, reference = got.numpy(), expected.numpy()
    assert a <= values.min() and values.max() <= b
    assert abs(values.mean() - reference.mean()) < 0.05 * std
    assert abs(values.std() - reference.std()) < 0.05 * std


def test_trunc_normal_warns_as_torch_and_keeps_the_tensor():
    w = tl.empty(4, 4)
    assert tl.nn.init.trunc_normal_(w) is w
    with pytest.warns(UserWarning, match="mean is more than 2 std"):
        tl.nn.init.trunc_normal_(tl.empty(3), mean=10.0)
    with pytest.warns(UserWarning, match="mean is more than 2 std"):
        torch.nn.init.trunc_normal_(torch.empty(3), mean=10.0)


@pytest.mark.parametrize("shape", [(3, 5), (5, 3), (4, 4), (6, 2, 2), (2, 3, 2)])
@pytest.mark.parametrize("gain", [1.0, 2.5])
def test_orthogonal_rows_or_columns_are_orthonormal(shape, gain):
    got = tl.nn.init.orthogonal_(tl.empty(*shape, dtype=tl.float64), gain)
    expected = torch.nn.init.orthogonal_(torch.empty(*shape, dtype=torch.float64), gain)
    for q in (got.numpy().reshape(shape[0], -1), expected.numpy().reshape(shape[0], -1)):
        gram = q @ q.T if q.shape[0] <= q.shape[1] else q.T @ q
        np.testing.assert_allclose(gram, gain**2 * np.eye(len(gram)), atol=1e-10)
    assert got.dtype == tl.float64


def test_orthogonal_errors_and_no_graph():
    check_op(lambda lib, w: lib.nn.init.orthogonal_(w), randn(3), grad=False, match="Only tensors with 2 or more dimensions")
    w = tl.nn.Parameter(tl.empty(3, 3))
    tl.nn.init.orthogonal_(w)
    tl.nn.init.trunc_normal_(w)
    assert w.grad_fn is None and w.requires_grad


@settings(max_examples=15, deadline=None)
@given(rows=st.integers(1, 6), cols=st.integers(1, 6), seed=st.integers(0, 2**16))
def test_random_orthogonal(rows, cols, seed):
    tl.manual_seed(seed)
    q = tl.nn.init.orthogonal_(tl.empty(rows, cols, dtype=tl.float64)).numpy()
    gram = q @ q.T if rows <= cols else q.T @ q
    np.testing.assert_allclose(gram, np.eye(min(rows, cols)), atol=1e-10)
