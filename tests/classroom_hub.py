"""A real classroom on this machine, for tests/test_classroom_hub.py: a JupyterHub on 127.0.0.1,
Unix users made for the test, and the single-user environment their servers run in.

Everything here needs root (it creates users, and the hub's local process spawner switches to
them) and is undone whatever happens: the hub and its proxy are stopped, each user's processes
are killed by uid and the user is deleted with their home, the temporary folder is removed.

The single-user environment is a virtual environment of the system Python (created users cannot
read a Python under /root), cached under ``TENSORLAB_HUB_ENV_CACHE`` (default
``/var/cache/tensorlab-hub-env``) and keyed by a hash of its requirements, so only the first run
installs it. The hub runs from the same environment, as root.
"""

from __future__ import annotations

import hashlib
import json
import os
import pwd
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

SYSTEM_PYTHON = Path("/usr/bin/python3")
# What a student's and the instructor's server need (the hub, JupyterLab, nbgrader's exchange
# extensions), and what `tensorlab course` needs to run as the instructor (tensorlab itself comes
# from a copy of this checkout on PYTHONPATH: the environment does not change with the code).
REQUIREMENTS = ("jupyterhub>=5.3,<7",  # 5.3: the shared-password authenticator
                "jupyterlab>=4,<5", "nbgrader>=0.9.5", "numpy>=1.26", "tqdm>=4.66",
                "nbclient>=0.9", "nbformat>=5.9", "einops>=0.7", "psycopg2-binary>=2.9",
                # the instructor's `init` computes public cases with the oracles some exercises grade against:
                # torch (units 11, 14) and scikit-learn's bundled digits (unit 18), pinned by constraints.txt
                "torch", "scikit-learn")
CACHE = Path(os.environ.get("TENSORLAB_HUB_ENV_CACHE", "/var/cache/tensorlab-hub-env"))
REPO = Path(__file__).resolve().parent.parent


