"""Unit 16's multi-process cells are reliable: five runs in a row, no hang, no leaked process, no port clash.

The walkthrough's code cells run as one script in a fresh ``__main__`` module (in this process, so
its forked ranks are this process's children and can be counted), five times over. Each pass must finish well inside the
timeout and leave no child process behind.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import types
from pathlib import Path

import matplotlib
import nbformat
import pytest

NOTEBOOK = Path(__file__).resolve().parent.parent / "notebooks" / "16-distributed.ipynb"


@pytest.mark.slow
@pytest.mark.timeout(400)
def test_the_distributed_walkthrough_runs_five_times_in_a_row(monkeypatch: pytest.MonkeyPatch) -> None:
    matplotlib.use("Agg")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    cells = [cell.source for cell in nbformat.read(str(NOTEBOOK), as_version=4).cells if cell.cell_type == "code"]
    script = compile("\n\n".join(cells), str(NOTEBOOK), "exec")
    assert sum(source.count("run(") for source in cells) >= 10, "the walkthrough should launch real processes"
    for attempt in range(5):
        main = types.ModuleType("__main__")  # as in a kernel: RPC pickles my_add as __main__.my_add
        monkeypatch.setitem(sys.modules, "__main__", main)
        exec(script, main.__dict__)  # the course's own notebook
        assert not multiprocessing.active_children(), f"pass {attempt + 1} left processes behind"
    assert os.getpid() == multiprocessing.current_process().pid
