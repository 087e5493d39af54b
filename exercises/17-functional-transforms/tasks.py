"""Unit 17, functional transforms: vmap and grad by hand, on NumPy arrays.

The sandbox refuses tensorlab and torch, so each transform is written as the arrays it moves:

- ``per_example_grads``: what ``vmap(grad(loss))`` computes for softmax regression, vectorised;
- ``sum_batch_rule`` and ``matmul_batch_rule``: two batching rules, each a function of the
  physical arrays and the position of their batch dim (``None``: not batched), returning the
  result with its batch dim at 0;
- ``tanh_layer_jacobian``: ``jacrev`` as a vjp applied to every row of the identity at once.

Every reference asks ``tensorlab.func`` (``vmap``, ``grad``, ``jacrev``), the library the unit
teaches; tests/test_grading_checks.py checks them against ``torch.func``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tensorlab.grading.compare import Tolerance
from tensorlab.grading.random_cases import normal
from tensorlab.grading.tasks import Clause, Exercise, Task

__all__ = ["EXERCISE", "MATMUL_BATCH_RULE", "PER_EXAMPLE_GRADS", "SUM_BATCH_RULE", "TANH_LAYER_JACOBIAN"]

TOLERANCE = Tolerance(rtol=1e-6, atol=1e-9)
Dims = int | tuple[int, ...] | None


def _tensorlab() -> Any:
    import tensorlab

    return tensorlab


def _array(t: Any) -> np.ndarray:
    return np.asarray(t.detach().numpy()).copy()


# --- references: tensorlab.func ----------------------------------------------------------------------------
def per_example_grads_reference(weight: np.ndarray, b: np.ndarray, features: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """vmap(grad(loss, argnums=(0, 1)), in_dims=(None, None, 0, 0)) for the loss of one example."""
    tl = _tensorlab()
    classes = weight.shape[0]

    def loss(weight: Any, bias: Any, x: Any, label: Any) -> Any:
        logits = weight @ x + bias
        one_hot = label == tl.arange(classes)
        return -(one_hot * logits.log_softmax(-1)).sum()

    grads = tl.func.vmap(tl.func.grad(loss, argnums=(0, 1)), in_dims=(None, None, 0, 0))
    dweight, db = grads(tl.tensor(weight), tl.tensor(b), tl.tensor(features), tl.tensor(y))
    return _array(dweight), _array(db)


def sum_batch_rule_reference(x: np.ndarray, bdim: int, dim: Dims, keepdim: bool) -> np.ndarray:
    """vmap(lambda sample: sample.sum(dim, keepdim), in_dims=bdim): the batch dim of the result at 0."""
    tl = _tensorlab()

    def sample_sum(sample: Any) -> Any:
        return sample.sum() if dim is None else sample.sum(dim, keepdim=keepdim)

    return _array(tl.func.vmap(sample_sum, in_dims=bdim)(tl.tensor(x)))


def matmul_batch_rule_reference(a: np.ndarray, a_bdim: int | None, b: np.ndarray, b_bdim: int | None) -> np.ndarray:
    """vmap(torch.matmul, in_dims=(a_bdim, b_bdim)): the batch dim of the result at 0."""
    tl = _tensorlab()
    return _array(tl.func.vmap(tl.matmul, in_dims=(a_bdim, b_bdim))(tl.tensor(a), tl.tensor(b)))


def tanh_layer_jacobian_reference(weight: np.ndarray, x: np.ndarray) -> np.ndarray:
    """jacrev(lambda x: tanh(x @ weight.T))(x): shape output.shape + x.shape."""
    tl = _tensorlab()
    matrix = tl.tensor(weight)
    return _array(tl.func.jacrev(lambda inputs: (inputs @ matrix.T).tanh())(tl.tensor(x)))


# --- random cases -----------------------------------------------------------------------------------
def maybe_strided(rng: np.random.Generator, shape: tuple[int, ...], dtype: Any = np.float64) -> np.ndarray:
    """Normal values; one time in four a non-contiguous view (every other column of a wider array)."""
    if not shape or rng.random() >= 0.25:
        return normal(rng, shape).astype(dtype)
    return normal(rng, (*shape[:-1], 2 * shape[-1])).astype(dtype)[..., ::2]


def random_softmax_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """C classes, D features, N examples; now and then N = 0, large logits, or a non-contiguous `features`."""
    classes, size = int(rng.integers(2, 6)), int(rng.integers(1, 5))
    n = 0 if rng.random() < 0.08 else int(rng.integers(1, 7))
    weight, b = maybe_strided(rng, (classes, size)), normal(rng, (classes,))
    features = maybe_strided(rng, (n, size))
    if rng.random() < 0.2:
        weight = weight * 300.0  # logits in the hundreds: exp overflows unless the max is subtracted
    y = rng.integers(0, classes, size=n).astype(np.int64)
    return weight, b, features, y


def large_softmax_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    n, classes, features = 600, 120, 2  # a loop over the examples runs 600 times, one over the classes 120
    return normal(rng, (classes, features)), normal(rng, (classes,)), normal(rng, (n, features)), rng.integers(0, classes, size=n)


def random_sum_case(rng: np.random.Generator) -> tuple[np.ndarray, int, Dims, bool]:
    """A batched array (batch dim anywhere) and dims given as an int, a negative int, a tuple or None."""
    logical = [int(s) for s in rng.integers(1, 4, size=int(rng.integers(0, 4)))]
    if logical and rng.random() < 0.1:
        logical[int(rng.integers(0, len(logical)))] = 0
    bdim = int(rng.integers(0, len(logical) + 1))
    physical = (*logical[:bdim], int(rng.integers(1, 4)), *logical[bdim:])
    dtype = [np.float64, np.float64, np.float32, np.int64][int(rng.integers(0, 4))]
    x = maybe_strided(rng, physical, dtype) if dtype != np.int64 else rng.integers(-5, 6, size=physical)
    choice = rng.random()
    if not logical or choice < 0.15:
        dim: Dims = None
    elif choice < 0.7:
        dim = int(rng.integers(-len(logical), len(logical)))
    else:
        count = int(rng.integers(1, len(logical) + 1))
        dim = tuple(int(d) - (len(logical) if rng.random() < 0.3 else 0) for d in rng.choice(len(logical), size=count, replace=False))
    if rng.random() < 0.2:
        bdim -= len(physical)  # a negative batch dim
    return x, bdim, dim, bool(rng.random() < 0.5)


def large_sum_case(rng: np.random.Generator) -> tuple[np.ndarray, int, Dims, bool]:
    return normal(rng, (300, 300)), 1, 0, False  # a loop over the batch or along the summed dim runs 300 times


def _with_batch(rng: np.random.Generator, logical: tuple[int, ...], size: int, batched: bool) -> tuple[np.ndarray, int | None]:
    if not batched:
        return maybe_strided(rng, logical), None
    bdim = int(rng.integers(0, len(logical) + 1))
    array = maybe_strided(rng, (*logical[:bdim], size, *logical[bdim:]))
    return array, bdim


def random_matmul_case(rng: np.random.Generator) -> tuple[np.ndarray, int | None, np.ndarray, int | None]:
    """Logical operands 1-d or 2-d, each batched (batch dim anywhere) or not, at least one batched."""
    n, k, m = (int(s) for s in rng.integers(1, 5, size=3))
    if rng.random() < 0.08:
        k = 0
    size = int(rng.integers(1, 5))
    a_logical = (k,) if rng.random() < 0.35 else (n, k)
    b_logical = (k,) if rng.random() < 0.35 else (k, m)
    which = int(rng.integers(0, 3))  # 0: both batched, 1: a only, 2: b only
    a, a_bdim = _with_batch(rng, a_logical, size, which in (0, 1))
    b, b_bdim = _with_batch(rng, b_logical, size, which in (0, 2))
    return a, a_bdim, b, b_bdim


def large_matmul_case(rng: np.random.Generator) -> tuple[np.ndarray, int | None, np.ndarray, int | None]:
    return normal(rng, (500, 300)), 0, normal(rng, (300, 3)), None  # batch 500, k = 300: a loop over either is long


def random_jacobian_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """weight of shape (m, n); x of shape (n,) or (k, n); now and then a size 0 or a non-contiguous weight."""
    m, n = (int(s) for s in rng.integers(1, 5, size=2))
    weight = maybe_strided(rng, (m, n))
    shape = (n,) if rng.random() < 0.4 else (0 if rng.random() < 0.08 else int(rng.integers(1, 4)), n)
    return weight, maybe_strided(rng, shape)


def large_jacobian_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    return normal(rng, (2, 2)), normal(rng, (150, 2))  # (150, 2, 150, 2) out: a loop over the rows runs 150 times


# --- fixed cases ---------------------------------------------------------------------------------------
def ramp(*shape: int) -> np.ndarray:
    """Distinct values, some negative: a sum over the wrong dims cannot match by luck."""
    return np.arange(float(np.prod(shape))).reshape(shape) / 4 - 1.25


W3 = np.array([[0.5, -1.0], [1.5, 0.25], [-0.5, 2.0]])
B3 = np.array([0.1, -0.2, 0.3])
X4 = np.array([[1.0, 2.0], [-1.0, 0.5], [0.0, 0.0], [3.0, -2.0]])

# the allow-lists: what each part may use besides rules.COMMON_NAMES (the notebook lists them too)
ARITHMETIC = ("sum", "reshape", "expand_dims", "squeeze", "transpose", "swapaxes", "moveaxis", "einsum", "matmul",
              "tensordot", "zeros", "arange", "astype")
GRADS_ALLOWED = (*ARITHMETIC, "exp", "log", "eye", "zeros_like", "put_along_axis", "where", "maximum", "amax")
SUM_ALLOWED = ("moveaxis", "sum", "add", "reduce", "atleast_1d", "asarray", "array", "tolist", "delete", "arange",
               "reshape", "count_nonzero", "unique", "ravel", "setdiff1d", "transpose", "prod", "concatenate",
               "expand_dims", "sorted", "set")
MATMUL_ALLOWED = ARITHMETIC
JACOBIAN_ALLOWED = (*ARITHMETIC, "tanh", "eye", "atleast_2d", "diag", "multiply")

PER_EXAMPLE_GRADS = Task(
    name="per_example_grads", reference=per_example_grads_reference,
    examples=[(W3, B3, X4, np.array([0, 2, 1, 2])), (np.eye(2), np.zeros(2), np.array([[1.0, -1.0]]), np.array([1]))],
    clauses=[
        Clause("one gradient per example, not their sum or mean: `dweight` has shape (N, C, D)", (W3, B3, X4, np.array([1, 1, 1, 1]))),
        Clause("`dweight[n]` is the gradient of example n's loss with respect to weight, of weight's shape (C, D)", (ramp(3, 4), B3, ramp(2, 4), np.array([2, 0]))),
        Clause("`db[n]` is the gradient of example n's loss with respect to b", (W3, B3, X4[:1], np.array([2]))),
        Clause("the label picks one class: every other class's logit is pushed down by its probability", (W3, B3, X4, np.array([0, 0, 2, 1]))),
        Clause("Logits may be large (hundreds): compute the softmax without overflow", (W3 * 400, B3, X4, np.array([0, 2, 1, 2]))),
        Clause("N may be 0", (W3, B3, np.zeros((0, 2)), np.zeros(0, dtype=np.int64))),
        Clause("`features` may be a non-contiguous view; change none of the inputs", (W3, B3, ramp(4, 4)[:, ::2], np.array([2, 1, 0, 0]))),
    ],
    random_case=random_softmax_case, tolerance=TOLERANCE, vectorised=True, large_case=large_softmax_case,
    loops_over_dimensions=True, allowed=GRADS_ALLOWED,
    inputs="float64 `weight` (C, D) with 2 to 5 classes (120 in the large case) and 1 to 4 features, int64 labels, "
    "0 to 6 examples (600 in the large case), logits in the hundreds, and non-contiguous views of `weight` and "
    "`features`.",
    hint="What is the derivative of one example's loss with respect to its logits, how do you keep exp from "
    "overflowing, and how do you keep one outer product per example instead of summing them over the batch?",
)
SUM_BATCH_RULE = Task(
    name="sum_batch_rule", reference=sum_batch_rule_reference,
    examples=[(ramp(4, 2, 3), 0, 1, False), (ramp(2, 4, 3), 1, 0, True), (ramp(3, 5), 1, None, False)],
    clauses=[
        Clause("`dim` counts the dims of one sample (the batch dim is not one of them)", (ramp(4, 2, 3), 0, 0, False)),
        Clause("`dim` counts the dims of one sample: negative `dim` counts from the sample's last dim", (ramp(4, 2, 3), 0, -2, False)),
        Clause("`dim` counts the dims of one sample: negative `dim` counts from the sample's last dim", (ramp(2, 3, 4), 2, -1, True)),
        Clause("the batch dim `bdim` may be anywhere in `x`, negative too", (ramp(2, 3, 4), 1, 1, False)),
        Clause("the batch dim `bdim` may be anywhere in `x`, negative too", (ramp(2, 3, 4), -1, 0, False)),
        Clause("`dim` may be a tuple of dims", (ramp(2, 3, 4, 2), 1, (0, -1), False)),
        Clause("`dim` may be a tuple of dims", (ramp(3, 2, 4), 0, (1, 0), True)),
        Clause("`dim=None` sums every dim of each sample (and never the batch dim); `keepdim` is then ignored", (ramp(2, 3, 4), 1, None, True)),
        Clause("`keepdim=True` keeps each summed dim with size 1", (ramp(4, 2, 3), 2, 1, True)),
        Clause("return the result with its batch dim at 0", (ramp(3, 4), 1, 0, False)),
        Clause("sizes may be 0", (np.zeros((2, 0, 3)), 0, 0, False)),
        Clause("keep the dtype: a sum of integers is an integer array", (np.arange(24).reshape(2, 3, 4), 2, 0, False)),
        Clause("`x` may be a non-contiguous view", (ramp(3, 4, 4)[:, :, ::2], 2, -1, True)),
    ],
    random_case=random_sum_case, tolerance=TOLERANCE, vectorised=True, large_case=large_sum_case,
    loops_over_dimensions=True, allowed=SUM_ALLOWED,
    inputs="float64, float32 and int64 arrays with 0 to 3 sample dims of sizes 0 to 5 (300 in the large case) and "
    "a batch of 1 to 5 (300 in the large case), `bdim` anywhere (negative too), `dim` an int, a negative int, a "
    "tuple or None, and non-contiguous views.",
    hint="Once the batch dim is at the front, which dim of the batched array is a sample's dim d, negative or not, "
    "and which dims does a sample's every dim mean?",
)
MATMUL_BATCH_RULE = Task(
    name="matmul_batch_rule", reference=matmul_batch_rule_reference,
    examples=[(ramp(4, 2, 3), 0, ramp(3, 2), None), (ramp(2, 3), None, ramp(3, 4), 1), (ramp(4, 3), 0, ramp(4, 3) + 1, 0)],
    clauses=[
        Clause("each operand is one matrix or one vector per sample, batched or not (`None`); here both batched", (ramp(3, 2, 3), 0, ramp(3, 3, 2) / 2, 0)),
        Clause("each operand is one matrix or one vector per sample, batched or not (`None`); here only b", (ramp(2, 3), None, ramp(4, 3, 2), 0)),
        Clause("a vector times a vector is a number per sample", (ramp(5, 3), 0, ramp(3), None)),
        Clause("a matrix times a vector is a vector per sample", (ramp(2, 3), None, ramp(3, 4), 1)),
        Clause("a vector times a matrix is a vector per sample", (ramp(4, 3), 0, ramp(3, 2), None)),
        Clause("the batch dims `a_bdim`, `b_bdim` may be anywhere in their array", (ramp(2, 4, 3), 1, ramp(3, 2, 4), 2)),
        Clause("return the result with its batch dim at 0", (ramp(3), None, ramp(3, 2, 5), 1)),
        Clause("sizes may be 0 (k = 0: sums of nothing, zeros)", (np.zeros((3, 2, 0)), 0, np.zeros((0, 4)), None)),
        Clause("the operands may be non-contiguous views", (ramp(3, 4, 2).transpose(0, 2, 1), 0, ramp(3, 4).T, None)),
    ],
    random_case=random_matmul_case, tolerance=TOLERANCE, vectorised=True, large_case=large_matmul_case,
    loops_over_dimensions=True, allowed=MATMUL_ALLOWED,
    inputs="float64 operands that are one vector or one matrix per sample, each batched (its batch dim anywhere) "
    "or not, sizes 0 to 5 (k = 300 in the large case), a batch of 1 to 5 (500 in the large case), and "
    "non-contiguous views.",
    hint="How can a sample's vector become a one-row or one-column matrix, so that one batched product covers "
    "every case, and how does an operand that is not batched broadcast over the batch?",
)
TANH_LAYER_JACOBIAN = Task(
    name="tanh_layer_jacobian", reference=tanh_layer_jacobian_reference,
    examples=[(np.array([[1.0, 0.5], [-0.5, 2.0], [0.25, -1.0]]), np.array([0.5, -0.25])), (np.eye(2), np.array([[0.1, 0.2]]))],
    clauses=[
        Clause("`J[i, j] = d out[i] / d x[j]`: one row per output, one column per input (not the transpose)", (ramp(3, 2), np.array([0.5, -1.0]))),
        Clause("the derivative of tanh(z) is 1 - tanh(z)**2", (np.array([[2.0, -1.0]]), np.array([0.75, 0.5]))),
        Clause("`x` may be a batch of rows (k, n): J has shape (k, m, k, n)", (ramp(3, 2), ramp(2, 2))),
        Clause("`x` may be a batch of rows (k, n): out[p] depends on x[p] only, so J[p, :, q, :] is zero for p != q", (ramp(2, 3) / 3, ramp(3, 3) / 2)),
        Clause("sizes may be 0", (ramp(2, 3), np.zeros((0, 3)))),
        Clause("`weight` may be a non-contiguous view", (ramp(3, 4)[:, ::2], np.array([0.3, -0.2]))),
    ],
    random_case=random_jacobian_case, tolerance=TOLERANCE, vectorised=True, large_case=large_jacobian_case,
    loops_over_dimensions=True, allowed=JACOBIAN_ALLOWED,
    inputs="float64 `weight` (m, n) with m and n from 1 to 4, `x` of shape (n,) or (k, n) with k from 0 to 3 (150 "
    "in the large case), and non-contiguous views of `weight` and `x`.",
    hint="The vjp of a one-hot cotangent is one row of the Jacobian: how can you give the vjp every one-hot "
    "cotangent at once, and which shape must the batch of rows take at the end?",
)

EXERCISE = Exercise(notebook="functional_transforms", tasks=(PER_EXAMPLE_GRADS, SUM_BATCH_RULE, MATMUL_BATCH_RULE, TANH_LAYER_JACOBIAN))
