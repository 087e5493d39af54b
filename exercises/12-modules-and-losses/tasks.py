"""Unit 12, modules and losses: a hooked forward pass, cross entropy, AUROC with ties, and a
detector of loss/activation mismatches.

The references run tensorlab itself (``nn.Module`` with forward hooks, ``F.cross_entropy``,
``metrics.binary_auroc``) through its public API; the mismatch detector's rule table is checked
against torch's losses in tests/test_grading_checks.py.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tensorlab.grading.compare import Tolerance
from tensorlab.grading.tasks import Clause, Exercise, Task

__all__ = ["EXERCISE", "BINARY_AUROC", "CROSS_ENTROPY", "FORWARD_WITH_HOOKS", "LOSS_MISMATCH", "STATE_DICT_SHAPES"]

StateDict = dict[str, np.ndarray]
LOSS_TOLERANCE = Tolerance(rtol=1e-6, atol=1e-9)

# The allow-lists (the statement above each answer cell names them): plain Python for the parts on plain data,
# NumPy's arithmetic, reductions and sorting for the array parts. None of them is a module, a loss or a metric
# (tensorlab and torch, which have those, are refused as the reference library).
STATE_DICT_ALLOWED = ("append", "extend", "insert", "pop", "join", "split", "set", "sorted", "reversed", "map")
FORWARD_ALLOWED = (
    "rpartition", "rsplit", "split", "startswith", "endswith", "append", "items", "keys", "get", "fromkeys", "groupby", "copy",
    "array", "asarray", "dot", "matmul", "einsum", "transpose", "maximum", "clip", "where", "exp", "log", "sum",
    "logaddexp", "reduce",
)
CROSS_ENTROPY_ALLOWED = (
    "array", "asarray", "astype", "ones", "zeros", "full", "arange", "where", "exp", "log", "sum", "mean", "logaddexp",
    "reduce", "take_along_axis", "eye", "dot", "einsum", "count_nonzero", "errstate", "matmul",
)
AUROC_ALLOWED = (
    "asarray", "astype", "sum", "mean", "count_nonzero", "nonzero", "flatnonzero", "logical_not", "where", "sign", "subtract", "outer", "sort", "argsort",
    "searchsorted", "unique", "cumsum", "diff", "concatenate", "r_", "ravel", "arange", "empty", "errstate",
)
MISMATCH_ALLOWED = ("set", "reversed", "next", "pop", "get", "items")


# --- 1. what a Module registers ------------------------------------------------------------------
Attribute = tuple[str, str, Any]  # (name, kind, value), in the order __init__ assigns them
KINDS = ("parameter", "tensor", "buffer", "buffer_not_persistent", "linear", "module", "list", "module_list")


def build_module(attributes: list[Attribute], lib: Any = None) -> Any:
    """The Module whose ``__init__`` makes these assignments, in order (``lib`` is tensorlab or torch)."""
    if lib is None:
        import tensorlab as lib
    module = lib.nn.Module()
    for name, kind, value in attributes:
        if kind == "parameter":
            setattr(module, name, lib.nn.Parameter(lib.zeros(tuple(value))))
        elif kind == "tensor":
            setattr(module, name, lib.zeros(tuple(value)))
        elif kind in ("buffer", "buffer_not_persistent"):
            module.register_buffer(name, lib.zeros(tuple(value)), persistent=kind == "buffer")
        elif kind == "linear":
            setattr(module, name, lib.nn.Linear(value[0], value[1], bias=value[2]))
        elif kind == "module":
            setattr(module, name, build_module(value, lib))
        elif kind == "list":
            setattr(module, name, [build_module(item, lib) for item in value])
        elif kind == "module_list":
            setattr(module, name, lib.nn.ModuleList([build_module(item, lib) for item in value]))
        else:
            raise ValueError(f"unknown kind {kind!r}; known: {', '.join(KINDS)}")
    return module


def state_dict_shapes_reference(attributes: list[Attribute]) -> list[tuple[str, tuple[int, ...]]]:
    """The keys of the built module's state_dict, in order, with their shapes."""
    return [(key, tuple(int(size) for size in value.shape)) for key, value in build_module(attributes).state_dict().items()]


# how often each kind is drawn at the top level, and inside a submodule (nesting stays shallow)
KIND_CHANCES = ((0.24, 0.1, 0.12, 0.08, 0.2, 0.1, 0.07, 0.09), (0.3, 0.15, 0.15, 0.1, 0.25, 0.05, 0.0, 0.0))
ATTRIBUTE_NAMES = ("w", "scale", "bias", "offset", "fc", "proj", "norm", "running_mean", "head", "layers", "blocks", "cache")


