"""The classroom deployment files (autograder/deploy/) agree with the package and with each other.

Nothing here builds an image or starts a server (no registry, no cluster): each file is parsed and
its values checked against their source — the pins against pyproject.toml and constraints.txt,
nbgrader's settings loaded by traitlets and checked against nbgrader's own configurable traits,
the names of services, groups and roles across z2jh and TLJH, the Indexed Job's shard count
against its command, which the real ``tensorlab`` parser reads.
"""

from __future__ import annotations

import importlib
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from packaging.requirements import Requirement
from traitlets.config import Config
from traitlets.config.loader import PyFileConfigLoader

from autograder.autograde import parse_shard
from autograder.cli import build_parser, main
from autograder.hub_config import CELL_TIMEOUT, global_config
from autograder.scaffold import new_exercise
from autograder.student_tree import CODE_STUB

tomllib = pytest.importorskip("tomllib", reason="reading pyproject.toml needs Python 3.11's tomllib")
REPO_ROOT = Path(__file__).resolve().parent.parent
DEPLOY = REPO_ROOT / "autograder" / "deploy"
PYPROJECT = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]
VERSION = PYPROJECT["version"]
EXCHANGE = "/srv/nbgrader/exchange"
NBGRADER_LABEXTENSION = Path(sys.prefix) / "share" / "jupyter" / "labextensions" / "@jupyter" / "nbgrader"

# nbgrader's configurable classes, by the section name a config file uses
NBGRADER_CLASSES = {
    "Exchange": "nbgrader.exchange.default.exchange:Exchange",
    "Authenticator": "nbgrader.auth:Authenticator",
    "CourseDirectory": "nbgrader.coursedir:CourseDirectory",
    "ClearSolutions": "nbgrader.preprocessors:ClearSolutions",
    "Execute": "nbgrader.preprocessors:Execute",
}


# --- readers ---

def requirements(name: str) -> tuple[dict[str, Requirement], list[str]]:
    """A requirements file's requirements by name, and its option lines (``-r``, ``--extra-index-url``)."""
    found, options = {}, []
    for line in (DEPLOY / name).read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line.startswith("-"):
            options.append(line)
        elif line:
            requirement = Requirement(line)
            found[requirement.name] = requirement
    return found, options


def pyproject_requirements(extra: str | None = None) -> dict[str, Requirement]:
    listed = PYPROJECT["optional-dependencies"][extra] if extra else PYPROJECT["dependencies"]
    return {requirement.name: requirement for requirement in map(Requirement, listed)}


def constraints() -> dict[str, Requirement]:
    lines = (REPO_ROOT / "constraints.txt").read_text().splitlines()
    return {r.name: r for r in (Requirement(line) for line in lines if line.strip() and not line.startswith("#"))}


def dockerfile(name: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) per instruction, continuation lines joined, comments dropped."""
    joined = re.sub(r"\\\n", " ", "\n".join(
        line for line in (DEPLOY / name).read_text().splitlines() if not line.lstrip().startswith("#")
    ))
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1]) for line in joined.splitlines() if line.strip()]


def runs(name: str) -> list[list[str]]:
    """Each command of the Dockerfile's RUN instructions (split at ``&&``), as words."""
    return [shlex.split(part) for instruction, arguments in dockerfile(name) if instruction == "RUN"
            for part in arguments.split("&&")]


def extension_switches(commands: list[list[str]], verb: str) -> set[str]:
    """The server and lab extensions that ``jupyter ... <verb>`` commands name."""
    return {words[-1] for words in commands if words[:1] == ["jupyter"] and verb in words}


def load_python_config(path: Path) -> Config:
    return PyFileConfigLoader(path.name, path=str(path.parent)).load_config()


def yaml_documents(name: str) -> list[dict[str, Any]]:
    return list(yaml.safe_load_all((DEPLOY / name).read_text()))


