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

settings.register_profile(
    "ci", max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "explore", max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=25, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


# --- the fast path: op families run on both paths ----------------------------------------------
# Every speed-only trick (tensorlab/_fast/) must leave every value unchanged, so the test
# modules of the ops it touches run twice: "fast" (the default) and "plain"
# (``tensorlab.set_fast_path(False)``, the code the notebooks quote). Chosen because a fast-path
# hook sits in their ops: elementwise (pooled ufuncs, add_/sub_/mul_, relu's mask), linalg
# (pooled products, gradient layout), conv (one-GEMM convolution, pooled temporaries), autograd
# and the nn modules (gradient stealing in the engine; linear = addmm, relu), optim (in-place
# updates), and the machinery's own tests. Reductions, indexing, views and the rest have no hook
# and run once, on the default path. Run one path only with ``--fast-path=on`` or ``--fast-path=off``.
FAST_PATH_MODULES = {
    "test_elementwise", "test_linalg", "test_conv", "test_conv_modules", "test_autograd",
    "test_nn_functional", "test_nn_double_backward", "test_optim", "test_grad_stealing",
    "test_buffers", "test_fast_path",
}


_DEFAULT_PATH = os.environ.get("TENSORLAB_FAST_PATH", "1").strip().lower() not in ("0", "false", "off", "no")


def pytest_addoption(parser):
    parser.addoption(
        "--fast-path", choices=("both", "on", "off"), default="both",
        help="paths for the fast-path test modules (default both); other modules always run fast",
    )


def pytest_generate_tests(metafunc):
    if metafunc.module.__name__.rsplit(".", 1)[-1] not in FAST_PATH_MODULES:
        return
    choice = metafunc.config.getoption("--fast-path")
    paths = {"both": [True, False], "on": [True], "off": [False]}[choice]
    metafunc.parametrize("fast_path", paths, ids=["fast" if p else "plain" for p in paths], indirect=True)


@pytest.fixture(autouse=True)
def fast_path(request):
    """The path a test runs on: its module's parameter, else the default (fast, unless
    ``TENSORLAB_FAST_PATH=0`` was set for the run). Yields it."""
    import tensorlab

    enabled = getattr(request, "param", _DEFAULT_PATH)
    with tensorlab.fast_path(enabled):
        yield enabled