def missing_prerequisite() -> str | None:
    """Why this machine cannot host the classroom, or None."""
    if os.geteuid() != 0:
        return "the classroom test creates Unix users: run it as root"
    for tool in ("useradd", "userdel", "runuser"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed"
    if shutil.which("configurable-http-proxy") is None:
        return "configurable-http-proxy is not installed (npm install -g configurable-http-proxy)"
    if not SYSTEM_PYTHON.exists():
        return f"{SYSTEM_PYTHON} is not installed"
    return None


def single_user_environment() -> Path:
    """The cached virtual environment (world-readable), built once per set of requirements."""
    version = subprocess.run([str(SYSTEM_PYTHON), "-c", "import sys; print(sys.version)"],
                             capture_output=True, text=True, check=True).stdout
    key = hashlib.sha256("\n".join((version, *REQUIREMENTS)).encode()).hexdigest()[:16]
    environment = CACHE / key
    complete = environment / "tensorlab-complete"  # written last: a half-built environment is built again
    if complete.exists():
        return environment
    from filelock import FileLock

    CACHE.mkdir(parents=True, exist_ok=True)
    CACHE.chmod(0o755)
    with FileLock(f"{environment}.lock"):
        if not complete.exists():
            # built where it stays: a virtual environment's scripts name its path
            shutil.rmtree(environment, ignore_errors=True)
            subprocess.run([str(SYSTEM_PYTHON), "-m", "venv", str(environment)], check=True)
            subprocess.run([str(environment / "bin" / "python"), "-m", "pip", "install", "--quiet",
                            "-c", str(REPO / "constraints.txt"), *REQUIREMENTS], capture_output=True,
                           check=True, timeout=1200)
            subprocess.run(["chmod", "-R", "a+rX", str(environment)], check=True)
            complete.write_text("\n".join(REQUIREMENTS) + "\n")
    return environment


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass(frozen=True)
class User:
    name: str

    @property
    def home(self) -> Path:
        return Path(pwd.getpwnam(self.name).pw_dir)

    def run(self, command: list[str], environment: dict[str, str], cwd: Path | None = None,
            timeout: float = 300) -> subprocess.CompletedProcess[str]:
        """``command`` as this user, with only ``environment`` (and HOME, USER) set."""
        variables = {**environment, "HOME": str(self.home), "USER": self.name, "LANG": "C.UTF-8"}
        return subprocess.run(["runuser", "-u", self.name, "--", "env", "-i",
                               *(f"{key}={value}" for key, value in variables.items()), *command],
                              cwd=cwd or self.home, capture_output=True, text=True, timeout=timeout)


@contextmanager
def unix_users(names: list[str]) -> Iterator[list[User]]:
    """New users with private homes (mode 700, as on a shared hub); deleted with their homes and
    processes afterwards."""
    created: list[User] = []
    try:
        for name in names:
            subprocess.run(["useradd", "--create-home", "--shell", "/bin/bash", name], check=True,
                           capture_output=True)
            created.append(User(name))
            created[-1].home.chmod(0o700)
        yield created
    finally:
        for user in created:
            remove_user(user.name)


def remove_user(name: str) -> None:
    """Kill the user's processes, then delete the user and their home. userdel refuses while a
    process of the user runs, and one may still be starting (a spawner mid-setuid): repeat."""
    uid = pwd.getpwnam(name).pw_uid
    deadline = time.monotonic() + 30
    while True:
        subprocess.run(["pkill", "-KILL", "-U", str(uid)], capture_output=True)
        removed = subprocess.run(["userdel", "--remove", name], capture_output=True, text=True)
        if removed.returncode == 0:
            return
        if time.monotonic() > deadline:
            raise RuntimeError(f"could not remove the test user {name}: {removed.stderr}")
        time.sleep(0.2)


LOOPBACK = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # never through an http_proxy


def api(url: str, token: str, method: str = "GET", body: dict | None = None,
        form: dict[str, str] | None = None) -> tuple[int, object]:
    """One HTTP request with a token; (status, decoded JSON or text). Errors are returned, not raised."""
    data, headers = None, {"Authorization": f"token {token}"}
    if body is not None:
        data, headers["Content-Type"] = json.dumps(body).encode(), "application/json"
    elif form is not None:
        data = urllib.parse.urlencode(form).encode()
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    elif method != "GET":
        data = b""
    request = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with LOOPBACK.open(request, timeout=120) as response:
            status, text = response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        status, text = error.code, error.read().decode(errors="replace")
    try:
        return status, json.loads(text)
    except ValueError:
        return status, text


@dataclass(frozen=True)
class Hub:
    url: str  # the proxy's public URL, e.g. http://127.0.0.1:8123
    token: str  # the test's service token (admin of users and servers, may issue user tokens)
    log: Path

    def call(self, path: str, method: str = "GET", body: dict | None = None) -> object:
        status, answer = api(f"{self.url}/hub/api/{path}", self.token, method, body)
        if status >= 400:
            raise AssertionError(f"{method} /hub/api/{path}: {status} {answer}\n{self.log_tail()}")
        return answer

    def log_tail(self) -> str:
        return self.log.read_text(errors="replace")[-6000:] if self.log.exists() else ""

    def start_servers(self, users: list[str], timeout: float = 240) -> None:
        """Start the users' single-user servers through the REST API, all at once, and wait until
        each is ready."""
        for user in users:
            self.call(f"users/{user}/server", "POST")  # 201 started, or 202 still starting
        deadline = time.monotonic() + timeout
        for user in users:
            while not self.call(f"users/{user}")["servers"].get("", {}).get("ready"):  # type: ignore[index]
                if time.monotonic() > deadline:
                    raise AssertionError(f"{user}'s server did not start in {timeout} s\n{self.log_tail()}")
                time.sleep(0.5)

    def user_token(self, user: str) -> str:
        return str(self.call(f"users/{user}/tokens", "POST", {"note": "classroom test", "expires_in": 3600})["token"])  # type: ignore[index]


HUB_CONFIG = '''\
c = get_config()  # noqa: F821
c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = {port}
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = {hub_port}
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{proxy_api_port}"
c.ConfigurableHTTPProxy.pid_file = {folder!r} + "/proxy.pid"
c.JupyterHub.db_url = "sqlite:///" + {folder!r} + "/jupyterhub.sqlite"
c.JupyterHub.cookie_secret_file = {folder!r} + "/cookie_secret"
c.JupyterHub.pid_file = {folder!r} + "/hub.pid"
c.JupyterHub.authenticator_class = "shared-password"  # one password for the class: enough on loopback
c.SharedPasswordAuthenticator.user_password = {password!r}
c.Authenticator.allowed_users = set({users!r})
c.JupyterHub.spawner_class = "localprocess"
c.Spawner.cmd = [{singleuser!r}]
c.Spawner.environment = {environment!r}
c.Spawner.start_timeout = 240
c.Spawner.http_timeout = 240
c.JupyterHub.services = [{{"name": "classroom-test", "api_token": {token!r}}}]
c.JupyterHub.load_roles = [{{"name": "classroom-test", "services": ["classroom-test"],
                            "scopes": ["admin:users", "admin:servers", "tokens", "list:users"]}}]
'''


def answers(url: str) -> bool:
    try:
        with LOOPBACK.open(url, timeout=5) as response:
            return bool(response.status == 200)
    except OSError:  # refused while starting (urllib's errors are OSErrors)
        return False


@contextmanager
def jupyterhub(environment: Path, folder: Path, users: list[str], spawner_environment: dict[str, str]) -> Iterator[Hub]:
    """A JupyterHub (shared-password authenticator, local process spawner) on 127.0.0.1 and a free
    port; stopped, with its proxy and the servers it started, afterwards."""
    port, token = free_port(), secrets.token_hex(32)
    config = folder / "jupyterhub_config.py"
    config.write_text(HUB_CONFIG.format(
        port=port, hub_port=free_port(), proxy_api_port=free_port(), folder=str(folder),
        password=secrets.token_hex(16), users=sorted(users), singleuser=str(environment / "bin" / "jupyterhub-singleuser"),
        environment=spawner_environment, token=token))
    log = folder / "jupyterhub.log"
    path = os.pathsep.join((str(environment / "bin"), str(Path(shutil.which("configurable-http-proxy") or "").parent),
                            "/usr/sbin", "/usr/bin", "/sbin", "/bin"))
    with log.open("w") as output:
        process = subprocess.Popen([str(environment / "bin" / "jupyterhub"), "-f", str(config)], cwd=folder,
                                   stdout=output, stderr=subprocess.STDOUT, start_new_session=True,
                                   env={"PATH": path, "LANG": "C.UTF-8", "HOME": str(folder)})
    hub = Hub(f"http://127.0.0.1:{port}", token, log)
    try:
        deadline = time.monotonic() + 180
        while not answers(f"{hub.url}/hub/api/"):
            if process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"JupyterHub did not start\n{hub.log_tail()}")
            time.sleep(0.5)
        yield hub
    finally:
        process.send_signal(signal.SIGTERM)  # the hub stops its servers and its proxy on the way out
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            pass
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)  # anything of the hub's session still alive
        process.wait()


@contextmanager
def world_readable_folder() -> Iterator[Path]:
    """A temporary folder the created users can enter (pytest's tmp_path is private to root)."""
    folder = Path(tempfile.mkdtemp(prefix="tensorlab-hub-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def copy_of_the_code(folder: Path) -> Path:
    """tensorlab, autograder and exercises, copied where the created users can import them."""
    code = folder / "code"
    for package in ("tensorlab", "autograder", "exercises"):
        shutil.copytree(REPO / package, code / package, ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run(["chmod", "-R", "a+rX", str(code)], check=True)
    return code


__all__ = ["Hub", "User", "api", "copy_of_the_code", "jupyterhub", "missing_prerequisite",
           "single_user_environment", "unix_users", "world_readable_folder"]
