"""nn.Module, Parameter, the layers and nn.init, against torch.nn."""

from __future__ import annotations

import copy
import math
import pickle
import warnings
from collections import OrderedDict
from typing import Any

import numpy as np
import pytest
import torch

import tensorlab as tl
from tests.oracle import assert_same, check_op, pair


def copy_weights(source: torch.nn.Module, target: tl.nn.Module) -> None:
    """Load torch's initial values into the tensorlab twin, so both compute the same thing."""
    target.load_state_dict({k: tl.tensor(v.detach().numpy().copy()) for k, v in source.state_dict().items()})


def twins(build):
    """The same architecture built from torch.nn and tensorlab.nn, with torch's weights in both."""
    torch.manual_seed(0)
    t, m = build(torch), build(tl)
    copy_weights(t, m)
    return t, m


def compare_grads(t: torch.nn.Module, m: tl.nn.Module, **tolerance) -> None:
    for (name_t, p_t), (name_m, p_m) in zip(t.named_parameters(), m.named_parameters(), strict=True):
        assert name_t == name_m
        if p_t.grad is None:
            assert p_m.grad is None, name_m
        else:
            assert_same(p_t.grad, p_m.grad, where=f"grad of {name_m}", **tolerance)


# --- the seed's hook example -------------------------------------------------------------------
def seed_model(lib):
    nn, F = lib.nn, lib.nn.functional  # noqa: N806 - the seed's names

    class MyModel(nn.Module):
        def __init__(self):
            super(MyModel, self).__init__()  # noqa: UP008 - the seed's spelling
            self.cl1 = nn.Linear(25, 60)
            self.cl2 = nn.Linear(60, 16)
            self.fc1 = nn.Linear(16, 120)
            self.fc2 = nn.Linear(120, 84)
            self.fc3 = nn.Linear(84, 10)

        def forward(self, x):
            x = F.relu(self.cl1(x))
            x = F.relu(self.cl2(x))
            x = F.relu(self.fc1(x))
            x = F.relu(self.fc2(x))
            x = F.log_softmax(self.fc3(x), dim=1)
            return x

    return MyModel()


def test_seed_forward_hook_captures_activation():
    results = {}
    for lib in (torch, tl):
        activation = {}

        def get_activation(name, activation=activation):
            def hook(model, input, output):  # noqa: A002
                activation[name] = output.detach()

            return hook

        model = seed_model(lib)
        if lib is tl:
            copy_weights(results[torch][0], model)
        model.fc2.register_forward_hook(get_activation("fc2"))
        x = lib.tensor(np.random.default_rng(1).standard_normal((3, 25)).astype("float32"))
        out = model(x)
        results[lib] = (model, out, activation)
    _, out_t, act_t = results[torch]
    _, out_m, act_m = results[tl]
    assert_same(out_t, out_m)
    assert list(act_m) == ["fc2"] and tuple(act_m["fc2"].shape) == (3, 84)
    assert_same(act_t["fc2"], act_m["fc2"])
    assert not act_m["fc2"].requires_grad


def test_seed_model_names_repr_and_backward():
    t, m = twins(seed_model)
    assert [n for n, _ in m.named_parameters()] == [n for n, _ in t.named_parameters()]
    assert repr(m) == repr(t)
    x_t, x_m = pair(np.random.default_rng(2).standard_normal((4, 25)).astype("float32"))
    y = np.array([1, 0, 9, 3])
    loss_t = torch.nn.functional.nll_loss(t(x_t), torch.tensor(y))
    loss_m = tl.nn.functional.nll_loss(m(x_m), tl.tensor(y))
    assert_same(loss_t, loss_m)
    loss_t.backward()
    loss_m.backward()
    compare_grads(t, m)


# --- Parameter ---------------------------------------------------------------------------------
def test_parameter_basics():
    data = tl.tensor([1.0, 2.0])
    p = tl.nn.Parameter(data)
    assert isinstance(p, tl.Tensor) and isinstance(p, tl.nn.Parameter)
    assert p.requires_grad and p.is_leaf
    assert p.untyped_storage() is data.untyped_storage()  # wraps, does not copy
    assert not tl.nn.Parameter(data, requires_grad=False).requires_grad
    assert type(p * 2) is tl.Tensor and type(p.detach()) is tl.Tensor
    assert repr(p) == repr(torch.nn.Parameter(torch.tensor([1.0, 2.0]))).replace("torch", "tensorlab")
    assert repr(p).startswith("Parameter containing:\ntensor([1., 2.], requires_grad=True)")


