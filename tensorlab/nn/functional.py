"""nn.functional: activations, normalisation, embedding and losses as plain functions.

Convolution, pooling, unfold/fold (ops/conv.py) and pad (ops/padding.py) are re-exported from ops.

Ops that torch implements as one kernel with its own backward (softmax, log_softmax, gelu,
layer_norm, embedding, the losses) are :class:`Function` subclasses here too, so ``grad_fn`` reads
as in torch (``LogSoftmaxBackward0``, ``NllLossBackward0``...). Their forward runs in NumPy; their
backward is written with tensor ops where that reads clearly. The rest are compositions of
existing ops (``linear`` is ``x @ W.T + b``, ``dropout`` is ``x * mask``).

Tensor indexing (gather) is not used: picking the target class in ``nll_loss`` multiplies by a
one-hot mask, and ``embedding`` takes rows with NumPy in its own Function, whose backward adds each
output row's gradient into the row it came from (``np.add.at``, which handles repeated indices).
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from .._dtype import bool_, int32, int64, uint8
from .._tensor import Tensor, _wrap_dim, require_tensors
from ..autograd.function import Function
from ..autograd.grad_mode import is_grad_enabled
from ..ops import elementwise
from ..ops.broadcasting import broadcast_pair, sum_to_shape
from ..ops.conv import (  # convolution and pooling live in ops/conv.py (unfold + matmul); re-exported here
    avg_pool1d,
    avg_pool2d,
    conv1d,
    conv2d,
    conv_transpose1d,
    conv_transpose2d,
    fold,
    max_pool1d,
    max_pool2d,
    unfold,
)
from ..ops.elementwise import where
from ..ops.linalg import addmm
from ..ops.padding import pad

__all__ = [
    "avg_pool1d", "avg_pool2d", "binary_cross_entropy", "binary_cross_entropy_with_logits", "conv1d",
    "conv2d", "conv_transpose1d", "conv_transpose2d", "cross_entropy", "dropout", "embedding", "fold",
    "gelu", "layer_norm", "linear", "log_softmax", "max_pool1d", "max_pool2d", "mse_loss", "nll_loss",
    "one_hot", "pad", "relu", "sigmoid", "softmax", "tanh", "unfold",
]


def _wrap(array: np.ndarray, like: Tensor) -> Tensor:
    """A NumPy result as a tensor of ``like``'s dtype."""
    return Tensor._from_array(np.asarray(array, dtype=like.dtype.numpy), like.dtype)


