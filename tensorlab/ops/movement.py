"""Movement ops: copies that move elements — flip, roll, repeat, tile, repeat_interleave,
tril, triu. (The ops that rearrange elements *without* copying are views: ``ops.views``.)

flip, roll and repeat make every output element a copy of *one* input element, chosen by a
rule applied to each coordinate separately:

    flip   along d:  i -> size - 1 - i
    roll   along d:  i -> (i - shift) mod size
    repeat along d:  i -> i mod size          (the output is ``repeats`` times larger)

So output element ``(i0, i1, ...)`` lives at storage position
``offset + rule0(i0) * stride0 + rule1(i1) * stride1 + ...`` of the input — the strided-view
formula with each coordinate passed through its rule (``ops.pick_by_position.positions_at`` on the open
grid ``np.ix_(rule0, rule1, ...)``). Picking the elements and the backward (add each gradient
element back where it came from; repeated elements add up) are ``ops.pick_by_position.PickElements``.
(flip would be a view if strides could be negative, as in NumPy; torch does not allow negative
strides, so it copies.)

tril and triu keep the elements on one side of a diagonal and zero the rest; repeat_interleave
is index_select with each index repeated.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._dtype import int32, int64
from .._storage import storage_positions
from .._tensor import Tensor, _wrap_dim
from ..autograd.function import Function, FunctionCtx
from .index_slices import index_select
from .inplace import inplace
from .layouts import Layout
from .pick_by_position import PickElements, positions_at
from .reduction import normalize_dims

__all__ = ["flip", "repeat_interleave", "roll", "tile", "tril", "triu"]


def _wrapping(steps: np.ndarray, size: int) -> np.ndarray:
    """``steps mod size``; an empty dim has no elements to wrap onto."""
    return steps % size if size else steps


def _int_tuple(name: str, value: Any) -> tuple[int, ...]:
    if isinstance(value, (int, np.integer)):
        return (int(value),)
    if isinstance(value, (tuple, list)):
        return tuple(int(v) for v in value)
    raise TypeError(f"{name} must be tuple of ints, not {type(value).__name__}")


# --- flip and roll: the same elements in another order --------------------------------------
def flip(input: Tensor, dims: Any) -> Tensor:  # noqa: A002
    """A copy with the order of the elements reversed along each dim in ``dims``."""
    if isinstance(dims, (int, np.integer)):
        raise TypeError(f"flip(): argument 'dims' (position 2) must be tuple of ints, not {type(dims).__name__}")
    flipped = normalize_dims(tuple(dims), input.ndim) if len(dims) else ()
    coordinates = [
        np.arange(size)[::-1] if d in flipped else np.arange(size) for d, size in enumerate(input.shape)
    ]
    return PickElements.apply_as("FlipBackward0", input, lambda layout: positions_at(np.ix_(*coordinates), layout[1], layout[2]))


def roll(input: Tensor, shifts: Any, dims: Any = None) -> Tensor:  # noqa: A002
    """Shift the elements along dims, wrapping around: ``out[i] = x[(i - shift) mod size]``.

    Without dims the tensor is rolled as if it were flattened, then given back its shape.
    """
    shifts = _int_tuple("shifts", shifts)
    dims = () if dims is None else _int_tuple("dims", dims)
    if not shifts:
        raise RuntimeError("`shifts` required")
    if len(shifts) != len(dims) and not (not dims and len(shifts) == 1):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}")
    shape = tuple(input.shape)
    if not dims:
        n = input.numel()
        source = _wrapping(np.arange(n) - shifts[0], n)

        def flat_roll(layout: Layout) -> np.ndarray:
            return storage_positions(*layout).reshape(-1)[source].reshape(shape)

        return PickElements.apply_as("RollBackward0", input, flat_roll)
    coordinates = [np.arange(size) for size in shape]
    for shift, dim in zip(shifts, dims, strict=True):
        d = _wrap_dim(dim, input.ndim)
        coordinates[d] = _wrapping(coordinates[d] - shift, shape[d])  # rolling twice adds shifts
    return PickElements.apply_as("RollBackward0", input, lambda layout: positions_at(np.ix_(*coordinates), layout[1], layout[2]))


# --- repeat, tile, repeat_interleave: each element used several times -------------------------
def repeat(input: Tensor, *sizes: Any) -> Tensor:  # noqa: A002
    """``x.repeat(2, 3)``: tile the whole tensor; extra leading sizes add new dims.

    x is read as if it had leading size-1 dims (stride 0) up to ``len(sizes)`` dims; output
    index i along each dim reads input index ``i mod size``.
    """
    sizes = _int_tuple("repeats", sizes[0] if len(sizes) == 1 and not isinstance(sizes[0], int) else sizes)
    if len(sizes) < input.ndim:
        raise RuntimeError(
            "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor"
        )
    new_dims = len(sizes) - input.ndim
    in_shape = (1,) * new_dims + tuple(input.shape)
    out_shape = tuple(size * times for size, times in zip(in_shape, sizes, strict=True))
    if any(s < 0 for s in out_shape):
        negative = next(s for s in out_shape if s < 0)
        raise RuntimeError(f"Trying to create tensor with negative dimension {negative}: {list(out_shape)}")
    coordinates = [_wrapping(np.arange(out), size) for out, size in zip(out_shape, in_shape, strict=True)]
    return PickElements.apply_as(
        "RepeatBackward0", input, lambda layout: positions_at(np.ix_(*coordinates), (0,) * new_dims + tuple(layout[1]), layout[2])
    )


def tile(input: Tensor, dims: Any) -> Tensor:  # noqa: A002
    """repeat, except that fewer sizes than dims are allowed (the missing leading ones are 1)."""
    dims = _int_tuple("dims", dims)
    return repeat(input, (1,) * (input.ndim - len(dims)) + dims)


def repeat_interleave(input: Tensor, repeats: Any = None, dim: int | None = None, *, output_size: int | None = None) -> Tensor:  # noqa: A002
    """Repeat each element (each slice along dim) ``repeats`` times in place: [a, b] -> [a, a, b, b].

    With a tensor of repeats, element i is repeated ``repeats[i]`` times: index_select with the
    index [0]*r0 + [1]*r1 + ... . ``repeat_interleave(r)`` alone returns that index. Without
    dim the input is flattened first.
    """
    if repeats is None:  # torch.repeat_interleave(counts)
        if input.ndim != 1:
            raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
        return Tensor._from_array(np.repeat(np.arange(input.shape[0]), input._data), int64)
    if dim is None:
        input, dim = input.reshape(-1), 0  # noqa: A001
    dim = _wrap_dim(dim, input.ndim)
    if not isinstance(repeats, Tensor):
        if repeats < 0:
            raise RuntimeError("Repeats must be non-negative")
        # each slice stretched (stride 0) into `repeats` copies along a new dim, then merged
        stretched = input.unsqueeze(dim + 1)
        sizes = list(stretched.shape)
        sizes[dim + 1] = int(repeats)
        return stretched.expand(sizes).clone().flatten(dim, dim + 1)  # always a copy, as in torch
    if repeats.dtype is not int64 and repeats.dtype is not int32:
        raise NotImplementedError(f"\"repeat_interleave_cpu\" not implemented for '{repeats.type().split('.')[-1].removesuffix('Tensor')}'")
    if repeats.ndim > 1:
        raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
    size = input.shape[dim] if input.ndim else 1
    counts = repeats._data.reshape(-1)
    if counts.size == 1:
        counts = np.full(size, counts[0])
    elif counts.size != size:
        raise RuntimeError(
            "repeats must have the same size as input along dim, but got "
            f"repeats.size(0) = {counts.size} and input.size({dim}) = {size}"
        )
    if np.any(counts < 0):
        raise RuntimeError("repeats can not be negative")
    index = Tensor._from_array(np.repeat(np.arange(size), counts), int64)
    return index_select(input, dim, index)


# --- tril and triu: one side of a diagonal, zeros elsewhere ----------------------------------
def _diagonal_offsets(shape: tuple) -> np.ndarray:
    """For each (row i, column j) of the last two dims: j - i, which diagonal it lies on."""
    return np.arange(shape[-1])[None, :] - np.arange(shape[-2])[:, None]


def _keep_side(x: Tensor, keep: np.ndarray) -> Tensor:
    return Tensor._from_array(np.where(keep, x._data, np.zeros((), x.dtype.numpy)), x.dtype)


def _require_matrix(name: str, x: Tensor) -> None:
    if x.ndim < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")


def _require_int(name: str, diagonal: Any) -> None:
    """torch parses ``diagonal`` as an int: a float or a bool is refused, not silently truncated."""
    if isinstance(diagonal, bool) or not hasattr(type(diagonal), "__index__"):
        raise TypeError(f"{name}(): argument 'diagonal' must be int, not {type(diagonal).__name__}")


class Tril(Function):
    """y = x on and below diagonal k (j - i <= k), 0 above. dy/dx: the same mask, so tril(grad)."""

    backward_name = "TrilBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, diagonal: int) -> Tensor:
        ctx.diagonal = diagonal
        return _keep_side(x, _diagonal_offsets(x.shape) <= diagonal)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        return Tril.apply(grad, ctx.diagonal), None


class Triu(Function):
    """y = x on and above diagonal k (j - i >= k), 0 below. dy/dx: triu(grad)."""

    backward_name = "TriuBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, diagonal: int) -> Tensor:
        ctx.diagonal = diagonal
        return _keep_side(x, _diagonal_offsets(x.shape) >= diagonal)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        return Triu.apply(grad, ctx.diagonal), None


def tril(input: Tensor, diagonal: int = 0) -> Tensor:  # noqa: A002
    """The lower triangle (of each matrix in the batch): zero above diagonal ``diagonal``."""
    _require_int("tril", diagonal)
    _require_matrix("tril", input)
    return Tril.apply(input, int(diagonal))


def triu(input: Tensor, diagonal: int = 0) -> Tensor:  # noqa: A002
    """The upper triangle (of each matrix in the batch): zero below diagonal ``diagonal``."""
    _require_int("triu", diagonal)
    _require_matrix("triu", input)
    return Triu.apply(input, int(diagonal))


def tril_(self: Tensor, diagonal: int = 0) -> Tensor:
    return inplace(tril, self, diagonal)


def triu_(self: Tensor, diagonal: int = 0) -> Tensor:
    return inplace(triu, self, diagonal)

