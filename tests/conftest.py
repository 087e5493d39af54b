"""Shared pytest settings: hypothesis profiles that keep the suite fast on 2 cores.

- ``ci`` (the default, what `make test` runs): 60 examples per test, derandomized, so a run is
  reproducible and CI cannot turn red by luck.
- ``explore``: 500 fresh random examples per test — run it to hunt for new bugs
  (``HYPOTHESIS_PROFILE=explore .venv/bin/pytest tests/test_views.py``).
- ``dev``: 25 random examples, for a quick loop while editing.
"""

import os

import pytest
from hypothesis import HealthCheck, settings

from tests.postgres_server import postgres_url  # noqa: F401 - a fixture of the gradebook tests: a PostgreSQL server per module

settings.register_profile(
    "ci", max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "explore", max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=25, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(scope="session", autouse=True)
def public_cases_of_every_exercise(tmp_path_factory: pytest.TempPathFactory) -> None:
    """``check("name", f)`` in a test finds the public cases of any exercise's function (a student's
    notebook reads its own exercise's tensorlab-cases.json instead): made once per test process."""
    from tests.public_cases import write_every_exercise_cases

    path = write_every_exercise_cases(tmp_path_factory.mktemp("cases") / "tensorlab-cases.json")
    os.environ["TENSORLAB_CASES"] = str(path)


# --- the fast path: op families run on both paths ----------------------------------------------
# Every speed-only trick (tensorlab/_fast/) must leave every value unchanged, so the tests of the
# ops it touches run twice: "fast" (the default) and "plain" (``tensorlab.set_fast_path(False)``,
# the code the notebooks quote). Per module, the tests whose id contains one of the fragments
# below run on the plain path too (None: all of them), chosen because a hook sits in their ops:
# in-place add_/sub_/mul_ and relu's mask (elementwise, optimizer steps), the matrix-gradient
# rule (linalg, linear, double backward), gradient stealing (the engine: all of autograd), the
# one-GEMM convolution (conv1d/conv2d and their layers; conv_transpose, unfold/fold and pooling
# have no hook), view ops and basic indexing (straight to forward when nothing is recorded), and
# the machinery's own tests. The pool only engages above 65,536 elements,
# which test_buffers covers. The rest of the suite runs once, on the default path.
# ``--fast-path=on`` or ``--fast-path=off`` runs one path only.
FAST_PATH_MODULES = {
    "test_elementwise": (
        "-add_", "-add_float_", "-sub_", "-mul_", "-mul_float_", "-grow_", "inplace_on", "inplace_result",
        "inplace_write", "inplace_through", "relu", "add_alpha_rules", "seed_example",
    ),
    "test_linalg": None,
    "test_autograd": None,
    "test_conv": ("conv1d", "conv2d", "conv_is", "conv_integer", "conv_errors", "benchmark", "empty_batch"),
    "test_conv_modules": ("conv1d_layer", "conv2d_layer", "convnet", "create_graph", "double_backward_raises"),
    "test_nn_functional": ("relu", "linear"),
    "test_nn_double_backward": ("relu", "linear", "pointwise"),
    "test_optim": ("trajectory", "training"),
    "test_grad_stealing": None,
    "test_buffers": None,
    "test_fast_path": None,
    "test_views": None,
    "test_indexing_basic": None,
}


def _module_name(item_or_metafunc) -> str:
    return item_or_metafunc.module.__name__.rsplit(".", 1)[-1]


_DEFAULT_PATH = os.environ.get("TENSORLAB_FAST_PATH", "1").strip().lower() not in ("0", "false", "off", "no")


def pytest_addoption(parser):
    parser.addoption(
        "--fast-path", choices=("both", "on", "off"), default="both",
        help="paths for the fast-path test modules (default both); other modules always run fast",
    )


def pytest_generate_tests(metafunc):
    if _module_name(metafunc) not in FAST_PATH_MODULES:
        return
    choice = metafunc.config.getoption("--fast-path")
    paths = {"both": [True, False], "on": [True], "off": [False]}[choice]
    metafunc.parametrize("fast_path", paths, ids=["fast" if p else "plain" for p in paths], indirect=True)


def pytest_collection_modifyitems(config, items):
    """Drop the plain-path copies of tests that reach no hook (see FAST_PATH_MODULES)."""
    keep, drop = [], []
    for item in items:
        fragments = FAST_PATH_MODULES.get(_module_name(item)) if "[plain" in item.nodeid else None
        if fragments is None or any(f in item.nodeid for f in fragments):
            keep.append(item)
        else:
            drop.append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


@pytest.fixture(autouse=True)
def fast_path(request):
    """The path a test runs on: its module's parameter, else the default (fast, unless
    ``TENSORLAB_FAST_PATH=0`` was set for the run). Yields it."""
    import tensorlab

    enabled = getattr(request, "param", _DEFAULT_PATH)
    with tensorlab.fast_path(enabled):
        yield enabled
