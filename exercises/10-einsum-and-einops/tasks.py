"""Unit 10, einsum and einops: an einsum's result shape, a mini-einsum, the notes' bilinear spec
rewritten with matmul and sum, and a small rearrange.

Each task's clauses test one sentence of the statement in ``exercises/10-einsum-and-einops``
(the implicit output's order, a repeated letter's diagonal, a size-1 letter that broadcasts,
``...`` covering several, one or no dims, a split's order inside its brackets...); the random
specs mix one to three operands, repeated letters, ``...``, implicit and explicit outputs,
size-0 and size-1 dims, several dtypes and non-contiguous inputs.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tensorlab.grading.compare import Tolerance
from tensorlab.grading.random_cases import normal
from tensorlab.grading.tasks import Clause, Exercise, Task

__all__ = ["EXERCISE", "ATTENTION_SCORES", "BILINEAR_BY_MATMUL", "EINSUM_SHAPE", "MINI_EINSUM", "MINI_REARRANGE", "random_spec"]

# Every library call that contracts operands for you: the exercise is to build that yourself.
EINSUM_LIKE = (
    "numpy.einsum", "numpy.einsum_path", "numpy.tensordot", "numpy.linalg.multi_dot",
    "torch.einsum", "tensorlab.einsum", "torch.nn.functional.bilinear", "tensorlab.nn.functional.bilinear",
)
PRODUCTS = ("numpy.matmul", "numpy.dot", "numpy.vdot", "numpy.inner", "numpy.outer", "numpy.kron", "numpy.trace",
            "numpy.vecdot", "numpy.matvec", "numpy.vecmat", "numpy.linalg.vecdot", "numpy.linalg.matmul")
FLOAT32_SUMS = Tolerance(rtol=1e-5, atol=1e-6)  # float32 sums in another order differ in the last bits
ARRAY_RESULT = Tolerance(rtol=1e-5, atol=1e-6, scalar_for_0d=False)  # "return an array (a 0-d one ...)": a NumPy scalar is not
LETTERS = "ijkbnmAB"  # the letters random specs draw from (capitals too: they sort before lowercase)


# --- references ---------------------------------------------------------------------------------
def einsum_shape_reference(equation: str, shapes: list[tuple[int, ...]]) -> tuple[int, ...]:
    """The result shape, from the shapes alone: einsum's own parsing step (no arrays are made)."""
    from tensorlab.ops.einsum import parse_equation

    _, output, sizes = parse_equation(equation, [tuple(shape) for shape in shapes])
    return tuple(sizes[label] for label in output)


def mini_einsum_reference(equation: str, *operands: np.ndarray) -> np.ndarray:
    import tensorlab

    return np.array(tensorlab.einsum(equation, *[tensorlab.tensor(x) for x in operands]).numpy())


def bilinear_reference(l: np.ndarray, A: np.ndarray, r: np.ndarray) -> np.ndarray:  # noqa: E741, N803 - the notes' names
    import tensorlab

    return tensorlab.einsum("bn,anm,bm->ba", tensorlab.from_numpy(l), tensorlab.from_numpy(A), tensorlab.from_numpy(r)).numpy()


def attention_reference(q: np.ndarray, k: np.ndarray) -> np.ndarray:
    import tensorlab

    return tensorlab.einsum("bhid,bhjd->bhij", tensorlab.from_numpy(q), tensorlab.from_numpy(k)).numpy()


def rearrange_reference(x: np.ndarray, pattern: str, sizes: dict[str, int]) -> np.ndarray:
    import tensorlab
    import tensorlab.einops

    return np.array(tensorlab.einops.rearrange(tensorlab.tensor(x), pattern, **sizes).numpy())


