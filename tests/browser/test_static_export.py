"""A static HTML export shows every widget: ``jupyter nbconvert --to html`` of a notebook executed
with its widget state saved, opened in headless Chromium with no kernel and no network.

With widget state saved, nbconvert prefers each widget's view (which needs the widget manager from
a CDN) over any other MIME type of the same output, so the picture must be an output of its own
(``tensorlab/widgets/fallback.py``). Each picture must be on screen and hold all of its text.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from .harness import ARTIFACTS, chromium_page

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

QUESTION = "Which view of x = torch.arange(6).view(2, 3) is contiguous?"
OPTIONS = ["x.t()", "x[:, ::2]", "x[1:]"]
# Each explorer in a state whose labels are long: torch's error messages, a chain of view ops.
CELLS = [
    "import tensorlab as torch\n"
    "from tensorlab.widgets import BroadcastExplorer, GraphExplorer, StrideExplorer\n"
    "from tensorlab.widgets.quiz import MultipleChoice",
    "BroadcastExplorer((2, 3), (4,))",
    "BroadcastExplorer((2, 1, 2, 3), (4, 3, 2), matmul=True)",
    'StrideExplorer((2, 3), "x.t().view(6)")',
    'StrideExplorer((2, 2), "x.unsqueeze(0).expand(2, 2, 2).transpose(0, 2)")',
    "x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\n"
    "w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)\n"
    "loss = ((x * w).exp() + x).sum()\n"
    'GraphExplorer(loss, names={"x": x, "w": w, "loss": loss}, step=2)',
    f"MultipleChoice({QUESTION!r}, {OPTIONS!r}, answer=2, explanation='Dropping leading rows keeps strides (3, 1).')",
]
EXPLORERS = 5

# JS, for one <svg>: the <text> elements whose box (in the font the page really uses) leaves the
# viewBox, each as "label: box".
TEXT_OUTSIDE_VIEWBOX = """svg => {
    const view = svg.viewBox.baseVal;
    return [...svg.querySelectorAll('text')].map(text => [text.textContent, text.getBBox()])
        .filter(([, box]) => box.x < view.x - 0.5 || box.y < view.y - 0.5
            || box.x + box.width > view.x + view.width + 0.5 || box.y + box.height > view.y + view.height + 0.5)
        .map(([label, box]) => `${label}: x ${box.x} y ${box.y} w ${box.width} h ${box.height}`);
}"""
# JS, for one element: is it what the page shows at its own centre (not covered, not transparent)?
ON_TOP_AT_CENTRE = """element => {
    const box = element.getBoundingClientRect();
    const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    return hit !== null && (element === hit || element.contains(hit));
}"""


def export_executed_notebook(folder: Path) -> Path:
    """Run CELLS with nbclient, saving widget state as JupyterLab does, then ``nbconvert --to html``."""
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in CELLS])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    NotebookClient(notebook, timeout=60, kernel_name="python3", store_widget_state=True,
                   resources={"metadata": {"path": str(folder)}}).execute()
    state = notebook.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    assert state, "no widget state saved: the export would not exercise the widget view"
    path = folder / "widgets.ipynb"
    nbformat.write(notebook, path)
    subprocess.run([sys.executable, "-m", "jupyter", "nbconvert", "--to", "html", str(path)],
                   check=True, capture_output=True, timeout=120)
    return path.with_suffix(".html")


@pytest.fixture(scope="module")
def exported_page(tmp_path_factory: pytest.TempPathFactory) -> Iterator:
    """The export open in Chromium; every request off this machine is refused (and counted)."""
    html = export_executed_notebook(tmp_path_factory.mktemp("export"))
    assert "application/vnd.jupyter.widget-view+json" in html.read_text(encoding="utf-8")
    with chromium_page() as page:
        refused: list[str] = []
        page.route(re.compile(r"^(https?|wss?)://"), lambda route: (refused.append(route.request.url), route.abort()))
        page.goto(html.as_uri(), wait_until="load")
        yield page, refused


def test_no_kernel_and_no_network(exported_page) -> None:
    """The page tried the CDN for the widget manager (and was refused): nothing live can render."""
    page, refused = exported_page
    assert any("html-manager" in url for url in refused), refused
    assert page.locator(".tl-explorer, .widget-radio-box").count() == 0


def test_every_explorer_picture_is_on_screen_and_holds_its_text(exported_page) -> None:
    page, _ = exported_page
    pictures = page.locator(".tl-fallback svg.tl-svg")
    assert pictures.count() == EXPLORERS
    width = page.evaluate("document.documentElement.clientWidth")
    for index in range(EXPLORERS):
        picture = pictures.nth(index)
        picture.scroll_into_view_if_needed()
        box = picture.bounding_box()
        assert box is not None and box["width"] > 0 and box["height"] > 0, f"picture {index} has no size"
        assert 0 <= box["x"] and box["x"] + box["width"] <= width, f"picture {index} runs off the page: {box}"
        assert picture.evaluate(ON_TOP_AT_CENTRE), f"picture {index} is hidden or covered"
        assert picture.locator("text").count() > 0
        assert picture.evaluate(TEXT_OUTSIDE_VIEWBOX) == [], f"picture {index} clips its text"
    explorer_text = page.locator(".tl-fallback").first.inner_text()
    assert "must match the size of tensor b (4) at non-singleton dimension 1" in explorer_text  # the info line
    page.screenshot(path=str(ARTIFACTS / "static-export.png"), full_page=True)


def test_quiz_reads_as_question_and_options(exported_page) -> None:
    page, _ = exported_page
    quiz = page.locator(".tl-fallback .tl-quiz")
    assert quiz.count() == 1
    quiz.scroll_into_view_if_needed()
    assert quiz.is_visible() and quiz.evaluate(ON_TOP_AT_CENTRE)
    text = quiz.inner_text()
    assert QUESTION in text and all(f"({letter}) {option}" in text for letter, option in zip("abc", OPTIONS, strict=True))
    assert "Dropping leading rows" not in text  # the answer stays folded until "Show the answer"
