"""The static rules of an exercise: allowed building blocks, no escape hatches, no loops where it says so.

The rules read the source, never run it. A graded function is judged together with everything
it uses: its own definition and every top-level definition, assignment or import it reaches
(directly or through other helpers), so ``T = tensorlab.tensor`` in an earlier cell counts
against the function that calls ``T``. It breaks a rule when that code

- imports a module outside the exercise's building blocks (NumPy and the pure standard library
  by default; ``tensorlab`` and ``torch`` never, unless the exercise allows them),
- reaches around the rules: ``__import__``, ``eval``, ``exec``, ``globals()``, ``getattr`` with a
  computed name, ``__globals__``/``__subclasses__``-style introspection, frames,
- names a function the exercise forbids (``np.take_along_axis`` in "write gather"),
- in an exercise that names its only building blocks (the tensor puzzles: ``arange``, ``where``,
  indexing, arithmetic), uses any other attribute, imported name or builtin, or
- loops over elements in a part that asks for a vectorised version (see ``vectorised.py``).

A static reading can be dodged; the grader's sandbox also refuses, at run time, importing or
reading the reference and calling the forbidden functions. ``check()`` in the notebook runs
the same rules and the same sandbox, so the two verdicts agree.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Iterable, Sequence

from .vectorised import loop_violations

__all__ = ["PURE_STANDARD_LIBRARY", "REFERENCE_MODULES", "bound_names", "closure", "rule_violations"]

PURE_STANDARD_LIBRARY = (
    "math", "cmath", "itertools", "functools", "operator", "collections", "dataclasses", "typing",
    "fractions", "decimal", "numbers", "string", "heapq", "bisect", "copy", "enum", "statistics", "re",
    "warnings", "__future__",
)
REFERENCE_MODULES = ("tensorlab", "torch", "autograder")  # the answer key, and the library it copies

ESCAPE_NAMES = {
    "__import__": "imports by name", "eval": "runs code from a string", "exec": "runs code from a string",
    "compile": "builds code from a string", "globals": "reads the notebook's globals",
    "locals": "reads variables by name", "vars": "reads variables by name", "open": "reads files",
    "breakpoint": "starts a debugger", "input": "waits for typing", "__builtins__": "reaches the builtins",
    "__loader__": "reaches the import system", "__spec__": "reaches the import system",
}
DYNAMIC_ATTRIBUTE_FUNCTIONS = ("getattr", "setattr", "delattr", "hasattr")
INTROSPECTION_ATTRIBUTES = {
    "__globals__", "__dict__", "__class__", "__subclasses__", "__builtins__", "__code__", "__closure__",
    "__self__", "__module__", "__bases__", "__base__", "__mro__", "__loader__", "__spec__", "__func__",
    "__wrapped__", "__reduce__", "__reduce_ex__", "__getattribute__", "__import__", "__defaults__",
    "__kwdefaults__", "__objclass__", "__init_subclass__", "__subclasshook__", "__getstate__",
    "f_globals", "f_locals", "f_back", "f_builtins", "f_code", "gi_frame", "gi_code", "cr_frame",
    "ag_frame", "tb_frame", "tb_next", "func_globals", "modules",
}


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
    """The statements that define ``function`` and everything it uses, transitively.

    Star imports (``from numpy import *``) bind names nobody can list, so they are always in.
    """
    wanted, seen, chosen = {function, "*"}, set[str](), list[ast.stmt]()
    while wanted - seen:
        name = (wanted - seen).pop()
        seen.add(name)
        for statement in statements:
            if name in bound_names(statement) and statement not in chosen:
                chosen.append(statement)
                wanted |= used_names(statement)
    return chosen


def imported_modules(statement: ast.AST) -> Iterable[str]:
    for node in ast.walk(statement):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            yield "." if node.level else (node.module or "")


def is_within(module: str, packages: Iterable[str]) -> bool:
    return any(module == package or module.startswith(package + ".") for package in packages)


def import_violations(statement: ast.AST, building_blocks: Sequence[str]) -> Iterable[str]:
    for module in imported_modules(statement):
        if is_within(module, building_blocks):
            continue
        if is_within(module, REFERENCE_MODULES):
            yield f"imports {module}: the reference library is not allowed here, the point is to write it yourself"
        else:
            allowed = ", ".join(block for block in building_blocks if block != "__future__")
            yield f"imports {module}: this exercise allows only {allowed}"


def escape_violations(statement: ast.AST) -> Iterable[str]:
    """Ways around the other rules: code from strings, attributes by computed name, introspection."""
    for node in ast.walk(statement):
        if isinstance(node, ast.Name) and node.id in ESCAPE_NAMES:
            yield f"uses {node.id} ({ESCAPE_NAMES[node.id]}), which graded code may not"
        elif isinstance(node, ast.Attribute) and node.attr in INTROSPECTION_ATTRIBUTES:
            yield f"uses .{node.attr} (Python introspection), which graded code may not"
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in DYNAMIC_ATTRIBUTE_FUNCTIONS and len(node.args) >= 2):
            attribute = node.args[1]
            if not (isinstance(attribute, ast.Constant) and isinstance(attribute.value, str)):
                yield f"uses {node.func.id} with a computed attribute name, which graded code may not"
            elif attribute.value in INTROSPECTION_ATTRIBUTES:
                yield f"uses {node.func.id}(…, {attribute.value!r}) (Python introspection), which graded code may not"


def named_functions(statement: ast.AST) -> Iterable[str]:
    """Every name, attribute, imported name and constant attribute string in ``statement``."""
    for node in ast.walk(statement):
        if isinstance(node, ast.Attribute):
            yield node.attr
        elif isinstance(node, ast.Name):
            yield node.id
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                yield from alias.name.split(".")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr"
              and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)):
            yield node.args[1].value


def forbidden_violations(statement: ast.AST, function: str, forbidden: Sequence[str]) -> Iterable[str]:
    short_names = {name.rsplit(".", 1)[-1]: name for name in forbidden}
    for name in named_functions(statement):
        if name in short_names and name != function:
            yield f"uses {name} ({short_names[name]} is what this exercise asks you to write yourself)"


def own_names(statements: Sequence[ast.stmt]) -> set[str]:
    """Every name the code binds itself: definitions, parameters, assignment targets, imports."""
    names = set[str]().union(*(bound_names(statement) for statement in statements))
    for node in (node for statement in statements for node in ast.walk(statement)):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
    return names


def is_exception_class(name: str) -> bool:
    """Raising (``raise NotImplementedError``) is not a building block; every exception class may be named."""
    found = getattr(builtins, name, None)
    return isinstance(found, type) and issubclass(found, BaseException)


def only_violations(used: Sequence[ast.stmt], only: Sequence[str]) -> Iterable[str]:
    """Attributes (``np.cumsum``, ``a.sum``), imported names and builtins that are not on the ``only`` list."""
    mine, allowed = own_names(used), ", ".join(only)
    for node in (node for statement in used for node in ast.walk(statement)):
        if isinstance(node, ast.Attribute) and node.attr not in only:
            yield f"uses .{node.attr}, which is not one of this exercise's building blocks ({allowed})"
        elif isinstance(node, ast.ImportFrom):
            yield from (f"imports {alias.name}, which is not one of this exercise's building blocks ({allowed})"
                        for alias in node.names if alias.name not in only)
        elif (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in only
              and node.id not in mine and hasattr(builtins, node.id) and not is_exception_class(node.id)):
            yield f"uses {node.id}, which is not one of this exercise's building blocks ({allowed})"


def rule_violations(
    statements: Sequence[ast.stmt], function: str, forbidden: Sequence[str] = (),
    vectorised: bool = False, building_blocks: Sequence[str] = ("numpy", *PURE_STANDARD_LIBRARY),
    only: Sequence[str] | None = None,
) -> list[str]:
    """What ``function`` does that the exercise forbids (empty when it follows the rules).

    ``only``, when given, lists every attribute and builtin the code may use (besides its own names).
    """
    used = closure(statements, function)
    problems: list[str] = []
    for statement in used:
        found = [*import_violations(statement, building_blocks), *escape_violations(statement),
                 *forbidden_violations(statement, function, forbidden)]
        problems += [problem for problem in found if problem not in problems]
    if only is not None:
        problems += [problem for problem in only_violations(used, only) if problem not in problems]
    if vectorised:
        problems += [problem for problem in loop_violations(used) if problem not in problems]
    return problems
