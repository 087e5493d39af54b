"""Unit 18, the capstone: a two-layer MLP trained on scikit-learn's digits with the learner's own pieces.

Three graded functions build on each other: ``mlp_gradients`` (the loss and every parameter's gradient,
by hand), ``sgd_step`` (one update that leaves the caller's arrays alone) and ``train_digits`` (minibatch
SGD over fixed batches, then the test accuracy). The references ask tensorlab's autograd, the library the
course teaches, through its public API; tests/test_capstone_reference.py checks them against torch's.
The digits ship inside scikit-learn (no download): the clause of ``train_digits`` that states the
accuracy trains on a fixed split of them.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from tensorlab.grading.compare import Tolerance
from tensorlab.grading.random_cases import normal
from tensorlab.grading.rules import PURE_STANDARD_LIBRARY
from tensorlab.grading.tasks import Clause, Exercise, Task

__all__ = ["EXERCISE", "MLP_GRADIENTS", "SGD_STEP", "TRAIN_DIGITS", "digits_split", "initial_params"]

Params = dict[str, np.ndarray]
TOLERANCE = Tolerance(rtol=1e-6, atol=1e-9)
TRAINING_TOLERANCE = Tolerance(rtol=1e-5, atol=1e-7)  # hundreds of steps: rounding differs with the order of sums

# The digits run: the statement quotes these settings and the accuracy they reach (checked in tests).
DIGITS_SEED, DIGITS_HIDDEN, DIGITS_TEST = 0, 32, 360
DIGITS_LR, DIGITS_EPOCHS, DIGITS_BATCH = 0.5, 10, 32
STATED_ACCURACY = 0.93
# NumPy, the standard library and the learner's own library (the grader gives the course's pieces under their names)
BUILDING_BLOCKS = ("numpy", *PURE_STANDARD_LIBRARY, "mytorch")


# --- the data and the initialisation: also what the walkthrough (notebooks/18-capstone.ipynb) uses ---------
@cache
def _digits() -> tuple[np.ndarray, np.ndarray]:
    from sklearn.datasets import load_digits

    digits = load_digits()
    return digits.data / 16.0, digits.target.astype(np.int64)


def digits_split(seed: int = DIGITS_SEED, test: int = DIGITS_TEST) -> tuple[np.ndarray, ...]:
    """(x_train, y_train, x_test, y_test): the 1797 8x8 digits, pixels scaled to [0, 1], shuffled by ``seed``."""
    features, labels = _digits()
    order = np.random.default_rng(seed).permutation(len(labels))
    train, held_out = order[:-test], order[-test:]
    return features[train], labels[train], features[held_out], labels[held_out]


def initial_params(seed: int, sizes: tuple[int, int, int]) -> Params:
    """nn.Linear's default initialisation, U(-1/sqrt(fan_in), 1/sqrt(fan_in)), stored as ``x @ W + b``."""
    rng = np.random.default_rng(seed)
    inputs, hidden, classes = sizes
    bound_1, bound_2 = 1 / np.sqrt(inputs), 1 / np.sqrt(hidden)
    return {"w1": rng.uniform(-bound_1, bound_1, (inputs, hidden)), "b1": rng.uniform(-bound_1, bound_1, hidden),
            "w2": rng.uniform(-bound_2, bound_2, (hidden, classes)), "b2": rng.uniform(-bound_2, bound_2, classes)}


# --- references: tensorlab's autograd ----------------------------------------------------------------------
def _logits(lib: Any, leaves: dict[str, Any], features: Any) -> Any:
    """relu(x @ w1 + b1) @ w2 + b2."""
    hidden = lib.nn.functional.relu(features @ leaves["w1"] + leaves["b1"])
    return hidden @ leaves["w2"] + leaves["b2"]


def mlp_gradients_reference(params: Params, x: np.ndarray, y: np.ndarray) -> tuple[float, Params]:
    """The mean cross-entropy of the batch and its gradient with respect to every parameter, by backward()."""
    import tensorlab

    leaves = {name: tensorlab.tensor(value, requires_grad=True) for name, value in params.items()}
    loss = tensorlab.nn.functional.cross_entropy(_logits(tensorlab, leaves, tensorlab.tensor(x)), tensorlab.tensor(y))
    loss.backward()
    return float(loss.item()), {name: leaf.grad.numpy().copy() for name, leaf in leaves.items()}


