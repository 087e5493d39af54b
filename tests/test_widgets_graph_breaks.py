"""GraphBreakExplorer: the breaks it stores are the ones torch._dynamo.explain reports, and its picture
colours each line by its graph and links the lines of one graph."""

from __future__ import annotations

import os
import re
import warnings

import pytest
import torch
import torch._dynamo as dynamo

from tensorlab.widgets import GraphBreakExplorer, GraphBreakModel
from tensorlab.widgets.graph_breaks import EXAMPLES


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_stored_breaks_are_what_explain_reports(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    namespace: dict = {"torch": torch, "os": os}
    exec(compile(EXAMPLES[name].source, f"<{name}>", "exec"), namespace)
    function = namespace[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = dynamo.explain(function)(torch.randn(6))
    model = GraphBreakModel(name)
    assert (model.graph_count, model.break_count) == (report.graph_count, report.graph_break_count)
    lines = [reason.user_stack[-1].lineno for reason in report.break_reasons]
    stored = EXAMPLES[name].breaks
    assert lines == [line for line, _, _ in stored]
    for reason, (_, text, _) in zip(report.break_reasons, stored, strict=True):
        assert reason.reason.splitlines()[0].startswith(text)


def test_lines_after_a_break_go_to_the_next_graph() -> None:
    model = GraphBreakModel("two_breaks")
    assert [line.graph for line in model.lines] == [None, 1, 1, 2, 3]
    assert [line.number for line in model.lines if line.reason] == [3, 4]


def test_svg_colours_lines_by_graph_and_links_each_graph() -> None:
    svg = GraphBreakExplorer("with_print").to_svg()
    assert svg.count('data-key="line:') == 4
    assert re.search(r'data-key="line:2" data-links="line:2 line:3"', svg)
    assert re.search(r'data-key="line:4" data-links="line:4"', svg)
    assert "print is I/O" in svg and "✗ break" in svg
    assert "2 graphs, 1 graph break" in GraphBreakExplorer("with_print").summary()


def test_unknown_example_is_refused() -> None:
    with pytest.raises(ValueError, match="known: with_print"):
        GraphBreakModel("nothing")


def test_the_menu_changes_the_function() -> None:
    explorer = GraphBreakExplorer("with_item")
    (menu,) = explorer.widget().children[:1]
    menu.value = "two_breaks"
    assert explorer.model.name == "two_breaks" and "3 graphs, 2 graph breaks" in explorer._view.info


def test_stored_sources_are_the_functions_unit_14_defines() -> None:
    """The explorer's examples stay the notebook's functions (comments aside), so its lines are the student's."""
    from pathlib import Path

    import nbformat

    notebook = nbformat.read(Path(__file__).parent.parent / "notebooks" / "14-compiler.ipynb", as_version=4)
    code = "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "code")
    for name in ("with_print", "with_item", "with_branch", "with_unsupported_call"):
        defined = re.search(rf"^def {name}\(x\):\n(?:    .*\n)+", code + "\n", re.MULTILINE)
        assert defined, name
        without_comments = "".join(re.sub(r"\s+#.*$", "", line) + "\n" for line in defined.group(0).splitlines())
        assert without_comments == EXAMPLES[name].source
