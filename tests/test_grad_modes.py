"""Grad modes against torch: no_grad, enable_grad, set_grad_enabled, inference_mode,
is_grad_enabled — as context managers and decorators, nested, restored after exceptions."""

from __future__ import annotations

import threading
from typing import Any

import pytest
import torch

import tensorlab as tl
from tests.oracle import assert_same

LIBS = pytest.mark.parametrize("lib", [torch, tl], ids=["torch", "tensorlab"])


def same(scenario: Any) -> None:
    assert_same(scenario(torch), scenario(tl))


def test_no_grad_results_do_not_require_grad() -> None:
    def scenario(lib: Any) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with lib.no_grad():
            y = x * 2
            inside = lib.is_grad_enabled()
        z = x * 2
        return y.requires_grad, y.grad_fn is None, inside, z.requires_grad, lib.is_grad_enabled()

    same(scenario)


def test_detach_versus_no_grad() -> None:
    """The seed's question: both give tensors outside the graph; no_grad also covers new ones."""

    def scenario(lib: Any) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        d = x.detach() * 3
        with lib.no_grad():
            n = x * 3
            leaf = lib.ones(2, requires_grad=True)
        return d.requires_grad, n.requires_grad, leaf.requires_grad, leaf.is_leaf

    same(scenario)


def test_nesting() -> None:
    def scenario(lib: Any) -> Any:
        seen = []
        with lib.no_grad():
            seen.append(lib.is_grad_enabled())
            with lib.enable_grad():
                seen.append(lib.is_grad_enabled())
                with lib.set_grad_enabled(False):
                    seen.append(lib.is_grad_enabled())
                    with lib.inference_mode():
                        seen.append((lib.is_grad_enabled(), lib.is_inference_mode_enabled()))
                    seen.append(lib.is_inference_mode_enabled())
                seen.append(lib.is_grad_enabled())
            seen.append(lib.is_grad_enabled())
        seen.append(lib.is_grad_enabled())
        return seen

    same(scenario)


def test_enable_grad_inside_no_grad_records() -> None:
    def scenario(lib: Any) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with lib.no_grad():
            with lib.enable_grad():
                y = x * x
        y.sum().backward()
        return y.requires_grad, x.grad

    same(scenario)


@LIBS
@pytest.mark.parametrize("make", ["no_grad", "enable_grad", "set_grad_enabled", "inference_mode"])
def test_mode_is_restored_after_an_exception(lib: Any, make: str) -> None:
    manager = {
        "no_grad": lambda: lib.no_grad(),
        "enable_grad": lambda: lib.enable_grad(),
        "set_grad_enabled": lambda: lib.set_grad_enabled(False),
        "inference_mode": lambda: lib.inference_mode(),
    }[make]
    for outer in (True, False):
        lib.set_grad_enabled(outer)
        try:
            with pytest.raises(ValueError), manager():
                raise ValueError
            assert lib.is_grad_enabled() is outer
            assert lib.is_inference_mode_enabled() is False
        finally:
            lib.set_grad_enabled(True)


def test_decorators_with_and_without_parentheses() -> None:
    def scenario(lib: Any) -> Any:
        @lib.no_grad()
        def a() -> bool:
            return lib.is_grad_enabled()

        @lib.no_grad
        def b() -> bool:
            return lib.is_grad_enabled()

        @lib.inference_mode()
        def c() -> Any:
            return lib.is_grad_enabled(), lib.is_inference_mode_enabled()

        @lib.inference_mode
        def d() -> Any:
            return lib.is_grad_enabled(), lib.is_inference_mode_enabled()

        @lib.set_grad_enabled(False)
        def e() -> bool:
            return lib.is_grad_enabled()

        @lib.enable_grad()
        def f() -> bool:
            return lib.is_grad_enabled()

        after_decorating = lib.is_grad_enabled()  # decorating with set_grad_enabled changes nothing
        with lib.no_grad():
            inside = f()
        return a(), b(), c(), d(), e(), inside, after_decorating, lib.is_grad_enabled(), a.__name__

    same(scenario)


def test_decorated_function_restores_the_mode_when_it_raises() -> None:
    for lib in (torch, tl):

        @lib.no_grad()
        def fails() -> None:
            raise KeyError

        with pytest.raises(KeyError):
            fails()
        assert lib.is_grad_enabled()


def test_decorated_generator_applies_the_mode_at_each_step() -> None:
    def scenario(lib: Any) -> Any:
        @lib.no_grad()
        def steps() -> Any:
            for _ in range(2):
                yield lib.is_grad_enabled()

        it = steps()
        first = next(it)
        between = lib.is_grad_enabled()
        second = next(it)
        return first, between, second

    same(scenario)


def test_set_grad_enabled_as_a_function_call() -> None:
    def scenario(lib: Any) -> Any:
        lib.set_grad_enabled(False)
        off = lib.is_grad_enabled()
        x = lib.tensor([1.0], requires_grad=True)
        y = x * 2
        lib.set_grad_enabled(True)
        return off, y.requires_grad, lib.is_grad_enabled()

    same(scenario)


def test_set_grad_enabled_with_a_flag_variable() -> None:
    def scenario(lib: Any) -> Any:
        x = lib.tensor([1.0], requires_grad=True)
        results = []
        for is_train in (True, False):
            with lib.set_grad_enabled(is_train):
                results.append((x * 2).requires_grad)
        return results, lib.is_grad_enabled()

    same(scenario)


def test_inference_mode_false_changes_nothing() -> None:
    def scenario(lib: Any) -> Any:
        with lib.inference_mode(False):
            inside = lib.is_grad_enabled(), lib.is_inference_mode_enabled()
            y = lib.tensor([1.0], requires_grad=True) * 2
        return inside, y.requires_grad

    same(scenario)


def test_inference_mode_results_do_not_require_grad() -> None:
    def scenario(lib: Any) -> Any:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with lib.inference_mode():
            y = (x * 2).exp()
        return y, y.requires_grad, lib.is_inference_mode_enabled()

    same(scenario)


@LIBS
def test_grad_mode_is_per_thread(lib: Any) -> None:
    seen = []
    with lib.no_grad():
        worker = threading.Thread(target=lambda: seen.append(lib.is_grad_enabled()))
        worker.start()
        worker.join()
        assert not lib.is_grad_enabled()
    assert seen == [True]


@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True")
def test_backward_runs_with_grad_mode_off_unless_create_graph() -> None:
    def scenario(lib: Any) -> Any:
        seen = []
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 3
        y.register_hook(lambda g: seen.append(lib.is_grad_enabled()))
        y.sum().backward(retain_graph=True)
        y.sum().backward(create_graph=True)
        return seen, lib.is_grad_enabled()

    same(scenario)


def test_public_names() -> None:
    for name in ("no_grad", "enable_grad", "set_grad_enabled", "inference_mode", "is_grad_enabled", "is_inference_mode_enabled"):
        assert callable(getattr(tl, name))
        public = getattr(tl, name)
        assert getattr(tl.autograd, name) is getattr(public, "__wrapped__", public)  # a function: behind the mode check
    assert repr(tl.set_grad_enabled(True)).endswith("set_grad_enabled(mode=True)")
