"""tensorlab.fx: record a tensorlab function as a graph of ops, print it like torch.fx, fuse it.

What a compiler front end does, small enough to read in one sitting:

1. **Tracing** (:func:`trace`): call the function once with *proxies* instead of tensors. Every
   operator (``x + y``) and method (``x.sin()``) on a proxy records a node instead of computing,
   and so does every public function given a proxy (``tensorlab.sin(x)``, ``F.relu(x)``, a ``sin``
   imported by name): while tracing, a :class:`TracingMode` sits on tensorlab's function-mode stack
   (``tensorlab/overrides.py``), where every op call enters. The function's Python (loops, helper
   calls) simply runs and leaves only the ops behind. Like ``torch.fx.symbolic_trace``, a proxy has
   no value, so ``if x.sum() > 0`` raises :class:`TraceError`: control flow on data cannot be recorded.
2. **The graph** (:class:`Graph`): ``placeholder`` nodes for the inputs, ``call_function`` /
   ``call_method`` nodes for the ops, one ``output`` node, printed the way ``torch.fx`` prints.
   :class:`GraphModule` runs it by walking the nodes in order.
3. **A pass** (:func:`fuse_elementwise`): a chain of elementwise ops, where each op's only user is
   the next, becomes one ``call_fused`` node whose target is a NumPy function generated from
   source text. It allocates one ``out`` buffer and runs every step in place (``np.sin(out,
   out=out)``), where eager code allocates a fresh array per op: fewer nodes, fewer allocations,
   one pass of Python dispatch instead of one per op. Inductor does the same, generating C++ (CPU)
   or Triton (GPU) loops that also keep each element in registers between the steps.

The fused kernels compute on the tensors' NumPy data without recording autograd: a fused module is
for inference, as Inductor's kernels are when no gradient is needed. They assume floating inputs
(the dtype of the ``out`` buffer is the inputs' common dtype).
"""

from __future__ import annotations

import builtins
import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import tensorlab as tl
from tensorlab._tensor import Tensor
from tensorlab.overrides import FunctionMode

__all__ = ["Graph", "GraphModule", "Node", "Proxy", "TraceError", "TracingMode", "fuse_elementwise", "trace"]

_BUILTIN_NAMES = frozenset(dir(builtins))


class TraceError(RuntimeError):
    """Raised when traced code needs a proxy's value (control flow, ``.item()``, ``.shape``...)."""


@dataclass(eq=False)
class Node:
    """One operation: ``op`` says what kind, ``target`` which function (or method name)."""

    name: str
    op: str  # "placeholder" | "call_function" | "call_method" | "call_fused" | "output"
    target: Any  # a function, a method name, or the placeholder's name
    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] = field(default_factory=dict)
    users: list[Node] = field(default_factory=list)

    def inputs(self) -> list[Node]:
        return [a for a in (*self.args, *self.kwargs.values()) if isinstance(a, Node)]

    def __repr__(self) -> str:
        return f"%{self.name}"


def _target_name(node: Node) -> str:
    if node.op in ("call_method", "placeholder", "output"):
        return str(node.target)
    module = getattr(node.target, "__module__", "") or ""
    if module == "_operator":
        module = "operator"
    elif module.startswith("tensorlab"):
        module = "tensorlab"
    name = getattr(node.target, "__name__", str(node.target))
    return f"{module}.{name}" if module else name


class Graph:
    """Nodes in execution order; every node's inputs come before it."""

    def __init__(self) -> None:
        self.nodes: list[Node] = []
        self._names: dict[str, int] = {}

    def _fresh_name(self, base: str) -> str:
        """``mul``, then ``mul_1``, ``mul_2``...; names of Python builtins (``sum``) start at ``_1``, as in FX."""
        count = self._names.get(base, 1 if base in _BUILTIN_NAMES else 0)
        self._names[base] = count + 1
        return base if count == 0 else f"{base}_{count}"

    def create_node(
        self, op: str, target: Any, args: tuple[Any, ...] = (), name: str | None = None,
        kwargs: dict[str, Any] | None = None,
    ) -> Node:
        base = name or (target if isinstance(target, str) else getattr(target, "__name__", "node")).strip("_")
        node = Node(self._fresh_name(base), op, target, args, dict(kwargs or {}))
        for used in node.inputs():
            used.users.append(node)
        self.nodes.append(node)
        return node

    def erase(self, node: Node) -> None:
        if node.users:
            raise RuntimeError(f"cannot erase {node!r}: it still has users {node.users}")
        for used in node.inputs():
            used.users.remove(node)
        self.nodes.remove(node)

    @property
    def output(self) -> Node:
        return self.nodes[-1]

    def __str__(self) -> str:
        lines = ["graph():"]
        for node in self.nodes:
            if node.op == "output":
                lines.append(f"    return {node.args[0].name if isinstance(node.args[0], Node) else repr(node.args[0])}")
                continue
            head = f"    %{node.name} : [num_users={len(node.users)}] = {node.op}[target={_target_name(node)}]"
            call = f"(args = {node.args!r}, kwargs = {node.kwargs!r})"
            lines.append(head if node.op == "placeholder" else head + call)
        return "\n".join(lines)


