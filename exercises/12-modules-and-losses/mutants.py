"""Mutants of exercise 12 (modules and losses by hand): plausible wrong versions of each graded function."""

from tensorlab.grading.tasks import Mutant


def _state_dict_variant(parameter: str = 'own.append((name, tuple(value)))',
                        buffer: str = 'buffers.append((name, tuple(value)))',
                        linear: str = 'children.append((name, [("weight", (n_out, n_in))] + ([("bias", (n_out,))] if bias else [])))',
                        module_list: str = 'children.append((name, [(f"{i}.{key}", shape) for i, item in enumerate(value) for key, shape in state_dict_shapes(item)]))',
                        extra: str = '',
                        result: str = 'own + buffers + [(f"{name}.{key}", shape) for name, entries in children for key, shape in entries]') -> str:
    """The right answer with one of its lines replaced."""
    return f'''
def state_dict_shapes(attributes):
    own, buffers, children = [], [], []
    for name, kind, value in attributes:
        if kind == "parameter":
            {parameter}
        elif kind == "buffer":
            {buffer}
        elif kind == "linear":
            n_in, n_out, bias = value
            {linear}
        elif kind == "module":
            children.append((name, state_dict_shapes(value)))
        elif kind == "module_list":
            {module_list}
        {extra}
    return {result}
'''


STATE_DICT_SHAPES = [
    Mutant("state_dict_shapes", "plain-tensors-registered", _state_dict_variant(
        extra='elif kind == "tensor":\n            own.append((name, tuple(value)))'),
        nudge="Does assigning a plain tensor to an attribute register it with the module, the way a Parameter is?"),
    Mutant("state_dict_shapes", "non-persistent-buffers-saved", _state_dict_variant(
        extra='elif kind == "buffer_not_persistent":\n            buffers.append((name, tuple(value)))'),
        nudge="What does persistent=False say about whether a buffer is saved in the state dict?"),
    Mutant("state_dict_shapes", "python-list-registered", _state_dict_variant(
        extra='elif kind == "list":\n            children.append((name, [(f"{i}.{key}", shape) for i, item in enumerate(value) '
              'for key, shape in state_dict_shapes(item)]))'),
        nudge="Does a module look inside an ordinary Python list for submodules, the way it does for a ModuleList?"),
    Mutant("state_dict_shapes", "buffers-in-assignment-order", _state_dict_variant(
        buffer='own.append((name, tuple(value)))'),
        nudge="Does a module list its entries purely in assignment order, or its parameters before its buffers?"),
    Mutant("state_dict_shapes", "children-before-own-entries", _state_dict_variant(
        result='[(f"{name}.{key}", shape) for name, entries in children for key, shape in entries] + own + buffers'),
        nudge="Which come first in a module's state dict: its own parameters and buffers, or its submodules'?"),
    Mutant("state_dict_shapes", "linear-weight-as-in-by-out", _state_dict_variant(
        linear='children.append((name, [("weight", (n_in, n_out))] + ([("bias", (n_out,))] if bias else [])))'),
        nudge="Which dimension of a Linear layer's weight is the number of outputs, the first or the second?"),
    Mutant("state_dict_shapes", "linear-always-has-a-bias", _state_dict_variant(
        linear='children.append((name, [("weight", (n_out, n_in)), ("bias", (n_out,))]))'),
        nudge="What does a Linear layer made with bias=False leave out of its state dict?"),
    Mutant("state_dict_shapes", "module-list-counts-from-one", _state_dict_variant(
        module_list='children.append((name, [(f"{i + 1}.{key}", shape) for i, item in enumerate(value) '
                    'for key, shape in state_dict_shapes(item)]))'),
        nudge="From which number does a ModuleList start naming its modules?"),
    Mutant("state_dict_shapes", "module-list-without-index", _state_dict_variant(
        module_list='children.append((name, [entry for item in value for entry in state_dict_shapes(item)]))'),
        nudge="How could two modules of one ModuleList have distinct keys if their position is not part of the name?"),
    Mutant("state_dict_shapes", "shapes-as-lists", _state_dict_variant(
        parameter='own.append((name, list(value)))', buffer='buffers.append((name, list(value)))'),
        nudge="What type does the statement ask each shape to be?"),
    Mutant("state_dict_shapes", "only-the-innermost-name", _state_dict_variant(
        result='own + buffers + [(f"{name}.{key.split(\'.\')[-1]}", shape) for name, entries in children for key, shape in entries]'),
        nudge="When modules are nested, does each level add its own prefix to the key?"),
    Mutant("state_dict_shapes", "calls-tensorlab", '''
def state_dict_shapes(attributes):
    from autograder.exercise import find_task  # the answer key, where the instructor keeps it
    state_dict_shapes_reference = find_task("state_dict_shapes").reference
    return state_dict_shapes_reference(attributes)
''', nudge="Which parts of this exercise are yours to write, and which code is off limits here?"),
]