# --- activations ----------------------------------------------------------------------------
def relu(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002 - torch's name
    return input.relu_() if inplace else elementwise.relu(input)


def sigmoid(input: Tensor) -> Tensor:  # noqa: A002
    return input.sigmoid()


def tanh(input: Tensor) -> Tensor:  # noqa: A002
    return input.tanh()


_erf = np.frompyfunc(math.erf, 1, 1)


def erf(a: np.ndarray) -> np.ndarray:
    """The error function, elementwise (math.erf per element: exact, fine for course-sized arrays)."""
    return _erf(a).astype(a.dtype) if a.size else a.copy()


class Erf(Function):
    """erf(x) = 2/sqrt(pi) * integral from 0 to x of exp(-s^2) ds; d/dx = 2/sqrt(pi) * exp(-x^2).

    Only GELU's backward needs it, as a differentiable op, so gradients of GELU's gradient work.
    """

    backward_name = "ErfBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> Tensor:
        ctx.save_for_backward(x)
        return _wrap(erf(x._data), x)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Tensor:
        (x,) = ctx.saved_tensors
        return grad * (-x * x).exp() * (2 / math.sqrt(math.pi))


class Gelu(Function):
    """GELU(x) = x * Phi(x), Phi the standard normal CDF = (1 + erf(x / sqrt 2)) / 2.

    d/dx = Phi(x) + x * phi(x), phi(x) = exp(-x^2/2) / sqrt(2 pi). With ``approximate='tanh'``:
    Phi(x) ~ (1 + tanh(k (x + 0.044715 x^3))) / 2, k = sqrt(2/pi), differentiated by the chain rule.
    The backward is written with tensor ops, so it can itself be differentiated (double backward).
    """

    backward_name = "GeluBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, approximate: str) -> Tensor:
        ctx.save_for_backward(x)
        ctx.approximate = approximate
        a = x._data
        if approximate == "tanh":
            inner = math.sqrt(2 / math.pi) * (a + 0.044715 * a**3)
            return _wrap(0.5 * a * (1 + np.tanh(inner)), x)
        return _wrap(0.5 * a * (1 + erf(a / math.sqrt(2))), x)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        (x,) = ctx.saved_tensors
        if ctx.approximate == "tanh":
            k = math.sqrt(2 / math.pi)
            t = (k * (x + 0.044715 * x * x * x)).tanh()
            slope = 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * k * (1 + 3 * 0.044715 * x * x)
        else:
            cdf = 0.5 * (1 + Erf.apply(x / math.sqrt(2)))
            slope = cdf + x * (-0.5 * x * x).exp() / math.sqrt(2 * math.pi)
        return grad * slope, None


def gelu(input: Tensor, approximate: str = "none") -> Tensor:  # noqa: A002
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    try:
        return Gelu.apply(input, approximate)
    except AttributeError:
        require_tensors("gelu", ("input", input))
        raise


def _softmax_dim(ndim: int, name: str) -> int:
    """torch's legacy choice when ``dim`` is not given (deprecated, with a warning)."""
    warnings.warn(
        f"Implicit dimension choice for {name} has been deprecated. Change the call to include dim=X as an argument.",
        UserWarning,
        stacklevel=3,
    )
    return 0 if ndim in (0, 1, 3) else 1


class Softmax(Function):
    """y = exp(x - max) / sum(exp(x - max)) along dim (subtracting the max avoids overflow).

    dx = y * (g - sum(g * y)), the sum taken along dim: the Jacobian diag(y) - y y^T applied to g.
    """

    backward_name = "SoftmaxBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim: int) -> Tensor:
        a = x._data
        shifted = np.exp(a - np.max(a, axis=dim, keepdims=True)) if a.ndim else np.ones_like(a)
        y = _wrap(shifted / np.sum(shifted, axis=dim, keepdims=True) if a.ndim else shifted, x)
        ctx.dim = dim
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        (y,) = ctx.saved_tensors
        if y.ndim == 0:
            return grad * 0, None
        return y * (grad - (grad * y).sum(ctx.dim, keepdim=True)), None


class LogSoftmax(Function):
    """y = x - max - log(sum(exp(x - max))) along dim: finite even for logits like 1000.

    dx = g - softmax(x) * sum(g), with softmax(x) = exp(y).
    """

    backward_name = "LogSoftmaxBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, dim: int) -> Tensor:
        a = x._data
        if a.ndim == 0:
            y = _wrap(np.zeros_like(a), x)
        else:
            shifted = a - a.max(axis=dim, keepdims=True)
            shifted -= np.log(np.exp(shifted).sum(axis=dim, keepdims=True))
            y = _wrap(shifted, x)
        ctx.dim = dim
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        (y,) = ctx.saved_tensors
        if y.ndim == 0:
            return grad * 0, None
        return LogSoftmaxBackwardData.apply(grad, y, ctx.dim), None


class LogSoftmaxBackwardData(Function):
    """log_softmax's backward as one op (torch's _log_softmax_backward_data):
    dx = g - exp(y) * sum(g) along dim.

    Itself differentiable, for double backward. With e = exp(y) and S = sum(g):
    d/dg of the result, applied to gg: gg - sum(gg * e); d/dy: -gg * e * S (elementwise).
    """

    backward_name = "LogSoftmaxBackwardDataBackward0"

    @staticmethod
    def forward(ctx: Any, grad: Tensor, y: Tensor, dim: int) -> Tensor:
        g = grad._data
        ctx.save_for_backward(grad, y)
        ctx.dim = dim
        return _wrap(g - np.exp(y._data) * g.sum(axis=dim, keepdims=True), grad)

    @staticmethod
    def backward(ctx: Any, grad_grad: Tensor) -> tuple:
        grad, y = ctx.saved_tensors
        weighted = grad_grad * y.exp()
        d_grad = grad_grad - weighted.sum(ctx.dim, keepdim=True) if ctx.needs_input_grad[0] else None
        d_y = -weighted * grad.sum(ctx.dim, keepdim=True) if ctx.needs_input_grad[1] else None
        return d_grad, d_y, None


def _softmax_input(input: Tensor, dim: int | None, dtype: Any, name: str) -> tuple[Tensor, int]:  # noqa: A002
    if dim is None:
        dim = _softmax_dim(input.ndim, name)
    if dtype is not None:
        input = input.to(dtype)  # noqa: A001
    elif not input.dtype.is_floating_point:
        raise RuntimeError(f'"{name}_lastdim_kernel_impl" not implemented for \'{input.dtype.name.capitalize()}\'')
    return input, _wrap_dim(dim, input.ndim)


def softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: Any = None) -> Tensor:  # noqa: A002
    input, dim = _softmax_input(input, dim, dtype, "softmax")  # noqa: A001
    return Softmax.apply(input, dim)


