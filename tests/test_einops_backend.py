"""The einops package itself on tensorlab tensors (tensorlab/einops_backend.py), against einops on torch.

Every case calls the *same* einops function on a torch tensor and on a tensorlab tensor, so
``check_op`` compares values, view strides, gradients and exception classes of the two backends.
"""

from __future__ import annotations

import subprocess
import sys

import einops
import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

import tensorlab as tl
from tensorlab import einops as tl_einops
from tests.oracle import check_op, pair
from tests.test_einops import ERRORS as EINOPS_ERRORS
from tests.test_einops import IMAGES, SEED_REARRANGE, split_merge_case

rng = np.random.default_rng(0)
REARRANGE = SEED_REARRANGE  # the same patterns, now through the einops package itself


@pytest.mark.parametrize("name", REARRANGE)
def test_rearrange_matches_torch(name: str) -> None:
    pattern, sizes = REARRANGE[name]
    check_op(lambda lib, x: einops.rearrange(x, pattern, **sizes), IMAGES)


@pytest.mark.parametrize("name", REARRANGE)
def test_both_routes_agree(name: str) -> None:
    """einops.rearrange on the backend and tensorlab's own tensorlab.einops.rearrange give one result."""
    pattern, sizes = REARRANGE[name]
    x = tl.tensor(IMAGES)
    via_einops, via_tensorlab = einops.rearrange(x, pattern, **sizes), tl_einops.rearrange(x, pattern, **sizes)
    np.testing.assert_array_equal(via_einops.numpy(), via_tensorlab.numpy())
    assert via_einops.shape == via_tensorlab.shape


def test_list_of_tensors_is_stacked() -> None:
    arrays = [rng.standard_normal((3, 4)).astype(np.float32) for _ in range(5)]
    check_op(lambda lib, *xs: einops.rearrange(list(xs), "b h w -> h (b w)"), *arrays)


REPEAT = {
    "new axis": ("h w -> h w c", {"c": 3}),
    "tile along an axis": ("h w -> (r h) w", {"r": 2}),
    "repeat each element": ("h w -> h (w r)", {"r": 2}),
    "anonymous sizes": ("h w -> (2 h) 3 w", {}),
    "with ellipsis": ("... w -> ... w b", {"b": 2}),
    "permute and repeat": ("h w -> w b h", {"b": 2}),
}


@pytest.mark.parametrize("name", REPEAT)
def test_repeat_matches_torch(name: str) -> None:
    pattern, sizes = REPEAT[name]
    check_op(lambda lib, x: einops.repeat(x, pattern, **sizes), rng.standard_normal((2, 3)))


REDUCE_PATTERNS = [
    ("b c h w -> b c", {}),
    ("b c (h h2) (w w2) -> b c h w", {"h2": 2, "w2": 3}),
    ("b c h w -> c", {}),
    ("b ... w -> b w", {}),
    ("b c h w -> b () c ()", {}),
    ("b c h w -> ", {}),
]


@pytest.mark.parametrize("reduction", ["sum", "mean", "max", "min", "prod"])
@pytest.mark.parametrize("case", range(len(REDUCE_PATTERNS)))
def test_reduce_matches_torch(reduction: str, case: int) -> None:
    pattern, sizes = REDUCE_PATTERNS[case]
    check_op(lambda lib, x: einops.reduce(x, pattern, reduction, **sizes), rng.standard_normal((2, 3, 4, 6)))


@pytest.mark.parametrize("reduction", ["any", "all", "sum", "max"])
def test_reduce_integer_and_bool_tensors(reduction: str) -> None:
    integers = rng.integers(0, 3, (2, 3, 4))
    check_op(lambda lib, x: einops.reduce(x, "a b c -> b", reduction), integers)
    check_op(lambda lib, x: einops.reduce(x, "a b c -> a", reduction), integers > 0)


def test_mean_of_integers_is_refused_like_torch() -> None:
    check_op(lambda lib, x: einops.reduce(x, "a b -> a", "mean"), np.arange(6).reshape(2, 3))


def test_reduce_with_a_callable() -> None:
    check_op(lambda lib, x: einops.reduce(x, "a b c -> a", lambda v, dims: v.sum(dims)), rng.standard_normal((2, 3, 4)))