# --- random specs ---------------------------------------------------------------------------------
def random_spec(rng: np.random.Generator, clashes: bool) -> tuple[str, list[tuple[int, ...]]]:
    """An equation and one shape per operand: 1-3 operands, shared and repeated letters, ``...`` one
    time in three, implicit output one time in three, size-1 dims that broadcast, size-0 dims.

    With ``clashes``, one spec in five has a size that does not fit (or an output letter no input has).
    """
    letters = list(rng.choice(list(LETTERS), size=int(rng.integers(1, 5)), replace=False))
    sizes = {letter: int(rng.integers(1, 5)) for letter in letters}
    if rng.random() < 0.1:
        sizes[letters[int(rng.integers(0, len(letters)))]] = 0
    ellipsis = rng.random() < 1 / 3
    block = tuple(int(size) for size in rng.integers(1, 4, size=int(rng.integers(0, 3))))
    terms, shapes = [], []
    for _ in range(int(rng.integers(1, 4))):
        term = [str(letter) for letter in rng.choice(letters, size=int(rng.integers(0, 4)))]  # repeats happen
        shape = [sizes[letter] for letter in term]
        for d, letter in enumerate(term):
            if term.count(letter) == 1 and rng.random() < 0.15:
                shape[d] = 1  # broadcasts against the letter's size elsewhere
        text = "".join(term)
        if ellipsis:
            own = block[int(rng.integers(0, len(block) + 1)):]
            own = tuple(1 if rng.random() < 0.25 else size for size in own)
            at = int(rng.integers(0, len(term) + 1))
            text, shape = text[:at] + "..." + text[at:], shape[:at] + list(own) + shape[at:]
        terms.append(text)
        shapes.append(tuple(shape))
    used = sorted({char for term in terms for char in term if char.isalpha()})
    equation = ",".join(terms)
    if rng.random() >= 1 / 3:
        kept = [str(letter) for letter in rng.permutation(used)][: int(rng.integers(0, len(used) + 1))]
        if ellipsis and rng.random() < 0.7:
            kept.insert(int(rng.integers(0, len(kept) + 1)), "...")
        equation += "->" + "".join(kept)
    if clashes and rng.random() < 0.2:
        equation, shapes = _clash(rng, equation, shapes)
    return equation, shapes


def _clash(rng: np.random.Generator, equation: str, shapes: list[tuple[int, ...]]) -> tuple[str, list[tuple[int, ...]]]:
    """Break a spec: one dim gets a size no other use of its letter has, or the output names a new letter."""
    nonempty = [k for k, shape in enumerate(shapes) if shape]
    if not nonempty or rng.random() < 0.2:
        lhs, _, output = equation.partition("->")
        return f"{lhs}->{output}z", shapes
    k = int(rng.choice(nonempty))
    shape = list(shapes[k])
    d = int(rng.integers(0, len(shape)))
    shape[d] = int(rng.integers(5, 8))  # no size of a random spec is 5 or more
    return equation, [*shapes[:k], tuple(shape), *shapes[k + 1:]]


def maybe_strided(rng: np.random.Generator, array: np.ndarray) -> np.ndarray:
    """One time in four, the same values as a non-contiguous view (a transpose, or every other column)."""
    if array.ndim == 0 or rng.random() >= 0.25:
        return array
    if array.ndim >= 2 and rng.random() < 0.5:
        return np.ascontiguousarray(array.T).T
    return np.repeat(array, 2, axis=-1)[..., ::2]


def random_values(rng: np.random.Generator, shape: tuple[int, ...], dtype: Any) -> np.ndarray:
    if np.dtype(dtype).kind == "i":
        return rng.integers(-5, 6, size=shape).astype(dtype)
    return normal(rng, shape).astype(dtype)


DTYPES = (np.float64, np.float64, np.float32, np.int64)


def random_shape_case(rng: np.random.Generator) -> tuple[str, list[tuple[int, ...]]]:
    return random_spec(rng, clashes=True)


def random_einsum_case(rng: np.random.Generator) -> tuple[Any, ...]:
    equation, shapes = random_spec(rng, clashes=False)
    dtype = DTYPES[int(rng.integers(0, len(DTYPES)))]
    return (equation, *[maybe_strided(rng, random_values(rng, shape, dtype)) for shape in shapes])


def random_bilinear_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """l (B, N), A (O, N, M), r (B, M): sizes 1-4, one in eight 0; float64 or float32."""
    b, o, n, m = (int(size) for size in rng.integers(1, 5, size=4))
    if rng.random() < 0.125:
        b, o, n, m = [0 if i == int(rng.integers(0, 4)) else size for i, size in enumerate((b, o, n, m))]
    dtype = np.float32 if rng.random() < 0.25 else np.float64
    return (maybe_strided(rng, random_values(rng, (b, n), dtype)), maybe_strided(rng, random_values(rng, (o, n, m), dtype)),
            maybe_strided(rng, random_values(rng, (b, m), dtype)))


