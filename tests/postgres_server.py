"""A real PostgreSQL server for the gradebook tests: started in a temporary folder on 127.0.0.1
and a free port, stopped and removed afterwards, whatever happens in between.

The server binaries come from Debian's ``postgresql`` package (``make test`` installs it). The
server refuses to run as root, so as root it runs as the ``postgres`` user the package creates.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def server_binaries() -> Path | None:
    """The folder holding initdb and pg_ctl (the newest installed version), or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("pg_ctl")
    return Path(on_path).parent if on_path else None


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def as_server_user(command: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


@contextmanager
def postgres_server(binaries: Path) -> Iterator[str]:
    """Yield the SQLAlchemy URL of a fresh database (``gradebook``) on a server of our own."""
    folder = Path(tempfile.mkdtemp(prefix="tensorlab-pg-"))
    data, port = folder / "data", free_port()
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
    run = lambda *command: subprocess.run(as_server_user([str(c) for c in command]), check=True,  # noqa: E731
                                          capture_output=True, timeout=120)
    try:
        run(binaries / "initdb", "-D", data, "-A", "trust", "-U", "postgres", "--no-sync")
        run(binaries / "pg_ctl", "-D", data, "-l", folder / "server.log", "-w", "-t", "60", "start",
            "-o", f"-h 127.0.0.1 -p {port} -k {folder} -F")
        try:
            run(binaries / "createdb", "-h", "127.0.0.1", "-p", port, "-U", "postgres", "gradebook")
            yield f"postgresql://postgres@127.0.0.1:{port}/gradebook"
        finally:
            run(binaries / "pg_ctl", "-D", data, "-m", "immediate", "-w", "stop")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    """A module's PostgreSQL server (import this fixture into the test module), or a skip where none is installed."""
    binaries = server_binaries()
    if binaries is None:
        pytest.skip("PostgreSQL server binaries are not installed (Debian: apt-get install postgresql)")
    with postgres_server(binaries) as url:
        yield url
