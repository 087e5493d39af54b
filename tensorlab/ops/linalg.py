"""Matrix products: dot, mm, bmm, matmul and outer, forward and backward side by side.

All of them are one rule, ``out[..., i, j] = sum_k x[..., i, k] * y[..., k, j]``, and one NumPy
call (``np.matmul``, which hands float matrices to BLAS). Its gradients are matrix products too:
``dx = grad @ y^T`` and ``dy = x^T @ grad``, summed over any batch dims that were broadcast.

``matmul`` is the general entry point. Like torch it treats a 1-D left operand as a row
(``(1, n)``) and a 1-D right operand as a column (``(n, 1)``), removing that dim from the
result again, and broadcasts the batch dims (all but the last two):
``(2, 1, 4, 5) @ (3, 5, 6) -> (2, 3, 4, 6)``. torch reaches its result through one of its
kernels (dot, mv, mm, bmm after folding or expanding the batches), and the kernel it picks
decides which error message a shape or dtype mismatch produces; :func:`_check_matmul` retraces
that choice so tensorlab's messages are torch's. Unlike elementwise ops, matrix products do not
promote dtypes: both operands must have the same dtype.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._dtype import bool_, dtype, float16
from .._fast import buffers as fast_buffers
from .._fast import matrix_layout
from .._fast import switch as fast
from .._tensor import Tensor
from ..autograd.function import Function, FunctionCtx
from .broadcasting import broadcast_pair, sum_to_shape
from .layouts import expand_layout

__all__ = ["addmm", "bmm", "diag", "dot", "matmul", "mm", "mv", "outer"]

# How torch spells dtypes in mm's kernel errors: C++ type names (others use dtype.scalar_type).
_CPP_NAMES = {
    "bool": "bool", "uint8": "unsigned char", "int8": "signed char", "int16": "short int", "int32": "int", "int64": "long int",
    "float16": "c10::Half", "float32": "float", "float64": "double",
}

Shape = tuple[int, ...]


# --- the kernel: one np.matmul ------------------------------------------------------------
def _product(x: np.ndarray, y: np.ndarray, dt: dtype) -> Tensor:
    """``x @ y`` with NumPy as the tensor of dtype ``dt`` (float16 is summed in float32, as torch)."""
    if dt is float16:
        return Tensor._from_array(np.matmul(x.astype(np.float32), y.astype(np.float32)), dt)
    if fast.enabled and (pooled := fast_buffers.matmul_into_pool(x, y, dt)) is not None:
        return pooled
    return Tensor._from_array(np.matmul(x, y), dt)


# --- argument checks, with the messages of the torch kernel that would run -----------------
def _require_tensors(name: str, x: Any, y: Any, arg_names: tuple[str, str]) -> None:
    for position, (value, arg) in enumerate(zip((x, y), arg_names, strict=True), start=1):
        if not isinstance(value, Tensor):
            raise TypeError(
                f"{name}(): argument '{arg}' (position {position}) must be Tensor, "
                f"not {type(value).__name__}"
            )


def _reject_bool(kernel: str, dt: dtype) -> None:
    """torch has no bool kernels for matrix products (it checks this last, after the shapes)."""
    if dt is bool_:
        raise NotImplementedError(f'"{kernel}" not implemented for \'Bool\'')


def _check_dot(x: Tensor, y: Tensor) -> None:
    if x.ndim != 1 or y.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {x.ndim}D and {y.ndim}D tensors")
    if x.dtype is not y.dtype:
        raise RuntimeError(
            "dot : expected both vectors to have same dtype, but found "
            f"{x.dtype.scalar_type} and {y.dtype.scalar_type}"
        )
    if x.shape[0] != y.shape[0]:
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{x.shape[0]}] and src [{y.shape[0]}] to "
            f"have the same number of elements, but got {x.shape[0]} and {y.shape[0]} elements "
            "respectively"
        )
    _reject_bool("dot", x.dtype)


def _check_mv(mat: Shape, mat_dtype: dtype, vec: Shape, vec_dtype: dtype) -> None:
    """matrix @ vector (torch's addmv): sizes first, then dtypes."""
    if mat[1] != vec[0]:
        raise RuntimeError(
            f"size mismatch, got input ({mat[0]}), mat ({mat[0]}x{mat[1]}), vec ({vec[0]})"
        )
    if mat_dtype is not vec_dtype:
        v, m = vec_dtype.scalar_type, mat_dtype.scalar_type
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {v}, {m}, and {v}")
    _reject_bool("addmv_impl_cpu", mat_dtype)


def _check_mm(a: Shape, a_dtype: dtype, b: Shape, b_dtype: dtype) -> None:
    """matrix @ matrix (torch's addmm): sizes first, then dtypes."""
    if a[1] != b[0]:
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({a[0]}x{a[1]} and {b[0]}x{b[1]})"
        )
    if a_dtype is not b_dtype:
        raise RuntimeError(
            "expected m1 and m2 to have the same dtype, but got: "
            f"{_CPP_NAMES[a_dtype.name]} != {_CPP_NAMES[b_dtype.name]}"
        )
    _reject_bool("addmm_impl_cpu_", a_dtype)


