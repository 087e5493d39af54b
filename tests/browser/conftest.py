"""Real-browser fixtures: a private JupyterLab server and headless Chromium driven by Playwright.

Each test module gets its own server on a free loopback port, with its own token and a temp
root folder holding a copy of the demo notebook, so xdist workers never share anything. The
server is always stopped (``finally``). Chromium is Debian's ``chromium`` package (``.ci/run``
installs it); Playwright's own browser download is never used.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
DEMO = REPO_ROOT / "notebooks" / "widgets-demo.ipynb"
ARTIFACTS = REPO_ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: drives JupyterLab in headless Chromium (slow)")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _wait_until_up(url: str, server: subprocess.Popen, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"jupyter lab exited with {server.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.3)
    raise TimeoutError(f"jupyter lab did not answer at {url} within {timeout}s")


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Start ``jupyter lab`` from this venv; yield the notebook's URL (with token); stop it."""
    root = tmp_path_factory.mktemp("lab")
    shutil.copy(DEMO, root / "demo.ipynb")
    port, token = _free_port(), secrets.token_hex(16)
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(root / ".config"), "JUPYTER_RUNTIME_DIR": str(root / ".runtime"),
           "JUPYTERLAB_WORKSPACES_DIR": str(root / ".workspaces"), "IPYTHONDIR": str(root / ".ipython"),
           "JUPYTERLAB_SETTINGS_DIR": str(root / ".settings")}
    command = [
        sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root", f"--ServerApp.port={port}",
        "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
        "--ServerApp.port_retries=0", "--LabApp.news_url=", "--LabServerApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ]
    log = (root / "server.log").open("w")
    server = subprocess.Popen(command, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        _wait_until_up(f"http://127.0.0.1:{port}/api/status?token={token}", server)
        yield f"http://127.0.0.1:{port}/lab/tree/demo.ipynb?token={token}"
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait()
        log.close()


def _open_and_run_all(page, url: str) -> None:
    page.goto(url)
    page.locator(".jp-Notebook").wait_for()
    # the status bar reads "Python 3 (ipykernel) | Idle" once a kernel is connected and idle
    _accept_dialogs_until(page, "document.querySelector('.jp-StatusBar-Widget') && document.body.innerText.includes('| Idle')")
    for attempt in range(3):  # a Run All sent while the kernel is still connecting can be lost: resend
        page.get_by_role("menuitem", name="Run", exact=True).click()
        page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
        try:
            _accept_dialogs_until(page, "document.querySelectorAll('.tl-explorer svg').length >= 3", timeout=45)
            return
        except TimeoutError:
            if attempt == 2:
                raise


def _accept_dialogs_until(page, condition: str, timeout: float = 90) -> None:
    """Wait for ``condition`` (JS), accepting JupyterLab's dialogs (e.g. "Select Kernel") meanwhile."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        accept = page.locator(".jp-Dialog .jp-mod-accept")
        if accept.count():
            accept.first.click()
        elif page.evaluate(f"Boolean({condition})"):
            return
        page.wait_for_timeout(250)
    raise TimeoutError(f"not true after {timeout}s: {condition}")


@pytest.fixture(scope="module")
def notebook_page(lab: str) -> Iterator:
    """The demo notebook open in Chromium, all cells run, every widget rendered."""
    from playwright.sync_api import sync_playwright

    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: apt-get install chromium (as .ci/run does)"
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.set_default_timeout(60_000)
            try:
                _open_and_run_all(page, lab)
            except Exception:
                page.screenshot(path=str(ARTIFACTS / "failed-to-render.png"))
                raise
            yield page
        finally:
            browser.close()
