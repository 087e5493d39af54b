"""Acceptors: how a result is judged when more than one answer is right.

A task names its acceptor (``accept="topological_order"``) instead of carrying code, so that the
released cases stay plain data and ``check()`` in a student's notebook judges exactly as the grader
does. Each acceptor takes the case's arguments, the reference's outcome and the learner's result, and
returns None when the result is right, else what is wrong. None of them computes an answer: each
checks one against what the case and the reference already say.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .compare import describe, difference, type_name

__all__ = ["ACCEPTORS", "strides_problem"]


def topological_order(case: tuple, expected: list[str], got: Any) -> str | None:
    """Any order is right that lists each reachable node once, the root first, each node before its inputs.

    The case is ``(graph, root)``, the graph a dict from a node to the nodes it is computed from.
    """
    graph, root = case
    if type(got) is not list or not all(type(node) is str for node in got):
        return f"expected a list of node names, got {type(got).__name__}: {got!r}"[:200]
    if sorted(got) != sorted(expected):
        return f"expected each of the nodes {sorted(expected)} exactly once, got {got}"
    if got[0] != root:
        return f"the output {root!r} must come first, got {got}"
    position = {node: i for i, node in enumerate(got)}
    edges = [(node, source) for node, sources in graph.items() if node in position for source in sources]
    late = [(node, source) for node, source in edges if position[source] < position[node]]
    if late:
        node, source = late[0]
        return f"{source!r} comes before {node!r}, but {node!r} is computed from {source!r}"
    return None


def strides_problem(shape: Sequence[int], expected: Any, got: Any, what: str = "strides") -> str | None:
    """None when ``got`` equals the expected strides in every dim whose size is not 1 (a size-1 dim's
    stride never moves the pointer, so any int is right there); else what is wrong."""
    if type(got) is not tuple:
        return f"expected the {what} as a tuple, got {type_name(got)} ({describe(got, 60)})"
    if len(got) != len(expected):
        return f"expected {len(expected)} {what}, one per dim of {tuple(shape)}, got {len(got)}: {describe(got, 60)}"
    for dim, (size, want, have) in enumerate(zip(shape, expected, got, strict=True)):
        if type(have) is not int:
            return f"each stride must be a Python int; {what}[{dim}] is {type_name(have)}"
        if size != 1 and have != want:
            return f"wrong {what}[{dim}] (a dim of size {size}): expected {want}, got {have}"
    return None


def view_strides(case: tuple, expected: Any, got: Any) -> str | None:
    """Strides of a view of shape ``case[2]`` (or None for no view), size-1 dims free."""
    if expected is None or got is None:
        return difference(expected, got)
    return strides_problem(case[2], expected, got)


def layout(case: tuple, expected: Any, got: Any) -> str | None:
    """``got`` must be (shape, strides): the shape exactly, the strides as :func:`strides_problem` says."""
    if type(got) is not tuple or len(got) != 2:
        return f"expected a tuple (shape, strides), got {describe(got, 60)}"
    problem = difference(expected[0], got[0], where="shape")
    return problem or strides_problem(expected[0], expected[1], got[1])


def any_of(case: tuple, expected: list[Any], got: Any) -> str | None:
    """The reference lists every right answer (all the plans of least cost, say): ``got`` must be one of them."""
    if any(difference(answer, got) is None for answer in expected):
        return None
    shown = ", ".join(describe(answer, 80) for answer in expected[:3]) + (", …" if len(expected) > 3 else "")
    return f"expected one of the right answers ({shown}), got {describe(got, 80)}"


ACCEPTORS: dict[str, Callable[[tuple, Any, Any], str | None]] = {
    "topological_order": topological_order,
    "view_strides": view_strides,
    "layout": layout,
    "any_of": any_of,
}