def random_attributes(rng: np.random.Generator, depth: int = 0) -> list[Attribute]:
    """1 to 4 assignments with distinct names; nested modules (and lists of them) up to two levels deep."""
    count = int(rng.integers(1, 5)) if depth == 0 else int(rng.integers(1, 3))
    names = [str(name) for name in rng.choice(ATTRIBUTE_NAMES, size=count, replace=False)]
    attributes: list[Attribute] = []
    for name in names:
        kind = str(rng.choice(KINDS, p=KIND_CHANCES[min(depth, 1)]))
        shape = tuple(int(size) for size in rng.integers(0 if rng.random() < 0.05 else 1, 4, size=int(rng.integers(0, 3))))
        if kind == "linear":
            value: Any = (int(rng.integers(1, 4)), int(rng.integers(1, 4)), bool(rng.random() < 0.75))
        elif kind == "module":
            value = random_attributes(rng, depth + 1)
        elif kind in ("list", "module_list"):
            value = [random_attributes(rng, depth + 1) for _ in range(int(rng.integers(1, 3)))]
        else:
            value = shape
        attributes.append((name, kind, value))
    return attributes


STATE_DICT_SHAPES = Task(
    name="state_dict_shapes", reference=state_dict_shapes_reference,
    examples=[([("fc", "linear", (3, 2, True)), ("scale", "parameter", (2,))],),
              ([("w", "parameter", (2, 2)), ("offset", "tensor", (2,)), ("running_mean", "buffer", (2,))],)],
    clauses=[
        Clause("a `Parameter` is registered under its name", ([("w", "parameter", (3,)), ("scale", "parameter", ())],)),
        Clause("a plain tensor is not registered", ([("offset", "tensor", (3,)), ("w", "parameter", (1,))],)),
        Clause("a buffer is saved, unless it was registered with `persistent=False`",
               ([("running_mean", "buffer", (4,)), ("cache", "buffer_not_persistent", (4,))],)),
        Clause("`nn.Linear(in, out, bias)` holds `weight` of shape `(out, in)`, then `bias` of shape `(out,)` if `bias` is True",
               ([("fc", "linear", (4, 2, True)), ("proj", "linear", (2, 3, False))],)),
        Clause("each module lists its own parameters first, then its own buffers (even a buffer assigned before a parameter)",
               ([("running_mean", "buffer", (2,)), ("w", "parameter", (2,)), ("norm", "buffer", ())],)),
        Clause("then its submodules, in assignment order, each key prefixed by the submodule's name and a dot",
               ([("head", "linear", (2, 1, True)), ("w", "parameter", (1,)), ("fc", "linear", (1, 2, False))],)),
        Clause("then its submodules [...] (nested modules: every level adds its prefix)",
               ([("blocks", "module", [("norm", "module", [("scale", "parameter", (2,)), ("running_mean", "buffer", (2,))])]),
                 ("bias", "parameter", (2,))],)),
        Clause("a Python list of modules is not registered", ([("layers", "list", [[("w", "parameter", (2,))]]), ("w", "parameter", (3,))],)),
        Clause("an `nn.ModuleList` names its modules `0`, `1`, ...",
               ([("layers", "module_list", [[("w", "parameter", (2,))], [("fc", "linear", (1, 1, True))]])],)),
        Clause("a module that registers nothing adds no key", ([("head", "module", [("offset", "tensor", (2,))]), ("w", "parameter", (1,))],)),
        Clause("shapes may hold a 0", ([("w", "parameter", (0, 3)), ("running_mean", "buffer", (0,))],)),
    ],
    random_case=lambda rng: (random_attributes(rng),), allowed=STATE_DICT_ALLOWED,
    inputs=("1 to 4 assignments of every kind in the table (names such as `w`, `fc`, `running_mean`), nested "
            "modules, lists and `ModuleList`s of 1 or 2 submodules down to two levels, shapes of 0 to 2 dims "
            "(`()` included) whose sizes may be 0, linear layers with and without a bias, and submodules that "
            "register nothing."),
    hint="In what order does one module list its own entries and its submodules' entries, and which kinds of "
    "assignment register nothing at all?",
)


# --- 2. the seed's MyModel, hooked ---------------------------------------------------------------
def layer_names(state_dict: StateDict) -> list[str]:
    """'cl1.weight', 'cl1.bias', 'head.weight' -> ['cl1', 'head']: each Linear once, in order."""
    names: list[str] = []
    for key in state_dict:
        module = key.rpartition(".")[0]
        if module not in names:
            names.append(module)
    return names