# The right answer's pieces, so that each mutant changes one thing.
_NAMES = '''    names = []
    for key in state_dict:
        name = key.rpartition(".")[0]
        if name not in names:
            names.append(name)
'''
_LOG_SOFTMAX = '''    shifted = h - h.max(axis=1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True)), activation
'''

FORWARD_WITH_HOOKS = [
    Mutant("forward_with_hooks", "hook-records-after-relu", '''
def forward_with_hooks(x, state_dict, hooked):
''' + _NAMES + '''    activation = {}
    h = x
    for number, name in enumerate(names):
        h = h @ state_dict[name + ".weight"].T
        if name + ".bias" in state_dict:
            h = h + state_dict[name + ".bias"]
        if number < len(names) - 1:
            h = np.maximum(h, 0)
        if name in hooked:
            activation[name] = h
''' + _LOG_SOFTMAX,
        nudge="Is the ReLU part of the Linear layer, or a function called after the layer has returned its output?"),
    Mutant("forward_with_hooks", "weight-not-transposed", '''
def forward_with_hooks(x, state_dict, hooked):
''' + _NAMES + '''    activation = {}
    h = x
    for number, name in enumerate(names):
        w = state_dict[name + ".weight"]
        h = h @ (w if w.shape[0] == h.shape[1] else w.T)
        if name + ".bias" in state_dict:
            h = h + state_dict[name + ".bias"]
        if name in hooked:
            activation[name] = h
        if number < len(names) - 1:
            h = np.maximum(h, 0)
''' + _LOG_SOFTMAX,
        nudge="A Linear weight is stored as outputs by inputs: which way round must it meet the batch, even when it is square?"),
    Mutant("forward_with_hooks", "assumes-every-layer-has-a-bias", '''
def forward_with_hooks(x, state_dict, hooked):
''' + _NAMES + '''    activation = {}
    h = x
    for number, name in enumerate(names):
        h = h @ state_dict[name + ".weight"].T + state_dict[name + ".bias"]
        if name in hooked:
            activation[name] = h
        if number < len(names) - 1:
            h = np.maximum(h, 0)
''' + _LOG_SOFTMAX,
        nudge="What does the state dict hold for a layer made with bias=False?"),
    Mutant("forward_with_hooks", "layer-name-before-the-first-dot", '''
def forward_with_hooks(x, state_dict, hooked):
    names = []
    for key in state_dict:
        name = key.split(".")[0]
        if name not in names:
            names.append(name)
    activation = {}
    h = x
    for number, name in enumerate(names):
        weight = [v for k, v in state_dict.items() if k.startswith(name + ".") and k.endswith("weight")][0]
        bias = [v for k, v in state_dict.items() if k.startswith(name + ".") and k.endswith("bias")]
        h = h @ weight.T
        if bias:
            h = h + bias[0]
        if name in hooked:
            activation[name] = h
        if number < len(names) - 1:
            h = np.maximum(h, 0)
''' + _LOG_SOFTMAX,
        nudge="In a key such as blocks.1.proj.weight, which part names the layer, and which dot separates it from the tensor's name?"),
    Mutant("forward_with_hooks", "relu-after-the-last-layer-too", '''
def forward_with_hooks(x, state_dict, hooked):
''' + _NAMES + '''    activation = {}
    h = x
    for name in names:
        h = h @ state_dict[name + ".weight"].T
        if name + ".bias" in state_dict:
            h = h + state_dict[name + ".bias"]
        if name in hooked:
            activation[name] = h
        h = np.maximum(h, 0)
''' + _LOG_SOFTMAX,
        nudge="Does the model apply a ReLU after its last layer, before the log-softmax?"),
    Mutant("forward_with_hooks", "softmax-instead-of-log-softmax", '''
def forward_with_hooks(x, state_dict, hooked):
''' + _NAMES + '''    activation = {}
    h = x
    for number, name in enumerate(names):
        h = h @ state_dict[name + ".weight"].T
        if name + ".bias" in state_dict:
            h = h + state_dict[name + ".bias"]
        if name in hooked:
            activation[name] = h
        if number < len(names) - 1:
            h = np.maximum(h, 0)
    e = np.exp(h - h.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True), activation
''', nudge="Does the model end with probabilities, or with their logarithms?"),
    Mutant("forward_with_hooks", "log-softmax-without-the-max-shift", '''
def forward_with_hooks(x, state_dict, hooked):
''' + _NAMES + '''    activation = {}
    h = x
    for number, name in enumerate(names):
        h = h @ state_dict[name + ".weight"].T
        if name + ".bias" in state_dict:
            h = h + state_dict[name + ".bias"]
        if name in hooked:
            activation[name] = h
        if number < len(names) - 1:
            h = np.maximum(h, 0)
    return h - np.log(np.exp(h).sum(axis=1, keepdims=True)), activation
''', nudge="What happens to the exponential of a logit in the hundreds, and what can you subtract first without changing the result?"),
    Mutant("forward_with_hooks", "log-softmax-over-dim-0", '''
def forward_with_hooks(x, state_dict, hooked):
''' + _NAMES + '''    activation = {}
    h = x
    for number, name in enumerate(names):
        h = h @ state_dict[name + ".weight"].T
        if name + ".bias" in state_dict:
            h = h + state_dict[name + ".bias"]
        if name in hooked:
            activation[name] = h
        if number < len(names) - 1:
            h = np.maximum(h, 0)
    shifted = h - h.max(axis=0, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=0, keepdims=True)), activation
''', nudge="Which axis holds the classes: the rows of the batch, or the columns?"),
    Mutant("forward_with_hooks", "records-every-layer", '''
def forward_with_hooks(x, state_dict, hooked):
''' + _NAMES + '''    activation = {}
    h = x
    for number, name in enumerate(names):
        h = h @ state_dict[name + ".weight"].T
        if name + ".bias" in state_dict:
            h = h + state_dict[name + ".bias"]
        activation[name] = h
        if number < len(names) - 1:
            h = np.maximum(h, 0)
''' + _LOG_SOFTMAX,
        nudge="Which layers carry a forward hook: all of them, or only those listed in hooked?"),
    Mutant("forward_with_hooks", "records-the-layer-input", '''
def forward_with_hooks(x, state_dict, hooked):
''' + _NAMES + '''    activation = {}
    h = x
    for number, name in enumerate(names):
        if name in hooked:
            activation[name] = h
        h = h @ state_dict[name + ".weight"].T
        if name + ".bias" in state_dict:
            h = h + state_dict[name + ".bias"]
        if number < len(names) - 1:
            h = np.maximum(h, 0)
''' + _LOG_SOFTMAX,
        nudge="Does a forward hook store what the layer received, or what it returned?"),
    Mutant("forward_with_hooks", "relu-changes-the-stored-activation-in-place", '''
def forward_with_hooks(x, state_dict, hooked):
''' + _NAMES + '''    activation = {}
    h = x
    for number, name in enumerate(names):
        h = h @ state_dict[name + ".weight"].T
        if name + ".bias" in state_dict:
            h = h + state_dict[name + ".bias"]
        if name in hooked:
            activation[name] = h
        if number < len(names) - 1:
            np.maximum(h, 0, out=h)
''' + _LOG_SOFTMAX,
        nudge="When the ReLU writes into the same array you stored for the hook, what happens to the stored activation?"),
    Mutant("forward_with_hooks", "calls-tensorlab-modules", '''
import tensorlab

def forward_with_hooks(x, state_dict, hooked):
    from autograder.exercise import find_task  # the answer key, where the instructor keeps it
    forward_with_hooks_reference = find_task("forward_with_hooks").reference
    return forward_with_hooks_reference(x, state_dict, hooked)
''', nudge="Which parts of this exercise are yours to write, and which code is off limits here?"),
]

