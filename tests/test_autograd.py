"""The autograd engine against torch: graphs, backward, double backward, hooks, custom Functions,
errors and memory.

Each scenario is a function of ``lib`` (torch or tensorlab) that builds a graph, runs backward and
returns what it wants compared (gradients, names, flags); ``same`` runs it on both libraries.
"""

from __future__ import annotations

import gc
import warnings
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import tensorlab as tl
from tests.oracle import assert_same, check_op, standard_normal

Scenario = Callable[[Any], Any]


def same(scenario: Scenario) -> Any:
    """Run ``scenario`` with torch and tensorlab and compare what it returns."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = scenario(torch)
        got = scenario(tl)
    assert_same(expected, got)
    return got


def leaf(lib: Any, values: Any, dtype: Any = None) -> Any:
    return lib.tensor(values, dtype=dtype, requires_grad=True)


def node_names(lib: Any, node: Any, depth: int = 3) -> Any:
    """The graph below ``node`` as nested (type name, children) tuples, children with output_nr.

    Type names, because torch's ``AccumulateGrad.name()`` is the C++ "torch::autograd::AccumulateGrad".
    """
    if node is None:
        return None
    children = tuple(
        (node_names(lib, child, depth - 1), nr) if depth else None for child, nr in node.next_functions
    )
    names = type(node).__name__, node.name() if type(node).__name__ != "AccumulateGrad" else "AccumulateGrad"
    return (names, children)


# --- graph structure ---------------------------------------------------------------------
GRAPHS = {
    "x*y + x": lambda m, x, y: x * y + x,
    "(x - y) / y": lambda m, x, y: (x - y) / y,
    "exp(x) * sin(y)": lambda m, x, y: x.exp() * y.sin(),
    "tanh sigmoid relu": lambda m, x, y: x.tanh() + y.sigmoid() + x.relu(),
    "x ** 2 then sum": lambda m, x, y: (x**2).sum(),
    "view and transpose": lambda m, x, y: (x.view(2, 2).t() * y.reshape(2, 2)).permute(1, 0),
    "expand": lambda m, x, y: x.view(4, 1).expand(4, 3) * y.view(4, 1),
    "neg abs": lambda m, x, y: -x.abs() + y,
}


@pytest.mark.parametrize("name", GRAPHS)
def test_graph_has_torch_node_names_and_edges(name: str) -> None:
    fn = GRAPHS[name]

    def scenario(lib: Any) -> Any:
        x = leaf(lib, [1.0, -2.0, 3.0, 0.5])
        y = leaf(lib, [0.5, 1.5, -1.0, 2.0])
        z = fn(lib, x, y)
        return node_names(lib, z.grad_fn), z.requires_grad, z.is_leaf

    same(scenario)


# One backward formula, several node names: torch names the node by the overload that recorded
# it, and tensorlab names it where the Function is applied (Function.apply_as).
NAMED_BY_OVERLOAD = {
    "x.sum()": lambda x, y: x.sum(),
    "x.sum(0)": lambda x, y: x.sum(0),
    "x.mean()": lambda x, y: x.mean(),
    "x.prod()": lambda x, y: x.prod(),
    "x.max()": lambda x, y: x.max(),
    "x.min()": lambda x, y: x.min(),
    "x.max(0)": lambda x, y: x.max(0)[0],
    "x.min(0)": lambda x, y: x.min(0)[0],
    "x.amax(0)": lambda x, y: x.amax(0),
    "x.amin(0)": lambda x, y: x.amin(0),
    "x % y": lambda x, y: x % y,
    "x ** y": lambda x, y: x**y.abs(),
    "2 ** x": lambda x, y: 2**x,
    "clamp(x, y, y + 1)": lambda x, y: x.clamp(y, y + 1),
    "x.round(decimals=1)": lambda x, y: x.round(decimals=1),
    "x.round()": lambda x, y: x.round(),
    "x.gather": lambda x, y: x.gather(1, y.detach().abs().long() % 3),
    "x.index_select": lambda x, y: x.index_select(0, y.detach().abs().long()[0] % 2),
    "x.masked_select": lambda x, y: x.masked_select(y > 0),
    "x.take": lambda x, y: x.take(y.detach().abs().long() % 6),
    "x.flip(0)": lambda x, y: x.flip(0),
    "x.roll(1, 1)": lambda x, y: x.roll(1, 1),
    "x.roll(1)": lambda x, y: x.roll(1),
    "x.repeat(2, 1)": lambda x, y: x.repeat(2, 1),
    "(x * 1).zero_()": lambda x, y: (x * 1).zero_(),
    "x.split(1)": lambda x, y: x.split(1)[0],
    "x.chunk(2, 1)": lambda x, y: x.chunk(2, 1)[0],
    "x @ v": lambda x, y: x @ y[0],
    "v @ x.t()": lambda x, y: y[0] @ x.t(),
    "x.t().reshape(6)": lambda x, y: x.t().reshape(6),
    "x.squeeze()": lambda x, y: x[None].squeeze(),
    "x.squeeze(0)": lambda x, y: x[None].squeeze(0),
    "x.squeeze((0,))": lambda x, y: x[None].squeeze((0,)),
    "x.unsqueeze(0)": lambda x, y: x.unsqueeze(0),
    "x.transpose(0, 1)": lambda x, y: x.transpose(0, 1),
    "x.mT": lambda x, y: x.mT,
    "x.t()": lambda x, y: x.t(),
    "x.narrow(1, 1, 2)": lambda x, y: x.narrow(1, 1, 2),
    "x.select(0, 1)": lambda x, y: x.select(0, 1),
    "x.diagonal()": lambda x, y: x.diagonal(),
    "x[None]": lambda x, y: x[None],
    "x[0]": lambda x, y: x[0],
    "x[:, 1:]": lambda x, y: x[:, 1:],
    "x[...]": lambda x, y: x[...],
}


@pytest.mark.parametrize("name", NAMED_BY_OVERLOAD)
def test_node_named_by_overload_as_torch(name: str) -> None:
    def scenario(lib: Any) -> str:
        x = lib.tensor([[1.0, -2.0, 3.0], [0.5, 4.0, -1.5]], requires_grad=True)
        y = lib.tensor([[0.5, 1.5, -1.0], [2.0, -3.0, 1.0]], requires_grad=True)
        return NAMED_BY_OVERLOAD[name](x, y).grad_fn.name()

    assert scenario(tl) == scenario(torch)


@pytest.mark.parametrize("name", GRAPHS)
def test_gradients_match_torch(name: str) -> None:
    fn = GRAPHS[name]

    def scenario(lib: Any) -> Any:
        x = leaf(lib, [1.0, -2.0, 3.0, 0.5], lib.float64)
        y = leaf(lib, [0.5, 1.5, -1.0, 2.0], lib.float64)
        z = fn(lib, x, y)
        z.backward(lib.ones_like(z))
        return x.grad, y.grad

    same(scenario)


def test_accumulate_grad_node_holds_the_leaf() -> None:
    x = leaf(tl, [1.0, 2.0])
    y = x * x
    first, second = y.grad_fn.next_functions
    assert first[0] is second[0]
    assert first[0].name() == "AccumulateGrad"
    assert first[0].variable is x
    assert (x * 3).grad_fn.next_functions[0][0] is first[0]  # one accumulator per leaf


def test_requires_grad_propagation_and_leaves() -> None:
    def scenario(lib: Any) -> Any:
        a = leaf(lib, [1.0, 2.0])
        b = lib.tensor([3.0, 4.0])
        c = b * 2
        d = a * b
        e = d.detach()
        f = lib.tensor([1.0]).requires_grad_()
        g = b.requires_grad_(False)
        return [
            (t.requires_grad, t.is_leaf, t.grad_fn is None) for t in (a, b, c, d, e, f, g)
        ]

    same(scenario)


def test_frozen_parameter_still_passes_gradient_to_earlier_ones() -> None:
    """The seed note: requires_grad=False on a middle weight stops its .grad, not the flow."""

    def scenario(lib: Any) -> Any:
        w1 = leaf(lib, [0.5, -1.0])
        w2 = lib.tensor([2.0, 3.0])  # frozen
        x = lib.tensor([1.0, 2.0])
        ((x * w1).tanh() * w2).sum().backward()
        return w1.grad, w2.grad

    same(scenario)


def test_integer_tensors_cannot_require_grad() -> None:
    check_op(lambda lib: lib.tensor([1, 2]).requires_grad_(), match="floating point")


def test_detach_shares_storage_and_version_counter() -> None:
    def scenario(lib: Any) -> Any:
        x = leaf(lib, [1.0, 2.0])
        d = x.detach()
        shares = d.data_ptr() == x.data_ptr()
        d.add_(1)  # allowed: d is not a leaf that requires grad
        return shares, d.requires_grad, d.is_leaf, x._version, d._version, x.detach()

    same(scenario)


def test_detach_in_place_cuts_the_history() -> None:
    def scenario(lib: Any) -> Any:
        y = leaf(lib, [1.0, 2.0]) * 2
        returned = y.detach_()
        return returned is y, y.requires_grad, y.grad_fn is None, y.is_leaf

    same(scenario)


def test_non_leaf_cannot_stop_requiring_grad() -> None:
    def scenario(lib: Any) -> None:
        y = leaf(lib, [1.0]) * 2
        y.requires_grad = False

    check_op(scenario, match="you can only change requires_grad flags of leaf variables")


# --- backward ----------------------------------------------------------------------------
def test_gradients_accumulate_across_backward_calls() -> None:
    def scenario(lib: Any) -> Any:
        x = leaf(lib, [1.0, 2.0, 3.0])
        (x * x).sum().backward()
        first = x.grad.clone()
        grad_object = x.grad
        (x * 3).sum().backward()
        return first, x.grad, grad_object is x.grad

    same(scenario)


def test_broadcasting_gradients_are_summed_to_input_shapes() -> None:
    def scenario(lib: Any) -> Any:
        a = leaf(lib, np.arange(6.0).reshape(2, 1, 3).tolist())
        b = leaf(lib, [[1.0], [2.0], [3.0], [4.0]])
        c = leaf(lib, 2.0)
        out = a * b + c / (b + 3)
        out.backward(lib.ones_like(out))
        return a.grad, b.grad, c.grad, out.shape

    same(scenario)


def test_grad_layout_is_contiguous_like_the_leaf() -> None:
    def scenario(lib: Any) -> Any:
        x = leaf(lib, np.arange(6.0).reshape(2, 3).tolist())
        x.sum().backward()
        first = x.grad.stride()
        y = leaf(lib, np.arange(6.0).reshape(2, 3).tolist())
        (y.t() * 2).backward(lib.ones(3, 2))
        return first, y.grad.stride(), y.grad

    same(scenario)


def test_gradient_argument_weights_the_outputs() -> None:
    def scenario(lib: Any) -> Any:
        x = leaf(lib, [1.0, 2.0, 3.0])
        y = x.exp()
        y.backward(lib.tensor([0.1, 1.0, 10.0]))
        return x.grad

    same(scenario)


def test_gradient_reaching_a_leaf_twice_is_summed() -> None:
    def scenario(lib: Any) -> Any:
        x = leaf(lib, [1.0, 2.0])
        y = x * 2
        z = y * y + y.sin() * x
        z.sum().backward()
        return x.grad

    same(scenario)


def test_multiple_roots() -> None:
    def scenario(lib: Any) -> Any:
        x = leaf(lib, [1.0, 2.0])
        y = x * 3
        z = y.exp()
        lib.autograd.backward([z.sum(), y.sum()])
        return x.grad

    same(scenario)


def test_backward_on_a_leaf_and_zero_dim_tensors() -> None:
    def scenario(lib: Any) -> Any:
        x = leaf(lib, 3.0)
        x.backward()
        y = leaf(lib, [2.0])
        (y * y).backward()
        return x.grad, y.grad

    same(scenario)


def test_deep_chain_runs_without_recursion() -> None:
    x = leaf(tl, [1.0, 2.0])
    y = x
    for _ in range(20_000):
        y = y * 1.0 + 0.0
    y.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0]
    del y  # freeing a 40,000-node chain must not overflow the stack either


def test_saved_tensors_freed_so_second_backward_fails_like_torch() -> None:
    def twice(make: Callable[[Any, Any], Any]) -> Scenario:
        def scenario(lib: Any) -> Any:
            x = leaf(lib, [1.0, 2.0])
            y = make(lib, x).sum()
            y.backward()
            y.backward()
            return x.grad

        return scenario

    for saves in (lambda m, x: x * x, lambda m, x: x.exp(), lambda m, x: x * 2.0, lambda m, x: x.sin(), lambda m, x: x / 3.0):
        check_op(twice(saves), match="Trying to backward through the graph a second time")
    for saves_nothing in (lambda m, x: x + 1, lambda m, x: x - 1, lambda m, x: x.view(2, 1), lambda m, x: -x):
        same(twice(saves_nothing))


def test_retain_graph_allows_a_second_backward() -> None:
    def scenario(lib: Any) -> Any:
        x = leaf(lib, [1.0, 2.0])
        y = (x * x).exp().sum()
        y.backward(retain_graph=True)
        y.backward()
        return x.grad

    same(scenario)


def test_saved_tensors_are_released_after_backward() -> None:
    x = leaf(tl, [1.0, 2.0])
    y = (x * 2).exp()
    saved = weakref.ref(y.grad_fn._saved[0].data)
    y.sum().backward()
    assert saved() is None
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        _ = y.grad_fn.saved_tensors


# --- double backward ---------------------------------------------------------------------
SECOND_DERIVATIVES = {
    "x**3": lambda x: x**3,
    "exp(x)*x": lambda x: x.exp() * x,
    "sin": lambda x: x.sin(),
    "tanh": lambda x: x.tanh(),
    "sigmoid": lambda x: x.sigmoid(),
    "1/x": lambda x: 1 / x,
    "sqrt*log": lambda x: x.sqrt() * x.log(),
    "x*x broadcast": lambda x: (x.view(3, 1) * x).sum(),
}


@pytest.mark.parametrize("name", SECOND_DERIVATIVES)
def test_second_derivative_with_create_graph(name: str) -> None:
    f = SECOND_DERIVATIVES[name]

    def scenario(lib: Any) -> Any:
        x = leaf(lib, [0.5, 1.5, 2.5], lib.float64)
        (g,) = lib.autograd.grad(f(x).sum(), x, create_graph=True)
        (gg,) = lib.autograd.grad(g.sum(), x)
        return g, gg, g.grad_fn is not None

    same(scenario)


def test_backward_with_create_graph_then_backward_of_the_grad() -> None:
    def scenario(lib: Any) -> Any:
        x = leaf(lib, [1.0, 2.0], lib.float64)
        (x**3).sum().backward(create_graph=True)
        first = x.grad.detach().clone()
        g = x.grad
        x.grad = None
        g.sum().backward()
        return first, x.grad, g.requires_grad

    same(scenario)


def test_third_derivative() -> None:
    def scenario(lib: Any) -> Any:
        x = leaf(lib, [0.3, 1.1], lib.float64)
        y = (x * x.sin()).sum()
        (g1,) = lib.autograd.grad(y, x, create_graph=True)
        (g2,) = lib.autograd.grad(g1.sum(), x, create_graph=True)
        (g3,) = lib.autograd.grad(g2.sum(), x)
        return g1, g2, g3

    same(scenario)


# --- autograd.grad and backward(inputs=) -------------------------------------------------
def test_autograd_grad_leaves_dot_grad_alone() -> None:
    def scenario(lib: Any) -> Any:
        x = leaf(lib, [1.0, 2.0])
        w = leaf(lib, [3.0, 4.0])
        y = (x * w).sum()
        gx, gw = lib.autograd.grad(y, [x, w])
        return gx, gw, x.grad is None, w.grad is None

    same(scenario)


def test_autograd_grad_with_grad_outputs_and_non_leaf_inputs() -> None:
    def scenario(lib: Any) -> Any:
        x = leaf(lib, [1.0, 2.0, 3.0])
        h = x.exp()
        y = h * h
        (gh,) = lib.autograd.grad(y, h, grad_outputs=lib.tensor([1.0, 0.5, 0.25]), retain_graph=True)
        gx, gh2 = lib.autograd.grad(y, [x, h], grad_outputs=lib.ones(3))
        return gh, gx, gh2, x.grad is None

    same(scenario)


def test_autograd_grad_unused_inputs() -> None:
    def unused(lib: Any) -> Any:
        x, z = leaf(lib, [1.0]), leaf(lib, [2.0])
        return lib.autograd.grad((x * 2).sum(), [x, z])

    check_op(unused, match="appears to not have been used in the graph")

    def allowed(lib: Any) -> Any:
        x, z = leaf(lib, [1.0]), leaf(lib, [2.0])
        return lib.autograd.grad((x * 2).sum(), [x, z], allow_unused=True)

    same(allowed)

    def materialized(lib: Any) -> Any:
        x, z = leaf(lib, [1.0]), leaf(lib, [2.0, 3.0])
        return lib.autograd.grad((x * 2).sum(), [x, z], materialize_grads=True)

    same(materialized)


def test_backward_inputs_accumulates_only_into_those() -> None:
    def scenario(lib: Any) -> Any:
        x = leaf(lib, [1.0, 2.0])
        w = leaf(lib, [3.0, 4.0])
        y = x * w
        z = (y * y).sum()
        z.backward(inputs=[w], retain_graph=True)
        w_only = (x.grad, w.grad.clone())
        z.backward(inputs=[y])
        return w_only, y.grad, y.retains_grad, x.grad

    same(scenario)


def test_autograd_grad_argument_errors() -> None:
    check_op(lambda lib: lib.autograd.grad((leaf(lib, [1.0]) * 2).sum(), []), match="cannot be empty")
    check_op(lambda lib: (leaf(lib, [1.0]) * 2).sum().backward(inputs=[]), match="cannot be empty")
    check_op(
        lambda lib: lib.autograd.grad((leaf(lib, [1.0]) * 2).sum(), [lib.tensor([1.0])]),
        match="One of the differentiated Tensors does not require grad",
    )
    check_op(
        lambda lib: lib.autograd.grad(lib.tensor(1.0), [leaf(lib, [1.0])]),
        match="element 0 of tensors does not require grad and does not have a grad_fn",
    )


# --- errors ------------------------------------------------------------------------------
def test_backward_of_non_scalar_needs_a_gradient() -> None:
    check_op(lambda lib: (leaf(lib, [1.0, 2.0]) * 2).backward(), match="grad can be implicitly created only for scalar outputs")


def test_backward_of_a_tensor_without_grad() -> None:
    check_op(lambda lib: lib.tensor([1.0]).backward(), match="element 0 of tensors does not require grad and does not have a grad_fn")
    check_op(lambda lib: lib.tensor(1.0).sum().backward(), match="does not require grad")


def test_gradient_shape_must_match() -> None:
    check_op(lambda lib: (leaf(lib, [1.0, 2.0]) * 2).backward(lib.ones(3)), match="Mismatch in shape")


def test_in_place_change_of_a_saved_input_is_detected() -> None:
    def scenario(lib: Any) -> Any:
        a = leaf(lib, [1.0, 2.0])
        b = a * 2
        c = b * b  # saves b
        b.add_(1)
        c.sum().backward()

    check_op(scenario, match="one of the variables needed for gradient computation has been modified by an inplace operation")


def test_in_place_change_of_a_saved_output_is_detected() -> None:
    def scenario(lib: Any) -> Any:
        x = leaf(lib, [1.0, 2.0])
        y = x.exp()  # saves its output
        y.mul_(2)
        y.sum().backward()

    check_op(scenario, match="modified by an inplace operation")


def test_in_place_change_of_an_unsaved_value_is_fine() -> None:
    def scenario(lib: Any) -> Any:
        x = leaf(lib, [1.0, 2.0])
        b = x * 1
        c = b.exp()  # saves c, not b
        b.add_(1)
        c.sum().backward()
        return x.grad, b._version

    same(scenario)


def test_in_place_on_a_leaf_that_requires_grad() -> None:
    check_op(lambda lib: leaf(lib, [1.0]).add_(1), match="a leaf Variable that requires grad is being used in an in-place operation.")

    def under_no_grad(lib: Any) -> Any:
        x = leaf(lib, [1.0, 2.0])
        with lib.no_grad():
            x.mul_(3)
        (x * x).sum().backward()
        return x, x.grad, x._version

    same(under_no_grad)


def test_in_place_on_a_non_leaf_rebases_its_history() -> None:
    def scenario(lib: Any) -> Any:
        x = leaf(lib, [1.0, 2.0])
        y = x * 2
        y.mul_(x)
        y.exp_()
        y.sum().backward()
        return y, x.grad, y.grad_fn.name()

    same(scenario)


def test_non_leaf_grad_is_none_with_a_warning() -> None:
    for lib in (torch, tl):
        y = leaf(lib, [1.0, 2.0]) * 2
        y.sum().backward()
        with pytest.warns(UserWarning, match="is not a leaf Tensor is being accessed"):
            assert y.grad is None


# --- hooks -------------------------------------------------------------------------------
def test_hook_order_and_replacement() -> None:
    def scenario(lib: Any) -> Any:
        log: list = []
        x = leaf(lib, [1.0, 2.0])
        y = x * 2
        y.retain_grad()  # registered first, still runs after the tensor hooks
        y.register_hook(lambda g: (log.append(("first", g.tolist())), g * 10)[1])
        y.register_hook(lambda g: log.append(("second", g.tolist())))
        y.grad_fn.register_prehook(lambda grads: log.append(("node pre", grads[0].tolist())))
        y.grad_fn.register_hook(lambda grads_in, grads_out: log.append(("node post", grads_out[0].tolist())))
        x.register_hook(lambda g: log.append(("leaf", g.tolist())))
        y.sum().backward()
        return log, y.grad, x.grad

    assert same(scenario)[0][0][0] == "first"


def test_removed_hooks_do_not_run() -> None:
    def scenario(lib: Any) -> Any:
        x = leaf(lib, [1.0, 2.0])
        handle = x.register_hook(lambda g: g * 100)
        y = x * 3
        node_handle = y.grad_fn.register_prehook(lambda grads: (grads[0] * 7,))
        handle.remove()
        node_handle.remove()
        y.sum().backward()
        return x.grad

    same(scenario)


def test_leaf_hook_replaces_the_gradient_and_runs_in_autograd_grad() -> None:
    def scenario(lib: Any) -> Any:
        log: list = []
        x = leaf(lib, [1.0, 2.0])
        x.register_hook(lambda g: (log.append(g.tolist()), g * 2)[1])
        (gx,) = lib.autograd.grad((x * 3).sum(), x)
        (x * 3).sum().backward()
        return log, gx, x.grad

    same(scenario)


def test_node_hooks_can_replace_gradients() -> None:
    def scenario(lib: Any) -> Any:
        x = leaf(lib, [1.0, 2.0])
        y = x * x
        y.grad_fn.register_hook(lambda grads_in, grads_out: tuple(g * 0.5 for g in grads_in))
        y.sum().backward()
        return x.grad

    same(scenario)


def test_accumulate_grad_node_hooks() -> None:
    def scenario(lib: Any) -> Any:
        log: list = []
        x = leaf(lib, [1.0, 2.0])
        y = x * 1
        accumulator = y.grad_fn.next_functions[0][0]
        accumulator.register_prehook(lambda grads: log.append(("pre", grads[0].tolist())))
        accumulator.register_hook(lambda grads_in, grads_out: log.append(("post", len(grads_in), grads_out[0].tolist())))
        x.register_hook(lambda g: log.append(("tensor", g.tolist())))
        y.sum().backward()
        return log

    same(scenario)


def test_post_accumulate_grad_hook_sees_the_updated_grad() -> None:
    def scenario(lib: Any) -> Any:
        log: list = []
        x = leaf(lib, [1.0, 2.0])
        x.register_post_accumulate_grad_hook(lambda t: log.append(("post", t.grad.tolist())))
        x.register_hook(lambda g: log.append(("tensor", g.tolist())))
        (x * 3).sum().backward()
        (x * x).sum().backward()
        return log

    same(scenario)
    check_op(lambda lib: (leaf(lib, [1.0]) * 2).register_post_accumulate_grad_hook(print), match="cannot be registered on non-leaf tensors")


def test_hook_errors() -> None:
    def resized(lib: Any) -> None:
        y = leaf(lib, [1.0, 2.0]) * 2
        y.register_hook(lambda g: lib.ones(3))
        y.sum().backward()

    check_op(resized, match="has changed the size of value")
    check_op(lambda lib: lib.tensor([1.0]).register_hook(lambda g: g), match="cannot register a hook on a tensor that doesn't require gradient")
    check_op(lambda lib: lib.tensor([1.0]).retain_grad(), match="can't retain_grad on Tensor that has requires_grad=False")


def test_retain_grad_keeps_intermediate_gradients() -> None:
    def scenario(lib: Any) -> Any:
        x = leaf(lib, [1.0, 2.0])
        y = x.exp()
        y.retain_grad()
        z = y * y
        z.sum().backward(retain_graph=True)
        first = y.grad.clone()
        z.sum().backward()
        return first, y.grad, y.retains_grad, x.grad

    same(scenario)


# --- custom Functions (the examples of torch's docs) ------------------------------------
def custom_functions(lib: Any) -> dict[str, type]:
    base = lib.autograd.Function

    class MyExp(base):
        @staticmethod
        def forward(ctx: Any, i: Any) -> Any:
            result = i.exp()
            ctx.save_for_backward(result)
            return result

        @staticmethod
        def backward(ctx: Any, grad_output: Any) -> Any:
            (result,) = ctx.saved_tensors
            return grad_output * result

    class MulConstant(base):
        @staticmethod
        def forward(ctx: Any, tensor: Any, constant: float) -> Any:
            ctx.constant = constant
            return tensor * constant

        @staticmethod
        def backward(ctx: Any, grad_output: Any) -> Any:
            return grad_output * ctx.constant, None

    class SplitSign(base):
        """Two outputs: the positive and the negative part."""

        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            ctx.save_for_backward(x)
            return x.relu(), -((-x).relu())

        @staticmethod
        def backward(ctx: Any, grad_pos: Any, grad_neg: Any) -> Any:
            (x,) = ctx.saved_tensors
            positive = (x > 0).to(x.dtype)
            return grad_pos * positive + grad_neg * (1 - positive)

    class WithMask(base):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            mask = x > 0
            ctx.mark_non_differentiable(mask)
            ctx.save_for_backward(mask)
            return x * 2, mask

        @staticmethod
        def backward(ctx: Any, grad: Any, grad_mask: Any) -> Any:
            return grad * 2

    class NoMaterialize(base):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            ctx.set_materialize_grads(False)
            return x.clone(), x.clone()

        @staticmethod
        def backward(ctx: Any, g1: Any, g2: Any) -> Any:
            return g1 if g2 is None else g1 + g2

    class NeedsGrad(base):
        @staticmethod
        def forward(ctx: Any, a: Any, b: Any) -> Any:
            ctx.save_for_backward(a, b)
            return a * b

        @staticmethod
        def backward(ctx: Any, grad: Any) -> Any:
            a, b = ctx.saved_tensors
            ga, gb = ctx.needs_input_grad
            return (grad * b if ga else None), (grad * a if gb else None)

    class Scale(base):
        """torch's newer style: forward without ctx, plus setup_context."""

        @staticmethod
        def forward(x: Any, k: float) -> Any:
            return x * k

        @staticmethod
        def setup_context(ctx: Any, inputs: tuple, output: Any) -> None:
            ctx.k = inputs[1]

        @staticmethod
        def backward(ctx: Any, grad: Any) -> Any:
            return grad * ctx.k, None

    class Identity(base):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            return x

        @staticmethod
        def backward(ctx: Any, grad: Any) -> Any:
            return grad

    class DoubleInPlace(base):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            x.mul_(2)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx: Any, grad: Any) -> Any:
            return grad * 2

    return {f.__name__: f for f in (MyExp, MulConstant, SplitSign, WithMask, NoMaterialize, NeedsGrad, Scale, Identity, DoubleInPlace)}