def sgd_step_reference(params: Params, grads: Params, lr: float) -> Params:
    """torch.optim.SGD's step without momentum, on new arrays: p - lr * grad for every key."""
    import tensorlab

    update = {name: tensorlab.tensor(value) for name, value in params.items()}
    with tensorlab.no_grad():
        return {name: (update[name] - lr * tensorlab.tensor(grads[name])).numpy().copy() for name in params}


def accuracy(params: Params, x: np.ndarray, y: np.ndarray) -> float:
    """The share of rows whose largest logit is the label's."""
    import tensorlab

    with tensorlab.no_grad():
        logits = _logits(tensorlab, {name: tensorlab.tensor(value) for name, value in params.items()}, tensorlab.tensor(x))
        return float((logits.argmax(dim=1) == tensorlab.tensor(y)).double().mean().item())


def train_digits_reference(params: Params, x_train: np.ndarray, y_train: np.ndarray, x_test: np.ndarray,
                           y_test: np.ndarray, lr: float, epochs: int, batch_size: int) -> tuple[Params, float]:
    """``epochs`` passes over the training rows in order, in batches of ``batch_size`` (the last one may be
    shorter), one SGD step per batch; then the accuracy on the test rows."""
    for _ in range(epochs):
        for start in range(0, len(y_train), batch_size):
            _, grads = mlp_gradients_reference(params, x_train[start:start + batch_size], y_train[start:start + batch_size])
            params = sgd_step_reference(params, grads, lr)
    return params, accuracy(params, x_test, y_test)


# --- random cases ------------------------------------------------------------------------------------------
def small_params(rng: np.random.Generator, inputs: int, hidden: int, classes: int, scale: float = 1.0) -> Params:
    params = {"w1": normal(rng, (inputs, hidden)), "b1": normal(rng, (hidden,)),
              "w2": normal(rng, (hidden, classes)) * scale, "b2": normal(rng, (classes,))}
    if rng.random() < 0.25:  # a non-contiguous view: the same values, transposed in memory
        params["w1"] = np.ascontiguousarray(params["w1"].T).T
    return params


def random_batch(rng: np.random.Generator, rows: int, inputs: int, classes: int) -> tuple[np.ndarray, np.ndarray]:
    features = normal(rng, (rows, inputs))
    if rng.random() < 0.25:
        features = np.ascontiguousarray(features.T).T
    return features, rng.integers(0, classes, size=rows).astype(np.int64)


def random_gradients_case(rng: np.random.Generator) -> tuple[Params, np.ndarray, np.ndarray]:
    """D in 1..6, H in 1..6, C in 2..5, N in 1..8; one time in five logits in the hundreds."""
    inputs, hidden, classes = int(rng.integers(1, 7)), int(rng.integers(1, 7)), int(rng.integers(2, 6))
    params = small_params(rng, inputs, hidden, classes, 150.0 if rng.random() < 0.2 else 1.0)
    return (params, *random_batch(rng, int(rng.integers(1, 9)), inputs, classes))


PARAMETER_NAMES = ("w1", "b1", "w2", "b2", "conv.weight", "head.bias", "embedding")


def random_step_case(rng: np.random.Generator) -> tuple[Params, Params, float]:
    """1 to 4 parameters of 0 to 2 dims (sizes 0 to 4), any names; lr from 0.001 to 2 (0 now and then)."""
    names = [str(name) for name in rng.choice(PARAMETER_NAMES, size=int(rng.integers(1, 5)), replace=False)]
    params, grads = {}, {}
    for name in names:
        shape = tuple(int(size) for size in rng.integers(0 if rng.random() < 0.1 else 1, 5, size=int(rng.integers(0, 3))))
        params[name], grads[name] = normal(rng, shape), normal(rng, shape)
        if len(shape) == 2 and rng.random() < 0.3:
            params[name] = np.ascontiguousarray(params[name].T).T
    lr = 0.0 if rng.random() < 0.1 else float(rng.choice([0.001, 0.01, 0.1, 0.25, 0.5, 2.0]))
    return params, grads, lr