VALUES = yaml_documents("z2jh/values.yaml")[0]
JOB = yaml_documents("k8s/autograde-job.yaml")[0]
FORMGRADER, FORMGRADER_SERVICE = yaml_documents("k8s/formgrader.yaml")


# --- the environment: requirements and Dockerfiles ---

def test_the_user_environment_has_the_course_packages_with_the_package_pins() -> None:
    user, options = requirements("requirements-user.txt")
    assert {"torch", "jupyterlab", "ipywidgets", "anywidget", "nbgrader", "jupyterhub"} <= set(user)
    pinned = constraints()
    assert user["torch"].specifier == pinned["torch"].specifier
    ours = pyproject_requirements()
    for name, requirement in user.items():  # constraints.txt's pin where it has one, else pyproject's range
        if name in pinned or name in ours:
            assert requirement.specifier == (pinned.get(name) or ours[name]).specifier, name
    assert "--extra-index-url https://download.pytorch.org/whl/cpu" in options  # the CPU build of torch


def test_the_grader_environment_is_the_users_plus_the_postgres_extra() -> None:
    grader, options = requirements("requirements-grader.txt")
    assert options == ["-r requirements-user.txt"]
    assert grader == pyproject_requirements("postgres")


@pytest.mark.parametrize(("name", "requirements_file"), [("user.Dockerfile", "requirements-user.txt"),
                                                         ("grader.Dockerfile", "requirements-grader.txt")])
def test_each_image_installs_tensorlab_with_its_requirements_under_the_constraints(name: str, requirements_file: str) -> None:
    installs = [words for words in runs(name) if words[:2] == ["pip", "install"]]
    assert len(installs) == 1
    words = installs[0]
    assert words[words.index("-c") + 1] == "constraints.txt"
    assert words[words.index("-r") + 1] == f"autograder/deploy/{requirements_file}"
    assert words[-2:] == ["-e", "."]


def test_the_user_image_copies_what_tensorlab_needs_from_the_repository() -> None:
    instructions = dockerfile("user.Dockerfile")
    base = next(arguments for instruction, arguments in instructions if instruction == "FROM")
    python = re.fullmatch(r"python:(\d+)\.(\d+)-slim-\w+", base)
    assert python, base
    minimum = tuple(int(part) for part in PYPROJECT["requires-python"].removeprefix(">=").split("."))
    assert (int(python[1]), int(python[2])) >= minimum
    copied = {word for instruction, arguments in instructions if instruction == "COPY" for word in arguments.split()[:-1]}
    assert {"pyproject.toml", "constraints.txt", "tensorlab", "autograder", "exercises", "notebooks"} <= copied
    assert all((REPO_ROOT / path).exists() for path in copied)
    assert ("USER", "1000") in instructions  # z2jh's uid; Jupyter refuses root


def test_the_grader_image_is_built_on_the_user_image_of_this_version() -> None:
    instructions = dockerfile("grader.Dockerfile")
    assert instructions[0] == ("ARG", f"USER_IMAGE=tensorlab-user:{VERSION}")
    assert instructions[1] == ("FROM", "${USER_IMAGE}")
    for name, image in (("user.Dockerfile", "tensorlab-user"), ("grader.Dockerfile", "tensorlab-grader")):
        assert f"docker build -f autograder/deploy/{name} -t {image}:{VERSION} ." in (DEPLOY / name).read_text()


def test_students_lose_exactly_the_extensions_graders_get_back_and_they_exist() -> None:
    disabled = extension_switches(runs("user.Dockerfile"), "disable")
    enabled = extension_switches(runs("grader.Dockerfile"), "enable")
    assert disabled == enabled
    assert "nbgrader.server_extensions.formgrader" in disabled and "@jupyter/nbgrader:formgrader" in disabled
    bundle = "".join(path.read_text() for path in (NBGRADER_LABEXTENSION / "static").glob("*.js"))
    for name in disabled:
        if name.startswith("@jupyter/nbgrader:"):
            assert f'"{name}"' in bundle, f"nbgrader has no lab plugin {name}"
        else:
            assert hasattr(importlib.import_module(name), "_load_jupyter_server_extension"), name


