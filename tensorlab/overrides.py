"""The one place where a call to a public op can be intercepted: a stack of *function modes*.

torch lets code stand between a caller and every op: ``with SomeTorchFunctionMode(): ...`` makes
each ``torch.sin(x)``, ``x.add(y)`` and ``x + y`` first call the mode's ``__torch_function__``.
tensorlab has the same mechanism, in Python, here:

- Every public function of ``tensorlab`` and ``tensorlab.nn.functional``, every public method of
  :class:`~tensorlab.Tensor` and its operators (``+``, ``@``, ``<``, ``x[i]``...) are wrapped
  **once, while tensorlab is imported**, by :func:`dispatchable`. ``from tensorlab import sin``
  therefore holds the wrapped function too, and nothing is swapped while a program runs.
- The wrapper asks one question, ``if _MODE_STACK:``. With no mode active -- the usual case -- it
  calls the op, and that is all the plain path pays.
- With modes active, the call goes to the top mode's ``__tensorlab_function__(func, args, kwargs)``,
  where ``func`` is the public op (``tensorlab.sin``, ``Tensor.add``, ``Tensor.__add__``). While a
  handler runs, its mode is off the stack: calling ``func(*args, **kwargs)`` inside it goes to the
  next mode down, and below the last one to the op itself (so an op's own code never re-enters a
  mode). A handler may also return something else: a batched result, a graph node, or, for an
  operator, ``NotImplemented`` so that Python asks the other operand.

``with mode:`` pushes the mode and pops it on the way out, exception or not. The modes in the
library: vmap's batching (``func/vmap.py``), fx's tracing (``fx.py``) and VmapExplorer's recorder
(``widgets/vmap.py``). The stack is one per process, where torch keeps one per thread.
"""

from __future__ import annotations

import functools
import types
from collections.abc import Callable
from typing import Any

__all__ = ["FunctionMode", "active_modes", "dispatchable", "is_dispatchable"]

#: The modes entered and not yet exited, innermost last.
_MODE_STACK: list[FunctionMode] = []


class FunctionMode:
    """Subclass and override :meth:`__tensorlab_function__`; ``with Mode():`` turns it on."""

    def __tensorlab_function__(self, func: Callable[..., Any], args: tuple, kwargs: dict[str, Any]) -> Any:
        """Called instead of ``func(*args, **kwargs)``; this default passes the call down unchanged."""
        return func(*args, **kwargs)

    def __enter__(self) -> FunctionMode:
        _MODE_STACK.append(self)
        return self

    def __exit__(self, *exc_info: object) -> None:
        if not _MODE_STACK or _MODE_STACK[-1] is not self:
            raise RuntimeError("function modes must be exited in the reverse order they were entered")
        _MODE_STACK.pop()


def active_modes() -> tuple[FunctionMode, ...]:
    """The modes that an op called now would meet, outermost first."""
    return tuple(_MODE_STACK)


def _through_top_mode(func: Callable[..., Any], args: tuple, kwargs: dict[str, Any]) -> Any:
    """The top mode handles the call, with itself off the stack so that ``func`` reaches the next one."""
    mode = _MODE_STACK.pop()
    try:
        return mode.__tensorlab_function__(func, args, kwargs)
    finally:
        _MODE_STACK.append(mode)


def _offered_to_modes(function: Callable[..., Any]) -> Callable[..., Any]:
    """The wrapper itself: one test of the stack, then the op (or the top mode)."""

    def public_op(*args: Any, **kwargs: Any) -> Any:
        if _MODE_STACK:
            return _through_top_mode(public_op, args, kwargs)
        return function(*args, **kwargs)

    return public_op


def _operator_offered_to_modes(function: Callable[..., Any], arity: int) -> Callable[..., Any]:
    """The same for an operator, with its fixed arguments: ``a + b`` pays no ``*args`` packing."""

    def unary(self: Any) -> Any:
        if _MODE_STACK:
            return _through_top_mode(unary, (self,), {})
        return function(self)

    def binary(self: Any, other: Any) -> Any:
        if _MODE_STACK:
            return _through_top_mode(binary, (self, other), {})
        return function(self, other)

    def ternary(self: Any, index: Any, value: Any) -> Any:
        if _MODE_STACK:
            return _through_top_mode(ternary, (self, index, value), {})
        return function(self, index, value)

    wrappers: dict[int, Callable[..., Any]] = {1: unary, 2: binary, 3: ternary}
    return wrappers[arity]


#: The code every wrapper runs: how :func:`is_dispatchable` recognises one.
_WRAPPER_CODES = frozenset(
    [_offered_to_modes(print).__code__, *(_operator_offered_to_modes(print, n).__code__ for n in (1, 2, 3))]
)


def is_dispatchable(function: Any) -> bool:
    """Whether ``function`` is one of the wrappers :func:`dispatchable` makes."""
    return getattr(function, "__code__", None) in _WRAPPER_CODES


def dispatchable(
    function: Callable[..., Any], name: str, qualname: str, module: str, arity: int | None = None
) -> Callable[..., Any]:
    """``function`` under its public ``name``, first offered to the active modes.

    Called at import only. ``__module__``/``__qualname__`` say where the public object lives
    (``tensorlab.add``, ``tensorlab._tensor.Tensor.add``), as torch's do; ``__wrapped__`` is the op.
    ``arity``: an operator's fixed number of arguments, for the cheaper wrapper.
    """
    if is_dispatchable(function):
        return function
    wrapper = _offered_to_modes(function) if arity is None else _operator_offered_to_modes(function, arity)
    public_op: Any = functools.update_wrapper(wrapper, function)
    public_op.__name__, public_op.__qualname__, public_op.__module__ = name, qualname, module
    return public_op


# --- start-up: what gets wrapped --------------------------------------------------------------------
#: Tensor's operators and indexing, each with its number of arguments: modes see ``x + y`` and ``x[i]``.
TENSOR_OPERATORS: dict[str, int] = {
    **{f"__{name}__": 1 for name in "neg pos abs invert".split()},
    **{f"__{name}__": 2 for name in (
        "add radd sub rsub mul rmul truediv rtruediv floordiv rfloordiv mod rmod pow rpow matmul rmatmul "
        "and rand or ror xor rxor eq ne lt le gt ge iadd isub imul itruediv getitem"
    ).split()},
    "__setitem__": 3,
}


def wrap_public_functions(namespace: types.ModuleType) -> None:
    """Start-up only: make every public function of ``namespace`` dispatchable, in place."""
    for name, value in list(vars(namespace).items()):
        if isinstance(value, types.FunctionType) and not name.startswith("_"):
            setattr(namespace, name, dispatchable(value, name, name, namespace.__name__))


def wrap_tensor_methods(cls: type) -> None:
    """Start-up only: make every public method of ``cls`` and each of its operators dispatchable."""
    for name, value in list(vars(cls).items()):
        if isinstance(value, types.FunctionType) and (not name.startswith("_") or name in TENSOR_OPERATORS):
            arity = TENSOR_OPERATORS.get(name)
            setattr(cls, name, dispatchable(value, name, f"{cls.__qualname__}.{name}", cls.__module__, arity))