_LOG_P = '''    classes = logits.shape[1]
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
'''

CROSS_ENTROPY = [
    Mutant("cross_entropy", "log-sum-exp-without-the-max-shift", '''
def cross_entropy(logits, target, weight, ignore_index, label_smoothing):
    classes = logits.shape[1]
    log_p = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
    kept = target != ignore_index
    log_p, target = log_p[kept], target[kept]
    class_weight = np.ones(classes) if weight is None else weight
    w = class_weight[target]
    with np.errstate(divide="ignore", invalid="ignore"):
        nll = -(w * log_p[np.arange(len(target)), target]).sum() / w.sum()
        smooth = -(log_p * class_weight).sum() / classes / w.sum()
    return float((1 - label_smoothing) * nll + label_smoothing * smooth)
''', nudge="What happens to the exponential of a logit in the thousands, and what can you subtract first without changing the result?"),
    Mutant("cross_entropy", "ignored-targets-still-in-the-count", '''
def cross_entropy(logits, target, weight, ignore_index, label_smoothing):
''' + _LOG_P + '''    kept = target != ignore_index
    class_weight = np.ones(classes) if weight is None else weight
    w = np.where(kept, class_weight[np.where(kept, target, 0)], 0.0)
    count = class_weight[np.where(kept, target, 0)].sum()
    picked = log_p[np.arange(len(target)), np.where(kept, target, 0)]
    with np.errstate(divide="ignore", invalid="ignore"):
        nll = -(w * picked).sum() / count
        smooth = -(log_p[kept] * class_weight).sum() / classes / count
    return float((1 - label_smoothing) * nll + label_smoothing * smooth)
''', nudge="Should a sample whose target is ignored still add to what you divide by?"),
    Mutant("cross_entropy", "weighted-sum-divided-by-n", '''
def cross_entropy(logits, target, weight, ignore_index, label_smoothing):
''' + _LOG_P + '''    kept = target != ignore_index
    log_p, target = log_p[kept], target[kept]
    class_weight = np.ones(classes) if weight is None else weight
    w = class_weight[target]
    with np.errstate(divide="ignore", invalid="ignore"):
        nll = -(w * log_p[np.arange(len(target)), target]).sum() / len(target)
        smooth = -(log_p * class_weight).sum() / classes / len(target)
    return float((1 - label_smoothing) * nll + label_smoothing * smooth)
''', nudge="With class weights, is the mean taken over the number of samples or over the sum of their weights?"),
    Mutant("cross_entropy", "smoothing-over-c-minus-1-classes", '''
def cross_entropy(logits, target, weight, ignore_index, label_smoothing):
''' + _LOG_P + '''    kept = target != ignore_index
    log_p, target = log_p[kept], target[kept]
    class_weight = np.ones(classes) if weight is None else weight
    w = class_weight[target]
    with np.errstate(divide="ignore", invalid="ignore"):
        nll = -(w * log_p[np.arange(len(target)), target]).sum() / w.sum()
        others = -(log_p * class_weight).sum() - nll * w.sum()
        smooth = others / max(classes - 1, 1) / w.sum()
    return float((1 - label_smoothing) * nll + label_smoothing * smooth)
''', nudge="Does label smoothing spread its mass over all C classes, or only over the wrong ones?"),
    Mutant("cross_entropy", "smooth-term-ignores-class-weights", '''
def cross_entropy(logits, target, weight, ignore_index, label_smoothing):
''' + _LOG_P + '''    kept = target != ignore_index
    log_p, target = log_p[kept], target[kept]
    class_weight = np.ones(classes) if weight is None else weight
    w = class_weight[target]
    with np.errstate(divide="ignore", invalid="ignore"):
        nll = -(w * log_p[np.arange(len(target)), target]).sum() / w.sum()
        smooth = -log_p.sum() / classes / len(target)
    return float((1 - label_smoothing) * nll + label_smoothing * smooth)
''', nudge="With class weights, does the smoothing term weight each class as the likelihood term does?"),
    Mutant("cross_entropy", "smooth-term-counts-ignored-rows", '''
def cross_entropy(logits, target, weight, ignore_index, label_smoothing):
''' + _LOG_P + '''    kept = target != ignore_index
    class_weight = np.ones(classes) if weight is None else weight
    w = class_weight[target[kept]]
    with np.errstate(divide="ignore", invalid="ignore"):
        nll = -(w * log_p[kept][np.arange(len(w)), target[kept]]).sum() / w.sum()
        smooth = -(log_p * class_weight).sum() / classes / w.sum()
    return float((1 - label_smoothing) * nll + label_smoothing * smooth)
''', nudge="Do the samples with an ignored target still count in the smoothing term?"),
    Mutant("cross_entropy", "forgets-ignore-index", '''
def cross_entropy(logits, target, weight, ignore_index, label_smoothing):
''' + _LOG_P + '''    class_weight = np.ones(classes) if weight is None else weight
    w = class_weight[target]
    with np.errstate(divide="ignore", invalid="ignore"):
        nll = -(w * log_p[np.arange(len(target)), target]).sum() / w.sum()
        smooth = -(log_p * class_weight).sum() / classes / w.sum()
    return float((1 - label_smoothing) * nll + label_smoothing * smooth)
''', nudge="What should happen to a sample whose target equals ignore_index?"),
    Mutant("cross_entropy", "sum-instead-of-mean", '''
def cross_entropy(logits, target, weight, ignore_index, label_smoothing):
''' + _LOG_P + '''    kept = target != ignore_index
    log_p, target = log_p[kept], target[kept]
    class_weight = np.ones(classes) if weight is None else weight
    w = class_weight[target]
    nll = -(w * log_p[np.arange(len(target)), target]).sum()
    smooth = -(log_p * class_weight).sum() / classes
    return float((1 - label_smoothing) * nll + label_smoothing * smooth)
''', nudge="With the default reduction, is the loss a sum over the samples or a mean?"),
    Mutant("cross_entropy", "nothing-counted-gives-zero", '''
def cross_entropy(logits, target, weight, ignore_index, label_smoothing):
''' + _LOG_P + '''    kept = target != ignore_index
    log_p, target = log_p[kept], target[kept]
    class_weight = np.ones(classes) if weight is None else weight
    w = class_weight[target]
    if w.sum() == 0:
        return 0.0
    nll = -(w * log_p[np.arange(len(target)), target]).sum() / w.sum()
    smooth = -(log_p * class_weight).sum() / classes / w.sum()
    return float((1 - label_smoothing) * nll + label_smoothing * smooth)
''', nudge="When no target counts, what is zero divided by zero?"),
    Mutant("cross_entropy", "computes-in-float32", '''
import numpy as np

def cross_entropy(logits, target, weight, ignore_index, label_smoothing):
    logits = logits.astype(np.float32)
    classes = logits.shape[1]
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    kept = target != ignore_index
    log_p, target = log_p[kept], target[kept]
    class_weight = np.ones(classes, dtype=np.float32) if weight is None else weight.astype(np.float32)
    w = class_weight[target]
    with np.errstate(divide="ignore", invalid="ignore"):
        nll = -(w * log_p[np.arange(len(target)), target]).sum() / w.sum()
        smooth = -(log_p * class_weight).sum() / classes / w.sum()
    return (1 - label_smoothing) * nll + label_smoothing * smooth
''', nudge="In which precision does the statement ask you to compute, and does a confident right prediction survive float32?"),
    Mutant("cross_entropy", "loops-over-samples-with-map", '''
def cross_entropy(logits, target, weight, ignore_index, label_smoothing):
''' + _LOG_P + '''    class_weight = np.ones(classes) if weight is None else weight
    rows = list(filter(lambda i: target[i] != ignore_index, range(len(target))))
    w = np.array(list(map(lambda i: class_weight[target[i]], rows)), dtype=float)
    picked = np.array(list(map(lambda i: log_p[i, target[i]], rows)), dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        nll = -(w * picked).sum() / w.sum()
        smooth = -(log_p[rows] * class_weight).sum() / classes / w.sum()
    return float((1 - label_smoothing) * nll + label_smoothing * smooth)
''', nudge="Is a map over the samples anything other than a Python loop, and what would whole-array operations do instead?"),
    Mutant("cross_entropy", "calls-torch-cross-entropy", '''
import torch

def cross_entropy(logits, target, weight, ignore_index, label_smoothing):
    return float(torch.nn.functional.cross_entropy(
        torch.tensor(logits), torch.tensor(target), weight=None if weight is None else torch.tensor(weight),
        ignore_index=ignore_index, label_smoothing=label_smoothing))
''', nudge="Which libraries may this part use, and may PyTorch compute the loss for you?"),
]

