"""repr(tensor) against torch's, character for character ("torch." spelled "tensorlab.")."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import tensorlab as tl
from tests.oracle import pair


def assert_same_repr(t: torch.Tensor, m: tl.Tensor) -> None:
    expected = repr(t).replace("torch.", "tensorlab.")
    assert repr(m) == expected, f"\nexpected:\n{expected}\ngot:\n{m!r}"
    assert str(m) == expected


FIXED = {
    "floats": [1.0, 2.0],
    "halves": [0.5, 1.25],
    "integer_valued_floats": [[1.0, -2.0], [30.0, 4.0]],
    "tiny_and_one": [1e-5, 1.0],
    "huge": [1e9, 1.0],
    "wide_range_ints": [1.0, 5000.0],
    "negative_zero": [-0.0, 0.0],
    "zeros": [0.0, 0.0],
    "nan_and_one": [float("nan"), 1.0],
    "nan_only": [float("nan")],
    "inf": [float("inf"), -2.5, float("-inf")],
    "inf_ints": [float("inf"), 2.0],
    "extreme": [1e-20, 1e20],
    "point_one": [0.1, 100000.0],
    "ints": [[1, 2], [3, 4]],
    "negative_ints": [-100, 5, 7],
    "bools": [True, False],
    "bool_matrix": [[True], [False]],
    "scalar_float": 3.5,
    "scalar_int_valued_float": 2.0,
    "scalar_int": 7,
    "scalar_bool": False,
    "scalar_nan": float("nan"),
    "empty": [],
}


@pytest.mark.parametrize("name", list(FIXED))
def test_repr_fixed_cases(name: str) -> None:
    values = np.asarray(FIXED[name])
    if values.dtype == np.float64:  # Python floats: torch.tensor makes them float32
        values = values.astype(np.float32)
    assert_same_repr(*pair(values))


ARRAYS = {
    "long_row_wraps": np.arange(100, dtype=np.float32) * 1.5,
    "3d_blank_lines": np.arange(24).reshape(2, 3, 4),
    "4d": np.arange(2 * 3 * 4 * 5, dtype=np.float64).reshape(2, 3, 4, 5),
    "summarized_matrix": np.arange(2000, dtype=np.float32).reshape(40, 50) / 7,
    "summarized_vector": np.arange(1500),
    "summarized_3d": np.arange(11 * 12 * 13).reshape(11, 12, 13) % 17 - 8.5,
    "just_under_threshold": np.arange(1000, dtype=np.float32),
    "empty_matrix": np.zeros((0, 3), np.float32),
    "empty_3d_float64": np.zeros((2, 0, 3)),
    "empty_int64": np.zeros(0, np.int64),
    "float16": np.float16([1.5, 2.25, 1000.0]),
    "float64": np.array([1.0, 2.5]),
    "float64_scalar": np.array(2.5),
    "int32": np.int32([1, 2]),
    "int32_scalar": np.array(5, np.int32),
    "uint8_matrix": np.uint8([[1, 2], [255, 0]]),
    "long_int_row": np.arange(40) * 1000,
    "transposed": np.arange(12, dtype=np.float32).reshape(3, 4).T,
    "sci_matrix": np.array([[1e-8, 2.0], [3.0, 4e10]], np.float32),
}


@pytest.mark.parametrize("name", list(ARRAYS))
def test_repr_layouts(name: str) -> None:
    assert_same_repr(*pair(ARRAYS[name]))


def test_repr_autograd_suffixes() -> None:
    t, m = pair(np.array([1.0, 2.0], np.float32), requires_grad=True)
    assert_same_repr(t, m)
    assert_same_repr(t * 2, m * 2)
    assert_same_repr(t.sum(), m.sum())
    t64, m64 = pair(np.array([1.0, 2.0]), requires_grad=True)
    assert_same_repr(t64 * 2, m64 * 2)
    assert_same_repr(t64.detach(), m64.detach())
    long_t, long_m = pair(np.arange(30, dtype=np.float64) / 3, requires_grad=True)
    assert_same_repr(long_t.exp(), long_m.exp())  # the suffixes wrap onto their own line


def test_repr_of_views_and_non_contiguous() -> None:
    t, m = pair(np.arange(12, dtype=np.float32).reshape(3, 4))
    assert_same_repr(t[:, 1], m[:, 1])
    assert_same_repr(t.t(), m.t())
    assert_same_repr(t[1:, ::2], m[1:, ::2])


finite32 = st.floats(-1e4, 1e4, width=32, allow_subnormal=False)
shapes = hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=5)


@given(values=hnp.arrays(np.float32, shapes, elements=finite32))
def test_repr_random_float32(values: np.ndarray) -> None:
    assert_same_repr(*pair(np.asarray(values)))


@given(values=hnp.arrays(np.float32, shapes, elements=st.sampled_from([0.0, 0.5, -1.0, 3.0, 1e-5, 2e8, float("nan"), float("inf")])))
def test_repr_random_special_floats(values: np.ndarray) -> None:
    assert_same_repr(*pair(np.asarray(values)))


@given(values=hnp.arrays(st.sampled_from([np.int64, np.int32, np.uint8]), shapes, elements=st.integers(0, 255)))
def test_repr_random_ints(values: np.ndarray) -> None:
    assert_same_repr(*pair(np.asarray(values)))


@given(values=hnp.arrays(np.bool_, shapes))
def test_repr_random_bools(values: np.ndarray) -> None:
    assert_same_repr(*pair(np.asarray(values)))


@given(values=hnp.arrays(np.float64, hnp.array_shapes(min_dims=1, max_dims=2, max_side=4), elements=st.floats(-100, 100)))
def test_repr_random_float64_with_grad(values: np.ndarray) -> None:
    t, m = pair(np.asarray(values), requires_grad=True)
    assert_same_repr(t, m)
    assert_same_repr(t * 2, m * 2)


def test_format_of_a_zero_dim_tensor() -> None:
    t, m = pair(np.array(2.5, np.float32))
    assert f"{m:.2f}" == f"{t:.2f}"
    assert f"{m}" == f"{t}".replace("torch.", "tensorlab.")
