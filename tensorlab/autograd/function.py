"""autograd.Function: an op's forward and backward, and the graph node it leaves behind.

Calling ``MyOp.apply(*inputs)`` runs ``forward`` with recording switched off. If grad mode is on
and some input requires grad, it also creates a graph node — the output's ``grad_fn``, an
instance of ``MyOpBackward`` — that remembers the tensors saved with ``ctx.save_for_backward``
and, in ``next_functions``, the nodes of the tensor inputs. The node *is* the ``ctx`` that
forward and backward receive, as in torch.

Nodes point only backwards (to their inputs' nodes), never to their outputs: an output saved
for backward is kept *without* its grad_fn (see :class:`SavedTensor`). So the graph has no
reference cycles and is freed the moment its last output is.
"""

from __future__ import annotations

import weakref
from itertools import count
from typing import TYPE_CHECKING, Any

from .._fast import shared_flags
from .._fast import switch as fast
from . import anomaly_mode
from .grad_mode import state
from .graph import current_hooks

if TYPE_CHECKING:
    from .._dtype import dtype
    from .._tensor import Tensor

_sequence = count()  # creation order of nodes: backward runs the newest ready node first

FREED_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you call "
    ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through "
    "the graph a second time or if you need to access saved tensors after calling backward."
)
LEAF_IN_PLACE_MESSAGE = "a leaf Variable that requires grad has been used in an in-place operation."


# --- ctx: what forward and backward receive -------------------------------------------------
class FunctionCtx:
    """The methods forward calls on ``ctx``; used as is when no graph is recorded."""

    to_save: tuple = ()
    recording = False  # True on a BackwardNode: only then is anything kept for backward
    non_differentiable: tuple = ()
    dirty: tuple = ()
    materialize_grads = True

    def __init__(self, inputs: tuple) -> None:
        self._inputs = inputs

    def save_for_backward(self, *tensors: Tensor | None) -> None:
        """Keep tensors for backward; they come back, version-checked, as ``ctx.saved_tensors``."""
        self.to_save = tensors

    def mark_non_differentiable(self, *tensors: Tensor) -> None:
        """These outputs (indices, masks) will not require grad."""
        self.non_differentiable = tensors

    def mark_dirty(self, *tensors: Tensor) -> None:
        """These inputs were modified in place by forward and are returned as outputs."""
        self.dirty = tensors

    def set_materialize_grads(self, value: bool) -> None:
        """With False, backward receives None (not zeros) for outputs that got no gradient."""
        self.materialize_grads = value

    @property
    def saved_tensors(self) -> tuple:
        return self.to_save

    @property
    def needs_input_grad(self) -> tuple[bool, ...]:
        return tuple(getattr(x, "_requires_grad", False) for x in self._inputs)

    if TYPE_CHECKING:  # forward keeps whatever backward needs on ctx: ``ctx.dim = dim``
        def __getattr__(self, name: str) -> Any: ...
        def __setattr__(self, name: str, value: Any) -> None: ...


class SavedTensor:
    """A tensor kept for backward, with the version it had when saved.

    An output of the op that saves it is stored *without* its grad_fn (node -> output -> node
    would be a cycle); unpacking re-attaches the node. Unpacking checks the version counter,
    which catches in-place writes to a saved value between forward and backward.

    Inside ``saved_tensors_hooks`` (see :mod:`.graph`) the tensor is given to the pack hook and
    only what it returns is kept; unpacking calls the matching unpack hook, and the version is
    not checked (as in torch: the hooks own the value).
    """

    __slots__ = ("data", "is_output", "output_nr", "unpack_hook", "version")

    def __init__(self, tensor: Tensor, node: BackwardNode) -> None:
        self.version = tensor._storage.version
        self.output_nr = tensor._output_nr
        self.is_output = tensor.grad_fn is node
        hooks = current_hooks()
        self.unpack_hook = None if hooks is None else hooks[1]
        if hooks is not None:
            self.data = hooks[0](tensor)
        else:
            self.data = tensor.detach() if self.is_output else tensor

    def unpack(self, node: BackwardNode) -> Tensor:
        if self.unpack_hook is not None:
            data = self.unpack_hook(self.data)
        else:
            data = self.data
            self._check_version(data, node)
        if not (self.is_output and state.enabled):
            return data
        alias = data.detach()  # double backward: the output again, with its history
        alias._requires_grad = True
        alias.grad_fn = node
        alias._output_nr = self.output_nr
        return alias

    def _check_version(self, data: Tensor, node: BackwardNode) -> None:
        if data._storage.version != self.version:
            owner = node if self.is_output else data.grad_fn
            where = f", which is output {self.output_nr} of {owner.name()}," if owner else ""
            raise RuntimeError(
                "one of the variables needed for gradient computation has been modified by an "
                f"inplace operation: [tensorlab.{data.dtype.name} {list(data.shape)}]{where} is at "
                f"version {data._storage.version}; expected version {self.version} instead. Hint: "
                "the operation that saved it needs its original value; use out-of-place ops or "
                "clone() the tensor before modifying it."
            )