CUSTOM_CASES = {
    "MyExp": lambda f, lib, x, w: f(x) * w,
    "MyExp double backward": lambda f, lib, x, w: lib.autograd.grad(f(x).sum(), x, create_graph=True)[0] * w,
    "MulConstant": lambda f, lib, x, w: f(x, 3.0) * w,
    "SplitSign both": lambda f, lib, x, w: f(x)[0] * w + f(x)[1] * 3,
    "SplitSign first only": lambda f, lib, x, w: f(x)[0] * w,
    "WithMask": lambda f, lib, x, w: f(x)[0] * w,
    "NoMaterialize": lambda f, lib, x, w: f(x)[0] * w,
    "NeedsGrad": lambda f, lib, x, w: f(x, w),
    "Scale": lambda f, lib, x, w: f(x, 0.5) * w,
    "Identity": lambda f, lib, x, w: f(x) * w,
    "DoubleInPlace": lambda f, lib, x, w: f(x * 1) * w,
}


@pytest.mark.parametrize("case", CUSTOM_CASES)
def test_custom_function(case: str) -> None:
    name = case.split()[0]
    build = CUSTOM_CASES[case]

    def scenario(lib: Any) -> Any:
        fn = custom_functions(lib)[name].apply
        x = leaf(lib, [0.5, -1.0, 2.0], lib.float64)
        w = leaf(lib, [1.0, 2.0, 3.0], lib.float64)
        out = build(fn, lib, x, w)
        out.sum().backward()
        return out, x.grad, w.grad, out.grad_fn.name()

    same(scenario)


