"""Gradient stealing and the layout of matrix-product gradients, against torch.

A leaf's first gradient becomes its ``.grad`` without a copy when nothing else can see it
(torch's AccumulateGrad does the same). Whether it was stolen shows in ``data_ptr``: a hook
records the pointer of the gradient that arrives (without keeping the gradient), and ``.grad``
has the same pointer exactly when it was stolen. torch decides the same way in every case here.
The safety tests make sure a stolen gradient never shares memory with anything a user can see.

Stealing and the operand-like layout of matrix-product gradients belong to the fast path
(``tensorlab/_fast/``); conftest runs every test here on both paths (the ``fast_path``
fixture says which). On the plain path ``.grad`` is always a copy, and values match either way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch

import tensorlab as tl
from tensorlab._fast import grad_stealing
from tests.oracle import assert_same, significant_strides

LIBS = (torch, tl)


def arrays(*shapes: tuple[int, ...]) -> list[np.ndarray]:
    rng = np.random.default_rng(0)
    return [rng.standard_normal(shape).astype(np.float32) for shape in shapes]


def stolen(lib: Any, make_loss: Callable, *values: np.ndarray) -> list[bool]:
    """For each leaf: is its ``.grad`` the very gradient that reached it?"""
    leaves = [lib.tensor(v, requires_grad=True) for v in values]
    arrived: dict[int, int] = {}
    for i, leaf in enumerate(leaves):
        leaf.register_hook(lambda g, i=i: arrived.__setitem__(i, g.data_ptr()))
    make_loss(lib, *leaves).backward()
    return [arrived[i] == leaf.grad.data_ptr() for i, leaf in enumerate(leaves)]


CASES = {
    "fresh product": (lambda lib, x: (x * 2).sum(), [(3, 4)]),
    "linear weight and bias": (
        lambda lib, w, b: lib.nn.functional.linear(lib.ones(5, 4), w, b).pow(2).sum(), [(3, 4), (3,)],
    ),
    "matmul with a transposed weight": (lambda lib, a, w: (a @ w.t()).pow(2).sum(), [(5, 4), (3, 4)]),
    "one gradient sent to two leaves": (lambda lib, a, b: ((a + b) * 3).sum(), [(4,), (4,)]),
    "gradient through a sum with a scaled leaf": (lambda lib, a, b: ((a * 2 + b) * 3).sum(), [(4,), (4,)]),
    "each leaf gets its own product": (lambda lib, a, b: (a * b).sum(), [(4,), (4,)]),
    "transposed, not laid out like the leaf": (lambda lib, a: (a.t() * 2).sum(), [(4, 3)]),
    "expanded gradient of a sum": (lambda lib, a: a.sum(), [(4, 3)]),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_steals_exactly_when_torch_does(case: str, fast_path: bool) -> None:
    make_loss, shapes = CASES[case]
    values = arrays(*shapes)
    expected = stolen(torch, make_loss, *values) if fast_path else [False] * len(values)
    assert stolen(tl, make_loss, *values) == expected


def test_the_mlp_step_steals_every_gradient(fast_path: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """The benchmark's case: no weight-sized copy per step (torch steals all four too)."""
    x, w1, b1, w2, b2 = arrays((8, 6), (5, 6), (5,), (3, 5), (3,))
    target = np.array([0, 2, 1, 0, 1, 2, 0, 1])

    def loss(lib: Any, w1: Any, b1: Any, w2: Any, b2: Any) -> Any:
        f = lib.nn.functional
        hidden = f.relu(f.linear(lib.tensor(x), w1, b1))
        return f.cross_entropy(f.linear(hidden, w2, b2), lib.tensor(target))

    if not fast_path:  # the plain path never counts references (a wrapper would add some)
        monkeypatch.setattr(grad_stealing, "can_steal", lambda *args, **kw: pytest.fail("can_steal called"))
    assert stolen(torch, loss, w1, b1, w2, b2) == [True] * 4
    assert stolen(tl, loss, w1, b1, w2, b2) == [fast_path] * 4


# --- safety: a stolen gradient is never visible elsewhere -------------------------------------
def test_a_gradient_kept_by_a_hook_is_copied() -> None:
    for lib in LIBS:
        kept = []
        x = lib.tensor(arrays((3,))[0], requires_grad=True)
        x.register_hook(kept.append)
        (x * 2).sum().backward()
        assert x.grad.data_ptr() != kept[0].data_ptr(), lib.__name__
        x.grad.zero_()
        assert kept[0].sum().item() == pytest.approx(6.0)


def test_a_gradient_passed_by_the_user_is_copied() -> None:
    for lib in LIBS:
        gradient = lib.ones(3)
        x = lib.tensor(arrays((3,))[0], requires_grad=True)
        x.backward(gradient)
        x.grad.add_(1)
        assert gradient.tolist() == [1.0, 1.0, 1.0], lib.__name__