def large_bilinear_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A loop over the batch runs 1000 times (over (b, a, n, m) 128 000); two matmuls and a sum, once."""
    return normal(rng, (1000, 4)), normal(rng, (4, 4, 8)), normal(rng, (1000, 8))


def random_attention_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """q (B, H, I, D) and k (B, H, J, D): sizes 1-4, one in eight 0; I and J usually differ; float64 or float32."""
    b, h, i, j, d = (int(size) for size in rng.integers(1, 5, size=5))
    if rng.random() < 0.125:
        b, h, i, j, d = [0 if n == int(rng.integers(0, 5)) else size for n, size in enumerate((b, h, i, j, d))]
    dtype = np.float32 if rng.random() < 0.25 else np.float64
    return maybe_strided(rng, random_values(rng, (b, h, i, d), dtype)), maybe_strided(rng, random_values(rng, (b, h, j, d), dtype))


def large_attention_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A loop over (b, h, i, j) runs 16 000 dot products; one batched matmul runs once."""
    return normal(rng, (2, 2, 64, 4)), normal(rng, (2, 2, 64, 4))


def random_rearrange_case(rng: np.random.Generator) -> tuple[np.ndarray, str, dict[str, int]]:
    """Elementary axes grouped on the left, permuted and regrouped on the right; sizes for all but one
    name of each left group. One case in six does not fit (a size that does not divide, a wrong ndim)."""
    names = [str(name) for name in rng.choice(list("bchwxyz"), size=int(rng.integers(1, 6)), replace=False)]
    sizes = {name: int(rng.integers(1, 4)) for name in names}
    left = _random_groups(rng, names)
    right = _random_groups(rng, [str(name) for name in rng.permutation(names)])
    given: dict[str, int] = {}
    for group in left:
        if len(group) > 1:
            free = group[int(rng.integers(0, len(group)))]
            given.update({name: sizes[name] for name in group if name != free or rng.random() < 0.2})
        elif rng.random() < 0.1:
            given[group[0]] = sizes[group[0]]
    shape = [int(np.prod([sizes[name] for name in group])) for group in left]
    if rng.random() < 1 / 6:
        composite = [d for d, group in enumerate(left) if len(group) > 1]
        if composite and rng.random() < 0.7:
            shape[int(rng.choice(composite))] += 1
        else:
            shape.append(2)
    dtype = DTYPES[int(rng.integers(0, len(DTYPES)))]
    pattern = f"{_side(left)} -> {_side(right)}"
    return maybe_strided(rng, random_values(rng, tuple(shape), dtype)), pattern, given


def _random_groups(rng: np.random.Generator, names: list[str]) -> list[list[str]]:
    """Cut ``names`` (in order) into groups of 1-3 adjacent names."""
    groups: list[list[str]] = []
    start = 0
    while start < len(names):
        size = int(rng.choice([1, 1, 2, 3]))
        groups.append(names[start:start + size])
        start += size
    return groups


def _side(groups: list[list[str]]) -> str:
    return " ".join(group[0] if len(group) == 1 else f"({' '.join(group)})" for group in groups)


# --- fixed cases -----------------------------------------------------------------------------------
SHAPE_EXAMPLES = [
    ("bij,bjk->bik", [(3, 2, 5), (3, 5, 4)]),
    ("ii", [(4, 4)]),
    ("i,j->ij", [(5,), (4,)]),
    ("bn,anm,bm->ba", [(2, 5), (3, 5, 4), (2, 4)]),
]
OUTPUT_ORDER = "With '->', the result's dims are the output letters, in the output's order."
IMPLICIT = ("Without '->', the output is every letter that appears exactly once, in alphabetical order "
            "(capitals before lowercase), after the dims of '...'.")
DIAGONAL = "A letter repeated within one operand walks its diagonal: its sizes there must be equal, else RuntimeError."
BROADCAST = ("A letter shared by several operands has one size: its sizes must be equal, or 1 (a size-1 dim "
             "broadcasts), else RuntimeError.")
ELLIPSIS = ("'...' stands for the dims no letter names (possibly none); the '...' dims of all operands "
            "broadcast like the dims of +, aligned on the right.")
