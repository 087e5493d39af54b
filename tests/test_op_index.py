"""docs/op-index.md is generated from the code (docs/make_op_index.py) and must be up to date."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_op_index", ROOT / "docs" / "make_op_index.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_op_index_is_up_to_date() -> None:
    expected = _generator().build()
    assert (ROOT / "docs" / "op-index.md").read_text() == expected, "run: python docs/make_op_index.py"


def test_every_function_link_points_at_its_class() -> None:
    """A row's Function link lands on the line that defines the class (forward and backward follow)."""
    text = (ROOT / "docs" / "op-index.md").read_text()
    links = re.findall(r"\[`(\w+)`\]\(\.\./([\w/.]+)#L(\d+)\)", text)
    assert len(links) > 150
    for name, path, line in links:
        source = (ROOT / path).read_text().splitlines()[int(line) - 1]
        assert re.match(rf"(class {name}\b|{name}\s*=)", source), (name, path, line, source)


def test_gather_row_names_its_function_its_test_and_its_notebook() -> None:
    row = next(line for line in (ROOT / "docs" / "op-index.md").read_text().splitlines() if line.startswith("| `gather` |"))
    assert "`PickElements`" in row and "tests/test_gather_scatter.py" in row and "08-gather-scatter" in row
