"""In-place view changes (``unsqueeze_``, ``squeeze_``, ``t_``, ``transpose_``, ``swapdims_``,
``swapaxes_``) and ``Tensor.type`` with legacy types and strings, against torch: the new layout
(shape, strides, offset), that self is returned and keeps its storage, the version bump, the
history (gradients through the changed tensor), views and leaves, errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import tensorlab as tl
from tests.oracle import assert_same, check_op, pair

CHANGES = {
    "unsqueeze_0": lambda x: x.unsqueeze_(0),
    "unsqueeze_-1": lambda x: x.unsqueeze_(-1),
    "unsqueeze_1": lambda x: x.unsqueeze_(1),
    "squeeze_": lambda x: x.squeeze_(),
    "squeeze_0": lambda x: x.squeeze_(0),
    "squeeze_tuple": lambda x: x.squeeze_((0, 2)),
    "t_": lambda x: x.t_() if x.ndim <= 2 else x.transpose_(0, 1),
    "transpose_": lambda x: x.transpose_(0, -1),
    "swapdims_": lambda x: x.swapdims_(0, 1),
    "swapaxes_": lambda x: x.swapaxes_(1, 0),
}


def apply_and_describe(change, x):
    """Change x in place; what torch and tensorlab must agree on."""
    storage = x.untyped_storage()
    version = x._version
    result = change(x)
    same_storage = x.untyped_storage() is storage if isinstance(x, tl.Tensor) else x.untyped_storage().data_ptr() == storage.data_ptr()
    return result is x, tuple(x.shape), tuple(x.stride()), x.storage_offset(), x._version - version, same_storage


@pytest.mark.parametrize("name", list(CHANGES))
@pytest.mark.parametrize("shape", [(1, 3, 1), (2, 3, 1)])
def test_layout_version_and_identity(name: str, shape: tuple) -> None:
    values = np.arange(np.prod(shape), dtype="float32").reshape(shape)
    t, m = pair(values)
    expected = apply_and_describe(CHANGES[name], t)
    assert apply_and_describe(CHANGES[name], m) == expected
    assert_same(t, m)


@pytest.mark.parametrize("name", list(CHANGES))
def test_gradients_flow_through_the_changed_tensor(name: str) -> None:
    def changed(lib, x):
        y = x * 2
        CHANGES[name](y)
        return y * lib.arange(float(y.numel()), dtype=y.dtype).reshape(y.shape)

    check_op(changed, np.arange(3.0).reshape(1, 3, 1) + 1)


@pytest.mark.parametrize("name", list(CHANGES))
def test_views_change_alone_and_leaves_refuse(name: str) -> None:
    def on_a_view(lib, x):
        base = x.clone()
        view = base[0:1]
        CHANGES[name](view)
        return view, base, view * 1

    check_op(on_a_view, np.arange(6.0).reshape(2, 3, 1))
    check_op(lambda lib, x: CHANGES[name](x), np.ones((1, 3, 1)), match="leaf Variable that requires grad")
    check_op(lambda lib, x: CHANGES[name](x[0:1]), np.ones((1, 3, 1)), match="view of a leaf Variable")


def test_errors_match_torch() -> None:
    check_op(lambda lib, x: x.t_(), np.ones((2, 3, 4)), grad=False, match="expects a tensor with <= 2 dimensions")
    check_op(lambda lib, x: x.unsqueeze_(3), np.ones(2), grad=False)
    check_op(lambda lib, x: x.transpose_(0, 2), np.ones((2, 3)), grad=False)
    check_op(lambda lib, x: x.squeeze_((0, 0)), np.ones((1, 3)), grad=False)


def test_no_grad_and_detached_tensors() -> None:
    for lib in (torch, tl):
        x = lib.zeros(2, 3, requires_grad=True)
        with lib.no_grad():
            x.unsqueeze_(0)
        assert tuple(x.shape) == (1, 2, 3)
        y = lib.zeros(2, 3)
        z = y.detach()
        z.t_()
        assert tuple(y.shape) == (2, 3) and tuple(z.shape) == (3, 2)


@given(shape=st.lists(st.integers(1, 3), min_size=1, max_size=4), data=st.data())
def test_any_transpose_or_unsqueeze(shape: list, data: st.DataObject) -> None:
    ndim = len(shape)
    d0 = data.draw(st.integers(-ndim, ndim - 1))
    d1 = data.draw(st.integers(-ndim, ndim - 1))
    u = data.draw(st.integers(-ndim - 1, ndim))
    values = np.arange(float(np.prod(shape))).reshape(shape)
    t, m = pair(values)
    change = lambda x: x.transpose_(d0, d1).unsqueeze_(u).squeeze_()  # noqa: E731
    assert apply_and_describe(change, m) == apply_and_describe(change, t)
    assert_same(t, m)


# --- Tensor.type -------------------------------------------------------------------------------
@pytest.mark.parametrize("target", ["torch.LongTensor", "torch.FloatTensor", "torch.DoubleTensor", "torch.ByteTensor",
                                    "torch.BoolTensor", "torch.HalfTensor", "torch.IntTensor", "torch.ShortTensor"])
def test_type_with_a_string_or_a_legacy_type(target: str) -> None:
    check_op(lambda lib, x: x.type(target.replace("torch.", f"{lib.__name__}.") if lib is tl else target), np.array([1.5, -2.0]), grad=False)
    check_op(lambda lib, x: x.type(getattr(lib, target.split(".")[1])), np.array([1.5, -2.0]), grad=False)
    check_op(lambda lib, x: x.type(target), np.array([1.5, -2.0]), grad=False)


def test_type_errors_and_identity() -> None:
    check_op(lambda lib, x: x.type("float"), np.ones(2), grad=False)
    check_op(lambda lib, x: x.type("torch.cuda.FloatTensor"), np.ones(2), grad=False)
    for lib in (torch, tl):
        x = lib.zeros(2)
        assert x.type(lib.FloatTensor) is x and x.type(lib.float32) is x
        assert x.type(dtype=lib.int64, non_blocking=False).dtype == lib.int64
    assert tl.zeros(2, dtype=tl.int64).type() == torch.zeros(2, dtype=torch.int64).type().replace("torch", "tensorlab")


# --- the other in-place forms torch has for tensorlab's ops ------------------------------------
def test_every_op_with_a_torch_in_place_form_has_one() -> None:
    missing = [n for n in dir(torch.Tensor) if n.endswith("_") and not n.startswith("_")
               and hasattr(tl.Tensor, n[:-1]) and not hasattr(tl.Tensor, n)]
    assert missing == []


@pytest.mark.parametrize("name", ["eq_", "ne_", "lt_", "le_", "gt_", "ge_"])
@pytest.mark.parametrize("dtypes", [("float32", "float32"), ("float64", "float32"), ("float64", "int64"), ("int64", "int32")])
def test_comparisons_in_place(name: str, dtypes: tuple) -> None:
    a = np.array([1.0, 2.0, 3.0]).astype(dtypes[0])
    b = np.array([2.0, 2.0, 1.0]).astype(dtypes[1])
    check_op(lambda lib, x, y: getattr(x * 1, name)(y), a, b)
    check_op(lambda lib, x: getattr(x * 1, name)(2), a)


def test_logical_and_bitwise_not_cumsum_and_aliases_in_place() -> None:
    check_op(lambda lib, x: (x * 1).logical_not_(), np.array([1.0, 0.0, -2.0]))  # history kept, as torch
    check_op(lambda lib, x: x.clone().bitwise_not_(), np.array([1, -2, 0]))
    check_op(lambda lib, x: x.clone().bitwise_not_(), np.array([True, False]))
    check_op(lambda lib, x: (x * 1).cumsum_(1), np.arange(6.0).reshape(2, 3))
    check_op(lambda lib, x: x.clone().cumsum_(0), np.array([1, 2, 3]))
    for name in ("multiply_", "subtract_", "divide_", "true_divide_"):
        check_op(lambda lib, x, y: getattr(x * 1, name)(y), np.array([1.0, 2.0]), np.array([3.0, 4.0]))  # noqa: B023


def test_as_strided_in_place() -> None:
    def restrided(lib, x):
        y = x * 2
        described = apply_and_describe(lambda t: t.as_strided_((2, 2), (1, 2), 1), y)
        return y, described

    check_op(restrided, np.arange(6.0))