def test_parameter_copy_and_pickle_stay_parameters():
    p = tl.nn.Parameter(tl.tensor([1.0, 2.0]))
    for clone in (copy.deepcopy(p), pickle.loads(pickle.dumps(p))):
        assert type(clone) is tl.nn.Parameter and clone.requires_grad
        assert clone.tolist() == [1.0, 2.0]
        assert clone.untyped_storage() is not p.untyped_storage()


# --- registration, naming, traversal -------------------------------------------------------------
def nested(lib):
    nn = lib.nn

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.proj = nn.Linear(3, 3)
            self.norm = nn.LayerNorm(3)
            self.register_buffer("running", lib.zeros(3))
            self.register_buffer("scratch", lib.ones(1), persistent=False)
            self.scale = nn.Parameter(lib.ones(1))
            self.plain = lib.ones(2)  # a plain tensor attribute: not registered

        def forward(self, x):
            return self.norm(self.proj(x)) * self.scale + self.running

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(6, 3)
            self.blocks = nn.ModuleList([Block(), Block()])
            self.heads = nn.ModuleDict({"a": nn.Linear(3, 2), "b": nn.Sequential(nn.GELU(), nn.Linear(3, 2, bias=False))})
            self.shared = self.heads["a"]  # the same module twice: listed once
            self.drop = nn.Dropout(0.1)

        def forward(self, idx):
            h = self.drop(self.embed(idx))
            for block in self.blocks:
                h = block(h)
            return self.heads["a"](h) + self.heads["b"](h)

    return Net()


def test_names_and_order_match_torch():
    t, m = twins(nested)
    for method in ("named_parameters", "named_buffers", "named_modules", "named_children"):
        assert [n for n, _ in getattr(m, method)()] == [n for n, _ in getattr(t, method)()], method
    assert list(m.state_dict()) == list(t.state_dict())
    assert [n for n, _ in m.named_parameters(prefix="net", recurse=False)] == [n for n, _ in t.named_parameters(prefix="net", recurse=False)]
    assert [n for n, _ in m.blocks[0].named_parameters(recurse=False)] == [n for n, _ in t.blocks[0].named_parameters(recurse=False)]
    assert len(list(m.parameters())) == len(list(t.parameters()))
    assert len(list(m.modules())) == len(list(t.modules()))
    assert len(list(m.children())) == len(list(t.children()))
    assert "plain" not in dict(m.named_buffers()) and "plain" not in dict(m.blocks[0].named_parameters())


def test_repr_matches_torch():
    t, m = twins(nested)
    assert repr(m) == repr(t)
    t, m = twins(lambda lib: lib.nn.Sequential(lib.nn.Linear(2, 3), lib.nn.ReLU()))
    assert repr(m) == "Sequential(\n  (0): Linear(in_features=2, out_features=3, bias=True)\n  (1): ReLU()\n)" == repr(t)
    for build in [
        lambda nn: nn.Softmax(dim=1), lambda nn: nn.LogSoftmax(1), lambda nn: nn.GELU("tanh"),
        lambda nn: nn.Dropout(0.25), lambda nn: nn.LayerNorm((2, 3), eps=1e-3), lambda nn: nn.Flatten(),
        lambda nn: nn.Embedding(4, 2, padding_idx=0), lambda nn: nn.CrossEntropyLoss(), lambda nn: nn.Sigmoid(),
        lambda nn: nn.Tanh(), lambda nn: nn.ReLU(inplace=True), lambda nn: nn.MSELoss(), lambda nn: nn.Identity(),
    ]:
        assert repr(build(tl.nn)) == repr(build(torch.nn))


def test_forward_and_backward_of_nested_model():
    t, m = twins(nested)
    t.eval()
    m.eval()
    idx = np.array([[0, 5, 2], [1, 1, 3]])
    out_t, out_m = t(torch.tensor(idx)), m(tl.tensor(idx))
    assert_same(out_t, out_m, rtol=1e-4, atol=1e-5)
    out_t.square().sum().backward()
    (out_m * out_m).sum().backward()
    compare_grads(t, m, rtol=1e-4, atol=1e-5)


