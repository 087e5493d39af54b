"""The one differential helper: run the same code on torch and tensorlab and compare everything.

``check_op(lambda lib, a, b: a * b, x, y)`` builds torch and tensorlab tensors from the same NumPy
arrays, runs the lambda on both (``lib`` is the module: torch or tensorlab), and asserts that
values, shape, dtype, strides and storage sharing of views, gradients and the exception class all
agree. torch is the oracle: nothing here compares tensorlab with numbers of its own.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import torch

import tensorlab as tl

TORCH_DTYPES = {
    "bool": torch.bool, "uint8": torch.uint8, "int8": torch.int8, "int16": torch.int16, "int32": torch.int32, "int64": torch.int64,
    "float16": torch.float16, "float32": torch.float32, "float64": torch.float64,
}
TOLERANCE = {"float16": (1e-2, 1e-2), "float32": (1e-5, 1e-5), "float64": (1e-10, 1e-10)}


def dtype_name(d: Any) -> str:
    return str(d).split(".")[-1].removesuffix("_")


def standard_normal(shape: tuple, seed: int = 0, dtype: str = "float64") -> np.ndarray:
    """Reproducible random inputs for ``check_op`` (the same array goes to both libraries)."""
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def layout(t: Any) -> tuple:
    """What a tensor of arbitrary values (empty, random) can be compared on: shape, dtype name,
    strides (not those of an empty tensor: arbitrary)."""
    return tuple(t.shape), dtype_name(t.dtype), tuple(t.stride()) if t.numel() else None


def pair(array: Any, requires_grad: bool = False) -> tuple[torch.Tensor, tl.Tensor]:
    """The same values as a torch tensor and a tensorlab tensor (a NumPy array or a nested list)."""
    array = np.asarray(array) if not isinstance(array, np.ndarray) else array
    t = torch.tensor(array.copy())
    m = tl.tensor(array.copy())
    if requires_grad:
        t.requires_grad_(True)
        m.requires_grad_(True)
    return t, m


def assert_same(expected: Any, got: Any, rtol: float | None = None, atol: float | None = None, where: str = "result") -> None:
    """Recursively compare a torch result with a tensorlab result."""
    if isinstance(expected, torch.Tensor):
        assert isinstance(got, tl.Tensor), f"{where}: expected a Tensor, got {type(got).__name__}"
        assert tuple(got.shape) == tuple(expected.shape), f"{where}: shape {tuple(got.shape)} != torch {tuple(expected.shape)}"
        assert dtype_name(got.dtype) == dtype_name(expected.dtype), f"{where}: dtype {got.dtype} != torch {expected.dtype}"
        e = expected.detach().numpy()
        g = got.detach().numpy()
        name = dtype_name(expected.dtype)
        if name in TOLERANCE:
            r, a = TOLERANCE[name]
            np.testing.assert_allclose(g, e, rtol=rtol or r, atol=atol or a, equal_nan=True, err_msg=where)
        else:
            np.testing.assert_array_equal(g, e, err_msg=where)
        assert got.requires_grad == expected.requires_grad, f"{where}: requires_grad {got.requires_grad} != torch {expected.requires_grad}"
        return
    if isinstance(expected, (tuple, list)):
        assert isinstance(got, (tuple, list)), f"{where}: expected a sequence, got {type(got).__name__}"
        assert len(got) == len(expected), f"{where}: length {len(got)} != torch {len(expected)}"
        if hasattr(expected, "_fields"):
            assert getattr(got, "_fields", None) == expected._fields, f"{where}: named fields differ"
        for i, (e, g) in enumerate(zip(expected, got, strict=True)):
            assert_same(e, g, rtol, atol, f"{where}[{i}]")
        return
    if isinstance(expected, torch.Size):
        assert tuple(got) == tuple(expected), f"{where}: {tuple(got)} != torch {tuple(expected)}"
        return
    if isinstance(expected, float) and math.isnan(expected):
        assert isinstance(got, float) and math.isnan(got), f"{where}: {got} != nan"
        return
    if isinstance(expected, float):
        assert isinstance(got, float), f"{where}: {got!r} is a {type(got).__name__}, torch gives a float"
        assert got == expected or abs(got - expected) <= 1e-6 * max(1, abs(expected)), f"{where}: {got} != torch {expected}"
        return
    assert type(got) is type(expected) and got == expected, f"{where}: {got!r} != torch {expected!r}"


def _tensors_in(x: Any) -> list:
    if isinstance(x, (torch.Tensor, tl.Tensor)):
        return [x]
    if isinstance(x, (tuple, list)):
        return [t for item in x for t in _tensors_in(item)]
    return []


def assert_same_layout(inputs_t: Sequence, inputs_m: Sequence, out_t: Any, out_m: Any) -> None:
    """Views must have torch's strides and offset, and share storage with the same inputs."""
    for i, (t, m) in enumerate(zip(_tensors_in(out_t), _tensors_in(out_m), strict=True)):
        if t.numel() == 0:
            continue  # torch gives every empty storage data_ptr 0, so "shares" means nothing
        for j, (it, im) in enumerate(zip(inputs_t, inputs_m, strict=True)):
            shares_t = t.untyped_storage().data_ptr() == it.untyped_storage().data_ptr()
            shares_m = m.untyped_storage() is im.untyped_storage()
            assert shares_t == shares_m, f"output {i} shares memory with input {j}: torch {shares_t}, tensorlab {shares_m}"
            if shares_t and t.numel() > 1:
                assert tuple(m.stride()) == tuple(t.stride()), f"output {i}: stride {m.stride()} != torch {t.stride()}"
                assert m.storage_offset() == t.storage_offset(), f"output {i}: storage_offset {m.storage_offset()} != torch {t.storage_offset()}"


