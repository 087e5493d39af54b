"""tensorlab.save / tensorlab.load: round trips, files crossing between torch and tensorlab, safety.

torch is the oracle twice over: a file torch wrote must load here as the same objects torch
loads from it, and a file tensorlab wrote must load in torch as the objects it was made from.
"""

from __future__ import annotations

import io
import pickle
import zipfile
from collections import OrderedDict
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import tensorlab as tl
from tests.oracle import TORCH_DTYPES, assert_same

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]


def values(shape: tuple, dtype: str, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) * 5).astype(dtype)


def both(array: np.ndarray) -> tuple[torch.Tensor, tl.Tensor]:
    return torch.tensor(array), tl.tensor(array)


def checkpoint(lib: Any, tensors: dict[str, Any]) -> dict:
    """A mixed object of the kind scripts save: tensors, views of them, containers, plain values."""
    a = tensors["a"]
    return {
        "a": a, "view": a[1:], "transposed": a.t(), "int": tensors["i"], "scalar": lib.tensor(3.5),
        "empty": lib.zeros(0, 4), "nested": [(a[0], {"deep": tensors["i"][:1]}), OrderedDict(x=1, y=2.5)],
        "plain": [1, -2**40, 2.5, "text", None, True, (1, 2)], "set": {1, 2}, "shape": a.shape, "dtype": lib.float16,
        "device": lib.device("cpu"),
    }


def as_comparable(obj: Any) -> Any:
    """Dicts as sorted item lists, sets as sorted lists; torch's names as strings (both libraries)."""
    if isinstance(obj, dict):
        return [[key, as_comparable(value)] for key, value in sorted(obj.items())]
    if isinstance(obj, (set, frozenset)):
        return sorted(obj)
    if isinstance(obj, (list, tuple)) and not isinstance(obj, (torch.Size, tl.Size)):
        return type(obj)(as_comparable(x) for x in obj)
    if isinstance(obj, (torch.Size, tl.Size, torch.dtype, tl.dtype, torch.device, tl.device)):
        return repr(obj).removeprefix("torch.").removeprefix("tensorlab.")
    return obj


def in_tensorlab(obj: Any) -> Any:
    """torch's loaded tensors as tensorlab ones (same values, dtype, flag), for ``assert_same``."""
    if isinstance(obj, torch.Tensor):
        copy = tl.tensor(obj.detach().numpy())
        return copy.requires_grad_(True) if obj.requires_grad else copy
    if isinstance(obj, (list, tuple)):
        return type(obj)(in_tensorlab(x) for x in obj)
    return obj


def torch_and_tensorlab_checkpoints() -> tuple[dict, dict]:
    a_t, a_m = both(values((3, 4), "float32"))
    i_t, i_m = both(np.arange(5))
    return checkpoint(torch, {"a": a_t, "i": i_t}), checkpoint(tl, {"a": a_m, "i": i_m})


def saved(lib: Any, obj: Any) -> bytes:
    buffer = io.BytesIO()
    lib.save(obj, buffer)
    return buffer.getvalue()


def test_a_file_torch_wrote_loads_as_torch_loads_it() -> None:
    original, _ = torch_and_tensorlab_checkpoints()
    data = saved(torch, original)
    assert_same(as_comparable(torch.load(io.BytesIO(data))), as_comparable(tl.load(io.BytesIO(data))))


def test_a_file_tensorlab_wrote_loads_in_torch_as_what_was_saved() -> None:
    expected, ours = torch_and_tensorlab_checkpoints()
    assert_same(as_comparable(expected), in_tensorlab(as_comparable(torch.load(io.BytesIO(saved(tl, ours))))), where="torch.load")
    assert_same(as_comparable(expected), as_comparable(tl.load(io.BytesIO(saved(tl, ours)))), where="tensorlab.load")


@pytest.mark.parametrize("writer", [torch, tl], ids=["torch-wrote", "tensorlab-wrote"])
def test_a_tensor_and_its_views_load_sharing_one_storage(writer: Any) -> None:
    base = writer.arange(12.0).reshape(3, 4)
    loaded = tl.load(io.BytesIO(saved(writer, [base, base[1], base.t(), base[:, 1::2]])))
    assert all(t.untyped_storage() is loaded[0].untyped_storage() for t in loaded)
    loaded[0][1, 1] = 100.0  # one storage: a write shows through every view, as after torch.load
    assert loaded[1][1].item() == 100.0 and loaded[2][1, 1].item() == 100.0
    expected = torch.load(io.BytesIO(saved(writer, [base, base[1], base.t(), base[:, 1::2]])))
    for t, m in zip(expected, loaded, strict=True):
        assert (tuple(m.stride()), m.storage_offset()) == (t.stride(), t.storage_offset())