def test_setattr_rules_match_torch():
    for lib in (torch, tl):
        nn = lib.nn
        linear = nn.Linear(2, 2)
        with pytest.raises(TypeError, match="cannot assign") as refused:
            linear.weight = lib.ones(2, 2, dtype=lib.float64)  # a plain Tensor where a Parameter lives
        library = lib.__name__
        assert str(refused.value) == (
            f"cannot assign '{library}.DoubleTensor' as parameter 'weight' ({library}.nn.Parameter or None expected)"
        )
        linear.bias = None
        assert linear.bias is None and [n for n, _ in linear.named_parameters()] == ["weight"]
        seq = nn.Sequential(nn.ReLU())
        with pytest.raises(TypeError):
            seq._modules  # noqa: B018
            setattr(seq, "0", 3)
        with pytest.raises(AttributeError, match="has no attribute 'missing'"):
            linear.missing  # noqa: B018

        class Early(nn.Module):
            def __init__(self, nn=nn, lib=lib):
                self.w = nn.Parameter(lib.ones(1))

        with pytest.raises(AttributeError, match=r"before Module\.__init__"):
            Early()
        with pytest.raises(KeyError):
            linear.register_buffer("a.b", lib.ones(1))
        del linear.weight
        assert [n for n, _ in linear.named_parameters()] == []


def test_forward_not_implemented():
    for lib in (torch, tl):
        with pytest.raises(NotImplementedError, match='missing the required "forward" function'):
            lib.nn.Module()(1)


# --- state_dict ----------------------------------------------------------------------------
def test_state_dict_values_are_detached_and_shared():
    m = tl.nn.Linear(2, 3)
    state = m.state_dict()
    assert type(state) is OrderedDict
    assert not state["weight"].requires_grad and type(state["weight"]) is tl.Tensor
    assert state["weight"].untyped_storage() is m.weight.untyped_storage()
    assert m.state_dict(keep_vars=True)["weight"] is m.weight


def test_load_state_dict_errors_read_like_torch():
    def messages(lib):
        nn = lib.nn
        model = nn.Sequential(nn.Linear(2, 3), nn.Linear(3, 1))
        state = model.state_dict()
        state.pop("1.bias")
        state["extra"] = lib.zeros(1)
        state["0.weight"] = lib.zeros(4, 2)
        with pytest.raises(RuntimeError) as strict:
            model.load_state_dict(state)
        del state["0.weight"]
        result = model.load_state_dict(state, strict=False)
        return str(strict.value).replace("torch", "tensorlab"), result

    strict_t, result_t = messages(torch)
    strict_m, result_m = messages(tl)
    assert strict_m == strict_t
    assert result_m.missing_keys == result_t.missing_keys and result_m.unexpected_keys == result_t.unexpected_keys
    assert type(result_m).__name__ == type(result_t).__name__ == "_IncompatibleKeys" or result_m._fields == result_t._fields


def test_load_state_dict_copies_values_into_parameters():
    source, target = tl.nn.Linear(2, 2), tl.nn.Linear(2, 2)
    weight = target.weight
    target.load_state_dict(source.state_dict())
    assert target.weight is weight  # same Parameter object, new values
    assert target.weight.tolist() == source.weight.tolist()
    assert target.weight.requires_grad


# --- modes and bulk operations ------------------------------------------------------------------
def test_train_eval_and_dropout():
    m = nested(tl)
    assert m.training and all(x.training for x in m.modules())
    assert m.eval() is m and not any(x.training for x in m.modules())
    x = tl.randn(5, 4)
    assert m.drop(x) is x
    m.train()
    assert m.drop.training
    with pytest.raises(ValueError, match="training mode is expected to be boolean"):
        m.train("yes")


