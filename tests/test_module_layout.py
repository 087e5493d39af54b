"""The library stays readable as it grows: no module over 600 lines, and the core never reaches up.

A learner opens one file to read one concept; a module past 600 lines holds several and should be
split. The core (the tensor, its storage, the ops and autograd) is what every other part builds on,
so it must not import the parts built on it (``nn``, ``optim``, ``func``, ``widgets``, grading): an
import graph that points up makes the core impossible to read on its own.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = ROOT / "tensorlab"
MOST_LINES = 600
CORE = ["_tensor.py", "_storage.py", "_dtype.py", "_creation.py", "serialization.py", "ops", "autograd"]
ABOVE_THE_CORE = ["nn", "optim", "func", "widgets", "grading", "fx", "utils.data", "distributed", "kernels"]
# torch.autograd.functional's jacobian/hessian are a second front door to the transforms of ``func``,
# which are built on autograd: that module belongs above the core, beside ``func``.
FRONT_DOORS = [LIBRARY / "autograd" / "functional.py"]


def library_modules() -> list[Path]:
    return sorted(LIBRARY.rglob("*.py"))


def core_modules() -> list[Path]:
    found: list[Path] = []
    for name in CORE:
        path = LIBRARY / name
        found.extend(sorted(path.rglob("*.py")) if path.is_dir() else [path])
    return [module for module in found if module not in FRONT_DOORS]


@pytest.mark.parametrize("module", library_modules(), ids=lambda p: str(p.relative_to(LIBRARY)))
def test_no_module_is_longer_than_600_lines(module: Path) -> None:
    lines = len(module.read_text(encoding="utf-8").splitlines())
    assert lines <= MOST_LINES, f"{module.relative_to(ROOT)} has {lines} lines: split it by concept"


def imported_modules(module: Path) -> list[str]:
    """Every module ``module`` imports, as an absolute dotted name (relative imports resolved)."""
    package = ".".join(module.relative_to(ROOT).with_suffix("").parts[:-1])
    names: list[str] = []
    for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            stem = ".".join([*base, node.module] if node.module else base)
            names.append(stem)
            names.extend(f"{stem}.{alias.name}" for alias in node.names)
    return names


@pytest.mark.parametrize("module", core_modules(), ids=lambda p: str(p.relative_to(LIBRARY)))
def test_the_core_never_imports_what_is_built_on_it(module: Path) -> None:
    upward = [
        name
        for name in imported_modules(module)
        for part in ABOVE_THE_CORE
        if name == f"tensorlab.{part}" or name.startswith(f"tensorlab.{part}.")
    ]
    assert not upward, f"{module.relative_to(ROOT)} imports {sorted(set(upward))}"


def test_the_import_resolver_sees_relative_imports() -> None:
    """The check above would pass vacuously if relative imports were not resolved."""
    names = imported_modules(LIBRARY / "ops" / "arithmetic.py")
    assert any(name.startswith("tensorlab._tensor") for name in names), names