def log_softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: Any = None) -> Tensor:  # noqa: A002
    input, dim = _softmax_input(input, dim, dtype, "log_softmax")  # noqa: A001
    return LogSoftmax.apply(input, dim)


# --- layers as functions --------------------------------------------------------------------
def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:  # noqa: A002
    """y = x W^T + b: ``weight`` is (out_features, in_features), as nn.Linear stores it.

    A batch of vectors with a bias is one fused ``addmm`` (grad_fn AddmmBackward0, as in torch);
    other shapes are a matmul and an add.
    """
    if input.ndim == 2 and bias is not None and bias.ndim == 1:
        return addmm(bias, input, weight.t())
    output = input.matmul(weight.t())
    return output + bias if bias is not None else output


def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:  # noqa: A002
    """Zero each element with probability p and scale survivors by 1/(1-p), so the expected value
    is unchanged; in eval mode (``training=False``) it is the identity.

    The mask comes from tensorlab's generator, so which elements drop differs from torch's.
    """
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0:
        return input
    from .. import _random

    keep = _random._generator.random(tuple(input.shape)) >= p
    scale = 0.0 if p == 1.0 else 1.0 / (1.0 - p)
    noise = Tensor._from_array(keep * scale, input.dtype)
    return input.mul_(noise) if inplace else input * noise


class LayerNorm(Function):
    """y = (x - mean) / sqrt(var + eps) * w + b, mean and (biased) var over the last dims.

    With xhat = (x - mean) * rstd and dxhat = g * w, over the N normalised elements:
    dx = rstd * (dxhat - mean(dxhat) - xhat * mean(dxhat * xhat)); dw = sum g * xhat; db = sum g.
    Backward recomputes xhat and rstd from x with tensor ops, so its result is differentiable too.
    """

    backward_name = "NativeLayerNormBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, normalized_ndim: int, weight: Tensor | None, bias: Tensor | None, eps: float) -> Tensor:
        a = x._data
        axes = tuple(range(a.ndim - normalized_ndim, a.ndim))
        mean = a.mean(axis=axes, keepdims=True)
        rstd = 1.0 / np.sqrt(a.var(axis=axes, keepdims=True) + eps)
        y = (a - mean) * rstd
        if weight is not None:
            y = y * weight._data
        if bias is not None:
            y = y + bias._data
        ctx.axes, ctx.eps = axes, eps
        ctx.save_for_backward(x, weight)
        return _wrap(y, x)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        x, weight = ctx.saved_tensors
        axes = list(ctx.axes)
        normalized_shape = tuple(grad.shape[grad.ndim - len(axes):])
        mean = x.mean(axes, keepdim=True)
        rstd = 1 / (x.var(axes, correction=0, keepdim=True) + ctx.eps).sqrt()
        xhat = (x - mean) * rstd
        dxhat = grad * weight if weight is not None else grad
        dx = rstd * (dxhat - dxhat.mean(axes, keepdim=True) - xhat * (dxhat * xhat).mean(axes, keepdim=True))
        # sum over the batch dims; sum_to_shape, because sum([]) would sum over every dim
        dw = sum_to_shape(grad * xhat, normalized_shape) if weight is not None and ctx.needs_input_grad[2] else None
        db = sum_to_shape(grad, normalized_shape) if ctx.needs_input_grad[3] else None
        return dx, None, dw, db, None


def layer_norm(input: Tensor, normalized_shape: Any, weight: Tensor | None = None, bias: Tensor | None = None, eps: float = 1e-5) -> Tensor:  # noqa: A002
    normalized_shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    n = len(normalized_shape)
    if tuple(input.shape[input.ndim - n :]) != normalized_shape or n > input.ndim:
        raise RuntimeError(
            f"Given normalized_shape={list(normalized_shape)}, expected input with shape "
            f"[*, {', '.join(map(str, normalized_shape))}], but got input of size{input.shape}"
        )
    return LayerNorm.apply(input, n, weight, bias, eps)


