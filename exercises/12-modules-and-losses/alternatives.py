"""Correct answers of exercise 12 (modules and losses) written other ways than the solution: each must keep full marks."""

from tensorlab.grading import Alternative

ALTERNATIVES = [
    # --- state_dict_shapes ---------------------------------------------------------------------
    Alternative("state_dict_shapes", "explicit-stack-preorder", '''
def state_dict_shapes(attributes):
    """No recursion: a stack of (prefix, assignments), visited in preorder."""
    result = []
    stack = [("", attributes)]
    while stack:
        prefix, assignments = stack.pop()
        params = [(prefix + name, tuple(int(s) for s in value)) for name, kind, value in assignments if kind == "parameter"]
        buffers = [(prefix + name, tuple(int(s) for s in value)) for name, kind, value in assignments if kind == "buffer"]
        result.extend(params + buffers)
        children = []
        for name, kind, value in assignments:
            if kind == "linear":
                n_in, n_out, bias = value
                linear = [("weight", "parameter", (n_out, n_in))]
                if bias:
                    linear.append(("bias", "parameter", (n_out,)))
                children.append((prefix + name + ".", linear))
            elif kind == "module":
                children.append((prefix + name + ".", value))
            elif kind == "module_list":
                for index, item in enumerate(value):
                    children.append((prefix + name + "." + str(index) + ".", item))
        stack.extend(reversed(children))  # the first child is popped first
    return result
'''),
    Alternative("state_dict_shapes", "normalise-then-stable-sort-generator", '''
RANK = {"parameter": 0, "buffer": 1, "linear": 2, "module": 2, "module_list": 2}


def normalised(attributes):
    """Every linear and module_list rewritten as a plain submodule; unregistered things dropped."""
    out = []
    for name, kind, value in attributes:
        if kind == "linear":
            fan_in, fan_out, has_bias = value
            inner = [("weight", "parameter", (fan_out, fan_in))] + ([("bias", "parameter", (fan_out,))] if has_bias else [])
            out.append((name, "module", inner))
        elif kind == "module_list":
            out.append((name, "module", [(str(i), "module", item) for i, item in enumerate(value)]))
        elif kind in RANK:
            out.append((name, kind, value))
    return sorted(out, key=lambda entry: RANK[entry[1]])  # stable: assignment order kept within a rank


def entries(attributes, prefix):
    for name, kind, value in normalised(attributes):
        if kind == "module":
            yield from entries(value, prefix + name + ".")
        else:
            yield prefix + name, tuple(map(int, value))


def state_dict_shapes(attributes):
    return list(entries(attributes, ""))
'''),

    # --- forward_with_hooks -----------------------------------------------------------------------
    Alternative("forward_with_hooks", "dict-fromkeys-dot-logaddexp-reduce", '''
import numpy as np

def forward_with_hooks(x, state_dict, hooked):
    layers = list(dict.fromkeys(key.rsplit(".", 1)[0] for key in state_dict))
    activation = {}
    h = np.array(x, dtype=float)
    for i, layer in enumerate(layers):
        out = np.dot(h, np.transpose(state_dict[layer + ".weight"]))
        bias = state_dict.get(layer + ".bias")
        if bias is not None:
            out = out + bias
        if layer in hooked:
            activation[layer] = out.copy()
        h = np.where(out > 0, out, 0.0) if i + 1 < len(layers) else out
    log_norm = np.logaddexp.reduce(h, axis=1, keepdims=True)
    return h - log_norm, activation
'''),
    Alternative("forward_with_hooks", "groupby-einsum-recursive-forward", '''
import itertools
import numpy as np

def run(h, layers, hooked, activation):
    if not layers:
        return h
    (name, params), rest = layers[0], layers[1:]
    out = np.einsum("bi,oi->bo", h, params["weight"])
    if "bias" in params:
        out = out + params["bias"]
    if name in hooked:
        activation[name] = out
    return run(np.maximum(out, 0.0) if rest else out, rest, hooked, activation)


def forward_with_hooks(x, state_dict, hooked):
    layers = []
    for name, group in itertools.groupby(state_dict.items(), key=lambda item: item[0].rpartition(".")[0]):
        layers.append((name, {key.rpartition(".")[2]: value for key, value in group}))
    activation = {}
    logits = run(x, layers, hooked, activation)
    top = np.max(logits, axis=1, keepdims=True)
    log_sum = top + np.log(np.sum(np.exp(logits - top), axis=1, keepdims=True))
    return logits - log_sum, activation
'''),

    # --- cross_entropy ---------------------------------------------------------------------------
    Alternative("cross_entropy", "one-hot-target-distribution", '''
import numpy as np

def cross_entropy(logits, target, weight, ignore_index, label_smoothing):
    n, classes = logits.shape
    top = np.max(logits, axis=1, keepdims=True)
    log_p = logits - top - np.log(np.sum(np.exp(logits - top), axis=1, keepdims=True))
    class_weight = np.ones(classes) if weight is None else np.asarray(weight, dtype=float)
    counts = (target != ignore_index)[:, None]
    one_hot = target[:, None] == np.arange(classes)[None, :]
    # the smoothed target distribution, every class weighted by its own weight, ignored rows zeroed
    q = ((1 - label_smoothing) * one_hot + label_smoothing / classes) * class_weight * counts
    total = np.sum(one_hot * counts * class_weight)
    with np.errstate(invalid="ignore", divide="ignore"):
        return float(-np.sum(q * log_p) / total)
'''),
    Alternative("cross_entropy", "take-along-axis-and-dot-products", '''
import numpy as np

def cross_entropy(logits, target, weight, ignore_index, label_smoothing):
    classes = logits.shape[1]
    peak = logits.max(axis=1)
    log_norm = peak + np.log(np.exp(logits - peak[:, None]).sum(axis=1))
    valid = target != ignore_index
    safe = np.where(valid, target, 0)
    class_weight = np.ones(classes) if weight is None else weight
    w = np.where(valid, class_weight[safe], 0.0)
    picked = np.take_along_axis(logits, safe[:, None], axis=1)[:, 0] - log_norm
    nll_sum = -np.dot(w, picked)
    # sum_c weight[c] * log p[i, c] = logits[i] @ weight - log_norm[i] * weight.sum()
    per_row = logits @ class_weight - log_norm * class_weight.sum()
    smooth_sum = -np.dot(valid.astype(float), per_row) / classes
    denominator = w.sum()
    with np.errstate(invalid="ignore", divide="ignore"):
        return float(((1 - label_smoothing) * nll_sum + label_smoothing * smooth_sum) / denominator)
'''),

    Alternative("cross_entropy", "eye-one-hot-einsum", '''
import numpy as np

def cross_entropy(logits, target, weight, ignore_index, label_smoothing):
    n, classes = logits.shape
    class_weight = np.ones(classes) if weight is None else weight
    counted = target != ignore_index
    one_hot = np.eye(classes)[np.where(counted, target, 0)] * counted[:, None]
    peak = np.max(logits, axis=1, keepdims=True)
    log_p = logits - peak - np.log(np.sum(np.exp(logits - peak), axis=1, keepdims=True))
    row_weight = one_hot @ class_weight
    nll = -np.einsum("nc,nc,c->", one_hot, log_p, class_weight)
    smooth = -np.einsum("n,nc,c->", counted.astype(float), log_p, class_weight) / classes
    with np.errstate(invalid="ignore", divide="ignore"):
        return float(((1 - label_smoothing) * nll + label_smoothing * smooth) / row_weight.sum())
'''),

    # --- binary_auroc ----------------------------------------------------------------------------
    Alternative("binary_auroc", "mann-whitney-midranks", '''
import numpy as np

def binary_auroc(scores, labels):
    positive = np.asarray(labels).astype(bool)
    n_pos = int(positive.sum())
    n_neg = positive.size - n_pos
    if n_pos == 0 or n_neg == 0:
        return 0.5
    _, inverse, counts = np.unique(scores, return_inverse=True, return_counts=True)
    last_rank = np.cumsum(counts)  # 1-based rank of the last member of each tied group
    midrank = last_rank - (counts - 1) / 2
    rank_sum = midrank[inverse.ravel()][positive].sum()
    return float((rank_sum - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))
'''),
    Alternative("binary_auroc", "searchsorted-sorted-negatives", '''
import numpy as np

def binary_auroc(scores, labels):
    is_pos = np.asarray(labels) != 0
    pos = np.asarray(scores)[is_pos]
    neg = np.sort(np.asarray(scores)[~is_pos])
    if pos.size == 0 or neg.size == 0:
        return 0.5
    below = np.searchsorted(neg, pos, side="left")    # negatives strictly lower
    not_above = np.searchsorted(neg, pos, side="right")  # negatives lower or tied
    return float((below + not_above).sum() / 2 / (pos.size * neg.size))
'''),
    Alternative("binary_auroc", "roc-curve-trapezoid", '''
import numpy as np

def binary_auroc(scores, labels):
    y = np.asarray(labels, dtype=float)
    n_pos = y.sum()
    n_neg = y.size - n_pos
    if n_pos == 0 or n_neg == 0:
        return 0.5
    order = np.argsort(-np.asarray(scores), kind="stable")
    s, y = np.asarray(scores)[order], y[order]
    last_of_tie = np.r_[s[1:] != s[:-1], True]  # one ROC point per distinct threshold
    tpr = np.r_[0.0, np.cumsum(y)[last_of_tie]] / n_pos
    fpr = np.r_[0.0, np.cumsum(1 - y)[last_of_tie]] / n_neg
    return float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2))
'''),
    Alternative("binary_auroc", "mean-of-sign-of-differences", '''
import numpy as np

def binary_auroc(scores, labels):
    positive = np.asarray(labels).astype(bool)
    pos, neg = scores[positive], scores[~positive]
    if pos.size == 0 or neg.size == 0:
        return 0.5
    # sign is +1 for a win, 0 for a tie, -1 for a loss: its mean maps to [0, 1] by (m + 1) / 2
    return float((np.sign(np.subtract.outer(pos, neg)).mean() + 1) / 2)
'''),
    # --- loss_mismatch ---------------------------------------------------------------------------
    Alternative("loss_mismatch", "strip-trailing-then-table", '''
def loss_mismatch(layers, loss):
    rest = list(layers)
    while rest and rest[-1] in {"Dropout", "Flatten", "Identity"}:
        rest.pop()
    last = rest[-1] if rest else None
    have = last if last in {"Softmax", "LogSoftmax", "Sigmoid", "LogSigmoid", "ReLU", "Tanh"} else None
    if loss in ("CrossEntropyLoss", "BCEWithLogitsLoss"):
        if have is None or (have == "LogSoftmax" and loss == "CrossEntropyLoss"):
            return None
        return "remove " + have
    target = {"NLLLoss": "LogSoftmax", "BCELoss": "Sigmoid"}.get(loss)
    if target is None or have == target:
        return None
    return "add " + target if have is None else "replace " + have + " with " + target
'''),
    Alternative("loss_mismatch", "match-statement-next-generator", '''
SHAPE_ONLY = ("Dropout", "Flatten", "Identity")
ACTIVATIONS = ("Softmax", "LogSoftmax", "Sigmoid", "LogSigmoid", "ReLU", "Tanh")


def loss_mismatch(layers, loss):
    last = next((layer for layer in layers[::-1] if layer not in SHAPE_ONLY), None)
    have = last if last in ACTIVATIONS else None
    match loss, have:
        case ("CrossEntropyLoss" | "BCEWithLogitsLoss", None) | ("CrossEntropyLoss", "LogSoftmax"):
            return None
        case ("CrossEntropyLoss" | "BCEWithLogitsLoss", activation):
            return f"remove {activation}"
        case ("NLLLoss", "LogSoftmax") | ("BCELoss", "Sigmoid"):
            return None
        case ("NLLLoss" | "BCELoss", None):
            return "add " + ("LogSoftmax" if loss == "NLLLoss" else "Sigmoid")
        case ("NLLLoss" | "BCELoss", activation):
            return f"replace {activation} with " + ("LogSoftmax" if loss == "NLLLoss" else "Sigmoid")
        case _:
            return None
'''),
    Alternative('state_dict_shapes', 'recursion-with-a-prefix-argument', '''
def state_dict_shapes(attributes, prefix=""):
    params = [(prefix + name, tuple(value)) for name, kind, value in attributes if kind == "parameter"]
    buffers = [(prefix + name, tuple(value)) for name, kind, value in attributes if kind == "buffer"]
    rest = []
    for name, kind, value in attributes:
        if kind == "linear":
            rest.append((prefix + name + ".weight", (value[1], value[0])))
            if value[2]:
                rest.append((prefix + name + ".bias", (value[1],)))
        elif kind == "module":
            rest.extend(state_dict_shapes(value, prefix + name + "."))
        elif kind == "module_list":
            for i, item in enumerate(value):
                rest.extend(state_dict_shapes(item, prefix + name + "." + str(i) + "."))
    return params + buffers + rest
'''),
    Alternative('forward_with_hooks', 'dict-fromkeys-and-where', '''
def forward_with_hooks(x, state_dict, hooked):
    layers = list(dict.fromkeys(key.rsplit(".", 1)[0] for key in state_dict))
    activation = {}
    h = x
    for i, name in enumerate(layers):
        h = np.matmul(h, np.transpose(state_dict[name + ".weight"])) + state_dict.get(name + ".bias", 0.0)
        if name in hooked:
            activation[name] = h
        if i != len(layers) - 1:
            h = np.where(h > 0, h, 0.0)
    m = np.max(h, axis=1, keepdims=True)
    return h - m - np.log(np.sum(np.exp(h - m), axis=1, keepdims=True)), activation
'''),
    Alternative('cross_entropy', 'one-hot-mixture-from-eye', '''
def cross_entropy(logits, target, weight, ignore_index, label_smoothing):
    n, c = logits.shape
    log_p = logits - np.logaddexp.reduce(logits, axis=1, keepdims=True) if c else logits
    counts = (target != ignore_index)
    safe = np.where(counts, target, 0)
    cw = np.ones(c) if weight is None else np.asarray(weight, dtype=float)
    onehot = np.eye(c)[safe] if n else np.zeros((0, c))
    q = (1 - label_smoothing) * onehot + label_smoothing / c
    per = -(q * cw * log_p).sum(axis=1)
    denom = (cw[safe] * counts).sum()
    with np.errstate(invalid="ignore", divide="ignore"):
        return float((per * counts).sum() / denom)
'''),
    Alternative('binary_auroc', 'searchsorted-into-sorted-negatives', '''
def binary_auroc(scores, labels):
    positive = labels == 1
    n_pos = int(np.count_nonzero(positive)); n_neg = len(scores) - n_pos
    if n_pos == 0 or n_neg == 0:
        return 0.5
    neg = np.sort(scores[np.logical_not(positive)])
    pos = scores[positive]
    below = np.searchsorted(neg, pos, side="left")
    upto = np.searchsorted(neg, pos, side="right")
    return float((below.sum() + 0.5 * (upto - below).sum()) / (n_pos * n_neg))
'''),
]
