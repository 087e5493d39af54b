"""The differential helper itself: an error expectation that torch does not meet fails the test."""

from __future__ import annotations

import numpy as np
import pytest

from tests.oracle import check_op

X = np.ones((2, 3))


def test_match_where_torch_does_not_raise_is_an_error() -> None:
    with pytest.raises(AssertionError, match="torch did not raise"):
        check_op(lambda lib, x: x + 1, X, match="must match")
    with pytest.raises(AssertionError, match="torch did not raise"):
        check_op(lambda lib, x: x + 1, X, same_message=True)


def test_match_is_checked_against_torch_message_too() -> None:
    add_mismatch = lambda lib, x: x + lib.ones(4)  # noqa: E731
    check_op(add_mismatch, X, match="The size of tensor a (3) must match the size of tensor b (4)")
    with pytest.raises(AssertionError, match="torch's message"):  # a and b swapped: not torch's words
        check_op(add_mismatch, X, match="The size of tensor a (4) must match the size of tensor b (3)")


def test_same_message_compares_the_whole_text() -> None:
    check_op(lambda lib, x: x + lib.ones(4), X, same_message=True)
    with pytest.raises(AssertionError, match="tensorlab says"):
        check_op(lambda lib, x: x.reshape(5) if lib.__name__ == "torch" else x + lib.ones(4), X, same_message=True)
