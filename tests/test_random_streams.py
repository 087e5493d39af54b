"""tensorlab's random streams against torch's CPU generator, draw for draw.

Bit-exact (``torch.equal``) everywhere except float32/float16 ``randn``/``normal`` on 16 or more
elements: torch's vectorised Box-Muller uses its own SIMD log/sin/cos, which tensorlab can only
approximate (a few float32 ulps: tolerance 1e-5 relative) — and whatever depends on those samples
(``xavier_normal_``, ``kaiming_normal_``, ``orthogonal_``: its QR also runs on another LAPACK)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import tensorlab as tl
from tensorlab._mt19937 import MT19937

SEEDS = [0, 1, 7, 42, 2**32 + 3, 67280421310721, -1]
SIZES = [0, 1, 15, 16, 17, 1000]


def as_torch(x: tl.Tensor) -> torch.Tensor:
    return torch.from_numpy(np.ascontiguousarray(x.numpy()).copy())


def same(ours: tl.Tensor, theirs: torch.Tensor) -> None:
    assert torch.equal(as_torch(ours), theirs), (ours, theirs)


def close(ours: tl.Tensor, theirs: torch.Tensor) -> None:
    """torch's float32 Box-Muller uses AVX2 log/sin/cos (a few float32 ulps from the C library's);
    rounded to float16, a value on a rounding boundary can then land one float16 ulp away."""
    one_ulp = 2.0**-10 if theirs.dtype == torch.float16 else 1e-5
    torch.testing.assert_close(as_torch(ours), theirs, rtol=one_ulp, atol=1e-5)


def pair(seed: int) -> tuple[tl.Generator, torch.Generator]:
    return tl.Generator().manual_seed(seed), torch.Generator().manual_seed(seed)


@pytest.mark.parametrize("seed", SEEDS)
def test_engine_words_and_state_layout(seed: int) -> None:
    ours, theirs = MT19937(seed & (2**64 - 1)), torch.Generator().manual_seed(seed)
    for n in (5, 700, 624, 1):
        words = torch.empty(n, dtype=torch.int32).random_(generator=theirs).numpy()
        assert np.array_equal(words.astype(np.uint32), ours.random32(n) & np.uint32(0x7FFFFFFF))
    g = tl.Generator().manual_seed(seed)
    g.engine = ours
    assert np.array_equal(g.get_state().numpy(), theirs.get_state().numpy())


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_uniform(seed: int, n: int, dtype: str) -> None:
    (g, tg) = pair(seed)
    same(tl.rand(n, dtype=getattr(tl, dtype), generator=g), torch.rand(n, dtype=getattr(torch, dtype), generator=tg))
    same(tl.empty(n, dtype=getattr(tl, dtype)).uniform_(-2, 3, generator=g), torch.empty(n, dtype=getattr(torch, dtype)).uniform_(-2, 3, generator=tg))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_normal(seed: int, n: int, dtype: str) -> None:
    (g, tg) = pair(seed)
    check = same if n < 16 or dtype == "float64" else close
    check(tl.randn(n, dtype=getattr(tl, dtype), generator=g), torch.randn(n, dtype=getattr(torch, dtype), generator=tg))
    check(tl.empty(n, dtype=getattr(tl, dtype)).normal_(1, 2, generator=g), torch.empty(n, dtype=getattr(torch, dtype)).normal_(1, 2, generator=tg))
    same(tl.rand(3, generator=g), torch.rand(3, generator=tg))  # the streams stay in step


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("n", SIZES)
def test_integers(seed: int, n: int) -> None:
    (g, tg) = pair(seed)
    for low, high in [(0, 10), (-5, 7), (0, 2**40), (3, 2**33)]:
        same(tl.randint(low, high, (n,), generator=g), torch.randint(low, high, (n,), generator=tg))
    same(tl.randint(100, (n,), dtype=tl.int32, generator=g), torch.randint(100, (n,), dtype=torch.int32, generator=tg))
    for name in ["int64", "int32", "int16", "uint8", "bool", "float32", "float64"]:
        same(tl.empty(n, dtype=getattr(tl, name)).random_(generator=g), torch.empty(n, dtype=getattr(torch, name)).random_(generator=tg))
    same(tl.empty(n).random_(3, 9, generator=g), torch.empty(n).random_(3, 9, generator=tg))
    same(tl.randperm(n, generator=g), torch.randperm(n, generator=tg))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("n", SIZES)
def test_bernoulli_exponential(seed: int, n: int) -> None:
    (g, tg) = pair(seed)
    same(tl.empty(n).bernoulli_(0.3, generator=g), torch.empty(n).bernoulli_(0.3, generator=tg))
    p, tp = tl.rand(n, generator=g), torch.rand(n, generator=tg)
    same(tl.bernoulli(p, generator=g), torch.bernoulli(tp, generator=tg))
    same(tl.bernoulli(p.double(), generator=g), torch.bernoulli(tp.double(), generator=tg))
    same(tl.empty(n, dtype=tl.float64).exponential_(generator=g), torch.empty(n, dtype=torch.float64).exponential_(generator=tg))
    same(tl.empty(n).exponential_(2.5, generator=g), torch.empty(n).exponential_(2.5, generator=tg))


@pytest.mark.parametrize("seed", SEEDS)
def test_multinomial_both_ways(seed: int) -> None:
    (g, tg) = pair(seed)
    tp = torch.rand(4, 9, generator=tg)
    p = tl.rand(4, 9, generator=g)
    same(tl.multinomial(p, 20, replacement=True, generator=g), torch.multinomial(tp, 20, replacement=True, generator=tg))
    same(tl.multinomial(p, 5, generator=g), torch.multinomial(tp, 5, generator=tg))
    same(tl.multinomial(p, 1, generator=g), torch.multinomial(tp, 1, generator=tg))
    same(tl.multinomial(p[0].double(), 9, generator=g), torch.multinomial(tp[0].double(), 9, generator=tg))


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_global_stream_interleaved(seed: int) -> None:
    tl.manual_seed(seed)
    torch.manual_seed(seed)
    assert tl.initial_seed() == torch.initial_seed()
    for _ in range(3):
        same(tl.randn(5), torch.randn(5))  # odd count: the spare normal carries over
        same(tl.rand(2, 3), torch.rand(2, 3))
        same(tl.randint(0, 50, (7,)), torch.randint(0, 50, (7,)))
        same(tl.normal(1.0, 2.0, (3,)), torch.normal(1.0, 2.0, (3,)))
        same(tl.normal(tl.zeros(5), tl.ones(5) * 2), torch.normal(torch.zeros(5), torch.ones(5) * 2))
        same(tl.zeros(4, 3).t().uniform_(), torch.zeros(4, 3).t().uniform_())  # memory order
        same(tl.zeros(4, 5, dtype=tl.float64).t().normal_(), torch.zeros(4, 5, dtype=torch.float64).t().normal_())


def test_state_round_trips_between_libraries() -> None:
    tl.manual_seed(3)
    tl.randn(1)  # leaves a cached spare normal in the state
    state = tl.get_rng_state()
    assert tuple(state.shape) == (5056,)
    torch.set_rng_state(as_torch(state))
    same(tl.randn(3), torch.randn(3))
    torch.manual_seed(11)
    torch.randn(1)
    tl.set_rng_state(tl.tensor(torch.get_rng_state().numpy()))
    same(tl.randn(3), torch.randn(3))
    g = tl.Generator().manual_seed(5)
    saved = g.get_state()
    first = tl.rand(4, generator=g)
    same(tl.rand(4, generator=g.set_state(saved)), as_torch(first))
    with pytest.raises(RuntimeError, match="Invalid mt19937 state"):
        tl.Generator().set_state(tl.zeros(5056, dtype=tl.uint8))
    with pytest.raises(RuntimeError, match="size 5056"):
        tl.Generator().set_state(tl.zeros(10, dtype=tl.uint8))


def test_generator_is_honoured() -> None:
    a = tl.randn(4, generator=tl.Generator().manual_seed(1))
    b = tl.randn(4, generator=tl.Generator().manual_seed(1))
    same(a, as_torch(b))
    assert tl.Generator().initial_seed() == torch.Generator().initial_seed() == 67280421310721
    assert tl.Generator().manual_seed(-1).initial_seed() == torch.Generator().manual_seed(-1).initial_seed()


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_data_loading_matches(seed: int) -> None:
    from torch.utils import data as tdata

    from tensorlab.utils import data as ldata

    tl.manual_seed(seed)
    torch.manual_seed(seed)
    ours, theirs = ldata.TensorDataset(tl.arange(10)), tdata.TensorDataset(torch.arange(10))
    for _ in range(2):
        assert [b[0].tolist() for b in ldata.DataLoader(ours, batch_size=4, shuffle=True)] == [
            b[0].tolist() for b in tdata.DataLoader(theirs, batch_size=4, shuffle=True)
        ]
    g, tg = pair(seed)
    assert [b[0].tolist() for b in ldata.DataLoader(ours, batch_size=3, shuffle=True, generator=g)] == [
        b[0].tolist() for b in tdata.DataLoader(theirs, batch_size=3, shuffle=True, generator=tg)
    ]
    assert list(ldata.RandomSampler(range(10), replacement=True, num_samples=70)) == list(tdata.RandomSampler(range(10), replacement=True, num_samples=70))
    assert list(ldata.SubsetRandomSampler([5, 6, 7, 8])) == list(tdata.SubsetRandomSampler([5, 6, 7, 8]))
    weights = [0.1, 0.5, 2.0, 1.0]
    assert list(ldata.WeightedRandomSampler(weights, 9)) == list(tdata.WeightedRandomSampler(weights, 9))
    assert list(ldata.WeightedRandomSampler(weights, 3, replacement=False)) == list(tdata.WeightedRandomSampler(weights, 3, replacement=False))
    splits = ldata.random_split(range(10), [3, 7], generator=tl.Generator().manual_seed(seed))
    theirs_splits = tdata.random_split(range(10), [3, 7], generator=torch.Generator().manual_seed(seed))
    assert [list(s) for s in splits] == [list(s) for s in theirs_splits]
    same(tl.rand(2), torch.rand(2))


def test_huge_replacement_sampler_is_lazy() -> None:
    from tensorlab.utils.data import RandomSampler

    indices = iter(RandomSampler(range(10), replacement=True, num_samples=int(1e10)))
    assert 0 <= next(indices) < 10


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_dropout_and_init(seed: int) -> None:
    tl.manual_seed(seed)
    torch.manual_seed(seed)
    ours, theirs = tl.nn.Linear(5, 3), torch.nn.Linear(5, 3)
    same(ours.weight.detach(), theirs.weight.detach())
    same(ours.bias.detach(), theirs.bias.detach())
    same(tl.nn.Dropout(0.3).train()(tl.ones(4, 6)), torch.nn.Dropout(0.3).train()(torch.ones(4, 6)))
    same(tl.nn.functional.dropout2d(tl.ones(2, 3, 2, 2), 0.3), torch.nn.functional.dropout2d(torch.ones(2, 3, 2, 2), 0.3))
    w, tw = tl.empty(20, 30), torch.empty(20, 30)
    for name in ["uniform_", "xavier_uniform_", "kaiming_uniform_"]:
        g, tg = pair(seed)
        same(getattr(tl.nn.init, name)(w, generator=g), getattr(torch.nn.init, name)(tw, generator=tg))
    for name in ["normal_", "xavier_normal_", "kaiming_normal_"]:
        close(getattr(tl.nn.init, name)(w), getattr(torch.nn.init, name)(tw))
    close(tl.nn.init.trunc_normal_(w), torch.nn.init.trunc_normal_(tw))
    same(tl.nn.init.trunc_normal_(w, 0.0, 1.0, -0.1, 0.2), torch.nn.init.trunc_normal_(tw, 0.0, 1.0, -0.1, 0.2))
    tl.nn.init.orthogonal_(w)
    torch.nn.init.orthogonal_(tw)
    same(tl.rand(3), torch.rand(3))  # every init drew as many words as torch's