# --- graph nodes -----------------------------------------------------------------------------
class Node:
    """What every graph node offers: a name, hooks, and ``next_functions``.

    ``edges`` has one entry per tensor input of the op: ``(next node, its output_nr, argument
    position, shape, dtype)`` — where the input's gradient goes, and what it must look like.
    One flat tuple per input keeps a long graph cheap for Python's garbage collector to walk.
    Hook lists are created on first registration (most nodes never get one), so the engine
    checks ``node._post_hooks`` / ``node._pre_hooks`` for None.
    """

    edges: tuple[Edge, ...] = ()
    sequence_nr: float  # creation order (AccumulateGrad: infinity, it runs as soon as it is ready)
    _post_hooks: list | None = None
    _pre_hooks: list | None = None
    _tensor_pre_hooks: dict[int, list] | None = None  # only BackwardNodes get these two
    _retained: dict[int, weakref.ref] | None = None

    def name(self) -> str:
        return type(self).__name__

    @property
    def next_functions(self) -> tuple[tuple[Node | None, int], ...]:
        """``(node, output_nr)`` per tensor input: the graph one step closer to the leaves."""
        return tuple((edge[0], edge[1]) for edge in self.edges)

    def register_hook(self, hook: Any) -> Any:
        """``hook(grad_inputs, grad_outputs)`` after the node ran; a returned tuple replaces grad_inputs."""
        from ..utils.hooks import RemovableHandle

        if self._post_hooks is None:
            self._post_hooks = []
        self._post_hooks.append(hook)
        return RemovableHandle(self._post_hooks, hook)

    def register_prehook(self, hook: Any) -> Any:
        """``hook(grad_outputs)`` before the node runs; a returned tuple replaces grad_outputs."""
        from ..utils.hooks import RemovableHandle

        if self._pre_hooks is None:
            self._pre_hooks = []
        self._pre_hooks.append(hook)
        return RemovableHandle(self._pre_hooks, hook)

    def __repr__(self) -> str:
        return f"<{self.name()} object at {hex(id(self))}>"


