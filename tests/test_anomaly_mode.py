"""Anomaly mode against torch: which Function's backward made the NaN, the forward line it
points at, context manager / decorator / plain call, and the mode restored afterwards."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import tensorlab as tl


def anomaly_enabled(lib) -> bool:
    return torch.is_anomaly_enabled() if lib is torch else tl.autograd.anomaly_mode.is_anomaly_enabled()


GRAPHS = {
    "sqrt-of-negative": lambda lib, x: x.sqrt().sum(),
    "nan-factor": lambda lib, x: (x * lib.tensor(float("nan"), dtype=x.dtype)).sum(),
    "exp-after-pow": lambda lib, x: (x * 2).pow(0.5).exp().sum(),
    "x-log-x": lambda lib, x: (x * x.log()).mean(),  # log(x) is nan where x < 0: MulBackward0 passes it on
    "zero-over-zero": lambda lib, x: ((x - x) / (x - x)).sum(),  # DivBackward0: nan in its 1th output
}


def backward_error(lib, graph, values, **mode):
    """The message of the RuntimeError the backward raises in anomaly mode (None if none)."""
    x = lib.tensor(values, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with lib.autograd.detect_anomaly(**mode):
            loss = graph(lib, x)
            try:
                loss.backward()
            except RuntimeError as error:
                return str(error)
    return None


@pytest.mark.parametrize("name", list(GRAPHS))
def test_the_error_names_the_function_as_torch(name):
    values = [-1.0, 0.5, 2.0]
    expected = backward_error(torch, GRAPHS[name], values)
    assert expected is not None and "returned nan values in its" in expected
    assert backward_error(tl, GRAPHS[name], values) == expected


def test_no_error_without_nan_or_with_check_nan_off():
    assert backward_error(torch, GRAPHS["sqrt-of-negative"], [1.0, 4.0]) is None
    assert backward_error(tl, GRAPHS["sqrt-of-negative"], [1.0, 4.0]) is None
    assert backward_error(torch, GRAPHS["sqrt-of-negative"], [-1.0], check_nan=False) is None
    assert backward_error(tl, GRAPHS["sqrt-of-negative"], [-1.0], check_nan=False) is None


def test_outside_anomaly_mode_the_nan_reaches_the_leaf():
    for lib in (torch, tl):
        x = lib.tensor([-1.0], requires_grad=True)
        x.sqrt().sum().backward()
        assert np.isnan(x.grad.numpy()).all()


def test_the_warning_shows_the_forward_line():
    x = tl.tensor([-1.0], requires_grad=True)
    with pytest.warns(UserWarning, match="Anomaly Detection has been enabled"), tl.autograd.detect_anomaly():
        root = x.sqrt()  # the line the warning must point at
        with pytest.warns(UserWarning, match="Error detected in SqrtBackward0") as caught, pytest.raises(RuntimeError):
            root.sum().backward()
    assert "root = x.sqrt()" in str(caught[-1].message)


@pytest.mark.parametrize("lib", [torch, tl], ids=["torch", "tensorlab"])
def test_modes_are_switched_and_restored_as_in_torch(lib):
    assert not anomaly_enabled(lib)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with lib.autograd.detect_anomaly():
            assert anomaly_enabled(lib)
            with lib.autograd.set_detect_anomaly(False):
                assert not anomaly_enabled(lib)
            assert anomaly_enabled(lib)
        assert not anomaly_enabled(lib)
        lib.autograd.set_detect_anomaly(True)  # a plain call switches it on and leaves it on
        assert anomaly_enabled(lib)
        lib.autograd.set_detect_anomaly(False)
        assert not anomaly_enabled(lib)
        with pytest.raises(TypeError):  # torch's detect_anomaly is no decorator
            lib.autograd.detect_anomaly()(print)


def test_an_error_inside_the_block_restores_the_mode():
    with pytest.raises(RuntimeError), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with tl.autograd.detect_anomaly():
            tl.tensor([-1.0], requires_grad=True).sqrt().sum().backward()
    assert not tl.autograd.anomaly_mode.is_anomaly_enabled()


@settings(max_examples=25, deadline=None)
@given(values=st.lists(st.floats(-3, 3, allow_nan=False), min_size=1, max_size=4), name=st.sampled_from(sorted(GRAPHS)))
def test_random_graphs_raise_exactly_when_torch_does(values, name):
    assert backward_error(tl, GRAPHS[name], values) == backward_error(torch, GRAPHS[name], values)
