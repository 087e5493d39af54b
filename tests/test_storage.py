"""The strided-view arithmetic in tensorlab._storage, checked against what torch computes."""

from __future__ import annotations

import math

import numpy as np
import torch
from hypothesis import given
from hypothesis import strategies as st

from tensorlab._storage import (
    Storage,
    contiguous_strides,
    is_contiguous,
    storage_extent,
    storage_index,
    storage_positions,
    strided_array,
    view_strides,
)

small_shapes = st.lists(st.integers(0, 4), max_size=4).map(tuple)
nonempty_shapes = st.lists(st.integers(1, 4), max_size=4).map(tuple)


@st.composite
def layouts(draw: st.DrawFn) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """Any (shape, strides, offset), overlapping and stride-0 layouts included."""
    shape = draw(small_shapes)
    strides = tuple(draw(st.integers(0, 7)) for _ in shape)
    return shape, strides, draw(st.integers(0, 5))


@st.composite
def reshapes(draw: st.DrawFn) -> tuple[torch.Tensor, tuple[int, ...]]:
    """A torch tensor with a non-trivial layout (permuted, sliced, expanded) and a same-size shape."""
    shape = draw(small_shapes)
    t = torch.arange(float(max(math.prod(shape), 1) * 2)).as_strided(shape, contiguous_strides(shape))
    if t.ndim:
        t = t.permute(*draw(st.permutations(range(t.ndim))))
    if t.ndim and draw(st.booleans()):
        d = draw(st.integers(0, t.ndim - 1))
        t = t.narrow(d, 0, draw(st.integers(0, t.shape[d])))
    if draw(st.booleans()):
        t = t.unsqueeze(0).expand(draw(st.integers(1, 3)), *t.shape)
    numel = t.numel()
    new_shape = []
    rest = numel
    for _ in range(draw(st.integers(0, 4))):
        divisors = [k for k in range(1, rest + 1) if rest % k == 0] if rest else [0, 1, 2]
        size = draw(st.sampled_from(divisors))
        new_shape.append(size)
        rest = rest // size if size else 0
        if numel == 0:
            rest = 0
    if numel and rest != 1:
        new_shape.append(rest)
    if numel == 0 and 0 not in new_shape:
        new_shape.append(0)
    return t, tuple(new_shape)


def test_contiguous_strides_match_torch() -> None:
    for shape in [(), (3,), (2, 3, 4), (2, 0, 3), (1, 1), (0,)]:
        assert contiguous_strides(shape) == torch.empty(shape).stride()


@given(layouts(), st.data())
def test_storage_index_is_where_as_strided_reads(layout: tuple, data: st.DataObject) -> None:
    shape, strides, offset = layout
    if 0 in shape:
        return
    index = tuple(data.draw(st.integers(0, s - 1)) for s in shape)
    storage = torch.arange(storage_extent(shape, strides, offset))
    read = storage.as_strided(shape, strides, offset)[index].item()
    assert storage_index(index, strides, offset) == read


@given(layouts())
def test_storage_positions_match_torch(layout: tuple) -> None:
    shape, strides, offset = layout
    storage = torch.arange(max(storage_extent(shape, strides, offset), 1))
    expected = storage.as_strided(shape, strides, offset).numpy()
    np.testing.assert_array_equal(storage_positions(shape, strides, offset), expected)


@given(layouts())
def test_strided_array_reads_like_torch(layout: tuple) -> None:
    shape, strides, offset = layout
    values = np.arange(max(storage_extent(shape, strides, offset), 1), dtype=np.float32) * 1.5
    expected = torch.from_numpy(values.copy()).as_strided(shape, strides, offset).numpy()
    got = strided_array(Storage(values), shape, strides, offset)
    np.testing.assert_array_equal(got, expected)
    assert np.shares_memory(got, values) or got.size == 0


@given(layouts())
def test_is_contiguous_matches_torch(layout: tuple) -> None:
    shape, strides, _ = layout
    assert is_contiguous(shape, strides) == torch.empty_strided(shape, strides).is_contiguous()


@given(reshapes())
def test_view_strides_is_none_exactly_when_torch_view_fails(case: tuple) -> None:
    t, new_shape = case
    got = view_strides(t.shape, t.stride(), new_shape)
    try:
        expected = t.view(new_shape).stride()
    except RuntimeError:
        assert got is None, f"{tuple(t.shape)} strides {t.stride()} -> {new_shape}: torch fails, got {got}"
        return
    assert got == expected, f"{tuple(t.shape)} strides {t.stride()} -> {new_shape}"


def test_view_strides_fixed_cases() -> None:
    cases = [
        (torch.empty(3, 4).t(), (12,)),
        (torch.empty(3, 4).t(), (4, 3)),
        (torch.empty(3, 4).t(), (4, 3, 1)),
        (torch.empty(2, 3, 4).transpose(0, 1), (3, 8)),
        (torch.empty(2, 3, 4).transpose(1, 2), (2, 12)),
        (torch.empty(4, 1).expand(4, 3), (2, 2, 3)),
        (torch.empty(4, 1).expand(4, 3), (12,)),
        (torch.empty(()), (1, 1)),
        (torch.empty(0, 3), (3, 0)),
        (torch.empty(0, 3).t(), (0, 3)),
        (torch.empty(5, 6)[:, ::2], (15,)),
        (torch.empty(5, 6)[::2], (3, 2, 3)),
    ]
    for t, new_shape in cases:
        try:
            expected = t.view(new_shape).stride()
        except RuntimeError:
            expected = None
        assert view_strides(t.shape, t.stride(), new_shape) == expected, (tuple(t.shape), t.stride(), new_shape)


def test_storage_shares_version_and_memory() -> None:
    s = Storage(np.zeros(4, dtype=np.float32))
    assert s.version == 0 and s.size() == 4 and s.nbytes() == 16
    view = strided_array(s, (2,), (2,), 1)
    view[...] = 5
    np.testing.assert_array_equal(s.array, [0, 5, 0, 5])