def _check_bmm(a: Shape, a_dtype: dtype, b: Shape, b_dtype: dtype) -> None:
    """batch of matrices @ batch of matrices: sizes, then the kernel for a's dtype, then dtypes."""
    if (b[0], b[1]) != (a[0], a[2]):
        raise RuntimeError(
            "Expected size for first two dimensions of batch2 tensor to be: "
            f"[{a[0]}, {a[2]}] but got: [{b[0]}, {b[1]}]."
        )
    _reject_bool("bmm", a_dtype)
    if a_dtype is not b_dtype:
        raise RuntimeError(
            f"expected scalar type {a_dtype.scalar_type} but found {b_dtype.scalar_type}"
        )


def _matrix_transpose(shape: Shape, strides: Shape) -> tuple[Shape, Shape]:
    return (*shape[:-2], shape[-1], shape[-2]), (*strides[:-2], strides[-1], strides[-2])


def _folds(x: Tensor, y: Tensor) -> bool:
    """Would torch fold the batch dims of the bigger operand into matrix rows (one mm or mv)?

    It does when one side has >= 3 dims and the other <= 2, and either the small side requires
    grad or the big side's batch dims can be merged without a copy (seen as ``y^T`` when y is
    the big side; then a 2-D x is never folded without grad).
    """
    big_is_x = x.ndim >= y.ndim
    small = y if big_is_x else x
    big_shape: tuple[int, ...] = x.shape
    big_strides = x.stride()
    if not big_is_x:
        big_shape, big_strides = _matrix_transpose(tuple(y.shape), y.stride())
    if not (len(big_shape) >= 3 and small.ndim <= 2):
        return False
    if small.requires_grad:
        return True
    if x.ndim == 2:
        return False
    if math.prod(big_shape) == 0:
        return True
    return all(
        big_strides[i] == big_strides[i + 1] * big_shape[i + 1] for i in range(len(big_shape) - 2)
    )


def _check_matmul(x: Tensor, y: Tensor) -> None:
    """Raise the error torch's matmul raises for these operands (nothing if they multiply)."""
    xs, ys = tuple(x.shape), tuple(y.shape)
    if x.ndim == 1 and y.ndim == 1:
        _check_dot(x, y)
    elif x.ndim == 2 and y.ndim == 1:
        _check_mv(xs, x.dtype, ys, y.dtype)
    elif x.ndim == 1 and y.ndim == 2:
        _check_mm((1, *xs), x.dtype, ys, y.dtype)
    elif x.ndim == 2 and y.ndim == 2:
        _check_mm(xs, x.dtype, ys, y.dtype)
    elif _folds(x, y):
        _check_folded(xs, x.dtype, ys, y.dtype)
    elif x.ndim == y.ndim == 3 and xs[0] != ys[0] and xs[0] == 1 and x.requires_grad:
        _check_folded(xs[1:], x.dtype, ys, y.dtype)  # torch drops the batch of 1, then folds
    elif x.ndim == y.ndim == 3 and xs[0] != ys[0] and ys[0] == 1 and y.requires_grad:
        _check_folded(xs, x.dtype, ys[1:], y.dtype)
    else:
        _check_batched(xs, x.dtype, ys, y.dtype)