class Embedding(Function):
    """y[i] = weight[indices[i]]: a row lookup.

    Backward: each output row's gradient is added into the row of ``weight`` it was read from
    (rows read twice receive both gradients; ``padding_idx`` rows receive none). That is
    ``index_add``, a differentiable op, so double backward works.
    """

    backward_name = "EmbeddingBackward0"

    @staticmethod
    def forward(ctx: Any, weight: Tensor, indices: Tensor, padding_idx: int | None) -> Tensor:
        idx = indices._data
        if idx.size and (idx.min() < 0 or idx.max() >= weight.shape[0]):
            raise IndexError("index out of range in self")
        ctx.indices, ctx.padding_idx, ctx.num_rows = idx.copy(), padding_idx, weight.shape[0]
        return _wrap(weight._data[idx], weight)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        width = grad.shape[-1]
        row_grads = grad.reshape(-1, width)
        rows = ctx.indices.reshape(-1)
        if ctx.padding_idx is not None:
            keep = Tensor._from_array((rows != ctx.padding_idx)[:, None], bool_)
            row_grads = where(keep, row_grads, 0.0)
        zeros = Tensor._from_array(np.zeros((ctx.num_rows, width), dtype=grad.dtype.numpy), grad.dtype)
        return zeros.index_add(0, Tensor._from_array(rows.astype(np.int64), int64), row_grads), None, None