ELLIPSIS_SUMMED = "An explicit output without '...' sums the '...' dims away."
UNKNOWN_OUTPUT = "An output letter that appears in no operand: raise RuntimeError."
ZERO_SIZE = "A size-0 dim is a size like any other (the sum over it is empty)."
HUGE = "Work from the shapes alone: they may be far too large to allocate."

SHAPE_CLAUSES = [
    Clause(OUTPUT_ORDER, ("ij->ji", [(2, 3)])),
    Clause(OUTPUT_ORDER, ("ijk->kij", [(2, 3, 4)])),
    Clause(IMPLICIT, ("ji", [(2, 3)])),
    Clause(IMPLICIT, ("ib,Ab", [(2, 3), (5, 3)])),
    Clause(IMPLICIT, ("i...,ij", [(2, 3, 4), (2, 5)])),
    Clause(IMPLICIT, ("bB", [(2, 3)])),  # a case-blind sort puts b first (or B, by the luck of a set's order)...
    Clause(IMPLICIT, ("b,B", [(2,), (3,)])),
    Clause(IMPLICIT, ("aAbB", [(2, 3, 4, 5)])),  # ...but here it interleaves the cases whatever the order of ties
    Clause(DIAGONAL, ("iij->ji", [(3, 3, 2)])),
    Clause(DIAGONAL, ("ii->i", [(3, 4)])),
    Clause(DIAGONAL, ("ii->i", [(1, 3)])),  # within one operand a size 1 does not broadcast
    Clause(BROADCAST, ("i,i->i", [(1,), (3,)])),
    Clause(BROADCAST, ("ij,jk", [(2, 3), (1, 4)])),
    Clause(BROADCAST, ("i,i", [(2,), (3,)])),
    Clause(ELLIPSIS, ("...ij,...jk", [(5, 1, 2, 3), (4, 3, 2)])),
    Clause(ELLIPSIS, ("...,...", [(2, 1), (3,)])),
    Clause(ELLIPSIS, ("...i,...i->...", [(2, 3), (4, 3)])),
    Clause(ELLIPSIS, ("...ij->...ji", [(2, 3)])),
    Clause(ELLIPSIS_SUMMED, ("...ij->ij", [(5, 2, 3)])),
    Clause(UNKNOWN_OUTPUT, ("ij->ik", [(2, 3)])),
    Clause(ZERO_SIZE, ("ij,jk->ik", [(2, 0), (0, 3)])),
    Clause(ZERO_SIZE, ("i,i->i", [(0,), (1,)])),
    Clause(HUGE, ("ij,jk->ik", [(1_000_000, 1_000_000), (1_000_000, 3)])),
]

EINSUM_EXAMPLES = [
    ("bij,bjk->bik", normal(np.random.default_rng(1), (3, 2, 5)), normal(np.random.default_rng(2), (3, 5, 4))),
    ("ii", np.arange(16.0).reshape(4, 4)),
    ("i,j->ij", np.arange(1.0, 6.0), np.array([1.0, -1.0, 0.5, 2.0])),
    ("bn,anm,bm->ba", normal(np.random.default_rng(3), (2, 5)), normal(np.random.default_rng(4), (3, 5, 4)),
     normal(np.random.default_rng(5), (2, 4))),
]
SQUARE = np.arange(9.0).reshape(3, 3)
EINSUM_DTYPE = "All operands have the same dtype, and so does the result (int64 in, int64 out)."
ANY_STRIDES = "Operands may be non-contiguous views (a transpose, every other column)."
SUMMED = "A letter missing from the output is summed over."