def _check_folded(xs: Shape, x_dtype: dtype, ys: Shape, y_dtype: dtype) -> None:
    """Batch dims merged into rows: ``(b, n, k) @ (k, p)`` runs as ``(b*n, k) @ (k, p)``."""
    if len(xs) >= len(ys):
        big, big_dtype, small, small_dtype = xs, x_dtype, ys, y_dtype
    else:  # x @ y == (y^T @ x^T)^T, and y^T is the big side
        big, big_dtype, small, small_dtype = (*ys[:-2], ys[-1], ys[-2]), y_dtype, xs[::-1], x_dtype
    folded = (math.prod(big[:-1]), big[-1])
    if len(small) == 2:
        _check_mm(folded, big_dtype, small, small_dtype)
    else:
        _check_mv(folded, big_dtype, small, small_dtype)


def _check_batched(xs: Shape, x_dtype: dtype, ys: Shape, y_dtype: dtype) -> None:
    """Batch dims broadcast, then flattened into one: ``(B, n, k) @ (B, k, p)`` with bmm."""
    n, k = (xs[-2] if len(xs) > 1 else 1), xs[-1]
    k2, p = (ys[-2], ys[-1]) if len(ys) > 1 else (ys[0], 1)
    batch = broadcast_pair(xs[:-2], ys[:-2])
    batches = math.prod(batch)
    _check_bmm((batches, n, k), x_dtype, (batches, k2, p), y_dtype)


# --- the ops ------------------------------------------------------------------------------
class _Product(Function):
    """The forward shared by dot, mm, bmm and matmul: keep both operands, one np.matmul."""

    @staticmethod
    def forward(ctx: FunctionCtx, x: Tensor, y: Tensor) -> Tensor:
        ctx.save_for_backward(x, y)
        return _product(x._data, y._data, x.dtype)


class Dot(_Product):
    """z = sum_k x_k y_k. dz/dx = y, dz/dy = x (times the incoming scalar gradient)."""

    backward_name = "DotBackward0"

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        x, y = ctx.saved_tensors
        return (
            grad * y if ctx.needs_input_grad[0] else None,
            grad * x if ctx.needs_input_grad[1] else None,
        )


def matrix_grads(ctx: FunctionCtx, grad: Tensor, x: Tensor, y: Tensor) -> tuple[Tensor | None, Tensor | None]:
    """The one gradient rule of every matrix product Z = X @ Y: dX = grad @ Y^T, dY = X^T @ grad,
    each summed back over the batch dims its operand was broadcast along."""
    if fast.enabled and x.ndim == y.ndim == 2:
        return matrix_layout.mm_grads(ctx.needs_input_grad, grad, x, y, Mm.apply)
    grad_x = grad_y = None
    if ctx.needs_input_grad[-2]:
        grad_x = sum_to_shape(grad @ y.mT, x.shape)
    if ctx.needs_input_grad[-1]:
        grad_y = sum_to_shape(x.mT @ grad, y.shape)
    return grad_x, grad_y


class Mm(_Product):
    """Z = X Y for matrices. dZ/dX: grad @ Y^T; dZ/dY: X^T @ grad."""

    backward_name = "MmBackward0"

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        return matrix_grads(ctx, grad, *ctx.saved_tensors)


