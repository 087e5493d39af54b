"""VersionExplorer: which tensors share a storage, and the version counter they share, step by step.

A *program* is a list of statements written as plain tuples, so that the same program can be
run in tensorlab (the explorer's model), in torch (the tests' oracle) and read by an exercise:

==========================  ============================  ===========================================
statement                   Python                        storage and ``_version``
==========================  ============================  ===========================================
``("new", "a")``            ``a = torch.zeros(4)``        a new storage, version 0
``("view", "b", "a")``      ``b = a[:]``                  ``a``'s storage (a view), same counter
``("detach", "b", "a")``    ``b = a.detach()``            ``a``'s storage, same counter
``("clone", "b", "a")``     ``b = a.clone()``             a new storage, version 0
``("add", "b", "a")``       ``b = a + 1``                 a new storage, version 0
``("add_", "a")``           ``a.add_(1)``                 the counter of ``a``'s storage + 1
``("setitem", "a")``        ``a[0] = 5``                  + 1
``("iadd", "a")``           ``a += 1``                    + 1 (the same tensor, written in place)
``("index_iadd", "a")``     ``a[0] += 1``                 + 2: ``a[0].add_(1)``, then ``a[0] = ...``
``("copy_", "a", "b")``     ``a.copy_(b)``                + 1 for ``a`` only (``b`` is read)
==========================  ============================  ===========================================

:func:`run_program` really runs the statements (``lib`` is ``tensorlab`` or ``torch``) and
records, after each one, every live name's storage (numbered by the statement that allocated
it) and ``_version``. Nothing is parsed from text, so a program can never run arbitrary code.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from .base import Explorer
from .svg import CELL, COLOURS, GAP, Svg, operand_colour

__all__ = ["STATEMENTS", "Statement", "VersionExplorer", "VersionModel", "VersionStep", "run_program", "source_of"]

Statement = tuple[str, ...]
State = dict[str, tuple[int, int]]  # name -> (storage number, version)

STATEMENTS = {  # kind -> (number of names, the Python it stands for)
    "new": (1, "{0} = torch.zeros(4)"),
    "view": (2, "{0} = {1}[:]"),
    "detach": (2, "{0} = {1}.detach()"),
    "clone": (2, "{0} = {1}.clone()"),
    "add": (2, "{0} = {1} + 1"),
    "add_": (1, "{0}.add_(1)"),
    "setitem": (1, "{0}[0] = 5"),
    "iadd": (1, "{0} += 1"),
    "index_iadd": (1, "{0}[0] += 1"),
    "copy_": (2, "{0}.copy_({1})"),
}
ALLOCATING = frozenset({"new", "clone", "add"})  # statements whose result gets a new storage


def source_of(statement: Sequence[str]) -> str:
    """The Python a statement stands for: ``("view", "b", "a")`` -> ``"b = a[:]"``."""
    kind, *names = statement
    if kind not in STATEMENTS:
        raise ValueError(f"unknown statement {kind!r}; known: {', '.join(STATEMENTS)}")
    count, template = STATEMENTS[kind]
    if len(names) != count or not all(isinstance(name, str) and name.isidentifier() for name in names):
        raise ValueError(f"{kind!r} takes {count} name(s), got {names!r}")
    return template.format(*names)


def _execute(lib: ModuleType, tensors: dict[str, Any], statement: Sequence[str]) -> Any:
    """Run one statement on ``tensors`` (name -> tensor); return the tensor it assigned, if any."""
    kind, *names = statement
    read = names[1:] if kind in ALLOCATING | {"view", "detach"} else names
    if any(name not in tensors for name in read):
        raise ValueError(f"{source_of(statement)}: a name is used before it is assigned")
    target = names[0]
    if kind == "new":
        tensors[target] = lib.zeros(4)
    elif kind == "view":
        tensors[target] = tensors[names[1]][:]
    elif kind == "detach":
        tensors[target] = tensors[names[1]].detach()
    elif kind == "clone":
        tensors[target] = tensors[names[1]].clone()
    elif kind == "add":
        tensors[target] = tensors[names[1]] + 1
    elif kind == "add_":
        tensors[target].add_(1)
    elif kind == "setitem":
        tensors[target][0] = 5
    elif kind == "iadd":
        tensor = tensors[target]
        tensor += 1
        tensors[target] = tensor
    elif kind == "index_iadd":
        tensors[target][0] += 1
    else:  # copy_
        tensors[target].copy_(tensors[names[1]])
    return tensors[target]


def _storage_key(tensor: Any) -> int:
    return int(tensor.untyped_storage().data_ptr())


def run_program(program: Sequence[Sequence[str]], lib: ModuleType | None = None) -> list[State]:
    """Run ``program`` in ``lib`` (tensorlab by default); the state of every name after each statement."""
    if lib is None:
        import tensorlab

        lib = tensorlab
    for statement in program:
        source_of(statement)  # refuses unknown statements before anything runs
    tensors: dict[str, Any] = {}
    numbers: dict[int, int] = {}  # storage -> the statement that allocated it
    keep_alive: list[Any] = []  # a freed storage's address may be reused: keep every storage alive
    states: list[State] = []
    for step, statement in enumerate(program):
        tensor = _execute(lib, tensors, statement)
        keep_alive.append(tensor)
        numbers.setdefault(_storage_key(tensor), step)
        states.append({name: (numbers[_storage_key(t)], int(t._version)) for name, t in tensors.items()})
    return states


@dataclass(frozen=True)
class VersionStep:
    """After one statement: its Python, and each name's storage number and version."""

    source: str
    state: dict[str, tuple[int, int]]

    def storages(self) -> dict[int, list[str]]:
        """Storage number -> the names that view it, in order of first appearance."""
        groups: dict[int, list[str]] = {}
        for name, (storage, _) in self.state.items():
            groups.setdefault(storage, []).append(name)
        return groups

    def version_of(self, storage: int) -> int:
        return next(version for number, version in self.state.values() if number == storage)


