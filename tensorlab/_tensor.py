"""Tensor: a strided view of a Storage, plus the fields autograd needs.

The numbers live in ``_storage`` (one flat NumPy array). A tensor adds ``shape``, ``stride()``
(elements to skip per step along each dim) and ``storage_offset()``. ``_data`` is the NumPy array
that reads the storage through exactly those numbers, kept so each op is one NumPy call.
This file is the data structure (the fields, one initialiser every constructor goes through, the
layout and autograd properties) and the operators (``+``, ``[]``, ``==``...). The ops, and their
backward rules, live in ``tensorlab.ops``; the named methods (``x.exp()``, ``x.view(...)``) are
those op functions, bound onto Tensor by ``tensorlab._tensor_methods``.
"""

from __future__ import annotations

import warnings
import weakref
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

from . import _device, _dtype
from ._storage import Storage, contiguous_strides, is_contiguous, strided_array
from .utils.hooks import RemovableHandle

if TYPE_CHECKING:
    from ._tensor_methods import TensorMethods as _NamedMethods
    from .autograd.function import AccumulateGrad, BackwardNode
else:
    _NamedMethods = object  # the named methods are bound after the op modules load (bottom of file)


class Size(tuple):
    """A tensor's shape: a tuple that prints like torch.Size."""

    def __repr__(self) -> str:
        return f"tensorlab.Size({list(self)})"

    def numel(self) -> int:
        n = 1
        for s in self:
            n *= s
        return n