class Bmm(_Product):
    """Z[b] = X[b] Y[b] for each batch b. Gradients as for mm, batch by batch."""

    backward_name = "BmmBackward0"

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        return matrix_grads(ctx, grad, *ctx.saved_tensors)


class Matmul(_Product):
    """Z = X @ Y with broadcast batch dims and 1-D operands as row/column.

    Backward: make the 1-D operands matrices again (x as ``(1, n)``, y as ``(n, 1)``) and put
    the removed dims back into the gradient, then ``dX = grad @ Y^T`` and ``dY = X^T @ grad``,
    each summed over the batch dims its operand was broadcast along (``sum_to_shape``).
    torch names this node after its last internal step (see the subclasses below).
    """

    backward_name = "UnsafeViewBackward0"

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        x, y = ctx.saved_tensors
        x_matrix = x.reshape(1, -1) if x.ndim == 1 else x
        y_matrix = y.reshape(-1, 1) if y.ndim == 1 else y
        grad_shape = tuple(grad.shape)
        if y.ndim == 1:
            grad_shape = (*grad_shape, 1)
        if x.ndim == 1:
            grad_shape = (*grad_shape[:-1], 1, *grad_shape[-1:])
        grad_x, grad_y = matrix_grads(ctx, grad.reshape(grad_shape), x_matrix, y_matrix)
        return (
            None if grad_x is None else grad_x.reshape(x.shape),
            None if grad_y is None else grad_y.reshape(y.shape),
        )


def dot(input: Tensor, tensor: Tensor) -> Tensor:  # noqa: A002 - torch's argument name
    """Inner product of two 1-D tensors of the same dtype and length, as a 0-d tensor."""
    _require_tensors("dot", input, tensor, ("input", "tensor"))
    _check_dot(input, tensor)
    return Dot.apply(input, tensor)


def mm(input: Tensor, mat2: Tensor) -> Tensor:  # noqa: A002
    """Product of two matrices (2-D only: no broadcasting, no vectors)."""
    _require_tensors("mm", input, mat2, ("input", "mat2"))
    if input.ndim != 2:
        raise RuntimeError("self must be a matrix")
    if mat2.ndim != 2:
        raise RuntimeError("mat2 must be a matrix")
    _check_mm(tuple(input.shape), input.dtype, tuple(mat2.shape), mat2.dtype)
    return Mm.apply(input, mat2)


class Addmm(Function):
    """Z = bias + X W, fused as torch's linear layer does: the bias is added into the fresh
    product, so no second temporary is made. dZ/dbias: grad summed back to bias' shape;
    dZ/dX = grad @ W^T; dZ/dW = X^T @ grad."""

    backward_name = "AddmmBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, bias: Tensor, x: Tensor, w: Tensor) -> Tensor:
        ctx.save_for_backward(x, w)
        ctx.bias_shape = bias.shape
        result = _product(x._data, w._data, x.dtype)
        result._data += bias._data  # broadcasts, in place: ``result`` is ours alone
        return result

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        return (
            sum_to_shape(grad, ctx.bias_shape) if ctx.needs_input_grad[0] else None,
            *matrix_grads(ctx, grad, *ctx.saved_tensors),
        )


def addmm(input: Tensor, mat1: Tensor, mat2: Tensor) -> Tensor:  # noqa: A002
    """``input + mat1 @ mat2`` for matrices, ``input`` broadcast to the product (beta = alpha = 1)."""
    _require_tensors("addmm", mat1, mat2, ("mat1", "mat2"))
    if mat1.ndim != 2:
        raise RuntimeError(f"mat1 must be a matrix, got {mat1.ndim}-D tensor")
    if mat2.ndim != 2:
        raise RuntimeError(f"mat2 must be a matrix, got {mat2.ndim}-D tensor")
    _check_mm(tuple(mat1.shape), mat1.dtype, tuple(mat2.shape), mat2.dtype)
    if input.dtype is not mat1.dtype:
        raise RuntimeError(
            f"self and mat2 must have the same dtype, but got {input.dtype.scalar_type} "
            f"and {mat2.dtype.scalar_type}"
        )
    expand_layout(input, (mat1.shape[0], mat2.shape[1]))  # torch's error if input cannot take the product's shape
    if input.dtype is float16:
        return input + mm(mat1, mat2)
    return Addmm.apply(input, mat1, mat2)