@given(case=split_merge_case(), reduction=st.sampled_from(["sum", "mean", "max", "min", "prod"]), drop=st.integers(0, 3))
def test_random_patterns_match_torch(case: tuple, reduction: str, drop: int) -> None:
    x, left, right, known, order, smallest = case
    check_op(lambda lib, t: einops.rearrange(t, f"{left} -> {right}", **known), x)
    kept = " ".join(order[drop:]) if drop < len(order) else ""
    check_op(lambda lib, t: einops.reduce(t, f"{left} -> {kept}", reduction, **known), x)
    if smallest > 1:  # einops' own op sequence decides the (meaningless) strides of size-1 dims
        check_op(lambda lib, t: einops.repeat(t, f"{left} -> {right} new", new=2, **known), x)


EINSUM = {
    "batch matmul": ("b i j, b j k -> b i k", [(3, 2, 5), (3, 5, 4)]),
    "bilinear": ("b n, a n m, b m -> b a", [(2, 5), (3, 5, 4), (2, 4)]),
    "trace": ("i i ->", [(4, 4)]),
    "ellipsis": ("... i j -> ... j i", [(2, 3, 4, 5)]),
    "long names": ("batch dim, dim -> batch", [(3, 4), (4,)]),
}


@pytest.mark.parametrize("name", EINSUM)
def test_einsum_matches_torch(name: str) -> None:
    pattern, shapes = EINSUM[name]
    arrays = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    check_op(lambda lib, *xs: einops.einsum(*xs, pattern), *arrays, rtol=1e-5, atol=1e-5)


def test_pack_and_unpack_match_torch() -> None:
    def round_trip(lib, a, b):
        packed, shapes = einops.pack([a, b], "h * c")
        first, second = einops.unpack(packed * 2, shapes, "h * c")
        return packed, first, second

    check_op(round_trip, rng.standard_normal((2, 3, 4)), rng.standard_normal((2, 4)))


def test_parse_shape_and_asnumpy() -> None:
    t, m = pair(IMAGES, requires_grad=True)
    assert einops.parse_shape(m, "b _ w c") == einops.parse_shape(t, "b _ w c")
    np.testing.assert_array_equal(einops.asnumpy(m), einops.asnumpy(t))


ERRORS = {name: EINOPS_ERRORS[name] for name in (
    "axis only on one side",
    "wrong number of dims",
    "not divisible",
    "size mismatch",
    "two unknowns in a group",
    "duplicate axis",
    "unknown reduction",
    "repeat needs a size",
    "ellipsis only on the right",
)}


@pytest.mark.parametrize("name", ERRORS)
def test_errors_are_einops_errors(name: str) -> None:
    operation, pattern, sizes = ERRORS[name]

    def call(lib, x):
        if operation == "rearrange":
            return einops.rearrange(x, pattern, **sizes)
        if operation == "repeat":
            return einops.repeat(x, pattern, **sizes)
        return einops.reduce(x, pattern, operation, **sizes)

    t, m = pair(IMAGES)
    with pytest.raises(einops.EinopsError) as expected:
        call(torch, t)
    with pytest.raises(einops.EinopsError) as got:
        call(tl, m)
    assert str(got.value) == str(expected.value).replace("torch.Size", "tensorlab.Size")


def test_backend_is_found_for_tensorlab_tensors() -> None:
    from einops._backends import get_backend

    from tensorlab.einops_backend import TensorlabBackend

    assert tl_einops.register_einops_backend() is True  # a second call changes nothing
    assert isinstance(get_backend(tl.ones(2)), TensorlabBackend)
    assert not isinstance(get_backend(torch.ones(2)), TensorlabBackend)
    assert not isinstance(get_backend(np.ones(2)), TensorlabBackend)


def _run_python(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()


def test_import_tensorlab_does_not_import_einops() -> None:
    assert _run_python("import sys, tensorlab; tensorlab.ones(2).sum(); print('einops' in sys.modules)") == "False"


@pytest.mark.parametrize("order", ["einops first", "tensorlab.einops first"])
def test_import_tensorlab_einops_enables_the_backend(order: str) -> None:
    imports = "import einops; import tensorlab.einops" if order == "einops first" else "import tensorlab.einops; import einops"
    code = f"import tensorlab as tl; {imports}; print(tuple(einops.rearrange(tl.ones(2, 3), 'a b -> b a').shape))"
    assert _run_python(code) == "(3, 2)"


def test_without_tensorlab_einops_einops_does_not_know_tensorlab() -> None:
    """einops only knows backends that were defined; the lazy module is the switch."""
    code = (
        "import einops, tensorlab as tl\n"
        "try:\n    einops.rearrange(tl.ones(2, 3), 'a b -> b a')\n"
        "except RuntimeError as error:\n    print('unknown' in str(error))\n"
    )
    assert _run_python(code) == "True"