def test_zero_grad_requires_grad_and_apply():
    m = tl.nn.Linear(2, 2)
    m(tl.ones(1, 2)).sum().backward()
    assert m.weight.grad is not None
    m.zero_grad(set_to_none=False)
    assert m.weight.grad.tolist() == [[0.0, 0.0], [0.0, 0.0]]
    m.zero_grad()
    assert m.weight.grad is None
    assert m.requires_grad_(False) is m and not any(p.requires_grad for p in m.parameters())
    visited = []
    seq = tl.nn.Sequential(tl.nn.Linear(1, 1), tl.nn.Sequential(tl.nn.ReLU()))
    torch_visited = []
    torch.nn.Sequential(torch.nn.Linear(1, 1), torch.nn.Sequential(torch.nn.ReLU())).apply(lambda mod: torch_visited.append(type(mod).__name__))
    assert seq.apply(lambda mod: visited.append(type(mod).__name__)) is seq
    assert visited == torch_visited


def test_apply_for_custom_init():
    def init_weights(module):
        if isinstance(module, tl.nn.Linear):
            tl.nn.init.constant_(module.weight, 0.5)
            tl.nn.init.zeros_(module.bias)

    m = tl.nn.Sequential(tl.nn.Linear(2, 2), tl.nn.ReLU()).apply(init_weights)
    assert m[0].weight.tolist() == [[0.5, 0.5], [0.5, 0.5]] and m[0].bias.tolist() == [0.0, 0.0]


def test_to_dtype_keeps_parameter_identity():
    m = tl.nn.Linear(2, 2)
    weight = m.weight
    assert m.to(tl.float64) is m
    assert m.weight is weight and m.weight.dtype is tl.float64 and m.weight.requires_grad
    assert m.float().weight.dtype is tl.float32
    assert m.double()(tl.ones(1, 2, dtype=tl.float64)).dtype is tl.float64


# --- hooks ---------------------------------------------------------------------------------------
def hook_log(lib):
    """Register pre-hooks, forward hooks (one prepended, one removed) and record the firing order."""
    log = []
    model = lib.nn.Linear(2, 2)
    model.register_forward_pre_hook(lambda mod, args: log.append(("pre1", len(args))))
    model.register_forward_pre_hook(lambda mod, args: (args[0] * 2,))  # replaces the input
    model.register_forward_hook(lambda mod, args, out: log.append("fwd1"))
    removed = model.register_forward_hook(lambda mod, args, out: log.append("removed"))
    model.register_forward_hook(lambda mod, args, out: log.append("fwd0"), prepend=True)
    model.register_forward_hook(lambda mod, args, out: out + 100)  # replaces the output
    model.register_forward_hook(lambda mod, args, out: log.append(("last", float(out.sum()) > 300)))
    removed.remove()
    return model, log


def test_hook_order_and_return_values_match_torch():
    model_t, log_t = hook_log(torch)
    model_m, log_m = hook_log(tl)
    copy_weights(model_t, model_m)
    x_t, x_m = pair(np.array([[1.0, 2.0]], dtype="float32"))
    assert_same(model_t(x_t), model_m(x_m))
    assert log_m == log_t


def test_pre_hook_returning_a_single_value_is_wrapped():
    for lib in (torch, tl):
        model = lib.nn.Identity()
        model.register_forward_pre_hook(lambda mod, args, lib=lib: lib.ones(1))
        assert model(lib.zeros(1)).tolist() == [1.0]


def test_handle_as_context_manager():
    calls = []
    model = tl.nn.ReLU()
    with model.register_forward_hook(lambda *a: calls.append(1)):
        model(tl.ones(1))
    model(tl.ones(1))
    assert calls == [1]