BINARY_AUROC = [
    Mutant("binary_auroc", "ties-count-as-wins", '''
def binary_auroc(scores, labels):
    positive = labels == 1
    pos, neg = scores[positive], scores[~positive]
    if len(pos) == 0 or len(neg) == 0:
        return 0.5
    return float((pos[:, None] >= neg[None, :]).sum() / (len(pos) * len(neg)))
''', nudge="When a positive and a negative have the same score, how much should that pair count?"),
    Mutant("binary_auroc", "ties-count-as-losses", '''
def binary_auroc(scores, labels):
    positive = labels == 1
    pos, neg = scores[positive], scores[~positive]
    if len(pos) == 0 or len(neg) == 0:
        return 0.5
    return float((pos[:, None] > neg[None, :]).sum() / (len(pos) * len(neg)))
''', nudge="When a positive and a negative have the same score, should that pair count nothing?"),
    Mutant("binary_auroc", "accuracy-at-threshold-one-half", '''
def binary_auroc(scores, labels):
    if len(scores) == 0 or np.all(labels == 1) or np.all(labels == 0):
        return 0.5
    return float(np.mean((scores > 0.5) == (labels == 1)))
''', nudge="Is the AUROC an accuracy at some threshold, or a comparison between positives and negatives?"),
    Mutant("binary_auroc", "ranks-without-tie-averaging", '''
def binary_auroc(scores, labels):
    positive = labels == 1
    n_pos, n_neg = int(positive.sum()), int((~positive).sum())
    if n_pos == 0 or n_neg == 0:
        return 0.5
    ranks = np.empty(len(scores))
    ranks[np.argsort(scores, kind="stable")] = np.arange(1, len(scores) + 1)
    return float((ranks[positive].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))
''', nudge="When several scores are equal, which rank should each of them get?"),
    Mutant("binary_auroc", "one-class-gives-nan", '''
def binary_auroc(scores, labels):
    positive = labels == 1
    pos, neg = scores[positive], scores[~positive]
    wins = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(np.float64(wins) / (len(pos) * len(neg)))
''', nudge="When only one class is present, what does the statement ask you to return instead of dividing by zero?"),
    Mutant("binary_auroc", "one-class-gives-zero", '''
def binary_auroc(scores, labels):
    positive = labels == 1
    pos, neg = scores[positive], scores[~positive]
    if len(pos) == 0 or len(neg) == 0:
        return 0.0
    wins = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
    return float(wins / (len(pos) * len(neg)))
''', nudge="When only one class is present, what value does torcheval return?"),
    Mutant("binary_auroc", "positives-and-negatives-swapped", '''
def binary_auroc(scores, labels):
    positive = labels == 0
    pos, neg = scores[positive], scores[~positive]
    if len(pos) == 0 or len(neg) == 0:
        return 0.5
    wins = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
    return float(wins / (len(pos) * len(neg)))
''', nudge="Which label marks the positives?"),
    Mutant("binary_auroc", "divides-by-all-pairs", '''
def binary_auroc(scores, labels):
    positive = labels == 1
    pos, neg = scores[positive], scores[~positive]
    if len(pos) == 0 or len(neg) == 0:
        return 0.5
    wins = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
    return float(wins / (len(scores) * len(scores) / 4))
''', nudge="How many positive-negative pairs are there, and is it the same as a quarter of all pairs?"),
    Mutant("binary_auroc", "trapezoid-with-a-step-per-sample", '''
def binary_auroc(scores, labels):
    positive = (labels == 1).astype(float)
    n_pos, n_neg = positive.sum(), (1 - positive).sum()
    if n_pos == 0 or n_neg == 0:
        return 0.5
    order = np.argsort(-scores, kind="stable")
    tp = np.concatenate([[0.0], np.cumsum(positive[order])]) / n_pos
    fp = np.concatenate([[0.0], np.cumsum(1 - positive[order])]) / n_neg
    return float(np.sum((fp[1:] - fp[:-1]) * (tp[1:] + tp[:-1]) / 2))
''', nudge="When tied scores are split into separate steps of the curve, does the area depend on which of them comes first?"),
    Mutant("binary_auroc", "loops-over-positives-with-map", '''
def binary_auroc(scores, labels):
    positive = labels == 1
    pos, neg = scores[positive], scores[~positive]
    if len(pos) == 0 or len(neg) == 0:
        return 0.5
    wins = sum(map(lambda p: (p > neg).sum() + 0.5 * (p == neg).sum(), pos))
    return float(wins / (len(pos) * len(neg)))
''', nudge="Is a map over the positives anything other than a Python loop, and what would one broadcast comparison do instead?"),
    Mutant("binary_auroc", "calls-tensorlab-metrics", '''
import tensorlab
from tensorlab.metrics import binary_auroc as reference

def binary_auroc(scores, labels):
    return float(reference(tensorlab.tensor(scores), tensorlab.tensor(labels.astype(float))).item())
''', nudge="Which libraries may this part use, and may the library's own metric compute it for you?"),
]