class VersionModel:
    """``VersionModel([("new", "a"), ("view", "b", "a"), ("add_", "b")])``: one step per statement."""

    def __init__(self, program: Sequence[Sequence[str]]) -> None:
        self.program = [tuple(statement) for statement in program]
        if not self.program:
            raise ValueError("a program needs at least one statement")
        states = run_program(self.program)
        self.steps = [VersionStep(source_of(s), state) for s, state in zip(self.program, states, strict=True)]

    def describe(self, step: int) -> str:
        current = self.steps[step]
        parts = [f"storage #{number} (version {current.version_of(number)}): {', '.join(names)}"
                 for number, names in current.storages().items()]
        return f"after statement {step}, {current.source}: " + "; ".join(parts)


def render_svg(model: VersionModel, step: int) -> str:
    """The program with the current statement marked, then one row per storage with its names."""
    svg = Svg("tl-versions")
    current = model.steps[step]
    y = 16.0
    for number, statement in enumerate(model.steps):
        done = number <= step
        if number == step:
            svg.label(4, y, "▶", COLOURS["highlight"], 12)
        svg.label(18, y, f"{number}: {statement.source}", COLOURS["text"] if done else COLOURS["muted"], 12,
                  font_weight="bold" if number == step else None, class_="tl-line")
        y += 16
    y += 12
    storages = current.storages()
    for number, names in storages.items():
        version = current.version_of(number)
        storage_colour = COLOURS["result"]
        name_keys = [f"name:{name}" for name in names]
        info = (f"storage #{number} (allocated by step {number}) is viewed by {', '.join(names)}; "
                f"its version counter is {version}")
        box = svg.rect(4, y, 4 * CELL, CELL, fill="#ffffff", stroke=storage_colour)
        caption = svg.text(4 + 2 * CELL, y + CELL / 2 + 4, f"storage #{number}", text_anchor="middle", font_size=11)
        badge = svg.text(4 + 4 * CELL + 8, y + CELL / 2 + 4, f"_version {version}", font_size=11,
                         fill=COLOURS["error"] if version else COLOURS["muted"])
        svg.group([box, caption, badge], f"storage:{number}", name_keys, info, class_="tl-storage")
        x = 4 + 4 * CELL + 100
        for index, name in enumerate(names):
            others = [key for key in name_keys if key != f"name:{name}"]
            shared = f"shares it with {', '.join(n for n in names if n != name)}" if len(names) > 1 else "alone"
            svg.cell(x + index * (CELL + GAP / 2), y, name, "#ffffff", f"name:{name}", [f"storage:{number}", *others],
                     f"{name}: storage #{number}, _version {version}, {shared}", stroke=operand_colour(0))
        y += CELL + GAP
    return str(svg)


class VersionExplorer(Explorer):
    """``VersionExplorer(program, step=None)``: the state after ``step`` (default: the last), with a slider."""

    def __init__(self, program: Sequence[Sequence[str]], step: int | None = None) -> None:
        self.model = VersionModel(program)
        last = len(self.model.steps) - 1
        self.step = last if step is None else max(0, min(int(step), last))

    def to_svg(self) -> str:
        return render_svg(self.model, self.step)

    def summary(self) -> str:
        return self.model.describe(self.step)

    def _controls(self, widgets: Any) -> list:
        slider = widgets.IntSlider(value=self.step, min=0, max=len(self.model.steps) - 1, description="statement")

        def update(change: Any) -> None:
            self.step = int(change["new"])
            self._refresh()

        slider.observe(update, names="value")
        return [slider]