@settings(max_examples=30, deadline=None)
@given(
    shape=st.lists(st.integers(0, 4), max_size=3).map(tuple), dtype=st.sampled_from(DTYPES),
    transpose=st.booleans(), seed=st.integers(0, 99), requires_grad=st.booleans(),
)
def test_any_tensor_crosses_both_ways(shape: tuple, dtype: str, transpose: bool, seed: int, requires_grad: bool) -> None:
    t, m = both(values(shape, dtype, seed))
    if transpose and len(shape) >= 2:
        t, m = t.transpose(0, -1), m.transpose(0, -1)
    if requires_grad and dtype.startswith("float"):
        t.requires_grad_(True)
        m.requires_grad_(True)
    assert_same(torch.load(io.BytesIO(saved(torch, t))), tl.load(io.BytesIO(saved(torch, t))))
    assert_same(t, in_tensorlab(torch.load(io.BytesIO(saved(tl, m)))))
    assert_same(t, tl.load(io.BytesIO(saved(tl, m))))


@pytest.mark.parametrize("dtype", DTYPES)
def test_every_dtype_keeps_its_storage_class(dtype: str) -> None:
    t, m = both(values((2, 3), dtype))
    with zipfile.ZipFile(io.BytesIO(saved(torch, t))) as theirs, zipfile.ZipFile(io.BytesIO(saved(tl, m))) as ours:
        torch_pickle = theirs.read(next(n for n in theirs.namelist() if n.endswith("data.pkl")))
        ours_pickle = ours.read("archive/data.pkl")
    storage_class = tl.serialization.STORAGE_CLASS[dtype]
    assert f"torch\n{storage_class}\n".encode() in torch_pickle and f"torch\n{storage_class}\n".encode() in ours_pickle
    assert torch.load(io.BytesIO(saved(tl, m))).dtype == TORCH_DTYPES[dtype]


# --- state dicts: models and optimizers -----------------------------------------------------------


def mlp(lib: Any) -> Any:
    return lib.nn.Sequential(lib.nn.Linear(4, 8), lib.nn.ReLU(), lib.nn.Linear(8, 2))


def test_torch_state_dict_loads_into_a_tensorlab_model_and_back(tmp_path: Path) -> None:
    theirs, ours = mlp(torch), mlp(tl)
    torch.save(theirs.state_dict(), tmp_path / "torch.pt")
    ours.load_state_dict(tl.load(tmp_path / "torch.pt"))
    x_t, x_m = both(values((5, 4), "float32"))
    assert_same(theirs(x_t).detach(), ours(x_m).detach())
    tl.save(ours.state_dict(), str(tmp_path / "tensorlab.pt"))
    again = mlp(torch)
    again.load_state_dict(torch.load(tmp_path / "tensorlab.pt"))
    assert_same(again(x_t).detach(), ours(x_m).detach())


def test_parameters_and_whole_state_dicts_round_trip() -> None:
    model = mlp(tl)
    state = tl.load(io.BytesIO(saved(tl, model.state_dict())))
    assert list(state) == list(model.state_dict()) and isinstance(state, OrderedDict)
    weight = tl.load(io.BytesIO(saved(tl, model[0].weight)))
    assert isinstance(weight, tl.nn.Parameter) and weight.requires_grad
    assert isinstance(torch.load(io.BytesIO(saved(tl, model[0].weight))), torch.nn.Parameter)


def test_optimizer_state_dict_round_trips_and_torch_reads_it() -> None:
    model = mlp(tl)
    optimizer = tl.optim.Adam(model.parameters(), lr=0.01)
    model(tl.ones(3, 4)).sum().backward()
    optimizer.step()
    state = optimizer.state_dict()
    data = saved(tl, state)
    for loaded in (tl.load(io.BytesIO(data)), torch.load(io.BytesIO(data))):
        assert loaded["param_groups"][0]["lr"] == 0.01 and loaded["param_groups"][0]["params"] == state["param_groups"][0]["params"]
        assert sorted(loaded["state"]) == sorted(state["state"])
    fresh = tl.optim.Adam(mlp(tl).parameters(), lr=0.5)
    fresh.load_state_dict(tl.load(io.BytesIO(data)))
    assert fresh.param_groups[0]["lr"] == 0.01


def test_a_whole_model_needs_weights_only_false() -> None:
    data = saved(tl, mlp(tl))
    with pytest.raises(pickle.UnpicklingError, match="Weights only load failed"):
        tl.load(io.BytesIO(data))
    model = tl.load(io.BytesIO(data), weights_only=False)
    assert isinstance(model, tl.nn.Sequential) and isinstance(model[0].weight, tl.nn.Parameter)


# --- safe by default ---------------------------------------------------------------------------------

CALLS: list[str] = []


def record_call(text: str) -> str:
    """What a malicious pickle would call (here: harmless, but it must not run on a safe load)."""
    CALLS.append(text)
    return text


