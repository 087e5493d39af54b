"""Broadcasting against torch: result shapes, the exact error messages, broadcast_shapes/tensors."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import tensorlab as tl
from tensorlab.ops.broadcasting import broadcast_pair, sum_to_shape
from tests.oracle import check_op


def empty_add(lib, a, b):
    return (lib.empty(*a) + lib.empty(*b)).shape


# --- the seed's examples ---------------------------------------------------------------
def test_seed_trailing_dims_line_up():
    x, y = tl.empty(5, 1, 4, 1), tl.empty(3, 1, 1)
    assert (x + y).size() == torch.Size([5, 3, 4, 1])
    check_op(lambda lib, a, b: a + b, np.ones((5, 1, 4, 1), np.float32), np.ones((3, 1, 1), np.float32))


def test_seed_mismatch_error_message():
    with pytest.raises(RuntimeError) as got:
        tl.empty(5, 2, 4, 1) + tl.empty(3, 1, 1)
    assert str(got.value) == (
        "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 1"
    )
    check_op(empty_add, (5, 2, 4, 1), (3, 1, 1), same_message=True)


def test_seed_column_plus_row():
    check_op(lambda lib, a, b: a + b, [[2], [4], [6]], [10, 20, 30, 40])


def test_seed_matmul_batch_broadcast():
    assert (tl.ones(2, 1, 4, 5) @ tl.ones(3, 5, 6)).shape == (2, 3, 4, 6)
    check_op(lambda lib, a, b: a @ b, np.ones((2, 1, 4, 5), np.float32), np.ones((3, 5, 6), np.float32))


# --- random shape pairs ------------------------------------------------------------------
@st.composite
def broadcastable_pair(draw):
    """Two shapes that broadcast: a common shape, each side dropping leading dims or using 1s."""
    common = draw(st.lists(st.integers(0, 4), min_size=0, max_size=4))

    def side():
        drop = draw(st.integers(0, len(common)))
        return tuple(1 if draw(st.booleans()) else s for s in common[drop:])

    return side(), side()


@st.composite
def mismatched_pair(draw):
    """Two shapes with at least one position where the sizes differ and neither is 1."""
    a, b = draw(broadcastable_pair())
    a, b = list(a), list(b)
    if not a:
        a = [2]
    d = draw(st.integers(1, len(a)))  # position from the right, inside a
    size = draw(st.integers(2, 4))
    a[-d] = size
    other = draw(st.sampled_from([s for s in (0, 2, 3, 5) if s != size]))
    while len(b) < d:
        b.insert(0, 1)
    b[-d] = other
    return tuple(a), tuple(b)


@given(broadcastable_pair())
def test_add_broadcasts_like_torch(shapes):
    a, b = shapes
    x = np.random.default_rng(0).standard_normal(a).astype(np.float32)
    y = np.random.default_rng(1).standard_normal(b).astype(np.float32)
    check_op(lambda lib, p, q: p + q, x, y)
    check_op(lambda lib, p, q: p * q, x, y)


@given(mismatched_pair(), st.booleans())
def test_add_mismatch_raises_torch_message(shapes, swap):
    a, b = shapes[::-1] if swap else shapes
    check_op(empty_add, a, b, same_message=True)


@given(broadcastable_pair(), st.booleans())
def test_broadcast_pair_agrees_with_torch(shapes, swap):
    a, b = shapes[::-1] if swap else shapes
    assert broadcast_pair(a, b) == tuple(torch.broadcast_shapes(a, b))


# --- broadcast_shapes ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "shapes",
    [
        ((2, 3), (4, 3)),
        ((2, 3), (1, 3), (4, 3)),
        ((5, 2, 4, 1), (3, 1, 1)),
        (3, (2, 4)),
        ((2, 3), [4, 3]),
        ((2,), (-1,)),
        ((-1,),),
        ((1,), (-1,)),
        ((2, 3), 2.0),
    ],
)
def test_broadcast_shapes_errors_match_torch(shapes):
    check_op(lambda lib: lib.broadcast_shapes(*shapes), same_message=True)


@pytest.mark.parametrize(
    "shapes",
    [(), ((),), ((2,), (3, 1), (1, 1, 1)), (3, (2, 1)), ((2, 3), None), ((3,), []), ((0, 1), (1, 4)), (5,)],
)
def test_broadcast_shapes_matches_torch(shapes):
    expected = torch.broadcast_shapes(*shapes)
    got = tl.broadcast_shapes(*shapes)
    assert isinstance(got, tl.Size)
    assert tuple(got) == tuple(expected)


@given(st.lists(st.lists(st.integers(1, 3), max_size=3), min_size=1, max_size=4))
def test_broadcast_shapes_random(shapes):
    shapes = [tuple(s) for s in shapes]
    try:
        expected = torch.broadcast_shapes(*shapes)
    except RuntimeError:
        check_op(lambda lib: lib.broadcast_shapes(*shapes), same_message=True)
        return
    assert tuple(tl.broadcast_shapes(*shapes)) == tuple(expected)


# --- broadcast_tensors: views (stride 0) and differentiable --------------------------------
def test_broadcast_tensors_views_and_gradients():
    a = np.arange(3, dtype=np.float32).reshape(3, 1)
    b = np.arange(4, dtype=np.float64)
    check_op(lambda lib, x, y: lib.broadcast_tensors(x, y), a, b)
    check_op(lambda lib, x, y: lib.broadcast_tensors([x, y]), a, b)  # a TypeError in both


def test_broadcast_tensors_three_and_error():
    check_op(
        lambda lib, x, y, z: lib.broadcast_tensors(x, y, z),
        np.ones((2, 1, 1), np.float32), np.ones((3, 1), np.float32), np.ones(4, np.float32),
    )
    check_op(lambda lib: lib.broadcast_tensors(lib.zeros(2, 3), lib.zeros(4, 3)), same_message=True)
    check_op(lambda lib: lib.broadcast_tensors(lib.zeros(2, 3), lib.zeros(1, 3), lib.zeros(4, 3)), same_message=True)


def test_broadcast_tensors_stride_zero():
    """Broadcast dims are stride-0 views, with torch's strides (not a hard-coded guess)."""
    check_op(lambda lib, a, b: [t.stride() for t in lib.broadcast_tensors(a, b)], np.zeros((3, 1)), np.zeros(4))


