"""Factories against torch: tensor/as_tensor/from_numpy, zeros/ones/full, arange/linspace/eye, random."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import tensorlab as tl
from tests.oracle import TORCH_DTYPES, assert_same, check_op, dtype_name, layout, standard_normal

random_shapes = st.lists(st.integers(0, 3), max_size=3).map(tuple)
seeds = st.integers(0, 2**16)


def same(code: str) -> None:
    """Evaluate ``code`` with ``lib`` = torch and = tensorlab; results or exception classes must agree."""
    results = []
    for lib in (torch, tl):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                results.append(eval(code, {"lib": lib, "np": np}))
            except Exception as error:
                results.append(error)
    expected, got = results
    if isinstance(expected, Exception):
        assert isinstance(got, Exception), f"{code}: torch raised {expected!r}, tensorlab returned {got!r}"
        assert type(expected).__name__ in {c.__name__ for c in type(got).__mro__}, f"{code}: {expected!r} vs {got!r}"
        return
    assert not isinstance(got, Exception), f"{code}: tensorlab raised {got!r}"
    if isinstance(expected, torch.dtype):
        assert dtype_name(got) == dtype_name(expected), code
        return
    assert_same(expected, got, where=code)


TENSOR_CASES = [
    "lib.tensor([[1, 2], [3, 4]])", "lib.tensor([1., 2])", "lib.tensor([True, 1])", "lib.tensor([1, 2.5])",
    "lib.tensor([True, False])", "lib.tensor(3)", "lib.tensor(3.5)", "lib.tensor(True)", "lib.tensor([])",
    "lib.tensor([[]])", "lib.tensor(((1, 2), (3, 4)))", "lib.tensor([[1, 2], [3]])", "lib.tensor([[1, 2], 3])",
    "lib.tensor([[[1], [2]], [[1], [2, 3]]])", "lib.tensor([1, None])", "lib.tensor('a')",
    "lib.tensor(np.arange(3, dtype=np.int32))", "lib.tensor(np.float64([1.5]))", "lib.tensor(np.array([True]))",
    "lib.tensor(np.float16([1.5]))", "lib.tensor(np.zeros((2, 0)))", "lib.tensor([np.float32(1.5)])",
    "lib.tensor([1, 2], dtype=lib.float64)", "lib.tensor([1.7, -1.7], dtype=lib.int32)", "lib.tensor([1.5], dtype=lib.bool)",
    "lib.tensor([lib.tensor(1.), lib.tensor(2.)])", "lib.tensor(lib.tensor([1, 2]))", "lib.tensor([1, 2], requires_grad=True)",
    "lib.tensor([1., 2], requires_grad=True)", "lib.tensor(np.arange(6).reshape(2, 3)[:, ::2])",
]


@pytest.mark.parametrize("code", TENSOR_CASES)
def test_tensor_infers_dtype_and_shape(code: str) -> None:
    same(code)


FILLED_CASES = [
    "lib.zeros(2, 3)", "lib.zeros((2, 3))", "lib.zeros([2, 3], dtype=lib.int32)", "lib.ones(3, dtype=lib.bool)",
    "lib.zeros(())", "lib.zeros(0)", "lib.zeros(2, 0)", "lib.zeros(-1)", "lib.ones(2, requires_grad=True)",
    "lib.ones(2, dtype=lib.int64, requires_grad=True)", "lib.empty(2, 3).shape", "lib.empty(2, dtype=lib.int32).dtype",
    "lib.full((2,), 7)", "lib.full((2,), True)", "lib.full((2,), 1.5)", "lib.full((2,), 7, dtype=lib.float64)",
    "lib.full([2, 2], -1.)", "lib.full((2,), lib.tensor(3))", "lib.full((), 2)", "lib.full((2,), 2, requires_grad=True)",
    "lib.eye(3)", "lib.eye(2, 3)", "lib.eye(3, 2, dtype=lib.int64)", "lib.eye(0)", "lib.eye(2, dtype=lib.bool)",
    "lib.zeros_like(lib.ones(2, dtype=lib.int32))", "lib.ones_like(lib.ones(2), dtype=lib.float64)",
    "lib.full_like(lib.ones(2, dtype=lib.int64), 2.7)", "lib.full_like(lib.ones(2), 7)", "lib.empty_like(lib.ones(2, 3)).shape",
    "lib.zeros_like(lib.ones(2), requires_grad=True)", "lib.ones_like(lib.ones(2, 3).t()).stride()",
    "lib.zeros_like(lib.ones(2, 3), dtype=lib.bool)",
]


@pytest.mark.parametrize("code", FILLED_CASES)
def test_filled_factories(code: str) -> None:
    same(code)


RANGE_CASES = [
    "lib.arange(5)", "lib.arange(1, 5)", "lib.arange(0, 1, 0.1)", "lib.arange(5, 0, -1)", "lib.arange(0., 5.)",
    "lib.arange(1, 2.5, 0.5)", "lib.arange(10, dtype=lib.float32)", "lib.arange(0, 10, 3)", "lib.arange(-1, -10, -2.5)",
    "lib.arange(0, 1, 0)", "lib.arange(0, 5, -1)", "lib.arange(1.5)", "lib.arange(0, 0.3, 0.1)", "lib.arange(1, 10, 0.3)",
    "lib.arange(0, 5, dtype=lib.int32)", "lib.arange(0.5, 3, dtype=lib.int64)", "lib.arange(0, 5, dtype=lib.float64)",
    "lib.arange(0)", "lib.arange(3, 3)", "lib.arange(-2.5, 2.5, 0.5)", "lib.arange(0, 1, 1 / 3)",
    "lib.linspace(0, 1, 5)", "lib.linspace(0, 1, 1)", "lib.linspace(0, 1, 0)", "lib.linspace(-3, 7, 11)",
    "lib.linspace(0, 10, 7, dtype=lib.int64)", "lib.linspace(0, 1, 100)", "lib.linspace(1, 0, 6)", "lib.linspace(0, 1, -1)",
    "lib.linspace(0, 1, 5, dtype=lib.float64)", "lib.linspace(-1, 1, 4, requires_grad=True)",
]


@pytest.mark.parametrize("code", RANGE_CASES)
def test_ranges(code: str) -> None:
    same(code)


@given(
    start=st.floats(-20, 20).map(lambda v: round(v, 2)),
    length=st.floats(0, 30).map(lambda v: round(v, 2)),
    step=st.sampled_from([0.1, 0.25, 0.3, 0.5, 1.0, 1.5, 2.0, 3.0]),
    descending=st.booleans(),
)
def test_arange_float_steps_length_and_values(start: float, length: float, step: float, descending: bool) -> None:
    end = start - length if descending else start + length
    step = -step if descending else step
    expected = torch.arange(start, end, step)
    got = tl.arange(start, end, step)
    assert_same(expected, got)
    assert_same(torch.arange(start, end, step, dtype=torch.float64), tl.arange(start, end, step, dtype=tl.float64))


@given(start=st.integers(-20, 20), end=st.integers(-20, 20), step=st.integers(-4, 4).filter(bool))
def test_arange_integers(start: int, end: int, step: int) -> None:
    same(f"lib.arange({start}, {end}, {step})")


@given(start=st.floats(-10, 10), end=st.floats(-10, 10), steps=st.integers(0, 20))
def test_linspace_random(start: float, end: float, steps: int) -> None:
    assert_same(torch.linspace(start, end, steps), tl.linspace(start, end, steps))
    assert_same(torch.linspace(start, end, steps, dtype=torch.float64), tl.linspace(start, end, steps, dtype=tl.float64))


# --- sharing memory with NumPy ------------------------------------------------------------
def test_from_numpy_shares_memory_both_ways() -> None:
    array = np.arange(6, dtype=np.float32).reshape(2, 3)
    t = tl.from_numpy(array)
    array[0, 0] = 100
    assert t[0, 0].item() == 100
    t[1, 2] = -5
    assert array[1, 2] == -5
    t.add_(1)
    assert array[0, 0] == 101
    assert t.dtype is tl.float32 and t.numpy() is not None and np.shares_memory(t.numpy(), array)


@pytest.mark.parametrize("index", [(slice(None), slice(1, None)), (slice(None, None, 2),), (1,), (slice(None), 2), (Ellipsis, slice(None, None, 3))])
def test_from_numpy_of_a_sliced_array_keeps_strides_and_offset(index: tuple) -> None:
    base = np.arange(24, dtype=np.int64).reshape(4, 6)
    view = base[index]
    expected = torch.from_numpy(view)
    got = tl.from_numpy(view)
    assert_same(expected, got)
    assert tuple(got.stride()) == tuple(expected.stride())
    assert got.storage_offset() == expected.storage_offset()
    view[...] = 7
    assert (got.numpy() == 7).all()


def test_from_numpy_of_a_transposed_array() -> None:
    view = np.arange(6.0).reshape(2, 3).T
    assert tuple(tl.from_numpy(view).stride()) == tuple(torch.from_numpy(view).stride())
    assert_same(torch.from_numpy(view), tl.from_numpy(view))


def test_from_numpy_errors() -> None:
    same("lib.from_numpy([1, 2])")
    same("lib.from_numpy(np.arange(4)[::-1])")


def test_numpy_keeps_the_dtype_and_tensor_copies() -> None:
    for dtype in (np.float64, np.float32, np.float16, np.int64, np.int32, np.uint8, np.bool_):
        array = np.ones(3, dtype)
        same_dtype = tl.tensor(array)
        assert dtype_name(same_dtype.dtype) == dtype_name(torch.tensor(array).dtype)
        assert not np.shares_memory(same_dtype.numpy(), array)
        assert np.shares_memory(tl.as_tensor(array).numpy(), array)
        assert np.shares_memory(tl.from_numpy(array).numpy(), array)


def test_as_tensor() -> None:
    same("lib.as_tensor([1, 2])")
    same("lib.as_tensor(np.arange(3.))")
    same("lib.as_tensor(np.arange(3), dtype=lib.float32)")
    array = np.arange(3)
    assert not np.shares_memory(tl.as_tensor(array, dtype=tl.float32).numpy(), array)
    t = tl.tensor([1.0, 2.0])
    assert tl.as_tensor(t) is t
    assert tl.as_tensor(t, dtype=tl.float64).dtype is tl.float64


# --- random -------------------------------------------------------------------------------
def test_random_factories_shapes_dtypes_ranges() -> None:
    tl.manual_seed(0)
    for lib in (torch, tl):
        a, b = lib.rand(2, 3), lib.rand((4,), dtype=lib.float64)
        assert tuple(a.shape) == (2, 3) and dtype_name(a.dtype) == "float32" and dtype_name(b.dtype) == "float64"
    big = tl.rand(10000)
    assert 0 <= big.min().item() and big.max().item() < 1
    assert abs(big.mean().item() - 0.5) < 0.02
    normal = tl.randn(20000, dtype=tl.float64)
    assert abs(normal.mean().item()) < 0.05 and abs(normal.std().item() - 1) < 0.05
    ints = tl.randint(3, 7, (1000,))
    assert ints.dtype is tl.int64 and ints.min().item() == 3 and ints.max().item() == 6
    assert tl.randint(5, (2, 2)).shape == torch.randint(5, (2, 2)).shape
    assert tl.randint(0, 5, (3,), dtype=tl.int32).dtype is tl.int32
    assert tl.rand(2, requires_grad=True).requires_grad


def test_random_like_factories() -> None:
    base = tl.zeros(2, 3, dtype=tl.float64)
    for lib_result, torch_result in [
        (tl.rand_like(base), torch.rand_like(torch.zeros(2, 3, dtype=torch.float64))),
        (tl.randn_like(base), torch.randn_like(torch.zeros(2, 3, dtype=torch.float64))),
        (tl.randint_like(base, 5), torch.randint_like(torch.zeros(2, 3, dtype=torch.float64), 5)),
        (tl.randint_like(base, 2, 5), torch.randint_like(torch.zeros(2, 3, dtype=torch.float64), 2, 5)),
        (tl.rand_like(base, dtype=tl.float32), torch.rand_like(torch.zeros(2, 3), dtype=torch.float32)),
    ]:
        assert tuple(lib_result.shape) == tuple(torch_result.shape)
        assert dtype_name(lib_result.dtype) == dtype_name(torch_result.dtype)


def test_random_is_reproducible_after_manual_seed() -> None:
    tl.manual_seed(1234)
    first = (tl.rand(3), tl.randn(2, 2), tl.randint(0, 100, (5,)))
    tl.manual_seed(1234)
    second = (tl.rand(3), tl.randn(2, 2), tl.randint(0, 100, (5,)))
    for a, b in zip(first, second, strict=True):
        assert a.tolist() == b.tolist()
    assert tl.initial_seed() == 1234
    tl.manual_seed(1235)
    assert tl.rand(3).tolist() != first[0].tolist()


def test_random_errors() -> None:
    same("lib.randint(5, 5, (2,))")
    same("lib.rand(-1)")


# --- factories on random shapes and dtypes, and their errors ---------------------------------
@given(shape=random_shapes, dtype=st.sampled_from(list(TORCH_DTYPES)), fill=st.integers(0, 1) | st.floats(-3, 3, width=16))
def test_filled_factories_random(shape: tuple, dtype: str, fill: Any) -> None:
    fill = bool(fill) if dtype == "bool" else abs(int(fill)) if dtype == "uint8" else fill
    check_op(lambda lib: lib.zeros(shape, dtype=getattr(lib, dtype)))
    check_op(lambda lib: lib.ones(*shape, dtype=getattr(lib, dtype)))
    check_op(lambda lib: lib.full(shape, fill, dtype=getattr(lib, dtype)))
    check_op(lambda lib: lib.full(shape, fill))  # the dtype inferred from the fill value
    check_op(lambda lib: layout(lib.empty(shape, dtype=getattr(lib, dtype))))


@given(n=st.integers(0, 4), m=st.none() | st.integers(0, 4), dtype=st.sampled_from(list(TORCH_DTYPES)))
def test_eye_random(n: int, m: int | None, dtype: str) -> None:
    check_op(lambda lib: lib.eye(n, dtype=getattr(lib, dtype)) if m is None else lib.eye(n, m, dtype=getattr(lib, dtype)))


@given(shape=random_shapes, seed=seeds, source=st.sampled_from(["float32", "int64", "float64"]), target=st.sampled_from([None, "float64", "int32"]))
def test_like_factories_random(shape: tuple, seed: int, source: str, target: str | None) -> None:
    x = standard_normal(shape, seed, source)
    kwargs = (lambda lib: {}) if target is None else (lambda lib: {"dtype": getattr(lib, target)})
    check_op(lambda lib, a: lib.zeros_like(a, **kwargs(lib)), x, grad=False)
    check_op(lambda lib, a: lib.ones_like(a, **kwargs(lib)), x, grad=False)
    check_op(lambda lib, a: lib.full_like(a, 2, **kwargs(lib)), x, grad=False)
    check_op(lambda lib, a: layout(lib.empty_like(a, **kwargs(lib))), x, grad=False)


@given(values=hnp.arrays(st.sampled_from([np.float32, np.float64, np.int64, np.int32, np.bool_, np.uint8]), hnp.array_shapes(min_dims=0, max_dims=3, max_side=3)))
def test_as_tensor_and_from_numpy_random(values: np.ndarray) -> None:
    check_op(lambda lib: lib.as_tensor(values.copy()))
    check_op(lambda lib: lib.from_numpy(values.copy()))
    check_op(lambda lib: lib.as_tensor(values.tolist()))


@pytest.mark.parametrize(
    "make",
    [
        lambda lib: lib.zeros(-1),
        lambda lib: lib.ones(2, -3),
        lambda lib: lib.full((-1,), 1.0),
        lambda lib: lib.empty(-2),
        lambda lib: lib.eye(-1),
        lambda lib: lib.eye(2, -1),
        lambda lib: lib.as_tensor([[1, 2], [3]]),
        lambda lib: lib.tensor([1, "a"]),
        lambda lib: lib.arange(0, 10, 0),
        lambda lib: lib.linspace(0, 1, -1),
    ],
)
def test_factory_errors(make: Any) -> None:
    check_op(make)


def test_from_numpy_refuses_what_torch_refuses() -> None:
    check_op(lambda lib: lib.from_numpy([1, 2]))
    check_op(lambda lib: lib.from_numpy(np.array(["a"])))


@pytest.mark.parametrize(
    "data",
    [
        np.float64(1.5), np.float32(1.5), np.float16(1.5), np.int32(3), np.uint8(3), np.bool_(True),
        [np.float32(1)], [np.float64(1)], [np.int32(1)], [np.int32(1), 1.0], [np.int32(1), 1],
        [np.float64(1), np.float32(2)], [np.float16(1), 2.0], [np.uint8(1), True], [1, True, 2.5],
        [np.array([1.5])],
    ],
)
def test_tensor_infers_the_dtype_of_numpy_scalars(data: Any) -> None:
    check_op(lambda lib: lib.tensor(data))
    check_op(lambda lib: lib.as_tensor(data))


@pytest.mark.parametrize(
    ("data", "dtype"),
    [
        ([300], "uint8"), (300, "uint8"), ([-1], "uint8"), ([-255], "uint8"), ([-256], "uint8"),
        ([300.0], "uint8"), ([-1.5], "uint8"), (np.float64(300), "uint8"), ([2**40], "int32"),
        ([2**31 - 1, -(2**31)], "int32"), ([2**31], "int32"), ([300], "bool"), ([2**63], None),
        (2**63, None), ([-(2**63) - 1], None), ([2**64], "int64"), ([2**63], "float32"),
        (np.array([300]), "uint8"),  # NumPy arrays wrap, as in torch
    ],
)
def test_tensor_refuses_integers_that_do_not_fit(data: Any, dtype: str | None) -> None:
    check_op(lambda lib: lib.tensor(data) if dtype is None else lib.tensor(data, dtype=getattr(lib, dtype)))


# --- random factories: values differ from torch's generator, so compare layout and range ------
@given(shape=random_shapes, dtype=st.sampled_from(list(TORCH_DTYPES)), low=st.integers(-5, 5), span=st.integers(1, 5))
def test_random_factories_random(shape: tuple, dtype: str, low: int, span: int) -> None:
    def drawn(lib: Any) -> tuple:
        results = (lib.rand(shape, dtype=getattr(lib, dtype)), lib.randn(*shape, dtype=getattr(lib, dtype)))
        return tuple(layout(r) for r in results)

    check_op(drawn)  # integer dtypes: NotImplementedError in both
    signed = dtype not in {"bool", "uint8"}
    low = low if signed else abs(low)
    high = low + span if dtype != "bool" else 2
    low = 0 if dtype == "bool" else low

    def ints(lib: Any) -> tuple:
        r = lib.randint(low, high, shape, dtype=getattr(lib, dtype))
        return layout(r), bool(((r >= low) & (r < high)).all()) if dtype != "bool" else True

    check_op(ints)


@given(shape=random_shapes, seed=seeds, source=st.sampled_from(list(TORCH_DTYPES)))
def test_random_like_factories_random(shape: tuple, seed: int, source: str) -> None:
    x = standard_normal(shape, seed).astype(source)
    check_op(lambda lib, a: layout(lib.rand_like(a)), x, grad=False)
    check_op(lambda lib, a: layout(lib.randn_like(a)), x, grad=False)
    check_op(lambda lib, a: layout(lib.randint_like(a, 1, 2)), x, grad=False)
    check_op(lambda lib, a: (lib.randint_like(a, 1, 2) == 1).all(), x, grad=False)


@pytest.mark.parametrize(
    "fn",
    [
        lambda lib, a: lib.randn(-1),
        lambda lib, a: lib.rand(2, dtype=lib.int64),
        lambda lib, a: lib.randn(2, dtype=lib.uint8),
        lambda lib, a: lib.rand_like(a.long()),
        lambda lib, a: lib.randn_like(a.int()),
        lambda lib, a: lib.randint_like(a, 0),
        lambda lib, a: lib.randint(3, 1, (2,)),
        lambda lib, a: lib.full_like(a),
    ],
)
def test_random_and_like_factory_errors(fn: Any) -> None:
    check_op(fn, standard_normal((2, 3), 0), grad=False)


FACTORIES = {
    "zeros": lambda lib, *size: lib.zeros(*size),
    "ones": lambda lib, *size: lib.ones(size),
    "empty": lambda lib, *size: lib.empty(*size),
    "full": lambda lib, *size: lib.full(size, 1.0),
    "rand": lambda lib, *size: lib.rand(*size),
    "randn": lambda lib, *size: lib.randn(size),
}


@pytest.mark.parametrize("bad", [2.5, "3", float("nan")], ids=["fraction", "string", "nan"])
@pytest.mark.parametrize("factory", FACTORIES.values(), ids=list(FACTORIES))
def test_a_factory_size_that_is_not_a_whole_number_is_a_type_error_as_in_torch(factory: Any, bad: Any) -> None:
    """Never ``int()``'s silent truncation (``zeros(2.5)`` was a tensor of 2 elements)."""
    for lib in (torch, tl):
        assert tuple(factory(lib, np.int64(2), 3).shape) == (2, 3)
        with pytest.raises(TypeError):
            factory(lib, 2, bad)