def embedding(input: Tensor, weight: Tensor, padding_idx: int | None = None, max_norm: float | None = None, norm_type: float = 2.0, scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:  # noqa: A002
    if input.dtype not in (int64, int32):
        raise RuntimeError(
            "Expected tensor for argument #1 'indices' to have one of the following scalar types: "
            f"Long, Int; but got tensorlab.{input.dtype.name.capitalize()}Tensor instead (while checking arguments for embedding)"
        )
    if padding_idx is not None and padding_idx < 0:
        padding_idx += weight.shape[0]
    return Embedding.apply(weight, input, padding_idx)


def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    """int64 tensor with a trailing dim of size num_classes: 1 at each value's position, else 0."""
    if tensor.dtype is not int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    values = tensor._data
    if num_classes == -1:
        if values.size == 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(values.max()) + 1
    if values.size and values.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    if values.size and values.max() >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    return Tensor._from_array(values[..., None] == np.arange(num_classes), int64)


# --- losses ---------------------------------------------------------------------------------
def _reduction(size_average: Any, reduce: Any, reduction: str) -> str:
    """The legacy size_average/reduce flags mapped to ``reduction`` (as torch still accepts them)."""
    if size_average is None and reduce is None:
        if reduction not in ("none", "mean", "sum"):
            raise ValueError(f"{reduction} is not a valid value for reduction")
        return reduction
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    return "none" if not reduce else ("mean" if size_average else "sum")


def _reduce(loss: np.ndarray, reduction: str) -> np.ndarray:
    if reduction == "mean":
        return np.asarray(loss.mean() if loss.size else np.nan, dtype=loss.dtype)
    if reduction == "sum":
        return np.asarray(loss.sum(), dtype=loss.dtype)
    return loss


def _unreduce(grad: Tensor, reduction: str, shape: tuple) -> Tensor:
    """The incoming gradient of a reduced loss, per element: mean spreads 1/n over the elements."""
    if reduction == "none":
        return grad
    n = max(math.prod(shape), 1)
    return (grad / n if reduction == "mean" else grad).expand(shape)


class NllLoss(Function):
    """loss_i = -w[t_i] * x[i, t_i] (0 where t_i == ignore_index); mean divides by sum of w[t_i].

    Picking x[i, t_i] is a product with a one-hot mask along the class dim (dim 1), so the
    gradient is that mask times -w[t_i] (divided by the total weight for 'mean').
    """

    backward_name = "NllLossBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, target: Tensor, weight: Tensor | None, ignore_index: int, reduction: str) -> Tensor:
        # Few, whole-array NumPy calls: the loss runs right after a big matrix product has pushed
        # everything out of the CPU caches, where each small call costs several microseconds.
        a = x._data if x.ndim > 1 else x._data[None]  # (C,) is a batch of one
        t = target._data if x.ndim > 1 else target._data[None]
        classes = a.shape[1]
        kept = t != ignore_index
        safe_t = np.where(kept, t, 0)
        if safe_t.size and (safe_t.min() < 0 or safe_t.max() >= classes):
            bad = (safe_t < 0) | (safe_t >= classes)
            raise IndexError(f"Target {int(t[bad].flat[0])} is out of bounds.")
        if weight is None:
            picked_weight = kept.astype(a.dtype)  # w[t_i] = 1, or 0 where ignored
        else:
            picked_weight = np.where(kept, weight._data[safe_t], 0).astype(a.dtype)
        # one-hot along dim 1: class c of sample i (and of each position of a K-dim input)
        mask = _with_class_dim(safe_t) == np.arange(classes).reshape(classes, *[1] * (t.ndim - 1))
        losses = picked_weight * np.where(mask, a, 0).sum(axis=1)
        losses = np.negative(losses, out=losses)
        coefficient = -picked_weight  # d loss_i / d x[i, t_i]
        if reduction == "mean":
            total_weight = picked_weight.sum()
            if total_weight:
                out = np.asarray(losses.sum() / total_weight, dtype=a.dtype)
                coefficient /= total_weight
            else:  # every target ignored, or weights that add up to 0: divide by 0, as torch does
                with np.errstate(invalid="ignore", divide="ignore"):
                    out = np.asarray(losses.sum() / total_weight, dtype=a.dtype)
                    coefficient = np.where(kept, coefficient / total_weight, 0)
        elif reduction == "sum":
            out = np.asarray(losses.sum(), dtype=a.dtype)
        else:
            out = losses if x.ndim > 1 else losses[0]
        ctx.reduction = reduction
        ctx.save_for_backward(_wrap(np.where(mask, _with_class_dim(coefficient), 0), x))
        ctx.input_ndim = x.ndim
        return _wrap(out, x)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        (scaled_mask,) = ctx.saved_tensors
        if ctx.reduction == "none" and ctx.input_ndim > 1:
            grad = grad.unsqueeze(1)
        result = scaled_mask * grad
        return (result if ctx.input_ndim > 1 else result.reshape(-1)), None, None, None, None


def _with_class_dim(per_sample: np.ndarray) -> np.ndarray:
    """(N, *d) -> (N, 1, *d): a size-1 class dim, to broadcast against (N, C, *d)."""
    return per_sample.reshape(per_sample.shape[0], 1, *per_sample.shape[1:])


def _check_batch(input: Tensor, target: Tensor) -> None:  # noqa: A002
    if input.ndim > 1 and input.shape[0] != (target.shape[0] if target.ndim else 1):
        raise ValueError(f"Expected input batch_size ({input.shape[0]}) to match target batch_size ({target.shape[0] if target.ndim else 1}).")


def nll_loss(input: Tensor, target: Tensor, weight: Tensor | None = None, size_average: Any = None, ignore_index: int = -100, reduce: Any = None, reduction: str = "mean") -> Tensor:  # noqa: A002
    reduction = _reduction(size_average, reduce, reduction)
    if target.dtype not in (int64, uint8):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {target.dtype.name.capitalize()}")
    _check_batch(input, target)
    if weight is not None and weight.requires_grad and is_grad_enabled():
        raise RuntimeError(
            "The function 'nll_loss_forward' is not differentiable with respect to argument 'weight'. "
            "This input cannot have requires_grad True."
        )
    if weight is not None and weight.dtype is not input.dtype:
        raise RuntimeError(f"expected scalar type {input.dtype.scalar_type} but found {weight.dtype.scalar_type}")
    return NllLoss.apply(input, target, weight, ignore_index, reduction)


def cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None, size_average: Any = None, ignore_index: int = -100, reduce: Any = None, reduction: str = "mean", label_smoothing: float = 0.0) -> Tensor:  # noqa: A002
    """``nll_loss(log_softmax(input, 1), target)``; targets are class indices or class probabilities.

    Label smoothing mixes in a uniform target: (1 - eps) * nll + eps/C * (-sum_c w_c log p_c).
    """
    reduction = _reduction(size_average, reduce, reduction)
    class_dim = 1 if input.ndim > 1 else 0
    classes = input.shape[class_dim]
    logp = log_softmax(input, class_dim)
    weight_view = None
    if weight is not None:
        weight_view = weight.reshape([classes] + [1] * (input.ndim - class_dim - 1))
    if target.dtype.is_floating_point:  # class probabilities
        if ignore_index >= 0:
            raise RuntimeError("ignore_index is not supported for floating point target")
        if tuple(target.shape) != tuple(input.shape):
            raise RuntimeError(f"Expected target size {list(input.shape)}, got {list(target.shape)}")
        if label_smoothing > 0:
            target = target * (1 - label_smoothing) + label_smoothing / classes
        terms = logp * target if weight_view is None else logp * target * weight_view
        if reduction == "none":
            return -terms.sum(class_dim)
        if reduction == "sum":
            return -terms.sum()
        return -terms.sum() / (input.numel() / classes)
    nll = nll_loss(logp, target, weight, None, ignore_index, None, reduction)
    if label_smoothing <= 0:
        return nll
    smooth = -(logp.sum(class_dim) if weight_view is None else (logp * weight_view).sum(class_dim))
    kept = target._data != ignore_index
    smooth = where(Tensor._from_array(kept, bool_), smooth, 0.0)  # ignored targets add nothing
    if reduction == "mean":
        if weight is not None:
            safe = np.where(kept, target._data, 0)
            smooth = smooth.sum() / float(weight._data[safe][kept].sum())
        else:
            smooth = smooth.sum() / float(kept.sum())
    elif reduction == "sum":
        smooth = smooth.sum()
    return (1 - label_smoothing) * nll + smooth * (label_smoothing / classes)


