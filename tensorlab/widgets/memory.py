"""MemoryExplorer: per layer of a Linear+ReLU stack, which tensors are saved for backward, which are
never stored (checkpointed) and recomputed, for ``checkpoint_sequential`` with a chosen segment count.

The model follows torch's ``checkpoint_sequential(model, segments, x, use_reentrant=False)``: the
modules are cut into ``segments`` runs of ``len // segments`` (the last takes the rest); every run
but the last is checkpointed, so it keeps only its input (saved at the boundary) and its
activations are recomputed in backward; the last run saves as usual. A ``Linear`` saves its input
and its (transposed) weight, a ``ReLU`` its output. ``tests/test_widgets_memory.py`` checks the
bytes against torch's own saved-tensor hooks.

The picture: one column per module; under it the tensors it saves (orange: stored until backward;
dashed: not stored, recomputed). Hover a module to light up its saved tensors.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .base import Explorer
from .svg import CELL, COLOURS, Svg

__all__ = ["MemoryExplorer", "MemoryModel", "SavedTensor"]

COLUMN = CELL * 3


@dataclass(frozen=True)
class SavedTensor:
    """One tensor a module saves for backward."""

    module: int
    what: str  # "input", "weight", "output"
    shape: tuple[int, ...]
    nbytes: int
    stored: bool  # False: checkpointed, recomputed in backward


class MemoryModel:
    """``depth`` Linear(width, width)+ReLU blocks on a (batch, width) float32 input, in ``segments`` segments."""

    def __init__(self, depth: int = 4, width: int = 8, batch: int = 5, segments: int = 1) -> None:
        if not 1 <= depth <= 12:
            raise ValueError(f"depth must be between 1 and 12, got {depth}")
        modules = 2 * depth
        if not 1 <= segments <= modules:
            raise ValueError(f"segments must be between 1 and the number of modules ({modules}), got {segments}")
        self.depth, self.width, self.batch, self.segments = depth, width, batch, segments
        self.names = [name for _ in range(depth) for name in ("Linear", "ReLU")]
        size = len(self.names) // segments
        self.checkpointed_until = size * (segments - 1)  # modules before this index are checkpointed
        self.boundaries = list(range(0, self.checkpointed_until, size))  # each checkpointed segment's first module
        activation = (batch, width)
        self.tensors: list[SavedTensor] = []
        for i, name in enumerate(self.names):
            stored = i >= self.checkpointed_until
            if name == "Linear":
                self.tensors.append(SavedTensor(i, "input", activation, 4 * batch * width, stored or i in self.boundaries))
                self.tensors.append(SavedTensor(i, "weight", (width, width), 4 * width * width, stored))
            else:
                if not stored and i in self.boundaries:  # the checkpoint keeps the segment's input itself
                    self.tensors.append(SavedTensor(i, "input", activation, 4 * batch * width, True))
                self.tensors.append(SavedTensor(i, "output", activation, 4 * batch * width, stored))

    def saved_by(self, module: int) -> list[SavedTensor]:
        return [t for t in self.tensors if t.module == module]

    @property
    def stored_bytes(self) -> int:
        """Bytes packed between forward and backward (what a byte-counting pack hook sees)."""
        return sum(t.nbytes for t in self.tensors if t.stored)

    @property
    def recomputed_modules(self) -> int:
        return self.checkpointed_until

    def describe(self) -> str:
        if self.segments == 1:
            return f"1 segment: nothing checkpointed, every module saves; {self.stored_bytes} bytes packed"
        return (f"{self.segments} segments: modules 0-{self.checkpointed_until - 1} checkpointed (inputs kept at "
                f"{self.boundaries}), recomputed in backward; {self.stored_bytes} bytes packed")


class MemoryExplorer(Explorer):
    """``MemoryExplorer(depth=4, segments=2)``: what each module saves, and what checkpointing drops."""

    def __init__(self, depth: int = 4, segments: int = 1, width: int = 8, batch: int = 5) -> None:
        self.model = MemoryModel(depth, width, batch, segments)

    def summary(self) -> str:
        return self.model.describe()

    def to_svg(self) -> str:
        model = self.model
        svg = Svg("tl-memory")
        left, top = 10, 30
        svg.label(left, 16, f"checkpoint_sequential(model, {model.segments}, x): saved for backward ↓", COLOURS["muted"])
        for i, name in enumerate(model.names):
            x = left + i * COLUMN
            checkpointed = i < model.checkpointed_until
            saved = model.saved_by(i)
            box = svg.rect(x, top, COLUMN - 6, CELL, fill=COLOURS["function"], stroke="#555555",
                           stroke_dasharray="3 2" if checkpointed else None)
            label = svg.text(x + (COLUMN - 6) / 2, top + CELL / 2 + 4, f"{i} {name}", text_anchor="middle", font_size=11)
            kept = sum(t.nbytes for t in saved if t.stored)
            how = "checkpointed: recomputed in backward" if checkpointed else "runs normally"
            info = f"module {i} ({name}), {how}: saves {', '.join(t.what for t in saved)}; {kept} bytes stored"
            svg.group([box, label], f"module:{i}", [f"saved:{i},{t.what}" for t in saved], info, class_="tl-cell")
            for row, t in enumerate(saved):
                y = top + (row + 1) * (CELL + 6)
                cell = svg.rect(x, y, COLUMN - 6, CELL, fill=COLOURS["saved"] if t.stored else "#ffffff",
                                stroke="#555555", stroke_dasharray=None if t.stored else "3 2")
                text = svg.text(x + (COLUMN - 6) / 2, y + CELL / 2 + 4, t.what, text_anchor="middle", font_size=10)
                state = "stored until backward" if t.stored else "not stored: recomputed in backward"
                if t.stored and checkpointed:
                    state = "stored: the checkpointed segment's input, saved at its boundary"
                svg.group([cell, text], f"saved:{i},{t.what}", [f"module:{i}"],
                          f"module {i}'s {t.what} {list(t.shape)}, {t.nbytes} bytes: {state}", class_="tl-cell")
        svg.label(left, top + 4 * (CELL + 6), self.summary(), COLOURS["text"], 11)
        return str(svg)

    def _controls(self, widgets: Any) -> list:
        slider = widgets.IntSlider(value=self.model.segments, min=1, max=len(self.model.names), description="segments",
                                   style={"description_width": "initial"})

        def move(change: Any) -> None:
            self.model = MemoryModel(self.model.depth, self.model.width, self.model.batch, change["new"])
            self._refresh()

        slider.observe(move, names="value")
        return [slider]