# --- nbgrader's settings: `tensorlab course hub-config` ---

def assert_nbgrader_accepts(config: Config) -> None:
    """Every setting names a configurable trait of nbgrader's class for that section (a typo would be ignored)."""
    for section, settings in config.items():
        module, name = NBGRADER_CLASSES[section].split(":")
        cls = getattr(importlib.import_module(module), name)
        assert set(settings) <= set(cls.class_trait_names(config=True)), (section, set(settings))
        cls(config=config)  # the values pass the traits' validation (plugin_class: an importable class)


def test_hub_config_writes_the_global_and_the_course_settings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    course = tmp_path / "tl101"
    exercises = tmp_path / "exercises"
    new_exercise(exercises / "01-row-sums")  # one small exercise: hub-config needs a course, not the whole one
    assert main(["course", "init", str(course), "--course-id", "tl101", "--exercises", str(exercises)]) == 0
    assert main(["course", "hub-config", str(course), "--exchange", "/srv/exchange", "--course-root", "/home/grader-tl101/tl101"]) == 0
    written = capsys.readouterr().out.split()[-2:]
    assert written == [str(course / "hub" / "global_nbgrader_config.py"), str(course / "hub" / "course_nbgrader_config.py")]

    hub = load_python_config(course / "hub" / "global_nbgrader_config.py")
    assert hub.Exchange.root == "/srv/exchange"
    assert hub.Exchange.path_includes_course is True
    assert hub.Authenticator.plugin_class == "nbgrader.auth.JupyterHubAuthPlugin"
    assert_nbgrader_accepts(hub)

    settings = json.loads((course / "tensorlab-course.json").read_text())
    one = load_python_config(course / "hub" / "course_nbgrader_config.py")
    assert one.CourseDirectory.course_id == "tl101" == settings["course_id"]
    assert one.CourseDirectory.root == "/home/grader-tl101/tl101"
    assert settings["db_url"] == "sqlite:///gradebook.db"  # the course's own, relative to its folder
    assert one.CourseDirectory.db_url == "sqlite:////home/grader-tl101/tl101/gradebook.db"  # where the hub has it
    assert one.ClearSolutions.code_stub == {"python": CODE_STUB}  # what the student tree shows too
    assert one.Execute.timeout == CELL_TIMEOUT > 30  # nbgrader's default is too tight for torch
    assert_nbgrader_accepts(one)
    assert (course / "hub" / "course_nbgrader_config.py").stat().st_mode & 0o077 == 0  # it holds the gradebook URL


def test_hub_config_course_root_defaults_to_the_course_folder(tmp_path: Path) -> None:
    exercises = tmp_path / "exercises"
    new_exercise(exercises / "01-row-sums")
    main(["course", "init", str(tmp_path / "c"), "--exercises", str(exercises)])
    main(["course", "hub-config", str(tmp_path / "c"), "--out", str(tmp_path / "out")])
    loaded = load_python_config(tmp_path / "out" / "course_nbgrader_config.py")
    assert loaded.CourseDirectory.root == str((tmp_path / "c").resolve())
    assert load_python_config(tmp_path / "out" / "global_nbgrader_config.py").Exchange.root == EXCHANGE


# --- z2jh and TLJH: the same services, groups and roles ---

def tljh_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """TLJH's settings for the course tl101 graded by instructor1, as install.sh's course step leaves them."""
    (tmp_path / "courses.json").write_text(json.dumps({"tl101": ["instructor1"]}))
    (tmp_path / "tl101.token").write_text("secret-token-for-the-test\n")
    monkeypatch.setenv("TENSORLAB_HUB_STATE", str(tmp_path))
    return tljh_settings()


