"""Predict-then-run cells: a right guess, a wrong guess, no guess yet, and a predicted exception."""

from __future__ import annotations

import torch

from tensorlab.widgets.predict import predict


def test_a_right_guess_is_confirmed() -> None:
    verdict = predict((1, 3), lambda: torch.ones(2, 3).t().stride())
    assert verdict.correct and "Right" in verdict.message


def test_a_notebook_shows_the_sentence_once() -> None:
    from IPython.lib.pretty import pretty

    assert pretty(predict(..., lambda: torch.ones(2, 3).numel())) == "No guess yet: the answer is 6."


def test_torch_size_and_a_tuple_compare_by_value() -> None:
    assert predict((2, 3), lambda: torch.ones(2, 3).shape).correct
    assert predict([2, 3], lambda: torch.ones(2, 3).shape).correct


def test_a_wrong_guess_shows_both_values() -> None:
    verdict = predict((3, 1), lambda: torch.ones(2, 3).t().stride(), why="t() swaps the strides")
    assert not verdict.correct
    assert "(3, 1)" in verdict.message and "(1, 3)" in verdict.message and "swaps" in verdict.message


def test_no_guess_yet_tells_the_answer_without_failing() -> None:
    verdict = predict(..., lambda: torch.ones(2, 3).numel())
    assert not verdict.correct and "No guess yet" in verdict.message and "6" in verdict.message


def test_an_exception_class_can_be_predicted() -> None:
    assert predict(RuntimeError, lambda: torch.ones(2, 3).view(-1, 4)).correct
    assert not predict(ValueError, lambda: torch.ones(2, 3).view(-1, 4)).correct
    assert not predict(RuntimeError, lambda: torch.ones(2, 3).view(3, 2)).correct