def test_leaves_sharing_one_gradient_do_not_share_memory() -> None:
    a_t, b_t = (torch.tensor(v, requires_grad=True) for v in arrays((4,), (4,)))
    a_m, b_m = (tl.tensor(v, requires_grad=True) for v in arrays((4,), (4,)))
    for a, b in ((a_t, b_t), (a_m, b_m)):
        ((a + b) * 3).sum().backward()
        a.grad.add_(100)  # must not reach b.grad
    assert_same(b_t.grad, b_m.grad)
    assert_same(a_t.grad, a_m.grad)


def test_pieces_of_one_gradient_are_copied() -> None:
    """cat's backward hands each input a slice of one gradient. torch steals both slices (the
    two ``.grad`` then share one storage); tensorlab copies a gradient that does not cover its
    whole storage, so each ``.grad`` owns its memory. The values are torch's either way."""
    grads = {}
    for lib in LIBS:
        a, b = (lib.tensor(v, requires_grad=True) for v in arrays((2,), (3,)))
        lib.cat([a, b]).pow(2).sum().backward()
        grads[lib] = (a.grad, b.grad)
    assert_same(grads[torch], grads[tl])
    assert grads[tl][0].untyped_storage() is not grads[tl][1].untyped_storage()


def test_memory_a_numpy_array_still_sees_is_copied() -> None:
    """A backward that hands out memory it also keeps as a NumPy array: stealing it would let
    a later write to that array change ``.grad``. (torch steals here; tensorlab is stricter.)"""
    kept: list[np.ndarray] = []

    class Double(tl.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            return x * 2

        @staticmethod
        def backward(ctx: Any, grad: Any) -> Any:
            out = grad.numpy() * 2
            kept.append(out)
            return tl.from_numpy(out)

    x = tl.ones(3, requires_grad=True)
    Double.apply(x).sum().backward()
    kept[0][:] = -1
    assert x.grad.tolist() == [2.0, 2.0, 2.0]


def test_stolen_gradients_accumulate_and_survive_recycling() -> None:
    """Two backwards add into the stolen ``.grad``; an old ``.grad`` kept by the user keeps its
    values while the next step reuses freed buffers (big enough to be recycled)."""
    w_value, x_value = arrays((300, 300), (2, 300))
    results = {}
    for lib in LIBS:
        w = lib.tensor(w_value, requires_grad=True)
        x = lib.tensor(x_value)
        (x @ w).pow(2).sum().backward()
        (x @ w).sum().backward()
        old = w.grad
        w.grad = None
        (x @ w * 3).sum().backward()
        results[lib] = (old, w.grad)
    assert_same(results[torch][0], results[tl][0], rtol=1e-4, atol=1e-3)
    assert_same(results[torch][1], results[tl][1], rtol=1e-4, atol=1e-3)


# --- the layout of mm / addmm gradients ---------------------------------------------------------
LAYOUTS = [((3, 4), (4, 5)), ((1, 4), (4, 5)), ((3, 1), (1, 5)), ((3, 4), (4, 1)), ((1, 1), (1, 1))]


def operand(lib: Any, value: np.ndarray, column_major: bool) -> Any:
    """A matrix stored row by row, or column by column (the transpose of a row-major one)."""
    if column_major:
        return lib.tensor(np.ascontiguousarray(value.T)).t().requires_grad_(True)
    return lib.tensor(value, requires_grad=True)


@pytest.mark.parametrize("op", ["mm", "addmm", "matmul"])
@pytest.mark.parametrize(("a_shape", "b_shape"), LAYOUTS)
@pytest.mark.parametrize("a_column_major", [False, True])
@pytest.mark.parametrize("b_column_major", [False, True])
def test_mm_gradients_are_laid_out_like_their_operands(op: str, a_shape: tuple, b_shape: tuple, a_column_major: bool, b_column_major: bool, fast_path: bool) -> None:
    """Fast path: torch's layout. Plain path: torch's values, always row-major (one rule)."""
    a_value, b_value, g_value = arrays(a_shape, b_shape, (a_shape[0], b_shape[1]))
    grads = {}
    for lib in LIBS:
        a, b = operand(lib, a_value, a_column_major), operand(lib, b_value, b_column_major)
        if op == "mm":
            out = lib.mm(a, b)
        elif op == "addmm":
            out = lib.addmm(lib.zeros(b_shape[1]), a, b)
        else:
            out = a @ b
        grads[lib] = lib.autograd.grad(out, [a, b], lib.tensor(g_value))
    for got, expected in zip(grads[tl], grads[torch], strict=True):
        assert_same(expected, got)
        if fast_path:
            assert significant_strides(got) == significant_strides(expected)
        else:
            assert got.is_contiguous()