EINSUM_CLAUSES = [
    Clause(OUTPUT_ORDER, ("ij->ji", np.arange(6.0).reshape(2, 3))),
    Clause(SUMMED, ("ij->i", np.arange(6.0).reshape(2, 3))),
    Clause(SUMMED, ("ij->", np.arange(6.0).reshape(2, 3))),
    Clause(IMPLICIT, ("ji", np.arange(6.0).reshape(2, 3))),
    Clause(IMPLICIT, ("i,i", np.array([1.0, 2.0, 3.0]), np.array([4.0, -5.0, 6.0]))),
    Clause(IMPLICIT, ("ib,Ab", np.arange(6.0).reshape(2, 3), np.arange(15.0).reshape(5, 3))),
    Clause(IMPLICIT, ("i...,ij", np.arange(24.0).reshape(2, 3, 4), np.arange(10.0).reshape(2, 5))),
    Clause(DIAGONAL, ("ii->i", SQUARE)),
    Clause(DIAGONAL, ("iij->ji", np.arange(18.0).reshape(3, 3, 2))),
    Clause(DIAGONAL, ("ii,jj->ij", SQUARE, SQUARE + 1)),
    Clause(DIAGONAL, ("iji->ij", np.arange(12.0).reshape(2, 3, 2))),
    Clause(BROADCAST, ("i,i->i", np.array([2.0]), np.array([1.0, 2.0, 3.0]))),
    Clause(BROADCAST, ("ij,jk", np.arange(6.0).reshape(2, 3), np.arange(4.0).reshape(1, 4))),
    Clause(ELLIPSIS, ("...ij,...jk", normal(np.random.default_rng(6), (2, 1, 2, 3)), normal(np.random.default_rng(7), (4, 3, 2)))),
    Clause(ELLIPSIS, ("...,...", np.arange(2.0).reshape(2, 1), np.arange(3.0))),
    Clause(ELLIPSIS, ("...ij->...ji", np.arange(6.0).reshape(2, 3))),
    Clause(ELLIPSIS_SUMMED, ("...ij->ij", np.arange(30.0).reshape(5, 2, 3))),
    Clause(ZERO_SIZE, ("ij,jk->ik", np.zeros((2, 0)), np.zeros((0, 3)))),
    Clause(ZERO_SIZE, ("ij->j", np.zeros((0, 3)))),
    Clause(EINSUM_DTYPE, ("ij,jk->ik", np.arange(6).reshape(2, 3), np.arange(12).reshape(3, 4))),
    Clause(EINSUM_DTYPE, ("i,i->", np.array([1.5, 2.0], dtype=np.float32), np.array([2.0, 4.0], dtype=np.float32))),
    Clause(EINSUM_DTYPE, ("i,i->", np.array([2**40, 3]), np.array([2**20 + 1, 1]))),  # 2**60 + 2**40 + 3: not a float64
    Clause(ANY_STRIDES, ("ij,jk->ik", np.arange(12.0).reshape(4, 3).T, np.arange(16.0).reshape(4, 4)[:, ::2])),
]

BILINEAR_EXAMPLES = [
    (normal(np.random.default_rng(8), (2, 5)), normal(np.random.default_rng(9), (3, 5, 4)), normal(np.random.default_rng(10), (2, 4))),
    (np.array([[1.0, 0.0]]), np.arange(8.0).reshape(2, 2, 2), np.array([[0.0, 1.0]])),
]
BILINEAR_SHAPE = "l is (B, N), A is (O, N, M), r is (B, M); the result is (B, O): out[b, a] = l[b] @ A[a] @ r[b]."
BILINEAR_EMPTY = "Any of B, O, N, M may be 0 (a sum over nothing is 0)."
BILINEAR_DTYPE = "The result has the inputs' dtype (float32 in, float32 out)."
BILINEAR_CLAUSES = [
    Clause(BILINEAR_SHAPE, (np.arange(6.0).reshape(3, 2), np.arange(8.0).reshape(1, 2, 4), np.arange(12.0).reshape(3, 4))),
    Clause(BILINEAR_SHAPE, (np.arange(2.0).reshape(1, 2), np.arange(30.0).reshape(5, 2, 3), np.ones((1, 3)))),
    Clause(BILINEAR_SHAPE, (np.arange(8.0).reshape(4, 2), np.ones((3, 2, 2)) * np.arange(3.0)[:, None, None],
                            np.arange(8.0).reshape(4, 2) - 3)),
    Clause(BILINEAR_EMPTY, (np.zeros((2, 0)), np.zeros((3, 0, 4)), np.ones((2, 4)))),
    Clause(BILINEAR_EMPTY, (np.zeros((0, 2)), np.ones((3, 2, 4)), np.zeros((0, 4)))),
    Clause(BILINEAR_EMPTY, (np.ones((2, 2)), np.zeros((0, 2, 4)), np.ones((2, 4)))),
    Clause(BILINEAR_DTYPE, (np.ones((2, 3), dtype=np.float32), np.full((2, 3, 2), 0.5, dtype=np.float32),
                            np.ones((2, 2), dtype=np.float32))),
    Clause(ANY_STRIDES, (np.arange(6.0).reshape(3, 2).T, np.arange(18.0).reshape(2, 3, 3).transpose(0, 2, 1),
                         np.arange(12.0).reshape(2, 6)[:, ::2])),
]

