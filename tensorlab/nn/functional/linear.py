"""linear (y = x W^T + b) and bilinear (y = x1^T A x2 + b): the functions behind nn.Linear and nn.Bilinear."""

from __future__ import annotations

from ..._tensor import Tensor
from ...ops.einsum import einsum
from ...ops.linalg import addmm

__all__ = ["bilinear", "linear"]


def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:  # noqa: A002
    """y = x W^T + b: ``weight`` is (out_features, in_features), as nn.Linear stores it.

    A batch of vectors with a bias is one fused ``addmm`` (grad_fn AddmmBackward0, as in torch);
    other shapes are a matmul and an add.
    """
    if input.ndim == 2 and bias is not None and bias.ndim == 1:
        return addmm(bias, input, weight.t())
    output = input.matmul(weight.t())
    return output + bias if bias is not None else output


def bilinear(input1: Tensor, input2: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """y[..., o] = sum over i, j of input1[..., i] * weight[o, i, j] * input2[..., j], plus bias[o].

    ``weight`` is (out_features, in1_features, in2_features); the leading (batch) dims of the two
    inputs must be equal (they do not broadcast). One einsum computes it, so its gradients are
    einsum's: the product rule, each operand's gradient an einsum of the other two.

    Deliberate difference: with in1_features or in2_features 0, torch 2.13 raises (a reshape
    inside its kernel: "cannot reshape tensor of 0 elements"); tensorlab returns the empty sum,
    zeros (plus the bias), as ``torch.einsum`` does for the same spec.
    """
    tensors = {"input1": input1, "input2": input2, "weight": weight} | ({} if bias is None else {"bias": bias})
    if len({t.dtype for t in tensors.values()}) > 1:
        named = ", ".join(f"{name}: {_scalar_type_name(t.dtype)}" for name, t in tensors.items())
        raise RuntimeError(f"All tensors must have the same dtype, got {named}")
    if input1.ndim != input2.ndim:
        raise RuntimeError(f"bilinear(): input dimensions do not match: got {input1.ndim} and {input2.ndim}")
    for dim in range(input1.ndim - 1):
        if input1.shape[dim] != input2.shape[dim]:
            raise RuntimeError(
                f"bilinear(): input batch dimensions do not match at dim {dim}: got {input1.shape[dim]} and {input2.shape[dim]}"
            )
    if weight.ndim != 3:
        raise RuntimeError("number of dimensions must match")  # torch's words, from the kernel behind bilinear
    for name, x, dim in (("input1", input1, 1), ("input2", input2, 2)):
        if x.shape[-1] != weight.shape[dim]:
            raise RuntimeError(
                f"bilinear(): {name} size does not match weight size: got {x.shape[-1]} but expected {weight.shape[dim]}"
            )
    if bias is not None and bias.shape[0] != weight.shape[0]:
        raise RuntimeError(f"bilinear(): bias size does not match weight size: got {bias.shape[0]} but expected {weight.shape[0]}")
    output = einsum("...i,oij,...j->...o", input1, weight, input2)
    return output + bias if bias is not None else output


def _scalar_type_name(dtype: object) -> str:
    """torch's C++ name of a dtype, as its error messages print it (float64 is 'double')."""
    name = str(dtype).rpartition(".")[2]
    return _SCALAR_TYPE_NAMES.get(name, name)


_SCALAR_TYPE_NAMES = {
    "float64": "double", "float32": "float", "float16": "half", "int64": "long", "int32": "int",
    "int16": "short", "int8": "char", "uint8": "byte",
}
