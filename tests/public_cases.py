"""The public cases of the repository's exercises, as a student's ``check()`` reads them.

A released notebook has its own ``tensorlab-cases.json``; tests that call ``check("name", f)`` for
functions of several exercises read one file holding every exercise's functions (conftest.py
points ``TENSORLAB_CASES`` at it).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from types import ModuleType

from autograder.exercise import exercise_folders, find_task, folder_of
from tensorlab.grading.tasks import Case
from tensorlab.grading.verify import Graded


def every_exercise_document() -> dict:
    """One cases document with the functions of every exercise."""
    documents = [folder.public_document() for folder in exercise_folders()]
    merged = dict(documents[0], notebook="every-exercise")
    merged["functions"] = [function for document in documents for function in document["functions"]]
    return merged


def write_every_exercise_cases(path: Path) -> Path:
    path.write_text(json.dumps(every_exercise_document()))
    return path


def tasks_of(notebook: str) -> ModuleType:
    """The tasks module of the exercise whose notebook is ``notebook`` (its references, generators)."""
    return folder_of(notebook).tasks_module


def graded_task(name: str, forbidden: tuple[str, ...] = (), seed: int = 1, random_cases: int = 0) -> tuple[Graded, list[Case]]:
    """The graded function ``name`` (one point, extra forbidden functions) and its cases under ``seed``."""
    task = find_task(name)
    rules = replace(task.rules(), forbidden=task.forbidden + forbidden)
    return Graded(rules, 1.0, f"test_{name}"), task.cases(seed, random_cases)