def test_custom_function_graph_details() -> None:
    def scenario(lib: Any) -> Any:
        fns = custom_functions(lib)
        x = leaf(lib, [1.0, -2.0])
        a, b = fns["SplitSign"].apply(x)
        y, mask = fns["WithMask"].apply(x)
        same_node = a.grad_fn is b.grad_fn
        ident = fns["Identity"].apply(x)
        scaled = fns["MulConstant"].apply(x, 2.0)
        return (
            same_node, a.grad_fn.name(), type(a.grad_fn).__name__, len(scaled.grad_fn.next_functions),
            mask.requires_grad, str(mask.dtype).split(".")[-1], y.requires_grad, ident is x, ident.is_leaf, ident.grad_fn.name(),
        )

    same(scenario)


def test_custom_function_errors() -> None:
    def make(lib: Any, backward: Callable) -> type:
        return type("Bad", (lib.autograd.Function,), {
            "forward": staticmethod(lambda ctx, x: x * 2), "backward": staticmethod(backward),
        })

    check_op(lambda lib: make(lib, lambda ctx, g: (g, g)).apply(leaf(lib, [1.0])).sum().backward(), match="returned an incorrect number of gradients (expected 1, got 2)")
    check_op(lambda lib: make(lib, lambda ctx, g: lib.ones(3)).apply(leaf(lib, [1.0, 2.0])).sum().backward(), match="returned an invalid gradient at index 0")
    same(lambda lib: make(lib, lambda ctx, g: (g, None)).apply(leaf(lib, [1.0])).sum().backward())
    check_op(lambda lib: custom_functions(lib)["DoubleInPlace"].apply(leaf(lib, [1.0])), match="a leaf Variable that requires grad has been used in an in-place operation.")


