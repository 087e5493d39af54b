"""MultipleChoice: a self-check question that says at once whether an answer is right, and why.

Like the explorers it is a plain-Python model first (:meth:`MultipleChoice.check` answers a
choice with :class:`Feedback`, testable without a browser), then two outputs
(:mod:`tensorlab.widgets.fallback`): plain text and HTML (the question, the lettered options,
the answer folded away) that nbconvert and static pages show, and inside a live kernel the
interactive view, radio buttons that print the feedback as soon as one is picked, which hides
the static one. Anyone without widgets can call ``question.check("b")`` instead. ipywidgets is
imported only when the interactive view is first built.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .fallback import fallback_html, hider, new_fallback_id, show

__all__ = ["Feedback", "MultipleChoice"]

LETTERS = "abcdefghij"


@dataclass(frozen=True)
class Feedback:
    """The verdict on one choice: whether it is right, and the sentence a learner reads."""

    correct: bool
    message: str

    def __str__(self) -> str:
        return self.message

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """As a cell's result, a notebook shows the sentence, not the dataclass."""
        printer.text(self.message)


class MultipleChoice:
    """``MultipleChoice("2 + 2?", ["3", "4"], answer=1, explanation="...")``.

    ``answer`` is the index of the right option. ``explanation`` says why it is right (shown
    once the learner picks it, or picks wrong and wants to learn). ``hints`` optionally maps
    the index of a wrong option to a sentence about that particular misconception.
    """

    def __init__(
        self,
        question: str,
        options: Sequence[str],
        answer: int,
        explanation: str = "",
        hints: dict[int, str] | None = None,
    ) -> None:
        if not 2 <= len(options) <= len(LETTERS):
            raise ValueError(f"give between 2 and {len(LETTERS)} options, got {len(options)}")
        if not 0 <= answer < len(options):
            raise ValueError(f"answer must index one of the {len(options)} options, got {answer}")
        self.question = question
        self.options = list(options)
        self.answer = answer
        self.explanation = explanation
        self.hints = dict(hints or {})
        self._box: Any = None
        self._fallback_id = new_fallback_id()  # links the live view to its static fallbacks

    # --- the model ------------------------------------------------------------------------
    def _index_of(self, choice: int | str) -> int:
        """A choice may be an index (1), a letter ("b", "B", "b)") or an option's exact text."""
        if isinstance(choice, bool):
            raise TypeError("choose with an index, a letter or an option's text, not a bool")
        if isinstance(choice, int):
            index = choice
        elif isinstance(choice, str) and choice in self.options:
            index = self.options.index(choice)
        elif isinstance(choice, str) and len(choice.strip().rstrip(").")) == 1:
            index = LETTERS.find(choice.strip().rstrip(").").lower())
        else:
            raise ValueError(f"not one of the options: {choice!r} (answer with a letter a-{LETTERS[len(self.options) - 1]})")
        if not 0 <= index < len(self.options):
            raise ValueError(f"there is no option {choice!r}: pick a-{LETTERS[len(self.options) - 1]}")
        return index

    def check(self, choice: int | str) -> Feedback:
        """Judge one choice; the message names the option and says why."""
        index = self._index_of(choice)
        label = f"({LETTERS[index]}) {self.options[index]}"
        if index == self.answer:
            return Feedback(True, " ".join(part for part in (f"Correct: {label}.", self.explanation) if part))
        hint = self.hints.get(index, "Not quite; look at the example above again and try another option.")
        return Feedback(False, f"Not {label}. {hint}")

    # --- pictures -------------------------------------------------------------------------
    def text(self) -> str:
        """The plain-text version: question, lettered options, and how to check an answer."""
        lines = [f"Quick check: {self.question}"]
        lines += [f"  ({LETTERS[i]}) {option}" for i, option in enumerate(self.options)]
        lines.append('Pick an option above, or call .check("a") on this question.')
        return "\n".join(lines)

    def to_html(self) -> str:
        """Static HTML: the question, the lettered options, and the answer folded into a <details>.

        The letters are text, not list numbering, which page styles (nbconvert's among them) reset.
        """
        options = "".join(f"<li>({LETTERS[i]}) {html.escape(option)}</li>" for i, option in enumerate(self.options))
        reveal = html.escape(self.check(self.answer).message)
        return (
            f'<div class="tl-quiz"><p><b>Quick check:</b> {html.escape(self.question)}</p>'
            f'<ul style="list-style: none; padding-left: 1em">{options}</ul><details><summary>Show the answer</summary>{reveal}</details></div>'
        )

    def widget(self) -> Any:
        """The interactive view: radio buttons, and the feedback under them once one is picked."""
        if self._box is None:
            import ipywidgets

            labels = [f"({LETTERS[i]}) {option}" for i, option in enumerate(self.options)]
            buttons = ipywidgets.RadioButtons(options=labels, value=None, layout={"width": "max-content"})
            feedback = ipywidgets.HTML("")

            def show(change: dict) -> None:
                if change["new"] is None:
                    feedback.value = ""
                    return
                verdict = self.check(labels.index(change["new"]))
                colour = "#2e7d32" if verdict.correct else "#c62828"
                feedback.value = f'<span style="color:{colour}">{html.escape(verdict.message)}</span>'

            buttons.observe(show, names="value")
            question = ipywidgets.HTML(f"<b>Quick check:</b> {html.escape(self.question)}")
            self._box = ipywidgets.VBox([question, buttons, feedback, hider(self._fallback_id)])
            self._box.add_class("tl-quiz")
        return self._box

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict:
        """The static question: plain text, and HTML marked as this quiz's fallback."""
        return {"text/plain": self.text(), "text/html": fallback_html(self.to_html(), self._fallback_id)}

    def _ipython_display_(self) -> None:
        """In a notebook: the static question, then (in a live kernel) the radio buttons that replace it."""
        show(self._repr_mimebundle_(), self.widget)

    def __repr__(self) -> str:
        return self.text()
