"""In-place ops through views of tensors in an autograd graph (torch's CopySlices), vs torch."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import tensorlab as tl
from tests.oracle import check_op

RNG = np.random.default_rng(7)
X = RNG.standard_normal((4, 3)).astype(np.float32)
Y = RNG.standard_normal(3).astype(np.float32)
CUBE = RNG.standard_normal((2, 3, 4)).astype(np.float32)


def _grad_name(lib: object, t: object) -> str:
    """torch names C++ nodes ``torch::autograd::CopySlices``; compare the last part."""
    return type(t.grad_fn).__name__ if lib is tl else t.grad_fn.name().split("::")[-1]


# --- fixed cases: gradients of the base after writes through every kind of view ------------
WRITES = {
    "slice mul_": lambda lib, x, y: _base_after(x, lambda a: a[:2].mul_(2)),
    "select setitem": lambda lib, x, y: _base_after(x, lambda a: a.__setitem__(0, y * 2)),
    "column zero_": lambda lib, x, y: _base_after(x, lambda a: a[:, 0].zero_()),
    "t add_": lambda lib, x, y: _base_after(x, lambda a: a.t().add_(y.unsqueeze(1))),
    "transpose sub_": lambda lib, x, y: _base_after(x, lambda a: a.transpose(0, 1)[1].sub_(y[0])),
    "view mul_": lambda lib, x, y: _base_after(x, lambda a: a.view(12)[3:7].mul_(y[1])),
    "reshape view div_": lambda lib, x, y: _base_after(x, lambda a: a.reshape(2, 6)[1].div_(2.5)),
    "diagonal exp_": lambda lib, x, y: _base_after(x, lambda a: a.diagonal().exp_()),
    "narrow copy_": lambda lib, x, y: _base_after(x, lambda a: a.narrow(1, 1, 2).copy_(y[:2])),
    "unsqueeze clamp_": lambda lib, x, y: _base_after(x, lambda a: a.unsqueeze(0)[0, 1:].clamp_(-0.3, 0.4)),
    "select sigmoid_": lambda lib, x, y: _base_after(x, lambda a: a.select(1, 2).sigmoid_()),
    "fill_ tensor": lambda lib, x, y: _base_after(x, lambda a: a[1:3, :2].fill_(y[0])),
    "masked_fill_": lambda lib, x, y: _base_after(x, lambda a: a[1:].masked_fill_(a[1:] > 0, 0.5)),
    "pow_ tensor": lambda lib, x, y: _base_after(x, lambda a: a[2].pow_(y)),
    "setitem slice of slice": lambda lib, x, y: _base_after(x, lambda a: a[1:][:, 1:].__setitem__((0,), y[:2])),
    "setitem advanced on view": lambda lib, x, y: _base_after(x, lambda a: a[1:].__setitem__(([0, 2], 1), y[:2] * 3)),
    "setitem mask on view": lambda lib, x, y: _base_after(x, lambda a: a[:, 1:].__setitem__(a[:, 1:] > 0, y[1])),
    "setitem number on view": lambda lib, x, y: _base_after(x, lambda a: a.t().__setitem__((1, slice(1, 3)), 7.0)),
    "chain overlapping": lambda lib, x, y: _base_after(
        x, lambda a: (a[:2].mul_(2), a[1:].add_(y), a[1:3, ::2].mul_(y[0]), a[:, 1].exp_())
    ),
    "write view then base": lambda lib, x, y: _base_after(x, lambda a: (a[1:].mul_(3), a.sin_(), a[0].add_(y))),
    "index_add_ on view": lambda lib, x, y: _base_after(
        x, lambda a: a[1:].index_add_(0, lib.tensor([0, 2]), y.expand(2, 3))
    ),
}


def _base_after(x: object, write: object) -> object:
    a = x * 1
    write(a)
    return a


@pytest.mark.parametrize("name", list(WRITES))
def test_gradient_of_base_after_write_through_view(name: str) -> None:
    check_op(WRITES[name], X, Y)


def test_base_with_no_grad_gets_history_from_value() -> None:
    def fn(lib, y):
        b = lib.zeros(4, 3)
        b[1:3, 1] = y[:2]
        b.t()[2].add_(y.sum())
        return b

    out = check_op(fn, Y)
    assert type(out.grad_fn).__name__ == "CopySlices" and not out.is_leaf


def test_other_views_see_the_new_history() -> None:
    """Views made before a write (into the base or another view) use the base's new history."""
    check_op(lambda lib, x: _stale(x, lambda a: a.mul_(2)), X)
    check_op(lambda lib, x: _stale(x, lambda a: a[1:].exp_()), X)


