"""Write docs/op-index.md: every public op -> its Function class -> its first test -> the notebook cells.

Run ``python docs/make_op_index.py`` after changing an op, a test or a notebook (``--check`` only
says whether the file is up to date; tests/test_op_index.py runs it). Everything is found by
reading the code, nothing is typed by hand:

- **Which names are ops.** A function of the ``tensorlab`` namespace defined in ``tensorlab/ops/``,
  a named Tensor method (the family classes of ``tensorlab/_tensor_methods.py``), or a function of
  ``tensorlab.nn.functional``. Creation functions (zeros, arange...), dtypes and grad modes are not
  ops: they compute nothing from a tensor.
- **Its Function.** The ``autograd.Function`` subclasses the op's code names, following the
  functions it calls until some are found (``tile`` calls ``repeat``, which applies ``Repeat``).
  The class holds forward and backward side by side, so its line is where both are.
- **Its test.** The first test, in the test file named after the op's module when one calls it
  (``test_gather_scatter.py`` for ``ops/gather_scatter.py``), that contains ``.name(``.
- **Its notebook cells.** Code cells that call ``.name(`` and markdown cells that show ``name`` in
  inline code, numbered from 1 in the order JupyterLab shows them.
"""

from __future__ import annotations

import ast
import inspect
import json
import re
import sys
import textwrap
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "docs" / "op-index.md"
MAX_DEPTH = 4  # calls followed from an op to find its Functions
MAX_CELLS = 4  # cells listed per notebook
# Op modules whose tests live in a file named after their family rather than after the module.
TEST_FILE_FAMILY = dict.fromkeys(("arithmetic", "unary_math", "comparison", "inplace", "promotion"), "elementwise")


def _tensorlab() -> ModuleType:
    sys.path.insert(0, str(ROOT))
    import tensorlab
    import tensorlab.nn.functional

    return tensorlab


# --- which names are ops ----------------------------------------------------------------------
def public_ops(tl: ModuleType) -> dict[str, dict[str, Any]]:
    """name -> {"tensorlab": fn, "Tensor": method, "nn.functional": fn}, whichever exist."""
    from tensorlab import _tensor_methods
    from tensorlab.overrides import is_dispatchable

    def op(value: Any) -> Any:  # the op under the wrapper that offers each call to function modes
        return value.__wrapped__ if is_dispatchable(value) else value

    ops: dict[str, dict[str, Any]] = {}
    for name in dir(tl):
        value = op(getattr(tl, name))
        if inspect.isfunction(value) and value.__module__.startswith("tensorlab.ops.") and not name.startswith("_"):
            ops.setdefault(name, {})["tensorlab"] = inspect.unwrap(value)  # the op inside its out= wrapper
    for name, method in _tensor_methods.named_methods().items():
        ops.setdefault(name, {})["Tensor"] = method.fget if isinstance(method, property) else method
    for name in tl.nn.functional.__all__:
        ops.setdefault(name, {})["nn.functional"] = op(getattr(tl.nn.functional, name))
    return dict(sorted(ops.items(), key=lambda item: item[0].lower()))


