"""The gradebook on a real PostgreSQL 15 server (started by the test on 127.0.0.1, stopped after):
every `tensorlab course` step works against it, with either spelling of the URL, and the grades
are the ones the SQLite gradebook gets. A server enforces what SQLite never checked (an
assignment's course must exist), so these tests are the only ones that can catch it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from autograder.cli import main
from autograder.course import gradebook_url
from tests.postgres_server import postgres_server, server_binaries
from tests.test_course_pipeline import assert_every_roster_scored, build_graded_course, exported_rows

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    binaries = server_binaries()
    if binaries is None:
        pytest.skip("PostgreSQL server binaries are not installed (Debian: apt-get install postgresql)")
    with postgres_server(binaries) as url:
        yield url


def test_a_bare_postgresql_url_gets_an_installed_driver() -> None:
    assert gradebook_url("postgresql://u@h/db") == "postgresql+psycopg2://u@h/db"
    assert gradebook_url("postgresql+psycopg://u@h/db") == "postgresql+psycopg://u@h/db"
    assert gradebook_url("sqlite:///x.db") == "sqlite:///x.db"


def test_the_whole_course_on_postgresql(postgres_url: str, tmp_path: Path) -> None:
    course = build_graded_course(tmp_path / "course", db=postgres_url)
    assert_every_roster_scored(exported_rows(course, tmp_path / "grades.csv"))
    assert main(["course", "feedback", str(course)]) == 0
    assert main(["course", "report", str(course)]) == 0
