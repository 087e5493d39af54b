"""rearrange, repeat and reduce on tensorlab tensors, with the einops package's patterns and results.

A pattern like ``'b (h1 h) w c -> (b h1) h w c'`` names *elementary* axes (b, h1, h, w, c) and
groups them with brackets. Every call is the same few tensor steps, so a reader can follow it:

1. **reshape** the input so that each elementary axis of the left side is its own dim
   (a group ``(h1 h)`` of size 30 with ``h1=2`` splits into 2 x 15);
2. **reduce** the axes missing on the right (``reduce`` only), with sum / mean / max / min / prod (or any / all);
3. **permute** the axes into the order they appear on the right;
4. **expand** new axes (``repeat`` only: a size-1 dim stretched with stride 0, no copy);
5. **reshape** to the right side's groups (merging ``(b h1)``).

A list of tensors is stacked along a new first axis first. Errors raise :class:`EinopsError`
with the einops package's messages.

Importing this module also teaches the einops package itself about tensorlab tensors (when it is
installed), so ``einops.rearrange(tl_tensor, ...)``, ``einops.reduce``, ``einops.repeat``,
``einops.einsum`` and ``einops.pack`` work on them as well — see :func:`register_einops_backend`.
``import tensorlab`` alone never imports einops.
"""

from __future__ import annotations

import importlib.util
import keyword
from collections.abc import Callable, Sequence
from typing import Any

from ._tensor import Tensor

__all__ = ["EinopsError", "rearrange", "reduce", "register_einops_backend", "repeat"]

ELLIPSIS = "…"  # one name for '...' while parsing; its dims become '…0', '…1', ...
BRACKETED_ELLIPSIS = "(…)"  # '...' inside brackets: its dims merge into that group
REDUCTIONS = ("min", "max", "sum", "mean", "prod", "any", "all")


class EinopsError(RuntimeError):
    """A pattern that does not fit the tensor (or is malformed), as einops.EinopsError."""


# --- parsing a side of the pattern -------------------------------------------------------------
class Side:
    """One side of a pattern: a list of groups, each a list of axis names (a bare axis is a group of one).

    A unit axis ``1`` or ``()`` is an empty group; an anonymous number ``3`` (a new axis in repeat,
    an axis reduced away in reduce: ``'(h 2) w -> h w'``) becomes a fresh name with a known size,
    recorded in ``anonymous``; ``side`` keeps the two sides' fresh names apart.
    """

    def __init__(self, expression: str, side: str = "") -> None:
        self.side = side
        self.groups: list[list[str]] = []
        self.anonymous: dict[str, int] = {}
        self.has_ellipsis = False
        self.ellipsis_in_brackets = False
        if "." in expression.replace("...", ""):
            raise EinopsError("Expression may contain dots only inside ellipsis (...)")
        text = expression.replace("...", f" {ELLIPSIS} ").replace("(", " ( ").replace(")", " ) ")
        current: list[str] | None = None
        seen: set[str] = set()
        for token in text.split():
            if token == "(":
                if current is not None:
                    raise EinopsError("Axis composition is one-level (brackets inside brackets not allowed)")
                current = []
            elif token == ")":
                if current is None:
                    raise EinopsError("Brackets are not balanced")
                self.groups.append(current)
                current = None
            else:
                name = self._axis_name(token, len(self.anonymous), current is not None)
                if name is None:  # the unit axis 1
                    if current is None:
                        self.groups.append([])
                    continue
                if name in seen and not name.startswith("#"):
                    raise EinopsError(f'Indexing expression contains duplicate dimension "{name}"')
                seen.add(name)
                if current is None:
                    self.groups.append([name])
                else:
                    current.append(name)
        if current is not None:
            raise EinopsError(f'Imbalanced parentheses in expression: "{expression}"')

    def _axis_name(self, token: str, n_anonymous: int, in_brackets: bool) -> str | None:
        if token == ELLIPSIS:
            self.has_ellipsis = True
            self.ellipsis_in_brackets = in_brackets
            return BRACKETED_ELLIPSIS if in_brackets else ELLIPSIS
        if token.isdecimal():
            size = int(token)
            if size == 1:
                return None
            if size <= 0:
                raise EinopsError(f"Anonymous axis should have positive length, not {size}")
            name = f"#{self.side}{n_anonymous}"
            self.anonymous[name] = size
            return name
        if not token.isidentifier() or keyword.iskeyword(token):
            raise EinopsError(f"Invalid axis identifier: {token}")
        return token

    @property
    def names(self) -> list[str]:
        return [name for group in self.groups for name in group]

    def expand_ellipsis(self, covered: int) -> list[list[str]]:
        """Groups with '...' replaced by its dims' names (inside brackets they join that group)."""
        names = [f"{ELLIPSIS}{i}" for i in range(covered)]
        out: list[list[str]] = []
        for group in self.groups:
            if group == [ELLIPSIS]:
                out.extend([n] for n in names)
            elif BRACKETED_ELLIPSIS in group:
                at = group.index(BRACKETED_ELLIPSIS)
                out.append(group[:at] + names + group[at + 1 :])
            else:
                out.append(group)
        return out