def check_op(
    fn: Callable[..., Any],
    *arrays: Any,
    grad: bool | Sequence[bool] | None = None,
    rtol: float | None = None,
    atol: float | None = None,
    match: str | None = None,
    same_message: bool = False,
) -> Any:
    """Run ``fn(lib, *tensors)`` on torch and tensorlab and compare results, layout, gradients, errors.

    ``arrays`` are NumPy arrays (or nested lists, or Python scalars passed through unchanged).
    Float inputs require grad when ``grad`` is True (default: whenever any input is float); a
    sequence of bools says it input by input.
    If torch raises, tensorlab must raise the same exception class. ``match`` (a substring of both
    messages) and ``same_message`` (tensorlab's message is torch's, word for word) say that torch
    must raise: the helper fails if it does not. Returns the tensorlab result (None after an error).
    """
    converted = [np.asarray(a) if isinstance(a, list) else a for a in arrays]
    is_float = [isinstance(a, np.ndarray) and a.dtype.kind == "f" for a in converted]
    if grad is None:
        grad = any(is_float)
    wants_grad = list(grad) if isinstance(grad, Sequence) else [grad] * len(converted)
    assert len(wants_grad) == len(converted), f"grad has {len(wants_grad)} flags for {len(converted)} inputs"
    grad = any(g and f for g, f in zip(wants_grad, is_float, strict=True))
    inputs_t, inputs_m = [], []
    for a, f, g in zip(converted, is_float, wants_grad, strict=True):
        if isinstance(a, np.ndarray):
            t, m = pair(a, requires_grad=g and f)
        else:
            t = m = a
        inputs_t.append(t)
        inputs_m.append(m)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            out_t = fn(torch, *inputs_t)
        except Exception as error:
            expected_error: Exception | None = error
        else:
            expected_error = None
        if expected_error is not None:
            try:
                fn(tl, *inputs_m)
            except Exception as got:
                assert_same_error(expected_error, got, match, same_message)
                return None
            raise AssertionError(f"torch raised {type(expected_error).__name__}: {expected_error}; tensorlab did not")
        if match is not None or same_message:
            raise AssertionError(f"the test expects an error ({match or 'same_message'!r}), but torch did not raise")
        out_m = fn(tl, *inputs_m)
    assert_same(out_t, out_m, rtol, atol)
    tensor_inputs = [(t, m) for t, m in zip(inputs_t, inputs_m, strict=True) if isinstance(t, torch.Tensor)]
    assert_same_layout([t for t, _ in tensor_inputs], [m for _, m in tensor_inputs], out_t, out_m)
    if grad:
        _check_backward(out_t, out_m, tensor_inputs, rtol, atol)
    return out_m


def assert_same_error(expected: BaseException, got: BaseException, match: str | None, same_message: bool) -> None:
    """tensorlab raised ``got`` where torch raised ``expected``: same class (by name for classes
    torch defines itself), ``match`` in both messages, the very same message if ``same_message``."""
    same_class = isinstance(got, type(expected)) or type(expected).__name__ in {c.__name__ for c in type(got).__mro__}
    assert same_class, f"torch raised {type(expected).__name__}: {expected}; tensorlab raised {type(got).__name__}: {got}"
    if match is not None:
        assert match in str(expected), f"torch's message {str(expected)!r} lacks {match!r}"
        assert match in str(got), f"tensorlab's message {str(got)!r} lacks {match!r} (torch: {str(expected)!r})"
    if same_message:
        assert str(got) == str(expected), f"tensorlab says {str(got)!r}, torch says {str(expected)!r}"


def _check_backward(out_t: Any, out_m: Any, inputs: list, rtol: float | None, atol: float | None) -> None:
    """Backpropagate the same random weights through both results and compare input gradients."""
    outs = [
        (t, m) for t, m in zip(_tensors_in(out_t), _tensors_in(out_m), strict=True)
        if t.requires_grad and t.dtype.is_floating_point
    ]
    if not outs:
        return
    rng = np.random.default_rng(0)
    total_t = total_m = None
    for t, m in outs:
        w = rng.standard_normal(tuple(t.shape)).astype(t.detach().numpy().dtype)
        wt, wm = torch.tensor(w), tl.tensor(w)
        total_t = (t * wt).sum() if total_t is None else total_t + (t * wt).sum()
        total_m = (m * wm).sum() if total_m is None else total_m + (m * wm).sum()
    total_t.backward()
    total_m.backward()
    for i, (t, m) in enumerate(inputs):
        if t.requires_grad:
            if t.grad is None:
                assert m.grad is None or not np.any(m.grad.numpy()), f"input {i}: torch grad is None, tensorlab has one"
                continue
            assert m.grad is not None, f"input {i}: tensorlab has no gradient"
            assert_same(t.grad, m.grad, rtol, atol, where=f"grad of input {i}")
            assert significant_strides(m.grad) == significant_strides(t.grad), (
                f"grad of input {i}: stride {m.grad.stride()} != torch {t.grad.stride()}"
            )


def significant_strides(t: Any) -> tuple:
    """The strides that say where elements are: those of dims longer than 1 (torch leaves the
    others to chance), for a tensor with more than one element."""
    if t.numel() <= 1:
        return ()
    return tuple(stride for size, stride in zip(t.shape, t.stride(), strict=True) if size > 1)
