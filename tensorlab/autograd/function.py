"""autograd.Function: an op's forward and backward, and the graph node it leaves behind.

Calling ``MyOp.apply(*inputs)`` runs ``forward`` with recording switched off. If grad mode is on
and some input requires grad, it also creates a :class:`BackwardNode` — the output's
``grad_fn`` — that remembers the Function, the tensors saved with ``ctx.save_for_backward`` and,
in ``next_functions``, the nodes of the inputs. The node *is* the ``ctx`` that forward and
backward receive, as in torch. Nodes point only backwards (to their inputs' nodes), never to
their outputs, so the graph has no reference cycles and is freed as soon as the last output is.
"""

from __future__ import annotations

import weakref
from itertools import count
from typing import TYPE_CHECKING, Any

from .grad_mode import state

if TYPE_CHECKING:
    from .._tensor import Tensor

_sequence = count()

FREED_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you call "
    ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through "
    "the graph a second time or if you need to access saved tensors after calling backward."
)


class _NoGradContext:
    """The ctx forward gets when nothing is recorded: saving is a no-op."""

    needs_input_grad: tuple = ()

    def save_for_backward(self, *tensors: Any) -> None:
        pass

    def mark_non_differentiable(self, *tensors: Any) -> None:
        pass

    def mark_dirty(self, *tensors: Any) -> None:
        pass

    def set_materialize_grads(self, value: bool) -> None:
        pass

    def __setattr__(self, name: str, value: Any) -> None:
        pass  # forward may stash things on ctx; with no graph they are not needed


NO_GRAD_CTX = _NoGradContext()


class SavedTensor:
    """A tensor kept for backward, with the version it had when saved.

    An output of the op that saves it is stored *without* its grad_fn (that would be a cycle:
    node -> output -> node); unpacking re-attaches the node. Unpacking checks the version counter,
    which catches in-place writes to saved values.
    """

    __slots__ = ("data", "version", "is_output", "requires_grad", "grad_fn", "output_nr")

    def __init__(self, tensor: Tensor, node: BackwardNode) -> None:
        self.is_output = tensor.grad_fn is node
        self.version = tensor._storage.version
        self.requires_grad = tensor.requires_grad
        self.output_nr = tensor._output_nr
        if self.is_output:
            self.data = tensor.detach()
            self.grad_fn = None
        else:
            self.data = tensor
            self.grad_fn = tensor.grad_fn

    def unpack(self, node: BackwardNode) -> Tensor:
        data = self.data
        if data._storage.version != self.version:
            owner = node if self.is_output else self.grad_fn
            where = f", which is output {self.output_nr} of {owner.name()}," if owner else ""
            raise RuntimeError(
                "one of the variables needed for gradient computation has been modified by an "
                f"inplace operation: [tensorlab.{data.dtype.name} {list(data.shape)}]{where} is at "
                f"version {data._storage.version}; expected version {self.version} instead. Hint: "
                "the operation that saved it needs its original value; use out-of-place ops or "
                "clone() the tensor before modifying it."
            )
        if not self.is_output:
            return data
        alias = data.detach()
        if self.requires_grad and state.enabled:
            alias._requires_grad = True
            alias.grad_fn = node
            alias._output_nr = self.output_nr
        return alias


