"""The list of workloads: a name, a title and one function that builds each implementation.

A workload function takes the implementation's name ("tensorlab", "torch" or "numpy") and
returns a zero-argument callable that runs the computation once, with its inputs already made.
It returns ``None`` for an implementation it has no version of (that ratio prints as "n/a").
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

IMPLEMENTATIONS = ("tensorlab", "torch", "numpy")

# Modules whose import registers workloads; a new family of benchmarks adds its module here.
WORKLOAD_MODULES = (
    "bench.workloads", "bench.view_ops", "bench.training", "bench.data_movement", "bench.course", "bench.data_loading",
)

Builder = Callable[[str], Callable[[], Any] | None]


@dataclass(frozen=True)
class Target:
    """The slowest tensorlab may be, as a multiple of torch's and NumPy's time (None: no target)."""

    torch: float | None = None
    numpy: float | None = None
    fresh: bool = False  # the target holds for the first call in a new process too

    def describe(self) -> str:
        parts = [f"≤{limit:g}x {name}" for name, limit in (("torch", self.torch), ("numpy", self.numpy)) if limit]
        if not parts:
            return "—"
        return ", ".join(parts) + (" (warm and fresh)" if self.fresh else " (warm)")


@dataclass(frozen=True)
class Workload:
    name: str
    title: str
    build: Builder
    target: Target


REGISTRY: dict[str, Workload] = {}


def workload(name: str, title: str, target: Target | None = None) -> Callable[[Builder], Builder]:
    """Register ``build`` under ``name``; ``title`` is what the table prints."""

    def register(build: Builder) -> Builder:
        if name in REGISTRY:
            raise ValueError(f"workload {name!r} is registered twice")
        REGISTRY[name] = Workload(name, title, build, target or Target())
        return build

    return register


def load_workloads() -> dict[str, Workload]:
    for module in WORKLOAD_MODULES:
        importlib.import_module(module)
    return REGISTRY


def select(names: Iterable[str]) -> list[Workload]:
    """The workloads called ``names`` (all of them when none is named), in registration order."""
    registry = load_workloads()
    names = list(names)
    unknown = [name for name in names if name not in registry]
    if unknown:
        raise KeyError(f"unknown workload(s) {', '.join(unknown)}; known: {', '.join(registry)}")
    return [w for w in registry.values() if not names or w.name in names]