def model_from_state_dict(state_dict: StateDict) -> Any:
    """A tensorlab Module tree with one float64 Linear per layer name, loaded from ``state_dict``."""
    import tensorlab

    root = tensorlab.nn.Module()
    for name in layer_names(state_dict):
        weight = state_dict[f"{name}.weight"]
        parent = root
        *path, leaf = name.split(".")
        for part in path:
            if part not in parent._modules:
                parent.add_module(part, tensorlab.nn.Module())
            parent = parent._modules[part]
        layer = tensorlab.nn.Linear(weight.shape[1], weight.shape[0], bias=f"{name}.bias" in state_dict).double()
        parent.add_module(leaf, layer)
    root.load_state_dict({key: tensorlab.tensor(value) for key, value in state_dict.items()})
    return root


def forward_with_hooks_reference(x: np.ndarray, state_dict: StateDict, hooked: list[str]) -> tuple[np.ndarray, dict]:
    """The seed's pattern: a forward hook per hooked layer fills ``activation``; ReLU between layers, log_softmax last."""
    import tensorlab
    import tensorlab.nn.functional as F

    model = model_from_state_dict(state_dict)
    activation: dict[str, np.ndarray] = {}

    def get_activation(name: str) -> Any:
        def hook(module: Any, args: Any, output: Any) -> None:
            activation[name] = output.detach().numpy().copy()
        return hook

    for name in hooked:
        model.get_submodule(name).register_forward_hook(get_activation(name))
    names = layer_names(state_dict)
    h = tensorlab.tensor(x)
    with tensorlab.no_grad():
        for number, name in enumerate(names):
            h = model.get_submodule(name)(h)
            if number < len(names) - 1:
                h = F.relu(h)
        return F.log_softmax(h, dim=1).numpy().copy(), activation


def linear_state(rng: np.random.Generator, names: list[str], sizes: list[int], biases: list[bool], scale: float = 1.0) -> StateDict:
    """Weights (out, in) and biases (out,) for Linear layers sizes[0] -> sizes[1] -> ..., in registration order."""
    state: StateDict = {}
    for name, fan_in, fan_out, bias in zip(names, sizes[:-1], sizes[1:], biases, strict=True):
        state[f"{name}.weight"] = np.round(rng.normal(size=(fan_out, fan_in)) * scale, 3)
        if bias:
            state[f"{name}.bias"] = np.round(rng.normal(size=fan_out) * scale, 3)
    return state


LAYER_NAMES = ("cl1", "cl2", "fc1", "fc2", "fc3", "head", "encoder.0", "encoder.2", "blocks.1.proj", "out")


def random_forward_case(rng: np.random.Generator) -> tuple[np.ndarray, StateDict, list[str]]:
    """1 to 4 Linear layers with made-up names (some nested), sizes 1 to 6, now and then no bias,
    a few hooked; a batch of 0 to 4 rows, one time in four a transposed (non-contiguous) x."""
    count = int(rng.integers(1, 5))
    names = [str(n) for n in rng.choice(LAYER_NAMES, size=count, replace=False)]
    sizes = [int(s) for s in rng.integers(1, 7, size=count + 1)]
    sizes[-1] = max(sizes[-1], 2)
    biases = [bool(rng.random() < 0.8) for _ in names]
    scale = 30.0 if rng.random() < 0.15 else 1.0  # large logits: log_softmax must not overflow
    state = linear_state(rng, names, sizes, biases, scale)
    hooked = [name for name in names if rng.random() < 0.5]
    rows = 0 if rng.random() < 0.08 else int(rng.integers(1, 5))
    x = np.round(rng.normal(size=(sizes[0], rows)), 3).T if rng.random() < 0.25 else np.round(rng.normal(size=(rows, sizes[0])), 3)
    return x, state, hooked


def _seed_like_case() -> tuple[np.ndarray, StateDict, list[str]]:
    """The seed's MyModel, shrunk: cl1, cl2, fc1, fc2, fc3 with fc2 hooked."""
    rng = np.random.default_rng(12)
    names = ["cl1", "cl2", "fc1", "fc2", "fc3"]
    return np.round(rng.normal(size=(3, 5)), 3), linear_state(rng, names, [5, 6, 4, 6, 5, 3], [True] * 5), ["fc2"]