class Proxy:
    """Stands for a node's value while tracing: every op on it records a new node."""

    def __init__(self, node: Node, graph: Graph) -> None:
        self.node, self.graph = node, graph

    def _record(self, op: str, target: Any, args: tuple[Any, ...], kwargs: dict[str, Any] | None = None,
                ) -> Proxy:
        unwrapped = tuple(a.node if isinstance(a, Proxy) else a for a in args)
        keywords = {k: v.node if isinstance(v, Proxy) else v for k, v in (kwargs or {}).items()}
        return Proxy(self.graph.create_node(op, target, unwrapped, kwargs=keywords), self.graph)

    def __add__(self, other: Any) -> Proxy: return self._record("call_function", operator.add, (self, other))
    def __radd__(self, other: Any) -> Proxy: return self._record("call_function", operator.add, (other, self))
    def __sub__(self, other: Any) -> Proxy: return self._record("call_function", operator.sub, (self, other))
    def __rsub__(self, other: Any) -> Proxy: return self._record("call_function", operator.sub, (other, self))
    def __mul__(self, other: Any) -> Proxy: return self._record("call_function", operator.mul, (self, other))
    def __rmul__(self, other: Any) -> Proxy: return self._record("call_function", operator.mul, (other, self))
    def __truediv__(self, other: Any) -> Proxy: return self._record("call_function", operator.truediv, (self, other))
    def __rtruediv__(self, other: Any) -> Proxy: return self._record("call_function", operator.truediv, (other, self))
    def __matmul__(self, other: Any) -> Proxy: return self._record("call_function", operator.matmul, (self, other))
    def __neg__(self) -> Proxy: return self._record("call_function", operator.neg, (self,))
    def __gt__(self, other: Any) -> Proxy: return self._record("call_function", operator.gt, (self, other))
    def __lt__(self, other: Any) -> Proxy: return self._record("call_function", operator.lt, (self, other))

    def __getattr__(self, name: str) -> Callable[..., Proxy]:
        if name.startswith("_") or name in ("shape", "dtype", "item", "tolist", "numpy", "size", "dim"):
            raise TraceError(f"tensorlab.fx records ops only; .{name} needs a value that a proxy does not have")
        return lambda *args, **kwargs: self._record("call_method", name, (self, *args), kwargs)

    def __bool__(self) -> bool:
        raise TraceError("symbolically traced variables cannot be used as inputs to control flow")

    def __repr__(self) -> str:
        return f"Proxy({self.node.name})"


class TracingMode(FunctionMode):
    """On the mode stack while :func:`trace` runs: a public op given a proxy records a node.

    ``tensorlab.sin(p)`` becomes a ``call_function`` node whose target is ``tensorlab.sin`` and
    ``t.add(p)`` a ``call_method`` node; torch.fx's Proxy relies on ``__torch_function__`` the same
    way. An operator of a plain tensor with a proxy operand (``t + p``) returns ``NotImplemented``,
    so Python asks the proxy's reflected operator, which records ``operator.add``. Calls without a
    proxy run as usual.
    """

    def __tensorlab_function__(self, func: Callable[..., Any], args: tuple, kwargs: dict[str, Any]) -> Any:
        proxies = [a for a in (*args, *kwargs.values()) if isinstance(a, Proxy)]
        if not proxies:
            return func(*args, **kwargs)
        name = func.__name__
        if name.startswith("__"):
            return NotImplemented
        if func.__qualname__.startswith("Tensor."):
            return proxies[0]._record("call_method", name, args, kwargs)
        return proxies[0]._record("call_function", func, args, kwargs)


class GraphModule:
    """A graph and the means to run it: ``gm(x, y)`` walks the nodes in order."""

    def __init__(self, graph: Graph, kernels: dict[str, str] | None = None) -> None:
        self.graph = graph
        self.kernels = kernels or {}  # name -> generated source, for the fused nodes

    def __call__(self, *inputs: Any) -> Any:
        values: dict[str, Any] = {}
        placeholders = iter(inputs)

        def value(a: Any) -> Any:
            return values[a.name] if isinstance(a, Node) else a

        for node in self.graph.nodes:
            args = [value(a) for a in node.args]
            kwargs = {k: value(v) for k, v in node.kwargs.items()}
            if node.op == "placeholder":
                values[node.name] = next(placeholders)
            elif node.op == "call_function":
                values[node.name] = node.target(*args, **kwargs)
            elif node.op == "call_method":
                values[node.name] = getattr(args[0], node.target)(*args[1:], **kwargs)
            elif node.op == "call_fused":
                arrays = [a.detach().numpy() if isinstance(a, Tensor) else a for a in args]
                values[node.name] = tl.from_numpy(node.target(*arrays))
            else:
                return args[0]
        raise RuntimeError("the graph has no output node")

    def __str__(self) -> str:
        return str(self.graph)