_WANTS = '''    wants = {"CrossEntropyLoss": None, "NLLLoss": "LogSoftmax", "BCEWithLogitsLoss": None, "BCELoss": "Sigmoid"}
'''
_FIX = '''    if want is None:
        return f"remove {have}"
    if have is None:
        return f"add {want}"
    return f"replace {have} with {want}"
'''
_HAVE = '''    have = None
    for layer in reversed(layers):
        if layer not in ("Dropout", "Flatten", "Identity"):
            if layer in ("Softmax", "LogSoftmax", "Sigmoid", "LogSigmoid", "ReLU", "Tanh"):
                have = layer
            break
'''

LOSS_MISMATCH = [
    Mutant("loss_mismatch", "flags-log-softmax-before-cross-entropy", '''
def loss_mismatch(layers, loss):
''' + _WANTS + '''    if loss not in wants:
        return None
''' + _HAVE + '''    want = wants[loss]
    if have == want:
        return None
''' + _FIX,
        nudge="What does log-softmax do to values that are already log-probabilities, and so does it harm cross-entropy?"),
    Mutant("loss_mismatch", "excuses-log-softmax-before-every-raw-score-loss", '''
def loss_mismatch(layers, loss):
''' + _WANTS + '''    if loss not in wants:
        return None
''' + _HAVE + '''    want = wants[loss]
    if have == want or (want is None and have == "LogSoftmax"):
        return None
''' + _FIX,
        nudge="Is LogSoftmax harmless before every loss that wants raw scores, or only before the one that applies log-softmax itself?"),
    Mutant("loss_mismatch", "looks-only-at-the-very-last-layer", '''
def loss_mismatch(layers, loss):
''' + _WANTS + '''    if loss not in wants:
        return None
    have = layers[-1] if layers and layers[-1] in ("Softmax", "LogSoftmax", "Sigmoid", "LogSigmoid", "ReLU", "Tanh") else None
    want = wants[loss]
    if have == want or (loss == "CrossEntropyLoss" and have == "LogSoftmax"):
        return None
''' + _FIX,
        nudge="Can a Dropout, Flatten or Identity after the activation hide it?"),
    Mutant("loss_mismatch", "any-activation-anywhere-counts", '''
def loss_mismatch(layers, loss):
''' + _WANTS + '''    if loss not in wants:
        return None
    found = [layer for layer in layers if layer in ("Softmax", "LogSoftmax", "Sigmoid", "LogSigmoid", "ReLU", "Tanh")]
    have = found[-1] if found else None
    want = wants[loss]
    if have == want or (loss == "CrossEntropyLoss" and have == "LogSoftmax"):
        return None
''' + _FIX,
        nudge="Does an activation in the middle of the model decide what the model outputs?"),
    Mutant("loss_mismatch", "nll-loss-takes-raw-scores", '''
def loss_mismatch(layers, loss):
    wants = {"CrossEntropyLoss": None, "NLLLoss": None, "BCEWithLogitsLoss": None, "BCELoss": "Sigmoid"}
    if loss not in wants:
        return None
''' + _HAVE + '''    want = wants[loss]
    if have == want or (loss in ("CrossEntropyLoss", "NLLLoss") and have == "LogSoftmax"):
        return None
''' + _FIX,
        nudge="Does NLLLoss apply a log-softmax itself, or expect log-probabilities?"),
    Mutant("loss_mismatch", "bce-and-bce-with-logits-swapped", '''
def loss_mismatch(layers, loss):
    wants = {"CrossEntropyLoss": None, "NLLLoss": "LogSoftmax", "BCEWithLogitsLoss": "Sigmoid", "BCELoss": None}
    if loss not in wants:
        return None
''' + _HAVE + '''    want = wants[loss]
    if have == want or (loss == "CrossEntropyLoss" and have == "LogSoftmax"):
        return None
''' + _FIX,
        nudge="Which of the two binary losses applies the sigmoid itself?"),
    Mutant("loss_mismatch", "remove-instead-of-replace", '''
def loss_mismatch(layers, loss):
''' + _WANTS + '''    if loss not in wants:
        return None
''' + _HAVE + '''    want = wants[loss]
    if have == want or (loss == "CrossEntropyLoss" and have == "LogSoftmax"):
        return None
    if have is None:
        return f"add {want}"
    return f"remove {have}"
''', nudge="When the loss needs one activation and the model has another, is removing the wrong one enough?"),
    Mutant("loss_mismatch", "only-softmax-and-sigmoid-are-activations", '''
def loss_mismatch(layers, loss):
''' + _WANTS + '''    if loss not in wants:
        return None
    have = None
    for layer in reversed(layers):
        if layer not in ("Dropout", "Flatten", "Identity"):
            if layer in ("Softmax", "LogSoftmax", "Sigmoid"):
                have = layer
            break
    want = wants[loss]
    if have == want or (loss == "CrossEntropyLoss" and have == "LogSoftmax"):
        return None
''' + _FIX,
        nudge="Which layers does the statement count as a final activation, and are ReLU, Tanh and LogSigmoid among them?"),
    Mutant("loss_mismatch", "regression-losses-want-raw-scores", '''
def loss_mismatch(layers, loss):
''' + _WANTS + _HAVE + '''    want = wants.get(loss)
    if have == want or (loss == "CrossEntropyLoss" and have == "LogSoftmax"):
        return None
''' + _FIX,
        nudge="Does a loss like MSELoss care what the model's last activation is?"),
    Mutant("loss_mismatch", "substring-match-softmax", '''
def loss_mismatch(layers, loss):
''' + _WANTS + '''    if loss not in wants:
        return None
''' + _HAVE + '''    if have is not None and "Softmax" in have:
        have = "Softmax"
    want = wants[loss]
    if have == want or (loss == "CrossEntropyLoss" and have == "LogSoftmax"):
        return None
''' + _FIX,
        nudge="Is a layer whose name contains Softmax necessarily a Softmax?"),
    Mutant("loss_mismatch", "crashes-on-an-empty-model", '''
def loss_mismatch(layers, loss):
''' + _WANTS + '''    if loss not in wants:
        return None
    rest = [layer for layer in layers if layer not in ("Dropout", "Flatten", "Identity")]
    last = rest[-1] if rest else layers[-1]
    have = last if last in ("Softmax", "LogSoftmax", "Sigmoid", "LogSigmoid", "ReLU", "Tanh") else None
    want = wants[loss]
    if have == want or (loss == "CrossEntropyLoss" and have == "LogSoftmax"):
        return None
''' + _FIX,
        nudge="What does a model with no layers output, and does your code survive an empty list?"),
    Mutant("loss_mismatch", "calls-the-reference", '''
from autograder.exercise import find_task  # the answer key, where the instructor keeps it
loss_mismatch_reference = find_task("loss_mismatch").reference

def loss_mismatch(layers, loss):
    return loss_mismatch_reference(layers, loss)
''', nudge="Which parts of this exercise are yours to write, and which code is off limits here?"),
    Mutant("binary_auroc", "a loop hidden in __eq__ over an object array of the distinct scores", '''
import numpy as np


class Tally:
    """Compared with each distinct score in turn (NumPy calls __eq__ once per element of an object array)."""

    def __init__(self, scores, positive):
        self.scores, self.positive, self.below, self.total = scores, positive, 0, 0.0

    def __eq__(self, value):
        here = self.scores == value
        p = np.sum(here & self.positive)
        n = np.sum(here & ~self.positive)
        self.total += p * self.below + 0.5 * p * n
        self.below += n
        return False


def binary_auroc(scores, labels):
    positive = np.asarray(labels) == 1
    n_pos = np.sum(positive)
    n_neg = len(scores) - n_pos
    if n_pos == 0 or n_neg == 0:
        return 0.5
    tally = Tally(scores, positive)
    np.unique(scores).astype("O") == tally
    return float(tally.total / (n_pos * n_neg))
''', nudge="When NumPy compares an object array with your object, how many times does it call your code, and is that anything other than a loop?"),
]

