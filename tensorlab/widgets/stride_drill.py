"""StrideDrill: predict the strides of a view, then see them.

A drill is a :class:`~tensorlab.widgets.strides.StrideModel` with its answer hidden. The picture
shows the base tensor ``x = arange(n).view(shape)``, its storage and the shape of the view ``y``,
but not the view's strides, its ``storage_offset`` or which slot each element reads (the element
values would give the slots away: every value of ``arange`` is its own slot, so they are hidden
too). The learner types the strides; a right answer, or "show me", draws the whole
:class:`~tensorlab.widgets.strides.StrideExplorer` picture with hover links.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .base import Explorer
from .quiz import Feedback
from .strides import StrideModel, render_svg
from .svg import CELL, COLOURS, GAP, Svg, operand_colour

__all__ = ["DRILLS", "StrideDrill", "StrideDrillModel", "parse_strides"]

# The drills of unit 01, easiest first: (shape of x, the view to predict).
DRILLS: tuple[tuple[tuple[int, ...], str], ...] = (
    ((3, 4), "x.t()"),
    ((3, 4), "x[:, None, :]"),
    ((2, 3, 4), "x.permute(2, 0, 1)"),
    ((2, 3, 4), "x[:, 1]"),
    ((3, 4), "x[1:, ::2]"),
    ((2, 3, 4), "x.mT"),
    ((1, 2, 3), "x.movedim(0, 2)"),
    ((3, 4), "x.unsqueeze(0).expand(2, 3, 4)"),
)


def parse_strides(text: str) -> tuple[int, ...]:
    """``"(4, 1)"``, ``"4, 1"``, ``"[4, 1]"`` or ``"4"`` -> a tuple of ints; ValueError for anything else."""
    try:
        value = ast.literal_eval(text.strip() or "()")
    except (ValueError, SyntaxError):
        raise ValueError(f"type the strides as integers separated by commas, e.g. 4, 1 (got {text!r})") from None
    values = value if isinstance(value, (tuple, list)) else (value,)
    if not all(type(v) is int for v in values):
        raise ValueError(f"strides are integers, e.g. 4, 1 (got {text!r})")
    return tuple(values)


@dataclass(frozen=True)
class Attempt:
    guess: tuple[int, ...]
    correct: bool


class StrideDrillModel:
    """One drill: the view of ``expression`` on ``arange(n).view(shape)``, its strides hidden until answered."""

    def __init__(self, shape: Sequence[int] = (3, 4), expression: str = "x.t()") -> None:
        self.strides_model = StrideModel(shape, expression)
        if self.strides_model.error:
            raise ValueError(f"a drill needs a view that exists: {self.strides_model.error}")
        self.attempts: list[Attempt] = []
        self.revealed = False

    @property
    def answer(self) -> tuple[int, ...]:
        """The view's strides (torch's ``y.stride()``)."""
        return self.strides_model.final.strides

    @property
    def question(self) -> str:
        return f"x = arange({math.prod(self.strides_model.shape)}).view({list(self.strides_model.shape)}); " \
               f"y = {self.strides_model.expression}.  y.stride() = ?"

    def check(self, guess: Sequence[int] | str) -> Feedback:
        """Compare a guess with the strides; a right guess reveals the picture."""
        strides = parse_strides(guess) if isinstance(guess, str) else tuple(int(g) for g in guess)
        correct = strides == self.answer
        self.attempts.append(Attempt(strides, correct))
        if correct:
            self.revealed = True
            return Feedback(True, f"✓ Right: y.stride() is {self.answer}. {self.explanation()}")
        return Feedback(False, f"✗ Not {strides}. {self.hint(strides)}")

    def reveal(self) -> Feedback:
        self.revealed = True
        return Feedback(False, f"y.stride() is {self.answer}. {self.explanation()}")

    def hint(self, guess: tuple[int, ...]) -> str:
        """A nudge that depends on how the guess is wrong, never the answer itself."""
        shape = self.strides_model.final.shape
        if len(guess) != len(shape):
            return f"y has {len(shape)} dims (shape {list(shape)}), so it has {len(shape)} strides."
        if sorted(guess) == sorted(self.answer):
            return "The right numbers, in the wrong order: each stride travels with its size."
        return "A stride counts the storage slots one step along that dim moves; a view never moves the data."

    def explanation(self) -> str:
        step = self.strides_model.final
        return f"y has shape {list(step.shape)}, stride {step.strides}, storage_offset {step.offset}."


def render_hidden_svg(model: StrideDrillModel) -> str:
    """The question: x, its storage and y's shape, with y's strides, offset and values left out."""
    svg = Svg("tl-strides")
    strides_model = model.strides_model
    base, view = strides_model.steps[0], strides_model.final
    svg.label(4, 16, model.question, COLOURS["text"], 12, class_="tl-outcome")
    svg.label(4, 32, f"x: shape {list(base.shape)}, stride {base.strides}, storage_offset {base.offset}", COLOURS["text"], 12)
    y = 56.0
    svg.label(4, y, "storage", COLOURS["result"], 12, font_weight="bold")
    for slot, value in enumerate(base.storage):
        svg.cell(4 + slot * CELL, y + 8, value, "#ffffff", f"slot:{slot}", [], f"storage[{slot}] = {value}", stroke=COLOURS["result"])
    y += 8 + CELL + 24
    svg.label(4, y, f"y: shape {list(view.shape)}, stride ?, storage_offset ?", operand_colour(0), 12, font_weight="bold", class_="tl-layout")
    y += 10
    columns = view.shape[-1] if view.shape else 1
    rows = view.shape[-2] if len(view.shape) >= 2 else 1
    blocks = math.prod(view.shape[:-2]) if len(view.shape) > 2 else 1
    for block in range(blocks):
        for row in range(rows):
            for column in range(columns):
                x = 4 + block * (columns * CELL + GAP) + column * CELL
                svg.cell(x, y + row * CELL, "?", "#f4f4f4", f"el:{block},{row},{column}", [], "which slot? answer first",
                         stroke=operand_colour(0), dashed=True)
    return str(svg)


class StrideDrill(Explorer):
    """``StrideDrill()``: the drills of :data:`DRILLS` one after another; ``StrideDrill([((3, 4), "x.t()")])`` for your own."""

    def __init__(self, drills: Sequence[tuple[Sequence[int], str]] = DRILLS, start: int = 0) -> None:
        self.drills = [(tuple(shape), expression) for shape, expression in drills]
        if not self.drills:
            raise ValueError("a StrideDrill needs at least one (shape, expression) drill")
        self.number = start % len(self.drills)
        self.model = StrideDrillModel(*self.drills[self.number])
        self.feedback = ""

    def go_to(self, number: int) -> None:
        self.number = number % len(self.drills)
        self.model = StrideDrillModel(*self.drills[self.number])
        self.feedback = ""
        self._refresh()

    def check(self, guess: Sequence[int] | str) -> Feedback:
        try:
            verdict = self.model.check(guess)
        except ValueError as error:
            verdict = Feedback(False, str(error))
        self.feedback = verdict.message
        self._refresh()
        return verdict

    def reveal(self) -> Feedback:
        verdict = self.model.reveal()
        self.feedback = verdict.message
        self._refresh()
        return verdict

    def to_svg(self) -> str:
        return render_svg(self.model.strides_model) if self.model.revealed else render_hidden_svg(self.model)

    def summary(self) -> str:
        position = f"drill {self.number + 1}/{len(self.drills)}: "
        if self.feedback:
            return position + self.feedback
        return position + self.model.question

    def _controls(self, widgets: Any) -> list:
        answer_box = widgets.Text(value="", description="y.stride()", placeholder="e.g. 4, 1", continuous_update=False)
        check_button = widgets.Button(description="check")
        show_button = widgets.Button(description="show me")
        next_button = widgets.Button(description="next drill")

        checked: list[str] = []  # Enter (or leaving the box) and the button both check: count each answer once

        def submit(_change: Any = None) -> None:
            text = answer_box.value.strip()
            if text and checked[-1:] != [f"{self.number}:{text}"]:
                checked.append(f"{self.number}:{text}")
                self.check(text)

        def following(_button: Any) -> None:
            answer_box.value = ""
            self.go_to(self.number + 1)

        answer_box.observe(submit, names="value")
        check_button.on_click(submit)
        show_button.on_click(lambda _button: self.reveal())
        next_button.on_click(following)
        return [widgets.HBox([answer_box, check_button, show_button, next_button])]
