"""View ops: new shape/strides/offset over the same storage, never a copy.

Each view op only computes a new *layout* — ``(shape, strides, storage_offset)`` — and hands
the same storage to the result; that is the whole trick. The layout arithmetic is written as
small pure functions (``*_layout`` in ``ops.layouts``) that take and return plain tuples, so it
can be read and tested without any data. Backward rules come in four families:

- same elements in the same row-major order (view, flatten, squeeze, unsqueeze): reshape back;
- the same elements in another dim order (permute, transpose, t, T, mT, movedim): permute back;
- a window of the input (narrow, select, slicing, diagonal): put the gradient into the same
  window of a zero tensor (:class:`EmbedWindow`);
- stride-0 stretching (expand): sum over the stretched dims.

``reshape`` is ``view`` when ``view_strides`` finds strides that work, and a copy otherwise,
exactly when torch copies; ``contiguous`` copies only when the layout is not row-major.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .._fast import switch as fast
from .._fast import views as fast_views
from .._storage import (
    Storage,
    contiguous_strides,
    storage_extent,
    storage_positions,
    strided_array,
    view_strides,
)
from .._tensor import Tensor, _wrap_dim
from ..autograd.function import Function, FunctionCtx
from .broadcasting import sum_to_shape
from .layouts import (
    Layout,
    diagonal_layout,
    expand_layout,
    infer_size,
    int_sizes,
    layout_of,
    select_layout,
    slice_layout,
    unfold_layout,
)

__all__ = [
    "as_strided", "diagonal", "flatten", "moveaxis", "movedim", "narrow", "permute", "reshape",
    "select", "squeeze", "swapaxes", "swapdims", "t", "transpose", "unflatten", "unsqueeze",
]


def apply_view(function: type[Function], x: Tensor, *args: Any, node_name: str = "") -> Tensor:
    """``function.apply(x, *args)`` (``apply_as(node_name, ...)`` when named); on the fast path,
    forward at once when x records nothing."""
    if fast.enabled and not x._requires_grad:
        return fast_views.forward_only(function, x, args)
    return function.apply_as(node_name, x, *args) if node_name else function.apply(x, *args)


def _sizes(args: tuple) -> tuple:
    """Accept ``view(2, 3)`` and ``view((2, 3))``."""
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        return tuple(args[0])
    return tuple(args)


# --- family 1: same elements, same order, new dims: backward reshapes back ----------------
class Regroup(Function):
    """y = x with its elements regrouped into new dims (order unchanged). dy/dx: reshape back."""

    backward_name = "ViewBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, shape: tuple, strides: tuple) -> Tensor:
        ctx.input_shape = x._data.shape
        return x._view(shape, strides, x._offset)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        return grad.reshape(ctx.input_shape), None, None


VIEW_ERROR = (
    "view size is not compatible with input tensor's size and stride (at least one dimension "
    "spans across two contiguous subspaces). Use .reshape(...) instead."
)


def view(x: Tensor, *shape: Any) -> Tensor:
    """Same memory, new shape; fails (RuntimeError) when no strides can express it."""
    if fast.enabled and not x._requires_grad and (row_major := fast_views.row_major_view(x, _sizes(shape))) is not None:
        return row_major
    new_shape = infer_size(int_sizes(_sizes(shape), "view"), x.numel())
    strides = view_strides(x.shape, x.stride(), new_shape)
    if strides is None:
        raise RuntimeError(VIEW_ERROR)
    return apply_view(Regroup, x, new_shape, strides)


def reshape(x: Tensor, *shape: Any) -> Tensor:
    """A view when the memory allows it, otherwise a contiguous copy (then a view of the copy)."""
    if fast.enabled and not x._requires_grad and (row_major := fast_views.row_major_view(x, _sizes(shape))) is not None:
        return row_major
    new_shape = infer_size(int_sizes(_sizes(shape), "reshape", "shape"), x.numel())
    strides = view_strides(x.shape, x.stride(), new_shape)
    if strides is not None:
        return apply_view(Regroup, x, new_shape, strides)
    # the view at the end of a copying reshape: torch names its node apart from view's
    return Regroup.apply_as("UnsafeViewBackward0", _copy_contiguous(x), new_shape, contiguous_strides(new_shape))


def flatten(x: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    """Merge dims start_dim..end_dim into one (a view when possible, like reshape)."""
    start, end = _wrap_dim(start_dim, x.ndim), _wrap_dim(end_dim, x.ndim)
    if start > end:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if x.ndim == 0:  # the dims are checked first: a 0-d tensor accepts only dims 0 and -1
        return reshape(x, 1)
    if start == end:
        return x
    shape = x.shape
    merged = 1
    for size in shape[start : end + 1]:
        merged *= size
    return reshape(x, (*shape[:start], merged, *shape[end + 1 :]))


def unflatten(x: Tensor, dim: int, sizes: Sequence[int]) -> Tensor:
    """Split dim into ``sizes`` (one of them may be -1).

    Checked in torch's order: empty sizes, then the dim (a 0-d tensor accepts 0 and -1), then 0-d.
    """
    sizes = tuple(sizes)
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    dim = _wrap_dim(dim, x.ndim)
    if x.ndim == 0:
        raise RuntimeError("unflatten: Dimension specified as 0 but tensor has no dimensions")
    try:
        sizes = infer_size(sizes, x.shape[dim])
    except RuntimeError as error:
        if "only one dimension" in str(error):
            raise
        raise RuntimeError(
            f"unflatten: Provided sizes {list(sizes)} don't multiply up to the size of dim {dim} "
            f"({x.shape[dim]}) in the input tensor"
        ) from None
    return reshape(x, x.shape[:dim] + sizes + x.shape[dim + 1 :])


def squeeze(x: Tensor, dim: Any = None) -> Tensor:
    """Drop size-1 dims: all of them (dim=None), or only those listed that have size 1."""
    if dim is None:
        node_name = "SqueezeBackward0"  # torch's names for squeeze(), squeeze(dims), squeeze(dim)
        dims = set(range(x.ndim))
    elif isinstance(dim, (tuple, list)):
        node_name = "SqueezeBackward2"
        wrapped = [_wrap_dim(d, x.ndim) for d in dim]
        if len(set(wrapped)) != len(wrapped):
            raise RuntimeError(f"dim {wrapped[0]} appears multiple times in the list of dims")
        dims = set(wrapped)
    else:
        node_name = "SqueezeBackward1"
        dims = {_wrap_dim(dim, x.ndim)}
    keep = [d for d in range(x.ndim) if not (d in dims and x.shape[d] == 1)]
    strides = x.stride()
    return Regroup.apply_as(node_name, x, tuple(x.shape[d] for d in keep), tuple(strides[d] for d in keep))


def unsqueeze(x: Tensor, dim: int) -> Tensor:
    """Insert a size-1 dim at ``dim`` (its stride is whatever keeps the layout contiguous-looking)."""
    dim = _wrap_dim(dim, x.ndim + 1)
    shape, strides = list(x.shape), list(x.stride())
    new_stride = 1 if dim >= x.ndim else shape[dim] * strides[dim]
    shape.insert(dim, 1)
    strides.insert(dim, new_stride)
    return Regroup.apply_as("UnsqueezeBackward0", x, tuple(shape), tuple(strides))


# --- family 2: the same elements in another dim order: backward permutes back -------------
class Permute(Function):
    """Reorder dims by reordering (shape, strides). Backward: apply the inverse permutation."""

    backward_name = "PermuteBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, dims: tuple) -> Tensor:
        ctx.dims = dims
        data = x._data.transpose(dims)  # NumPy's own permuted view: the same layout, built in C
        strides = x.stride()
        permuted = []  # a plain loop: in Python 3.11 a list comprehension is a function call of its own
        for d in dims:
            permuted.append(strides[d])
        return x._view(data.shape, tuple(permuted), x._offset, data=data)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        inverse = [0] * len(ctx.dims)
        for i, d in enumerate(ctx.dims):
            inverse[d] = i
        return Permute.apply(grad, tuple(inverse)), None


def _permutation(x: Tensor, dims: Sequence[int]) -> tuple[int, ...]:
    ndim = x._data.ndim
    if len(dims) != ndim:
        raise RuntimeError(
            "permute(sparse_coo): number of dimensions in the tensor input does not match the "
            f"length of the desired ordering of dimensions i.e. input.dim() = {ndim} is not "
            f"equal to len(dims) = {len(dims)}"
        )
    if sorted(dims) == list(range(ndim)):
        return tuple(dims)  # already an order of 0..ndim-1: the usual case, nothing to wrap or check
    wrapped: list[int] = []
    for d in dims:  # like torch, one dim at a time: a repeat before a bad dim is reported as a repeat
        dim = _wrap_dim(d, ndim)
        if dim in wrapped:
            raise RuntimeError("permute(): duplicate dims are not allowed.")
        wrapped.append(dim)
    return tuple(wrapped)


def permute(x: Tensor, *dims: Any) -> Tensor:
    if not dims:  # even a 0-d tensor needs its (empty) order spelled out: x.permute(())
        raise TypeError('permute() missing 1 required positional arguments: "dims"')
    order = _sizes(dims)
    if fast.enabled and not x._requires_grad:
        # NumPy's transpose accepts the orders torch accepts (a negative dim counts from the end)
        # and raises ValueError for any other; then _permutation raises torch's error
        try:
            return fast_views.forward_only(Permute, x, (order,))
        except ValueError:
            pass
    return apply_view(Permute, x, _permutation(x, order))


def _swapped(x: Tensor, dim0: int, dim1: int) -> tuple[int, ...]:
    order = list(range(x.ndim))
    d0, d1 = _wrap_dim(dim0, x.ndim), _wrap_dim(dim1, x.ndim)
    if x.ndim:
        order[d0], order[d1] = order[d1], order[d0]
    return tuple(order)


def transpose(x: Tensor, dim0: int, dim1: int) -> Tensor:
    """Swap two dims: swap their sizes and strides."""
    return apply_view(Permute, x, _swapped(x, dim0, dim1), node_name="TransposeBackward0")


swapaxes = swapdims = transpose


def t(x: Tensor) -> Tensor:
    """Transpose a matrix; 0-d and 1-d tensors come back as they are; more dims are an error."""
    ndim = x._data.ndim
    if ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {ndim}D")
    if fast.enabled and not x._requires_grad:
        return fast_views.transposed_view(x)
    return apply_view(Permute, x, ((), (0,), (1, 0))[ndim], node_name="TBackward0")


def reverse_dims(x: Tensor) -> Tensor:
    """``x.T``: reverse *all* dims. torch deprecates it for ndim other than 0 and 2 (and warns)."""
    if x.ndim not in (0, 2):
        warnings.warn(
            "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
            "deprecated and it will throw an error in a future release. Consider `x.mT` to "
            "transpose batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to "
            "reverse the dimensions of a tensor.",
            UserWarning,
            stacklevel=3,
        )
    return Permute.apply(x, tuple(reversed(range(x.ndim))))


def matrix_transpose(x: Tensor) -> Tensor:
    """``x.mT``: swap the last two dims (a batch of matrices, each transposed)."""
    if x.ndim == 0:
        warnings.warn(
            "Tensor.mT is deprecated on 0-D tensors. This function is the identity in these cases.",
            UserWarning,
            stacklevel=3,
        )
        return Permute.apply_as("TransposeBackward0", x, ())
    if x.ndim == 1:
        raise RuntimeError("tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor.")
    return Permute.apply_as("TransposeBackward0", x, _swapped(x, -2, -1))


def movedim(x: Tensor, source: Any, destination: Any) -> Tensor:
    """Move dims ``source`` to positions ``destination``; the others keep their relative order."""
    source = [source] if isinstance(source, int) else list(source)
    destination = [destination] if isinstance(destination, int) else list(destination)
    if len(source) != len(destination):
        raise RuntimeError(
            f"movedim: Invalid source or destination dims: source ({source} dims) should contain "
            f"the same number of dims as destination ({destination} dims)"
        )
    src = [_wrap_dim(d, x.ndim) for d in source]
    dst = [_wrap_dim(d, x.ndim) for d in destination]
    for name, dims in (("source", src), ("destination", dst)):
        if len(set(dims)) != len(dims):
            raise RuntimeError(f"movedim: repeated dim in `{name}` ({dims})")
    if x.ndim == 0:  # dims 0 and -1 name the only "dim" a 0-d tensor has: nothing moves
        return Permute.apply(x, ())
    order: list[int | None] = [None] * x.ndim
    for s, d in zip(src, dst, strict=True):
        order[d] = s
    rest = iter(d for d in range(x.ndim) if d not in src)
    order = [next(rest) if d is None else d for d in order]
    return Permute.apply(x, tuple(order))


moveaxis = movedim


# --- family 3: a window of the input: backward fills the same window of zeros -------------
LayoutMap = Callable[[Layout], Layout]


class Window(Function):
    """y = a window of x, described by ``to_window`` (a map from x's layout to y's layout).

    dy/dx: each element of y *is* an element of x, so the gradient goes back to those positions
    of a zero tensor shaped like x (:class:`EmbedWindow`); elements outside the window get 0.
    """

    backward_name = "AliasBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, to_window: LayoutMap) -> Tensor:
        ctx.input_shape, ctx.to_window = x.shape, to_window
        return x._view(*to_window(layout_of(x)))

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        return EmbedWindow.apply(grad, ctx.input_shape, ctx.to_window), None


class EmbedWindow(Function):
    """z = zeros(shape) with the window ``to_window`` set to g. dz/dg: take the same window."""

    backward_name = "EmbedWindowBackward"

    @staticmethod
    def forward(ctx: FunctionCtx, g: Tensor, shape: tuple, to_window: LayoutMap) -> Tensor:
        ctx.to_window = to_window
        z = Tensor._from_array(np.zeros(shape, dtype=g.dtype.numpy), g.dtype)
        z._view(*to_window(layout_of(z)))._data[...] = g._data
        return z

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        return Window.apply(grad, ctx.to_window), None, None


def narrow(x: Tensor, dim: int, start: int, length: int) -> Tensor:
    """Elements start..start+length-1 of ``dim`` (a view)."""
    if x.ndim == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    dim = _wrap_dim(dim, x.ndim)
    size = x.shape[dim]
    start, length = int_sizes((start, length), "narrow", "start, length")  # 1.5 is a TypeError, not 1
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], but got {start})")
    if start < 0:
        start += size
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    if start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    return Window.apply_as("SliceBackward0", x, lambda layout: slice_layout(layout, dim, start, start + length, 1))


def select(x: Tensor, dim: int, index: int) -> Tensor:
    """Fix ``dim`` at ``index`` and drop it: ``x.select(0, i)`` is ``x[i]``."""
    shape = x._data.shape
    if not shape:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    dim = _wrap_dim(dim, len(shape))
    size, index = shape[dim], int(index)
    if not -size <= index < size:
        raise IndexError(
            f"select(): index {index} out of range for tensor of size {list(x.shape)} at dimension {dim}"
        )
    index = index + size if index < 0 else index
    if fast.enabled and not x._requires_grad:  # nothing to record: NumPy's x[:, ..., index, ...] is the view
        return fast_views.basic_index_view(x, (slice(None),) * dim + (index, Ellipsis), select_layout(layout_of(x), dim, index))
    return Window.apply_as("SelectBackward0", x, lambda layout: select_layout(layout, dim, index))


def diagonal(x: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """The diagonal of dims (dim1, dim2), shifted by ``offset``, as the last dim (a view)."""
    d1, d2 = _wrap_dim(dim1, x.ndim), _wrap_dim(dim2, x.ndim)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return Window.apply_as("DiagonalBackward0", x, lambda layout: diagonal_layout(layout, offset, d1, d2))


# --- sliding windows: overlapping views, backward adds the overlaps -------------------------


class SlidingWindows(Function):
    """y = x.unfold(dim, size, step): every window of x along dim, as a view (windows overlap when
    step < size). dy/dx: an element of x read by several windows collects all their gradients, so
    the backward adds, window tap by window tap (:class:`AddWindowsBack`); unfold is its backward."""

    backward_name = "UnfoldBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, dim: int, size: int, step: int) -> Tensor:
        ctx.geometry = (tuple(x.shape), dim, size, step)
        return x._view(*unfold_layout(layout_of(x), dim, size, step))

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        return AddWindowsBack.apply(grad, *ctx.geometry), None, None, None


class AddWindowsBack(Function):
    """z = zeros(shape), then every window element of g added onto the position it was read from."""

    backward_name = "UnfoldBackwardBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, g: Tensor, shape: tuple, dim: int, size: int, step: int) -> Tensor:
        ctx.geometry = (dim, size, step)
        z = np.zeros(shape, dtype=g.dtype.numpy)
        taps_along_dim = np.moveaxis(g._data, -1, dim)  # (..., size, windows, ...): tap first
        for tap in range(size):  # tap ``tap`` of every window sits at tap + window * step
            target = (slice(None),) * dim + (slice(tap, tap + (g.shape[dim] - 1) * step + 1, step),)
            z[target] += taps_along_dim[(slice(None),) * dim + (tap,)]
        return Tensor._from_array(z, g.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        return SlidingWindows.apply(grad, *ctx.geometry), None, None, None, None


def unfold(x: Tensor, dimension: int, size: int, step: int) -> Tensor:
    """Tensor.unfold: all windows of ``size`` elements, ``step`` apart, along ``dimension``, as a
    view with one more dim (the window's elements). The strided view under every convolution."""
    dim = _wrap_dim(dimension, max(x.ndim, 1))
    length = x.shape[dim] if x.ndim else 1
    size, step = int(size), int(step)
    if size > length:
        raise RuntimeError(f"maximum size for tensor at dimension {dim} is {length} but size is {size}")
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    source = x if x.ndim else x.reshape(1)
    result = SlidingWindows.apply(source, dim, size, step)
    return result if x.ndim else result.reshape(size)


# --- family 4: stride-0 stretching: backward sums the copies ------------------------------
class Expand(Function):
    """Stretch size-1 dims to a larger size with stride 0 (no copy). Backward: sum them back."""

    backward_name = "ExpandBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, shape: tuple, strides: tuple) -> Tensor:
        ctx.input_shape = x._data.shape
        return x._view(shape, strides, x._offset)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        return sum_to_shape(grad, ctx.input_shape), None, None


def expand(x: Tensor, *sizes: Any) -> Tensor:
    """A view with size-1 dims stretched (stride 0) and new leading dims; -1 keeps a dim's size."""
    if not sizes:
        raise TypeError('expand() missing 1 required positional arguments: "size"')
    if len(sizes) == 1 and type(sizes[0]) is not int:  # expand((8, 16)), expand(torch.Size(...))
        sizes = _sizes(sizes)
    if fast.enabled and not x._requires_grad and (expanded := fast_views.expand(x, sizes)) is not None:
        return expanded
    shape, strides = expand_layout(x, int_sizes(sizes, "expand"))
    return Expand.apply(x, shape, strides)


# --- any layout at all: as_strided --------------------------------------------------------
class AsStrided(Function):
    """y reads x's storage through an arbitrary layout. dy/dx: add each gradient element into
    the storage position it was read from, then read x's elements back from those positions."""

    backward_name = "AsStridedBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, shape: tuple, strides: tuple, offset: int) -> Tensor:
        ctx.input_layout, ctx.output_layout = layout_of(x), (shape, strides, offset)
        return x._view(shape, strides, offset)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        size = max(storage_extent(*ctx.input_layout), storage_extent(*ctx.output_layout))
        flat = np.zeros(size, dtype=grad.dtype.numpy)
        np.add.at(flat, storage_positions(*ctx.output_layout), grad._data)
        gathered = strided_array(Storage(flat), *ctx.input_layout)
        return Tensor._from_array(gathered.copy(), grad.dtype), None, None, None


def as_strided(x: Tensor, size: Sequence[int], stride: Sequence[int], storage_offset: int | None = None) -> Tensor:
    """A view with exactly the given layout over x's storage (no checks beyond bounds)."""
    shape, strides = tuple(int(s) for s in size), tuple(int(s) for s in stride)
    offset = x.storage_offset() if storage_offset is None else int(storage_offset)
    if len(shape) != len(strides):
        raise RuntimeError("mismatch in length of strides and shape")
    if any(s < 0 for s in strides):
        raise RuntimeError(f"as_strided: Negative strides are not supported at the moment, got strides: {list(strides)}")
    if any(s < 0 for s in shape):
        raise RuntimeError(f"Storage size calculation overflowed with sizes={list(shape)} and strides={list(strides)}")
    needed = storage_extent(shape, strides, offset)
    available = x.untyped_storage().size()
    if needed > available:
        item = x.dtype.itemsize
        raise RuntimeError(
            f"setStorage: sizes {list(shape)}, strides {list(strides)}, storage offset {offset}, "
            f"and itemsize {item} requiring a storage size of {needed * item} are out of bounds "
            f"for storage of size {available * item}"
        )
    return AsStrided.apply(x, shape, strides, offset)


# --- copies --------------------------------------------------------------------------------
class ContiguousCopy(Function):
    """Copy into fresh row-major storage. Backward: the gradient passes through unchanged."""

    backward_name = "CloneBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor) -> Tensor:
        return Tensor._from_array(np.ascontiguousarray(x._data), x.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> Tensor:
        return grad


def _copy_contiguous(x: Tensor) -> Tensor:
    return ContiguousCopy.apply(x)


def contiguous(x: Tensor) -> Tensor:
    """x itself if already row-major and gap-free, else a row-major copy."""
    return x if x.is_contiguous() else _copy_contiguous(x)