class BackwardNode:
    """One recorded op: the grad_fn of its outputs and the ctx of its forward/backward."""

    def __init__(self, function: type[Function], inputs: tuple) -> None:
        self.function = function
        self.sequence_nr = next(_sequence)
        self.needs_input_grad = tuple(
            getattr(x, "requires_grad", False) for x in inputs
        )
        self.next_functions = tuple(_edge(x) for x in inputs)
        self.input_meta = tuple((x.shape, x.dtype) if getattr(x, "requires_grad", False) else None for x in inputs)
        self.to_save: tuple = ()
        self._saved: tuple[SavedTensor, ...] | None = ()
        self._freed = False
        self.non_differentiable: set[int] = set()
        self.materialize_grads = True
        self.tensor_pre_hooks: dict[int, list] = {}
        self.retained: dict[int, weakref.ref] = {}
        self.hooks: list = []
        self.pre_hooks: list = []
        self.num_outputs = 1
        self.output_meta: list[tuple] = []

    # --- what forward calls on ctx -------------------------------------------------------
    def save_for_backward(self, *tensors: Tensor | None) -> None:
        self.to_save = tensors

    def mark_non_differentiable(self, *tensors: Tensor) -> None:
        self.non_differentiable.update(id(t) for t in tensors)

    def mark_dirty(self, *tensors: Tensor) -> None:
        pass  # tensorlab's in-place ops rebase history themselves

    def set_materialize_grads(self, value: bool) -> None:
        self.materialize_grads = value

    # --- what backward calls on ctx ------------------------------------------------------
    @property
    def saved_tensors(self) -> tuple:
        if self._freed:
            raise RuntimeError(FREED_MESSAGE)
        return tuple(None if s is None else s.unpack(self) for s in self._saved or ())

    def release_saved(self) -> None:
        """Drop the saved tensors after backward, unless the graph is retained."""
        if self._saved:
            self._freed = True
        self._saved = None

    # --- introspection, as torch's grad_fn offers ----------------------------------------
    def name(self) -> str:
        return getattr(self.function, "backward_name", self.function.__name__ + "Backward")

    def register_hook(self, hook: Any) -> Any:
        from ..utils.hooks import RemovableHandle

        self.hooks.append(hook)
        return RemovableHandle(self.hooks, hook)

    def register_prehook(self, hook: Any) -> Any:
        from ..utils.hooks import RemovableHandle

        self.pre_hooks.append(hook)
        return RemovableHandle(self.pre_hooks, hook)

    def __repr__(self) -> str:
        return f"<{self.name()} object at {hex(id(self))}>"


class AccumulateGrad:
    """The node of a leaf that requires grad: adds incoming gradients into ``leaf.grad``."""

    sequence_nr = float("inf")  # torch runs these as soon as they are ready
    next_functions: tuple = ()

    def __init__(self, variable: Tensor) -> None:
        self.variable = variable
        self.hooks: list = []
        self.pre_hooks: list = []

    def name(self) -> str:
        return "AccumulateGrad"

    def register_hook(self, hook: Any) -> Any:
        from ..utils.hooks import RemovableHandle

        self.hooks.append(hook)
        return RemovableHandle(self.hooks, hook)

    def __repr__(self) -> str:
        return f"<AccumulateGrad object at {hex(id(self))}>"


def grad_accumulator(leaf: Tensor) -> AccumulateGrad:
    """The one AccumulateGrad of a leaf; the leaf holds it weakly so there is no cycle."""
    node = leaf._accumulator() if leaf._accumulator is not None else None
    if node is None:
        node = AccumulateGrad(leaf)
        leaf._accumulator = weakref.ref(node)
    return node


def _edge(x: Any) -> tuple[Any, int] | tuple[None, int]:
    if not getattr(x, "requires_grad", False):
        return (None, 0)
    if x.grad_fn is not None:
        return (x.grad_fn, x._output_nr)
    return (grad_accumulator(x), 0)


class Function:
    """Base class of every differentiable op: subclass with static forward and backward."""

    @staticmethod
    def forward(ctx: Any, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx: Any, *grad_outputs: Any) -> Any:
        raise NotImplementedError("You must implement either the backward or vjp method for your custom autograd.Function to use it with backward mode AD.")

    @classmethod
    def apply(cls, *args: Any) -> Any:
        if state.enabled:
            for x in args:
                if getattr(x, "requires_grad", False):
                    return _record(cls, args)
        return cls.forward(NO_GRAD_CTX, *args)


def _record(cls: type[Function], args: tuple) -> Any:
    """Run forward without recording, then attach a BackwardNode to the outputs."""
    node = BackwardNode(cls, args)
    state.enabled = False
    try:
        outputs = cls.forward(node, *args)
    finally:
        state.enabled = True
    single = not isinstance(outputs, tuple)
    results = (outputs,) if single else outputs
    node.num_outputs = len(results)
    for nr, out in enumerate(results):
        if out is None or not hasattr(out, "_storage"):
            node.output_meta.append(None)
            continue
        node.output_meta.append((out.shape, out.dtype))
        if id(out) in node.non_differentiable or not out.dtype.is_floating_point:
            continue
        if any(out is a for a in args):  # forward returned an input: give back a fresh alias
            out = out.view_as(out)
            results = results[:nr] + (out,) + results[nr + 1 :]
        out._requires_grad = True
        out.grad_fn = node
        out._output_nr = nr
    node._saved = tuple(None if t is None else SavedTensor(t, node) for t in node.to_save)
    node.to_save = ()
    return results[0] if single else results