@pytest.mark.parametrize("input_requires_grad", [True, False])
def test_full_backward_hook_sees_torchs_gradients(input_requires_grad):
    seen = {}
    for lib in (torch, tl):
        torch.manual_seed(0)
        model = lib.nn.Linear(3, 2)
        if lib is tl:
            copy_weights(seen[torch][0], model)
        records = []
        model.register_full_backward_hook(lambda mod, gin, gout, records=records: records.append((gin, gout)))
        x = lib.tensor(np.arange(6.0).reshape(2, 3), dtype=lib.float32, requires_grad=input_requires_grad)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            (model(x) * lib.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
        warned = [str(w.message)[:60] for w in caught if "Full backward hook" in str(w.message)]
        assert warned == ([] if input_requires_grad else ["Full backward hook is firing when gradients are computed wit"]), lib
        seen[lib] = (model, records, x)
    (_, records_t, _), (_, records_m, _) = seen[torch], seen[tl]
    assert len(records_m) == len(records_t) == 1
    (gin_t, gout_t), (gin_m, gout_m) = records_t[0], records_m[0]
    assert len(gin_m) == len(gin_t) and len(gout_m) == len(gout_t)
    assert_same(gout_t[0], gout_m[0])
    if input_requires_grad:
        assert_same(gin_t[0], gin_m[0])
    else:
        assert gin_t[0] is None and gin_m[0] is None


def test_full_backward_hook_can_replace_grad_input():
    for lib in (torch, tl):
        model = lib.nn.ReLU()
        model.register_full_backward_hook(lambda mod, gin, gout: (gin[0] * 10,))
        x = lib.tensor([1.0, -1.0, 2.0], requires_grad=True)
        model(x).sum().backward()
        assert x.grad.tolist() == [10.0, 0.0, 10.0]


def kwargs_hook_log(lib):
    """Pre-hooks and forward hooks that see (and change) keyword arguments; the log of their calls."""

    class Scale(lib.nn.Module):
        def forward(self, x, factor=1.0):
            return x * factor

    log = []
    model = Scale()
    model.register_forward_pre_hook(lambda mod, args, kwargs: log.append(("pre", sorted(kwargs))), with_kwargs=True)
    model.register_forward_pre_hook(lambda mod, args, kwargs: (args, {"factor": kwargs["factor"] * 10}), with_kwargs=True)
    model.register_forward_hook(lambda mod, args, kwargs, out: log.append(("fwd", kwargs["factor"], out.tolist())), with_kwargs=True)
    model.register_forward_hook(lambda mod, args, out: log.append(("plain", len(args))))
    return model(lib.tensor([1.0, 2.0]), factor=2.0).tolist(), log


def test_hooks_with_kwargs_match_torch():
    assert kwargs_hook_log(tl) == kwargs_hook_log(torch)


def test_pre_hook_with_kwargs_must_return_a_pair():
    messages = []
    for lib in (torch, tl):
        model = lib.nn.Identity()
        model.register_forward_pre_hook(lambda mod, args, kwargs: args, with_kwargs=True)
        with pytest.raises(RuntimeError) as caught:
            model(lib.ones(1))
        messages.append(str(caught.value).split(" but got")[0])
    assert messages[0] == messages[1]


def always_call_log(lib):
    """A forward that raises: only the always_call hooks run, and a failing one only warns."""

    class Broken(lib.nn.Module):
        def forward(self, x):
            raise ValueError("forward failed")

    log = []
    model = Broken()
    model.register_forward_hook(lambda mod, args, out: log.append("plain"))
    model.register_forward_hook(lambda mod, args, out: log.append(("always", out)), always_call=True)
    model.register_forward_hook(lambda mod, args, out: 1 / 0, always_call=True)
    removed = model.register_forward_hook(lambda mod, args, out: log.append("removed"), always_call=True)
    removed.remove()
    with pytest.warns(UserWarning, match="always_call=True"), pytest.raises(ValueError, match="forward failed"):
        model(lib.ones(1))
    return log, len(model._forward_hooks_always_called)


def test_always_call_hooks_run_when_forward_raises_as_in_torch():
    assert always_call_log(tl) == always_call_log(torch) == ([("always", None)], 2)


def test_always_call_hook_runs_once_when_a_later_hook_raises():
    counts = []
    for lib in (torch, tl):
        calls = []
        model = lib.nn.Identity()
        model.register_forward_hook(lambda mod, args, out, calls=calls: calls.append(1), always_call=True)
        model.register_forward_hook(lambda mod, args, out: 1 / 0)
        with pytest.raises(ZeroDivisionError):
            model(lib.ones(1))
        counts.append(len(calls))
    assert counts[0] == counts[1] == 1


def test_handle_ids_increase_and_remove_is_idempotent():
    for lib in (torch, tl):
        model = lib.nn.Identity()
        first = model.register_forward_hook(lambda *a: None, with_kwargs=False)
        second = model.register_forward_hook(lambda *a: None, with_kwargs=True, always_call=True)
        assert second.id > first.id and list(model._forward_hooks) == [first.id, second.id]
        second.remove()
        second.remove()
        assert list(model._forward_hooks) == [first.id]
        assert dict(model._forward_hooks_with_kwargs) == dict(model._forward_hooks_always_called) == {}


def shared_tree(lib):
    """A module reachable twice (the same Linear as `a` and as `b.0`), to show de-duplication."""
    shared = lib.nn.Linear(2, 2)
    return lib.nn.Sequential(OrderedDict([("a", shared), ("b", lib.nn.Sequential(shared, lib.nn.ReLU()))]))


@pytest.mark.parametrize("keywords", [{}, {"prefix": "net"}, {"remove_duplicate": False}, {"prefix": "m", "remove_duplicate": False}])
def test_named_modules_with_a_shared_module_matches_torch(keywords):
    names = {lib: [(name, type(mod).__name__) for name, mod in shared_tree(lib).named_modules(**keywords)] for lib in (torch, tl)}
    assert names[tl] == names[torch]


def test_apply_visits_children_first_and_shared_modules_twice_as_torch():
    visits = {}
    for lib in (torch, tl):
        seen: list = []
        tree = shared_tree(lib)
        assert tree.apply(lambda mod, seen=seen: seen.append(type(mod).__name__)) is tree
        visits[lib] = seen
    assert visits[tl] == visits[torch]


def test_full_backward_hook_order_prepend_and_remove_match_torch():
    logs = []
    for lib in (torch, tl):
        log: list = []
        model = lib.nn.Linear(2, 1)
        model.register_full_backward_hook(lambda mod, gin, gout, log=log: log.append("first"))
        gone = model.register_full_backward_hook(lambda mod, gin, gout, log=log: log.append("gone"))
        model.register_full_backward_hook(lambda mod, gin, gout, log=log: log.append("prepended"), prepend=True)
        gone.remove()
        model(lib.ones(1, 2, requires_grad=True)).sum().backward()
        logs.append(log)
    assert logs[0] == logs[1] == ["prepended", "first"]


# --- containers ----------------------------------------------------------------------------------
def test_sequential_indexing_len_slicing_and_append():
    layers = [tl.nn.Linear(2, 2), tl.nn.ReLU(), tl.nn.Linear(2, 1)]
    seq = tl.nn.Sequential(*layers)
    assert len(seq) == 3 and seq[0] is layers[0] and seq[-1] is layers[2]
    head = seq[:2]
    assert type(head) is tl.nn.Sequential and len(head) == 2 and head[1] is layers[1]
    assert list(seq) == layers
    with pytest.raises(IndexError):
        seq[3]
    seq.append(tl.nn.Sigmoid())
    assert [n for n, _ in seq.named_children()] == ["0", "1", "2", "3"]
    del seq[1]
    assert [n for n, _ in seq.named_children()] == ["0", "1", "2"] and seq[1] is layers[2]
    named = tl.nn.Sequential(OrderedDict([("fc", tl.nn.Linear(1, 1)), ("act", tl.nn.ReLU())]))
    assert [n for n, _ in named.named_parameters()] == ["fc.weight", "fc.bias"]


def test_module_list_and_dict():
    ml = tl.nn.ModuleList([tl.nn.ReLU()])
    ml.append(tl.nn.Linear(1, 1))
    ml += [tl.nn.Tanh()]
    ml.insert(0, tl.nn.Sigmoid())
    assert [type(x).__name__ for x in ml] == ["Sigmoid", "ReLU", "Linear", "Tanh"]
    assert [n for n, _ in ml.named_parameters()] == ["2.weight", "2.bias"]
    md = tl.nn.ModuleDict({"b": tl.nn.Linear(1, 1)})
    md["a"] = tl.nn.ReLU()
    assert list(md.keys()) == ["b", "a"] and "a" in md and len(md) == 2
    assert md.pop("a") is not None and list(md) == ["b"]


# --- every layer, forward and backward against torch ---------------------------------------------
LAYERS = {
    "linear": (lambda nn: nn.Linear(4, 3), (2, 5, 4)),
    "linear_no_bias": (lambda nn: nn.Linear(4, 3, bias=False), (5, 4)),
    "relu": (lambda nn: nn.ReLU(), (3, 4)),
    "sigmoid": (lambda nn: nn.Sigmoid(), (3, 4)),
    "tanh": (lambda nn: nn.Tanh(), (3, 4)),
    "gelu": (lambda nn: nn.GELU(), (3, 4)),
    "gelu_tanh": (lambda nn: nn.GELU(approximate="tanh"), (3, 4)),
    "softmax": (lambda nn: nn.Softmax(dim=-1), (3, 4)),
    "log_softmax": (lambda nn: nn.LogSoftmax(dim=0), (3, 4)),
    "layer_norm": (lambda nn: nn.LayerNorm(4), (2, 3, 4)),
    "layer_norm_2d": (lambda nn: nn.LayerNorm([3, 4], elementwise_affine=False), (2, 3, 4)),
    "flatten": (lambda nn: nn.Flatten(), (2, 3, 4)),
    "flatten_all": (lambda nn: nn.Flatten(0), (2, 3, 4)),
    "dropout_eval": (lambda nn: nn.Dropout(0.5).eval(), (3, 4)),
}


@pytest.mark.parametrize("name", list(LAYERS))
def test_layer_forward_backward(name):
    build, shape = LAYERS[name]
    t, m = twins(lambda lib: build(lib.nn))
    x_t, x_m = pair(np.random.default_rng(3).standard_normal(shape).astype("float32"), requires_grad=True)
    out_t, out_m = t(x_t), m(x_m)
    assert_same(out_t, out_m, rtol=1e-4, atol=1e-5)
    w = np.random.default_rng(4).standard_normal(tuple(out_t.shape)).astype("float32")
    (out_t * torch.tensor(w)).sum().backward()
    (out_m * tl.tensor(w)).sum().backward()
    assert_same(x_t.grad, x_m.grad, rtol=1e-4, atol=1e-5)
    compare_grads(t, m, rtol=1e-4, atol=1e-5)


def test_embedding_module():
    t, m = twins(lambda lib: lib.nn.Embedding(5, 3, padding_idx=2))
    idx = np.array([[2, 0, 0], [4, 2, 1]])
    out_t, out_m = t(torch.tensor(idx)), m(tl.tensor(idx))
    assert_same(out_t, out_m)
    out_t.sum().backward()
    out_m.sum().backward()
    compare_grads(t, m)
    fresh = tl.nn.Embedding(5, 3, padding_idx=2)
    assert fresh.weight[2].tolist() == [0.0, 0.0, 0.0]
    pretrained = tl.nn.Embedding.from_pretrained(tl.ones(2, 3))
    assert not pretrained.weight.requires_grad


LOSSES = {
    "cross_entropy": (lambda lib: lib.nn.CrossEntropyLoss(), "classes"),
    "cross_entropy_options": (lambda lib: lib.nn.CrossEntropyLoss(weight=lib.tensor([1.0, 2.0, 0.5]), ignore_index=0, label_smoothing=0.1), "classes"),
    "nll": (lambda lib: lib.nn.NLLLoss(reduction="sum"), "classes"),
    "mse": (lambda lib: lib.nn.MSELoss(), "values"),
    "bce_logits": (lambda lib: lib.nn.BCEWithLogitsLoss(pos_weight=lib.tensor([1.0, 3.0, 0.5])), "probabilities"),
    "bce": (lambda lib: lib.nn.Sequential(), "skip"),
}


@pytest.mark.parametrize("name", [k for k, v in LOSSES.items() if v[1] != "skip"])
def test_loss_modules(name):
    build, kind = LOSSES[name]
    t, m = twins(build)
    rng = np.random.default_rng(5)
    x_t, x_m = pair(rng.standard_normal((4, 3)).astype("float32"), requires_grad=True)
    target = {
        "classes": np.array([0, 2, 1, 2]),
        "values": rng.standard_normal((4, 3)).astype("float32"),
        "probabilities": rng.random((4, 3)).astype("float32"),
    }[kind]
    loss_t, loss_m = t(x_t, torch.tensor(target)), m(x_m, tl.tensor(target))
    assert_same(loss_t, loss_m)
    loss_t.backward()
    loss_m.backward()
    assert_same(x_t.grad, x_m.grad)
    assert list(m.state_dict()) == list(t.state_dict())


def test_bce_loss_module():
    p = np.array([0.2, 0.7, 0.9], dtype="float32")
    y = np.array([0.0, 1.0, 1.0], dtype="float32")
    assert_same(torch.nn.BCELoss()(torch.tensor(p), torch.tensor(y)), tl.nn.BCELoss()(tl.tensor(p), tl.tensor(y)))


# --- initialisation ------------------------------------------------------------------------------
def test_default_initialisation_bounds():
    tl.manual_seed(0)
    linear = tl.nn.Linear(100, 50)
    bound = 1 / math.sqrt(100)
    for p in (linear.weight, linear.bias):
        values = p.detach().numpy()
        assert values.min() >= -bound and values.max() <= bound
        assert values.max() > 0.8 * bound and values.min() < -0.8 * bound  # uniform, not narrower
    embedding = tl.nn.Embedding(200, 50).weight.detach().numpy()
    assert abs(embedding.mean()) < 0.05 and abs(embedding.std() - 1) < 0.05
    norm = tl.nn.LayerNorm(4)
    assert norm.weight.tolist() == [1.0] * 4 and norm.bias.tolist() == [0.0] * 4
    assert linear.weight.dtype is tl.float32 and linear.weight.requires_grad
    assert tl.nn.Linear(2, 2, dtype=tl.float64).weight.dtype is tl.float64


@pytest.mark.parametrize(
    "args",
    [("linear",), ("sigmoid",), ("tanh",), ("relu",), ("leaky_relu",), ("leaky_relu", 0.2), ("selu",), ("conv2d",)],
)
def test_calculate_gain(args):
    assert tl.nn.init.calculate_gain(*args) == torch.nn.init.calculate_gain(*args)


def test_calculate_gain_error():
    for lib in (torch, tl):
        with pytest.raises(ValueError, match="Unsupported nonlinearity"):
            lib.nn.init.calculate_gain("swish")


def test_init_functions_fill_in_place_within_bounds():
    tl.manual_seed(1)
    w = tl.empty(200, 300)
    fan_in, fan_out = 300, 200
    assert tl.nn.init.xavier_uniform_(w) is w
    assert np.abs(w.numpy()).max() <= math.sqrt(6 / (fan_in + fan_out))
    tl.nn.init.xavier_normal_(w, gain=2.0)
    assert abs(w.numpy().std() - 2 * math.sqrt(2 / (fan_in + fan_out))) < 0.01
    tl.nn.init.kaiming_uniform_(w, nonlinearity="relu")
    assert np.abs(w.numpy()).max() <= math.sqrt(2) * math.sqrt(3 / fan_in)
    tl.nn.init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu")
    assert abs(w.numpy().std() - math.sqrt(2 / fan_out)) < 0.005
    tl.nn.init.uniform_(w, -2.0, -1.0)
    assert w.numpy().min() >= -2 and w.numpy().max() <= -1
    tl.nn.init.normal_(w, mean=3.0, std=0.5)
    assert abs(w.numpy().mean() - 3) < 0.01
    assert tl.nn.init.ones_(w).numpy().min() == 1 and tl.nn.init.zeros_(w).numpy().max() == 0
    p = tl.nn.Parameter(tl.empty(3, 3))
    tl.nn.init.constant_(p, 0.25)  # in place on a leaf that requires grad: allowed, no graph
    assert p.is_leaf and p.requires_grad and p.tolist() == [[0.25] * 3] * 3


def test_fan_needs_two_dims():
    for lib in (torch, tl):
        with pytest.raises(ValueError, match="fewer than 2 dimensions"):
            lib.nn.init.xavier_uniform_(lib.empty(3))


# --- reassigning a child keeps the registration order --------------------------------------------
def _reassigned(lib: Any) -> tuple:
    nn = lib.nn
    seq = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 2))
    seq[0] = nn.Identity()
    m = nn.Module()
    m.a, m.b, m.c = nn.ReLU(), nn.Linear(1, 1), nn.ReLU()
    m.a = nn.Tanh()
    m.p = nn.Parameter(lib.ones(1))
    m.q = nn.Parameter(lib.ones(1))
    m.p = nn.Parameter(lib.zeros(1))
    m.register_buffer("x", lib.ones(1))
    m.register_buffer("y", lib.ones(1))
    m.x = lib.zeros(1)
    return (
        list(seq._modules), [n for n, _ in seq.named_parameters()],
        list(m._modules), [n for n, _ in m.named_parameters()], [n for n, _ in m.named_buffers()],
    )


def test_reassigning_a_child_keeps_its_place() -> None:
    check_op(_reassigned)