def _small_case(names: list[str], sizes: list[int], hooked: list[str], biases: list[bool] | None = None,
                rows: int = 2, scale: float = 1.0, seed: int = 5) -> tuple[np.ndarray, StateDict, list[str]]:
    rng = np.random.default_rng(seed)
    state = linear_state(rng, names, sizes, biases or [True] * len(names), scale)
    return np.round(rng.normal(size=(rows, sizes[0])), 3), state, hooked


FORWARD_WITH_HOOKS = Task(
    name="forward_with_hooks", reference=forward_with_hooks_reference,
    examples=[_seed_like_case(), _small_case(["fc1", "fc2"], [2, 3, 2], ["fc1", "fc2"])],
    clauses=[
        Clause("a Linear layer computes `x @ weight.T + bias` (weight has shape `(out_features, in_features)`)",
               _small_case(["fc"], [4, 2], ["fc"], seed=1)),
        Clause("a Linear layer computes `x @ weight.T + bias` (weight has shape `(out_features, in_features)`)",
               _small_case(["a", "b"], [3, 3, 3], [], seed=2)),
        Clause("`activation[name]` is what the hook of layer `name` received as `output`: the Linear's output, before the ReLU",
               _small_case(["fc1", "fc2", "fc3"], [3, 4, 4, 2], ["fc1", "fc2"], seed=3)),
        Clause("ReLU after every layer but the last", _small_case(["fc1", "fc2"], [3, 4, 2], [], seed=4)),
        Clause("`log_softmax` over the classes (dim 1) at the end", _small_case(["fc1"], [3, 4], [], rows=3, seed=6)),
        Clause("`log_softmax` [...] computed stably: logits in the hundreds must not overflow",
               (np.array([[2.0, 3.0, 1.0], [-1.0, 1.0, 2.0]]),
                {"fc1.weight": np.array([[400.0, 0.0, 0.0], [0.0, 300.0, 0.0]]), "fc1.bias": np.array([0.5, -0.5])}, ["fc1"])),
        Clause("a layer made with `bias=False` has no `.bias` entry", _small_case(["fc1", "fc2"], [3, 4, 2], ["fc1"], [False, True], seed=8)),
        Clause("the layer's name is everything before the last dot (`'blocks.1.proj.weight'` belongs to `'blocks.1.proj'`)",
               _small_case(["encoder.0", "blocks.1.proj"], [3, 4, 2], ["encoder.0", "blocks.1.proj"], seed=9)),
        Clause("only the hooked layers are in `activation` (none hooked: an empty dict)", _small_case(["fc1", "fc2", "fc3"], [2, 3, 3, 2], ["fc2"], seed=10)),
        Clause("only the hooked layers are in `activation` (none hooked: an empty dict)", _small_case(["fc1", "fc2"], [2, 3, 2], [], seed=11)),
        Clause("A single layer is the whole model (no ReLU)", _small_case(["head"], [3, 3], ["head"], seed=13)),
        Clause("the batch may be empty (0 rows)", _small_case(["fc1", "fc2"], [3, 4, 2], ["fc1"], rows=0, seed=14)),
        Clause("`x` may be a non-contiguous view; do not change the inputs",
               (np.arange(6.0).reshape(3, 2).T / 4, linear_state(np.random.default_rng(15), ["fc1", "fc2"], [3, 2, 2], [True, True]), ["fc1"])),
    ],
    random_case=random_forward_case, tolerance=LOSS_TOLERANCE, allowed=FORWARD_ALLOWED,
    inputs=("1 to 5 Linear layers of 1 to 6 features (at least 2 classes), some without a bias, names with "
            "dots (`encoder.0`, `blocks.1.proj`), any subset of them hooked (none, or all); a batch of 0 to 4 "
            "rows, now and then a transposed (non-contiguous) `x`; weights large enough that the logits reach "
            "the hundreds."),
    hint="Which value does a forward hook receive: the layer's output before or after the function that "
    "forward calls next? And how can log-softmax avoid exponentiating large numbers?",
)


# --- 3. cross entropy = log_softmax + NLL ---------------------------------------------------------
def cross_entropy_reference(logits: np.ndarray, target: np.ndarray, weight: np.ndarray | None,
                            ignore_index: int, label_smoothing: float) -> float:
    """F.cross_entropy with reduction='mean' (a weighted mean over the targets that count)."""
    import tensorlab
    import tensorlab.nn.functional as F

    loss = F.cross_entropy(tensorlab.tensor(logits), tensorlab.tensor(target),
                           weight=None if weight is None else tensorlab.tensor(weight),
                           ignore_index=ignore_index, label_smoothing=label_smoothing)
    return float(loss.item())


