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
- in an exercise that names its building blocks (an allow-list: the NumPy functions, array methods and
  builtins a part may use, besides ``COMMON_NAMES`` and its own names), uses any other attribute,
  imported name or builtin; the tensor puzzles name them all (``only``, without the common ones),
- imports a private module (``numpy._core``) or reaches a private name it did not define, or sets an
  array's ``.shape``/``.strides`` (a reshape or ``as_strided`` by assignment), where those are not allowed, or
- loops over elements in a part that asks for a vectorised version (see ``vectorised.py``).

A static reading can be dodged; the grader's sandbox also refuses, at run time, importing or
reading the reference and calling the forbidden functions. ``check()`` in the notebook runs
the same rules and the same sandbox, so the two verdicts agree.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Iterable, Sequence

from .vectorised import called_name, loop_violations

__all__ = ["COMMON_NAMES", "PURE_STANDARD_LIBRARY", "REFERENCE_MODULES", "bound_names", "closure", "rule_violations"]

PURE_STANDARD_LIBRARY = (
    "math", "cmath", "itertools", "functools", "operator", "collections", "dataclasses", "typing",
    "fractions", "decimal", "numbers", "string", "heapq", "bisect", "copy", "enum", "statistics", "re",
    "warnings", "__future__",
)
REFERENCE_MODULES = ("tensorlab", "torch", "autograder")  # the answer key, and the library it copies

COMMON_NAMES = (  # what every allow-list includes: facts about arrays, NumPy's types and plain builtins
    "shape", "ndim", "dtype", "size", "itemsize", "T", "ndarray", "newaxis", "float64", "float32", "float16",
    "int64", "int32", "int16", "int8", "uint8", "bool_", "inf", "nan", "pi", "len", "range", "tuple", "list",
    "dict", "int", "float", "bool", "str", "isinstance", "min", "max", "abs", "zip", "enumerate", "slice", "print",
    "all", "any", "round", "divmod", "Ellipsis", "warn",  # warnings.warn: a warning costs nothing
)
LAYOUT_STORES = {"shape": "reshape", "strides": "as_strided"}  # ``x.shape = (3, 4)`` is a reshape in place
NAME_TAKERS = ("getattr", "methodcaller", "attrgetter")  # reach an attribute by the string they are given
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


def is_private(module: str) -> bool:
    return any(part.startswith("_") and part != "__future__" for part in module.split("."))


def import_violations(statement: ast.AST, building_blocks: Sequence[str]) -> Iterable[str]:
    for module in imported_modules(statement):
        if is_private(module):
            yield f"imports {module}: a private module (its names are NumPy's internals, never a building block)"
        elif is_within(module, building_blocks):
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
    """Every name, attribute, imported name and attribute string in ``statement``: ``getattr(np, "sum")`` and
    ``operator.methodcaller("sum")`` name ``sum``, ``x.shape = (2, 3)`` names ``reshape``, ``a @ b`` ``matmul``
    and ``astype("e")`` ``float16`` (a dtype spelled as a string)."""
    for node in ast.walk(statement):
        if isinstance(node, ast.Attribute):
            yield node.attr
            if isinstance(node.ctx, ast.Store) and node.attr in LAYOUT_STORES:
                yield LAYOUT_STORES[node.attr]
        elif isinstance(node, ast.Name):
            yield node.id
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                yield from alias.name.split(".")
        elif is_matmul(node):
            yield "matmul"
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and (dtype := dtype_named(node.value)):
            yield dtype
        elif isinstance(node, ast.Call) and called_name(node.func) in NAME_TAKERS:
            yield from (argument.value for argument in node.args
                        if isinstance(argument, ast.Constant) and isinstance(argument.value, str))


OPERATOR_SYMBOLS = {
    ast.Pow: "**", ast.BitXor: "^", ast.BitOr: "|", ast.BitAnd: "&", ast.MatMult: "@", ast.LShift: "<<",
    ast.RShift: ">>", ast.FloorDiv: "//", ast.Mod: "%", ast.Invert: "~",
}


