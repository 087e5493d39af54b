"""Tensor: a strided view of a Storage, plus the fields autograd needs.

The numbers live in ``_storage`` (one flat NumPy array). A tensor adds ``shape``, ``stride()``
(elements to skip per step along each dim) and ``storage_offset()``. ``_data`` is the NumPy array
that reads the storage through exactly those numbers, kept so each op is one NumPy call.
Methods here are thin wrappers: the ops, and their backward rules, live in ``tensorlab.ops``.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np

from . import _dtype
from ._storage import Storage, contiguous_strides, is_contiguous, strided_array


class Size(tuple):
    """A tensor's shape: a tuple that prints like torch.Size."""

    def __repr__(self) -> str:
        return f"tensorlab.Size({list(self)})"

    def numel(self) -> int:
        n = 1
        for s in self:
            n *= s
        return n


class ViewInfo:
    """What a view remembers (torch's view metadata): its base, and how and when it was made.

    ``version`` is the storage version its grad_fn was built at: after an in-place write
    anywhere in the storage, autograd rebuilds the view's history from the base
    (``autograd.copy_slices.refresh_view_history``). ``creation_meta`` says whether in-place
    writes into the view may be recorded at all.
    """

    __slots__ = ("base", "grad_mode", "inherited", "multi_output", "version")

    def __init__(self, parent: Tensor, multi_output: bool) -> None:
        parent_info = parent._view_info
        self.base = parent if parent_info is None else parent_info.base
        self.version = parent._storage.version
        self.grad_mode = _grad_state.enabled
        self.multi_output = multi_output
        inherited = "default" if parent_info is None else parent_info.creation_meta(parent)
        self.inherited = inherited

    def creation_meta(self, view: Tensor) -> str:
        """torch's CreationMeta: "default", or "multi_output" / "no_grad" (no recorded in-place).

        A view made with recording off is a no_grad view unless autograd recorded it (a view
        op's forward always runs with recording off). A view of a view inherits the parent's
        restriction unless it has its own.
        """
        if not self.grad_mode and view.grad_fn is None:
            return "no_grad"
        own = "multi_output" if self.multi_output else "default"
        return self.inherited if own == "default" else own


