"""tensorlab.einops against the einops package running on torch tensors: values, gradients, errors."""

from __future__ import annotations

import einops
import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import tensorlab as tl
from tensorlab import einops as tl_einops
from tests.oracle import assert_same, check_op, pair


def ops(lib):
    return einops if lib is torch else tl_einops


rng = np.random.default_rng(0)
IMAGES = rng.standard_normal((4, 6, 8, 3)).astype(np.float32)

SEED_REARRANGE = {
    "identity": ("b h w c -> b h w c", {}),
    "concatenate along height": ("b h w c -> (b h) w c", {}),
    "concatenate along width": ("b h w c -> h (b w) c", {}),
    "channels first": ("b h w c -> b c h w", {}),
    "flatten each image": ("b h w c -> b (c h w)", {}),
    "split into 4 tiles": ("b (h1 h) (w1 w) c -> (b h1 w1) h w c", {"h1": 2, "w1": 2}),
    "space to depth": ("b (h h1) (w w1) c -> b h w (c h1 w1)", {"h1": 2, "w1": 2}),
    "ellipsis adds a unit axis": ("... -> ... 1", {}),
    "ellipsis in the middle": ("b ... c -> c b ...", {}),
    "ellipsis inside brackets": ("b ... -> b (...)", {}),
    "unit axes": ("b h w c -> b 1 h w c ()", {}),
    "named size checked": ("b h w c -> c h w b", {"b": 4}),
}


@pytest.mark.parametrize("name", SEED_REARRANGE)
def test_rearrange_seed_patterns(name: str) -> None:
    pattern, sizes = SEED_REARRANGE[name]
    check_op(lambda lib, x: ops(lib).rearrange(x, pattern, **sizes), IMAGES)


def test_rearrange_list_of_tensors_is_stacked() -> None:
    arrays = [rng.standard_normal((3, 4)).astype(np.float32) for _ in range(5)]
    expected = einops.rearrange([torch.tensor(a) for a in arrays], "b h w -> h (b w)")
    got = tl_einops.rearrange([tl.tensor(a) for a in arrays], "b h w -> h (b w)")
    assert_same(expected, got)
    got_from_numpy = tl_einops.rearrange(arrays, "b h w -> (b h) w")
    assert tuple(got_from_numpy.shape) == (15, 4)


@pytest.mark.parametrize("reduction", ["sum", "mean", "max", "min", "prod"])
def test_reduce_matches_einops(reduction: str) -> None:
    x = rng.standard_normal((2, 3, 4, 6))
    for pattern, sizes in [
        ("b c h w -> b c", {}),
        ("b c (h h2) (w w2) -> b c h w", {"h2": 2, "w2": 3}),
        ("b c h w -> c", {}),
        ("b ... w -> b w", {}),
        ("b c h w -> b () c ()", {}),
        ("b c h w -> b c h w", {}),
        ("b c (h 2) (w 3) -> b c h w", {}),  # anonymous sizes on the left: the max-pooling idiom
        ("b c (h 2) (w w2) -> b c h w", {"w2": 3}),
    ]:
        check_op(lambda lib, t, p=pattern, s=sizes: ops(lib).reduce(t, p, reduction, **s), x)


def test_repeat_anonymous_axes_on_both_sides_stay_apart() -> None:
    """A number on the left is reduced or split; one on the right is a new axis: the same count must not mix them."""
    x = rng.standard_normal((4, 3))
    check_op(lambda lib, t: ops(lib).reduce(t, "(h 2) w -> h w", "sum"), x)
    check_op(lambda lib, t: ops(lib).repeat(t, "h w -> h (w 2) 3"), x)


@pytest.mark.parametrize("reduction", ["any", "all", "sum", "max", "mean"])
def test_reduce_integer_and_bool_tensors(reduction: str) -> None:
    """any/all reduce ints and bools; mean of integers is refused with einops' NotImplementedError."""
    integers = rng.integers(0, 3, (2, 3, 4))
    check_op(lambda lib, x: ops(lib).reduce(x, "a b c -> b", reduction), integers)
    check_op(lambda lib, x: ops(lib).reduce(x, "a (b c) -> a", reduction, c=2), integers[0] > 0)


def test_reduce_with_a_callable() -> None:
    x = rng.standard_normal((2, 3, 4))
    check_op(lambda lib, t: ops(lib).reduce(t, "a b c -> a", lambda v, dims: v.sum(dims)), x)


REPEAT = {
    "new axis": ("h w -> h w c", {"c": 3}),
    "tile along an axis": ("h w -> (r h) w", {"r": 2}),
    "repeat each element": ("h w -> h (w r)", {"r": 2}),
    "anonymous size": ("h w -> h 3 w", {}),
    "anonymous in a group": ("h w -> (2 h) (w 3)", {}),
    "with ellipsis": ("... w -> ... w b", {"b": 2}),
    "permute and repeat": ("h w -> w b h", {"b": 2}),
}