def bmm(input: Tensor, mat2: Tensor) -> Tensor:  # noqa: A002
    """Batched product ``(b, n, k) @ (b, k, p) -> (b, n, p)``; the batch sizes must be equal."""
    _require_tensors("bmm", input, mat2, ("input", "mat2"))
    if input.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if mat2.ndim != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    _check_bmm(tuple(input.shape), input.dtype, tuple(mat2.shape), mat2.dtype)
    return Bmm.apply(input, mat2)


def matmul(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002
    """The ``@`` operator: dot, matrix-vector, matrix-matrix or batched, by the operands' dims."""
    _require_tensors("matmul", input, other, ("input", "other"))
    x, y = input, other
    if x.ndim == 0 or y.ndim == 0:
        raise RuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {x.ndim}D and {y.ndim}D"
        )
    _check_matmul(x, y)
    if x.ndim == 1 and y.ndim == 1:
        return Dot.apply(x, y)
    if x.ndim == 2 and y.ndim == 2:
        return Mm.apply(x, y)
    if x.ndim == 2 and y.ndim == 1:
        return Matmul.apply_as("MvBackward0", x, y)  # torch runs it as mv
    if x.ndim == 1 and y.ndim == 2:
        return Matmul.apply_as("SqueezeBackward4", x, y)  # torch: a (1, n) mm, then squeeze the 1 away
    return Matmul.apply(x, y)


def outer(input: Tensor, vec2: Tensor) -> Tensor:  # noqa: A002
    """out[i, j] = x[i] * y[j]: a column times a row, broadcast.

    torch computes it exactly so (``x.reshape(-1, 1) * y``), which is why its grad_fn is a
    MulBackward0 and why, unlike the matrix products, it promotes dtypes.
    """
    _require_tensors("outer", input, vec2, ("input", "vec2"))
    for name, v in (("self", input), ("vec2", vec2)):
        if v.ndim != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {v.ndim}-D")
    return input.reshape(-1, 1) * vec2



def mv(input: Tensor, vec: Tensor) -> Tensor:  # noqa: A002
    """matrix @ vector, and nothing else: unlike matmul it refuses other shapes."""
    _require_tensors("mv", input, vec, ("input", "vec"))
    if input.ndim != 2 or vec.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {input.ndim}, {vec.ndim}")
    _check_mv(input.shape, input.dtype, vec.shape, vec.dtype)
    return Matmul.apply_as("MvBackward0", input, vec)


class DiagEmbed(Function):
    """A vector laid on the ``offset``-th diagonal of a zero square matrix. Backward reads that
    diagonal back out of the gradient."""

    backward_name = "DiagEmbedBackward0"

    @staticmethod
    def forward(ctx: FunctionCtx, v: Tensor, offset: int) -> Tensor:
        ctx.offset = offset
        return Tensor._from_array(np.diag(v._data, offset), v.dtype)

    @staticmethod
    def backward(ctx: FunctionCtx, grad: Tensor) -> tuple:
        return grad.diagonal(ctx.offset).clone(), None


def diag(input: Tensor, diagonal: int = 0) -> Tensor:  # noqa: A002
    """Vector -> matrix with it on a diagonal; matrix -> a *copy* of its diagonal.

    ``diagonal`` > 0 is above the main diagonal, < 0 below. For a matrix, torch.diagonal gives
    the same values as a view; diag copies them.
    """
    if input.ndim == 1:
        return DiagEmbed.apply(input, diagonal)
    if input.ndim == 2:
        return input.diagonal(diagonal).clone()
    raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {input.ndim}D")
