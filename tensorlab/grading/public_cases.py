"""The public cases of an exercise as plain data: what a released assignment gives ``check()``.

A release writes ``tensorlab-cases.json`` next to the student's notebook: for each graded function,
its rules (hint, tolerance, building blocks, forbidden functions...), its points, and its public
cases (arguments, the reference's outcome, the sentence of the statement each clause case tests, a
view's strides). No reference, no generator, nothing secret: the expected outcomes are values the
instructor's side computed. ``check()`` grades on exactly these, through the same sandbox and the
same comparison as the autograder, so the two verdicts agree on every public case.
"""

from __future__ import annotations

import json
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

from . import plain
from .compare import Raised, Tolerance
from .tasks import Case, Rules
from .verify import Graded, Grading

__all__ = ["CASES_FILE", "FORMAT", "PublicCasesError", "decode_document", "encode_document", "read_cases_file"]

CASES_FILE = "tensorlab-cases.json"
FORMAT = 1


class PublicCasesError(ValueError):
    """The cases file is missing, not JSON, or not in the format this tensorlab reads."""


def encode_outcome(value: Any) -> dict:
    if isinstance(value, Raised):
        return {"raised": [value.exception, value.message]}
    return {"value": plain.encode(value)}


def decode_outcome(data: dict) -> Any:
    if "raised" in data:
        exception, message = data["raised"]
        return Raised(str(exception), str(message))
    return plain.decode(data["value"])


def encode_rules(rules: Rules) -> dict:
    return {spec.name: getattr(rules, spec.name) if spec.name != "tolerance" else asdict(rules.tolerance)
            for spec in fields(Rules)}


def decode_rules(data: dict) -> Rules:
    known = {spec.name for spec in fields(Rules)}
    values: dict[str, Any] = {key: tuple(value) if isinstance(value, list) else value
                              for key, value in data.items() if key in known}
    values["misconceptions"] = tuple(tuple(str(part) for part in known_mistake)
                                     for known_mistake in data.get("misconceptions", ()))
    values["tolerance"] = Tolerance(**data.get("tolerance", {}))
    return Rules(**values)


def encode_case(case: Case) -> dict:
    encoded: dict[str, Any] = {"arguments": plain.encode(case.arguments), "expected": encode_outcome(case.expected)}
    if case.clause:
        encoded["clause"] = case.clause
    if case.view_strides is not None:
        encoded["view_strides"] = list(case.view_strides)
    if case.large:
        encoded["large"] = True  # check() counts the lines run on it, as the grader does
    return encoded


def decode_case(data: dict) -> Case:
    strides = data.get("view_strides")
    return Case(plain.decode(data["arguments"]), decode_outcome(data["expected"]), True, str(data.get("clause", "")),
                tuple(strides) if strides is not None else None, bool(data.get("large", False)))


def encode_document(grading: Grading, cases: dict[str, list[Case]]) -> dict:
    """The JSON-ready cases file of one notebook."""
    return {
        "tensorlab_cases": FORMAT,
        "notebook": grading.notebook,
        "timeout": grading.timeout,
        "memory_mb": grading.memory_mb,
        "functions": [
            {"rules": encode_rules(graded.rules), "points": graded.points, "grade_id": graded.grade_id,
             "cases": [encode_case(case) for case in cases[graded.name]]}
            for graded in grading.graded
        ],
    }


def decode_document(document: Any, where: str = CASES_FILE) -> tuple[Grading, dict[str, list[Case]]]:
    """The grading and the public cases a cases file describes."""
    if not isinstance(document, dict) or document.get("tensorlab_cases") != FORMAT:
        raise PublicCasesError(f"{where} is not a tensorlab cases file (format {FORMAT})")
    try:
        graded, cases = [], {}
        for function in document["functions"]:
            rules = decode_rules(function["rules"])
            graded.append(Graded(rules, float(function["points"]), str(function.get("grade_id", ""))))
            cases[rules.name] = [decode_case(case) for case in function["cases"]]
        grading = Grading(str(document["notebook"]), tuple(graded), float(document["timeout"]), int(document["memory_mb"]))
    except (KeyError, TypeError, ValueError) as error:
        raise PublicCasesError(f"{where} is damaged ({type(error).__name__}: {error}); get a fresh copy of the exercise") from None
    return grading, cases


def read_cases_file(path: Path) -> tuple[Grading, dict[str, list[Case]]]:
    """Read and decode a cases file; a missing or unreadable file is a PublicCasesError that says what to do."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PublicCasesError(
            f"no {CASES_FILE} in {path.parent}: it comes with the released exercise, next to its notebook "
            "(open the notebook from its own folder, or fetch the exercise again)") from None
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise PublicCasesError(f"{path} is not JSON ({error}); get a fresh copy of the exercise") from None
    return decode_document(document, str(path))