def tljh_settings() -> dict[str, Any]:
    """JupyterHub's services, groups and roles from TLJH's file, merged into settings TLJH already has
    (its idle culler), the way TLJH loads the files in jupyterhub_config.d."""
    existing = Config()
    existing.JupyterHub.services = [{"name": "idle-culler"}]
    existing.JupyterHub.load_roles = [{"name": "idle-culler", "services": ["idle-culler"]}]
    existing.merge(load_python_config(DEPLOY / "tljh" / "tensorlab_hub_config.py"))
    hub = existing.JupyterHub
    groups = hub.load_groups.get_value({})  # added to JupyterHub's default, no groups
    return {"services": hub.services[1:], "load_roles": hub.load_roles[1:], "load_groups": groups,
            "kept": (hub.services[0], hub.load_roles[0])}


def z2jh_roles() -> dict[str, dict[str, Any]]:
    return {name: {key: value for key, value in role.items() if key != "description"}
            for name, role in VALUES["hub"]["loadRoles"].items()}


def test_z2jh_and_tljh_grant_the_same_roles_to_the_same_groups(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tljh = tljh_config(tmp_path, monkeypatch)
    assert tljh["kept"] == ({"name": "idle-culler"}, {"name": "idle-culler", "services": ["idle-culler"]})
    assert {role.pop("name"): role for role in tljh["load_roles"]} == z2jh_roles()
    z2jh_groups = VALUES["hub"]["config"]["JupyterHub"]["load_groups"]
    assert tljh["load_groups"]["formgrade-tl101"] == z2jh_groups["formgrade-tl101"] == {"users": ["instructor1"]}
    assert set(tljh["load_groups"]) == set(z2jh_groups)
    (service,) = tljh["services"]
    assert service["api_token"] == "secret-token-for-the-test"
    assert service["user"] == "grader-tl101" and service["name"] in VALUES["hub"]["services"]


def test_each_course_has_a_formgrader_service_its_graders_reach_and_its_students_find() -> None:
    groups = VALUES["hub"]["config"]["JupyterHub"]["load_groups"]
    roles = z2jh_roles()
    assert roles["server"] == {"scopes": ["inherit"]}  # nbgrader's course list reads the user's groups
    for course, service in VALUES["hub"]["services"].items():
        assert len(service["apiToken"]) >= 32 and service["url"].startswith("http://")
        assert roles[f"formgrade-{course}"] == {"groups": [f"formgrade-{course}"],
                                                "scopes": [f"access:services!service={course}"]}
        assert roles[f"nbgrader-{course}"] == {"groups": [f"nbgrader-{course}"],
                                               "scopes": ["list:services", f"read:services!service={course}"]}
        assert roles[f"formgrader-{course}"]["services"] == [course]
        assert {f"formgrade-{course}", f"nbgrader-{course}"} <= set(groups)


def test_z2jh_servers_get_the_user_image_resources_the_exchange_and_the_global_settings() -> None:
    single = VALUES["singleuser"]
    assert f"{single['image']['name']}:{single['image']['tag']}" == f"tensorlab-user:{VERSION}"
    assert single["cpu"]["guarantee"] <= single["cpu"]["limit"]
    assert int(single["memory"]["guarantee"].rstrip("G")) <= int(single["memory"]["limit"].rstrip("G"))
    (mount,) = single["storage"]["extraVolumeMounts"]
    (volume,) = single["storage"]["extraVolumes"]
    assert mount["name"] == volume["name"] and mount["mountPath"] == EXCHANGE
    settings = single["extraFiles"]["nbgrader-global-config"]
    assert settings["mountPath"] == "/etc/jupyter/nbgrader_config.py"
    assert settings["stringData"] == global_config(EXCHANGE)


def test_the_formgrader_deployment_serves_the_hub_service() -> None:
    (course,) = VALUES["hub"]["services"]
    container = FORMGRADER["spec"]["template"]["spec"]["containers"][0]
    env = {item["name"]: item.get("value") for item in container["env"]}
    assert env["JUPYTERHUB_SERVICE_NAME"] == course
    assert env["JUPYTERHUB_SERVICE_PREFIX"] == f"/services/{course}/"
    assert env["JUPYTERHUB_USER"] == f"grader-{course}"
    port = FORMGRADER_SERVICE["spec"]["ports"][0]["port"]
    assert VALUES["hub"]["services"][course]["url"] == f"http://{FORMGRADER_SERVICE['metadata']['name']}:{port}"
    assert container["image"] == f"tensorlab-grader:{VERSION}"
    mounts = {mount["mountPath"] for mount in container["volumeMounts"]}
    assert {"/course", EXCHANGE, "/etc/jupyter/nbgrader_config.py"} <= mounts


def test_tljh_without_courses_starts_a_hub_with_none(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """install.sh's hub step reloads the hub before any course exists."""
    monkeypatch.setenv("TENSORLAB_HUB_STATE", str(tmp_path))
    settings = tljh_settings()
    assert settings["services"] == [] and settings["load_groups"] == {}


def test_the_tljh_course_step_lists_the_course_where_the_hub_settings_read_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """install.sh's course step adds the course and its grader to courses.json (twice: two graders)."""
    script = (DEPLOY / "tljh" / "install.sh").read_text()
    program = script.split("<<'PYTHON'\n", 1)[1].split("\nPYTHON\n", 1)[0]
    for grader in ("instructor2", "instructor1", "instructor2"):
        subprocess.run([sys.executable, "-", str(tmp_path / "courses.json"), "tl101", grader], input=program,
                       text=True, check=True)
    (tmp_path / "tl101.token").write_text("token")
    monkeypatch.setenv("TENSORLAB_HUB_STATE", str(tmp_path))
    assert tljh_settings()["load_groups"]["formgrade-tl101"] == {"users": ["instructor1", "instructor2"]}


def test_the_tljh_recipe_is_valid_shell_and_sets_up_a_sticky_exchange() -> None:
    script = DEPLOY / "tljh" / "install.sh"
    subprocess.run(["bash", "-n", str(script)], check=True)
    text = script.read_text()
    assert 'install -d -m 1777 "$EXCHANGE"' in text and f"EXCHANGE={EXCHANGE}" in text
    assert "-c constraints.txt -r autograder/deploy/requirements-grader.txt -e ." in text
    assert "tensorlab_hub_config.py /opt/tljh/config/jupyterhub_config.d/" in text


# --- the sharded autograde Job ---

def test_the_indexed_job_runs_one_shard_per_pod_into_the_secret_gradebook() -> None:
    spec = JOB["spec"]
    assert spec["completionMode"] == "Indexed"
    (container,) = spec["template"]["spec"]["containers"]
    command = container["command"]
    assert command[0] == "tensorlab" and container["image"] == f"tensorlab-grader:{VERSION}"
    args = build_parser().parse_args(command[1:])
    assert (args.command, args.step) == ("course", "autograde")
    index, count = args.shard.split("/")
    assert index == "$(JOB_COMPLETION_INDEX)"  # Kubernetes sets it in each pod of an Indexed Job, 0 to N-1
    assert spec["completions"] == spec["parallelism"] == int(count)
    assert [parse_shard(f"{i}/{count}") for i in range(int(count))] == [(i, int(count)) for i in range(int(count))]
    assert args.db == "$(GRADEBOOK_URL)"
    (gradebook,) = [item for item in container["env"] if item["name"] == "GRADEBOOK_URL"]
    assert set(gradebook["valueFrom"]) == {"secretKeyRef"}
    (mount,) = container["volumeMounts"]
    assert str(args.directory) == mount["mountPath"]
    assert args.jobs <= int(container["resources"]["requests"]["cpu"])
