"""What "vectorised" rules out: every Python-level loop over elements, whatever it is dressed as.

A ``for`` statement is the obvious loop; a comprehension, ``map``, ``np.vectorize``, a ``key=``
callback or a function that calls itself is the same loop in disguise: Python runs once per element either way, and
that is what a vectorised version avoids (NumPy runs the loop in C, on whole arrays).
Loops over a handful of dimensions are loops too, so a vectorised part is written without any:
``tuple(range(ndim))`` and ``list(np.indices(...))`` are fine, they build a few objects once.

Static reading catches the spellings and says which one. What decides is a count: the grader runs
a vectorised part with a tracer that counts the lines of the learner's own code it executes (their
functions, lambdas and callbacks, nothing of NumPy's), on the small cases and on one large case.
Vectorised code runs about as many lines on both; code whose line count grows with the input loops
over elements, whatever construct hides it (``loop_found``). No verdict depends on the clock.
A statement that allows loops over dimensions (``loops_over_dimensions``) is judged by the count
alone: a ``for`` over ``range(x.ndim)`` runs a handful of lines on every input size.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

__all__ = ["LOOP_LINES_FACTOR", "LOOP_LINES_MARGIN", "loop_found", "loop_violations"]

LOOP_LINES_FACTOR = 4  # the large case may run this many times the lines of the busiest small case...
LOOP_LINES_MARGIN = 100  # ...plus this many: branches on sizes or ranks never look like a loop

LOOP_NODES = {
    ast.For: "a for loop", ast.AsyncFor: "a for loop", ast.While: "a while loop",
    ast.ListComp: "a list comprehension", ast.SetComp: "a set comprehension",
    ast.DictComp: "a dict comprehension", ast.GeneratorExp: "a generator expression",
}
LOOPING_FUNCTIONS = {
    "map": "map", "filter": "filter", "reduce": "functools.reduce", "accumulate": "itertools.accumulate",
    "starmap": "itertools.starmap", "vectorize": "np.vectorize", "frompyfunc": "np.frompyfunc",
    "apply_along_axis": "np.apply_along_axis", "apply_over_axes": "np.apply_over_axes",
    "fromiter": "np.fromiter", "nditer": "np.nditer", "ndindex": "np.ndindex", "ndenumerate": "np.ndenumerate",
}
LOOPING_MODULES = ("itertools",)
CALLBACK_KEYWORDS = ("key",)  # sorted(..., key=f), min, max, list.sort: f runs once per element
ITERATOR_METHODS = ("__iter__", "__next__", "__getitem__")  # NumPy calls these once per element
UFUNC_METHODS = ("reduce", "accumulate")  # np.add.reduce is a whole-array call; functools.reduce is the loop


def called_name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def is_ufunc_method(node: ast.Attribute) -> bool:
    """``np.add.reduce``, ``np.maximum.accumulate``: a ufunc's method (an attribute of an attribute), not
    ``functools.reduce`` or ``itertools.accumulate``."""
    return node.attr in UFUNC_METHODS and isinstance(node.value, ast.Attribute)


def referenced_names(node: ast.AST) -> list[str]:
    """The names a node mentions: ``map``, ``np.vectorize``, ``from numpy import vectorize``, ``getattr(np, "vectorize")``."""
    if isinstance(node, ast.Attribute) and is_ufunc_method(node):
        return []
    if isinstance(node, (ast.Name, ast.Attribute)):
        return [called_name(node) or ""]
    if isinstance(node, ast.ImportFrom):
        return [alias.name for alias in node.names]
    if (isinstance(node, ast.Call) and called_name(node.func) == "getattr" and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)):
        return [node.args[1].value]
    return []


def functions_in(statements: Sequence[ast.stmt]) -> dict[str, ast.AST]:
    """Every function by name: ``def`` statements and lambdas assigned to a name."""
    found: dict[str, ast.AST] = {}
    for statement in statements:
        for node in ast.walk(statement):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found[node.name] = node
            elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Lambda):
                found.update({target.id: node.value for target in node.targets if isinstance(target, ast.Name)})
    return found


def calls_from(function: ast.AST) -> set[str]:
    return {name for node in ast.walk(function) if isinstance(node, ast.Call) and (name := called_name(node.func))}


def recursive_functions(statements: Sequence[ast.stmt]) -> list[str]:
    """The functions that can reach themselves through calls (directly or through others)."""
    functions = functions_in(statements)
    edges = {name: calls_from(node) & set(functions) for name, node in functions.items()}
    recursive = []
    for start in functions:
        frontier, seen = set(edges[start]), set()
        while frontier:
            name = frontier.pop()
            if name == start:
                recursive.append(start)
                break
            if name not in seen:
                seen.add(name)
                frontier |= edges[name]
    return recursive


def loop_found(small_lines: int, large_lines: int) -> bool:
    """Does the learner's line count grow with the input? (The large case has many times the elements of
    any small one; a loop over elements runs its body once per element, vectorised code a fixed number of
    lines.)"""
    return large_lines > LOOP_LINES_FACTOR * small_lines + LOOP_LINES_MARGIN


def loop_violations(statements: Sequence[ast.stmt], loops_over_dimensions: bool = False) -> list[str]:
    """One sentence naming every kind of loop found in ``statements`` (a graded function and what it uses);
    with ``loops_over_dimensions``, ``for``/``while`` statements and comprehensions are left to the count."""
    found: list[str] = []
    for statement in statements:
        for node in ast.walk(statement):
            kind = None if loops_over_dimensions else LOOP_NODES.get(type(node))
            looping = [LOOPING_FUNCTIONS[name] for name in referenced_names(node) if name in LOOPING_FUNCTIONS]
            if kind is None and looping:
                kind = looping[0]
            if kind is None and isinstance(node, ast.Call) and any(k.arg in CALLBACK_KEYWORDS for k in node.keywords):
                kind = f"a {called_name(node.func) or 'call'}(..., key=...) callback (it runs once per element)"
            if kind is None and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in ITERATOR_METHODS:
                kind = f"a class with {node.name} (NumPy would call it once per element)"
            if kind is None and isinstance(node, (ast.Import, ast.ImportFrom)):
                modules = [alias.name for alias in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                kind = next((f"{module} (its functions loop in Python)" for module in modules if module in LOOPING_MODULES), None)
            if kind and kind not in found:
                found.append(kind)
    found += [f"recursion ({name} calls itself)" for name in recursive_functions(statements)]
    if not found:
        return []
    return [f"uses {' and '.join(found)}: this part asks for a vectorised version, with no Python-level loop "
            "over elements (NumPy operations on whole arrays)"]