def _stale(x: object, write: object) -> object:
    a = x * 1
    v = a[:, 1]
    w = a[1:]
    write(a)
    return v * 1 + w[0, 0]


def test_view_output_of_unbind_split_chunk_read_after_write() -> None:
    check_op(lambda lib, x: [p * 1 for p in _base_after(x, lambda a: a[0].mul_(2)).split(2)], X)


def test_cube_permute_and_movedim() -> None:
    check_op(lambda lib, c: _base_after(c, lambda a: a.permute(2, 0, 1)[1:3].mul_(3)), CUBE)
    check_op(lambda lib, c: _base_after(c, lambda a: a.movedim(0, 2)[..., 1].zero_()), CUBE)
    check_op(lambda lib, c: _base_after(c, lambda a: a.diagonal(0, 1, 2).neg_()), CUBE)


# --- names, _base, layout --------------------------------------------------------------------
def test_grad_fn_names_and_base() -> None:
    import torch

    for lib in (torch, tl):
        x = lib.tensor(X.copy(), requires_grad=True)
        a = x * 1
        v = a[:2]
        assert v._base is a and v[0]._base is a and a._base is None
        assert x.detach()._base is None and a.view(12)._base is a and a.t()._base is a
        v.mul_(2)
        assert _grad_name(lib, a) == "CopySlices"
        assert type(v.grad_fn).__name__ == "AsStridedBackward0"


def test_values_and_version_through_views() -> None:
    import torch

    results = []
    for lib in (torch, tl):
        x = lib.tensor(X.copy(), requires_grad=True)
        a = x * 1
        v = a.t()
        before = a._version
        v[1].mul_(10)
        results.append((a.detach().numpy().copy(), a._version - before, v._version == a._version))
    np.testing.assert_allclose(results[1][0], results[0][0])
    assert results[1][1:] == results[0][1:]


# --- errors ------------------------------------------------------------------------------------
ERRORS = {
    "view of leaf": (lambda lib, x: x[:2].mul_(2), "a view of a leaf Variable"),
    "setitem on leaf": (lambda lib, x: x.__setitem__(0, 1.0), "a view of a leaf Variable"),
    "t of leaf": (lambda lib, x: x.t().zero_(), "a view of a leaf Variable"),
    "leaf itself": (lambda lib, x: x.mul_(2), "a leaf Variable that requires grad"),
    "unbind output": (lambda lib, x: (x * 1).unbind(0)[1].add_(1), "Output 1 of Unbind is a view"),
    "split output": (lambda lib, x: (x * 1).split(2)[1].add_(1), "Output 1 of Split is a view"),
    "chunk view of output": (lambda lib, x: (x * 1).chunk(2)[0][1].mul_(2), "returns multiple views"),
    "no_grad view": (lambda lib, x: _no_grad_view(lib, x * 1).mul_(2), "A view was created in no_grad mode"),
    "no_grad view of leaf": (lambda lib, x: _no_grad_view(lib, x).mul_(2), "A view was created in no_grad mode"),
    "view of no_grad view": (lambda lib, x: _no_grad_view(lib, x * 1)[1:].mul_(2), "is a view of a view which"),
    "no_grad view, base written": (lambda lib, x: _indirect(lib, x), "its base or another view of its base"),
    "unbind, base written": (lambda lib, x: _indirect_unbind(x), "its base or another view of its base"),
}


def _no_grad_view(lib: object, a: object) -> object:
    with lib.no_grad():
        return a[:2]


def _indirect(lib: object, x: object) -> object:
    a = x * 1
    v = _no_grad_view(lib, a)
    a.mul_(2)
    return v * 1


def _indirect_unbind(x: object) -> object:
    a = x * 1
    pieces = a.unbind(0)
    a.mul_(2)
    return pieces[0] * 1


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors(name: str) -> None:
    fn, match = ERRORS[name]
    assert check_op(fn, X, match=match) is None


