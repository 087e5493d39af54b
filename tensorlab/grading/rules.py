"""The static rules of an exercise: no forbidden functions, and no Python loops where it says so.

The rules read the source, never run it. A graded function breaks a rule when its own
definition, or any top-level definition, assignment or import it uses (directly or through
other helpers), names a forbidden function (``np.take_along_axis``, ``x.gather``,
``from torch import gather``) or, for the vectorised parts, contains a ``for`` or ``while``.
The grader also blocks the forbidden functions at run time, which catches what a static
reading cannot (``getattr(np, "take_" + "along_axis")``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Sequence

__all__ = ["bound_names", "rule_violations"]

LOOPS = (ast.For, ast.AsyncFor, ast.While)


def bound_names(statement: ast.stmt) -> set[str]:
    """The top-level names a statement binds."""
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {statement.name}
    if isinstance(statement, (ast.Import, ast.ImportFrom)):
        return {(alias.asname or alias.name).split(".")[0] for alias in statement.names}
    if isinstance(statement, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
        return {node.id for target in targets for node in ast.walk(target) if isinstance(node, ast.Name)}
    return set()


def used_names(statement: ast.stmt) -> set[str]:
    return {node.id for node in ast.walk(statement) if isinstance(node, ast.Name)}


def closure(statements: Sequence[ast.stmt], function: str) -> list[ast.stmt]:
    """The statements that define ``function`` and everything it uses, transitively."""
    wanted, seen, chosen = {function}, set(), []
    while wanted - seen:
        name = (wanted - seen).pop()
        seen.add(name)
        for statement in statements:
            if name in bound_names(statement) and statement not in chosen:
                chosen.append(statement)
                wanted |= used_names(statement)
    return chosen


def named_functions(statement: ast.stmt) -> Iterable[str]:
    for node in ast.walk(statement):
        if isinstance(node, ast.Attribute):
            yield node.attr
        elif isinstance(node, ast.Name):
            yield node.id
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                yield from alias.name.split(".")


def rule_violations(
    statements: Sequence[ast.stmt], function: str, forbidden: Sequence[str], forbid_loops: bool = False
) -> list[str]:
    """What ``function`` does that the exercise forbids (empty when it follows the rules)."""
    short_names = {name.rsplit(".", 1)[-1]: name for name in forbidden}
    problems: list[str] = []
    for statement in closure(statements, function):
        for name in named_functions(statement):
            if name in short_names and name != function:
                problem = f"uses {name} ({short_names[name]} is what this exercise asks you to write yourself)"
                if problem not in problems:
                    problems.append(problem)
        is_definition = isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef))
        if forbid_loops and is_definition and any(isinstance(node, LOOPS) for node in ast.walk(statement)):
            problems.append(f"{statement.name} uses a for/while loop; this part asks for a vectorised version")
    return problems