class BackwardNode(Node, FunctionCtx):
    """One recorded op: the grad_fn of its outputs and the ctx of its forward/backward.

    Each Function gets its own subclass named like torch's (``MulBackward0``, ``MyFnBackward``);
    ``function`` is the Function whose ``backward`` this node runs.
    """

    function: type[Function]
    recording = True
    needs_input_grad: tuple = ()  # set per node (shadows FunctionCtx's computed property)
    num_outputs = 1
    output_meta: tuple = ()

    def __init__(self, inputs: tuple) -> None:
        """Record the edge of every tensor input (see :class:`Node`) and which inputs need grad."""
        self.sequence_nr = next(_sequence)
        self.num_inputs = len(inputs)
        needs_grad = []
        edges: list[Edge] = []
        operands = getattr(self.function, "operands", 0)  # CopySlices is no Function
        for i, x in enumerate(inputs):
            requires_grad = getattr(x, "_requires_grad", None)
            if requires_grad is None:  # a Python number, a dim, a dtype...: no edge,
                needs_grad.append(False)
                if i < operands:  # unless torch wraps the number in a tensor: ``x * 2``
                    edges.append(NO_EDGE)
            elif requires_grad:
                needs_grad.append(True)
                node, nr = gradient_edge(x)
                edges.append((node, nr, i, x._data.shape, x.dtype))
            else:
                needs_grad.append(False)
                edges.append(NO_EDGE)
        flags = tuple(needs_grad)
        self.needs_input_grad = shared_flags.shared(flags) if fast.enabled else flags
        self.edges = tuple(edges)
        self._saved: tuple[SavedTensor | None, ...] | None = ()

    # --- what backward calls on ctx --------------------------------------------------------
    @property
    def saved_tensors(self) -> tuple:
        saved = self._saved
        if saved is None:
            raise RuntimeError(FREED_MESSAGE)
        return tuple(None if s is None else s.unpack(self) for s in saved)

    def release_saved(self) -> None:
        """Drop the saved tensors after backward (unless the graph is retained)."""
        if self._saved:
            self._saved = None

    # --- where the engine finds tensor hooks and retain_grad ------------------------------
    @property
    def tensor_pre_hooks(self) -> dict[int, list]:
        """``output_nr -> hooks`` registered with ``tensor.register_hook`` on this node's outputs."""
        if self._tensor_pre_hooks is None:
            self._tensor_pre_hooks = {}
        return self._tensor_pre_hooks

    @property
    def retained(self) -> dict[int, weakref.ref]:
        """``output_nr -> weakref(tensor)`` for outputs that called ``retain_grad()``."""
        if self._retained is None:
            self._retained = {}
        return self._retained


class AccumulateGrad(Node):
    """The node of a leaf that requires grad: adds incoming gradients into ``leaf.grad``.

    Its ``name()`` is "AccumulateGrad" (torch shows its C++ name, "torch::autograd::AccumulateGrad").
    """

    sequence_nr = float("inf")  # as in torch, run as soon as it is ready

    def __init__(self, variable: Tensor) -> None:
        self.variable = variable


def grad_accumulator(leaf: Tensor) -> AccumulateGrad:
    """The one AccumulateGrad of a leaf; the leaf holds it weakly, so there is no cycle."""
    node = leaf._accumulator() if leaf._accumulator is not None else None
    if node is None:
        node = AccumulateGrad(leaf)
        leaf._accumulator = weakref.ref(node)
    return node


Edge = tuple["Node | None", int, "int | None", "tuple[int, ...] | None", "dtype | None"]
"""(next node, its output_nr, argument position, shape, dtype) of one tensor input; see :class:`Node`."""
NO_EDGE: Edge = (None, 0, None, None, None)  # the edge of a tensor input that does not require grad


def gradient_edge(x: Tensor) -> tuple[Node, int]:
    """Where a gradient for ``x`` goes: output ``nr`` of its grad_fn, or its leaf accumulator.

    A view whose storage was written in place since its grad_fn was made first gets its
    history rebuilt from its base (see ``copy_slices``).
    """
    info = x._view_info
    if info is not None and info.version != x._storage.version:
        from .copy_slices import refresh_view_history

        refresh_view_history(x)
    if x.grad_fn is not None:
        return (x.grad_fn, x._output_nr)
    return (grad_accumulator(x), 0)