ATTENTION_EXAMPLES = [
    (normal(np.random.default_rng(11), (2, 3, 4, 5)), normal(np.random.default_rng(12), (2, 3, 6, 5))),
    (np.arange(4.0).reshape(1, 1, 2, 2), np.eye(2).reshape(1, 1, 2, 2)),
]
ATTENTION_SHAPE = "q is (B, H, I, D), k is (B, H, J, D); the result is (B, H, I, J): out[b, h, i, j] = q[b, h, i] @ k[b, h, j]."
ATTENTION_EMPTY = "Any of B, H, I, J, D may be 0 (a sum over nothing is 0)."
ATTENTION_CLAUSES = [
    Clause(ATTENTION_SHAPE, (np.arange(24.0).reshape(1, 2, 3, 4), np.arange(40.0).reshape(1, 2, 5, 4) / 10)),
    Clause(ATTENTION_SHAPE, (np.arange(12.0).reshape(3, 1, 2, 2), np.arange(12.0).reshape(3, 1, 2, 2)[:, :, ::-1] - 5)),
    Clause(ATTENTION_SHAPE, (np.arange(6.0).reshape(1, 1, 2, 3), np.arange(9.0).reshape(1, 1, 3, 3))),
    Clause(ATTENTION_EMPTY, (np.ones((2, 1, 3, 0)), np.ones((2, 1, 4, 0)))),
    Clause(ATTENTION_EMPTY, (np.ones((2, 1, 0, 3)), np.ones((2, 1, 4, 3)))),
    Clause(BILINEAR_DTYPE, (np.full((1, 2, 2, 3), 0.5, dtype=np.float32), np.ones((1, 2, 4, 3), dtype=np.float32))),
    Clause(ANY_STRIDES, (np.arange(24.0).reshape(2, 1, 4, 3).transpose(0, 1, 3, 2)[:, :, :, :2],
                         np.arange(72.0).reshape(2, 1, 6, 6)[:, :, ::2, :2])),
]

REARRANGE_EXAMPLES = [
    (np.arange(24.0).reshape(2, 3, 4), "b h w -> b w h", {}),
    (np.arange(24.0).reshape(2, 3, 4), "b h w -> (b h) w", {}),
    (np.arange(24.0).reshape(2, 6, 2), "b (h1 h) w -> b h1 h w", {"h1": 2}),
]
TRANSPOSE = "Names in another order on the right: the axes are permuted."
MERGE = "A group on the right merges its axes, the first name outermost (slowest): (b h) runs over h for each b."
SPLIT = "A group on the left splits one axis; the first name is outermost: (h1 h) with h1=2 cuts 6 into 2 blocks of 3."
SIZES = ("sizes names the sizes of all but (at most) one name of each left group; the missing one is the "
         "axis' size divided by the others.")
WHOLE_AXIS_SIZE = "A size given for a name that is a whole axis must equal that axis' size, else RuntimeError."
DOES_NOT_DIVIDE = "If a left group's sizes cannot make its axis (it does not divide, or the product differs): raise RuntimeError."
WRONG_NDIM = "If x has more or fewer dims than the left side has groups: raise RuntimeError."
REARRANGE_DTYPE = "The result keeps x's dtype."
SEED_TILES = "Split, permute and merge in one pattern (the notes' 4 tiles and space-to-depth)."
TILES = np.arange(48).reshape(1, 4, 4, 3)