class Tensor(_NamedMethods):
    """An n-dimensional array with torch's semantics; see the module docstring."""

    # ``_data`` before ``_storage``: a dying tensor drops its array first, so a recycling
    # storage (see _fast/buffers.py) sees that nothing reads its buffer any more.
    __slots__ = (
        "_data", "_storage", "_offset", "_strides", "dtype",
        "_requires_grad", "_grad", "grad_fn", "_output_nr", "_hooks", "_retains_grad",
        "_accumulator", "_view_info", "__weakref__", "__dict__",
    )
    # layout: the storage and how to read it
    _data: np.ndarray  # the storage read through (shape, _strides, _offset): what ops compute on
    _storage: Storage
    _offset: int
    _strides: tuple[int, ...] | None  # None: row-major, computed from the shape when asked
    dtype: _dtype.dtype
    # autograd
    _requires_grad: bool
    _grad: Tensor | None
    grad_fn: BackwardNode | None  # the node that made this tensor; None for a leaf
    _output_nr: int  # which output of grad_fn this tensor is
    _hooks: list[Callable] | None  # a leaf's register_hook hooks
    _retains_grad: bool
    _accumulator: weakref.ref[AccumulateGrad] | None  # a leaf's gradient sink, while a graph uses it
    _view_info: ViewInfo | None  # set on views only: their base, and when and how they were made

    __array_priority__ = 1000  # so ``ndarray + tensor`` calls Tensor.__radd__

    # --- construction ------------------------------------------------------------------
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        _init_from(self, _creation.legacy_tensor_constructor(*args, **kwargs))

    def _init_fields(
        self, storage: Storage, data: np.ndarray, offset: int, strides: tuple[int, ...] | None, dtype: _dtype.dtype,
        *, keep_autograd: bool = False,
    ) -> None:
        """The one initialiser: every way to make a tensor (``_from_array`` for a computed result,
        ``_alias``/``_view`` for a view, ``Tensor(...)``, ``Parameter``, ``x.data = y``) sets the
        fields here. The autograd fields start empty: no graph, no gradient, no hooks."""
        self._storage, self._data, self._offset, self._strides, self.dtype = storage, data, offset, strides, dtype
        if keep_autograd:  # ``x.data = y``: new values, same place in the graph
            return
        self._requires_grad = False
        self._grad = None
        self.grad_fn = None
        self._output_nr = 0
        self._hooks = None
        self._retains_grad = False
        self._accumulator = None
        self._view_info = None

    @classmethod
    def _from_array(cls, array: np.ndarray, dtype: _dtype.dtype, storage: Storage | None = None) -> Tensor:
        """Wrap a freshly computed NumPy array (owned by nobody else) as a new tensor.

        ``storage``: the array's storage when the caller already has one (a recycled buffer).
        """
        strides: tuple[int, ...] | None = None  # contiguous: computed from the shape when asked
        if storage is None:
            if type(array) is not np.ndarray:
                array = np.asarray(array)
            if array.dtype is not dtype.numpy and array.dtype != dtype.numpy:
                array = array.astype(dtype.numpy)
            if array.flags.c_contiguous:
                storage = Storage(array.reshape(-1))
            elif not any(s < 0 for s in array.strides) and array.ravel(order="K").base is not None:
                # NumPy kept the inputs' memory order (as torch does): keep its strides
                item = array.itemsize
                storage = Storage(array.ravel(order="K"))
                strides = tuple(s // item for s in array.strides)
                array = strided_array(storage, array.shape, strides, 0)
            else:
                array = np.ascontiguousarray(array)
                storage = Storage(array.reshape(-1))
        t = object.__new__(cls)
        t._init_fields(storage, array, 0, strides, dtype)
        return t

    def _view(self, shape: tuple, strides: tuple | None, offset: int, multi_output: bool = False, data: np.ndarray | None = None) -> Tensor:
        """A new tensor over the same storage: the primitive every view op ends in.

        The result remembers its base (:class:`ViewInfo`), so an in-place write into it can
        rewrite the base's history. As in torch, a view made under no_grad still requires grad
        when its base does. ``multi_output``: one of several views one op returns (unbind, split).
        ``data``: the NumPy array of this layout, when the caller has it (``x._data.transpose()``).
        """
        t = object.__new__(Tensor)  # what _alias does, inlined: views are made often, and this is their cost
        array = strided_array(self._storage, shape, strides, offset) if data is None else data  # type: ignore[arg-type]  # strides None only with data
        t._init_fields(self._storage, array, offset, strides, self.dtype)  # every view op's layout is made of tuples
        t._view_info = ViewInfo(self, multi_output)
        if self._requires_grad and not _grad_state.enabled:
            t._requires_grad = True
        return t

    def _alias(self, shape: tuple, strides: tuple | None, offset: int, data: np.ndarray | None = None) -> Tensor:
        """A new tensor over the same storage with no history and no view bookkeeping (detach).
        ``strides`` None: row-major, with ``data`` given (computed from the shape when asked)."""
        t = object.__new__(Tensor)
        array = strided_array(self._storage, shape, strides, offset) if data is None else data  # type: ignore[arg-type]  # strides None only with data
        t._init_fields(self._storage, array, offset, None if strides is None else tuple(strides), self.dtype)
        return t

    # --- layout ------------------------------------------------------------------------
    @property
    def shape(self) -> Size:
        return Size(self._data.shape)

    def size(self, dim: int | None = None) -> Any:
        if dim is None:
            return Size(self._data.shape)
        return self._data.shape[_wrap_dim(dim, self._data.ndim)]

    @property
    def ndim(self) -> int:
        return self._data.ndim

    def dim(self) -> int:
        return self._data.ndim

    ndimension = dim

    def numel(self) -> int:
        return self._data.size

    nelement = numel

    def element_size(self) -> int:
        return self.dtype.itemsize

    def stride(self, dim: int | None = None) -> Any:
        if self._strides is None:
            self._strides = contiguous_strides(self._data.shape)
        if dim is None:
            return self._strides
        return self._strides[_wrap_dim(dim, self._data.ndim)]

    def storage_offset(self) -> int:
        return self._offset

    def is_contiguous(self, *, memory_format: Any = None) -> bool:
        return self._strides is None or is_contiguous(self._data.shape, self._strides)

    def untyped_storage(self) -> Storage:
        """The Storage this tensor views; ``a.untyped_storage() is b.untyped_storage()`` means shared."""
        return self._storage

    def data_ptr(self) -> int:
        return self._storage.data_ptr() + self._offset * self.dtype.itemsize

    @property
    def _version(self) -> int:
        return self._storage.version

    @property
    def is_leaf(self) -> bool:
        return self.grad_fn is None

    @property
    def _base(self) -> Tensor | None:
        """The tensor this one is a view of (never itself a view), or None, as in torch."""
        info = self._view_info
        return None if info is None else info.base

    @property
    def device(self) -> _device.device:
        return _device.CPU  # NumPy computes on the CPU; see tensorlab/_device.py

    @property
    def is_cuda(self) -> bool:
        return False

    @property
    def is_cpu(self) -> bool:
        return True

    @property
    def layout(self) -> str:
        return "strided"

    def is_floating_point(self) -> bool:
        return self.dtype.is_floating_point

    # --- autograd fields ---------------------------------------------------------------
    @property
    def requires_grad(self) -> bool:
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        if self.grad_fn is not None:
            if not value:
                raise RuntimeError(
                    "you can only change requires_grad flags of leaf variables. If you want to use "
                    "a computed variable in a subgraph that doesn't require differentiation use "
                    "var_no_grad = var.detach()."
                )
            return
        if value and not self.dtype.is_floating_point:
            raise RuntimeError("only Tensors of floating point and complex dtype can require gradients")
        self._requires_grad = bool(value)

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        if requires_grad and not self.dtype.is_floating_point:  # torch's wording differs from the setter's
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        self.requires_grad = requires_grad
        return self

    @property
    def grad(self) -> Tensor | None:
        if self.grad_fn is not None and not self._retains_grad and self._grad is None:
            warnings.warn(
                "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its "
                ".grad attribute won't be populated during autograd.backward(). If you indeed want "
                "the .grad field to be populated for a non-leaf Tensor, use .retain_grad() on the "
                "non-leaf Tensor.",
                UserWarning,
                stacklevel=2,
            )
        return self._grad

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
        if value is not None and tuple(value.shape) != tuple(self.shape):
            raise RuntimeError("assigned grad has data of a different size")
        self._grad = value

    def retain_grad(self) -> None:
        if not self._requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self.grad_fn is None or self._retains_grad:
            return
        self._retains_grad = True
        self.grad_fn.retained[self._output_nr] = weakref.ref(self)

    @property
    def retains_grad(self) -> bool:
        return self._retains_grad

    def register_hook(self, hook: Any) -> Any:
        """Call ``hook(grad)`` when this tensor's gradient is computed; a returned tensor replaces it."""
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is None:
            if self._hooks is None:
                self._hooks = []
            self._hooks.append(hook)
            return RemovableHandle(self._hooks, hook)
        hooks = self.grad_fn.tensor_pre_hooks.setdefault(self._output_nr, [])
        hooks.append(hook)
        return RemovableHandle(hooks, hook)

    def register_post_accumulate_grad_hook(self, hook: Any) -> Any:
        """Call ``hook(tensor)`` after backward has added into this leaf's ``.grad``."""
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
        hooks = self.__dict__.setdefault("_post_accumulate_grad_hooks", [])
        hooks.append(hook)
        return RemovableHandle(hooks, hook)

    def detach(self) -> Tensor:
        """Same storage (and version counter), no graph: the values without their history."""
        return self._alias(self._data.shape, self.stride(), self._offset)

    def detach_(self) -> Tensor:
        self.grad_fn = None
        self._requires_grad = False
        return self

    @property
    def data(self) -> Tensor:
        """The values without their history, like ``detach()``.

        Differs from torch on purpose: torch gives ``x.data`` its own version counter, so autograd
        cannot see writes through it; tensorlab keeps one counter per storage, so it can.
        """
        return self.detach()

    @data.setter
    def data(self, value: Tensor) -> None:
        _init_from(self, value, keep_autograd=True)

    def backward(
        self,
        gradient: Tensor | None = None,
        retain_graph: bool | None = None,
        create_graph: bool = False,
        inputs: Any = None,
    ) -> None:
        autograd.backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    # --- conversion --------------------------------------------------------------------
    def numpy(self, *, force: bool = False) -> np.ndarray:
        if self._requires_grad and not force:
            raise RuntimeError(
                "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."
            )
        return self._data

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return self._data if dtype is None else self._data.astype(dtype)

    def tolist(self) -> Any:
        return self._data.tolist()

    def item(self) -> Any:
        if self._data.size != 1:
            raise RuntimeError(
                f"a Tensor with {self._data.size} elements cannot be converted to Scalar"
            )
        return self._data.reshape(()).item()

    def __float__(self) -> float:
        if self._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return float(self.item())

    def __int__(self) -> int:
        if self._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return int(self.item())

    def __bool__(self) -> bool:
        if self._data.size != 1:
            raise RuntimeError(
                "Boolean value of Tensor with more than one value is ambiguous"
                if self._data.size > 1 else "Boolean value of Tensor with no values is ambiguous"
            )
        return bool(self.item())

    def __index__(self) -> int:
        if self.dtype.is_floating_point or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self) -> Iterator[Tensor]:
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self) -> str:

        return _printing.tensor_repr(self)

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        if self._data.ndim == 0:
            return format(self.item(), spec)
        return repr(self)

    def __reduce_ex__(self, protocol: Any) -> Any:

        return (_creation._rebuild_tensor, (self._data.copy(), self.dtype.name, self._requires_grad))

    def __deepcopy__(self, memo: dict) -> Tensor:
        if self.grad_fn is not None:
            raise RuntimeError(
                "Only Tensors created explicitly by the user (graph leaves) support the deepcopy "
                "protocol at the moment."
            )
        copy = self.detach().clone()
        copy._requires_grad = self._requires_grad
        if self._grad is not None:
            copy._grad = self._grad.clone()
        memo[id(self)] = copy
        return copy

    # --- operators: each is one op of tensorlab.ops ---------------------------------------
    def __add__(self, other: Any) -> Tensor:
        return _arithmetic.add(self, other)

    def __radd__(self, other: Any) -> Tensor:
        return _arithmetic.add(self, other)  # as torch: tensor first, so ``2 + x`` records like ``x + 2``

    def __sub__(self, other: Any) -> Tensor:
        return _arithmetic.sub(self, other)

    def __rsub__(self, other: Any) -> Tensor:
        return _arithmetic.sub(other, self)

    def __mul__(self, other: Any) -> Tensor:
        return _arithmetic.mul(self, other)

    def __rmul__(self, other: Any) -> Tensor:
        return _arithmetic.mul(self, other)  # as torch: tensor first, so ``2 * x`` records like ``x * 2``

    def __truediv__(self, other: Any) -> Tensor:
        return _arithmetic.div(self, other)

    def __rtruediv__(self, other: Any) -> Tensor:
        return _arithmetic.div(other, self)

    def __floordiv__(self, other: Any) -> Tensor:
        return _arithmetic.floor_divide(self, other)

    def __rfloordiv__(self, other: Any) -> Tensor:
        return _arithmetic.floor_divide(other, self)

    def __mod__(self, other: Any) -> Tensor:
        return _arithmetic.remainder(self, other)

    def __rmod__(self, other: Any) -> Tensor:
        return _arithmetic.remainder(other, self)

    def __pow__(self, other: Any) -> Tensor:
        return _arithmetic.pow(self, other)

    def __rpow__(self, other: Any) -> Tensor:
        return _arithmetic.pow(other, self)

    def __matmul__(self, other: Any) -> Tensor:
        if not isinstance(other, Tensor):  # Python then says "unsupported operand type(s) for @"
            return NotImplemented
        return _linalg.matmul(self, other)

    def __rmatmul__(self, other: Any) -> Tensor:
        if not isinstance(other, Tensor):
            return NotImplemented
        return _linalg.matmul(other, self)

    def __neg__(self) -> Tensor:
        return _unary_math.neg(self)

    def __pos__(self) -> Tensor:
        return self

    def __abs__(self) -> Tensor:
        return _unary_math.abs(self)

    def __invert__(self) -> Tensor:
        if self.dtype.is_floating_point:  # torch.bitwise_not says NotImplementedError, ~ says TypeError
            raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
        return _comparison.bitwise_not(self)

    def __and__(self, other: Any) -> Tensor:
        return _comparison.bitwise_and(self, other)

    __rand__ = __and__

    def __or__(self, other: Any) -> Tensor:
        return _comparison.bitwise_or(self, other)

    __ror__ = __or__

    def __xor__(self, other: Any) -> Tensor:
        return _comparison.bitwise_xor(self, other)

    __rxor__ = __xor__

    def __eq__(self, other: Any) -> Tensor:  # type: ignore[override]
        return _comparison.eq(self, other)

    def __ne__(self, other: Any) -> Tensor:  # type: ignore[override]
        return _comparison.ne(self, other)

    def __lt__(self, other: Any) -> Tensor:
        return _comparison.lt(self, other)

    def __le__(self, other: Any) -> Tensor:
        return _comparison.le(self, other)

    def __gt__(self, other: Any) -> Tensor:
        return _comparison.gt(self, other)

    def __ge__(self, other: Any) -> Tensor:
        return _comparison.ge(self, other)

    def __iadd__(self, other: Any) -> Tensor:
        return _inplace.add_(self, other)

    def __isub__(self, other: Any) -> Tensor:
        return _inplace.sub_(self, other)

    def __imul__(self, other: Any) -> Tensor:
        return _inplace.mul_(self, other)

    def __itruediv__(self, other: Any) -> Tensor:
        return _inplace.div_(self, other)

    def __getitem__(self, index: Any) -> Tensor:
        return _indexing.getitem(self, index)

    def __setitem__(self, index: Any, value: Any) -> None:
        _indexing.setitem(self, index, value)