@given(broadcastable_pair())
def test_broadcast_tensors_random(shapes):
    a, b = shapes
    x = np.random.default_rng(0).standard_normal(a)
    y = np.random.default_rng(1).standard_normal(b).astype(np.float32)
    check_op(lambda lib, p, q: lib.broadcast_tensors(p, q), x, y)


# --- sum_to_shape: the backward of broadcasting ---------------------------------------------
@given(broadcastable_pair())
def test_sum_to_shape_undoes_broadcasting(shapes):
    a, b = shapes
    out_shape = broadcast_pair(a, b)
    g = np.random.default_rng(0).standard_normal(out_shape)
    expected = torch.tensor(g).sum_to_size(a) if a else torch.tensor(g).sum()
    got = sum_to_shape(tl.tensor(g), a)
    assert tuple(got.shape) == tuple(a)
    np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-10, atol=1e-10)


# --- broadcast_to ----------------------------------------------------------------------------
@given(data=st.data())
def test_broadcast_to_matches_torch(data: st.DataObject) -> None:
    """A view (stride 0 where stretched) of the target shape; -1 keeps a size; errors as expand."""
    shape = tuple(data.draw(st.lists(st.integers(1, 3), max_size=3)))
    extra = tuple(data.draw(st.lists(st.integers(1, 3), max_size=2)))
    target = extra + tuple(data.draw(st.sampled_from([s, 3, -1])) if s == 1 else data.draw(st.sampled_from([s, -1, s + 1])) for s in shape)
    x = np.random.default_rng(len(shape)).standard_normal(shape)
    check_op(lambda lib, a: lib.broadcast_to(a, target), x)
    check_op(lambda lib, a: a.broadcast_to(target), x)


def test_broadcast_to_seed_shapes() -> None:
    check_op(lambda lib, a: lib.broadcast_to(a, (3, 4)), np.array([[2], [4], [6]]))
    check_op(lambda lib, a: lib.broadcast_to(a, (2, 3)), np.arange(4), match="must match the existing size")


