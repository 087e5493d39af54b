"""finfo / iinfo against torch's numbers; set_printoptions against torch's repr under the same options;
set_num_threads / get_num_threads (BLAS pools through threadpoolctl)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import tensorlab as tl

FLOATS = ["float16", "bfloat16", "float32", "float64"]
INTS = ["uint8", "int8", "int16", "int32", "int64"]


# --- finfo and iinfo --------------------------------------------------------------------------
@pytest.mark.parametrize("name", FLOATS)
def test_finfo_matches_torch(name: str) -> None:
    expected, got = torch.finfo(getattr(torch, name)), tl.finfo(getattr(tl, name))
    for field in ("bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution", "dtype"):
        assert getattr(got, field) == getattr(expected, field), field
    assert repr(got) == repr(expected)


def test_finfo_defaults_to_the_default_dtype() -> None:
    assert tl.finfo().eps == torch.finfo().eps
    tl.set_default_dtype(tl.float64)
    try:
        assert tl.finfo().bits == 64
    finally:
        tl.set_default_dtype(tl.float32)


@pytest.mark.parametrize("name", INTS)
def test_iinfo_matches_torch(name: str) -> None:
    expected, got = torch.iinfo(getattr(torch, name)), tl.iinfo(getattr(tl, name))
    assert (got.bits, got.max, got.min, got.dtype) == (expected.bits, expected.max, expected.min, expected.dtype)
    assert repr(got) == repr(expected)


@pytest.mark.parametrize(("function", "argument"), [("finfo", "int32"), ("finfo", "bool"), ("iinfo", "float32"), ("iinfo", "bool"), ("finfo", "'float32'"), ("iinfo", "3")])
def test_limits_errors_are_torchs(function: str, argument: str) -> None:
    def call(lib: object) -> object:
        value = getattr(lib, argument) if argument.isidentifier() else eval(argument)
        return getattr(lib, function)(value)

    with pytest.raises(Exception) as from_torch:
        call(torch)
    with pytest.raises(Exception) as from_tensorlab:
        call(tl)
    assert type(from_tensorlab.value) is type(from_torch.value)
    assert str(from_tensorlab.value).replace("tensorlab", "torch") == str(from_torch.value).replace("torch.finfo'", "torch.finfo'")


# --- set_printoptions -------------------------------------------------------------------------
@pytest.fixture
def restore_printoptions() -> Iterator[None]:
    yield
    torch.set_printoptions(profile="default")
    tl.set_printoptions(profile="default")


def assert_same_repr(values: np.ndarray) -> None:
    expected = repr(torch.tensor(values)).replace("torch.", "tensorlab.")
    assert repr(tl.tensor(values)) == expected


OPTION_CASES = [
    {"precision": 2}, {"precision": 8}, {"threshold": 5}, {"threshold": 5, "edgeitems": 1}, {"linewidth": 30},
    {"sci_mode": True}, {"sci_mode": False}, {"profile": "short"}, {"profile": "full"}, {"profile": "full", "precision": 1},
]


@pytest.mark.usefixtures("restore_printoptions")
@pytest.mark.parametrize("options", OPTION_CASES)
def test_printoptions_fixed(options: dict) -> None:
    torch.set_printoptions(**options)
    tl.set_printoptions(**options)
    rng = np.random.default_rng(0)
    for values in (np.array([1.12345, -2.5, 1e-5]), np.arange(12.0), np.arange(2000).reshape(40, 50), rng.standard_normal((3, 9)),
                   np.array([1.0, 2.0, 3.0]), np.array([123456789.0, 1.0]), np.arange(1200.0) / 7, rng.standard_normal((5, 5, 5)).astype("float32")):
        assert_same_repr(values)


@pytest.mark.usefixtures("restore_printoptions")
def test_printoptions_profile_default_restores_and_sci_mode_resets() -> None:
    for lib in (torch, tl):
        lib.set_printoptions(precision=1, sci_mode=True)
        lib.set_printoptions(threshold=1000)  # sci_mode left out: back to "choose from the values"
    assert_same_repr(np.array([1.5, 2.25]))
    tl.set_printoptions(profile="default")
    torch.set_printoptions(profile="default")
    assert_same_repr(np.array([1.12345, 100.0]))


@settings(max_examples=40, deadline=None)
@given(precision=st.integers(0, 8), threshold=st.integers(1, 50), edgeitems=st.integers(1, 4), linewidth=st.integers(20, 120),
       sci_mode=st.sampled_from([None, True, False]), seed=st.integers(0, 2**16), shape=st.lists(st.integers(1, 8), min_size=1, max_size=3))
def test_printoptions_hypothesis(precision: int, threshold: int, edgeitems: int, linewidth: int, sci_mode: bool | None, seed: int, shape: list) -> None:
    options = {"precision": precision, "threshold": threshold, "edgeitems": edgeitems, "linewidth": linewidth, "sci_mode": sci_mode}
    torch.set_printoptions(**options)
    tl.set_printoptions(**options)
    try:
        values = np.random.default_rng(seed).standard_normal(shape) * 10.0 ** np.random.default_rng(seed).integers(-3, 4)
        assert_same_repr(values)
        assert_same_repr(np.round(values).astype("int64"))
    finally:
        torch.set_printoptions(profile="default")
        tl.set_printoptions(profile="default")


# --- threads ----------------------------------------------------------------------------------
def test_num_threads_limits_the_blas_pool() -> None:
    threadpoolctl = pytest.importorskip("threadpoolctl")
    before = tl.get_num_threads()
    assert isinstance(before, int) and before >= 1
    try:
        tl.set_num_threads(1)
        assert tl.get_num_threads() == 1
        blas = [p["num_threads"] for p in threadpoolctl.threadpool_info() if p["user_api"] == "blas"]
        assert all(n == 1 for n in blas)
    finally:
        tl.set_num_threads(before)
    assert tl.get_num_threads() == before


@pytest.mark.parametrize("bad", [0, -2, 1.5])
def test_set_num_threads_errors_are_torchs(bad: object) -> None:
    with pytest.raises(RuntimeError) as from_torch:
        torch.set_num_threads(bad)  # type: ignore[arg-type]
    with pytest.raises(RuntimeError) as from_tensorlab:
        tl.set_num_threads(bad)  # type: ignore[arg-type]
    assert str(from_tensorlab.value) == str(from_torch.value)