@pytest.mark.parametrize("name", REPEAT)
def test_repeat_matches_einops(name: str) -> None:
    pattern, sizes = REPEAT[name]
    check_op(lambda lib, x: ops(lib).repeat(x, pattern, **sizes), rng.standard_normal((2, 3)))


ERRORS = {
    "axis only on one side": ("rearrange", "b h w c -> b c h", {}),
    "wrong number of dims": ("rearrange", "b h w -> b h w", {}),
    "not divisible": ("rearrange", "b (h h1) w c -> b h h1 w c", {"h1": 4}),
    "size mismatch": ("rearrange", "b h w c -> b h w c", {"b": 5}),
    "two unknowns in a group": ("rearrange", "b (h h1) w c -> b h h1 w c", {}),
    "duplicate axis": ("rearrange", "b b w c -> b w c", {}),
    "unbalanced brackets": ("rearrange", "b (h w c -> b h w c", {}),
    "nested brackets": ("rearrange", "b ((h w) c) -> b h w c", {}),
    "anonymous in rearrange": ("rearrange", "b h w c -> b h w c 2", {}),
    "unused size": ("rearrange", "b h w c -> b h w c", {"z": 2}),
    "right side of reduce": ("sum", "b h w c -> b z", {}),
    "unknown reduction": ("median", "b h w c -> b", {}),
    "repeat needs a size": ("repeat", "b h w c -> b h w c z", {}),
    "left side of repeat": ("repeat", "b h w c -> b h w", {}),
    "ellipsis only on the right": ("rearrange", "b h w c -> b ...", {}),
}


@pytest.mark.parametrize("name", ERRORS)
def test_einops_errors(name: str) -> None:
    operation, pattern, sizes = ERRORS[name]
    t, m = pair(IMAGES)

    def call(module, x):
        if operation == "rearrange":
            return module.rearrange(x, pattern, **sizes)
        if operation == "repeat":
            return module.repeat(x, pattern, **sizes)
        return module.reduce(x, pattern, operation, **sizes)

    with pytest.raises(einops.EinopsError) as expected:
        call(einops, t)
    with pytest.raises(tl_einops.EinopsError) as got:
        call(tl_einops, m)
    first_line = str(expected.value).splitlines()[0]
    assert str(got.value).splitlines()[0] == first_line


@st.composite
def split_merge_case(draw: st.DrawFn) -> tuple:
    """A random 'split some axes, permute, merge some' rearrange, with a reduction or a repeat."""
    names = ["a", "b", "c", "d"][: draw(st.integers(1, 4))]
    sizes = {n: draw(st.integers(1, 3)) for n in names}
    split = draw(st.lists(st.sampled_from(names), max_size=len(names), unique=True))
    # left: consecutive names, some pairs bracketed as one input dim
    left_groups, i = [], 0
    while i < len(names):
        if i + 1 < len(names) and names[i] in split:
            left_groups.append(f"({names[i]} {names[i + 1]})")
            i += 2
        else:
            left_groups.append(names[i])
            i += 1
    order = draw(st.permutations(names))
    right_groups, i = [], 0
    while i < len(order):
        if i + 1 < len(order) and draw(st.booleans()):
            right_groups.append(f"({order[i]} {order[i + 1]})")
            i += 2
        else:
            right_groups.append(order[i])
            i += 1
    shape = []
    for g in left_groups:
        parts = g.strip("()").split()
        shape.append(int(np.prod([sizes[p] for p in parts])))
    x = np.random.default_rng(draw(st.integers(0, 1000))).standard_normal(shape)
    known = {names[0]: sizes[names[0]]}
    for g in left_groups:  # in each bracket one size must be given
        if g.startswith("("):
            first = g.strip("()").split()[0]
            known[first] = sizes[first]
    return x, " ".join(left_groups), " ".join(right_groups), known, order, min(sizes.values())


@given(case=split_merge_case(), reduction=st.sampled_from(["sum", "mean", "max", "min", "prod"]), drop=st.integers(0, 3))
def test_random_patterns_match_einops(case: tuple, reduction: str, drop: int) -> None:
    x, left, right, known, order, smallest = case
    check_op(lambda lib, t: ops(lib).rearrange(t, f"{left} -> {right}", **known), x)
    kept = " ".join(order[drop:]) if drop < len(order) else ""
    check_op(lambda lib, t: ops(lib).reduce(t, f"{left} -> {kept}", reduction, **known), x)
    if smallest > 1:  # einops' own op sequence decides the (meaningless) strides of size-1 dims
        check_op(lambda lib, t: ops(lib).repeat(t, f"{left} -> {right} new", new=2, **known), x)


def test_pattern_without_arrow_is_a_value_error() -> None:
    check_op(lambda lib, x: ops(lib).rearrange(x, "b h w c"), IMAGES)
