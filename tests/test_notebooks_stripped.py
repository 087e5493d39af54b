"""Notebooks are committed without outputs, so diffs stay readable and learners start clean."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted(
    path
    for folder in ("notebooks", "exercises")
    for path in (REPO_ROOT / folder).rglob("*.ipynb")
    if ".ipynb_checkpoints" not in path.parts
)


def test_there_are_notebooks_to_check() -> None:
    assert NOTEBOOKS, "no .ipynb under notebooks/ or exercises/"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: str(path.relative_to(REPO_ROOT)))
def test_notebook_has_no_outputs(path: Path) -> None:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    dirty = [
        index
        for index, cell in enumerate(notebook["cells"])
        if cell["cell_type"] == "code" and (cell.get("outputs") or cell.get("execution_count") is not None)
    ]
    assert not dirty, f"{path.name}: code cells {dirty} have outputs or execution counts; clear them before committing"
    assert "widgets" not in notebook.get("metadata", {}), f"{path.name}: saved widget state in the metadata"
