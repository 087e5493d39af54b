"""Exercises graded in real processes (unit 16's mini-DDP): the sandbox's ranks report a learner's
error with the rank that raised, stop the other ranks instead of letting them wait in a collective,
keep the reference out of reach, and still refuse sockets of the learner's own."""

from __future__ import annotations

import time

import pytest

from tensorlab.grading import CheckFailed
from tensorlab.grading.check import check_cells

HEADER = "import torch\nimport torch.distributed as dist\n"


def verdict(source: str) -> str:
    try:
        check_cells("attach_gradient_averaging", {1: HEADER + source})
    except CheckFailed as failure:
        return str(failure)
    return "passed"


def test_an_error_on_one_rank_names_it_and_ends_quickly() -> None:
    started = time.monotonic()
    said = verdict('''
def attach_gradient_averaging(model, group):
    if dist.get_rank(group) == 1:
        raise ValueError("only rank one fails")
''')
    assert "on rank 1" in said and "only rank one fails" in said
    assert time.monotonic() - started < 18  # not the 20 s the task may take, nor gloo's timeout


def test_learner_code_cannot_open_a_socket_of_its_own() -> None:
    said = verdict('''
import socket
def attach_gradient_averaging(model, group):
    socket.create_connection(("127.0.0.1", 9))
''')
    assert said.startswith("✗") and "socket" in said  # refused before it runs; the audit hook would refuse it too


@pytest.mark.parametrize("source", [
    "def attach_gradient_averaging(model, group):\n    dist.init_process_group('gloo')\n",
    "def attach_gradient_averaging(model, group):\n    dist.new_group([0])\n",
])
def test_opening_groups_is_refused_before_anything_runs(source: str) -> None:
    assert "is what this exercise asks you to write yourself" in verdict(source)