REARRANGE_CLAUSES = [
    Clause(TRANSPOSE, (np.arange(24.0).reshape(2, 3, 4), "h w c -> c h w", {})),
    Clause(TRANSPOSE, (np.arange(6.0).reshape(2, 3), "a b -> b a", {})),
    Clause(MERGE, (np.arange(24.0).reshape(2, 3, 4), "b h w -> h (b w)", {})),
    Clause(MERGE, (np.arange(24.0).reshape(2, 3, 4), "b h w -> (w h) b", {})),
    Clause(SPLIT, (np.arange(12.0).reshape(6, 2), "(h1 h) w -> h1 h w", {"h1": 2})),
    Clause(SPLIT, (np.arange(12.0).reshape(6, 2), "(h h1) w -> h1 h w", {"h1": 2})),
    Clause(SIZES, (np.arange(24.0).reshape(24), "(a b c) -> c b a", {"a": 2, "c": 3})),
    Clause(SIZES, (np.arange(12.0).reshape(12), "(a b) -> b a", {"a": 3, "b": 4})),
    Clause(WHOLE_AXIS_SIZE, (np.arange(6.0).reshape(2, 3), "a b -> b a", {"a": 2})),
    Clause(WHOLE_AXIS_SIZE, (np.arange(6.0).reshape(2, 3), "a b -> b a", {"a": 3})),
    Clause(DOES_NOT_DIVIDE, (np.arange(10.0).reshape(5, 2), "(h1 h) w -> h1 h w", {"h1": 2})),
    Clause(DOES_NOT_DIVIDE, (np.arange(12.0).reshape(6, 2), "(a b) w -> a b w", {"a": 2, "b": 2})),
    Clause(WRONG_NDIM, (np.arange(24.0).reshape(2, 3, 4), "h w -> w h", {})),
    Clause(REARRANGE_DTYPE, (np.arange(12).reshape(3, 4), "h w -> w h", {})),
    Clause(SEED_TILES, (TILES, "b (h1 h) (w1 w) c -> (b h1 w1) h w c", {"h1": 2, "w1": 2})),
    Clause(SEED_TILES, (TILES, "b (h h1) (w w1) c -> b h w (c h1 w1)", {"h1": 2, "w1": 2})),
    Clause(ANY_STRIDES, (np.arange(24.0).reshape(4, 6).T, "(a b) c -> b (c a)", {"a": 2})),
]


# --- what each part may use -------------------------------------------------------------------------
# Besides the common names (shape, ndim, dtype, len, range, zip, ...): the statement lists them. Never a
# library contraction (einsum, tensordot, vecdot, matvec, inner, dot...), and in mini_einsum not matmul either:
# the point is to build the contraction from diagonals, broadcasting and sums. mini_einsum calls the
# learner's einsum_labels, so its list holds part 1's.
TEXT_NAMES = (  # reading a spec: str, list, dict and set methods, and the builtins that sort and count
    "split", "partition", "rpartition", "replace", "strip", "find", "index", "count", "isalpha", "isupper",
    "islower", "startswith", "endswith", "join", "append", "extend", "insert", "pop", "reverse", "add", "get",
    "setdefault", "items", "keys", "values", "update", "set", "sorted", "reversed", "sum", "next", "iter",
)
SHAPE_ALLOWED = (*TEXT_NAMES, "Counter", "defaultdict", "prod", "broadcast_shapes")
EINSUM_ALLOWED = (*SHAPE_ALLOWED, "diagonal", "transpose", "swapaxes", "moveaxis", "reshape", "expand_dims",
                  "broadcast_to", "multiply", "ones", "asarray", "array", "arange", "astype", "squeeze", "copy")
BILINEAR_ALLOWED = ("matmul", "sum", "transpose", "mT", "swapaxes", "moveaxis", "reshape", "multiply", "expand_dims")
ATTENTION_ALLOWED = ("matmul", "swapaxes", "transpose", "mT", "moveaxis", "reshape")
REARRANGE_ALLOWED = (*TEXT_NAMES, "isalnum", "isspace", "findall", "fullmatch", "match", "finditer", "prod",
                     "reshape", "transpose", "argsort", "arange", "copy")

SHAPE_INPUTS = (
    "The cases draw one to three operands, terms of zero to four letters (a-z and A-Z), repeated and shared "
    "letters, size-1 and size-0 dims, '...' covering none, one or several dims, implicit and explicit outputs, "
    "sizes that clash, output letters that no operand has, and shapes far too large to allocate."
)
EINSUM_INPUTS = (
    "The cases draw one to three operands, terms of zero to three letters (a-z and A-Z), repeated and shared "
    "letters, size-1 dims that broadcast, size-0 dims, '...' covering none, one or several dims, implicit and "
    "explicit outputs, 0-d operands and results, float64, float32 and int64 operands (int64 sums beyond "
    "float64's precision too), and non-contiguous views (a transpose, every other column)."
)
BILINEAR_INPUTS = (
    "The cases draw sizes B, O, N, M from 0 to 5, float64 and float32 arrays, non-contiguous views (a "
    "transpose, every other column), and a large case with B = 1000 and M = 8."
)
ATTENTION_INPUTS = (
    "The cases draw sizes B, H, I, J, D from 0 to 6, float64 and float32 arrays, non-contiguous views (a "
    "transpose, every other column), and a large case with I = J = 64."
)
REARRANGE_INPUTS = (
    "The cases draw one to five names, in groups of one to three, of sizes 1 to 4, sizes given for all or all "
    "but one name of a group (and for whole axes, right or wrong), patterns that do not fit (a size that does "
    "not divide, a wrong number of dims), float64, float32 and int64 arrays, and non-contiguous views (a "
    "transpose, every other column)."
)