def trace(function: Callable[..., Any]) -> GraphModule:
    """Record ``function``'s ops on proxies, one placeholder per positional parameter."""
    graph = Graph()
    names = function.__code__.co_varnames[: function.__code__.co_argcount]
    proxies = [Proxy(graph.create_node("placeholder", name), graph) for name in names]
    with TracingMode():
        result = function(*proxies)
    graph.create_node("output", "output", (result.node if isinstance(result, Proxy) else result,))
    return GraphModule(graph)


# ---- the fusion pass --------------------------------------------------------------------------

# Each elementwise op as NumPy statements writing into ``out``; {0}, {1} are its operands.
_UFUNCS: dict[str, str] = {
    "add": "np.add({0}, {1}, out=out)", "sub": "np.subtract({0}, {1}, out=out)",
    "mul": "np.multiply({0}, {1}, out=out)", "truediv": "np.divide({0}, {1}, out=out)",
    "div": "np.divide({0}, {1}, out=out)", "neg": "np.negative({0}, out=out)",
    "sin": "np.sin({0}, out=out)", "cos": "np.cos({0}, out=out)", "exp": "np.exp({0}, out=out)",
    "log": "np.log({0}, out=out)", "tanh": "np.tanh({0}, out=out)", "sqrt": "np.sqrt({0}, out=out)",
    "abs": "np.absolute({0}, out=out)", "relu": "np.maximum({0}, 0, out=out)",
    "maximum": "np.maximum({0}, {1}, out=out)", "minimum": "np.minimum({0}, {1}, out=out)",
    "sigmoid": "np.negative({0}, out=out); np.exp(out, out=out); np.add(out, 1, out=out); np.reciprocal(out, out=out)",
}


def _elementwise_kind(node: Node) -> str | None:
    """The op's name if it is elementwise (one output element from the same-position inputs)."""
    if node.kwargs:  # alpha=, out=...: the generated kernels know positional operands only
        return None
    if node.op == "call_method":
        name = str(node.target)
    elif node.op == "call_function":
        name = getattr(node.target, "__name__", "")
    else:
        return None
    return name if name in _UFUNCS else None


def _chains(graph: Graph) -> list[list[Node]]:
    """Maximal chains of ≥ 2 elementwise nodes where each node's only user is the next one."""
    chains: list[list[Node]] = []
    taken: set[str] = set()
    for node in graph.nodes:
        if node.name in taken or _elementwise_kind(node) is None:
            continue
        chain = [node]
        while len(chain[-1].users) == 1:
            user = chain[-1].users[0]
            if user.name in taken or _elementwise_kind(user) is None:
                break
            chain.append(user)
        if len(chain) >= 2:
            chains.append(chain)
            taken.update(n.name for n in chain)
    return chains


def _kernel_source(name: str, chain: list[Node]) -> tuple[str, list[Node]]:
    """The NumPy function for one chain, and the outside nodes it takes as arguments."""
    outside: list[Node] = []
    for node in chain:
        outside += [a for a in node.inputs() if a not in chain and a not in outside]
    parameters = [f"a{i}" for i in range(len(outside))]
    arrays = ", ".join(parameters)

    def operand(a: Any) -> str:
        if isinstance(a, Node):
            return "out" if a in chain else parameters[outside.index(a)]
        return repr(a)

    lines = [f"def {name}({arrays}):",
             f"    out = np.empty(np.broadcast_shapes({', '.join(f'np.shape({p})' for p in parameters)}),"
             f" dtype=np.result_type({arrays}))  # the one buffer"]
    for node in chain:
        lines.append(f"    {_UFUNCS[str(_elementwise_kind(node))].format(*map(operand, node.args))}  # {node.name}")
    lines.append("    return out")
    return "\n".join(lines), outside


def fuse_elementwise(module: GraphModule) -> GraphModule:
    """A new module where every elementwise chain is one generated NumPy kernel.

    The first step of a chain reads its inputs and writes ``out``; every later step reads ``out``
    (and outside operands) and writes ``out`` again, so a chain of k ops allocates one array, not k.
    """
    graph, kernels = Graph(), dict(module.kernels)
    copies: dict[str, Node] = {}  # old node name -> its node in the new graph
    chain_of: dict[str, list[Node]] = {n.name: chain for chain in _chains(module.graph) for n in chain}

    def moved(a: Any) -> Any:
        return copies[a.name] if isinstance(a, Node) else a

    for node in module.graph.nodes:
        chain = chain_of.get(node.name)
        if chain is None:
            copies[node.name] = graph.create_node(
                node.op, node.target, tuple(map(moved, node.args)), name=node.name,
                kwargs={k: moved(v) for k, v in node.kwargs.items()},
            )
        elif node is chain[-1]:  # the whole chain becomes one node where its last op stood
            name = graph._fresh_name("fused")
            source, outside = _kernel_source(name, chain)
            namespace: dict[str, Any] = {"np": np}
            exec(compile(source, f"<tensorlab.fx {name}>", "exec"), namespace)
            kernels[name] = source
            fused = Node(name, "call_fused", namespace[name], tuple(copies[n.name] for n in outside))
            for used in fused.inputs():
                used.users.append(fused)
            graph.nodes.append(fused)
            copies[node.name] = fused
    return GraphModule(graph, kernels)