def operator_violations(used: Sequence[ast.stmt], refused: Sequence[str]) -> Iterable[str]:
    """Operators the part refuses (the puzzles: ``**`` builds powers, ``^`` masks, without the blocks)."""
    for node in (node for statement in used for node in ast.walk(statement)):
        if isinstance(node, (ast.BinOp, ast.AugAssign, ast.UnaryOp)):
            symbol = OPERATOR_SYMBOLS.get(type(node.op))
            if symbol in refused:
                yield f"uses the operator {symbol}, which this part does not allow"


def dtype_named(text: str) -> str | None:
    """The NumPy dtype a short string spells (``"e"``, ``"f2"``, ``"half"`` are ``float16``), or None."""
    if not 0 < len(text) <= 12 or not text.replace("<", "").replace(">", "").replace("=", "").isalnum():
        return None
    import numpy as np

    try:
        return str(np.dtype(text).name)
    except (TypeError, ValueError):
        return None


def is_matmul(node: ast.AST) -> bool:
    """``a @ b`` and ``a @= b``: matmul by operator."""
    return isinstance(node, (ast.BinOp, ast.AugAssign)) and isinstance(node.op, ast.MatMult)


def reached_otherwise(statement: ast.AST, name: str) -> bool:
    """Is ``name`` also reached as an attribute, an imported name or an attribute string (not only as a variable)?"""
    for node in ast.walk(statement):
        if isinstance(node, ast.Attribute) and node.attr == name:
            return True
        if isinstance(node, (ast.Import, ast.ImportFrom)) and any(name in alias.name.split(".") for alias in node.names):
            return True
        if isinstance(node, ast.Call) and called_name(node.func) in NAME_TAKERS and any(
                isinstance(argument, ast.Constant) and argument.value == name for argument in node.args):
            return True
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and LAYOUT_STORES.get(node.attr) == name:
            return True
        if is_matmul(node) and name == "matmul":
            return True
    return False


def forbidden_violations(statement: ast.AST, function: str, forbidden: Sequence[str], mine: set[str]) -> Iterable[str]:
    """Forbidden names, matched by their last part (``take_along_axis`` however it was reached); a variable
    the code binds itself (``view = x[::2]``) is its own, not the function it is named like."""
    short_names = {name.rsplit(".", 1)[-1]: name for name in forbidden}
    bare = {node.id for node in ast.walk(statement) if isinstance(node, ast.Name)}
    reached = [name for name in named_functions(statement) if not (name in mine and name in bare and not reached_otherwise(statement, name))]
    for name in reached:
        if name in short_names and name != function:
            yield f"uses {name} ({short_names[name]} is what this exercise asks you to write yourself)"


def own_names(statements: Sequence[ast.stmt]) -> set[str]:
    """Every name the code binds itself: definitions, parameters, assignment targets, imports."""
    names = own_variables(statements).union(*(bound_names(statement) for statement in statements))
    return names | {node.name for statement in statements for node in ast.walk(statement)
                    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}


def own_variables(statements: Sequence[ast.stmt]) -> set[str]:
    """The variables and parameters the code binds itself (not its functions: a ``def`` named like a forbidden
    function, or a later puzzle, is that function for the rules)."""
    names = set[str]()
    for node in (node for statement in statements for node in ast.walk(statement)):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
    return names


def own_attributes(statements: Sequence[ast.stmt]) -> set[str]:
    """The attributes the code sets itself (``self.weight = ...``) and the methods of its own classes."""
    names = set[str]()
    for node in (node for statement in statements for node in ast.walk(statement)):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and node.attr not in LAYOUT_STORES:
            names.add(node.attr)
        elif isinstance(node, ast.ClassDef):
            names |= {item.name for item in node.body if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))}
    return names


