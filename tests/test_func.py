"""tensorlab.func against torch.func: vmap's batching rules op by op, the autograd transforms,
functional_call and ensembling, on random inputs. ``check_op`` runs each lambda with ``lib`` =
torch and tensorlab (``lib.func.vmap``...), comparing values, shapes and gradients through vmap."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import tensorlab as tl
from tests.oracle import assert_same, check_op, standard_normal


def r(*shape: int, seed: int = 0) -> np.ndarray:
    return standard_normal(shape, seed=seed)


def no_fallback(fn):
    """Run fn and fail if vmap fell back to its loop (a rule is expected)."""

    def run(lib, *args):
        with warnings.catch_warnings():
            if lib is tl:
                warnings.filterwarnings("error", message="There is a performance drop")
            return fn(lib, *args)

    return run


# --- vmap: one rule at a time ---------------------------------------------------------------------
ELEMENTWISE_CASES = {
    "sin*x": lambda lib, x: lib.func.vmap(lambda a: a.sin() * a)(x),
    "torch.exp": lambda lib, x: lib.func.vmap(lambda a: lib.exp(a) + 1)(x),
    "scalar - x": lambda lib, x: lib.func.vmap(lambda a: 2.0 - a / 3)(x),
    "where": lambda lib, x: lib.func.vmap(lambda a: lib.where(a > 0, a, a * 0.1))(x),
    "relu F": lambda lib, x: lib.func.vmap(lambda a: lib.nn.functional.relu(a))(x),
    "clamp": lambda lib, x: lib.func.vmap(lambda a: a.clamp(min=-0.5, max=0.5))(x),
    "pow": lambda lib, x: lib.func.vmap(lambda a: a**2)(x),
}


@pytest.mark.parametrize("case", ELEMENTWISE_CASES)
def test_vmap_elementwise_matches_torch(case: str) -> None:
    check_op(no_fallback(ELEMENTWISE_CASES[case]), r(4, 3))


def test_vmap_broadcasts_batched_against_unbatched_of_higher_rank() -> None:
    # per sample: (3,) + (2, 3): the batched operand must be padded after its batch dim
    check_op(no_fallback(lambda lib, x, y: lib.func.vmap(lambda a: a + y)(x)), r(4, 3), r(2, 3, seed=1))
    check_op(no_fallback(lambda lib, x, y: lib.func.vmap(lambda a, b: a * b)(x, y)), r(4, 3), r(4, 2, 3, seed=1))


REDUCTION_CASES = {
    "sum()": lambda lib, x: lib.func.vmap(lambda a: a.sum())(x),
    "sum(0)": lambda lib, x: lib.func.vmap(lambda a: a.sum(0))(x),
    "sum(-1, keepdim)": lambda lib, x: lib.func.vmap(lambda a: a.sum(-1, keepdim=True))(x),
    "mean(dim=(0,1))": lambda lib, x: lib.func.vmap(lambda a: a.mean(dim=(0, 1)))(x),
    "torch.amax": lambda lib, x: lib.func.vmap(lambda a: lib.amax(a, 1))(x),
    "max()": lambda lib, x: lib.func.vmap(lambda a: a.max())(x),
    "max(dim) values": lambda lib, x: lib.func.vmap(lambda a: a.max(dim=0).values)(x),
    "softmax": lambda lib, x: lib.func.vmap(lambda a: lib.softmax(a, dim=-1))(x),
    "log_softmax F": lambda lib, x: lib.func.vmap(lambda a: lib.nn.functional.log_softmax(a, dim=0))(x),
    "cumsum": lambda lib, x: lib.func.vmap(lambda a: a.cumsum(1))(x),
    "var": lambda lib, x: lib.func.vmap(lambda a: a.var(0))(x),
}


@pytest.mark.parametrize("case", REDUCTION_CASES)
def test_vmap_reductions_shift_dims(case: str) -> None:
    check_op(no_fallback(REDUCTION_CASES[case]), r(5, 2, 3))


def test_vmap_argmax_matches_torch() -> None:
    check_op(no_fallback(lambda lib, x: lib.func.vmap(lambda a: a.argmax())(x)), r(5, 2, 3), grad=False)
    check_op(no_fallback(lambda lib, x: lib.func.vmap(lambda a: a.argmax(1))(x)), r(5, 2, 3), grad=False)


@pytest.mark.parametrize(
    ("a_shape", "b_shape", "batched"),
    [
        ((3,), (3,), "both"), ((3,), (3, 2), "a"), ((2, 3), (3,), "b"), ((2, 3), (3, 4), "both"),
        ((5, 2, 3), (3, 4), "a"), ((2, 3), (5, 3, 4), "b"), ((3,), (5, 3, 4), "both"), ((5, 2, 3), (3,), "both"),
    ],
)
def test_vmap_matmul_every_rank(a_shape: tuple, b_shape: tuple, batched: str) -> None:
    dims = {"a": (0, None), "b": (None, 0), "both": (0, 0)}[batched]
    a = r(4, *a_shape) if dims[0] == 0 else r(*a_shape)
    b = r(4, *b_shape, seed=1) if dims[1] == 0 else r(*b_shape, seed=1)
    check_op(no_fallback(lambda lib, x, y: lib.func.vmap(lib.matmul, in_dims=dims)(x, y)), a, b)
    check_op(no_fallback(lambda lib, x, y: lib.func.vmap(lambda p, q: p @ q, in_dims=dims)(x, y)), a, b)


def test_vmap_dot_and_linear() -> None:
    check_op(no_fallback(lambda lib, x, y: lib.func.vmap(lib.dot)(x, y)), r(4, 3), r(4, 3, seed=1))
    check_op(no_fallback(lambda lib, x, w, b: lib.func.vmap(lambda a: lib.nn.functional.linear(a, w, b))(x)), r(4, 3), r(2, 3, seed=1), r(2, seed=2))
    # the weights batched, the input not: an ensemble of linear layers on one batch of data
    check_op(no_fallback(lambda lib, x, w: lib.func.vmap(lambda v: lib.nn.functional.linear(x, v), in_dims=0)(w)), r(6, 3), r(4, 2, 3, seed=1))


SHAPE_CASES = {
    "x[0]": lambda lib, x: lib.func.vmap(lambda a: a[0])(x),
    "x[:, 1:]": lambda lib, x: lib.func.vmap(lambda a: a[:, 1:])(x),
    "x[..., None]": lambda lib, x: lib.func.vmap(lambda a: a[..., None])(x),
    "x[[1, 0]]": lambda lib, x: lib.func.vmap(lambda a: a[[1, 0, 1]])(x),
    "reshape(-1)": lambda lib, x: lib.func.vmap(lambda a: a.reshape(-1))(x),
    "view(3, 2)": lambda lib, x: lib.func.vmap(lambda a: a.view(3, 2))(x),
    "T": lambda lib, x: lib.func.vmap(lambda a: a.T)(x),
    "t()": lambda lib, x: lib.func.vmap(lambda a: a.t())(x),
    "permute": lambda lib, x: lib.func.vmap(lambda a: a.permute(1, 0))(x),
    "unsqueeze(-1)": lambda lib, x: lib.func.vmap(lambda a: a.unsqueeze(-1))(x),
    "squeeze": lambda lib, x: lib.func.vmap(lambda a: a[None].squeeze(0))(x),
    "expand": lambda lib, x: lib.func.vmap(lambda a: a.expand(4, 2, 3))(x),
    "flatten": lambda lib, x: lib.func.vmap(lambda a: a.flatten())(x),
    "transpose": lambda lib, x: lib.func.vmap(lambda a: a.transpose(0, -1))(x),
    "cat": lambda lib, x: lib.func.vmap(lambda a: lib.cat([a, a * 2], dim=1))(x),
    "stack with unbatched": lambda lib, x: lib.func.vmap(lambda a: lib.stack([a, lib.ones(2, 3, dtype=lib.float64)], dim=-1))(x),
    "unbind": lambda lib, x: lib.func.vmap(lambda a: a.unbind(1))(x),
    "select": lambda lib, x: lib.func.vmap(lambda a: a.select(1, 2))(x),
}


@pytest.mark.parametrize("case", SHAPE_CASES)
def test_vmap_indexing_and_shape_ops(case: str) -> None:
    check_op(no_fallback(SHAPE_CASES[case]), r(5, 2, 3))


def test_vmap_in_dims_and_out_dims() -> None:
    check_op(lambda lib, x: lib.func.vmap(lambda a: a * 2, in_dims=1)(x), r(2, 5, 3))
    check_op(lambda lib, x: lib.func.vmap(lambda a: a * 2, in_dims=-1, out_dims=1)(x), r(2, 5, 3))
    check_op(lambda lib, x, y: lib.func.vmap(lambda a, b: a - b, in_dims=(1, None))(x, y), r(2, 5), r(2, seed=1))
    check_op(lambda lib, x: lib.func.vmap(lambda a: (a.sum(), a * 2), out_dims=(0, 1))(x), r(4, 3))
    check_op(lambda lib, x: lib.func.vmap(lambda d: d["a"] * d["b"], in_dims=({"a": 0, "b": None},))({"a": x, "b": x[0]}), r(4, 3))


def test_vmap_nested_is_an_outer_product_of_batches() -> None:
    check_op(
        no_fallback(lambda lib, x, y: lib.func.vmap(lib.func.vmap(lib.dot, in_dims=(None, 0)), in_dims=(0, None))(x, y)),
        r(4, 3), r(5, 3, seed=1),
    )
    check_op(no_fallback(lambda lib, x: lib.func.vmap(lib.func.vmap(lambda a: a.sum(0) * a))(x)), r(2, 3, 4))


def test_vmap_unbatched_output_is_expanded() -> None:
    check_op(lambda lib, x, y: lib.func.vmap(lambda a: y * 1)(x), r(4, 3), r(2, seed=1))


def test_vmap_errors_match_torch() -> None:
    check_op(lambda lib, x: lib.func.vmap(lambda a: a.sum().item())(x), r(4, 3), grad=False, match="item()")
    check_op(lambda lib, x: lib.func.vmap(lambda a: a if a.sum() > 0 else -a)(x), r(4, 3), grad=False, match="data-dependent control flow")
    check_op(lambda lib, x, y: lib.func.vmap(lambda a, b: a + b)(x, y), r(4, 3), r(5, 3), grad=False, match="same size in the mapped dimension")
    check_op(lambda lib, x: lib.func.vmap(lambda a: a, in_dims=(None,))(x), r(4, 3), grad=False, match="Expected at least one Tensor to vmap over")
    check_op(lambda lib, x: lib.func.vmap(lambda a: a, in_dims=None)(x), r(4, 3), grad=False, match="expected `in_dims` to be int")
    check_op(lambda lib, x: lib.func.vmap(lambda a: a, in_dims=2)(x), r(4, 3), grad=False, match="in_dim")


def test_an_op_without_a_rule_loops_and_warns_naming_it() -> None:
    x = r(4, 3)
    with pytest.warns(UserWarning, match="batching rule for roll"):
        got = tl.func.vmap(lambda a: a.roll(1))(tl.tensor(x))
    assert_same(torch.func.vmap(lambda a: a.roll(1))(torch.tensor(x)), got)


def test_vmap_leaves_the_namespaces_as_they_were() -> None:
    sin, add = tl.sin, tl.Tensor.__add__
    tl.func.vmap(lambda a: tl.sin(a) + a)(tl.ones(2, 3))
    assert tl.sin is sin and tl.Tensor.__add__ is add


def test_recorder_mode_records_logical_and_physical_shapes() -> None:
    from tensorlab.widgets.vmap import VmapRecorder

    recorder = VmapRecorder()
    tl.func.vmap(recorder.watch(lambda a: a.sum(0)))(tl.ones(4, 2, 3))
    record = next(r for r in recorder.records if r["op"] != "<input>")
    assert record["op"] == "sum" and record["rule"] == "batching rule"
    assert record["inputs"][0]["logical"] == list(torch.ones(4, 2, 3)[0].shape)
    assert record["inputs"][0]["physical"] == [4, 2, 3]
    assert record["outputs"][0]["physical"] == [4, 3]


@settings(max_examples=15, deadline=None)
@given(batch=st.integers(1, 4), rows=st.integers(1, 4), cols=st.integers(0, 3), dim=st.integers(-2, 1), seed=st.integers(0, 99))
def test_vmap_random_composite_matches_torch(batch: int, rows: int, cols: int, dim: int, seed: int) -> None:
    x = r(batch, rows, cols, seed=seed)

    def f(lib, x):
        return lib.func.vmap(lambda a: (a.exp() * a).sum(dim, keepdim=True).T @ a[0:1].unsqueeze(0).flatten(0, 1))(x)

    check_op(no_fallback(f), x)


# --- the autograd transforms ----------------------------------------------------------------------------
def loss(lib):
    return lambda w, x: ((x @ w).tanh() ** 2).sum()


def test_grad_and_grad_and_value() -> None:
    check_op(lambda lib, w, x: lib.func.grad(loss(lib))(w, x), r(3, 2), r(4, 3, seed=1), grad=False)
    check_op(lambda lib, w, x: lib.func.grad(loss(lib), argnums=(0, 1))(w, x), r(3, 2), r(4, 3, seed=1), grad=False)
    check_op(lambda lib, w, x: lib.func.grad_and_value(loss(lib), argnums=1)(w, x), r(3, 2), r(4, 3, seed=1), grad=False)
    check_op(lambda lib, w: lib.func.grad(lambda v: (v.sin().sum(), v * 2), has_aux=True)(w), r(3, 2), grad=False)
    check_op(lambda lib, w: lib.func.grad(lambda v: v * 2)(w), r(3), grad=False, match="scalar")


def test_grad_of_a_dict_of_parameters() -> None:
    def f(lib, w, b):
        return lib.func.grad(lambda p: (p["w"].sin() + p["b"]).sum())({"w": w, "b": b})

    tg, lg = f(torch, torch.tensor(r(3)), torch.tensor(r(3, seed=1))), f(tl, tl.tensor(r(3)), tl.tensor(r(3, seed=1)))
    for k in tg:
        assert_same(tg[k], lg[k])


def test_nested_grad_is_the_second_derivative() -> None:
    check_op(lambda lib, x: lib.func.grad(lib.func.grad(lambda v: v.sin() * v**3))(x[0]), r(1), grad=False)
    check_op(lambda lib, x: lib.func.vmap(lib.func.grad(lib.func.grad(lambda v: v.exp() * v.cos())))(x), r(5), grad=False)


def test_vjp_and_jvp() -> None:
    check_op(lambda lib, x, v: lib.func.vjp(lambda a: a.sin() @ a.T, x)[1](v), r(3, 2), r(3, 3, seed=1), grad=False)
    check_op(lambda lib, x, v: lib.func.vjp(lambda a: a.sin() @ a.T, x)[0], r(3, 2), r(3, 3, seed=1))
    check_op(lambda lib, x, t: lib.func.jvp(lambda a: (a.sin() * a).sum(0), (x,), (t,)), r(3, 2), r(3, 2, seed=1), grad=False)
    check_op(lambda lib, x, t: lib.func.jvp(lambda a, b: a * b, (x, x), (t, t)), r(3, 2), r(3, 2, seed=1), grad=False)


def test_jacrev_jacfwd_hessian() -> None:
    check_op(lambda lib, x: lib.func.jacrev(lambda a: a.sin() * a.sum())(x), r(2, 3), grad=False)
    check_op(lambda lib, x: lib.func.jacfwd(lambda a: a.sin() * a.sum())(x), r(2, 3), grad=False)
    check_op(lambda lib, x, w: lib.func.jacrev(lambda a, b: a @ b, argnums=(0, 1))(x, w), r(2, 3), r(3, 4, seed=1), grad=False)
    check_op(lambda lib, x: lib.func.jacrev(lambda a: (a.exp(), a.sum()))(x), r(3), grad=False)
    check_op(lambda lib, x: lib.func.hessian(lambda a: (a.sin() ** 2).sum() * a[0])(x), r(2, 2), grad=False)
    check_op(lambda lib, x: lib.func.vmap(lib.func.jacrev(lambda a: a.sin() * a[0]))(x), r(4, 3), grad=False)


@settings(max_examples=10, deadline=None)
@given(n=st.integers(1, 4), m=st.integers(1, 3), seed=st.integers(0, 99))
def test_jacrev_random_matches_torch(n: int, m: int, seed: int) -> None:
    check_op(lambda lib, x, w: lib.func.jacrev(lambda a: (a @ w).tanh())(x), r(n, 3, seed=seed), r(3, m, seed=seed + 1), grad=False)


def test_transforms_are_differentiable_when_the_input_requires_grad() -> None:
    check_op(lambda lib, x: lib.func.grad(lambda a: (a.sin() * a).sum())(x), r(3))  # backward of grad: the Hessian


# --- functional_call, per-sample gradients, ensembles ------------------------------------------------------
def twin_models(seed: int = 0) -> tuple[torch.nn.Module, tl.nn.Module]:
    torch.manual_seed(seed)
    mt = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 2))
    ml = tl.nn.Sequential(tl.nn.Linear(3, 4), tl.nn.Tanh(), tl.nn.Linear(4, 2))
    ml.load_state_dict({k: tl.tensor(v.detach().numpy()) for k, v in mt.state_dict().items()})
    return mt, ml


def test_functional_call_uses_the_given_parameters_and_restores_the_module() -> None:
    mt, ml = twin_models()
    x = r(5, 3).astype(np.float32)
    new_t = {k: v.detach() * 2 for k, v in mt.named_parameters()}
    new_l = {k: v.detach() * 2 for k, v in ml.named_parameters()}
    assert_same(torch.func.functional_call(mt, new_t, (torch.tensor(x),)), tl.func.functional_call(ml, new_l, (tl.tensor(x),)))
    assert_same(mt(torch.tensor(x)), ml(tl.tensor(x)))
    assert isinstance(ml[0].weight, tl.nn.Parameter)


def test_per_sample_gradients_match_torch() -> None:
    mt, ml = twin_models()
    x, y = r(6, 3).astype(np.float32), r(6, 2, seed=1).astype(np.float32)

    def per_sample(lib, model):
        params = {k: v.detach() for k, v in model.named_parameters()}

        def sample_loss(p, xb, yb):
            return lib.nn.functional.mse_loss(lib.func.functional_call(model, p, (xb,)), yb)

        return lib.func.vmap(lib.func.grad(sample_loss), in_dims=(None, 0, 0))(params, lib.tensor(x), lib.tensor(y))

    gt, gl = per_sample(torch, mt), per_sample(tl, ml)
    for k in gt:
        assert_same(gt[k], gl[k])


def test_ensembling_with_stack_module_state_matches_torch() -> None:
    pairs = [twin_models(seed) for seed in range(3)]
    x = r(5, 3).astype(np.float32)
    pt, bt = torch.func.stack_module_state([p[0] for p in pairs])
    pl, bl = tl.func.stack_module_state([p[1] for p in pairs])
    assert pl["0.weight"].requires_grad and pl["0.weight"].is_leaf

    def run(lib, base, params, buffers):
        return lib.func.vmap(lambda p, b, d: lib.func.functional_call(base, (p, b), (d,)), in_dims=(0, 0, None))(params, buffers, lib.tensor(x))

    assert_same(run(torch, pairs[0][0], pt, bt), run(tl, pairs[0][1], pl, bl))


# --- torch.autograd.functional: the same code behind torch's older signatures ---------------------------
def func_pair(x, y):
    return (y @ x).sin(), x * 2


@pytest.mark.parametrize(
    "case",
    [
        lambda lib, x: lib.autograd.functional.jacobian(lambda a: a.sin() * a, x),
        lambda lib, x: lib.autograd.functional.jacobian(func_pair, (x, x[None].expand(2, 3) * 1)),
        lambda lib, x: lib.autograd.functional.hessian(lambda a: (a.exp() * a).sum(), x),
        lambda lib, x: lib.autograd.functional.hessian(lambda a, b: (b @ a).sin().sum(), (x, x[None] * 1)),
        lambda lib, x: lib.autograd.functional.vjp(lambda a: a.sin(), x, x.cos()),
        lambda lib, x: lib.autograd.functional.vjp(lambda a: a.sin().sum(), x),
        lambda lib, x: lib.autograd.functional.jvp(lambda a: a.sin() * a, x, x.cos()),
        lambda lib, x: lib.autograd.functional.hvp(lambda a: (a.exp() * a).sum(), x, x.cos()),
        lambda lib, x: lib.autograd.functional.vhp(lambda a: (a.exp() * a).sum(), x, x.cos()),
    ],
)
def test_autograd_functional_matches_torch(case) -> None:
    check_op(case, r(3), grad=False)


def test_autograd_functional_create_graph() -> None:
    check_op(lambda lib, x: lib.autograd.functional.jacobian(lambda a: a.sin() * a, x, create_graph=True), r(3))
    check_op(lambda lib, x: lib.autograd.functional.hvp(lambda a: a.sin().sum() * a.sum(), x, x * 1, create_graph=True), r(3))


def test_vmap_randomness_modes() -> None:
    check_op(lambda lib, x: lib.func.vmap(lambda a: a + lib.randn(3))(x), r(4, 3), grad=False, match="randomness error mode")
    for lib in (torch, tl):
        same = lib.func.vmap(lambda a, lib=lib: a * 0 + lib.randn(3), randomness="same")(lib.zeros(4, 3))
        different = lib.func.vmap(lambda a, lib=lib: a * 0 + lib.randn(3), randomness="different")(lib.zeros(4, 3))
        assert tuple(same.shape) == tuple(different.shape) == (4, 3)
        assert bool((same == same[0]).all()) and not bool((different == different[0]).all())


def test_vmap_over_an_empty_batch() -> None:
    check_op(no_fallback(lambda lib, x: lib.func.vmap(lambda a: a.sum())(x)), r(0, 3))
    check_op(no_fallback(lambda lib, x: lib.func.vmap(lambda a: a.amax(0) * 2)(x)), r(0, 3, 2))


def test_a_plain_tensors_method_with_a_batched_argument_reaches_the_rule() -> None:
    check_op(no_fallback(lambda lib, x, w: lib.func.vmap(lambda a: w.t().matmul(a))(x)), r(4, 3), r(3, 2, seed=1))
    check_op(lambda lib, x: lib.func.vmap(lambda a, w: w.add_(a), in_dims=(0, None))(x, lib.zeros(3, dtype=lib.float64)),
             r(4, 3), grad=False, match="doesn't match the broadcast shape", same_message=True)


COMPOSITIONS = {
    "grad of vmap": lambda lib, x: lib.func.grad(lambda v: lib.func.vmap(lambda r: (r.sin() * r).sum())(v).sum())(x),
    "vmap of hessian": lambda lib, x: lib.func.vmap(lib.func.hessian(lambda r: (r.sin() ** 2).sum()))(x),
    "jacrev of vmap": lambda lib, x: lib.func.jacrev(lib.func.vmap(lambda r: r.exp() * r[0]))(x),
    "vmap of vjp": lambda lib, x: lib.func.vmap(lambda r: lib.func.vjp(lambda t: t.sin() * t, r)[1](r)[0])(x),
    "vmap of jvp": lambda lib, x: lib.func.vmap(lambda r: lib.func.jvp(lambda t: t.sin() * t, (r,), (r,))[1])(x),
    "hessian, two argnums": lambda lib, x: lib.func.hessian(lambda a, b: (a * b.sin()).sum(), argnums=(0, 1))(x[0], x[1]),
}


@pytest.mark.parametrize("name", COMPOSITIONS)
def test_transforms_compose_as_torchs_do(name: str) -> None:
    check_op(COMPOSITIONS[name], r(4, 3), grad=False)