SHAPE_HINT = ("If every dim of every operand carried a label (its letter, or its place inside '...' counted from "
              "the right), what must hold for the sizes of each label, and which labels make up the output?")
EINSUM_HINT = ("Once every operand has one axis per label of the whole equation, in one common order, what do a "
               "broadcast product and a sum over the right axes give you, and how does a repeated letter first "
               "become a single axis?")
BILINEAR_HINT = ("Which of the two sums (over n, over m) can one batched matrix product do for every a at once, "
                 "and which axes are then left to multiply, sum and put in order?")
ATTENTION_HINT = ("A matrix product contracts the last axis of its left operand with the second-to-last axis of "
                  "its right one: which two axes of k must trade places so that d is the one contracted?")
REARRANGE_HINT = ("If every name of the left side were its own axis, which three steps would turn x into the right "
                  "side, and how do you find the one size per group that sizes leaves out?")


# --- the tasks --------------------------------------------------------------------------------------
EINSUM_SHAPE = Task(
    name="einsum_shape",
    reference=einsum_shape_reference,
    examples=SHAPE_EXAMPLES,
    clauses=SHAPE_CLAUSES,
    random_case=random_shape_case,
    hint=SHAPE_HINT,
    forbidden=EINSUM_LIKE,
    allowed=SHAPE_ALLOWED,
    inputs=SHAPE_INPUTS,
)
MINI_EINSUM = Task(
    name="mini_einsum",
    reference=mini_einsum_reference,
    examples=EINSUM_EXAMPLES,
    clauses=EINSUM_CLAUSES,
    random_case=random_einsum_case,
    hint=EINSUM_HINT,
    forbidden=(*EINSUM_LIKE, *PRODUCTS),
    tolerance=ARRAY_RESULT,
    allowed=EINSUM_ALLOWED,
    inputs=EINSUM_INPUTS,
)
BILINEAR_BY_MATMUL = Task(
    name="bilinear_by_matmul",
    reference=bilinear_reference,
    examples=BILINEAR_EXAMPLES,
    clauses=BILINEAR_CLAUSES,
    random_case=random_bilinear_case,
    hint=BILINEAR_HINT,
    forbidden=EINSUM_LIKE,
    tolerance=FLOAT32_SUMS,
    vectorised=True,
    large_case=large_bilinear_case,
    allowed=BILINEAR_ALLOWED,
    inputs=BILINEAR_INPUTS,
)
ATTENTION_SCORES = Task(
    name="attention_scores",
    reference=attention_reference,
    examples=ATTENTION_EXAMPLES,
    clauses=ATTENTION_CLAUSES,
    random_case=random_attention_case,
    hint=ATTENTION_HINT,
    forbidden=EINSUM_LIKE,
    tolerance=FLOAT32_SUMS,
    vectorised=True,
    large_case=large_attention_case,
    allowed=ATTENTION_ALLOWED,
    inputs=ATTENTION_INPUTS,
)
MINI_REARRANGE = Task(
    name="mini_rearrange",
    reference=rearrange_reference,
    examples=REARRANGE_EXAMPLES,
    clauses=REARRANGE_CLAUSES,
    random_case=random_rearrange_case,
    hint=REARRANGE_HINT,
    forbidden=("einops.rearrange",),
    allowed=REARRANGE_ALLOWED,
    inputs=REARRANGE_INPUTS,
)

EXERCISE = Exercise(notebook="einsum_einops", tasks=(EINSUM_SHAPE, MINI_EINSUM, BILINEAR_BY_MATMUL, ATTENTION_SCORES, MINI_REARRANGE))