def test_custom_function_under_no_grad_keeps_ctx_usable() -> None:
    def scenario(lib: Any) -> Any:
        seen = []

        class Probe(lib.autograd.Function):
            @staticmethod
            def forward(ctx: Any, x: Any) -> Any:
                ctx.k = 3.0
                seen.append(ctx.needs_input_grad)
                return x * ctx.k

            @staticmethod
            def backward(ctx: Any, grad: Any) -> Any:
                return grad * ctx.k

        x = leaf(lib, [1.0])
        with lib.no_grad():
            y = Probe.apply(x)
        return y, seen

    same(scenario)


# --- memory ------------------------------------------------------------------------------
def test_graph_has_no_reference_cycles() -> None:
    gc.collect()
    gc.disable()
    try:
        x = leaf(tl, [1.0, 2.0])
        y = (x * 2).exp()
        node = weakref.ref(y.grad_fn)
        inner = weakref.ref(y.grad_fn.next_functions[0][0])
        del y
        assert node() is None and inner() is None  # freed by reference counting alone
    finally:
        gc.enable()


def test_a_freed_graph_leaves_nothing_for_the_garbage_collector() -> None:
    split_sign = custom_functions(tl)["SplitSign"]  # classes are cyclic themselves: make them first
    x = leaf(tl, [1.0, 2.0, 3.0])
    gc.collect()
    gc.disable()
    try:
        y = (x * 2).exp().sin()
        y.retain_grad()
        y.register_hook(lambda g: g * 1)
        z = (y * y).tanh()
        a, b = split_sign.apply(z)
        (a.sum() + b.sum()).backward(create_graph=False)
        (g,) = tl.autograd.grad((x * x).exp().sum(), x, create_graph=True)
        (g * 2).sum().backward()
        del y, z, a, b, g
        gc.set_debug(gc.DEBUG_SAVEALL)
        assert gc.collect() == 0
        assert gc.garbage == []
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


