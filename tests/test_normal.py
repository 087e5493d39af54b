"""``normal`` (all four overloads) and ``Tensor.normal_`` against torch.

The samples themselves differ from torch's (another generator), so what is compared is everything
else: shape, dtype, requires_grad and the (zero) gradients, errors; and the samples' statistics
and reproducibility under ``manual_seed`` and ``generator=``.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import tensorlab as tl
from tests.oracle import check_op, layout, pair


def same_layout_and_gradients(draw, *arrays: np.ndarray, grad: bool = True) -> None:
    """Run ``draw(lib, *tensors)`` on both libraries: same shape/dtype/requires_grad, same gradients."""
    pairs = [pair(a, requires_grad=grad and a.dtype.kind == "f") for a in arrays]
    out_t = draw(torch, *[t for t, _ in pairs])
    out_m = draw(tl, *[m for _, m in pairs])
    assert layout(out_m) == layout(out_t)
    assert out_m.requires_grad == out_t.requires_grad
    if out_t.requires_grad:
        out_t.sum().backward()
        out_m.sum().backward()
        for t, m in pairs:
            if t.requires_grad:
                np.testing.assert_array_equal(m.grad.numpy(), t.grad.numpy())


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_tensor_mean_and_tensor_std(dtype: str) -> None:
    same_layout_and_gradients(lambda lib, m, s: lib.normal(m, s), np.zeros((2, 3), dtype), np.ones((2, 3), dtype))
    same_layout_and_gradients(lambda lib, m, s: lib.normal(m, s), np.zeros((2, 1), dtype), np.ones(3, dtype))


def test_tensor_mean_and_number_std_and_the_reverse() -> None:
    same_layout_and_gradients(lambda lib, m: lib.normal(m, 2.0), np.zeros((2, 3)))
    same_layout_and_gradients(lambda lib, m: lib.normal(m), np.zeros(4, "float32"))
    same_layout_and_gradients(lambda lib, m: lib.normal(mean=m), np.zeros(4, "float32"))
    same_layout_and_gradients(lambda lib, s: lib.normal(1.0, s), np.ones((3,)))
    same_layout_and_gradients(lambda lib, s: lib.normal(1, s), np.ones((3,), "float32"))


def test_mixed_dtypes_promote() -> None:
    same_layout_and_gradients(lambda lib, m, s: lib.normal(m, s), np.zeros(2, "float64"), np.ones(2, "float32"))
    same_layout_and_gradients(lambda lib, m, s: lib.normal(m, s), np.zeros(2, "float32"), np.ones(2, "int64"))


@pytest.mark.parametrize("kwargs", [{}, {"dtype": "float64"}, {"requires_grad": True}, {"dtype": "float16"}])
def test_numbers_and_a_size(kwargs: dict) -> None:
    def draw(lib):
        options = {**kwargs, **({"dtype": getattr(lib, kwargs["dtype"])} if "dtype" in kwargs else {})}
        return lib.normal(2.0, 3.0, (2, 3), **options)

    same_layout_and_gradients(draw)
    same_layout_and_gradients(lambda lib: lib.normal(0, 1, size=[4]))
    same_layout_and_gradients(lambda lib: lib.normal(0.0, 1.0, (0, 2)))


@pytest.mark.parametrize("call", [
    lambda lib: lib.normal(0.0, 1.0),                                   # numbers need a size
    lambda lib: lib.normal(lib.zeros(2), 1.0, (3,)),                    # a tensor takes no size
    lambda lib: lib.normal(0.0, -1.0, (2,)),                            # negative std
    lambda lib: lib.normal(lib.zeros(2), -1.5),
    lambda lib: lib.normal(lib.zeros(2), lib.tensor([1.0, -1.0])),
    lambda lib: lib.normal(0.0, lib.tensor([-1.0])),
    lambda lib: lib.normal(lib.tensor([1, 2]), 1.0),                    # integer results: no kernel
    lambda lib: lib.normal(lib.tensor([1]), lib.tensor([1])),
    lambda lib: lib.normal(0.0, 1.0, (2,), dtype=lib.int64),
    lambda lib: lib.normal(lib.tensor([True]), 1.0),
    lambda lib: lib.normal(lib.zeros(2), lib.ones(3)),                  # shapes do not broadcast
    lambda lib: lib.normal(0.0, 1.0, (2,), generator=3),
    lambda lib: lib.empty(3, dtype=lib.int64).normal_(),
    lambda lib: lib.empty(3).normal_(0.0, -1.0),
    lambda lib: lib.zeros(3, requires_grad=True).normal_(),            # a leaf that requires grad
])
def test_errors_match_torch(call) -> None:
    check_op(lambda lib, _: call(lib), np.zeros(1), grad=False)


def test_out_keyword() -> None:
    for lib in (torch, tl):
        out = lib.empty(0)
        assert lib.normal(0.0, 1.0, (2,), out=out) is out and tuple(out.shape) == (2,)
        out = lib.empty(2, dtype=lib.float64)
        assert lib.normal(lib.zeros(2), 1.0, out=out) is out and out.dtype == lib.float64


def test_statistics_and_reproducibility() -> None:
    tl.manual_seed(0)
    sample = tl.normal(2.0, 3.0, (20000,))
    assert abs(sample.mean().item() - 2.0) < 0.1 and abs(sample.std().item() - 3.0) < 0.1
    per_element = tl.normal(tl.tensor([0.0, 100.0]).expand(5000, 2), tl.tensor([1.0, 0.0]))
    assert abs(per_element[:, 0].mean().item()) < 0.1 and (per_element[:, 1] == 100.0).all()
    tl.manual_seed(7)
    first = tl.normal(tl.zeros(4), 1.0)
    tl.manual_seed(7)
    assert tl.equal(first, tl.normal(tl.zeros(4), 1.0))
    own = tl.normal(0.0, 1.0, (3,), generator=tl.Generator().manual_seed(3))  # a generator of its own...
    tl.manual_seed(3)
    assert tl.equal(own, tl.normal(0.0, 1.0, (3,)))  # ...draws what the seeded global one draws
    for lib in (torch, tl):  # a Generator: reproducible, and apart from the global stream
        first = lib.normal(lib.zeros(3), 1.0, generator=lib.Generator().manual_seed(5))
        lib.manual_seed(0)
        again = lib.normal(0.0, 1.0, (3,), generator=lib.Generator().manual_seed(5))
        assert lib.equal(first, again)
        x = lib.empty(3).normal_(generator=lib.Generator().manual_seed(5))
        assert lib.equal(x, first)


def test_normal_in_place() -> None:
    for lib in (torch, tl):
        x = lib.zeros(2000)
        version = x._version
        assert x.normal_(5.0, 2.0) is x and x._version == version + 1
        assert abs(x.mean().item() - 5.0) < 0.3 and abs(x.std().item() - 2.0) < 0.3
    same_layout_and_gradients(lambda lib, x: (x * 1).normal_(), np.zeros(3))


@given(shapes=hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=3, max_side=3),
       dtype=st.sampled_from(["float32", "float64"]))
def test_any_broadcast_shapes(shapes, dtype: str) -> None:
    mean, std = np.zeros(shapes.input_shapes[0], dtype), np.ones(shapes.input_shapes[1], dtype)
    same_layout_and_gradients(lambda lib, m, s: lib.normal(m, s), mean, std)
