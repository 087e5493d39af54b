"""torch.device, device= arguments, .to(device), .cpu(), .cuda(), against a CPU-only torch.

Every tensorlab tensor lives on the CPU: naming it is accepted wherever torch accepts it, and
naming CUDA fails with torch's own AssertionError, as a CPU-only torch build does.
"""

from __future__ import annotations

import pytest
import torch

import tensorlab as tl
from tests.oracle import check_op

pytestmark = pytest.mark.skipif(torch.cuda.is_available(), reason="compares with a CPU-only torch")

@pytest.mark.parametrize("name", ["cpu", "cpu:0", "cuda", "cuda:1", "mps", "meta"])
def test_device_objects(name: str) -> None:
    t, m = torch.device(name), tl.device(name)
    assert (repr(m), str(m), m.type, m.index) == (repr(t), str(t), t.type, t.index)
    assert m == tl.device(str(m)) and hash(m) == hash(tl.device(str(m)))
    assert (m == name) == (t == name)  # a device is not equal to its string, in torch either


@pytest.mark.parametrize("args", [("CPU",), ("cuda:x",), ("cpu", -1), (1.5,), ("cuda:0", 1)])
def test_device_errors(args: tuple) -> None:
    check_op(lambda lib: lib.device(*args), grad=False)


FACTORIES = [
    lambda lib, d: lib.zeros(2, 3, device=d),
    lambda lib, d: lib.ones(2, device=d),
    lambda lib, d: lib.full((2,), 7, device=d),
    lambda lib, d: lib.tensor([1, 2], device=d),
    lambda lib, d: lib.as_tensor([1.0, 2.0], device=d),
    lambda lib, d: lib.arange(4, device=d),
    lambda lib, d: lib.linspace(0, 1, 3, device=d),
    lambda lib, d: lib.eye(2, device=d),
    lambda lib, d: lib.zeros_like(lib.ones(2), device=d),
    lambda lib, d: lib.full_like(lib.ones(2), 3.0, device=d),
    lambda lib, d: lib.empty(0, device=d),
    lambda lib, d: lib.randn(0, device=d),
    lambda lib, d: lib.rand(0, device=d),
    lambda lib, d: lib.randint(3, (0,), device=d),
    lambda lib, d: lib.ones(1).new_zeros(2, device=d),
    lambda lib, d: lib.ones(2).to(d),
    lambda lib, d: lib.ones(2).to(device=d, dtype=lib.int8),
    lambda lib, d: lib.ones(2).to(d, lib.float64),
    lambda lib, d: lib.ones(2).to(d if d is None else lib.device(d)),
    lambda lib, d: lib.LongTensor([1, 2], device=d),
]


@pytest.mark.parametrize("device", ["cpu", "cpu:0", "cuda", "cuda:0", "mps", None])
@pytest.mark.parametrize("factory", FACTORIES)
def test_device_arguments(factory, device: str | None) -> None:
    """The CPU is accepted and the tensor says so; CUDA is torch's AssertionError; MPS is
    NotImplementedError (a backend this build cannot run)."""
    result = check_op(lambda lib: factory(lib, device), grad=False)
    if result is not None:
        assert result.device == tl.device("cpu") and str(result.device) == "cpu" and result.is_cpu


def test_cpu_and_to_return_the_same_tensor() -> None:
    for lib in (torch, tl):
        x = lib.ones(2)
        assert x.cpu() is x and x.to("cpu") is x and x.to(lib.device("cpu")) is x and x.to(x) is x
        assert x.to("cpu", copy=True) is not x
        assert not x.is_cuda


@pytest.mark.parametrize("call", [
    lambda lib: lib.ones(2).cuda(),
    lambda lib: lib.nn.Linear(2, 2).cuda(),
    lambda lib: lib.nn.Linear(2, 2).to("cuda"),
    lambda lib: lib.nn.Linear(2, 2).to(device="cuda:0"),
])
def test_cuda_is_torchs_assertion_error(call) -> None:
    check_op(call, grad=False, same_message=True)


