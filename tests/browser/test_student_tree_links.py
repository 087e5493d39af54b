"""In JupyterLab, on the student tree that `make lab` serves, the welcome notebook's links open the
released exercise (stubs, no solution) and the next unit: relative links resolve as tests/test_links.py
assumes. (The welcome notebook is short, so JupyterLab renders all its cells at once.)"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from autograder.student_tree import build_student_tree

from .harness import chromium_page, jupyter_server

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

EXERCISE = "exercises/04-broadcasting/broadcasting.ipynb"


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[object, str]]:
    """JupyterLab on a fresh student tree: (page, the welcome notebook's URL with the token)."""
    root = tmp_path_factory.mktemp("student")
    build_student_tree(root)
    lab_only = ("--LabApp.news_url=", "--LabServerApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate")
    with jupyter_server("jupyterlab", root, *lab_only) as (base, token), chromium_page() as page:
        yield page, f"{base}/lab/tree/00-welcome.ipynb?token={token}"


def open_link(page, url: str, text: str) -> None:
    page.goto(url)
    link = page.locator(".jp-RenderedMarkdown").get_by_role("link", name=text, exact=True).first
    link.wait_for()
    link.click()


def current_tab(page, name: str):
    return page.locator(".lm-TabBar-tab.lm-mod-current", has_text=name)


def test_exercise_link_opens_the_released_exercise(lab: tuple[object, str]) -> None:
    page, url = lab
    open_link(page, url, "broadcasting")
    current_tab(page, Path(EXERCISE).name).wait_for()
    notebook = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook")
    notebook.get_by_text("# YOUR CODE HERE").first.wait_for()
    assert "BEGIN SOLUTION" not in notebook.inner_text()


def test_next_link_opens_the_next_unit(lab: tuple[object, str]) -> None:
    page, url = lab
    open_link(page, url, "04 · Broadcasting")
    current_tab(page, "04-broadcasting.ipynb").wait_for()
