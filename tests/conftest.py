"""Shared pytest settings: hypothesis profiles that keep the suite fast on 2 cores.

- ``ci`` (the default, what `make test` runs): 60 examples per test, derandomized, so a run is
  reproducible and CI cannot turn red by luck.
- ``explore``: 500 fresh random examples per test — run it to hunt for new bugs
  (``HYPOTHESIS_PROFILE=explore .venv/bin/pytest tests/test_views.py``).
- ``dev``: 25 random examples, for a quick loop while editing.
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "explore", max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=25, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