def random_cross_entropy_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, int, float]:
    """N in 0..6, C in 1..5; weights half the time, ignored targets (ignore_index -100 or a real class)
    a third of the time, label smoothing half the time, large logits now and then, a transposed logits."""
    rows, classes = (0 if rng.random() < 0.06 else int(rng.integers(1, 7))), int(rng.integers(1, 6))
    scale = 200.0 if rng.random() < 0.15 else 2.0
    if rng.random() < 0.25:
        logits = np.round(rng.normal(size=(classes, rows)) * scale, 3).T
    else:
        logits = np.round(rng.normal(size=(rows, classes)) * scale, 3)
    target = rng.integers(0, classes, size=rows).astype(np.int64)
    ignore_index = -100 if rng.random() < 0.7 else int(rng.integers(0, classes))
    if rng.random() < 0.35 and rows:
        target[rng.random(rows) < 0.4] = ignore_index
    weight = np.round(rng.random(classes) * 2 + 0.1, 3) if rng.random() < 0.5 else None
    smoothing = float(rng.choice([0.1, 0.25, 0.5, 1.0])) if rng.random() < 0.5 else 0.0
    return logits, target, weight, ignore_index, smoothing


def large_cross_entropy_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, float]:
    rows, classes = 3000, 5
    target = rng.integers(0, classes, size=rows).astype(np.int64)
    target[rng.random(rows) < 0.1] = -100
    return rng.normal(size=(rows, classes)), target, rng.random(classes) + 0.5, -100, 0.1


SEED_X = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
SEED_Y = np.array([0, 1, 2])
RAMP_LOGITS = np.array([[2.0, -1.0, 0.5], [0.0, 3.0, -2.0], [1.5, 1.5, -0.5], [-1.0, 0.25, 2.0]])
RAMP_TARGET = np.array([0, 2, 1, 2])
CLASS_WEIGHT = np.array([0.5, 2.0, 1.25])

CROSS_ENTROPY = Task(
    name="cross_entropy", reference=cross_entropy_reference,
    examples=[(SEED_X, SEED_Y, None, -100, 0.0), (RAMP_LOGITS, RAMP_TARGET, None, -100, 0.0)],
    clauses=[
        Clause("Compute it stably (logits in the thousands must give a finite loss)",
               (np.array([[1000.0, 0.0, -1000.0], [-500.0, 800.0, 0.0]]), np.array([1, 0]), None, -100, 0.0)),
        Clause("Compute it stably (logits in the thousands must give a finite loss)",
               (np.array([[-1000.0, -1001.0]]), np.array([1]), None, -100, 0.0)),
        Clause("compute in float64, the logits' dtype: a confident right prediction has a tiny loss, not 0",
               (np.array([[18.0, 0.0], [0.0, 19.0]]), np.array([0, 1]), None, -100, 0.0)),
        Clause("a target equal to `ignore_index` counts neither in the sum nor in the count",
               (RAMP_LOGITS, np.array([0, -100, 1, -100]), None, -100, 0.0)),
        Clause("`ignore_index` may be a real class (here 2)", (RAMP_LOGITS, RAMP_TARGET, None, 2, 0.0)),
        Clause("with `weight`, sample i counts `weight[target[i]]` times: divide by the sum of those weights, not by N",
               (RAMP_LOGITS, RAMP_TARGET, CLASS_WEIGHT, -100, 0.0)),
        Clause("with `weight`, [...] divide by the sum of those weights (of the targets that count)",
               (RAMP_LOGITS, np.array([1, -100, 0, 1]), CLASS_WEIGHT, -100, 0.0)),
        Clause("label smoothing: `(1 - ε) * nll + ε * smooth`, smooth the mean over the classes of `-log p`",
               (RAMP_LOGITS, RAMP_TARGET, None, -100, 0.2)),
        Clause("label smoothing: [...] mean over the C classes (not C - 1)", (RAMP_LOGITS[:, :2], np.array([0, 1, 1, 0]), None, -100, 1.0)),
        Clause("label smoothing with `weight`: the smooth term weights class c by `weight[c]` and is divided by the same sum",
               (RAMP_LOGITS, RAMP_TARGET, CLASS_WEIGHT, -100, 0.3)),
        Clause("label smoothing [...]: ignored targets count in neither term", (RAMP_LOGITS, np.array([0, -100, 1, 2]), CLASS_WEIGHT, -100, 0.5)),
        Clause("If no target counts (all ignored, or N = 0), the mean is 0 / 0: return nan",
               (RAMP_LOGITS, np.array([-100, -100, -100, -100]), None, -100, 0.0)),
        Clause("If no target counts (all ignored, or N = 0), the mean is 0 / 0: return nan", (np.zeros((0, 3)), np.zeros(0, dtype=np.int64), None, -100, 0.1)),
        Clause("one class: every log-probability is 0", (np.array([[3.0], [-2.0]]), np.array([0, 0]), None, -100, 0.0)),
        Clause("`logits` may be a non-contiguous view; do not change the inputs", (np.linspace(-3.0, 3.0, 24).reshape(3, 8)[:, ::2].T, RAMP_TARGET, CLASS_WEIGHT, -100, 0.1)),
    ],
    random_case=random_cross_entropy_case, tolerance=LOSS_TOLERANCE, vectorised=True, large_case=large_cross_entropy_case,
    allowed=CROSS_ENTROPY_ALLOWED,
    inputs=("`logits` of 0 to 6 rows (3000 in the large case) and 1 to 5 classes, a few units or in the "
            "hundreds (thousands in a clause), now and then a transposed (non-contiguous) view; int64 targets; "
            "`weight` None or positive; `ignore_index` -100 or a real class, with some targets ignored (at times "
            "all of them); `label_smoothing` 0 or up to 1."),
    hint="Which rows count, how much does each counted row weigh, and what must both the likelihood term and "
    "the smoothing term be divided by?",
)