# --- gradients summed back to a broadcast input: each op's backward does it --------------------
def _copy_into(lib, a, b):
    return a.clone().copy_(b)


def _index_put(lib, a, b):
    out = a.clone()
    out[lib.tensor([0, 2])] = b
    return out


def _solve(lib, a, b):
    return lib.linalg.solve(a + 4 * lib.eye(3), b)


BROADCASTING_OPS = {  # name: (op, shape of a, shape of b); a and b broadcast against each other
    "add": (lambda lib, a, b: lib.add(a, b, alpha=2), (3, 1), (4,)),
    "sub": (lambda lib, a, b: lib.sub(a, b, alpha=2), (3, 1), (4,)),
    "mul": (lambda lib, a, b: a * b, (2, 3, 1), (1, 4)),
    "div": (lambda lib, a, b: a / b, (3, 1), (2, 1, 4)),
    "div_floor": (lambda lib, a, b: lib.div(a, b, rounding_mode="floor"), (3, 1), (4,)),
    "remainder": (lambda lib, a, b: lib.remainder(a, b), (3, 1), (4,)),
    "fmod": (lambda lib, a, b: lib.fmod(a, b), (3, 1), (4,)),
    "pow": (lambda lib, a, b: a ** b, (3, 1), (4,)),
    "maximum": (lambda lib, a, b: lib.maximum(a, b), (3, 1), (4,)),
    "minimum": (lambda lib, a, b: lib.minimum(a, b), (3, 1), (4,)),
    "where": (lambda lib, a, b: lib.where(a > 1.2, a, b), (3, 1), (4,)),
    "clamp": (lambda lib, a, b: lib.clamp(a, min=b), (3, 1), (4,)),
    "atan2": (lambda lib, a, b: lib.atan2(a, b), (3, 1), (4,)),
    "cross": (lambda lib, a, b: lib.linalg.cross(a, b), (2, 1, 3), (1, 4, 3)),
    "copy_": (_copy_into, (3, 4), (4,)),
    "index_put": (_index_put, (3, 4), (4,)),
    "solve": (_solve, (2, 1, 3, 3), (4, 3, 2)),
    "mse_loss": (lambda lib, a, b: lib.nn.functional.mse_loss(a, b, reduction="none"), (3, 1), (4,)),
}


@pytest.mark.filterwarnings("ignore:Using a target size")  # mse_loss of broadcast shapes warns, as in torch
@pytest.mark.parametrize("fast", [True, False], ids=["fast", "plain"])
@pytest.mark.parametrize("name", sorted(BROADCASTING_OPS))
def test_backward_sums_gradients_back_to_each_input(name: str, fast: bool) -> None:
    """The op's own backward returns gradients of its inputs' shapes (it calls ``sum_to_shape``;
    the engine does not do it for it), and they are torch's."""
    op, a_shape, b_shape = BROADCASTING_OPS[name]
    rng = np.random.default_rng(0)
    a_np, b_np = rng.uniform(0.5, 2, a_shape), rng.uniform(0.5, 2, b_shape)
    with tl.fast_path(fast):
        a, b = (tl.tensor(v, requires_grad=True) for v in (a_np, b_np))
        out = op(tl, a, b)
        node = out.grad_fn
        grads = node.function.backward(node, tl.ones_like(out))
        first = 1 if name == "where" else 0  # where's first input is the condition
        assert [None if g is None else tuple(g.shape) for g in grads[first : first + 2]] == [a_shape, b_shape]
        weights = rng.uniform(size=tuple(out.shape))  # so that every output element counts differently
        (out * tl.tensor(weights)).sum().backward()
    ta, tb = (torch.tensor(v, requires_grad=True) for v in (a_np, b_np))
    (op(torch, ta, tb) * torch.tensor(weights)).sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), ta.grad.numpy(), rtol=1e-6, atol=1e-12)
    np.testing.assert_allclose(b.grad.numpy(), tb.grad.numpy(), rtol=1e-6, atol=1e-12)