def _init_from(t: Tensor, source: Tensor, keep_autograd: bool = False) -> None:
    """Make ``t`` view the same storage as ``source`` (Tensor.__init__ and ``.data = ...``)."""
    t._init_fields(source._storage, source._data, source._offset, source._strides, source.dtype, keep_autograd=keep_autograd)


def _wrap_dim(dim: int, ndim: int) -> int:
    """A dim in [-ndim, ndim) made non-negative; torch's IndexError otherwise (0-d acts as 1-d)."""
    n = ndim or 1
    if not -n <= dim < n:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})"
        )
    return dim + n if dim < 0 else dim


def is_tensor(obj: Any) -> bool:
    """torch.is_tensor: whether obj is a Tensor (a Parameter is one too)."""
    return isinstance(obj, Tensor)


def numel(input: Any) -> int:  # noqa: A002
    """torch.numel: how many elements a tensor holds (the product of its shape)."""
    require_tensors("numel", ("input", input))
    return int(input._data.size)


def require_tensors(function: str, *arguments: tuple[str, Any], numbers: bool = False) -> None:
    """torch's TypeError for the first ``(name, value)`` argument that is not a tensor (nor a
    number, with ``numbers=True``): ``exp([1.0])`` -> "exp(): argument 'input' (position 1) must
    be Tensor, not list".

    Ops call it only once they have failed (a list has no ``_data``), then re-raise their own
    error if it returns: checking costs nothing when the arguments are right.
    """
    allowed = (Tensor, bool, int, float, np.generic) if numbers else Tensor
    for position, (name, value) in enumerate(arguments, start=1):
        if not isinstance(value, allowed):
            raise TypeError(f"{function}(): argument '{name}' (position {position}) must be Tensor, not {type(value).__name__}") from None


# The op modules import Tensor, so they are imported after it is defined; then the named methods
# (one table per op family in _tensor_methods.py) are bound onto the class, once.
from . import _creation, _printing, autograd  # noqa: E402
from ._tensor_methods import bind_methods  # noqa: E402
from ._view_info import ViewInfo  # noqa: E402
from .autograd.grad_mode import state as _grad_state  # noqa: E402
from .ops import arithmetic as _arithmetic  # noqa: E402
from .ops import comparison as _comparison  # noqa: E402
from .ops import indexing as _indexing  # noqa: E402
from .ops import inplace as _inplace  # noqa: E402
from .ops import linalg as _linalg  # noqa: E402
from .ops import unary_math as _unary_math  # noqa: E402

bind_methods(Tensor)