# --- the shared recipe --------------------------------------------------------------------------
def _as_tensor(tensor: Any) -> Tensor:
    """A tensor, or a list of same-shape tensors (or arrays) stacked along a new first axis."""
    if isinstance(tensor, Tensor):
        return tensor
    from . import as_tensor, stack

    if isinstance(tensor, (list, tuple)):
        if len(tensor) == 0:
            raise TypeError("Rearrange/Reduce/Repeat can't be applied to an empty list")
        return stack([t if isinstance(t, Tensor) else as_tensor(t) for t in tensor])
    return as_tensor(tensor)


def _check_identifiers(operation: str, left: Side, right: Side, axes_lengths: dict) -> None:
    """Which names may appear on one side only depends on the operation (einops' rules)."""
    if not left.has_ellipsis and right.has_ellipsis:
        raise EinopsError(f"Ellipsis found in right side, but not left side of a pattern {left}")
    if left.has_ellipsis and left.ellipsis_in_brackets:
        raise EinopsError("Ellipsis inside parenthesis in the left side is not allowed")
    left_names = {n for n in left.names if n.isidentifier()}  # not anonymous axes, not '...'
    right_names = {n for n in right.names if n.isidentifier()}
    if operation == "rearrange":
        if left.anonymous or right.anonymous:
            raise EinopsError("Non-unitary anonymous axes are not supported in rearrange (exception is length 1)")
        difference = left_names ^ right_names
        if difference:
            raise EinopsError(f"Identifiers only on one side of expression (should be on both): {difference}")
    elif operation == "repeat":
        difference = left_names - right_names
        if difference:
            raise EinopsError(f"Unexpected identifiers on the left side of repeat: {difference}")
        without_size = {n for n in right_names - left_names if n not in axes_lengths}
        if without_size:
            raise EinopsError(f"Specify sizes for new axes in repeat: {without_size}")
    else:
        if operation not in REDUCTIONS and not callable(operation):
            raise EinopsError(f"Unknown reduction {operation}. Expect one of {REDUCTIONS}.")
        difference = right_names - left_names
        if difference:
            raise EinopsError(f"Unexpected identifiers on the right side of reduce {operation}: {difference}")
    for name in axes_lengths:
        if not name.isidentifier():
            raise EinopsError("Invalid name for an axis", name)
        if name not in left_names | right_names:
            raise EinopsError(f"Axis {name} is not used in transform")


def _solve_sizes(groups: list[list[str]], shape: tuple, known: dict[str, int]) -> dict[str, int]:
    """Each left group's product must equal its dim's size; one unknown axis per group is inferred."""
    sizes = dict(known)
    for group, length in zip(groups, shape, strict=True):
        unknown = [n for n in group if n not in sizes]
        known_product = 1
        for n in group:
            if n in sizes:
                known_product *= sizes[n]
        if not unknown:
            if known_product != length:
                raise EinopsError(f"Shape mismatch, {length} != {known_product}")
        elif len(unknown) == 1:
            if known_product == 0 or length % known_product:
                raise EinopsError(f"Shape mismatch, can't divide axis of length {length} in chunks of {known_product}")
            sizes[unknown[0]] = length // known_product
        else:
            raise EinopsError(f"Could not infer sizes for {set(unknown)}")
    return sizes


def reduce_dims(x: Tensor, dims: Sequence[int], operation: Any) -> Tensor:
    """Reduce ``dims`` of ``x`` with one of REDUCTIONS (or a callable ``f(x, dims)``).

    Shared with :mod:`tensorlab.einops_backend`, so both routes reduce with the same ops.
    """
    if not dims:
        return x
    if callable(operation):
        return operation(x, tuple(dims))
    if operation == "sum":
        return x.sum(tuple(dims))
    if operation == "mean":
        if not x.is_floating_point():  # einops refuses before torch would, with its own error
            raise NotImplementedError("reduce_mean is not available for non-floating tensors")
        return x.mean(tuple(dims))
    if operation == "max":
        return x.amax(tuple(dims))
    if operation == "min":
        return x.amin(tuple(dims))
    for d in sorted(dims, reverse=True):  # prod, any and all take one dim at a time, as in torch
        x = getattr(x, operation)(d)
    return x