def random_training_case(rng: np.random.Generator) -> tuple[Any, ...]:
    """A small problem: 4 to 40 training rows, 1 to 12 test rows, D 1..5, H 1..5, C 2..4, 1 to 3 epochs,
    batches of 1 to 16 rows (often not dividing the rows), lr 0.05 to 0.5."""
    inputs, hidden, classes = int(rng.integers(1, 6)), int(rng.integers(1, 6)), int(rng.integers(2, 5))
    params = small_params(rng, inputs, hidden, classes)
    x_train, y_train = random_batch(rng, int(rng.integers(4, 41)), inputs, classes)
    x_test, y_test = random_batch(rng, int(rng.integers(1, 13)), inputs, classes)
    lr = float(rng.choice([0.05, 0.1, 0.2, 0.5]))
    return params, x_train, y_train, x_test, y_test, lr, int(rng.integers(1, 4)), int(rng.integers(1, 17))


# --- fixed cases -------------------------------------------------------------------------------------------
def _case(seed: int, rows: int, sizes: tuple[int, int, int], scale: float = 1.0) -> tuple[Params, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    inputs, hidden, classes = sizes
    return (small_params(rng, inputs, hidden, classes, scale), normal(rng, (rows, inputs)),
            rng.integers(0, classes, size=rows).astype(np.int64))


def _training_case(seed: int, rows: int, epochs: int, batch_size: int, lr: float = 0.2) -> tuple[Any, ...]:
    params, x_train, y_train = _case(seed, rows, (3, 4, 3))
    _, x_test, y_test = _case(seed + 1, 6, (3, 4, 3))
    return params, x_train, y_train, x_test, y_test, lr, epochs, batch_size


def digits_case() -> tuple[Any, ...]:
    """The statement's run: the fixed split, nn.Linear's initialisation from seed 0, 64 -> 32 -> 10."""
    x_train, y_train, x_test, y_test = digits_split()
    params = initial_params(DIGITS_SEED, (x_train.shape[1], DIGITS_HIDDEN, 10))
    return params, x_train, y_train, x_test, y_test, DIGITS_LR, DIGITS_EPOCHS, DIGITS_BATCH


# What each part may call (an allow-list, named in its statement): NumPy's array maths, dict access, and the
# mytorch pieces of earlier units.
GRADIENTS_ALLOWED = (
    "maximum", "matmul", "dot", "arange", "exp", "log", "sum", "mean", "argmax", "where", "eye", "zeros", "zeros_like",
    "ones", "asarray", "array", "astype", "copy", "reshape", "logaddexp", "take_along_axis", "items", "keys", "values",
    "einsum", "clip", "count_nonzero", "ceil", "append", "cross_entropy", "matmul_backward", "relu_backward",
    "softmax", "sum_to_shape", "logsumexp",
)
STEP_ALLOWED = ("items", "keys", "values", "copy", "asarray", "array", "astype", "subtract", "multiply")
TRAINING_ALLOWED = (*GRADIENTS_ALLOWED, "sgd_step", "mlp_gradients", "permutation")


MLP_GRADIENTS = Task(
    name="mlp_gradients", reference=mlp_gradients_reference,
    examples=[_case(1, 4, (3, 4, 3)), _case(2, 2, (2, 3, 2))],
    clauses=[
        Clause("the loss is the mean over the batch of each row's cross-entropy", _case(3, 5, (2, 2, 3))),
        Clause("`grads[name]` has the shape of `params[name]`: a bias's gradient sums over the rows of the batch",
               _case(4, 6, (3, 2, 4))),
        Clause("the gradient is that of the mean: divided by the batch size", _case(5, 8, (2, 3, 2))),
        Clause("ReLU passes the gradient only where its input was positive", _case(6, 4, (4, 5, 3))),
        Clause("logits may be in the hundreds: compute the softmax without overflow", _case(7, 3, (3, 3, 4), 300.0)),
        Clause("a batch may hold one row", _case(8, 1, (3, 2, 3))),
        Clause("`x` may be a non-contiguous view; change none of the inputs",
               (_case(9, 3, (4, 3, 2))[0], normal(np.random.default_rng(10), (4, 3)).T, np.array([1, 0, 1]))),
    ],
    random_case=random_gradients_case, tolerance=TOLERANCE, building_blocks=BUILDING_BLOCKS, allowed=GRADIENTS_ALLOWED,
    inputs="float64 parameters for 1 to 6 inputs, 1 to 6 hidden units and 2 to 5 classes (now and then a "
    "non-contiguous `w1`), batches of 1 to 8 rows (now and then a non-contiguous `x`), int64 labels, and "
    "weights large enough that the logits reach the hundreds.",
    hint="Which gradient does the mean cross-entropy send back to the logits, and which sum turns a gradient "
    "for every row into the gradient of a parameter that every row shares?",
)
SGD_STEP = Task(
    name="sgd_step", reference=sgd_step_reference,
    examples=[({"w1": np.array([[1.0, 2.0]]), "b1": np.array([0.5])}, {"w1": np.array([[0.5, -1.0]]), "b1": np.array([2.0])}, 0.1)],
    clauses=[
        Clause("every parameter moves against its gradient: `p - lr * grad`",
               ({"w1": np.array([[1.0, -2.0], [0.5, 0.0]]), "b1": np.array([0.25, 1.0]), "w2": np.array([[3.0], [1.0]]),
                 "b2": np.array([-1.0])},
                {"w1": np.array([[0.5, 0.5], [-1.0, 2.0]]), "b1": np.array([1.0, -1.0]), "w2": np.array([[2.0], [0.0]]),
                 "b2": np.array([4.0])}, 0.5)),
        Clause("a new dict of new arrays, with the same keys (any names), even when `lr` is 0",
               ({"head.bias": np.array([1.0, 2.0])}, {"head.bias": np.array([3.0, 4.0])}, 0.0)),
        Clause("the caller's arrays are left unchanged", ({"embedding": np.array([[1.0, 2.0, 3.0]])},
                                                          {"embedding": np.array([[0.1, 0.2, 0.3]])}, 2.0)),
        Clause("parameters may be 0-d, or hold no element", ({"scale": np.array(2.0), "w1": np.zeros((0, 3))},
                                                             {"scale": np.array(-1.0), "w1": np.zeros((0, 3))}, 0.25)),
    ],
    random_case=random_step_case, tolerance=TOLERANCE, fresh_result=True, building_blocks=BUILDING_BLOCKS, allowed=STEP_ALLOWED,
    inputs="1 to 4 float64 parameters with any names, of 0 to 2 dims with sizes 0 to 4 (now and then "
    "non-contiguous), their gradients of the same shapes, and learning rates from 0.001 to 2, 0 included.",
    hint="Which way does a step go, downhill or uphill, and where does an augmented assignment (minus-equals) write "
    "its result?",
)
TRAIN_DIGITS = Task(
    name="train_digits", reference=train_digits_reference,
    examples=[_training_case(11, 10, 2, 4), _training_case(12, 7, 1, 3)],
    clauses=[
        Clause(f"on the digits, 64 -> {DIGITS_HIDDEN} -> 10 from `initial_params(0, ...)`, lr {DIGITS_LR}, "
               f"{DIGITS_EPOCHS} epochs of batches of {DIGITS_BATCH}: at least {STATED_ACCURACY:.0%} test accuracy",
               digits_case()),
        Clause("the batches take the training rows in order; the last batch of an epoch may be shorter",
               _training_case(13, 11, 1, 4)),
        Clause("every epoch passes over all of the training rows once", _training_case(14, 6, 3, 6)),
        Clause("one SGD step per batch, with the batch's mean gradient", _training_case(15, 9, 2, 1, 0.1)),
        Clause("the accuracy is measured on the test rows, never the training rows", _training_case(16, 8, 2, 8, 0.5)),
        Clause("the accuracy is a share between 0 and 1: the rows whose largest logit is the label's",
               _training_case(17, 12, 2, 5)),
        Clause("change none of the inputs (the caller's initial parameters included)", _training_case(18, 5, 1, 2)),
    ],
    random_case=random_training_case, tolerance=TRAINING_TOLERANCE, building_blocks=BUILDING_BLOCKS, allowed=TRAINING_ALLOWED,
    inputs="small problems of 4 to 40 training rows and 1 to 12 test rows (now and then non-contiguous), 1 to 5 "
    "inputs, 1 to 5 hidden units, 2 to 4 classes, 1 to 3 epochs, batches of 1 to 16 rows that often do not "
    "divide the rows, learning rates from 0.05 to 0.5; and the digits run above.",
    hint="In which order, and how many, are the batches of one epoch, and on which rows does a model that has "
    "never seen them prove what it learned?",
)

EXERCISE = Exercise(notebook="capstone", tasks=(MLP_GRADIENTS, SGD_STEP, TRAIN_DIGITS), timeout=20.0)
