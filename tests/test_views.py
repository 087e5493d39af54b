"""View ops against torch: shapes, strides, offsets, storage sharing, gradients and errors."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import tensorlab as tl
from tests.oracle import check_op, pair, standard_normal

seeds = st.integers(0, 2**16)

rng = np.random.default_rng(0)


def arr(*shape: int) -> np.ndarray:
    return rng.standard_normal(shape)


small_shapes = st.lists(st.integers(0, 4), max_size=4).map(tuple)
nonempty_shapes = st.lists(st.integers(1, 4), max_size=4).map(tuple)


def values(shape: tuple) -> np.ndarray:
    return np.asarray(np.arange(math.prod(shape), dtype=np.float64).reshape(shape) * 0.5 - 1)


# --- the seed notes, section "Dims" ------------------------------------------------------
SEED_DIMS = {
    "[:,3] selects : for the remaining dims": (lambda m, x: x[:, 3], (3, 4, 5)),
    "t[None] inserts a leading dim": (lambda m, x: x[None], (3, 4)),
    "[:,None,:]": (lambda m, x: x[:, None, :], (3, 4)),
    "t() fails on 3-d": (lambda m, x: x.t(), (3, 4, 5)),
    "permute(2,0,1)": (lambda m, x: x.permute(2, 0, 1), (3, 4, 5)),
    "movedim (1,0)->(2,1)": (lambda m, x: m.movedim(x, (1, 0), (2, 1)), (1, 2, 3, 4)),
    "movedim (1,2)->(0,1)": (lambda m, x: m.movedim(x, (1, 2), (0, 1)), (1, 2, 3, 4)),
    "movedim (0,1)->(1,0)": (lambda m, x: m.movedim(x, (0, 1), (1, 0)), (1, 2, 3, 4)),
    "movedim (0,2)->(2,1)": (lambda m, x: m.movedim(x, (0, 2), (2, 1)), (1, 2, 3, 4)),
    "unsqueeze(0)": (lambda m, x: x.unsqueeze(0), (3, 4)),
    "unsqueeze(1)": (lambda m, x: x.unsqueeze(1), (3, 4)),
    "squeeze(0) on a non-1 dim is a no-op": (lambda m, x: x.squeeze(0), (3, 4)),
    "squeeze(0)": (lambda m, x: x.squeeze(0), (1, 3, 4)),
    "squeeze(1)": (lambda m, x: x.squeeze(1), (3, 1, 4)),
}

# --- the seed notes, section "Reshaping" --------------------------------------------------
SEED_RESHAPING = {
    "reshape(2,12)": (lambda m, x: x.reshape(2, 12), (2, 3, 4)),
    "reshape(3,8)": (lambda m, x: x.reshape(3, 8), (2, 3, 4)),
    "reshape(4,6)": (lambda m, x: x.reshape(4, 6), (2, 3, 4)),
    "reshape(3,-1)": (lambda m, x: x.reshape(3, -1), (2, 3, 4)),
    "reshape(4,-1)": (lambda m, x: x.reshape(4, -1), (2, 3, 4)),
    "reshape(-1)": (lambda m, x: x.reshape(-1), (2, 3, 4)),
    "reshape(2,-1)": (lambda m, x: x.reshape(2, -1), (2, 3, 4)),
    "view(-1,3)": (lambda m, x: x.view(-1, 3), (2, 3, 4)),
    "reshape(2,1,3,4,1)": (lambda m, x: x.reshape(2, 1, 3, 4, 1), (2, 3, 4)),
    "view(3,1,4)": (lambda m, x: x.view(3, 1, 4), (3, 4)),
}


@pytest.mark.parametrize("name", list(SEED_DIMS) + list(SEED_RESHAPING))
def test_seed_examples(name: str) -> None:
    fn, shape = {**SEED_DIMS, **SEED_RESHAPING}[name]
    check_op(fn, values(shape))


def test_seed_t_fails_on_3d_with_torch_message() -> None:
    with pytest.raises(RuntimeError, match=r"t\(\) expects a tensor with <= 2 dimensions, but self is 3D"):
        tl.empty(3, 4, 5).t()


def test_seed_dot_t_on_3d_reverses_all_dims_and_warns() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = torch.empty(3, 4, 5).T
    with pytest.warns(UserWarning, match="The use of `x.T` on tensors of dimension other than 2"):
        got = tl.empty(3, 4, 5).T
    assert tuple(got.shape) == tuple(expected.shape) and got.stride() == expected.stride()


@pytest.mark.parametrize("shape", [(), (3, 4)])
def test_dot_t_on_0d_and_2d_does_not_warn(shape: tuple) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_op(lambda m, x: x.T, values(shape))


# --- every view op on fixed cases ----------------------------------------------------------
FIXED = {
    "view 0-d to (1,1)": (lambda m, x: x.view(1, 1), ()),
    "view tuple arg": (lambda m, x: x.view((4, 3)), (3, 4)),
    "view_as": (lambda m, x: x.view_as(m.zeros(2, 6)), (3, 4)),
    "view of transposed fails": (lambda m, x: x.t().view(-1), (3, 4)),
    "view two -1": (lambda m, x: x.view(-1, -1), (3, 4)),
    "view wrong size": (lambda m, x: x.view(5, -1), (3, 4)),
    "view negative": (lambda m, x: x.view(-2, 6), (3, 4)),
    "view 0 elems -1": (lambda m, x: x.view(0, -1), (0, 3)),
    "reshape of transposed copies": (lambda m, x: x.t().reshape(-1), (3, 4)),
    "reshape of transposed, viewable": (lambda m, x: x.t().reshape(4, 1, 3), (3, 4)),
    "reshape of sliced": (lambda m, x: x[:, ::2].reshape(-1), (3, 4)),
    "reshape of expanded": (lambda m, x: x.expand(2, 3, 4).reshape(6, 4), (3, 4)),
    "reshape 0-d": (lambda m, x: x.reshape(-1), ()),
    "reshape empty": (lambda m, x: x.reshape(3, 0), (0, 3)),
    "reshape_as": (lambda m, x: x.reshape_as(m.zeros(12)), (3, 4)),
    "module reshape": (lambda m, x: m.reshape(x, (2, 6)), (3, 4)),
    "flatten": (lambda m, x: x.flatten(), (2, 3, 4)),
    "flatten(1)": (lambda m, x: x.flatten(1), (2, 3, 4)),
    "flatten(0,1)": (lambda m, x: m.flatten(x, 0, 1), (2, 3, 4)),
    "flatten(-2,-1)": (lambda m, x: x.flatten(-2, -1), (2, 3, 4)),
    "flatten start=end is x": (lambda m, x: x.flatten(1, 1), (2, 3, 4)),
    "flatten 0-d": (lambda m, x: x.flatten(), ()),
    "flatten 0-d dims 0 and -1": (lambda m, x: x.flatten(0, -1), ()),
    "flatten 0-d dim out of range": (lambda m, x: x.flatten(1), ()),
    "unflatten empty sizes before the dim": (lambda m, x: x.unflatten(5, ()), (2, 3)),
    "unflatten dim before the sizes": (lambda m, x: x.unflatten(5, (7,)), (2, 3)),
    "unflatten 0-d dim out of range": (lambda m, x: x.unflatten(5, (1,)), ()),
    "unflatten 0-d": (lambda m, x: x.unflatten(-1, (1,)), ()),
    "flatten transposed copies": (lambda m, x: x.transpose(0, 2).flatten(), (2, 3, 4)),
    "flatten bad order": (lambda m, x: x.flatten(2, 1), (2, 3, 4)),
    "flatten bad dim": (lambda m, x: x.flatten(-4), (2, 3, 4)),
    "unflatten": (lambda m, x: x.unflatten(1, (3, 1)), (2, 3, 4)),
    "unflatten -1": (lambda m, x: m.unflatten(x, -1, (2, -1)), (2, 3, 4)),
    "unflatten transposed": (lambda m, x: x.t().unflatten(0, (2, 2)), (3, 4)),
    "unflatten wrong product": (lambda m, x: x.unflatten(1, (2, 2)), (2, 3, 4)),
    "unflatten empty sizes": (lambda m, x: x.unflatten(1, ()), (2, 3, 4)),
    "unflatten two -1": (lambda m, x: x.unflatten(2, (-1, -1)), (2, 3, 4)),
    "permute negative dims": (lambda m, x: x.permute(-1, 0, -2), (2, 3, 4)),
    "permute tuple": (lambda m, x: m.permute(x, (1, 2, 0)), (2, 3, 4)),
    "permute too few": (lambda m, x: x.permute(0, 1), (2, 3, 4)),
    "permute duplicate": (lambda m, x: x.permute(0, 1, 1), (2, 3, 4)),
    "permute out of range": (lambda m, x: x.permute(0, 1, 3), (2, 3, 4)),
    "permute repeat before a bad dim": (lambda m, x: x.permute(0, 0, 5), (2, 3, 4)),
    "permute bad dim before a repeat": (lambda m, x: x.permute(5, 0, 0), (2, 3, 4)),
    "permute 0-d": (lambda m, x: x.permute(()), ()),
    "transpose": (lambda m, x: x.transpose(0, 2), (2, 3, 4)),
    "transpose negative": (lambda m, x: m.transpose(x, -1, -2), (2, 3, 4)),
    "transpose same dim": (lambda m, x: x.transpose(1, 1), (2, 3, 4)),
    "transpose 0-d": (lambda m, x: x.transpose(0, -1), ()),
    "transpose bad dim": (lambda m, x: x.transpose(0, 3), (2, 3, 4)),
    "swapaxes": (lambda m, x: m.swapaxes(x, 0, 1), (2, 3, 4)),
    "swapdims": (lambda m, x: x.swapdims(0, 2), (2, 3, 4)),
    "t 2-d": (lambda m, x: x.t(), (3, 4)),
    "t 1-d": (lambda m, x: m.t(x), (3,)),
    "t 0-d": (lambda m, x: x.t(), ()),
    "T 2-d": (lambda m, x: x.T, (3, 4)),
    "mT 3-d": (lambda m, x: x.mT, (2, 3, 4)),
    "mT 2-d": (lambda m, x: x.mT, (3, 4)),
    "mT 1-d fails": (lambda m, x: x.mT, (3,)),
    "movedim int": (lambda m, x: x.movedim(0, -1), (2, 3, 4)),
    "moveaxis": (lambda m, x: m.moveaxis(x, 2, 0), (2, 3, 4)),
    "movedim repeated source": (lambda m, x: x.movedim((0, 0), (1, 2)), (2, 3, 4)),
    "movedim repeated destination": (lambda m, x: x.movedim((0, 1), (1, 1)), (2, 3, 4)),
    "movedim length mismatch": (lambda m, x: x.movedim((0, 1), (1,)), (2, 3, 4)),
    "movedim out of range": (lambda m, x: x.movedim(5, 0), (2, 3, 4)),
    "squeeze all": (lambda m, x: x.squeeze(), (1, 3, 1, 4, 1)),
    "squeeze tuple": (lambda m, x: m.squeeze(x, (0, 2)), (1, 3, 1, 4, 1)),
    "squeeze list with non-1": (lambda m, x: x.squeeze([1, -1]), (1, 3, 1, 4, 1)),
    "squeeze repeated": (lambda m, x: x.squeeze((0, 0)), (1, 3, 1)),
    "squeeze out of range": (lambda m, x: x.squeeze(3), (1, 3, 1)),
    "squeeze 0-d": (lambda m, x: x.squeeze(0), ()),
    "squeeze strided": (lambda m, x: x[:, ::2].unsqueeze(1).squeeze(1), (3, 4)),
    "unsqueeze last": (lambda m, x: m.unsqueeze(x, -1), (3, 4)),
    "unsqueeze transposed": (lambda m, x: x.t().unsqueeze(1), (3, 4)),
    "unsqueeze 0-d": (lambda m, x: x.unsqueeze(0), ()),
    "unsqueeze out of range": (lambda m, x: x.unsqueeze(3), (3, 4)),
    "expand": (lambda m, x: x.expand(2, 3, 4), (3, 1)),
    "expand -1": (lambda m, x: x.expand(-1, 4), (3, 1)),
    "expand_as": (lambda m, x: x.expand_as(m.zeros(2, 3, 4)), (1, 4)),
    "expand bad": (lambda m, x: x.expand(3, 5), (3, 4)),
    "expand too few": (lambda m, x: x.expand(4), (3, 4)),
    "narrow": (lambda m, x: x.narrow(1, 1, 2), (3, 4)),
    "narrow negative start": (lambda m, x: m.narrow(x, 0, -2, 2), (3, 4)),
    "narrow empty": (lambda m, x: x.narrow(0, 3, 0), (3, 4)),
    "narrow start out of range": (lambda m, x: x.narrow(0, 4, 0), (3, 4)),
    "narrow too long": (lambda m, x: x.narrow(0, 2, 2), (3, 4)),
    "narrow negative length": (lambda m, x: x.narrow(0, 0, -1), (3, 4)),
    "narrow 0-d": (lambda m, x: x.narrow(0, 0, 1), ()),
    "select": (lambda m, x: x.select(1, 2), (3, 4)),
    "select negative": (lambda m, x: m.select(x, -1, -1), (3, 4)),
    "select out of range": (lambda m, x: x.select(0, 3), (3, 4)),
    "select 0-d": (lambda m, x: x.select(0, 0), ()),
    "diagonal": (lambda m, x: x.diagonal(), (3, 4)),
    "diagonal offset": (lambda m, x: m.diagonal(x, 1), (3, 4)),
    "diagonal negative offset": (lambda m, x: x.diagonal(-1), (3, 4)),
    "diagonal huge offset": (lambda m, x: x.diagonal(10), (3, 4)),
    "diagonal dims": (lambda m, x: x.diagonal(1, 2, 0), (2, 3, 4)),
    "diagonal same dims": (lambda m, x: x.diagonal(0, 1, 1), (2, 3, 4)),
    "diagonal 1-d": (lambda m, x: x.diagonal(), (3,)),
    "diagonal of transposed": (lambda m, x: x.t().diagonal(-1), (3, 4)),
    "as_strided": (lambda m, x: x.as_strided((2, 2), (1, 2)), (3, 4)),
    "as_strided offset": (lambda m, x: m.as_strided(x, (2, 3), (4, 1), 1), (3, 4)),
    "as_strided overlapping": (lambda m, x: x.as_strided((3, 3), (1, 1)), (3, 4)),
    "as_strided of view keeps offset": (lambda m, x: x[1:].as_strided((2, 2), (1, 2)), (3, 4)),
    "as_strided out of bounds": (lambda m, x: x.as_strided((2, 2), (1, 2), 100), (3, 4)),
    "as_strided negative stride": (lambda m, x: x.as_strided((2, 2), (1, -2)), (3, 4)),
    "as_strided length mismatch": (lambda m, x: x.as_strided((2, 2), (1,)), (3, 4)),
    "contiguous of contiguous": (lambda m, x: x.contiguous(), (3, 4)),
    "contiguous of transposed copies": (lambda m, x: x.t().contiguous(), (3, 4)),
    "contiguous of expanded": (lambda m, x: x.expand(2, 3, 4).contiguous(), (3, 4)),
    "chain of views": (lambda m, x: x.t()[1:].unsqueeze(0).movedim(0, 2).squeeze().narrow(0, 1, 2), (3, 4)),
}


@pytest.mark.parametrize("name", list(FIXED))
def test_view_ops(name: str) -> None:
    fn, shape = FIXED[name]
    check_op(fn, values(shape))


@pytest.mark.parametrize("name", ["permute too few", "permute repeat before a bad dim", "permute bad dim before a repeat",
                                  "view of transposed fails", "select out of range", "flatten 0-d dim out of range"])
def test_view_ops_error_messages(name: str) -> None:
    fn, shape = FIXED[name]
    t, m = pair(values(shape))
    with pytest.raises(Exception) as expected:
        fn(torch, t)
    with pytest.raises(type(expected.value)) as got:
        fn(tl, m)
    assert str(got.value).replace("tensorlab", "torch") == str(expected.value)


def test_mt_on_0d_warns_and_is_identity() -> None:
    with pytest.warns(UserWarning, match="Tensor.mT is deprecated on 0-D tensors"):
        got = tl.tensor(3.0).mT
    assert got.shape == () and got.item() == 3.0


def test_contiguous_returns_self_when_contiguous() -> None:
    x = tl.zeros(3, 4)
    assert x.contiguous() is x
    assert x.t().contiguous().is_contiguous()


# --- hypothesis: random shapes, permutations, dims -----------------------------------------
@given(st.lists(st.integers(1, 4), min_size=1, max_size=4), st.data())
def test_permute_random(shape: list, data: st.DataObject) -> None:
    order = data.draw(st.permutations(range(len(shape))))
    check_op(lambda m, x: x.permute(*order), values(tuple(shape)))


@given(small_shapes, st.data())
def test_transpose_and_movedim_random(shape: tuple, data: st.DataObject) -> None:
    n = max(len(shape), 1)
    d0, d1 = data.draw(st.integers(-n, n - 1)), data.draw(st.integers(-n, n - 1))
    check_op(lambda m, x: x.transpose(d0, d1), values(shape))
    check_op(lambda m, x: m.movedim(x, d0, d1), values(shape))


@given(small_shapes, st.data())
def test_squeeze_unsqueeze_random(shape: tuple, data: st.DataObject) -> None:
    n = max(len(shape), 1)
    d = data.draw(st.integers(-n - 1, n))
    check_op(lambda m, x: x.unsqueeze(d), values(shape))
    check_op(lambda m, x: x.unsqueeze(d).squeeze(), values(shape))
    check_op(lambda m, x: x.squeeze(d if -n <= d < n else 0), values(shape))


@given(small_shapes, st.data())
def test_reshape_view_flatten_random(shape: tuple, data: st.DataObject) -> None:
    numel = math.prod(shape)
    divisors = [k for k in range(1, numel + 1) if numel % k == 0] or [0]
    first = data.draw(st.sampled_from(divisors))
    transposed = data.draw(st.booleans()) and len(shape) >= 2
    prep = (lambda x: x.transpose(0, -1)) if transposed else (lambda x: x)
    check_op(lambda m, x: prep(x).reshape(first, -1) if numel else prep(x).reshape(0, 1), values(shape))
    check_op(lambda m, x: prep(x).view(first, -1) if numel else prep(x).view(0, 1), values(shape))
    n = max(len(shape), 1)
    s, e = data.draw(st.integers(-n, n - 1)), data.draw(st.integers(-n, n - 1))
    check_op(lambda m, x: prep(x).flatten(s, e), values(shape))


@given(nonempty_shapes.filter(lambda s: len(s) >= 1), st.data())
def test_narrow_select_random(shape: tuple, data: st.DataObject) -> None:
    d = data.draw(st.integers(0, len(shape) - 1))
    size = shape[d]
    start = data.draw(st.integers(-size, size))
    length = data.draw(st.integers(0, size))
    index = data.draw(st.integers(-size - 1, size))
    check_op(lambda m, x: x.narrow(d, start, length), values(shape))
    check_op(lambda m, x: x.select(d, index), values(shape))


@given(st.lists(st.integers(1, 4), min_size=2, max_size=4), st.data())
def test_diagonal_random(shape: list, data: st.DataObject) -> None:
    n = len(shape)
    d1, d2 = data.draw(st.integers(-n, n - 1)), data.draw(st.integers(-n, n - 1))
    offset = data.draw(st.integers(-5, 5))
    check_op(lambda m, x: x.diagonal(offset, d1, d2), values(tuple(shape)))


@given(nonempty_shapes, st.data())
def test_expand_random(shape: tuple, data: st.DataObject) -> None:
    target = tuple(data.draw(st.integers(1, 3)) if s == 1 else s for s in shape)
    lead = tuple(data.draw(st.lists(st.integers(0, 2), max_size=2)))
    check_op(lambda m, x: x.expand(*(lead + target)), values(shape))


def _expand_both(make: Any, sizes: tuple) -> tuple[Any, Any]:
    """``make(lib).expand(*sizes)`` in torch and tensorlab, each called twice (the second call finds
    tensorlab's layout cache filled), checked equal in layout, values and base after each call."""
    results = []
    for _ in range(2):
        t, m = make(torch).expand(*sizes), make(tl).expand(*sizes)
        assert (tuple(m.shape), m.stride(), m.storage_offset()) == (tuple(t.shape), t.stride(), t.storage_offset())
        np.testing.assert_array_equal(m.numpy(), t.numpy())
        assert m._base is not None and m.untyped_storage() is m._base.untyped_storage()
        results.append((t, m))
    return results[-1]


@given(nonempty_shapes, st.data())
def test_expand_of_a_strided_view_twice(shape: tuple, data: st.DataObject) -> None:
    """Views with an offset and steps (x[1:, ::2]): the cached layout is keyed by shape and strides."""
    if not shape:
        shape = (1,)
    base = values(tuple(s + 1 for s in shape))
    index = (slice(1, None), *(slice(None, None, data.draw(st.integers(1, 2))) for _ in shape[1:]))
    target = tuple(data.draw(st.integers(1, 3)) for _ in shape)
    lead = tuple(data.draw(st.lists(st.integers(0, 2), max_size=2)))

    def make(lib: Any) -> Any:
        view = lib.from_numpy(base.copy())[index]
        return view[tuple(slice(0, 1) for _ in shape)]  # size 1 in every dim, strides of the view

    _expand_both(make, lead + target)


@pytest.mark.parametrize("sizes", [(3, 4), ((3, 4),), ([3, 4],), (-1, 4), (np.int64(3), 4)],
                         ids=["ints", "tuple", "list", "minus one", "numpy int"])
def test_expand_sizes_in_every_spelling_agree_before_and_after_the_cache(sizes: tuple) -> None:
    _expand_both(lambda lib: lib.ones(1, 4), sizes)


SIZE_CALLS = {
    "view": lambda x, *sizes: x.view(*sizes),
    "view of a transposed": lambda x, *sizes: x.reshape(3, 2).t().reshape(6).view(*sizes),
    "reshape": lambda x, *sizes: x.reshape(*sizes),
    "reshape of a tuple": lambda x, *sizes: x.reshape(sizes),
    "expand": lambda x, *sizes: x[:1].expand(*sizes),
}


@pytest.mark.parametrize(
    "bad", [3.5, 3.0, np.float64(3.0), "3", float("nan"), float("inf"), "two-element tensor"],
    ids=["fraction", "whole float", "numpy float", "string", "nan", "inf", "two-element tensor"],
)
@pytest.mark.parametrize("call", SIZE_CALLS.values(), ids=list(SIZE_CALLS))
def test_a_size_that_is_not_a_whole_number_is_a_type_error_as_in_torch(call: Any, bad: Any) -> None:
    """Never ``int()``'s silent truncation of 3.5 to 3, nor 3.0 taken as 3: torch's TypeError, before
    and after a good call (which the fast path's expand layout cache remembers)."""
    for lib in (torch, tl):
        call(lib.ones(6), 3, 2)  # a good call first: expand's layout cache then holds (3, 2)
        with pytest.raises(TypeError):
            call(lib.ones(6), lib.tensor([3, 3]) if bad == "two-element tensor" else bad, 2)


@pytest.mark.parametrize("args", [(0, 1.5, 2), (0, 1, 2.5), (0, "1", 2)], ids=["start", "length", "string"])
def test_narrow_refuses_a_start_or_length_that_is_not_a_whole_number(args: tuple) -> None:
    for lib in (torch, tl):
        assert tuple(lib.ones(6).narrow(0, np.int64(1), 2).shape) == (2,)
        with pytest.raises(TypeError):
            lib.ones(6).narrow(*args)


@pytest.mark.parametrize("call", SIZE_CALLS.values(), ids=list(SIZE_CALLS))
def test_a_0d_integer_tensor_is_a_size_as_in_torch(call: Any) -> None:
    for lib in (torch, tl):
        assert tuple(call(lib.ones(6), lib.tensor(3), 2).shape) == (3, 2)


def test_expand_cache_keeps_errors_and_no_size_objects() -> None:
    """A layout that failed is never stored (the same call fails again), a same-shaped tensor with
    other strides gets its own layout, and sizes given as tensors are not kept alive by the cache."""
    import gc
    import weakref

    for _ in range(2):
        with pytest.raises(RuntimeError, match="must match the existing size"):
            tl.ones(2, 4).expand(3, 4)
    _expand_both(lambda lib: lib.ones(2, 4).contiguous(), (2, 4))  # shape (2, 4), strides (4, 1)
    _expand_both(lambda lib: lib.ones(4, 2).t(), (2, 4))  # the same shape, strides (1, 2)
    size = tl.tensor(3)
    alive = weakref.ref(size)
    assert tuple(tl.ones(1, 4).expand(size, 4).shape) == (3, 4)
    del size
    gc.collect()
    assert alive() is None


def test_expand_of_an_empty_tensor() -> None:
    _expand_both(lambda lib: lib.ones(5, 0, 1)[2:], (2, 3, 0, 4))
    _expand_both(lambda lib: lib.ones(0), (3, 0))


@given(st.data())
def test_as_strided_random(data: st.DataObject) -> None:
    shape = tuple(data.draw(st.lists(st.integers(1, 3), max_size=3)))
    strides = tuple(data.draw(st.integers(0, 3)) for _ in shape)
    offset = data.draw(st.integers(0, 3))
    check_op(lambda m, x: x.as_strided(shape, strides, offset), values((4, 5)))


@given(st.lists(st.integers(0, 5), max_size=3), st.data())
def test_unfold_random(shape: list, data: st.DataObject) -> None:
    """Tensor.unfold: windows as a view (strides checked), overlapping gradients added, torch's errors."""
    n = max(len(shape), 1)
    dim = data.draw(st.integers(-n - 1, n))
    length = shape[dim % n] if shape and -n <= dim < n else 1
    size = data.draw(st.integers(-1, length + 1))
    step = data.draw(st.integers(0, 3))
    check_op(lambda m, x: x.unfold(dim, size, step), values(tuple(shape)))


def test_unfold_double_backward_matches_torch() -> None:
    """unfold's backward adds the windows back; that backward's own backward is unfold again."""
    x = standard_normal((2, 7))
    results = []
    for lib in (torch, tl):
        a = lib.tensor(x, requires_grad=True)
        (grad,) = lib.autograd.grad(a.unfold(1, 3, 2).pow(3).sum(), a, create_graph=True)
        (second,) = lib.autograd.grad(grad.pow(2).sum(), a)
        results.append((grad.detach().numpy(), second.numpy()))
    for expected, got in zip(*results, strict=True):
        np.testing.assert_allclose(got, expected, rtol=1e-10)


# --- storage sharing, versions, gradients through chains of views ------------------------
def test_view_fails_on_transposed_while_reshape_copies() -> None:
    t, m = pair(values((3, 4)))
    with pytest.raises(RuntimeError):
        t.t().view(12)
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        m.t().view(12)
    t_copy, m_copy = t.t().reshape(12), m.t().reshape(12)
    assert (t_copy.untyped_storage().data_ptr() == t.untyped_storage().data_ptr()) is False
    assert m_copy.untyped_storage() is not m.untyped_storage()
    t_view, m_view = t.reshape(4, 3), m.reshape(4, 3)
    assert t_view.untyped_storage().data_ptr() == t.untyped_storage().data_ptr()
    assert m_view.untyped_storage() is m.untyped_storage()


def test_writes_through_views_change_the_base_and_share_the_version() -> None:
    t, m = pair(values((3, 4)))
    for x in (t, m):
        v = x.t()[1:].unsqueeze(0)
        assert v._version == x._version == 0
        v.mul_(2)
        assert x._version == v._version == 1
    np.testing.assert_array_equal(m.numpy(), t.numpy())


def test_gradient_flows_through_every_view() -> None:
    def chain(lib: object, x: object) -> object:
        y = x.view(2, 3, 4).permute(2, 0, 1).flatten(1)[1:, ::2]
        y = y.unsqueeze(0).expand(2, 3, 3).diagonal(0, 1, 2).narrow(0, 0, 1).select(0, 0)
        return y.reshape(3, 1).t().squeeze(0).movedim(0, 0).as_strided((2,), (1,))

    check_op(chain, values((6, 4)))


def test_double_backward_through_a_window() -> None:
    t, m = pair(values((3, 4)), requires_grad=True)
    results = []
    for lib, x in ((torch, t), (tl, m)):
        y = (x[1:, ::2] ** 2).sum()
        (g,) = lib.autograd.grad(y, x, create_graph=True)
        (g[1:, ::2].narrow(0, 0, 1) * 3).sum().backward()
        results.append(x.grad.numpy())
    np.testing.assert_allclose(results[1], results[0])


def test_module_functions_listed() -> None:
    for name in ["flatten", "squeeze", "unsqueeze", "movedim", "moveaxis", "t", "narrow", "select",
                 "diagonal", "as_strided", "permute", "transpose", "swapaxes", "swapdims", "reshape",
                 "unflatten"]:
        assert hasattr(torch, name) and callable(getattr(tl, name)), name


# --- views of random shapes, and the errors of bad arguments -------------------------------------
@given(shape=nonempty_shapes.filter(len), seed=seeds, data=st.data())
def test_unflatten_random(shape: tuple, seed: int, data: st.DataObject) -> None:
    dim = data.draw(st.integers(-len(shape), len(shape) - 1))
    size = shape[dim]
    first = data.draw(st.sampled_from([d for d in range(1, size + 1) if size % d == 0]))
    sizes = data.draw(st.sampled_from([(first, size // first), (first, -1), (-1, size // first), (size,)]))
    check_op(lambda lib, x: x.unflatten(dim, sizes), standard_normal(shape, seed))
    check_op(lambda lib, x: lib.unflatten(x, dim, sizes), standard_normal(shape, seed))


@given(shape=st.lists(st.integers(0, 3), max_size=4).map(tuple), seed=seeds)
def test_t_T_mT_random(shape: tuple, seed: int) -> None:  # noqa: N802 - the attributes' names
    x = standard_normal(shape, seed)
    check_op(lambda lib, a: a.t(), x)  # raises like torch beyond 2-D
    check_op(lambda lib, a: lib.t(a), x)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # .T on n-d and .mT on 0-d warn; test_views checks the text
        check_op(lambda lib, a: a.T, x)
        check_op(lambda lib, a: a.mT, x)


@given(small_shapes=hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=3), seed=seeds)
def test_expand_as_random(small_shapes: Any, seed: int) -> None:
    small, big = small_shapes.input_shapes
    check_op(lambda lib, a, b: a.expand_as(b), standard_normal(small, seed), standard_normal(small_shapes.result_shape, seed + 1))
    check_op(lambda lib, a, b: a.expand_as(b), standard_normal(big, seed), standard_normal(small, seed + 1))  # may not broadcast


@given(shape=small_shapes, seed=seeds, data=st.data())
def test_contiguous_and_clone_of_random_views(shape: tuple, seed: int, data: st.DataObject) -> None:
    order = data.draw(st.permutations(range(len(shape))))
    step = data.draw(st.integers(1, 2))

    def view(lib: Any, x: Any) -> Any:
        return x.permute(*order)[::step] if x.dim() else x

    check_op(lambda lib, x: view(lib, x).contiguous(), standard_normal(shape, seed))
    check_op(lambda lib, x: view(lib, x).is_contiguous(), standard_normal(shape, seed))
    check_op(lambda lib, x: view(lib, x).clone(), standard_normal(shape, seed))
    def strides_of_clone(lib: Any, x: Any) -> list:
        copy = lib.clone(view(lib, x))
        return [stride for stride, size in zip(copy.stride(), copy.shape, strict=True) if size > 1 and copy.numel()]

    check_op(strides_of_clone, standard_normal(shape, seed))


@pytest.mark.parametrize(
    "fn",
    [
        lambda lib, x: x.reshape(5),
        lambda lib, x: x.reshape(-1, -1),
        lambda lib, x: x.reshape(4, -1),
        lambda lib, x: x.unflatten(1, (2, 2)),
        lambda lib, x: x.unflatten(5, (1, 3)),
        lambda lib, x: x.flatten(1, 0),
        lambda lib, x: x.expand_as(lib.zeros(3, 2)),
        lambda lib, x: x.view(-1, 4),
        lambda lib, x: x.permute(0, 0),
        lambda lib, x: x.transpose(0, 2),
        lambda lib, x: x.movedim(0, 0).movedim((0, 1), (1,)),
        lambda lib, x: x.squeeze(3),
        lambda lib, x: x.unsqueeze(-4),
        lambda lib, x: x.narrow(1, 2, 2),
        lambda lib, x: x.select(0, 2),
        lambda lib, x: x.diagonal(0, 1, 1),
        lambda lib, x: x.as_strided((2, 2), (1,)),
        lambda lib, x: x.contiguous(memory_format=1),
        lambda lib, x: x.is_contiguous(3),
        lambda lib, x: x.permute(),
        lambda lib, x: x[0, 0].permute(),
        lambda lib, x: x[0, 0].permute(()),
    ],
)
def test_view_errors(fn: Any) -> None:
    check_op(fn, standard_normal((2, 3), 0))


@pytest.mark.parametrize("shape", [(-2, -1, -1), (-1, -1, -2), (-1, -2), (2, -3), (-1, 0), (0, -1), (-1, -1)])
def test_infer_size_reports_the_first_bad_size_like_torch(shape: tuple) -> None:
    """Sizes are checked left to right: a -2 before a second -1 is reported as the invalid size."""
    for numel in (0, 6):
        with pytest.raises(RuntimeError) as expected:
            torch.empty(numel).view(shape)
        with pytest.raises(RuntimeError) as got:
            tl.empty(numel).view(shape)
        assert str(got.value) == str(expected.value)


@pytest.mark.parametrize(
    "fn",
    [
        lambda m, x: x.view(4, 6),
        lambda m, x: x.reshape(1, 24, 1),
        lambda m, x: x.as_strided((3, 1), (1, 5)).view(1, 3),  # size-1 dims with strides of their own
        lambda m, x: x.as_strided((3, 1), (1, 5)).reshape(3),
        lambda m, x: x.as_strided((2, 1, 3), (3, 7, 1)).view(6),
        lambda m, x: x[:, None].view(-1),
        lambda m, x: x[:0].view(0, 4),
        lambda m, x: x.select(1, 2).select(-1, 0),
        lambda m, x: x.t().select(0, 3),
    ],
)
def test_views_of_row_major_and_odd_layouts_match_torch(fn: Any) -> None:
    """The fast path's shortcut for row-major tensors gives torch's strides, size-1 dims included."""
    check_op(fn, values((4, 6)))
