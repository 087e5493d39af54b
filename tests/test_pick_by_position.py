"""ops/pick_by_position.py: the storage-position formula every picking op shares, checked against the
strided-view formula of ``_storage`` and against torch's reading of the same elements."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tensorlab._storage import storage_positions
from tensorlab.ops.pick_by_position import positions_at
from tests.oracle import check_op

LAYOUTS = [((2, 3), (3, 1), 0), ((2, 3), (1, 2), 5), ((4,), (0,), 2), ((), (), 7), ((2, 0, 3), (9, 3, 1), 1)]


@pytest.mark.parametrize(("shape", "strides", "offset"), LAYOUTS)
def test_open_grid_of_aranges_is_the_strided_view_formula(shape: tuple, strides: tuple, offset: int) -> None:
    grid = np.ix_(*[np.arange(n) for n in shape])
    assert np.array_equal(positions_at(grid, strides, offset), storage_positions(shape, strides, offset))


@pytest.mark.parametrize(
    "read",
    [
        lambda lib, x, i: x.t().gather(1, i),
        lambda lib, x, i: x.t().index_select(0, i[0]),
        lambda lib, x, i: x.t()[i],
        lambda lib, x, i: x.t().flip(0).roll(1, 1),
    ],
    ids=["gather", "index_select", "advanced indexing", "flip+roll"],
)
def test_picking_reads_through_a_transposed_view_like_torch(read: Any) -> None:
    """The positions come from the layout, so a non-contiguous input reads the right elements and
    the gradient goes back to the right ones (the transposed view has strides (1, 4))."""
    check_op(read, np.arange(12.0).reshape(3, 4), np.array([[2, 0, 1], [1, 1, 0]]))