# --- random compositions vs torch (hypothesis) ------------------------------------------
BINARY = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": lambda a, b: a / (b * b + 1),  # a denominator away from 0
}
UNARY = {
    "exp": lambda a: a.tanh().exp(),  # bounded, so long chains cannot overflow
    "tanh": lambda a: a.tanh(),
    "sigmoid": lambda a: a.sigmoid(),
    "relu": lambda a: a.relu(),
    "sin": lambda a: a.sin(),
}
BROADCAST_SHAPES = [(), (3,), (2, 1), (1, 3), (2, 3), (4, 1, 1), (4, 2, 3)]


@st.composite
def programs(draw: Any) -> tuple:
    """Leaf shapes and a list of ops; each op reads any earlier value (so values fan out)."""
    shapes = draw(st.lists(st.sampled_from(BROADCAST_SHAPES), min_size=1, max_size=3))
    steps = []
    for i in range(draw(st.integers(1, 7))):
        available = len(shapes) + i
        if draw(st.booleans()):
            steps.append((draw(st.sampled_from(sorted(BINARY))), draw(st.integers(0, available - 1)), draw(st.integers(0, available - 1))))
        else:
            steps.append((draw(st.sampled_from(sorted(UNARY))), draw(st.integers(0, available - 1)), None))
    seed = draw(st.integers(0, 2**16))
    return shapes, steps, seed


