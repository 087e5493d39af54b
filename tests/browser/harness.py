"""Shared machinery of the browser tests: a private Jupyter server, headless Chromium, and the
few page actions every front end needs (wait for the kernel, run all cells, find an explorer).

JupyterLab 4 and Notebook 7 are built from the same components (``.jp-Notebook``, the Lumino
menu bar, ``.jp-Dialog``), so one set of helpers drives both; only the server module and the
notebook's URL differ. Chromium is Debian's ``chromium`` package (``.ci/run`` installs it);
Playwright's own browser download is never used.
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
from contextlib import contextmanager
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
DEMO = REPO_ROOT / "notebooks" / "widgets-demo.ipynb"
ARTIFACTS = REPO_ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
EXPLORERS_IN_DEMO = 5
WIDGETS_IN_DEMO = EXPLORERS_IN_DEMO + 1  # the explorers and a quiz, each with a static fallback the live view hides
# JS: every widget's static fallback is on the page, and hidden (its live view has replaced it).
FALLBACKS_HIDDEN = f"""() => {{
    const fallbacks = [...document.querySelectorAll('.tl-fallback')];
    return fallbacks.length === {WIDGETS_IN_DEMO} && fallbacks.every(f => f.getClientRects().length === 0);
}}"""

# JS: true once the server has a kernel that is idle and has a browser connected to it.
KERNEL_READY = """async () => {
    const response = await fetch('/api/kernels', {headers: {Authorization: 'token ' + TOKEN}});
    const kernels = response.ok ? await response.json() : [];
    return kernels.some(k => k.execution_state === 'idle' && k.connections > 0);
}"""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def stop_process_group(server: subprocess.Popen) -> None:
    """Stop a server started with ``start_new_session=True`` and every process it started: TERM, then KILL."""
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


def _wait_until_up(url: str, server: subprocess.Popen, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the jupyter server exited with {server.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.3)
    raise TimeoutError(f"the jupyter server did not answer at {url} within {timeout}s")


@contextmanager
def jupyter_server(module: str, root: Path, *extra_args: str) -> Iterator[tuple[str, str]]:
    """Run ``python -m <module>`` (jupyterlab or notebook) on a free loopback port with its own
    token, configuration and a copy of the demo notebook in ``root``; yield (base URL, token).

    Everything lives under ``root``, so parallel runs never share state; the server is always
    stopped, even when the test fails.
    """
    shutil.copy(DEMO, root / "demo.ipynb")
    port, token = _free_port(), secrets.token_hex(16)
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(root / ".config"), "JUPYTER_RUNTIME_DIR": str(root / ".runtime"),
           "JUPYTERLAB_WORKSPACES_DIR": str(root / ".workspaces"), "IPYTHONDIR": str(root / ".ipython"),
           "JUPYTERLAB_SETTINGS_DIR": str(root / ".settings")}
    command = [
        sys.executable, "-m", module, "--no-browser", "--allow-root", f"--ServerApp.port={port}",
        "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
        "--ServerApp.port_retries=0", *extra_args,
    ]
    log = (root / "server.log").open("w")
    server = subprocess.Popen(command, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        base = f"http://127.0.0.1:{port}"
        _wait_until_up(f"{base}/api/status?token={token}", server)
        yield base, token
    finally:
        stop_process_group(server)
        log.close()


@contextmanager
def chromium_page() -> Iterator:
    """A fresh page in headless Debian Chromium, closed afterwards."""
    from playwright.sync_api import sync_playwright

    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: apt-get install chromium (as .ci/run does)"
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.set_default_timeout(60_000)
            yield page
        finally:
            browser.close()


def accept_dialogs_until(page, condition: str, timeout: float = 90) -> None:
    """Wait for ``condition`` (a JS expression or function, maybe async), accepting any dialog
    (e.g. "Select Kernel") that shows up meanwhile."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        accept = page.locator(".jp-Dialog .jp-mod-accept")
        if accept.count():
            accept.first.click()
        elif page.evaluate(condition if condition.lstrip().startswith("async") else f"Boolean({condition})"):
            return
        page.wait_for_timeout(250)
    raise TimeoutError(f"not true after {timeout}s: {condition}")


def open_and_run_all(page, url: str, token: str, failure_screenshot: str, explorers: int = EXPLORERS_IN_DEMO) -> None:
    """Open the notebook at ``url``, wait for its kernel, run all cells from the Run menu and
    wait until its ``explorers`` have drawn their SVGs (a screenshot is saved if that never happens)."""
    try:
        page.goto(url)
        page.locator(".jp-Notebook").wait_for()
        accept_dialogs_until(page, KERNEL_READY.replace("TOKEN", repr(token)))
        for attempt in range(3):  # a Run All sent while the kernel is still connecting can be lost: resend
            page.get_by_role("menuitem", name="Run", exact=True).click()
            page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
            try:
                accept_dialogs_until(page, f"document.querySelectorAll('.tl-explorer svg').length >= {explorers}",
                                     timeout=45)
                return
            except TimeoutError:
                if attempt == 2:
                    raise
    except Exception:
        page.screenshot(path=str(ARTIFACTS / failure_screenshot))
        raise


def explorer(page, index: int):
    """The ``index``-th explorer on the page (0 broadcast, 1 strides, 2 graph, 3 reduction, 4 versions)."""
    return page.locator(".jp-OutputArea-output").filter(has=page.locator(".tl-explorer")).nth(index)


