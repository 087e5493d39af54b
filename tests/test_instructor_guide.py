"""docs/instructors.md's "Write your own exercise", followed literally: an exercise made outside the
package is scaffolded, validated, added to a course, released, collected from an LMS download and
autograded, and the grades are what the guide says."""

from __future__ import annotations

import csv
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
GUIDE = REPO_ROOT / "docs" / "instructors.md"
pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]


def guide_commands() -> list[str]:
    """The shell lines of the first bash block under "## Write your own exercise", comments dropped."""
    section = GUIDE.read_text(encoding="utf-8").split("## Write your own exercise", 1)[1]
    block = re.search(r"```bash\n(.*?)```", section, re.S)
    assert block, "the guide's section has no bash block"
    lines = [line.split("  #", 1)[0].strip() for line in block.group(1).splitlines()]
    return [line for line in lines if line and not line.startswith("#")]


def test_the_guide_has_the_whole_path() -> None:
    commands = " ".join(guide_commands())
    for step in ("exercise new", "exercise validate", "exercise misconceptions", "course init", "course release", "course zip-collect",
                 "course autograde", "course export"):
        assert f"tensorlab {step}" in commands


def test_an_exercise_of_ones_own_goes_from_new_to_grades(tmp_path: Path) -> None:
    environment = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    environment.pop("TENSORLAB_CASES", None)
    for command in guide_commands():
        done = subprocess.run(command, shell=True, cwd=tmp_path, env=environment, capture_output=True, text=True)
        assert done.returncode == 0, f"{command}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        if command.startswith("tensorlab exercise validate"):
            assert "✗" not in done.stdout and "valid" in done.stdout.splitlines()[-1], done.stdout
    with (tmp_path / "my-course" / "grades.csv").open() as grades:
        scores = {row["student_id"]: float(row["score"]) for row in csv.DictReader(grades)}
    assert scores == {"perfect": 2.0, "blank": 0.0}
    assert not list(REPO_ROOT.glob("exercises/*row*")), "the guide's exercise must live outside the repository"
