"""Broadcasting: the shape rule, and its inverse for gradients.

Line shapes up on the right, pad the shorter one with 1s on the left; in each position the sizes
must be equal or one of them 1, and the result takes the larger. Stretching a size-1 dim costs
no memory: it is a stride of 0 (see ``expand``). In backward the rule runs the other way: a
gradient of the broadcast shape is *summed* over the stretched dims (:func:`sum_to_shape`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .._tensor import Tensor


def broadcast_pair(a: Sequence[int], b: Sequence[int]) -> tuple[int, ...]:
    """Result shape of broadcasting a with b, with torch's error naming tensors a and b."""
    ndim = max(len(a), len(b))
    a = (1,) * (ndim - len(a)) + tuple(a)
    b = (1,) * (ndim - len(b)) + tuple(b)
    result = [0] * ndim
    for d in reversed(range(ndim)):  # from the right, like torch: it reports the last bad dim
        sa, sb = a[d], b[d]
        if sa == sb or sb == 1:
            result[d] = sa
        elif sa == 1:
            result[d] = sb
        else:
            raise RuntimeError(
                f"The size of tensor a ({sa}) must match the size of tensor b ({sb}) "
                f"at non-singleton dimension {d}"
            )
    return tuple(result)


def broadcast_shapes(*shapes: Sequence[int] | int | None) -> tuple[int, ...]:
    """torch.broadcast_shapes: the shape all of ``shapes`` broadcast to, without making tensors.

    Walks each shape from its last dim, growing a running result that starts as all 1s; a
    size that is neither 1 nor the running size is an error that names the offending argument.
    """
    from .._tensor import Size

    shapes_given = [(s,) if isinstance(s, int) else s for s in shapes if s is not None]
    for shape in shapes_given:
        if not isinstance(shape, Sequence):
            raise RuntimeError(
                f"Input shapes should be of type ints, a tuple of ints, or a list of ints, got {shape}"
            )
    result = [1] * max((len(shape) for shape in shapes_given), default=0)
    for position, shape in enumerate(shapes_given):
        for d in range(-1, -len(shape) - 1, -1):
            size = shape[d]
            if size == result[d]:
                continue
            if result[d] == 1:
                if size < 0:
                    raise ValueError("Attempting to broadcast a dimension with negative length!")
                result[d] = size
            elif size != 1:
                raise RuntimeError(
                    f"Attempting to broadcast a dimension of length {size} at {d}! Mismatching "
                    f"argument at index {position} had {shape}; but expected shape should be "
                    f"broadcastable to {result}"
                )
    return Size(result)


def broadcast_tensors(*tensors: Tensor) -> tuple[Tensor, ...]:
    """Expand every tensor to the common shape: views, stride 0 where stretched, and
    differentiable because ``expand`` is (its backward sums the stretched dims back)."""
    from .._tensor import Tensor

    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {type(t).__name__}")
    shape: tuple[int, ...] = ()
    for t in tensors:
        shape = broadcast_pair(shape, t.shape)
    return tuple(t.expand(shape) for t in tensors)


def broadcast_to(input: Tensor, size: Sequence[int]) -> Tensor:  # noqa: A002
    """torch.broadcast_to: ``input.expand(size)``, a view with stride 0 along the stretched dims."""
    return input.expand(size)


def sum_to_shape(grad: Tensor, shape: Sequence[int]) -> Tensor:
    """Undo broadcasting in backward: sum ``grad`` over the dims that were added or stretched."""
    shape = tuple(shape)
    if grad._data.shape == shape:
        return grad
    leading = grad.ndim - len(shape)
    if leading < 0:
        raise RuntimeError(f"cannot sum a gradient of shape {list(grad.shape)} to {list(shape)}")
    stretched = [
        leading + d
        for d, size in enumerate(shape)
        if size == 1 and grad.shape[leading + d] != 1
    ]
    for d, size in enumerate(shape):
        if size != 1 and grad.shape[leading + d] != size:
            raise RuntimeError(f"cannot sum a gradient of shape {list(grad.shape)} to {list(shape)}")
    if not stretched:  # only new leading dims (a bias): summing them away leaves ``shape``
        return grad.sum(list(range(leading)))
    summed = grad.sum(list(range(leading)) + stretched, keepdim=True)
    return summed.reshape(shape) if leading else summed
