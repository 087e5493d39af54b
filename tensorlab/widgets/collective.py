"""CollectiveExplorer: ring all-reduce step by step, each rank's chunks coloured by whose data they hold.

The model replays the message trace of :func:`tensorlab.distributed.ring_all_reduce` (one source
of truth: the picture shows what the simulator does) with *sets of ranks* instead of numbers: at
the start rank r's chunk k holds only rank r's part; in the reduce-scatter phase a received chunk
is added, so the receiver's set grows by the sender's; in the all-gather phase a received chunk
replaces the receiver's copy. After N - 1 steps rank r's chunk r holds every rank's part (a
reduce-scatter); after 2(N - 1) steps every chunk of every rank does (an all-reduce).

The picture: one row per rank, one column per chunk; a cell's shade says how many ranks' parts it
sums, its label names them; the cells that received a chunk in the step just taken have an amber border, and the
message is written beside the receiving rank. Hover a cell
to light up the ranks whose data it already holds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .base import Explorer
from .svg import CELL, COLOURS, GAP, Svg

__all__ = ["CollectiveExplorer", "CollectiveModel", "RingStep"]

COLUMN = CELL * 3  # a chunk's cell is wide enough for "0+1+2+3"
ROW = CELL + 8


@dataclass(frozen=True)
class RingStep:
    """The state after some steps: who holds what, and the messages of the step just taken."""

    holds: tuple[tuple[frozenset[int], ...], ...]  # holds[rank][chunk]: the ranks summed into that chunk
    messages: tuple[tuple[int, int, int], ...]  # (source, target, chunk) of the last step
    phase: str  # "start" | "reduce-scatter" | "all-gather"


class CollectiveModel:
    """Ring all-reduce on ``world_size`` ranks, replayed from the simulator's trace as sets of ranks."""

    def __init__(self, world_size: int) -> None:
        if not 1 <= world_size <= 12:
            raise ValueError(f"world_size must be between 1 and 12, got {world_size}")
        from ..distributed.simulator import ring_all_reduce

        self.world_size = n = world_size
        _, trace = ring_all_reduce([np.zeros(n) for _ in range(n)])  # one element per chunk
        holds = [[frozenset({rank}) for _ in range(n)] for rank in range(n)]
        self.steps: list[RingStep] = [RingStep(self._frozen(holds), (), "start")]
        for step in range(trace.steps):
            sent = [m for m in trace.messages if m.step == step]
            before = [row[:] for row in holds]  # every rank sends at once: read before writing
            scattering = step < n - 1
            for m in sent:
                arriving = before[m.source][m.chunk]
                holds[m.target][m.chunk] = before[m.target][m.chunk] | arriving if scattering else arriving
            phase = "reduce-scatter" if scattering else "all-gather"
            self.steps.append(RingStep(self._frozen(holds), tuple((m.source, m.target, m.chunk) for m in sent), phase))

    @staticmethod
    def _frozen(holds: list[list[frozenset[int]]]) -> tuple[tuple[frozenset[int], ...], ...]:
        return tuple(tuple(row) for row in holds)

    @property
    def last_step(self) -> int:
        return len(self.steps) - 1

    def describe(self, step: int) -> str:
        state = self.steps[step]
        if state.phase == "start":
            return f"{self.world_size} ranks, each with its own buffer in {self.world_size} chunks; 2(N-1) = {self.last_step} steps to go"
        sends = ", ".join(f"{s}→{t} chunk {c}" for s, t, c in state.messages)
        action = "adds" if state.phase == "reduce-scatter" else "keeps"
        return f"step {step}/{self.last_step} ({state.phase}): each receiver {action} what arrives: {sends}"


class CollectiveExplorer(Explorer):
    """``CollectiveExplorer(4)``: ring all-reduce on 4 ranks; a slider walks through its 6 steps."""

    def __init__(self, world_size: int = 4, step: int = 0) -> None:
        self.model = CollectiveModel(world_size)
        self.step = max(0, min(step, self.model.last_step))

    def summary(self) -> str:
        return self.model.describe(self.step)

    def to_svg(self) -> str:
        n, state = self.model.world_size, self.model.steps[self.step]
        svg = Svg("tl-collective")
        left, top = 70, 30
        svg.label(left, 16, f"chunk of the buffer →   ({state.phase}, step {self.step}/{self.model.last_step})", COLOURS["muted"])
        for chunk in range(n):
            svg.label(left + chunk * COLUMN + COLUMN / 2, top - 4, f"chunk {chunk}", COLOURS["muted"], 11, text_anchor="middle")
        receiving = {(target, chunk): source for source, target, chunk in state.messages}
        for rank in range(n):
            y = top + rank * ROW
            title = svg.text(8, y + CELL / 2 + 4, f"rank {rank}", fill=COLOURS["text"], font_size=12)
            svg.group([title], f"rank:{rank}", info=f"rank {rank}: one process, one GPU on a real cluster", class_="tl-rank")
            for chunk in range(n):
                holders = state.holds[rank][chunk]
                complete = len(holders) == n
                shade = 0.15 + 0.85 * len(holders) / n
                just_arrived = (rank, chunk) in receiving
                box = svg.rect(left + chunk * COLUMN, y, COLUMN - 6, CELL, fill=COLOURS["result"], fill_opacity=f"{shade:.2f}",
                               stroke=COLOURS["highlight"] if just_arrived else "#555555",
                               stroke_width=3 if just_arrived else 2 if complete else 1)
                label = svg.text(left + chunk * COLUMN + (COLUMN - 6) / 2, y + CELL / 2 + 4, "+".join(map(str, sorted(holders))),
                                 text_anchor="middle", font_size=11, fill=COLOURS["text"])
                arrived = f"; it just arrived from rank {receiving[rank, chunk]}" if just_arrived else ""
                info = (f"rank {rank}, chunk {chunk}: the sum of the parts of ranks {sorted(holders)}"
                        f"{' (complete)' if complete else ''}{arrived}")
                svg.group([box, label], f"cell:{rank},{chunk}", [f"rank:{r}" for r in sorted(holders)], info, class_="tl-cell")
        for source, target, chunk in state.messages:  # beside each receiver: what it got this step, from whom
            verb = "added" if state.phase == "reduce-scatter" else "copied"
            svg.label(left + n * COLUMN + GAP, top + target * ROW + CELL / 2 + 4, f"← chunk {chunk} from rank {source}, {verb}",
                      COLOURS["muted"], 11)
        return str(svg)

    def _controls(self, widgets: Any) -> list:
        slider = widgets.IntSlider(value=self.step, min=0, max=self.model.last_step, description="step",
                                   style={"description_width": "initial"})
        ranks = widgets.IntSlider(value=self.model.world_size, min=2, max=8, description="ranks",
                                  style={"description_width": "initial"})

        def move(change: Any) -> None:
            self.step = change["new"]
            self._refresh()

        def resize(change: Any) -> None:
            self.model = CollectiveModel(change["new"])
            slider.max = self.model.last_step
            slider.value = self.step = min(self.step, self.model.last_step)
            self._refresh()

        slider.observe(move, names="value")
        ranks.observe(resize, names="value")
        return [widgets.HBox([ranks, slider])]
