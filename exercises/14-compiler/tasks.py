"""Unit 14, the compiler: three graph passes and the splitting of a run into graphs at its breaks.

A graph is plain data, what ``tensorlab.fx`` and ``torch.fx`` hold: a list of nodes
``(name, op, args)`` in execution order, placeholders first and one ``("output", "output", names)``
last; ``args`` is a tuple of earlier nodes' names and numbers. tests/test_grading_checks.py checks
the references against torch.fx's own dead-code elimination and against ``tensorlab.fx``'s fusion.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tensorlab.grading.compare import Tolerance
from tensorlab.grading.rules import PURE_STANDARD_LIBRARY
from tensorlab.grading.tasks import Clause, Exercise, Task

__all__ = ["EXERCISE", "ELIMINATE_COMMON_SUBEXPRESSIONS", "ELIMINATE_DEAD_CODE", "FUSE_ELEMENTWISE", "PREDICTED_COMPILES",
           "SPLIT_AT_BREAKS", "SQUASH_IN_ONE_GRAPH"]

Node = tuple[str, str, tuple[Any, ...]]
ELEMENTWISE = ["add", "cos", "div", "exp", "mul", "neg", "relu", "sin", "sub", "tanh"]  # lists: graded data is plain
UNARY = ("neg", "sin", "cos", "exp", "relu", "tanh", "sum", "print")
BINARY = ("add", "sub", "mul", "div", "matmul", "add_", "mul_")


def has_side_effects(op: str) -> bool:
    """print writes, an op ending in _ changes its first argument in place, rand* draws new numbers."""
    return op == "print" or op.endswith("_") or op.startswith("rand")


def eliminate_dead_code_reference(nodes: list[Node]) -> list[Node]:
    """Walk backwards from the output, marking what is needed; keep inputs, output and side effects."""
    needed: set[str] = set()
    kept: list[Node] = []
    for name, op, args in reversed(nodes):
        if op in ("placeholder", "output") or has_side_effects(op) or name in needed:
            kept.append((name, op, args))
            needed.update(a for a in args if isinstance(a, str))
    return kept[::-1]


def eliminate_common_subexpressions_reference(nodes: list[Node]) -> list[Node]:
    """Forwards: a pure node computing what an earlier one computed is dropped, its users renamed."""
    renamed: dict[str, str] = {}
    seen: dict[tuple[str, tuple[Any, ...]], str] = {}
    kept: list[Node] = []
    for name, op, args in nodes:
        args = tuple(renamed.get(a, a) if isinstance(a, str) else a for a in args)
        key = (op, args)
        if op not in ("placeholder", "output") and not has_side_effects(op):
            if key in seen:
                renamed[name] = seen[key]
                continue
            seen[key] = name
        kept.append((name, op, args))
    return kept


def fuse_elementwise_reference(nodes: list[Node], elementwise: list[str]) -> list[list[str]]:
    """Maximal chains (2 nodes or more) of elementwise ops, each one's single use being the next one's argument."""
    uses: dict[str, list[str]] = {name: [] for name, _, _ in nodes}
    for name, _, args in nodes:
        for a in args:
            if isinstance(a, str):
                uses[a].append(name)
    op_of = {name: op for name, op, _ in nodes}
    groups: list[list[str]] = []
    taken: set[str] = set()
    for name, op, _ in nodes:
        if name in taken or op not in elementwise:
            continue
        chain = [name]
        while len(uses[chain[-1]]) == 1 and uses[chain[-1]][0] not in taken and op_of[uses[chain[-1]][0]] in elementwise:
            chain.append(uses[chain[-1]][0])
        if len(chain) >= 2:
            groups.append(chain)
            taken.update(chain)
    return groups


def split_at_breaks_reference(events: list[str], supported: list[str]) -> list[list[int]]:
    """Positions of the captured ops, one list per graph; an unsupported event ends the current graph."""
    graphs: list[list[int]] = [[]]
    for position, event in enumerate(events):
        if event in supported:
            graphs[-1].append(position)
        else:
            graphs.append([])
    return [graph for graph in graphs if graph]


# ---- random cases -------------------------------------------------------------------------------

def _fresh(names: dict[str, int], op: str) -> str:
    count = names.get(op, 0)
    names[op] = count + 1
    return op if count == 0 else f"{op}_{count}"


def random_graph(rng: np.random.Generator, duplicates: float = 0.0) -> list[Node]:
    """1-3 inputs, 3-11 ops (elementwise mostly, now and then matmul, sum, print, an in-place op, rand),
    an output of one or two values. With ``duplicates``, some ops repeat an earlier op on the same inputs."""
    names: dict[str, int] = {}
    inputs = ["x", "y", "z"][: int(rng.integers(1, 4))]
    nodes: list[Node] = [(name, "placeholder", ()) for name in inputs]
    values = list(inputs)
    ops = ["add", "mul", "sub", "sin", "exp", "relu", "neg", "tanh", "div", "cos",
           "add", "mul", "sin", "matmul", "sum", "print", "add_", "rand"]
    for _ in range(int(rng.integers(3, 12))):
        if duplicates and len(nodes) > len(inputs) and rng.random() < duplicates:
            _, op, args = nodes[int(rng.integers(len(inputs), len(nodes)))]
            if op == "print":
                continue
        else:
            op = str(rng.choice(ops))
            recent = values[-3:] if rng.random() < 0.7 else values

            if op == "rand":
                args = (int(rng.integers(2, 5)),)
            elif op in UNARY:
                args = (str(rng.choice(recent)),)
            elif op in ("add", "mul", "sub", "div") and rng.random() < 0.2:  # now and then a number
                args = (str(rng.choice(recent)), float(rng.choice([0.5, 2.0, 3.0])))
            else:
                args = (str(rng.choice(recent)), str(rng.choice(recent)))
        name = _fresh(names, op)
        nodes.append((name, op, args))
        if op != "print":
            values.append(name)
    computed = [v for v in values if v not in inputs] or values
    outputs = [computed[-1]] if rng.random() < 0.7 or len(computed) < 2 else [str(rng.choice(computed[:-1])), computed[-1]]
    nodes.append(("output", "output", tuple(outputs)))
    return nodes


def random_dead_code_case(rng: np.random.Generator) -> tuple[list[Node]]:
    return (random_graph(rng),)


def random_common_subexpression_case(rng: np.random.Generator) -> tuple[list[Node]]:
    return (random_graph(rng, duplicates=0.35),)


def random_fusion_case(rng: np.random.Generator) -> tuple[list[Node], list[str]]:
    return random_graph(rng), ELEMENTWISE


SUPPORTED = ["add", "cos", "matmul", "mul", "relu", "sin", "sum", "where"]

# Every part is plain Python on lists, tuples, dicts and strings: the builtins and methods a pass is written
# with (the notebook's introduction lists them). None of them does a pass's work; torch.fx and tensorlab.fx,
# which do, are refused as the reference library.
PLAIN_PYTHON = (
    "set", "frozenset", "sorted", "reversed", "next", "iter", "sum", "map", "filter",
    "append", "extend", "insert", "pop", "add", "update", "discard", "remove", "get", "setdefault", "items", "keys",
    "values", "fromkeys", "copy", "index", "count", "startswith", "endswith", "Counter", "defaultdict", "deque", "popleft",
    "groupby",
)
GRAPH_INPUTS = ("Graphs of 1 to 3 placeholders (one may be unused) and 1 to 11 ops: elementwise ops, `matmul`, "
                "`sum`, `print`, in-place ops (`add_`, `mul_`, `relu_`), `rand`-family draws (`rand`, `randn`, "
                "`randint`) and other pure op names (`log_softmax`, `operand`, `zeros`); a node's name is often its "
                "op's, but not always (`p` for a `print`, `s_` for a `sin`); arguments are earlier nodes' names, "
                "numbers (ints and floats) or tuples of numbers, and an op may have none; the output returns one "
                "or two values.")


def random_events_case(rng: np.random.Generator) -> tuple[list[str], list[str]]:
    """3-14 events, about one in four a break (print, item, a data-dependent if, an unknown call)."""
    breaks = ["print", "item", "if", "os.getpid"]
    pool = SUPPORTED
    events = [str(rng.choice(breaks)) if rng.random() < 0.25 else str(rng.choice(pool)) for _ in range(int(rng.integers(3, 15)))]
    return events, SUPPORTED


# ---- fixed cases: examples, then one per promise of the statement --------------------------------

def graph(*ops: tuple[str, str, tuple[Any, ...]], inputs: tuple[str, ...] = ("x",), output: tuple[str, ...] = ()) -> list[Node]:
    nodes: list[Node] = [(name, "placeholder", ()) for name in inputs]
    nodes += list(ops)
    return [*nodes, ("output", "output", output or (ops[-1][0],))]


CHAIN = graph(("sin", "sin", ("x",)), ("mul", "mul", ("sin", 2.0)), ("add", "add", ("mul", "y")), inputs=("x", "y"))

ELIMINATE_DEAD_CODE = Task(
    name="eliminate_dead_code", reference=eliminate_dead_code_reference,
    examples=[(graph(("sin", "sin", ("x",)), ("cos", "cos", ("x",)), output=("sin",)),), (CHAIN,)],
    clauses=[
        Clause("remove every node whose value the output does not need, directly or through other nodes",
               (graph(("exp", "exp", ("x",)), ("neg", "neg", ("exp",)), ("sin", "sin", ("x",)), output=("sin",)),)),
        Clause("remove every node whose value the output does not need, directly or through other nodes",
               (graph(("sin", "sin", ("x",)), ("cos", "cos", ("sin",)), ("tanh", "tanh", ("cos",)), ("relu", "relu", ("x",)),
                      output=("relu",)),)),
        Clause("Keep every placeholder, even one nothing uses",
               (graph(("sin", "sin", ("x",)), inputs=("x", "y"), output=("sin",)),)),
        Clause("keep the output node", (graph(("neg", "neg", ("x",))),)),
        Clause("keep every node with a side effect (`print`, an op whose name ends in `_`, an op whose name starts with `rand`) and what it needs",
               (graph(("exp", "exp", ("x",)), ("print", "print", ("exp",)), ("sin", "sin", ("x",)), output=("sin",)),)),
        Clause("keep every node with a side effect (`print`, an op whose name ends in `_`, an op whose name starts with `rand`) and what it needs",
               (graph(("mul", "mul", ("x", 2.0)), ("add_", "add_", ("x", "mul")), ("sin", "sin", ("x",)), output=("sin",)),)),
        Clause("keep every node with a side effect (`print`, an op whose name ends in `_`, an op whose name starts with `rand`) and what it needs",
               (graph(("rand", "rand", (3,)), ("sin", "sin", ("x",)), output=("sin",)),)),
        Clause("keep every node with a side effect (`print`, an op whose name ends in `_`, an op whose name starts with `rand`) and what it needs",  # every member of the families, not only add_ and rand
               (graph(("mul_", "mul_", ("x", 2.0)), ("relu_", "relu_", ("x",)), ("randn", "randn", (3,)),
                      ("randint", "randint", (0, 5, (2,))), ("sin", "sin", ("x",)), output=("sin",)),)),
        Clause("a pure op whose name only contains `_` (not at its end) or `rand` (not at its start) has no side effect",
               (graph(("log_softmax", "log_softmax", ("x", 0)), ("operand", "operand", ("x",)), ("sin", "sin", ("x",)),
                      output=("sin",)),)),
        Clause("a side effect is the op's: `print`, an op whose name ends in `_` or starts with `rand` (the node's name says nothing)",
               (graph(("p", "print", ("x",)), ("draw", "randn", (3,)), ("s_", "sin", ("x",)), ("grow", "add_", ("x", 1.0)),
                      ("cos", "cos", ("x",)), output=("cos",)),)),
        Clause("remove every node whose value the output does not need (only placeholders are inputs: an op "
               "without arguments is removed too)",
               (graph(("zeros", "zeros", ()), ("sin", "sin", ("x",)), output=("sin",)),)),
        Clause("Return the kept nodes as they are, in their order", (graph(
            ("b", "sin", ("x",)), ("a", "cos", ("x",)), ("c", "exp", ("x",)), ("d", "add", ("b", "a")), output=("d",)),)),
        Clause("the output may return several values", (graph(
            ("sin", "sin", ("x",)), ("cos", "cos", ("x",)), ("exp", "exp", ("x",)), output=("cos", "sin")),)),
        Clause("keep every node with a side effect (`print`, an op whose name ends in `_`, an op whose name starts with `rand`) and what it needs",  # the families are rules, not lists: members the random graphs never draw
               (graph(("randperm", "randperm", (4,)), ("rand_like", "rand_like", ("x",)), ("zero_", "zero_", ("x",)),
                      ("clamp_", "clamp_", ("x", 0.0, 1.0)), ("sin", "sin", ("x",)), output=("sin",)),)),
    ],
    random_case=random_dead_code_case, allowed=PLAIN_PYTHON, inputs=GRAPH_INPUTS, fresh_result=True,
    hint="Which nodes must stay whatever the output needs, and if you walk the graph from its end towards its "
    "start, how can you tell, on reaching a node, whether a node kept after it still needs its value?",
)

ELIMINATE_COMMON_SUBEXPRESSIONS = Task(
    name="eliminate_common_subexpressions", reference=eliminate_common_subexpressions_reference,
    examples=[(graph(("sin", "sin", ("x",)), ("sin_1", "sin", ("x",)), ("add", "add", ("sin", "sin_1"))),)],
    clauses=[
        Clause("after renaming, a repeat of a repeat is found too", (graph(
            ("sin", "sin", ("x",)), ("sin_1", "sin", ("x",)), ("exp", "exp", ("sin",)), ("exp_1", "exp", ("sin_1",)),
            ("add", "add", ("exp", "exp_1"))),)),
        Clause("rename the removed node's name in every later node's arguments, the output's included", (graph(
            ("cos", "cos", ("x",)), ("cos_1", "cos", ("x",)), output=("cos", "cos_1")),)),
        Clause("the same op on the same arguments in the same order (`add(x, y)` and `add(y, x)` are different)", (graph(
            ("add", "add", ("x", "y")), ("add_1", "add", ("y", "x")), ("mul", "mul", ("add", "add_1")), inputs=("x", "y")),)),
        Clause("the same op on the same arguments (same op, different arguments: different)", (graph(
            ("mul", "mul", ("x", 2.0)), ("mul_1", "mul", ("x", 3.0)), ("sub", "sub", ("mul", "mul_1"))),)),
        Clause("the same op on the same arguments (same arguments, different op: different)", (graph(
            ("add", "add", ("x", "y")), ("sub", "sub", ("x", "y")), ("mul", "mul", ("add", "sub")), inputs=("x", "y")),)),
        Clause("Placeholders are never merged", (graph(("add", "add", ("x", "y")), inputs=("x", "y")),)),
        Clause("nodes with a side effect are never merged", (graph(
            ("print", "print", ("x",)), ("print_1", "print", ("x",)), ("sin", "sin", ("x",))),)),
        Clause("nodes with a side effect are never merged", (graph(
            ("rand", "rand", (3,)), ("rand_1", "rand", (3,)), ("add", "add", ("rand", "rand_1"))),)),
        Clause("nodes with a side effect are never merged", (graph(
            ("add_", "add_", ("x", 1.0)), ("add__1", "add_", ("x", 1.0)), ("sin", "sin", ("x",))),)),
        Clause("nodes with a side effect are never merged", (graph(  # every member of the families
            ("randn", "randn", (3,)), ("randn_1", "randn", (3,)), ("mul_", "mul_", ("x", 2.0)), ("mul__1", "mul_", ("x", 2.0)),
            ("add", "add", ("randn", "randn_1"))),)),
        Clause("a pure op whose name only contains `_` (not at its end) or `rand` (not at its start) is merged", (graph(
            ("log_softmax", "log_softmax", ("x", 0)), ("log_softmax_1", "log_softmax", ("x", 0)),
            ("operand", "operand", ("x",)), ("operand_1", "operand", ("x",)),
            ("add", "add", ("log_softmax", "log_softmax_1")), ("sub", "sub", ("operand", "operand_1"))),)),
        Clause("nodes with a side effect are never merged (the op says so, not the node's name)", (graph(
            ("p", "print", ("x",)), ("q", "print", ("x",)), ("s_", "sin", ("x",)), ("t_", "sin", ("x",)),
            ("add", "add", ("s_", "t_"))),)),
        Clause("the same op on the same arguments (none at all counts too)", (graph(
            ("zeros", "zeros", ()), ("zeros_1", "zeros", ()), ("add", "add", ("zeros", "zeros_1"))),)),
        Clause("keep the first of the equal nodes", (graph(
            ("exp", "exp", ("x",)), ("neg", "neg", ("x",)), ("exp_1", "exp", ("x",)), ("add", "add", ("exp_1", "neg"))),)),
        Clause("nodes with a side effect are never merged", (graph(  # members of the families the random graphs never draw
            ("randperm", "randperm", (4,)), ("randperm_1", "randperm", (4,)), ("clamp_", "clamp_", ("x", 0.0, 1.0)),
            ("clamp__1", "clamp_", ("x", 0.0, 1.0)), ("add", "add", ("randperm", "randperm_1"))),)),
    ],
    random_case=random_common_subexpression_case, allowed=PLAIN_PYTHON, fresh_result=True,
    inputs=GRAPH_INPUTS + " Some ops repeat an earlier op on the same arguments (pure ops and side effects alike).",
    hint="What exactly must two nodes share to compute the same value, and why does a node have to be compared "
    "only after its own arguments have been renamed?",
)

FUSE_ELEMENTWISE = Task(
    name="fuse_elementwise", reference=fuse_elementwise_reference,
    examples=[(CHAIN, ELEMENTWISE)],
    clauses=[
        Clause("each node's value is used exactly once, by the next node of the chain", (graph(
            ("sin", "sin", ("x",)), ("exp", "exp", ("sin",)), ("add", "add", ("sin", "exp")), ("neg", "neg", ("add",))),
            ELEMENTWISE)),
        Clause("used exactly once: one argument of one node (`mul(a, a)` uses `a` twice)", (graph(
            ("sin", "sin", ("x",)), ("mul", "mul", ("sin", "sin")), ("exp", "exp", ("mul",))), ELEMENTWISE)),
        Clause("the output node is a use too, and is not elementwise", (graph(
            ("sin", "sin", ("x",)), ("cos", "cos", ("sin",)), ("exp", "exp", ("cos",)), output=("cos", "exp")), ELEMENTWISE)),
        Clause("a chain stops at an op that is not elementwise", (graph(
            ("sin", "sin", ("x",)), ("exp", "exp", ("sin",)), ("sum", "sum", ("exp",)), ("neg", "neg", ("sum",)),
            ("cos", "cos", ("neg",))), ELEMENTWISE)),
        Clause("Only chains of two nodes or more are groups", (graph(
            ("sin", "sin", ("x",)), ("matmul", "matmul", ("sin", "x")), ("relu", "relu", ("matmul",))), ELEMENTWISE)),
        Clause("A chain's nodes need not be next to each other in the list", (graph(
            ("sin", "sin", ("x",)), ("cos", "cos", ("x",)), ("exp", "exp", ("sin",)), ("neg", "neg", ("cos",)),
            ("add", "add", ("exp", "neg"))), ELEMENTWISE)),
        Clause("each node is in at most one group, the group of the chain that reaches it first", (graph(
            ("sin", "sin", ("x",)), ("cos", "cos", ("y",)), ("add", "add", ("sin", "cos")), ("exp", "exp", ("add",)),
            inputs=("x", "y")), ELEMENTWISE)),
        Clause("the list `elementwise` (the ops that count)", (CHAIN, ["mul", "sin"])),
        Clause("groups in the order of their first node", (graph(
            ("cos", "cos", ("y",)), ("sin", "sin", ("x",)), ("neg", "neg", ("sin",)), ("exp", "exp", ("cos",)),
            ("matmul", "matmul", ("neg", "exp")), inputs=("x", "y")), ELEMENTWISE)),
    ],
    random_case=random_fusion_case, allowed=PLAIN_PYTHON,
    inputs=GRAPH_INPUTS + " `elementwise` is a list of op names: the ten of the example, or only some of them.",
    hint="How many times is each value used, counting every argument slot and the output's too, and from a node "
    "that starts a chain, which node is the only one the chain may go on to?",
)

SPLIT_AT_BREAKS = Task(
    name="split_at_breaks", reference=split_at_breaks_reference,
    examples=[(["sin", "mul", "print", "add"], SUPPORTED), (["sin", "item", "mul", "if", "cos"], SUPPORTED)],
    clauses=[
        Clause("Every event not in `supported` is a graph break", (["add", "item", "mul"], SUPPORTED)),
        Clause("a break runs in Python: it is in no graph", (["add", "print", "mul", "cos"], SUPPORTED)),
        Clause("a graph with no ops is not compiled: leave it out", (["print", "sin", "item", "if", "cos", "os.getpid"], SUPPORTED)),
        Clause("a graph with no ops is not compiled: leave it out", (["item", "print"], SUPPORTED)),
        Clause("no events, no graphs", ([], SUPPORTED)),
        Clause("the ops after the last break form the last graph", (["sin", "print", "cos", "add"], SUPPORTED)),
        Clause("several breaks: one graph between each two", (["sin", "print", "mul", "item", "add", "if", "cos"], SUPPORTED)),
        Clause("positions count from 0, breaks included", (["print", "mul", "add"], SUPPORTED)),
        Clause("a function without breaks is one graph", (["sin", "cos", "mul"], SUPPORTED)),
        Clause("`supported` says which events Dynamo captures", (["sin", "cos", "tan", "mul"], ["sin", "mul"])),
    ],
    random_case=random_events_case, allowed=PLAIN_PYTHON,
    inputs=("0 to 14 events: captured op names and breaks (`print`, `item`, `if`, a call such as `os.getpid`, "
            "an op missing from `supported`), several breaks in a row, a break first or last; `supported` is a "
            "list of op names."),
    hint="What does a break do to the graph being built at that moment, and what becomes of a graph that "
    "ends up holding no op?",
)


# ---- real torch.compile work: a function rewritten into one graph, and the graphs a call sequence costs ----
# torch is a building block of these two parts only (the four passes above stay plain Python); both compile
# with the "eager" back end, so no C compiler is needed, and neither verdict ever reads a clock.

def squash_with_breaks(x: Any) -> Any:
    """The given function (the notebook shows it): three lines that stop Dynamo (explain counts one break)."""
    import torch

    print("squashing", tuple(x.shape))  # a print: Dynamo cannot put it in a graph
    peak = x.abs().max().item()  # .item(): a Python float, read out of the tensor
    if peak > 1.0:  # a Python if on that data-dependent float
        x = x / peak
    return torch.tanh(x) * 2 + peak


def squash_in_one_graph_reference(x: np.ndarray) -> np.ndarray:
    """What the given function returns, run eagerly by torch (its print goes nowhere)."""
    import contextlib
    import io

    import torch

    with contextlib.redirect_stdout(io.StringIO()):
        return squash_with_breaks(torch.from_numpy(x.copy())).numpy()


def _squash_input(rng: np.random.Generator, peak: float | None, dtype: str = "float32",
                  shape: tuple[int, ...] | None = None) -> np.ndarray:
    """A non-empty float array whose largest magnitude is ``peak`` (None: drawn)."""
    shape = shape or tuple(int(n) for n in rng.integers(1, 5, size=int(rng.integers(1, 4))))
    x = rng.uniform(-1.0, 1.0, size=shape)
    x[np.unravel_index(int(rng.integers(x.size)), shape)] = 1.0 if rng.random() < 0.5 else -1.0  # |x| max is 1
    scale = float(rng.choice([0.25, 0.5, 0.9, 1.0, 1.5, 3.0, 10.0])) if peak is None else peak
    return (x * scale).astype(dtype)


def random_squash_case(rng: np.random.Generator) -> tuple[np.ndarray]:
    """Peaks below, at and above 1, now and then all zeros; float32 mostly, float64 now and then."""
    dtype = "float64" if rng.random() < 0.3 else "float32"
    peak = 0.0 if rng.random() < 0.05 else None
    return (_squash_input(rng, peak, dtype),)


def _squash_clause(peak: float, dtype: str = "float32", shape: tuple[int, ...] = (2, 3), seed: int = 0) -> tuple:
    return (_squash_input(np.random.default_rng(seed), peak, dtype, shape),)


SQUASH_FORBIDDEN = ("torch._dynamo.allow_in_graph", "torch.compiler.allow_in_graph")  # a graph node that runs Python
SQUASH_ALLOWED = (  # torch, and the tensor functions and methods a rewrite of this function is made of
    "torch", "abs", "amax", "where", "tanh", "clamp", "maximum", "ones_like", "cond", "clone", "item", "tensor",
    "div", "div_", "mul", "add",
)

SQUASH_IN_ONE_GRAPH = Task(
    name="squash_in_one_graph", reference=squash_in_one_graph_reference,
    examples=[_squash_clause(3.0), _squash_clause(0.5)],
    clauses=[
        Clause("no graph break: `torch._dynamo.explain` counts none and `torch.compile(fullgraph=True)` compiles it",
               _squash_clause(2.0, seed=1)),
        Clause("the same values as the given function: when the largest magnitude is above 1, x is divided by it",
               _squash_clause(4.0, shape=(3, 2), seed=2)),
        Clause("the same values as the given function: when it is not above 1, x is left as it is",
               _squash_clause(0.75, shape=(4,), seed=3)),
        Clause("the same values as the given function: a largest magnitude of exactly 1 is not above 1",
               _squash_clause(1.0, shape=(2, 2), seed=4)),
        Clause("the same values as the given function: the largest magnitude is added to every element",
               _squash_clause(1.5, shape=(5,), seed=5)),
        Clause("the largest magnitude: a negative element counts by its size",
               (np.array([[-6.0, 2.0], [0.5, -1.0]], dtype=np.float32),)),
        Clause("x may be all zeros", (np.zeros((2, 3), dtype=np.float32),)),
        Clause("the same dtype as the given function's result (float64 stays float64)",
               _squash_clause(2.5, dtype="float64", shape=(2, 2, 2), seed=6)),
        Clause("a tensor of one element", (np.array([-3.0], dtype=np.float32),)),
    ],
    random_case=random_squash_case, random_cases=3,  # each case is two fresh compiles: the clauses carry the edge kinds
    inputs="Non-empty float32 (mostly) or float64 tensors of 1 to 3 dims, whose largest magnitude is below, "
           "exactly at or above 1 (now and then all zeros).",
    tolerance=Tolerance(rtol=1e-6, atol=1e-6),
    building_blocks=("torch", *PURE_STANDARD_LIBRARY),
    forbidden=SQUASH_FORBIDDEN, allowed=SQUASH_ALLOWED,
    harness="tensorlab.grading.harnesses.dynamo:compiled_whole",
    at_least_seconds=300.0,  # torch, then two fresh compiles per case (validate runs ten seeds at once)
    at_least_memory_mb=4096,
    hint="Which of the three lines turns a value of the tensor into a Python value, and what would each line "
         "compute if that value stayed a tensor, a choice between two tensors included?",
)


COMPILE_LIMIT = 8  # torch._dynamo.config.recompile_limit in torch 2.13


def scale_shift(x: Any, scale: int) -> Any:
    """The function whose compiles the learner predicts (the notebook shows it)."""
    return x * scale + 1


def predicted_compiles_reference(calls: list[tuple[tuple[int, int], str, bool, int]]) -> int:
    """How many graphs Dynamo compiles for ``scale_shift`` over ``calls``: counted by a back end that Dynamo
    calls once per graph, with Dynamo's settings pinned to torch 2.13's defaults (and no profile saved from
    an earlier run: that would make a second run count differently)."""
    import logging

    import torch
    import torch._dynamo

    graphs = []

    def counting_backend(graph: Any, example_inputs: Any) -> Any:
        graphs.append(graph)
        return graph.forward

    torch._dynamo.reset()
    quiet = logging.getLogger("torch._dynamo")
    level, quiet.level = quiet.level, logging.ERROR  # hitting the recompile limit warns: expected here
    try:
        with torch._dynamo.config.patch(automatic_dynamic_shapes=True, assume_static_by_default=True,
                                        recompile_limit=COMPILE_LIMIT, automatic_dynamic_local_pgo=False,
                                        specialize_int=False):
            compiled = torch.compile(scale_shift, backend=counting_backend)
            for shape, dtype, requires_grad, scale in calls:
                compiled(torch.ones(shape, dtype=getattr(torch, dtype), requires_grad=requires_grad), scale)
    finally:
        quiet.level = level
        torch._dynamo.reset()
    return len(graphs)


DTYPES = ["float32", "float64", "float16"]


def random_calls_case(rng: np.random.Generator) -> tuple[list[tuple[tuple[int, int], str, bool, int]]]:
    """1-10 calls: mostly the previous call again or one thing changed (a size, the dtype, requires_grad, scale),
    sizes 0 and 1 now and then."""
    shape, dtype, requires_grad, scale = (int(rng.integers(2, 5)), int(rng.integers(2, 5))), "float32", False, 2
    calls = []
    for _ in range(int(rng.integers(1, 11))):
        change = rng.random()
        if change < 0.3:
            dim, size = int(rng.integers(2)), int(rng.choice([0, 1, 2, 3, 4, 5, 6]))
            shape = (size, shape[1]) if dim == 0 else (shape[0], size)
        elif change < 0.45:
            dtype = str(rng.choice(DTYPES))
        elif change < 0.6:
            requires_grad = not requires_grad
        elif change < 0.75:
            scale = int(rng.integers(0, 5))
        calls.append((shape, dtype, requires_grad, scale))
    return (calls,)


def calls(*changes: tuple[tuple[int, int], str, bool, int]) -> tuple[list[tuple[tuple[int, int], str, bool, int]]]:
    return (list(changes),)


F32, F64, F16 = "float32", "float64", "float16"

PREDICTED_COMPILES = Task(
    name="predicted_compiles", reference=predicted_compiles_reference,
    examples=[calls(((3, 4), F32, False, 2), ((3, 4), F32, False, 2), ((5, 4), F32, False, 2)),
              calls(((3, 4), F32, False, 2), ((3, 4), F64, False, 2), ((3, 4), F32, False, 2))],
    clauses=[
        Clause("The first call compiles a graph", calls(((2, 2), F32, False, 2))),
        Clause("a call that passes the guards of a graph compiled earlier reuses it",
               calls(((3, 4), F32, False, 2), ((3, 4), F16, False, 2), ((3, 4), F32, False, 2), ((3, 4), F16, False, 2))),
        Clause("a new dtype needs a graph of its own",
               calls(((3, 4), F32, False, 2), ((3, 4), F64, False, 2), ((3, 4), F16, False, 2))),
        Clause("a change of requires_grad needs a graph of its own",
               calls(((3, 4), F32, False, 2), ((3, 4), F32, True, 2), ((3, 4), F32, False, 2), ((3, 4), F32, True, 2))),
        Clause("a size that changed becomes dynamic: later sizes of 2 or more in that dim reuse the dynamic graph",
               calls(((3, 4), F32, False, 2), ((5, 4), F32, False, 2), ((7, 4), F32, False, 2), ((2, 4), F32, False, 2))),
        Clause("only the dim that changed becomes dynamic: the other keeps its size",
               calls(((3, 4), F32, False, 2), ((5, 4), F32, False, 2), ((5, 6), F32, False, 2), ((8, 7), F32, False, 2))),
        Clause("sizes 0 and 1 are never dynamic: each gets a graph of its own",
               calls(((3, 4), F32, False, 2), ((5, 4), F32, False, 2), ((1, 4), F32, False, 2), ((0, 4), F32, False, 2),
                     ((1, 4), F32, False, 2), ((6, 4), F32, False, 2))),
        Clause("a size is compared with the sizes of the earlier compiles, whatever their dtype",
               calls(((3, 4), F32, False, 2), ((3, 4), F64, False, 2), ((5, 4), F32, False, 2), ((7, 4), F64, False, 2))),
        Clause("dynamic from then on: a graph compiled later for another dtype is dynamic in that dim too",
               calls(((3, 4), F32, False, 2), ((5, 4), F32, False, 2), ((6, 4), F64, False, 2), ((9, 4), F64, False, 2))),
        Clause("the int `scale` is guarded on its value until it changes; then any int reuses the graph",
               calls(((3, 4), F32, False, 2), ((3, 4), F32, False, 2), ((3, 4), F32, False, 3), ((3, 4), F32, False, 0),
                     ((3, 4), F32, False, 1), ((3, 4), F32, False, 9))),
        Clause("several changes at once: one compile",
               calls(((3, 4), F32, False, 2), ((5, 6), F64, True, 3))),
        Clause("After 8 graphs Dynamo stops compiling this function: a call that fits none runs in Python",
               calls(*[((3, 4), dtype, grad, 2) for dtype in (F32, F64, F16) for grad in (False, True)],
                     ((1, 4), F32, False, 2), ((0, 4), F32, False, 2), ((1, 1), F32, False, 2), ((0, 0), F64, True, 2))),
    ],
    random_case=random_calls_case, random_cases=4, allowed=PLAIN_PYTHON,
    inputs="1 to 10 calls `(shape, dtype, requires_grad, scale)`: 2-D shapes with sizes from 0 to 6, dtypes "
           "'float32', 'float64' and 'float16', requires_grad True or False, scale an int from 0 to 4; "
           "mostly one thing changes from one call to the next, sometimes nothing.",
    hint="What does Dynamo keep from one compile to the next, besides the graphs themselves, and for a new call, "
         "which graph's guards would it pass?",
)


EXERCISE = Exercise(notebook="compiler", tasks=(ELIMINATE_DEAD_CODE, ELIMINATE_COMMON_SUBEXPRESSIONS, FUSE_ELEMENTWISE, SPLIT_AT_BREAKS,
                                                  SQUASH_IN_ONE_GRAPH, PREDICTED_COMPILES))
