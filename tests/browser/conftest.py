"""Real-browser fixtures: the demo notebook open in headless Chromium, all cells run, in a private
JupyterLab 4 or Notebook 7 server (the machinery is in ``harness.py``).

Each test module gets its own server on a free loopback port, with its own token and a temp root
folder, so xdist workers never share anything.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .harness import chromium_page, jupyter_server, open_and_run_all


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: drives JupyterLab or Notebook 7 in headless Chromium (slow)")


@pytest.fixture(scope="module")
def notebook_page(tmp_path_factory: pytest.TempPathFactory) -> Iterator:
    """JupyterLab 4: the demo notebook with all cells run and every explorer rendered."""
    root = tmp_path_factory.mktemp("lab")
    lab_only = ("--LabApp.news_url=", "--LabServerApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate")
    with jupyter_server("jupyterlab", root, *lab_only) as (base, token), chromium_page() as page:
        open_and_run_all(page, f"{base}/lab/tree/demo.ipynb?token={token}", token, "failed-to-render.png")
        yield page


@pytest.fixture(scope="module")
def notebook7_page(tmp_path_factory: pytest.TempPathFactory) -> Iterator:
    """Notebook 7: the demo notebook with all cells run and every explorer rendered."""
    root = tmp_path_factory.mktemp("notebook7")
    with jupyter_server("notebook", root) as (base, token), chromium_page() as page:
        open_and_run_all(page, f"{base}/notebooks/demo.ipynb?token={token}", token, "notebook7-failed-to-render.png")
        yield page