def test_modules_move_to_the_cpu() -> None:
    for lib in (torch, tl):
        model = lib.nn.Linear(2, 2)
        assert model.to("cpu") is model and model.cpu() is model
        assert model.to(lib.device("cpu"), lib.float64).weight.dtype == lib.float64


def test_availability_questions_say_no_gpu() -> None:
    """The tutorials' first line picks the CPU under both libraries."""
    for lib in (torch, tl):
        device = "cuda" if lib.cuda.is_available() else "cpu"
        assert device == "cpu" and lib.cuda.device_count() == 0
        picked = lib.accelerator.current_accelerator().type if lib.accelerator.is_available() else "cpu"
        assert picked == "cpu"


# --- torch.cuda's other calls, as a CPU-only torch answers them ------------------------------------
@pytest.mark.parametrize("call", [
    lambda lib: lib.cuda.is_initialized(),
    lambda lib: lib.cuda.is_bf16_supported(),
    lambda lib: lib.cuda.memory_allocated(),
    lambda lib: lib.cuda.max_memory_allocated(),
    lambda lib: lib.cuda.memory_reserved(),
    lambda lib: lib.cuda.empty_cache(),
    # seeding and setting state: queued until CUDA starts, so nothing happens (and no error)
    lambda lib: lib.cuda.manual_seed(0),
    lambda lib: lib.cuda.manual_seed(2**70),
    lambda lib: lib.cuda.manual_seed(1.5),
    lambda lib: lib.cuda.manual_seed_all(42),
    lambda lib: lib.cuda.seed(),
    lambda lib: lib.cuda.seed_all(),
    lambda lib: lib.cuda.set_rng_state(lib.zeros(5, dtype=lib.uint8)),
    lambda lib: lib.cuda.set_rng_state_all([lib.zeros(5, dtype=lib.uint8)]),
    lambda lib: lib.cuda.get_rng_state_all(),
    # ... but what they are given is still checked
    lambda lib: lib.cuda.manual_seed("a"),
    lambda lib: lib.cuda.manual_seed_all("a"),
    lambda lib: lib.cuda.manual_seed(None),
    lambda lib: lib.cuda.set_rng_state(5),
    lambda lib: lib.cuda.set_rng_state(lib.zeros(5, dtype=lib.uint8), "gpu"),
    lambda lib: lib.cuda.set_rng_state_all(5),
    # anything that needs the GPU now: torch's AssertionError
    lambda lib: lib.cuda.initial_seed(),
    lambda lib: lib.cuda.get_rng_state(),
    lambda lib: lib.cuda.current_device(),
    lambda lib: lib.cuda.synchronize(),
    lambda lib: lib.cuda.get_device_name(),
    lambda lib: lib.cuda.get_device_name(0),
    lambda lib: lib.cuda.get_device_capability(),
    lambda lib: lib.cuda.get_device_properties(0),
    lambda lib: lib.cuda.init(),
])
def test_cuda_calls_answer_as_a_cpu_only_torch(call) -> None:
    check_op(call, grad=False)
    try:
        expected = repr(call(torch))
    except Exception as error:
        expected = f"{type(error).__name__}: {error}"
    try:
        got = repr(call(tl))
    except Exception as error:
        got = f"{type(error).__name__}: {error}"
    assert got == expected


def test_cuda_seeding_leaves_the_cpu_stream_alone() -> None:
    """torch.cuda.manual_seed does not seed the CPU generator, in either library."""
    for lib in (torch, tl):
        lib.manual_seed(0)
        first = lib.rand(3).tolist()
        lib.manual_seed(0)
        lib.cuda.manual_seed(123)
        lib.cuda.manual_seed_all(123)
        lib.cuda.seed()
        lib.cuda.seed_all()
        assert lib.rand(3).tolist() == first