def _apply(operation: Any, tensor: Any, pattern: str, axes_lengths: dict[str, int]) -> Tensor:
    x = _as_tensor(tensor)
    if "->" not in pattern:
        raise ValueError(f'pattern "{pattern}" has no "->" (einops raises ValueError here too)')
    left_text, right_text = pattern.split("->")
    left, right = Side(left_text, "left"), Side(right_text, "right")
    _check_identifiers(operation, left, right, axes_lengths)

    # 1. which dims does '...' cover, and what is every elementary axis' size?
    explicit_groups = len(left.groups) - left.has_ellipsis
    if left.has_ellipsis:
        if x.ndim < explicit_groups:
            raise EinopsError(f"Wrong shape: expected >={explicit_groups} dims. Received {x.ndim}-dim tensor.")
    elif x.ndim != len(left.groups):
        raise EinopsError(f"Wrong shape: expected {len(left.groups)} dims. Received {x.ndim}-dim tensor.")
    covered = x.ndim - explicit_groups
    left_groups, right_groups = left.expand_ellipsis(covered), right.expand_ellipsis(covered)
    sizes = _solve_sizes(left_groups, tuple(x.shape), {**axes_lengths, **left.anonymous, **right.anonymous})

    # 2. one dim per elementary axis
    elementary = [n for group in left_groups for n in group]
    x = _reshape_if_needed(x, tuple(sizes[n] for n in elementary))

    # 3. reduce what the right side does not mention
    right_names = [n for group in right_groups for n in group]
    if operation not in ("rearrange", "repeat"):
        gone = [i for i, n in enumerate(elementary) if n not in right_names]
        x = reduce_dims(x, gone, operation)
        elementary = [n for n in elementary if n in right_names]

    # 4. permute into the right side's order, 5. add new axes (repeat)
    kept_in_right_order = [n for n in right_names if n in elementary]
    permutation = tuple(elementary.index(n) for n in kept_in_right_order)
    if permutation != tuple(range(len(permutation))):
        x = x.permute(permutation)
    if len(kept_in_right_order) != len(right_names):
        with_new_axes = tuple(sizes[n] if n in elementary else 1 for n in right_names)
        x = x.reshape(with_new_axes).expand(tuple(sizes[n] for n in right_names))

    # 6. merge into the right side's groups
    return _reshape_if_needed(x, tuple(_product(sizes[n] for n in group) for group in right_groups))


def _reshape_if_needed(x: Tensor, shape: tuple) -> Tensor:
    """Skip reshapes that change nothing, as einops does (so views keep their strides)."""
    return x if tuple(x.shape) == shape else x.reshape(shape)


def _product(values: Any) -> int:
    out = 1
    for v in values:
        out *= v
    return out


def _run(operation: Any, tensor: Any, pattern: str, axes_lengths: dict[str, int]) -> Tensor:
    """Run one operation; wrap any EinopsError in einops' "Error while processing ..." message."""
    try:
        return _apply(operation, tensor, pattern, axes_lengths)
    except EinopsError as error:
        name = operation if isinstance(operation, str) else getattr(operation, "__name__", "callable")
        message = f' Error while processing {name}-reduction pattern "{pattern}".'
        if isinstance(tensor, (list, tuple)):
            message += "\n Input is list. "
        else:
            message += f"\n Input tensor shape: {tuple(_as_tensor(tensor).shape)}. "
        message += f"Additional info: {axes_lengths}."
        raise EinopsError(message + f"\n {error}") from None


# --- public functions ---------------------------------------------------------------------------
def rearrange(tensor: Any, pattern: str, **axes_lengths: int) -> Tensor:
    """Reorder, split and merge axes: ``rearrange(x, 'b h w c -> b (c h w)')``."""
    return _run("rearrange", tensor, pattern, axes_lengths)


def reduce(tensor: Any, pattern: str, reduction: str | Callable, **axes_lengths: int) -> Tensor:
    """Reduce the axes the right side leaves out: ``reduce(x, 'b c h w -> b c', 'mean')``."""
    return _run(reduction, tensor, pattern, axes_lengths)


def repeat(tensor: Any, pattern: str, **axes_lengths: int) -> Tensor:
    """Add (and tile along) new axes: ``repeat(x, 'h w -> h w c', c=3)`` or ``'h w -> (2 h) w'``."""
    return _run("repeat", tensor, pattern, axes_lengths)


# --- the einops package on tensorlab tensors ----------------------------------------------------
def register_einops_backend() -> bool:
    """Make ``einops.rearrange(tl_tensor, ...)`` (and the rest of the einops package) work.

    einops finds the backend for an unknown tensor type by scanning the subclasses of its
    ``AbstractBackend``, so defining ours — importing :mod:`tensorlab.einops_backend` — is the
    whole registration. That import needs einops itself, which is why it happens here, on
    ``import tensorlab.einops``, and not on ``import tensorlab``. Calling it again is harmless.
    Returns False (and changes nothing) where the einops package is not installed.
    """
    if importlib.util.find_spec("einops") is None:
        return False
    from . import einops_backend  # noqa: F401 - defining the subclass registers it

    return True


register_einops_backend()