class Payload:
    def __reduce__(self) -> tuple:
        return record_call, ("ran",)


@pytest.mark.parametrize("writer", [torch, tl], ids=["torch-wrote", "tensorlab-wrote"])
def test_a_pickle_that_calls_a_function_is_refused_like_torch(writer: Any) -> None:
    data = saved(writer, {"w": writer.ones(2), "evil": Payload()})
    CALLS.clear()
    with pytest.raises(pickle.UnpicklingError) as expected:
        torch.load(io.BytesIO(data))
    with pytest.raises(pickle.UnpicklingError, match="Weights only load failed") as got:
        tl.load(io.BytesIO(data))
    assert CALLS == []
    for phrase in ("Unsupported global: GLOBAL tests.test_serialization.record_call", "weights_only"):
        assert phrase in str(expected.value) and phrase in str(got.value)
    assert tl.load(io.BytesIO(data), weights_only=False)["evil"] == "ran" and CALLS == ["ran"]


def test_add_safe_globals_allows_a_trusted_function() -> None:
    data = saved(tl, Payload())
    tl.serialization.add_safe_globals([record_call])
    try:
        assert tl.load(io.BytesIO(data)) == "ran"
    finally:
        tl.serialization._added_safe_globals.clear()


# --- bad input: torch's exception classes ---------------------------------------------------------


def raised(fn: Any) -> BaseException:
    try:
        fn()
    except Exception as error:
        return error
    raise AssertionError("no exception")


@pytest.mark.parametrize("content", [b"hello world", b"", b"\x80\x02K\x05."], ids=["text", "empty", "a-pickled-int"])
def test_a_file_that_is_no_checkpoint_fails_like_torch(content: bytes) -> None:
    """Compared with torch's weights_only=False reader: tensorlab reads with pickle's own Unpickler
    (torch's weights-only reader is a Python re-implementation, whose KeyError for a missing memo
    entry says less than pickle's UnpicklingError)."""
    expected = raised(lambda: torch.load(io.BytesIO(content), weights_only=False))
    got = raised(lambda: tl.load(io.BytesIO(content)))
    assert type(got) is type(expected), f"torch: {expected!r}, tensorlab: {got!r}"


def test_missing_file_fails_like_torch(tmp_path: Path) -> None:
    missing = tmp_path / "missing.pt"
    expected, got = raised(lambda: torch.load(missing)), raised(lambda: tl.load(missing))
    assert type(got) is type(expected) and str(got) == str(expected)


def test_the_pre_zip_format_says_why_it_cannot_load(tmp_path: Path) -> None:
    torch.save(torch.ones(2), tmp_path / "old.pt", _use_new_zipfile_serialization=False)
    with pytest.raises(RuntimeError, match="older, non-zip format"):
        tl.load(tmp_path / "old.pt")
    with pytest.raises(NotImplementedError, match="zip format"):
        tl.save(tl.ones(2), tmp_path / "new.pt", _use_new_zipfile_serialization=False)


def test_a_cuda_checkpoint_needs_map_location_as_on_cpu_only_torch() -> None:
    data = saved(torch, {"w": torch.ones(2)})
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        files = {name: archive.read(name) for name in archive.namelist()}
    pickle_name = next(n for n in files if n.endswith("data.pkl"))
    files[pickle_name] = files[pickle_name].replace(b"X\x03\x00\x00\x00cpu", b"X\x06\x00\x00\x00cuda:0")
    patched = io.BytesIO()
    with zipfile.ZipFile(patched, "w") as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    data = patched.getvalue()
    expected, got = raised(lambda: torch.load(io.BytesIO(data))), raised(lambda: tl.load(io.BytesIO(data)))
    assert type(got) is type(expected) and "map_location=torch.device('cpu')" in str(got)
    assert_same(torch.load(io.BytesIO(data), map_location="cpu")["w"], tl.load(io.BytesIO(data), map_location="cpu")["w"])


def test_a_dtype_tensorlab_lacks_is_named_in_the_error() -> None:
    with pytest.raises(TypeError, match="BFloat16"):
        tl.load(io.BytesIO(saved(torch, torch.ones(2, dtype=torch.bfloat16))))


@pytest.mark.parametrize("call", ["save-to-missing-directory", "save-to-a-number", "load-from-a-number"])
def test_bad_destinations_fail_in_torchs_words(call: str, tmp_path: Path) -> None:
    def run(lib: Any) -> Any:
        if call == "save-to-missing-directory":
            return lib.save(lib.ones(1), str(tmp_path / "missing" / "x.pt"))
        if call == "save-to-a-number":
            return lib.save(lib.ones(1), 123)
        return lib.load(123)

    expected, got = raised(lambda: run(torch)), raised(lambda: run(tl))
    assert type(got) is type(expected) and str(got) == str(expected)