# --- its Function -----------------------------------------------------------------------------
def _referenced(fn: Callable) -> list[Any]:
    """The objects a function's code names: globals and closure cells it reads (``Repeat``), and
    attributes of tensorlab modules (``arithmetic.add``); ``np.repeat`` is not ``repeat``."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):
        return []
    closure = inspect.getclosurevars(fn).nonlocals
    scope = {**fn.__globals__, **closure}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in scope:
            found.append(inspect.unwrap(scope[node.id]))  # unwrap: functools.cache
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            module = scope.get(node.value.id)
            if isinstance(module, ModuleType) and module.__name__.startswith("tensorlab"):
                found.append(getattr(module, node.attr, None))
    return found


def functions_of(fn: Callable, function_class: type) -> list[type]:
    """The Function subclasses ``fn`` applies: breadth first through the calls it makes."""
    frontier, seen = [fn], {id(fn)}
    for _ in range(MAX_DEPTH):
        classes: set[type] = set()
        callees = []
        for f in frontier:
            for obj in _referenced(f):
                if inspect.isclass(obj) and issubclass(obj, function_class) and obj is not function_class:
                    classes.add(obj)
                elif inspect.isfunction(obj) and obj.__module__.startswith("tensorlab") and id(obj) not in seen:
                    seen.add(id(obj))
                    callees.append(obj)
        if classes:
            return sorted(classes, key=_where)
        frontier = callees
    return []


@cache
def _definitions(source: Path) -> dict[str, int]:
    """name -> line of each ``class Name`` and ``Name = ...`` at the top level of a file."""
    lines: dict[str, int] = {}
    for node in ast.parse(source.read_text()).body:
        if isinstance(node, ast.ClassDef):
            lines[node.name] = node.lineno
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        lines.setdefault(name.id, node.lineno)
    return lines


def _where(cls: type) -> tuple[str, int]:
    """File (relative to the repository) and line of a class: its ``class`` statement, or the
    assignment that makes it (``Floor = _zero_grad_unary("Floor", np.floor)``)."""
    source = Path(inspect.getsourcefile(cls) or "").resolve()
    return source.relative_to(ROOT).as_posix(), _definitions(source)[cls.__name__]


# --- its test and its notebook cells -----------------------------------------------------------
PROPERTIES = ("T", "mT")  # read without a call: ``x.T``
ATTRIBUTE = re.compile(r"\.([A-Za-z_]\w*)(\()?")


def _first_uses(text: str) -> dict[str, int]:
    """name -> offset of the first ``.name(`` in text (``.name`` for the properties)."""
    first: dict[str, int] = {}
    for match in ATTRIBUTE.finditer(text):
        name = match.group(1)
        if (match.group(2) or name in PROPERTIES) and name not in first:
            first[name] = match.start()
    return first


def _test_spans(path: Path) -> list[tuple[int, int, str]]:
    """(first line, last line, name) of every test function, decorators included."""
    tree = ast.parse(path.read_text())
    spans = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            spans.append((first, node.end_lineno or node.lineno, node.name))
    return sorted(spans)


class TestFinder:
    def __init__(self, tests: Path) -> None:
        self.files = sorted(tests.glob("test_*.py"))
        self.texts = {p: p.read_text() for p in self.files}
        self.first = {p: _first_uses(text) for p, text in self.texts.items()}
        self.spans = {p: _test_spans(p) for p in self.files}

    def first_test(self, name: str, module: str) -> str:
        """``tests/file.py:line test_name`` of the first test that calls ``.name(``."""
        family = module.rsplit(".", 1)[-1]
        family = TEST_FILE_FAMILY.get(family, family).rstrip("s")
        preferred = [p for p in self.files if p.stem.removeprefix("test_").startswith(family)]
        for path in preferred + [p for p in self.files if p not in preferred]:
            if name in self.first[path]:
                number = self.texts[path].count("\n", 0, self.first[path][name]) + 1
                test = next((s for s in self.spans[path] if s[0] <= number <= s[1]), None)
                where = f"tests/{path.name}:{test[0] if test else number}"
                return f"[{where}](../{where.replace(':', '#L')})" + (f" `{test[2]}`" if test else "")
        return "—"


INLINE_CODE = re.compile(r"`([^`\n]*)`")
WORD = re.compile(r"[A-Za-z_]\w*")


class CellFinder:
    def __init__(self, notebooks: Path) -> None:
        self.names: dict[str, list[set[str]]] = {}  # notebook -> for each cell, the op names it shows
        for path in sorted(notebooks.glob("*.ipynb")):
            cells = json.loads(path.read_text())["cells"]
            self.names[path.stem] = [
                set(_first_uses(source)) if cell["cell_type"] == "code"
                else {word for code in INLINE_CODE.findall(source) for word in WORD.findall(code)}
                for cell in cells for source in ["".join(cell["source"])]
            ]

    def cells_teaching(self, name: str) -> str:
        found = []
        for notebook, cells in self.names.items():
            numbers = [n for n, names in enumerate(cells, start=1) if name in names]
            if numbers:
                shown = ", ".join(f"#{n}" for n in numbers[:MAX_CELLS]) + (" …" if len(numbers) > MAX_CELLS else "")
                found.append(f"{notebook} {shown}")
        return "; ".join(found) or "—"


# --- the page ---------------------------------------------------------------------------------
HEADER = """# Op index

Every public op of tensorlab: where it is called from, the `autograd.Function` that holds its
forward and backward (side by side, in one class), the first test that calls it, and the notebook
cells that teach it. Generated by `python docs/make_op_index.py` from the code itself (the rules are
in that script's docstring); `tests/test_op_index.py` fails when this page is out of date.

- **op**: the name; **called as**: `tl.name(...)` (the `tensorlab` namespace), `x.name(...)` (a
  Tensor method), `F.name(...)` (`tensorlab.nn.functional`).
- **Function**: the classes the op applies; `—` for ops that record no graph (comparisons,
  `nonzero`, `equal`) or are compositions whose pieces have their own rows (`linear` is `addmm`).
- **first test**: in the test file named after the op's module when one calls it.
- **taught in**: notebook and cell numbers (1-based, as JupyterLab lists them).
"""


def _called_as(forms: dict[str, Any], name: str) -> str:
    shown = {"tensorlab": f"`tl.{name}`", "Tensor": f"`x.{name}`", "nn.functional": f"`F.{name}`"}
    return ", ".join(shown[kind] for kind in shown if kind in forms)


def build() -> str:
    tl = _tensorlab()
    from tensorlab.autograd.function import Function

    tests, cells = TestFinder(ROOT / "tests"), CellFinder(ROOT / "notebooks")
    rows = ["| op | called as | Function (forward + backward) | first test | taught in |", "| --- | --- | --- | --- | --- |"]
    for name, forms in public_ops(tl).items():
        functions: list[type] = []
        for fn in forms.values():
            functions += [c for c in functions_of(fn, Function) if c not in functions]
        links = []
        for cls in functions:
            path, line = _where(cls)
            links.append(f"[`{cls.__name__}`](../{path}#L{line}) {path.removeprefix('tensorlab/')}:{line}")
        module = next(iter(forms.values())).__module__
        rows.append(
            f"| `{name}` | {_called_as(forms, name)} | {'<br>'.join(links) or '—'} | "
            f"{tests.first_test(name, module)} | {cells.cells_teaching(name)} |"
        )
    return HEADER + "\n" + "\n".join(rows) + "\n"


def main(argv: Iterable[str]) -> int:
    text = build()
    if "--check" in list(argv):
        if not OUTPUT.exists() or OUTPUT.read_text() != text:
            print(f"{OUTPUT.relative_to(ROOT)} is out of date: run python docs/make_op_index.py")
            return 1
        return 0
    OUTPUT.write_text(text)
    print(f"wrote {OUTPUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