# Found by a fresh attack (issue 26): a NumPy scalar where a Python float is promised, and a last layer that
# is not an activation of the statement's list taken for one.
TYPES_AND_ENDINGS = [
    Mutant("cross_entropy", "numpy-scalar-for-a-float", '''def cross_entropy(logits, target, weight, ignore_index, label_smoothing):
    """Mean cross entropy of the logits against class indices, as F.cross_entropy computes it."""
    ### BEGIN SOLUTION
    classes = logits.shape[1]
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    kept = target != ignore_index
    log_p, target = log_p[kept], target[kept]
    class_weight = np.ones(classes) if weight is None else weight
    w = class_weight[target]
    with np.errstate(divide="ignore", invalid="ignore"):  # nothing counted: 0 / 0 is nan
        nll = -(w * log_p[np.arange(len(target)), target]).sum() / w.sum()
        smooth = -(log_p * class_weight).sum() / classes / w.sum()
    return (1 - label_smoothing) * nll + label_smoothing * smooth
    ### END SOLUTION''',
           nudge="What type does your function return: a Python float, or a NumPy scalar that only looks like one?"),
    Mutant("binary_auroc", "numpy-scalar-for-a-float", '''def binary_auroc(scores, labels):
    """P(a positive scores above a negative), ties counted one half."""
    ### BEGIN SOLUTION
    positive = labels == 1
    pos, neg = scores[positive], scores[~positive]
    if len(pos) == 0 or len(neg) == 0:
        return 0.5
    wins = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
    return wins / (len(pos) * len(neg))
    ### END SOLUTION''',
           nudge="What type does your function return: a Python float, or a NumPy scalar that only looks like one?"),
    Mutant("loss_mismatch", "gelu-taken-for-an-activation", '''def loss_mismatch(layers, loss):
    """None if the model's last activation suits the loss, else the fix ('remove X', 'add Y', 'replace X with Y')."""
    ### BEGIN SOLUTION
    wants = {"CrossEntropyLoss": None, "NLLLoss": "LogSoftmax", "BCEWithLogitsLoss": None, "BCELoss": "Sigmoid"}
    if loss not in wants:
        return None
    have = None
    for layer in reversed(layers):
        if layer not in ("Dropout", "Flatten", "Identity"):
            if layer in ("Softmax", "LogSoftmax", "Sigmoid", "LogSigmoid", "ReLU", "Tanh", "GELU"):
                have = layer
            break
    want = wants[loss]
    if have == want or (loss == "CrossEntropyLoss" and have == "LogSoftmax"):
        return None
    if want is None:
        return f"remove {have}"
    if have is None:
        return f"add {want}"
    return f"replace {have} with {want}"
    ### END SOLUTION''',
           nudge="Is GELU one of the activations the statement lists, and what does a model that ends in it output?"),
    Mutant("loss_mismatch", "layernorm-skipped-like-dropout", '''def loss_mismatch(layers, loss):
    """None if the model's last activation suits the loss, else the fix ('remove X', 'add Y', 'replace X with Y')."""
    ### BEGIN SOLUTION
    wants = {"CrossEntropyLoss": None, "NLLLoss": "LogSoftmax", "BCEWithLogitsLoss": None, "BCELoss": "Sigmoid"}
    if loss not in wants:
        return None
    have = None
    for layer in reversed(layers):
        if layer not in ("Dropout", "Flatten", "Identity", "LayerNorm"):
            if layer in ("Softmax", "LogSoftmax", "Sigmoid", "LogSigmoid", "ReLU", "Tanh"):
                have = layer
            break
    want = wants[loss]
    if have == want or (loss == "CrossEntropyLoss" and have == "LogSoftmax"):
        return None
    if want is None:
        return f"remove {have}"
    if have is None:
        return f"add {want}"
    return f"replace {have} with {want}"
    ### END SOLUTION''',
           nudge="Does LayerNorm only reshape or drop values, like Dropout, Flatten and Identity, or does it change the scores?"),
]

MUTANTS = STATE_DICT_SHAPES + FORWARD_WITH_HOOKS + CROSS_ENTROPY + BINARY_AUROC + LOSS_MISMATCH + TYPES_AND_ENDINGS