def run_program(lib: Any, shapes: list, steps: list, seed: int, create_graph: bool) -> Any:
    rng = np.random.default_rng(seed)
    leaves = [lib.tensor(np.asarray(rng.uniform(-2, 2, shape)), requires_grad=True) for shape in shapes]
    values = list(leaves)
    for op, i, j in steps:
        values.append(BINARY[op](values[i], values[j]) if j is not None else UNARY[op](values[i]))
    out = values[-1]
    weights = lib.tensor(np.asarray(rng.uniform(-1, 1, tuple(out.shape))))
    if not out.requires_grad:
        return [out]
    if create_graph:
        grads = lib.autograd.grad((out * weights).sum(), leaves, create_graph=True, materialize_grads=True)
        # "+ x*0" keeps every leaf in the graph: the first derivative of relu, say, is constant
        # (torch still records a graph for it, tensorlab does not)
        total = sum((g * g).sum() + (x * 0).sum() for g, x in zip(grads, leaves, strict=True))
        second = lib.autograd.grad(total, leaves, materialize_grads=True)
        return [out, *(g.detach() for g in grads), *second]
    out.backward(weights)
    return [out, *(x.grad for x in leaves)]


@given(programs())
def test_random_compositions_match_torch_gradients(program: tuple) -> None:
    shapes, steps, seed = program
    same(lambda lib: run_program(lib, shapes, steps, seed, create_graph=False))