def private_violations(used: Sequence[ast.stmt]) -> Iterable[str]:
    """``np._core``, ``x._something``: a private name the code did not define is someone's internals."""
    mine = own_attributes(used) | own_names(used)
    for node in (node for statement in used for node in ast.walk(statement)):
        name = node.attr if isinstance(node, ast.Attribute) else None
        if isinstance(node, ast.ImportFrom):
            name = next((alias.name for alias in node.names if alias.name.startswith("_")), None)
        if name and name.startswith("_") and not name.startswith("__") and name not in mine:
            yield f"uses {name}, a private name (someone's internals), which graded code may not"


def is_exception_class(name: str) -> bool:
    """Raising (``raise NotImplementedError``) is not a building block; every exception class may be named."""
    found = getattr(builtins, name, None)
    return isinstance(found, type) and issubclass(found, BaseException)


def only_violations(used: Sequence[ast.stmt], only: Sequence[str], shown: Sequence[str] | None = None) -> Iterable[str]:
    """Attributes (``np.cumsum``, ``a.sum``), imported names and builtins that are not on the ``only`` list
    (the feedback names ``shown``, the list the statement gives: the common names go without saying)."""
    mine, allowed = own_names(used), ", ".join(only if shown is None else shown)
    attributes = own_attributes(used)
    for node in (node for statement in used for node in ast.walk(statement)):
        if isinstance(node, ast.Attribute) and node.attr not in only and node.attr not in attributes:
            yield f"uses .{node.attr}, which is not one of this part's building blocks ({allowed})"
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and node.attr in LAYOUT_STORES \
                and LAYOUT_STORES[node.attr] not in only:
            yield (f"sets .{node.attr}, which is {LAYOUT_STORES[node.attr]} in disguise and not one of this part's "
                   f"building blocks ({allowed})")
        elif isinstance(node, ast.ImportFrom):
            yield from (f"imports {alias.name}, which is not one of this part's building blocks ({allowed})"
                        for alias in node.names if alias.name not in only)
        elif (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in only
              and node.id not in mine and hasattr(builtins, node.id) and not is_exception_class(node.id)):
            yield f"uses {node.id}, which is not one of this part's building blocks ({allowed})"


def rule_violations(
    statements: Sequence[ast.stmt], function: str, forbidden: Sequence[str] = (),
    vectorised: bool = False, building_blocks: Sequence[str] = ("numpy", *PURE_STANDARD_LIBRARY),
    only: Sequence[str] | None = None, allowed: Sequence[str] | None = None, loops_over_dimensions: bool = False,
    refused_operators: Sequence[str] = (),
) -> list[str]:
    """What ``function`` does that the exercise forbids (empty when it follows the rules).

    ``only``, when given, lists every attribute and builtin the code may use (besides its own names);
    ``allowed`` does the same on top of ``COMMON_NAMES``, and ``@`` counts as ``matmul`` (the puzzles' ``only``
    allows ``@`` like any arithmetic, as Tensor-Puzzles does). ``loops_over_dimensions``: a vectorised part
    whose statement allows ``for`` loops (over a few dimensions): only the counted lines decide (vectorised.py).
    """
    used = closure(statements, function)
    mine = own_variables(used)
    problems: list[str] = []
    for statement in used:
        found = [*import_violations(statement, building_blocks), *escape_violations(statement),
                 *forbidden_violations(statement, function, forbidden, mine)]
        problems += [problem for problem in found if problem not in problems]
    problems += [problem for problem in private_violations(used) if problem not in problems]
    problems += [problem for problem in operator_violations(used, refused_operators) if problem not in problems]
    if only is not None:
        problems += [problem for problem in only_violations(used, only) if problem not in problems]
    if allowed is not None:
        problems += [problem for problem in only_violations(used, (*COMMON_NAMES, *allowed), shown=allowed)
                     if problem not in problems]
        if "matmul" not in allowed and any(is_matmul(node) for statement in used for node in ast.walk(statement)):
            problems.append(f"uses @ (matmul), which is not one of this part's building blocks ({', '.join(allowed)})")
    if vectorised:
        problems += [problem for problem in loop_violations(used, loops_over_dimensions) if problem not in problems]
    return problems