class BinaryCrossEntropy(Function):
    """loss = -w * (t log x + (1 - t) log(1 - x)), each log clamped at -100 so x = 0 or 1 is finite.

    dx = w (x - t) / max(x (1 - x), 1e-12); dt = w (log(1 - x) - log x). Backward uses tensor
    ops, so it can be differentiated again.
    """

    backward_name = "BinaryCrossEntropyBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, t: Tensor, weight: Tensor | None, reduction: str) -> Tensor:
        a, b = x._data, t._data
        if np.any((a < 0) | (a > 1)):
            raise RuntimeError("all elements of input should be between 0 and 1")
        with np.errstate(divide="ignore"):
            log_x, log_1mx = np.maximum(np.log(a), -100), np.maximum(np.log(1 - a), -100)
        loss = -(b * log_x + (1 - b) * log_1mx)
        w = weight._data if weight is not None else 1
        ctx.reduction, ctx.shape = reduction, tuple(x.shape)
        ctx.save_for_backward(x, t, weight)
        return _wrap(_reduce(loss * w, reduction), x)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        x, t, weight = ctx.saved_tensors
        g = _unreduce(grad, ctx.reduction, ctx.shape)
        if weight is not None:
            g = g * weight
        grad_x = g * (x - t) / (x * (1 - x)).clamp(min=1e-12) if ctx.needs_input_grad[0] else None
        grad_t = None
        if ctx.needs_input_grad[1]:
            grad_t = g * ((1 - x).log().clamp(min=-100) - x.log().clamp(min=-100))
        return grad_x, grad_t, None, None


def binary_cross_entropy(input: Tensor, target: Tensor, weight: Tensor | None = None, size_average: Any = None, reduce: Any = None, reduction: str = "mean") -> Tensor:  # noqa: A002
    reduction = _reduction(size_average, reduce, reduction)
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(
            f"Using a target size ({_size(target)}) that is different to the input size ({_size(input)}) is deprecated. "
            "Please ensure they have the same size."
        )
    if weight is not None and tuple(weight.shape) != tuple(input.shape):
        weight = weight.expand(input.shape)
    return BinaryCrossEntropy.apply(input, target, weight, reduction)


def _size(t: Tensor) -> str:
    return f"tensorlab.Size({list(t.shape)})"


def _softplus(a: np.ndarray) -> np.ndarray:
    """log(1 + exp(a)) without overflow: max(a, 0) + log1p(exp(-|a|))."""
    return np.maximum(a, 0) + np.log1p(np.exp(-np.abs(a)))