# --- 4. AUROC, ties counted half --------------------------------------------------------------------
def binary_auroc_reference(scores: np.ndarray, labels: np.ndarray) -> float:
    """torcheval's binary_auroc (tensorlab.metrics): 0.5 when only one class is present."""
    import tensorlab
    from tensorlab.metrics import binary_auroc

    return float(binary_auroc(tensorlab.tensor(np.asarray(scores, dtype=np.float64)),
                              tensorlab.tensor(np.asarray(labels, dtype=np.float64))).item())


def random_auroc_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """0 to 30 scores, often rounded to one decimal (many ties); labels 0/1 as int, float or bool;
    now and then only one class; one time in four the scores are a strided view."""
    n = 0 if rng.random() < 0.04 else int(rng.integers(1, 31))
    scores = rng.random(2 * n)
    scores = np.round(scores, 1) if rng.random() < 0.6 else np.round(scores, 4)
    scores = scores[::2] if rng.random() < 0.25 else scores[:n].copy()
    chance = float(rng.choice([0.0, 1.0])) if rng.random() < 0.1 else float(rng.uniform(0.2, 0.8))
    labels = (rng.random(n) < np.clip(chance + (scores - 0.5) * rng.uniform(0, 1), 0, 1)).astype(np.int64)
    kind = rng.random()
    return scores, labels.astype(np.float64) if kind < 0.25 else labels.astype(bool) if kind < 0.4 else labels


