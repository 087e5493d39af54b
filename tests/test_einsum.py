"""einsum against torch: the seed's forms, random equations, gradients and errors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.oracle import check_op

rng = np.random.default_rng(0)


def randn(*shape: int) -> np.ndarray:
    return rng.standard_normal(shape).astype(np.float32)


SEED_CASES = {
    "trace": ("ii", [randn(4, 4)]),
    "diagonal": ("ii->i", [randn(4, 4)]),
    "outer product": ("i,j->ij", [randn(5), randn(4)]),
    "batch matmul": ("bij,bjk->bik", [randn(3, 2, 5), randn(3, 5, 4)]),
    "batch permute": ("...ij->...ji", [randn(2, 3, 4, 5)]),
    "bilinear": ("bn,anm,bm->ba", [randn(2, 5), randn(3, 5, 4), randn(2, 4)]),
    "spaces": ("b i j , b j k -> b i k", [randn(3, 2, 5), randn(3, 5, 4)]),
    "implicit matmul": ("ij,jk", [randn(2, 3), randn(3, 4)]),
    "implicit sorted output": ("ba", [randn(2, 3)]),
    "uppercase before lowercase": ("bA,Ab", [randn(2, 3), randn(3, 2)]),
    "sum all": ("ij->", [randn(2, 3)]),
    "ellipsis broadcast": ("...ij,...jk", [randn(2, 1, 2, 3), randn(5, 3, 4)]),
    "ellipsis to nothing": ("ij->...", [randn(2, 3)]),
    "dot": ("i,i", [randn(3), randn(3)]),
    "size-1 broadcast label": ("ij,kj->ik", [randn(2, 3), randn(4, 1)]),
    "three-way repeated": ("iii->i", [randn(3, 3, 3)]),
    "batch diag": ("bii->bi", [randn(2, 3, 3)]),
    "hadamard kept": ("ij,ij->ij", [randn(2, 3), randn(2, 3)]),
    "label in first and third": ("ij,jk,il->kl", [randn(2, 3), randn(3, 4), randn(2, 5)]),
    "explicit trace": ("ii->", [randn(4, 4)]),
    "trace of a product": ("ij,ji->", [randn(3, 4), randn(4, 3)]),
    "diagonal kept in another operand": ("ii,i->i", [randn(3, 3), randn(3)]),
    "repeated label in two operands": ("iij,jj->ij", [randn(2, 2, 3), randn(3, 3)]),
    "diagonal under an ellipsis": ("...ii->...i", [randn(2, 3, 4, 4)]),
    "trace under an ellipsis, implicit": ("...ii", [randn(2, 4, 4)]),
    "ellipsis in the middle": ("i...j->j...i", [randn(2, 3, 4, 5)]),
    "ellipsis moved to the end": ("...ij->ij...", [randn(2, 3, 4)]),
    "ellipsis reduced away": ("...ij->ij", [randn(2, 3, 4)]),
    "ellipsis of no dims": ("...ij,jk->...ik", [randn(2, 3), randn(3, 4)]),
    "ellipsis size-1 broadcast": ("...i,...i->...", [randn(4, 1, 3), randn(5, 3)]),
    "spaces everywhere, implicit": (" i j , j k ", [randn(2, 3), randn(3, 4)]),
    "spaces around ellipsis": ("... i j -> ... j i", [randn(2, 3, 4)]),
    "scalar operand": (",ij->ij", [np.array(2.5, dtype=np.float32), randn(2, 3)]),
}


@pytest.mark.parametrize("name", SEED_CASES)
def test_einsum_forms_match_torch(name: str) -> None:
    equation, operands = SEED_CASES[name]
    check_op(lambda lib, *ops: lib.einsum(equation, *ops), *operands)


def test_sublist_form_with_ellipsis() -> None:
    a, b = randn(3, 2, 5), randn(3, 5, 4)
    check_op(lambda lib, x, y: lib.einsum(x, [..., 0, 1], y, [..., 1, 2], [..., 0, 2]), a, b)
    check_op(lambda lib, x, y: lib.einsum(x, [0, 27], y, [2, 27]), randn(2, 3), randn(4, 3))


SUBLIST_CASES = {
    "trace": lambda lib, x: lib.einsum(x, [0, 0]),
    "diagonal": lambda lib, x: lib.einsum(x, [0, 0], [0]),
    "implicit output of two": lambda lib, x: lib.einsum(x, [1, 0], x, [0, 2]),
    "ellipsis, implicit output": lambda lib, x: lib.einsum(x, [..., 0, 1]),
    "ellipsis to a sum": lambda lib, x: lib.einsum(x, [..., 0], []),
    "both cases of letters": lambda lib, x: lib.einsum(x, [51, 25], x, [25, 51], [51]),
}


@pytest.mark.parametrize("name", SUBLIST_CASES)
def test_sublist_forms(name: str) -> None:
    check_op(SUBLIST_CASES[name], randn(3, 3))


def test_sublist_subscript_out_of_range_is_a_value_error() -> None:
    for bad in (52, -1):
        check_op(lambda lib, x, b=bad: lib.einsum(x, [0, b]), randn(2, 3), match="[0, 52)")


def test_sublist_size_mismatch() -> None:
    check_op(lambda lib, x, y: lib.einsum(x, [0, 1], y, [1, 2]), randn(3, 3), randn(4, 2), match="subscript B has size 4")


def test_operands_as_a_list_and_integers() -> None:
    check_op(lambda lib, x, y: lib.einsum("ij,jk", [x, y]), randn(2, 3), randn(3, 4))
    check_op(lambda lib, x, y: lib.einsum("i,i", x, y), np.arange(3), np.arange(3))
    check_op(lambda lib, x: lib.einsum("ij->j", x), np.arange(6).reshape(2, 3))


ERRORS = {
    "size mismatch": ("ij,jk", [randn(2, 3), randn(4, 3)], "subscript j has size 4 for operand 1"),
    "repeated sizes differ": ("ii", [randn(3, 4)], "subscript i is repeated for operand 0"),
    "too many dims": ("ij", [randn(2, 3, 4)], "does not match the number of dimensions (3)"),
    "too many subscripts": ("ijk...", [randn(2, 3)], "is more than the number of dimensions (2)"),
    "fewer operands": ("ij,jk", [randn(2, 3)], "fewer operands"),
    "more operands": ("ij", [randn(2, 3), randn(2, 3)], "more operands"),
    "unknown output": ("ij->k", [randn(2, 3)], "output subscript k does not appear"),
    "repeated output": ("ij->ii", [randn(2, 3)], "appears more than once in the output"),
    "bad character": ("i$", [randn(2, 3)], "invalid subscript given at index 1"),
    "lonely dot": ("i.j", [randn(2, 3)], "not part of any ellipsis"),
    "ellipsis mismatch": ("...ij,...jk", [randn(2, 2, 2, 3), randn(5, 3, 4)], "covered by ellipsis"),
    "repeated label across operands": ("ii,i->i", [randn(3, 3), randn(4)], "subscript i has size 4 for operand 1"),
    "explicit output size mismatch": ("ij,jk->ik", [randn(2, 3), randn(2, 4)], "subscript j has size 2 for operand 1"),
    "two ellipses": ("...i...", [randn(2, 3)], "for which an ellipsis was already found"),
    "bad character, index counts spaces": ("i j,j k->i$", [randn(2, 3), randn(3, 4)], "given at index 10"),
    "lonely dot in the output": ("ij->i.", [randn(2, 3)], "for output that is not part of any ellipsis (...)"),
    "two ellipses in the output": ("...i->...i...", [randn(2, 3)], "for output but an ellipsis (...) was already found"),

}


@pytest.mark.parametrize("name", ERRORS)
def test_einsum_errors(name: str) -> None:
    equation, operands, message = ERRORS[name]
    check_op(lambda lib, *ops: lib.einsum(equation, *ops), *operands, match=message)


@st.composite
def contraction(draw: st.DrawFn) -> tuple:
    """A random 1-3 operand equation over letters a-e with random sizes, explicit or implicit output."""
    letters = "abcde"
    sizes = {c: draw(st.integers(1, 3)) for c in letters}
    n_ops = draw(st.integers(1, 3))
    terms = []
    for _ in range(n_ops):
        term = draw(st.lists(st.sampled_from(letters), min_size=0, max_size=3))
        terms.append("".join(term))
    used = sorted(set("".join(terms)))
    explicit = draw(st.booleans())
    output = "".join(draw(st.permutations(used))[: draw(st.integers(0, len(used)))]) if explicit else None
    equation = ",".join(terms) + (f"->{output}" if output is not None else "")
    seed = draw(st.integers(0, 2**16))
    r = np.random.default_rng(seed)
    dt = draw(st.sampled_from([np.float32, np.float64]))
    operands = [r.standard_normal(tuple(sizes[c] for c in t)).astype(dt) for t in terms]
    return equation, operands


@given(case=contraction())
def test_random_einsum_matches_torch(case: tuple) -> None:
    equation, operands = case
    check_op(lambda lib, *ops: lib.einsum(equation, *ops), *operands, rtol=1e-4, atol=1e-4)
