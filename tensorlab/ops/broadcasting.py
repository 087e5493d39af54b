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
    result = []
    for d, (sa, sb) in enumerate(zip(a, b, strict=True)):
        if sa == sb or sb == 1:
            result.append(sa)
        elif sa == 1:
            result.append(sb)
        else:
            raise RuntimeError(
                f"The size of tensor a ({sa}) must match the size of tensor b ({sb}) "
                f"at non-singleton dimension {d}"
            )
    return tuple(result)


def broadcast_shapes(*shapes: Sequence[int] | int) -> tuple[int, ...]:
    """torch.broadcast_shapes: the shape all of ``shapes`` broadcast to."""
    from .._tensor import Size

    result: tuple[int, ...] = ()
    for shape in shapes:
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        ndim = max(len(result), len(shape))
        padded_result = (1,) * (ndim - len(result)) + result
        padded = (1,) * (ndim - len(shape)) + shape
        out = []
        for d, (have, new) in enumerate(zip(padded_result, padded, strict=True)):
            if have == new or new == 1:
                out.append(have)
            elif have == 1:
                out.append(new)
            else:
                raise RuntimeError(
                    f"Shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is "
                    f"between arg 0 and arg {shapes.index(shape) if shape in shapes else d}: "
                    f"{list(padded_result)} vs {list(padded)}."
                )
        result = tuple(out)
    return Size(result)


def broadcast_tensors(*tensors: Tensor) -> tuple[Tensor, ...]:
    """Expand every tensor to the common shape (views, stride 0 where stretched)."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    shape: tuple[int, ...] = ()
    for t in tensors:
        shape = broadcast_pair(shape, t.shape)
    return tuple(t.expand(shape) for t in tensors)


def sum_to_shape(grad: Tensor, shape: Sequence[int]) -> Tensor:
    """Undo broadcasting in backward: sum ``grad`` over the dims that were added or stretched."""
    shape = tuple(shape)
    if tuple(grad.shape) == shape:
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
    dims = list(range(leading)) + stretched
    summed = grad.sum(dims, keepdim=True) if dims else grad
    return summed.reshape(shape) if leading or summed.shape != shape else summed