@given(programs())
def test_random_compositions_match_torch_second_derivatives(program: tuple) -> None:
    shapes, steps, seed = program
    same(lambda lib: run_program(lib, shapes, steps, seed, create_graph=True))


def test_a_gradient_of_another_dtype_is_cast_before_the_graph_runs() -> None:
    """torch casts a grad_output to its output's dtype first: with create_graph, the cast is a
    ToCopyBackward0 feeding the first node, and the result has the input's dtype."""
    names = {}
    for lib in (torch, tl):
        x = lib.tensor([1.0, 2.0, 3.0], dtype=lib.float64, requires_grad=True)
        start = lib.ones(3, requires_grad=True)  # float32
        (grad,) = lib.autograd.grad(x * 2, x, start, create_graph=True)
        assert grad.dtype == lib.float64
        names[lib] = [grad.grad_fn.name(), grad.grad_fn.next_functions[0][0].name()]
    assert names[tl] == names[torch] == ["MulBackward0", "ToCopyBackward0"]


# --- requires_grad on an integer tensor: three paths, three wordings ----------------------------
def _set_requires_grad(lib: Any) -> None:
    x = lib.tensor([1])
    x.requires_grad = True


@pytest.mark.parametrize(
    ("fn", "match"),
    [
        (lambda lib: lib.tensor([1], requires_grad=True), "Only Tensors of floating point and complex dtype"),
        (lambda lib: lib.zeros(2, dtype=lib.int64, requires_grad=True), "Only Tensors of floating point and complex dtype"),
        (lambda lib: lib.arange(3, requires_grad=True), "Only Tensors of floating point and complex dtype"),
        (lambda lib: lib.tensor([1]).requires_grad_(), "only Tensors of floating point dtype can require gradients"),
        (_set_requires_grad, "only Tensors of floating point and complex dtype"),
    ],
)
def test_requires_grad_on_integers(fn: Any, match: str) -> None:
    check_op(fn, match=match)


# --- next_functions of ops with a Python-number operand -----------------------------------------
def _edges(lib: Any, out: Any) -> list:
    return [(None if node is None else type(node).__name__.split("::")[-1], nr) for node, nr in out.grad_fn.next_functions]


@pytest.mark.parametrize(
    "fn",
    [
        lambda x: x * 2.0, lambda x: 2.0 * x, lambda x: x.mul(2), lambda x: x + 2, lambda x: 2 + x,
        lambda x: x.add(2, alpha=3), lambda x: x - 2, lambda x: 2 - x, lambda x: x.sub(2.5),
        lambda x: x / 2, lambda x: x.div(2, rounding_mode="floor"), lambda x: x**2, lambda x: 2**x,
        lambda x: x % 2, lambda x: x.clamp(0, 1), lambda x: x + x, lambda x: x * x.detach(),
    ],
)
def test_next_functions_with_a_number_operand(fn: Any) -> None:
    check_op(lambda lib, x: (_edges(lib, fn(x)), fn(x).grad_fn.name()), standard_normal((2,)))