def test_no_grad_view_of_non_grad_base_with_grad_value() -> None:
    def fn(lib, y):
        b = lib.zeros(4, 3)
        with lib.no_grad():
            v = b[0]
        return v.add_(y)

    assert check_op(fn, Y, match="A view was created in no_grad mode") is None
    check_op(lambda lib, y: lib.zeros(4, 3).unbind(0)[0].add_(1) + y, Y)  # nothing recorded: allowed


def test_no_grad_view_requires_grad_and_writes_without_recording() -> None:
    def fn(lib, x):
        a = x * 1
        with lib.no_grad():
            v = a[1:]
            flags = lib.tensor([v.requires_grad, v.is_leaf])
            v.mul_(2)
        return a, flags

    check_op(fn, X)


def test_second_backward_through_copy_slices_raises() -> None:
    def fn(lib, x):
        a = x * 1
        a[:2].exp_()
        a.sum().backward()
        a.sum().backward()

    assert check_op(fn, X, match="Trying to backward through the graph a second time") is None


def _grads_after(lib: object, x: object, y: object, write: object) -> tuple:
    """Run ``write`` on ``a = x * 1``, backpropagate inside (so backward's errors are compared too)."""
    a = x * 1
    write(a)
    weights = lib.arange(a.numel(), dtype=a.dtype).reshape(a.shape).cos()
    (a * weights).sum().backward()
    return a.detach(), x.grad, y.grad


def test_saved_view_modified_after_write_is_caught() -> None:
    def fn(lib, x, y):
        return _grads_after(lib, x, y, lambda a: (a[:2].exp_(), a[1:].mul_(y[0])))

    assert check_op(fn, X, Y, match="modified by an inplace operation") is None


# --- random (view op, in-place op) pairs -----------------------------------------------------
VIEW_OPS = {
    "rows": lambda a: a[1:3],
    "column": lambda a: a[:, 1],
    "step": lambda a: a[::2, 1:],
    "t": lambda a: a.t(),
    "select": lambda a: a.select(0, 2),
    "diagonal": lambda a: a.diagonal(),
    "narrow": lambda a: a.narrow(1, 0, 2),
    "view": lambda a: a.view(2, 6)[1],
    "unsqueeze": lambda a: a.unsqueeze(1)[:, 0, 2],
    "as_strided": lambda a: a.as_strided((2, 2), (3, 1), 4),
}
INPLACE_OPS = {
    "mul_ scalar": lambda v, y: v.mul_(1.5),
    "add_ tensor": lambda v, y: v.add_(y[0] * 2),
    "sub_ alpha": lambda v, y: v.sub_(y[1], alpha=3),
    "mul_ tensor": lambda v, y: v.mul_(y[2]),
    "div_ tensor": lambda v, y: v.div_(y[0].abs() + 1),
    "exp_": lambda v, y: v.exp_(),
    "tanh_": lambda v, y: v.tanh_(),
    "zero_": lambda v, y: v.zero_(),
    "fill_ tensor": lambda v, y: v.fill_(y[1]),
    "copy_": lambda v, y: v.copy_(y[0].expand(v.shape)),
    "clamp_": lambda v, y: v.clamp_(-0.5, 0.5),
    "relu_": lambda v, y: v.relu_(),
    "setitem all": lambda v, y: v.__setitem__(Ellipsis, y[2]),
}


@given(
    view=st.sampled_from(sorted(VIEW_OPS)),
    first=st.sampled_from(sorted(INPLACE_OPS)),
    second=st.sampled_from(sorted(INPLACE_OPS)),
    other_view=st.sampled_from(sorted(VIEW_OPS)),
    seed=st.integers(0, 2**16),
)
def test_random_view_and_inplace_pairs(view: str, first: str, second: str, other_view: str, seed: int) -> None:
    x = np.random.default_rng(seed).standard_normal((4, 3)).astype(np.float32)

    def write(a: object, y: object) -> None:
        INPLACE_OPS[first](VIEW_OPS[view](a), y)
        INPLACE_OPS[second](VIEW_OPS[other_view](a), y)

    def fn(lib, x, y):
        return _grads_after(lib, x, y, lambda a: write(a, y))

    check_op(fn, x, Y)