class Softplus(Function):
    """softplus(x) = log(1 + exp(x)), computed without overflow; d/dx = sigmoid(x).

    A differentiable op for BCE-with-logits' backward (a max/abs formula would have a kink at 0).
    """

    backward_name = "SoftplusBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor) -> Tensor:
        ctx.save_for_backward(x)
        return _wrap(_softplus(x._data), x)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> Tensor:
        (x,) = ctx.saved_tensors
        return grad * x.sigmoid()


class BinaryCrossEntropyWithLogits(Function):
    """loss = w * ((1 - t) x + L softplus(-x)), L = 1 + (pos_weight - 1) t: BCE of sigmoid(x),
    computed from the logit so it never takes log(0).

    dx = w (L sigmoid(x) - pos_weight t); dt = w (-x + (pos_weight - 1) softplus(-x)).
    Backward uses tensor ops, so it can be differentiated again.
    """

    backward_name = "BinaryCrossEntropyWithLogitsBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, t: Tensor, weight: Tensor | None, pos_weight: Tensor | None, reduction: str) -> Tensor:
        a, b = x._data, t._data
        pw = pos_weight._data if pos_weight is not None else 1
        log_weight = 1 + (pw - 1) * b
        loss = (1 - b) * a + log_weight * _softplus(-a)
        if weight is not None:
            loss = loss * weight._data
        ctx.reduction, ctx.shape = reduction, tuple(np.broadcast_shapes(a.shape, np.shape(loss)))
        ctx.save_for_backward(x, t, weight, pos_weight)
        return _wrap(_reduce(loss, reduction), x)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        x, t, weight, pos_weight = ctx.saved_tensors
        g = _unreduce(grad, ctx.reduction, ctx.shape)
        if weight is not None:
            g = g * weight
        grad_x = grad_t = None
        if ctx.needs_input_grad[0]:
            if pos_weight is None:
                grad_x = g * (x.sigmoid() - t)
            else:
                grad_x = g * ((1 + (pos_weight - 1) * t) * x.sigmoid() - pos_weight * t)
        if ctx.needs_input_grad[1]:
            grad_t = -g * x
            if pos_weight is not None:
                grad_t = grad_t + g * (pos_weight - 1) * Softplus.apply(-x)
        return grad_x, grad_t, None, None, None


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor, weight: Tensor | None = None, size_average: Any = None, reduce: Any = None, reduction: str = "mean", pos_weight: Tensor | None = None) -> Tensor:  # noqa: A002
    reduction = _reduction(size_average, reduce, reduction)
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(f"Target size ({_size(target)}) must be the same as input size ({_size(input)})")
    return BinaryCrossEntropyWithLogits.apply(input, target, weight, pos_weight, reduction)


class MseLoss(Function):
    """loss = (x - t)^2 (broadcast). dx = 2 (x - t), dt = -2 (x - t), with tensor ops (double backward works)."""

    backward_name = "MseLossBackward0"

    @staticmethod
    def forward(ctx: Any, x: Tensor, t: Tensor, weight: Tensor | None, reduction: str) -> Tensor:
        diff = x._data - t._data
        loss = diff * diff if weight is None else weight._data * diff * diff
        ctx.reduction, ctx.shape = reduction, tuple(np.shape(loss))
        ctx.save_for_backward(x, t, weight)
        return _wrap(_reduce(np.asarray(loss), reduction), x)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple:
        x, t, weight = ctx.saved_tensors
        g = _unreduce(grad, ctx.reduction, ctx.shape) * (x - t) * 2
        if weight is not None:
            g = g * weight
        return (
            g if ctx.needs_input_grad[0] else None,
            -g if ctx.needs_input_grad[1] else None,
            None,
            None,
        )


def mse_loss(input: Tensor, target: Tensor, size_average: Any = None, reduce: Any = None, reduction: str = "mean", weight: Tensor | None = None) -> Tensor:  # noqa: A002
    reduction = _reduction(size_average, reduce, reduction)
    if tuple(target.shape) != tuple(input.shape):
        warnings.warn(
            f"Using a target size ({_size(target)}) that is different to the input size ({_size(input)}). "
            "This will likely lead to incorrect results due to broadcasting. Please ensure they have the same size.",
            UserWarning,
            stacklevel=2,
        )
        broadcast_pair(tuple(input.shape), tuple(target.shape))  # torch's RuntimeError, not NumPy's ValueError
    return MseLoss.apply(input, target, weight, reduction)
