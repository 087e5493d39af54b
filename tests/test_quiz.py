"""The self-check quiz: right and wrong answers get the right feedback, with or without a browser."""

from __future__ import annotations

import pytest

from tensorlab.widgets.quiz import Feedback, MultipleChoice


@pytest.fixture
def question() -> MultipleChoice:
    return MultipleChoice(
        "Shape of torch.ones(3, 1) + torch.ones(4)?",
        ["(3, 4)", "(4, 3)", "RuntimeError"],
        answer=0,
        explanation="Right-align: (3, 1) and (1, 4) stretch to (3, 4).",
        hints={2: "A size-1 dim stretches; only two different sizes > 1 clash."},
    )


@pytest.mark.parametrize("choice", [0, "a", "A", "a)", " a ", "(3, 4)"])
def test_right_answer_in_any_spelling_is_correct(question: MultipleChoice, choice: int | str) -> None:
    feedback = question.check(choice)
    assert feedback == Feedback(True, feedback.message)
    assert feedback.message.startswith("Correct: (a) (3, 4).")
    assert "Right-align" in feedback.message


def test_wrong_answer_names_the_option_and_gives_its_hint(question: MultipleChoice) -> None:
    feedback = question.check("c")
    assert not feedback.correct
    assert feedback.message.startswith("Not (c) RuntimeError.")
    assert "only two different sizes" in str(feedback)


def test_wrong_answer_without_a_hint_gets_a_generic_nudge(question: MultipleChoice) -> None:
    feedback = question.check(1)
    assert not feedback.correct
    assert "try another option" in feedback.message
    assert "Right-align" not in feedback.message  # the explanation would give the answer away


@pytest.mark.parametrize("choice", ["z", 7, -1, "(5, 5)"])
def test_choice_that_is_not_an_option_is_refused(question: MultipleChoice, choice: int | str) -> None:
    with pytest.raises(ValueError, match="option"):
        question.check(choice)


def test_bool_is_not_a_choice(question: MultipleChoice) -> None:
    with pytest.raises(TypeError):
        question.check(True)


@pytest.mark.parametrize(("options", "answer"), [(["only one"], 0), (["a", "b"], 2), (["a", "b"], -1)])
def test_malformed_question_is_refused(options: list[str], answer: int) -> None:
    with pytest.raises(ValueError):
        MultipleChoice("?", options, answer)


def test_plain_text_fallback_lists_question_and_options_but_not_the_answer(question: MultipleChoice) -> None:
    text = question.text()
    assert text.splitlines()[0] == "Quick check: Shape of torch.ones(3, 1) + torch.ones(4)?"
    assert "  (b) (4, 3)" in text.splitlines()
    assert ".check(" in text
    assert "Right-align" not in text
    assert repr(question) == text


def test_static_html_escapes_and_folds_the_answer_away() -> None:
    question = MultipleChoice("Is a < b?", ["<yes>", "no"], answer=0)
    page = question.to_html()
    assert "<li>(a) &lt;yes&gt;</li>" in page and "<yes>" not in page  # lettered as .check("a") expects
    assert page.index("<details>") < page.index("Correct:")


def test_outside_a_kernel_the_display_is_text_and_html_only(question: MultipleChoice) -> None:
    bundle = question._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html"}
    assert bundle["text/plain"] == question.text()


def test_widget_shows_feedback_when_an_option_is_picked(question: MultipleChoice) -> None:
    pytest.importorskip("ipywidgets")
    box = question.widget()
    _, buttons, feedback, hider = box.children
    assert hider.fallback_id == question._fallback_id  # hides the static question in the browser
    assert buttons.value is None and feedback.value == ""
    buttons.value = buttons.options[2]
    assert "Not (c) RuntimeError." in feedback.value and "#c62828" in feedback.value
    buttons.value = buttons.options[0]
    assert "Correct: (a) (3, 4)." in feedback.value and "#2e7d32" in feedback.value
    assert question.widget() is box  # built once