# --- Function ------------------------------------------------------------------------------
class Function:
    """Base class of every differentiable op: subclass with static forward and backward.

    Either ``forward(ctx, *args)``, or torch's newer split ``forward(*args)`` plus
    ``setup_context(ctx, inputs, output)``. The graph node is named ``backward_name`` (default:
    the class name + "Backward"); :meth:`apply_as` names it at the call instead.
    """

    _backward_cls: type[BackwardNode]
    _node_classes: dict[str, type[BackwardNode]]
    _forward_takes_ctx = True
    operands = 0
    """How many leading arguments are operands that torch turns into tensors when they are Python
    numbers (``x * 2`` multiplies by ``tensor(2)``): such a number gets an edge ``(None, 0)`` in
    ``next_functions``, as in torch. Other non-tensor arguments (dims, alpha, ...) get none."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._node_classes = {}
        cls._backward_cls = cls.node_class(cls.__dict__.get("backward_name", cls.__name__ + "Backward"))
        cls._forward_takes_ctx = cls.setup_context is Function.setup_context

    @staticmethod
    def forward(ctx: FunctionCtx, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def setup_context(ctx: FunctionCtx, inputs: tuple, output: Any) -> None:
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx: FunctionCtx, *grad_outputs: Any) -> Any:
        raise NotImplementedError(
            "You must implement either the backward or vjp method for your custom "
            "autograd.Function to use it with backward mode AD."
        )

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        if state.enabled:
            for x in args:
                if getattr(x, "_requires_grad", False):
                    return _record(cls, cls._backward_cls, args, kwargs)
        if cls._forward_takes_ctx:
            return cls.forward(FunctionCtx(args), *args, **kwargs)
        return _forward_then_setup_context(cls, FunctionCtx(args), args, kwargs)

    @classmethod
    def apply_as(cls, node_name: str, *args: Any, **kwargs: Any) -> Any:
        """``apply``, with the graph node named ``node_name`` instead of ``backward_name``.

        torch names one backward formula by the overload that recorded it: ``x.sum()`` leaves a
        SumBackward0 and ``x.sum(0)`` a SumBackward1, ``x[0]`` a SelectBackward0 and ``x[1:]`` a
        SliceBackward0. One Function holds the formula; the call that applies it gives the name.
        """
        if state.enabled:
            for x in args:
                if getattr(x, "_requires_grad", False):
                    return _record(cls, cls.node_class(node_name), args, kwargs)
        return cls.apply(*args, **kwargs)

    @classmethod
    def node_class(cls, name: str) -> type[BackwardNode]:
        """The class of the nodes named ``name`` that run this Function's backward (one per name)."""
        node_class = cls._node_classes.get(name)
        if node_class is None:
            node_class = type(name, (BackwardNode,), {"function": cls, "__module__": cls.__module__})
            cls._node_classes[name] = node_class
        return node_class


def _forward_then_setup_context(cls: type[Function], ctx: FunctionCtx, args: tuple, kwargs: dict) -> Any:
    output = cls.forward(*args, **kwargs)
    cls.setup_context(ctx, args, output)
    return output


def _record(cls: type[Function], node_class: type[BackwardNode], args: tuple, kwargs: dict) -> Any:
    """Run forward without recording, then make the node the grad_fn of the outputs."""
    node = node_class(args)
    if anomaly_mode.state.enabled:
        anomaly_mode.remember_forward(node)
    state.enabled = False
    try:
        if cls._forward_takes_ctx:
            outputs = cls.forward(node, *args, **kwargs)
        else:
            outputs = _forward_then_setup_context(cls, node, args, kwargs)
    finally:
        state.enabled = True
    single = type(outputs) is not tuple
    results = (outputs,) if single else outputs
    if not single:
        node.num_outputs = len(results)
        node.output_meta = tuple((t._data.shape, t.dtype) if hasattr(t, "_requires_grad") else None for t in results)
    for nr, out in enumerate(results):
        if not hasattr(out, "_requires_grad") or not out.dtype.is_floating_point:
            continue
        if node.non_differentiable and _is_one_of(out, node.non_differentiable):
            continue
        if _is_one_of(out, args):
            if _is_one_of(out, node.dirty):  # modified in place: out takes the new history
                _check_dirty(out)
                out._storage.version += 1
            else:  # forward returned an input unchanged: the output is a fresh alias of it
                out = out.detach()
                results = (*results[:nr], out, *results[nr + 1 :])
        out._requires_grad = True
        out.grad_fn = node
        out._output_nr = nr
    if node.to_save:
        node._saved = tuple([None if t is None else SavedTensor(t, node) for t in node.to_save])
        node.to_save = ()
    return results[0] if single else results


def _is_one_of(t: Any, items: tuple) -> bool:
    """``t in items`` by identity (``in`` would call Tensor.__eq__, which is elementwise)."""
    for item in items:
        if item is t:
            return True
    return False


def _check_dirty(t: Tensor) -> None:
    if t._requires_grad and t.grad_fn is None:
        raise RuntimeError(LEAF_IN_PLACE_MESSAGE)