def large_auroc_case(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    n = 4000
    scores = np.round(rng.random(n), 4)  # thousands of distinct values (and some ties): a loop over them is a loop
    return scores, (rng.random(n) < scores).astype(np.int64)


BINARY_AUROC = Task(
    name="binary_auroc", reference=binary_auroc_reference,
    examples=[(np.array([0.1, 0.4, 0.35, 0.8]), np.array([0, 0, 1, 1])), (np.array([0.9, 0.8, 0.3, 0.1]), np.array([1, 1, 0, 0]))],
    clauses=[
        Clause("a pair where the positive scores lower counts 0", (np.array([0.2, 0.9]), np.array([1, 0]))),
        Clause("a tie between a positive and a negative counts one half", (np.array([0.5, 0.5]), np.array([1, 0]))),
        Clause("a tie between a positive and a negative counts one half",
               (np.array([0.3, 0.7, 0.7, 0.7, 0.1, 0.7]), np.array([0, 1, 0, 1, 0, 0]))),
        Clause("a tie [...] counts one half (all scores equal: 0.5)", (np.full(5, 0.25), np.array([1, 0, 1, 1, 0]))),
        Clause("ties among positives (or among negatives) do not matter", (np.array([0.9, 0.9, 0.2, 0.2, 0.5]), np.array([1, 1, 0, 0, 0]))),
        Clause("the scores are any real numbers, not probabilities: no threshold at 0.5",
               (np.array([-3.0, 2.0, 7.5, 11.0, 0.4]), np.array([0, 0, 1, 1, 1]))),
        Clause("the scores are any real numbers, not probabilities: no threshold at 0.5",
               (np.array([0.1, 0.2, 0.3, 0.45]), np.array([0, 1, 0, 1]))),
        Clause("If only one class is present (or there are no scores), return 0.5", (np.array([0.3, 0.9]), np.array([1, 1]))),
        Clause("If only one class is present (or there are no scores), return 0.5", (np.array([0.3, 0.9, 0.1]), np.array([0, 0, 0]))),
        Clause("If only one class is present (or there are no scores), return 0.5", (np.zeros(0), np.zeros(0, dtype=np.int64))),
        Clause("`labels` may be ints, floats or bools", (np.array([0.2, 0.6, 0.6, 0.9]), np.array([False, True, False, True]))),
        Clause("`labels` may be ints, floats or bools", (np.array([0.2, 0.6, 0.4, 0.9]), np.array([1.0, 0.0, 0.0, 1.0]))),
        Clause("`scores` may be a non-contiguous view; do not change the inputs",
               (np.array([0.5, 9.0, 0.1, 9.0, 0.5, 9.0, 0.7, 9.0])[::2], np.array([1, 0, 0, 1]))),
    ],
    random_case=random_auroc_case, tolerance=LOSS_TOLERANCE, vectorised=True, large_case=large_auroc_case,
    allowed=AUROC_ALLOWED,
    inputs=("0 to 30 scores (4000 in the large case), any real numbers, often with ties, now and then a strided "
            "(non-contiguous) view; `labels` 0/1 as int64, float64 or bool, at times of a single class."),
    hint="If you compare every positive with every negative at once, what does a win, a loss and a tie each "
    "add, and what is the answer when one of the two sides is empty?",
)


# --- 5. the loss/activation mismatch ---------------------------------------------------------------
SHAPE_ONLY = frozenset({"Dropout", "Flatten", "Identity"})  # layers that do not change what the scores mean
ACTIVATIONS = frozenset({"Softmax", "LogSoftmax", "Sigmoid", "LogSigmoid", "ReLU", "Tanh"})
EXPECTS = {"CrossEntropyLoss": None, "NLLLoss": "LogSoftmax", "BCEWithLogitsLoss": None, "BCELoss": "Sigmoid"}


def final_activation(layers: list[str]) -> str | None:
    """The activation the model ends with, looking past Dropout/Flatten/Identity; None for raw scores."""
    for layer in reversed(layers):
        if layer not in SHAPE_ONLY:
            return layer if layer in ACTIVATIONS else None
    return None


def loss_mismatch_reference(layers: list[str], loss: str) -> str | None:
    """None when ``loss`` gets what it expects; else the fix: 'remove X', 'add Y' or 'replace X with Y'.

    CrossEntropyLoss and BCEWithLogitsLoss want raw scores (logits), NLLLoss log-probabilities
    (LogSoftmax), BCELoss probabilities (Sigmoid). LogSoftmax before CrossEntropyLoss is fine:
    log_softmax of log-probabilities changes nothing, so the loss is the same. Other losses
    (MSELoss, L1Loss, ...) take any output.
    """
    if loss not in EXPECTS:
        return None
    have, want = final_activation(layers), EXPECTS[loss]
    if have == want or (loss == "CrossEntropyLoss" and have == "LogSoftmax"):
        return None
    if want is None:
        return f"remove {have}"
    if have is None:
        return f"add {want}"
    return f"replace {have} with {want}"


LOSSES = ("CrossEntropyLoss", "CrossEntropyLoss", "NLLLoss", "BCEWithLogitsLoss", "BCELoss", "MSELoss", "L1Loss")
MIDDLE = ("Linear", "ReLU", "Tanh", "Dropout", "Conv2d", "Flatten", "LayerNorm", "GELU")
ENDINGS = (None, None, "Softmax", "LogSoftmax", "Sigmoid", "LogSigmoid", "ReLU", "Tanh", "GELU", "LayerNorm")  # the
# last two are no activation of the statement's list: the model still outputs raw scores


def random_mismatch_case(rng: np.random.Generator) -> tuple[list[str], str]:
    """Linear/conv blocks, an ending (often none, often a softmax or sigmoid), sometimes a trailing
    Dropout/Identity/Flatten; rarely no layers at all."""
    if rng.random() < 0.04:
        return [], str(rng.choice(LOSSES))
    layers = ["Linear"]
    for _ in range(int(rng.integers(0, 4))):
        layers += [str(rng.choice(MIDDLE)), "Linear"]
    ending = ENDINGS[int(rng.integers(0, len(ENDINGS)))]
    if ending is not None:
        layers.append(ending)
    if rng.random() < 0.25:
        layers.append(str(rng.choice(sorted(SHAPE_ONLY))))
    return layers, str(rng.choice(LOSSES))


LOSS_MISMATCH = Task(
    name="loss_mismatch", reference=loss_mismatch_reference,
    examples=[(["Linear", "ReLU", "Linear", "Softmax"], "CrossEntropyLoss"), (["Linear", "ReLU", "Linear"], "CrossEntropyLoss"),
              (["Linear", "Sigmoid"], "BCELoss")],
    clauses=[
        Clause("`CrossEntropyLoss` [...] wants raw scores: a final activation must go (`'remove Softmax'`)",
               (["Linear", "Softmax"], "CrossEntropyLoss")),
        Clause("`CrossEntropyLoss` [...] wants raw scores: a final activation must go", (["Linear", "ReLU"], "CrossEntropyLoss")),
        Clause("`BCEWithLogitsLoss` wants raw scores", (["Linear", "Sigmoid"], "BCEWithLogitsLoss")),
        Clause("`BCEWithLogitsLoss` wants raw scores", (["Linear", "ReLU", "Linear"], "BCEWithLogitsLoss")),
        Clause("`NLLLoss` wants log-probabilities from `LogSoftmax`: raw scores need `'add LogSoftmax'`", (["Linear", "ReLU", "Linear"], "NLLLoss")),
        Clause("`NLLLoss` wants log-probabilities [...] another activation is replaced (`'replace Softmax with LogSoftmax'`)",
               (["Linear", "Softmax"], "NLLLoss")),
        Clause("`NLLLoss` wants log-probabilities from `LogSoftmax`", (["Linear", "LogSoftmax"], "NLLLoss")),
        Clause("`BCELoss` wants probabilities from `Sigmoid`", (["Linear", "ReLU", "Linear"], "BCELoss")),
        Clause("`BCELoss` wants probabilities from `Sigmoid`", (["Linear", "Softmax"], "BCELoss")),
        Clause("`LogSoftmax` before `CrossEntropyLoss` is not a mismatch (log_softmax of log-probabilities changes nothing)",
               (["Linear", "LogSoftmax"], "CrossEntropyLoss")),
        Clause("`BCEWithLogitsLoss` wants raw scores (`LogSoftmax` is excused before `CrossEntropyLoss` only)",
               (["Linear", "LogSoftmax"], "BCEWithLogitsLoss")),
        Clause("`LogSigmoid` is an activation too", (["Linear", "LogSigmoid"], "CrossEntropyLoss")),
        Clause("`Dropout`, `Flatten` and `Identity` after the activation do not hide it", (["Linear", "Softmax", "Dropout"], "CrossEntropyLoss")),
        Clause("`Dropout`, `Flatten` and `Identity` after the activation do not hide it",
               (["Linear", "Sigmoid", "Identity", "Flatten"], "BCELoss")),
        Clause("an activation in the middle of the model (followed by another layer) does not count",
               (["Linear", "Softmax", "Linear"], "CrossEntropyLoss")),
        Clause("Other losses (`MSELoss`, `L1Loss`, ...) take any output: `None`", (["Linear", "Sigmoid"], "MSELoss")),
        Clause("A model with no layers outputs raw scores", ([], "NLLLoss")),
        Clause("if that layer is one of [...]; otherwise the model outputs raw scores", (["Linear", "GELU"], "CrossEntropyLoss")),
        Clause("if that layer is one of [...]; otherwise the model outputs raw scores",
               (["Linear", "Sigmoid", "LayerNorm", "Dropout"], "BCELoss")),
    ],
    random_case=random_mismatch_case, allowed=MISMATCH_ALLOWED,
    inputs=("Models of 0 to 9 layers: `Linear` blocks with `Conv2d`, `ReLU`, `Tanh`, `GELU`, `LayerNorm`, "
            "`Dropout` or `Flatten` between them, a final activation, none, or a last `GELU` or `LayerNorm` (no "
            "activation of the list), then now and then one or two of `Dropout`, `Flatten`, `Identity`; `loss` is one of `CrossEntropyLoss`, `NLLLoss`, "
            "`BCEWithLogitsLoss`, `BCELoss`, `MSELoss`, `L1Loss`."),
    hint="What does each loss expect to receive (raw scores, probabilities or log-probabilities), and which "
    "layer really is the model's last activation once the layers that only reshape or drop values are skipped?",
)

EXERCISE = Exercise(notebook="modules_losses", tasks=(STATE_DICT_SHAPES, FORWARD_WITH_HOOKS, CROSS_ENTROPY, BINARY_AUROC, LOSS_MISMATCH))