def hover_and_check(widget, key: str, linked: str, info_part: str) -> None:
    """Hover the element ``key``: it is highlighted, ``linked`` is marked, the info line updates."""
    widget.locator(f'[data-key="{key}"]').hover()
    widget.locator(f'[data-key="{key}"].tl-hl').wait_for(timeout=10_000)
    widget.locator(f'[data-key="{linked}"].tl-linked').first.wait_for(timeout=10_000)
    assert info_part in widget.locator(".tl-info").inner_text()


def set_text_control(widget, label: str, value: str) -> None:
    """Type ``value`` into the ipywidgets Text control labelled ``label`` and submit it."""
    box = widget.locator(".widget-text", has_text=label).locator("input")
    box.fill(value)
    box.press("Enter")


# The scenarios every front end must pass; ``prefix`` keeps each front end's screenshots apart.

def check_all_rendered(page, prefix: str) -> None:
    """Every explorer drew itself, the quiz shows its options, and no picture or question shows
    twice (each static fallback is hidden); no "Error displaying widget" anywhere."""
    assert page.locator(".tl-explorer").count() == EXPLORERS_IN_DEMO
    page.locator(".tl-quiz .widget-radio-box").wait_for()
    page.wait_for_function(FALLBACKS_HIDDEN, timeout=10_000)
    assert "Error displaying widget" not in page.locator(".jp-Notebook").inner_text()
    page.screenshot(path=str(ARTIFACTS / f"{prefix}widgets-all.png"))


def check_broadcast_hover_and_edit(page, prefix: str) -> None:
    """Hovering an output cell marks the inputs it reads; typing a shape updates the outcome."""
    widget = explorer(page, 0)
    hover_and_check(widget, "out:2,3", "a:2,0", "out[2,3] = 32")
    set_text_control(widget, "b shape", "2, 4")
    widget.locator(".tl-outcome", has_text="The size of tensor a (3) must match the size of tensor b (2)").wait_for()
    widget.screenshot(path=str(ARTIFACTS / f"{prefix}broadcast-error.png"))
    set_text_control(widget, "b shape", "1, 4")
    widget.locator(".tl-outcome", has_text="torch.Size([3, 4])").wait_for()
    hover_and_check(widget, "b:0,1", "out:2,1", "read by 3 output")


def check_strides_edit_and_hover(page, prefix: str) -> None:
    """A chain of view ops updates the strides; hovering an element marks its storage slot."""
    widget = explorer(page, 1)
    set_text_control(widget, "view ops", "x.t()[::2]")
    widget.locator(".tl-layout", has_text="stride (2, 3)").wait_for()
    hover_and_check(widget, "el:1,0", "slot:2", "storage[2]")
    set_text_control(widget, "view ops", "x.t().view(6)")
    widget.locator(".tl-outcome", has_text="view size is not compatible").wait_for()
    widget.screenshot(path=str(ARTIFACTS / f"{prefix}strides-view-fails.png"))


def check_graph_steps_through_backward(page, prefix: str) -> None:
    """Stepping backward fills in the leaf's grad; hovering a tensor node highlights it."""
    widget = explorer(page, 2)
    for _ in range(4):
        widget.get_by_role("button", name="next step").click()
    widget.locator(".tl-outcome", has_text="backward step 4/4").wait_for()
    assert "ran as step 4" in widget.locator(".tl-function", has_text="MulBackward0").text_content()
    leaf = widget.locator(".tl-tensor", has_text="w [3]")
    assert "grad: [" in leaf.text_content()
    leaf.hover()
    widget.locator(".tl-tensor.tl-hl", has_text="w [3]").wait_for()
    assert "w [3]" in widget.locator(".tl-info").inner_text()
    widget.screenshot(path=str(ARTIFACTS / f"{prefix}graph-backward.png"))


def check_reduction_hover_and_edit(page, prefix: str) -> None:
    """Hovering an output element marks the inputs it adds up; new dims redraw, and an input then
    marks the output element it now feeds."""
    widget = explorer(page, 3)
    hover_and_check(widget, "out:0,1,0", "x:1,1,3", "out[0,1,0] = 4 + 5 + 6 + 7 + 16 + 17 + 18 + 19 = 92")
    set_text_control(widget, "dims", "1")
    widget.locator(".tl-outcome", has_text="torch.Size([2, 1, 4])").wait_for()
    hover_and_check(widget, "x:1,2,3", "out:1,0,3", "is added into out[1,0,3]")
    widget.screenshot(path=str(ARTIFACTS / f"{prefix}reduction-hover.png"))


def check_versions_step_and_hover(page, prefix: str) -> None:
    """Hovering a name marks its storage and the names aliasing it; the slider steps back in time."""
    widget = explorer(page, 4)
    hover_and_check(widget, "name:b", "storage:0", "b: storage #0, _version 3")
    widget.locator('[data-key="storage:5"]').wait_for()  # a = a + 1 gave a a new storage
    handle = widget.locator(".widget-slider .noUi-handle")
    handle.focus()
    for _ in range(3):  # back to statement 2, b.add_(1): before the clone and the rebinding
        handle.press("ArrowLeft")
    widget.locator(".tl-info", has_text="after statement 2, b.add_(1)").wait_for()
    assert widget.locator('[data-key="storage:5"]').count() == 0
    hover_and_check(widget, "name:a", "name:b", "a: storage #0, _version 1, shares it with b")
    widget.screenshot(path=str(ARTIFACTS / f"{prefix}versions-step3.png"))