class Tensor:
    """An n-dimensional array with torch's semantics; see the module docstring."""

    # ``_data`` before ``_storage``: a dying tensor drops its array first, so a recycling
    # storage (see _buffers.py) sees that nothing reads its buffer any more.
    __slots__ = (
        "_data", "_storage", "_offset", "_strides", "dtype",
        "_requires_grad", "_grad", "grad_fn", "_output_nr", "_hooks", "_retains_grad",
        "_accumulator", "__weakref__", "__dict__",
    )
    __array_priority__ = 1000  # so ``ndarray + tensor`` calls Tensor.__radd__
    _view_info: ViewInfo | None = None  # set on views only (in ``__dict__``), so plain tensors pay nothing

    # --- construction ------------------------------------------------------------------
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        from ._creation import legacy_tensor_constructor

        source = legacy_tensor_constructor(*args, **kwargs)
        _init_from(self, source)

    @classmethod
    def _from_array(cls, array: np.ndarray, dtype: _dtype.dtype, storage: Storage | None = None) -> Tensor:
        """Wrap a freshly computed NumPy array (owned by nobody else) as a new tensor.

        ``storage``: the array's storage when the caller already has one (a recycled buffer).
        """
        t = object.__new__(cls)
        if storage is not None:
            t._storage = storage
            t._strides = None
        else:
            if type(array) is not np.ndarray:
                array = np.asarray(array)
            if array.dtype is not dtype.numpy and array.dtype != dtype.numpy:
                array = array.astype(dtype.numpy)
            if array.flags.c_contiguous:
                t._storage = Storage(array.reshape(-1))
                t._strides = None  # contiguous: computed from the shape when asked
            elif not any(s < 0 for s in array.strides) and array.ravel(order="K").base is not None:
                # NumPy kept the inputs' memory order (as torch does): keep its strides
                item = array.itemsize
                t._storage = Storage(array.ravel(order="K"))
                t._strides = tuple(s // item for s in array.strides)
                array = strided_array(t._storage, array.shape, t._strides, 0)
            else:
                array = np.ascontiguousarray(array)
                t._storage = Storage(array.reshape(-1))
                t._strides = None
        t._data = array
        t._offset = 0
        t.dtype = dtype
        t._requires_grad = False
        t._grad = None
        t.grad_fn = None
        t._output_nr = 0
        t._hooks = None
        t._retains_grad = False
        t._accumulator = None
        return t

    def _view(self, shape: tuple, strides: tuple, offset: int, multi_output: bool = False, data: np.ndarray | None = None) -> Tensor:
        """A new tensor over the same storage: the primitive every view op ends in.

        The result remembers its base (:class:`ViewInfo`), so an in-place write into it can
        rewrite the base's history. As in torch, a view made under no_grad still requires grad
        when its base does. ``multi_output``: one of several views one op returns (unbind, split).
        ``data``: the NumPy array of this layout, when the caller has it (``x._data.transpose()``).
        """
        t = self._alias(shape, strides, offset, data)
        t._view_info = ViewInfo(self, multi_output)
        if self._requires_grad and not _grad_state.enabled:
            t._requires_grad = True
        return t

    def _alias(self, shape: tuple, strides: tuple, offset: int, data: np.ndarray | None = None) -> Tensor:
        """A new tensor over the same storage with no history and no view bookkeeping (detach)."""
        t = object.__new__(Tensor)
        t._storage = self._storage
        t._data = strided_array(self._storage, shape, strides, offset) if data is None else data
        t._offset = offset
        t._strides = tuple(strides)
        t.dtype = self.dtype
        t._requires_grad = False
        t._grad = None
        t.grad_fn = None
        t._output_nr = 0
        t._hooks = None
        t._retains_grad = False
        t._accumulator = None
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
    def device(self) -> str:
        return "cpu"

    @property
    def is_cuda(self) -> bool:
        return False

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
        import weakref

        self._retains_grad = True
        self.grad_fn.retained[self._output_nr] = weakref.ref(self)

    @property
    def retains_grad(self) -> bool:
        return self._retains_grad

    def register_hook(self, hook: Any) -> Any:
        """Call ``hook(grad)`` when this tensor's gradient is computed; a returned tensor replaces it."""
        from .utils.hooks import RemovableHandle

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
        from .utils.hooks import RemovableHandle

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
        from .autograd import backward

        backward(self, gradient, retain_graph, create_graph, inputs=inputs)

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
        from ._printing import tensor_repr

        return tensor_repr(self)

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        if self._data.ndim == 0:
            return format(self.item(), spec)
        return repr(self)

    def __reduce_ex__(self, protocol: Any) -> Any:
        from ._creation import _rebuild_tensor

        return (_rebuild_tensor, (self._data.copy(), self.dtype.name, self._requires_grad))

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

    # --- operators and methods: thin wrappers over tensorlab.ops ------------------------
    def __add__(self, other: Any) -> Tensor:
        return _ew.add(self, other)

    def __radd__(self, other: Any) -> Tensor:
        return _ew.add(self, other)  # as torch: tensor first, so ``2 + x`` records like ``x + 2``

    def __sub__(self, other: Any) -> Tensor:
        return _ew.sub(self, other)

    def __rsub__(self, other: Any) -> Tensor:
        return _ew.sub(other, self)

    def __mul__(self, other: Any) -> Tensor:
        return _ew.mul(self, other)

    def __rmul__(self, other: Any) -> Tensor:
        return _ew.mul(self, other)  # as torch: tensor first, so ``2 * x`` records like ``x * 2``

    def __truediv__(self, other: Any) -> Tensor:
        return _ew.div(self, other)

    def __rtruediv__(self, other: Any) -> Tensor:
        return _ew.div(other, self)

    def __floordiv__(self, other: Any) -> Tensor:
        return _ew.floor_divide(self, other)

    def __rfloordiv__(self, other: Any) -> Tensor:
        return _ew.floor_divide(other, self)

    def __mod__(self, other: Any) -> Tensor:
        return _ew.remainder(self, other)

    def __rmod__(self, other: Any) -> Tensor:
        return _ew.remainder(other, self)

    def __pow__(self, other: Any) -> Tensor:
        return _ew.pow(self, other)

    def __rpow__(self, other: Any) -> Tensor:
        return _ew.pow(other, self)

    def __matmul__(self, other: Any) -> Tensor:
        if not isinstance(other, Tensor):  # Python then says "unsupported operand type(s) for @"
            return NotImplemented
        return _linalg.matmul(self, other)

    def __rmatmul__(self, other: Any) -> Tensor:
        if not isinstance(other, Tensor):
            return NotImplemented
        return _linalg.matmul(other, self)

    def __neg__(self) -> Tensor:
        return _ew.neg(self)

    def __pos__(self) -> Tensor:
        return self

    def __abs__(self) -> Tensor:
        return _ew.abs(self)

    def __invert__(self) -> Tensor:
        if self.dtype.is_floating_point:  # torch.bitwise_not says NotImplementedError, ~ says TypeError
            raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
        return _ew.bitwise_not(self)

    def __and__(self, other: Any) -> Tensor:
        return _ew.bitwise_and(self, other)

    __rand__ = __and__

    def __or__(self, other: Any) -> Tensor:
        return _ew.bitwise_or(self, other)

    __ror__ = __or__

    def __xor__(self, other: Any) -> Tensor:
        return _ew.bitwise_xor(self, other)

    __rxor__ = __xor__

    def __eq__(self, other: Any) -> Tensor:  # type: ignore[override]
        return _ew.eq(self, other)

    def __ne__(self, other: Any) -> Tensor:  # type: ignore[override]
        return _ew.ne(self, other)

    def __lt__(self, other: Any) -> Tensor:
        return _ew.lt(self, other)

    def __le__(self, other: Any) -> Tensor:
        return _ew.le(self, other)

    def __gt__(self, other: Any) -> Tensor:
        return _ew.gt(self, other)

    def __ge__(self, other: Any) -> Tensor:
        return _ew.ge(self, other)

    def __iadd__(self, other: Any) -> Tensor:
        return _ew.add_(self, other)

    def __isub__(self, other: Any) -> Tensor:
        return _ew.sub_(self, other)

    def __imul__(self, other: Any) -> Tensor:
        return _ew.mul_(self, other)

    def __itruediv__(self, other: Any) -> Tensor:
        return _ew.div_(self, other)

    def __getitem__(self, index: Any) -> Tensor:
        return _indexing.getitem(self, index)

    def __setitem__(self, index: Any, value: Any) -> None:
        _indexing.setitem(self, index, value)

    # elementwise
    def add(self, other: Any, *, alpha: Any = 1) -> Tensor:
        return _ew.add(self, other, alpha=alpha)

    def sub(self, other: Any, *, alpha: Any = 1) -> Tensor:
        return _ew.sub(self, other, alpha=alpha)

    subtract = sub

    def mul(self, other: Any) -> Tensor:
        return _ew.mul(self, other)

    multiply = mul

    def div(self, other: Any, *, rounding_mode: str | None = None) -> Tensor:
        return _ew.div(self, other, rounding_mode=rounding_mode)

    divide = true_divide = div

    def floor_divide(self, other: Any) -> Tensor:
        return _ew.floor_divide(self, other)

    def remainder(self, other: Any) -> Tensor:
        return _ew.remainder(self, other)

    def pow(self, exponent: Any) -> Tensor:
        return _ew.pow(self, exponent)

    def neg(self) -> Tensor:
        return _ew.neg(self)

    negative = neg

    def abs(self) -> Tensor:
        return _ew.abs(self)

    def exp(self) -> Tensor:
        return _ew.exp(self)

    def log(self) -> Tensor:
        return _ew.log(self)

    def sqrt(self) -> Tensor:
        return _ew.sqrt(self)

    def sin(self) -> Tensor:
        return _ew.sin(self)

    def cos(self) -> Tensor:
        return _ew.cos(self)

    def tanh(self) -> Tensor:
        return _ew.tanh(self)

    def sigmoid(self) -> Tensor:
        return _ew.sigmoid(self)

    def relu(self) -> Tensor:
        return _ew.relu(self)

    def softmax(self, dim: int, dtype: Any = None) -> Tensor:
        from .ops.softmax import softmax

        return softmax(self, dim, dtype=dtype)

    def log_softmax(self, dim: int, dtype: Any = None) -> Tensor:
        from .ops.softmax import log_softmax

        return log_softmax(self, dim, dtype=dtype)

    def clamp(self, min: Any = None, max: Any = None) -> Tensor:  # noqa: A002
        return _ew.clamp(self, min, max)

    clip = clamp

    def floor(self) -> Tensor:
        return _ew.floor(self)

    def ceil(self) -> Tensor:
        return _ew.ceil(self)

    def round(self, *, decimals: int = 0) -> Tensor:
        return _ew.round(self, decimals=decimals)

    def sign(self) -> Tensor:
        return _ew.sign(self)

    def maximum(self, other: Tensor) -> Tensor:
        return _ew.maximum(self, other)

    def minimum(self, other: Tensor) -> Tensor:
        return _ew.minimum(self, other)

    def where(self, condition: Tensor, other: Any) -> Tensor:
        return _ew.where(condition, self, other)

    def nonzero(self, *, as_tuple: bool = False) -> Any:
        return _indexing.nonzero(self, as_tuple=as_tuple)

    # masks, flat positions and movement (tensorlab.ops.indexing, tensorlab.ops.movement)
    def masked_fill(self, mask: Tensor, value: Any) -> Tensor:
        return _indexing.masked_fill(self, mask, value)

    def masked_fill_(self, mask: Tensor, value: Any) -> Tensor:
        return _indexing.masked_fill_(self, mask, value)

    def masked_select(self, mask: Tensor) -> Tensor:
        return _indexing.masked_select(self, mask)

    def take(self, index: Tensor) -> Tensor:
        return _indexing.take(self, index)

    def take_along_dim(self, indices: Tensor, dim: int | None = None) -> Tensor:
        return _indexing.take_along_dim(self, indices, dim)

    def flip(self, *dims: Any) -> Tensor:
        from .ops import movement

        return movement.flip(self, dims[0] if len(dims) == 1 and not isinstance(dims[0], int) else dims)

    def roll(self, shifts: Any, dims: Any = None) -> Tensor:
        from .ops import movement

        return movement.roll(self, shifts, dims)

    def tril(self, diagonal: int = 0) -> Tensor:
        from .ops import movement

        return movement.tril(self, diagonal)

    def triu(self, diagonal: int = 0) -> Tensor:
        from .ops import movement

        return movement.triu(self, diagonal)

    def tril_(self, diagonal: int = 0) -> Tensor:
        from .ops import movement

        return movement.tril_(self, diagonal)

    def triu_(self, diagonal: int = 0) -> Tensor:
        from .ops import movement

        return movement.triu_(self, diagonal)

    def repeat(self, *sizes: Any) -> Tensor:
        from .ops import movement

        return movement.repeat(self, *sizes)

    def tile(self, *dims: Any) -> Tensor:
        from .ops import movement

        return movement.tile(self, dims[0] if len(dims) == 1 and not isinstance(dims[0], int) else dims)

    def repeat_interleave(self, repeats: Any, dim: int | None = None, *, output_size: int | None = None) -> Tensor:
        from .ops import movement

        return movement.repeat_interleave(self, repeats, dim, output_size=output_size)

    def eq(self, other: Any) -> Tensor:
        return _ew.eq(self, other)

    def ne(self, other: Any) -> Tensor:
        return _ew.ne(self, other)

    def lt(self, other: Any) -> Tensor:
        return _ew.lt(self, other)

    def le(self, other: Any) -> Tensor:
        return _ew.le(self, other)

    def gt(self, other: Any) -> Tensor:
        return _ew.gt(self, other)

    def ge(self, other: Any) -> Tensor:
        return _ew.ge(self, other)

    def logical_not(self) -> Tensor:
        return _ew.logical_not(self)

    def bitwise_not(self) -> Tensor:
        return _ew.bitwise_not(self)

    def isnan(self) -> Tensor:
        return _ew.isnan(self)

    def isinf(self) -> Tensor:
        return _ew.isinf(self)

    def isfinite(self) -> Tensor:
        return _ew.isfinite(self)

    def equal(self, other: Tensor) -> bool:
        return _ew.equal(self, other)

    def allclose(self, other: Tensor, rtol: float = 1e-5, atol: float = 1e-8, equal_nan: bool = False) -> bool:
        return _ew.allclose(self, other, rtol, atol, equal_nan)

    # in-place elementwise: each returns self
    def add_(self, other: Any, *, alpha: Any = 1) -> Tensor:
        return _ew.add_(self, other, alpha=alpha)

    def sub_(self, other: Any, *, alpha: Any = 1) -> Tensor:
        return _ew.sub_(self, other, alpha=alpha)

    def mul_(self, other: Any) -> Tensor:
        return _ew.mul_(self, other)

    def div_(self, other: Any, *, rounding_mode: str | None = None) -> Tensor:
        return _ew.div_(self, other, rounding_mode=rounding_mode)

    def floor_divide_(self, other: Any) -> Tensor:
        return _ew.floor_divide_(self, other)

    def remainder_(self, other: Any) -> Tensor:
        return _ew.remainder_(self, other)

    def pow_(self, exponent: Any) -> Tensor:
        return _ew.pow_(self, exponent)

    def neg_(self) -> Tensor:
        return _ew.neg_(self)

    def abs_(self) -> Tensor:
        return _ew.abs_(self)

    def exp_(self) -> Tensor:
        return _ew.exp_(self)

    def log_(self) -> Tensor:
        return _ew.log_(self)

    def sqrt_(self) -> Tensor:
        return _ew.sqrt_(self)

    def sin_(self) -> Tensor:
        return _ew.sin_(self)

    def cos_(self) -> Tensor:
        return _ew.cos_(self)

    def tanh_(self) -> Tensor:
        return _ew.tanh_(self)

    def sigmoid_(self) -> Tensor:
        return _ew.sigmoid_(self)

    def relu_(self) -> Tensor:
        return _ew.relu_(self)

    def clamp_(self, min: Any = None, max: Any = None) -> Tensor:  # noqa: A002
        return _ew.clamp_(self, min, max)

    clip_ = clamp_

    def floor_(self) -> Tensor:
        return _ew.floor_(self)

    def ceil_(self) -> Tensor:
        return _ew.ceil_(self)

    def round_(self, *, decimals: int = 0) -> Tensor:
        return _ew.round_(self, decimals=decimals)

    def sign_(self) -> Tensor:
        return _ew.sign_(self)

    def copy_(self, src: Tensor, non_blocking: bool = False) -> Tensor:
        return _ew.copy_(self, src)

    def fill_(self, value: Any) -> Tensor:
        return _ew.fill_(self, value)

    def zero_(self) -> Tensor:
        return _ew.zero_(self)

    # reductions
    def sum(self, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
        return _red.sum(self, dim, keepdim, dtype=dtype)

    def mean(self, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
        return _red.mean(self, dim, keepdim, dtype=dtype)

    def prod(self, dim: Any = None, keepdim: bool = False, *, dtype: Any = None) -> Tensor:
        return _red.prod(self, dim, keepdim, dtype=dtype)

    def max(self, dim: Any = None, keepdim: bool = False) -> Any:
        return _red.max(self, dim, keepdim)

    def min(self, dim: Any = None, keepdim: bool = False) -> Any:
        return _red.min(self, dim, keepdim)

    def amax(self, dim: Any = (), keepdim: bool = False) -> Tensor:
        return _red.amax(self, dim, keepdim)

    def amin(self, dim: Any = (), keepdim: bool = False) -> Tensor:
        return _red.amin(self, dim, keepdim)

    def argmax(self, dim: int | None = None, keepdim: bool = False) -> Tensor:
        return _red.argmax(self, dim, keepdim)

    def argmin(self, dim: int | None = None, keepdim: bool = False) -> Tensor:
        return _red.argmin(self, dim, keepdim)

    def var(self, dim: Any = None, unbiased: Any = None, keepdim: bool = False, *, correction: Any = None) -> Tensor:
        return _red.var(self, dim, unbiased, keepdim, correction=correction)

    def std(self, dim: Any = None, unbiased: Any = None, keepdim: bool = False, *, correction: Any = None) -> Tensor:
        return _red.std(self, dim, unbiased, keepdim, correction=correction)

    def logsumexp(self, dim: Any, keepdim: bool = False) -> Tensor:
        return _red.logsumexp(self, dim, keepdim)

    def cumsum(self, dim: int, *, dtype: Any = None) -> Tensor:
        return _red.cumsum(self, dim, dtype=dtype)

    def all(self, dim: Any = None, keepdim: bool = False) -> Tensor:
        return _red.all(self, dim, keepdim)

    def any(self, dim: Any = None, keepdim: bool = False) -> Tensor:
        return _red.any(self, dim, keepdim)

    def norm(self, p: Any = "fro", dim: Any = None, keepdim: bool = False, dtype: Any = None) -> Tensor:
        return _red.norm(self, p, dim, keepdim, dtype=dtype)

    # views and shape
    def view(self, *shape: Any) -> Tensor:
        return _shape.view(self, *shape)

    def view_as(self, other: Tensor) -> Tensor:
        return _shape.view(self, other.shape)

    def reshape(self, *shape: Any) -> Tensor:
        return _shape.reshape(self, *shape)

    def reshape_as(self, other: Tensor) -> Tensor:
        return _shape.reshape(self, other.shape)

    def flatten(self, start_dim: int = 0, end_dim: int = -1) -> Tensor:
        return _shape.flatten(self, start_dim, end_dim)

    def unflatten(self, dim: int, sizes: Any) -> Tensor:
        return _shape.unflatten(self, dim, sizes)

    def permute(self, *dims: Any) -> Tensor:
        return _shape.permute(self, *dims)

    def transpose(self, dim0: int, dim1: int) -> Tensor:
        return _shape.transpose(self, dim0, dim1)

    swapaxes = swapdims = transpose

    def t(self) -> Tensor:
        return _shape.t(self)

    @property
    def T(self) -> Tensor:  # noqa: N802 - torch's name
        return _shape.reverse_dims(self)

    @property
    def mT(self) -> Tensor:  # noqa: N802
        return _shape.matrix_transpose(self)

    def movedim(self, source: Any, destination: Any) -> Tensor:
        return _shape.movedim(self, source, destination)

    moveaxis = movedim

    def squeeze(self, dim: Any = None) -> Tensor:
        return _shape.squeeze(self, dim)

    def unsqueeze(self, dim: int) -> Tensor:
        return _shape.unsqueeze(self, dim)

    def expand(self, *sizes: Any) -> Tensor:
        return _shape.expand(self, *sizes)

    def expand_as(self, other: Tensor) -> Tensor:
        return _shape.expand(self, other.shape)

    def narrow(self, dim: int, start: int, length: int) -> Tensor:
        return _shape.narrow(self, dim, start, length)

    def select(self, dim: int, index: int) -> Tensor:
        return _shape.select(self, dim, index)

    def diagonal(self, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
        return _shape.diagonal(self, offset, dim1, dim2)

    def as_strided(self, size: Any, stride: Any, storage_offset: int | None = None) -> Tensor:
        return _shape.as_strided(self, size, stride, storage_offset)

    def contiguous(self, memory_format: Any = None) -> Tensor:
        if memory_format is not None:  # tensorlab has one memory format: row-major
            raise TypeError(f"contiguous(): argument 'memory_format' must be torch.memory_format, not {type(memory_format).__name__}")
        return _shape.contiguous(self)

    def unbind(self, dim: int = 0) -> tuple[Tensor, ...]:
        return _join.unbind(self, dim)

    def split(self, split_size_or_sections: Any, dim: int = 0) -> tuple[Tensor, ...]:
        return _join.split(self, split_size_or_sections, dim)

    def chunk(self, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
        return _join.chunk(self, chunks, dim)

    # linear algebra
    def matmul(self, other: Tensor) -> Tensor:
        return _linalg.matmul(self, other)

    def mm(self, other: Tensor) -> Tensor:
        return _linalg.mm(self, other)

    def bmm(self, other: Tensor) -> Tensor:
        return _linalg.bmm(self, other)

    def dot(self, other: Tensor) -> Tensor:
        return _linalg.dot(self, other)

    def outer(self, other: Tensor) -> Tensor:
        return _linalg.outer(self, other)

    # gather / scatter / index_* (tensorlab.ops.gather_scatter)
    def gather(self, dim: int, index: Tensor, *, sparse_grad: bool = False) -> Tensor:
        from .ops import gather_scatter as _scatter

        return _scatter.gather(self, dim, index)

    def scatter(self, dim: int, index: Tensor, src: Any = None, *, value: Any = None, reduce: str | None = None) -> Tensor:
        from .ops import gather_scatter as _scatter

        return _scatter.scatter(self, dim, index, src, value=value, reduce=reduce)

    def scatter_(self, dim: int, index: Tensor, src: Any = None, *, value: Any = None, reduce: str | None = None) -> Tensor:
        from .ops import gather_scatter as _scatter

        return _scatter.scatter_(self, dim, index, src, value=value, reduce=reduce)

    def scatter_add(self, dim: int, index: Tensor, src: Tensor) -> Tensor:
        from .ops import gather_scatter as _scatter

        return _scatter.scatter_add(self, dim, index, src)

    def scatter_add_(self, dim: int, index: Tensor, src: Tensor) -> Tensor:
        from .ops import gather_scatter as _scatter

        return _scatter.scatter_add_(self, dim, index, src)

    def scatter_reduce(self, dim: int, index: Tensor, src: Tensor, reduce: str, *, include_self: bool = True) -> Tensor:
        from .ops import gather_scatter as _scatter

        return _scatter.scatter_reduce(self, dim, index, src, reduce, include_self=include_self)

    def scatter_reduce_(self, dim: int, index: Tensor, src: Tensor, reduce: str, *, include_self: bool = True) -> Tensor:
        from .ops import gather_scatter as _scatter

        return _scatter.scatter_reduce_(self, dim, index, src, reduce, include_self=include_self)

    def index_select(self, dim: int, index: Tensor) -> Tensor:
        from .ops import gather_scatter as _scatter

        return _scatter.index_select(self, dim, index)

    def index_add(self, dim: int, index: Tensor, source: Tensor, *, alpha: Any = 1) -> Tensor:
        from .ops import gather_scatter as _scatter

        return _scatter.index_add(self, dim, index, source, alpha=alpha)

    def index_add_(self, dim: int, index: Tensor, source: Tensor, *, alpha: Any = 1) -> Tensor:
        from .ops import gather_scatter as _scatter

        return _scatter.index_add_(self, dim, index, source, alpha=alpha)

    def index_copy(self, dim: int, index: Tensor, source: Tensor) -> Tensor:
        from .ops import gather_scatter as _scatter

        return _scatter.index_copy(self, dim, index, source)

    def index_copy_(self, dim: int, index: Tensor, source: Tensor) -> Tensor:
        from .ops import gather_scatter as _scatter

        return _scatter.index_copy_(self, dim, index, source)

    def index_fill(self, dim: int, index: Tensor, value: Any) -> Tensor:
        from .ops import gather_scatter as _scatter

        return _scatter.index_fill(self, dim, index, value)

    def index_fill_(self, dim: int, index: Tensor, value: Any) -> Tensor:
        from .ops import gather_scatter as _scatter

        return _scatter.index_fill_(self, dim, index, value)

    # copies and dtype conversions
    def clone(self, *, memory_format: Any = None) -> Tensor:
        return _copy.clone(self)

    def to(self, *args: Any, **kwargs: Any) -> Tensor:
        return _copy.to(self, *args, **kwargs)

    def type(self, dtype: Any = None) -> Any:
        if dtype is None:
            return f"tensorlab.{self.dtype.scalar_type}Tensor"
        return _copy.to(self, dtype)

    def type_as(self, other: Tensor) -> Tensor:
        return _copy.to(self, other.dtype)

    def float(self) -> Tensor:
        return _copy.to(self, _dtype.float32)

    def double(self) -> Tensor:
        return _copy.to(self, _dtype.float64)

    def half(self) -> Tensor:
        return _copy.to(self, _dtype.float16)

    def long(self) -> Tensor:
        return _copy.to(self, _dtype.int64)

    def int(self) -> Tensor:
        return _copy.to(self, _dtype.int32)

    def bool(self) -> Tensor:
        return _copy.to(self, _dtype.bool_)

    def byte(self) -> Tensor:
        return _copy.to(self, _dtype.uint8)

    def cpu(self) -> Tensor:
        return self

    # factories that follow this tensor's dtype
    def new_tensor(self, data: Any, dtype: Any = None, requires_grad: bool = False) -> Tensor:
        from ._creation import tensor

        return tensor(data, dtype=dtype or self.dtype, requires_grad=requires_grad)

    def new_zeros(self, *size: Any, dtype: Any = None) -> Tensor:
        from ._creation import zeros

        return zeros(*size, dtype=dtype or self.dtype)

    def new_ones(self, *size: Any, dtype: Any = None) -> Tensor:
        from ._creation import ones

        return ones(*size, dtype=dtype or self.dtype)

    def new_empty(self, *size: Any, dtype: Any = None) -> Tensor:
        from ._creation import empty

        return empty(*size, dtype=dtype or self.dtype)

    def new_full(self, size: Any, fill_value: Any, dtype: Any = None) -> Tensor:
        from ._creation import full

        return full(size, fill_value, dtype=dtype or self.dtype)


def _init_from(t: Tensor, source: Tensor, keep_autograd: bool = False) -> None:
    """Make ``t`` view the same storage as ``source`` (Tensor.__init__ and ``.data = ...``)."""
    t._storage = source._storage
    t._data = source._data
    t._offset = source._offset
    t._strides = source._strides
    t.dtype = source.dtype
    if keep_autograd:
        return
    t._requires_grad = False
    t._grad = None
    t.grad_fn = None
    t._output_nr = 0
    t._hooks = None
    t._retains_grad = False
    t._accumulator = None


def _wrap_dim(dim: int, ndim: int) -> int:
    """A dim in [-ndim, ndim) made non-negative; torch's IndexError otherwise (0-d acts as 1-d)."""
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})"
        )
    return dim + n if dim < 0 else dim


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


# The op modules import Tensor, so they are imported after it is defined.
from .autograd.grad_mode import state as _grad_state  # noqa: E402
from .ops import copy as _copy  # noqa: E402
from .ops import elementwise as _ew  # noqa: E402
from .ops import indexing as _indexing  # noqa: E402
from .ops import join as _join  # noqa: E402
from .ops import linalg as _linalg  # noqa: E402
from .ops import reduction as _red  # noqa: E402
from .ops import views as _shape  # noqa: E402
