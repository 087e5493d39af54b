"""Correct answers of exercise 18 (capstone) written other ways than the solution: each must keep full marks."""

from tensorlab.grading import Alternative

ALTERNATIVES = [
    Alternative("mlp_gradients", "logsumexp-and-one-hot-matrix", '''
import numpy as np

def mlp_gradients(params, x, y):
    pre = np.matmul(x, params["w1"]) + params["b1"]
    hidden = np.where(pre > 0, pre, 0.0)
    logits = np.matmul(hidden, params["w2"]) + params["b2"]
    top = logits.max(axis=1, keepdims=True)
    log_normaliser = top + np.log(np.sum(np.exp(logits - top), axis=1, keepdims=True))
    one_hot = (y[:, None] == np.arange(logits.shape[1])).astype(np.float64)
    loss = float(np.sum(one_hot * (log_normaliser - logits)) / len(y))
    dlogits = (np.exp(logits - log_normaliser) - one_hot) / len(y)
    dpre = np.matmul(dlogits, params["w2"].T) * (pre > 0)
    return loss, {"b2": np.sum(dlogits, axis=0), "w2": np.matmul(hidden.T, dlogits),
                  "b1": np.sum(dpre, axis=0), "w1": np.matmul(x.T, dpre)}
'''),
    Alternative("mlp_gradients", "einsum-and-layer-loop", '''
import numpy as np

def mlp_gradients(params, x, y):
    n = x.shape[0]
    activations = [x]
    z = np.einsum("nd,dh->nh", x, params["w1"]) + params["b1"]
    activations.append(np.maximum(z, 0))
    logits = np.einsum("nh,hc->nc", activations[1], params["w2"]) + params["b2"]
    shifted = logits - np.max(logits, axis=1)[:, None]
    e = np.exp(shifted)
    p = e / e.sum(axis=1)[:, None]
    loss = np.mean(np.log(e.sum(axis=1)) - shifted[np.arange(n), y])
    upstream = p.copy()
    upstream[np.arange(n), y] -= 1.0
    upstream = upstream / n
    grads = {}
    for layer in (2, 1):
        grads[f"w{layer}"] = np.einsum("nh,nc->hc", activations[layer - 1], upstream)
        grads[f"b{layer}"] = upstream.sum(axis=0)
        if layer == 2:
            upstream = np.einsum("nc,hc->nh", upstream, params["w2"]) * (z > 0)
    return float(loss), grads
'''),
    Alternative("sgd_step", "copy-then-subtract-in-place", '''
def sgd_step(params, grads, lr):
    new = {}
    for name in params:
        new[name] = params[name].copy()
        new[name] -= lr * grads[name]
    return new
'''),
    Alternative("sgd_step", "np-subtract-with-negative-rate", '''
import numpy as np

def sgd_step(params, grads, lr):
    return dict((name, np.subtract(params[name], np.multiply(lr, grads[name]))) for name in params)
'''),
    Alternative("train_digits", "counted-batches-and-count-nonzero", '''
import math
import numpy as np

def train_digits(params, x_train, y_train, x_test, y_test, lr, epochs, batch_size):
    batches = math.ceil(len(y_train) / batch_size)
    for epoch in range(epochs):
        for number in range(batches):
            rows = np.arange(number * batch_size, min((number + 1) * batch_size, len(y_train)))
            loss, grads = mlp_gradients(params, x_train[rows], y_train[rows])
            params = sgd_step(params, grads, lr)
    logits = np.maximum(x_test @ params["w1"] + params["b1"], 0) @ params["w2"] + params["b2"]
    return params, float(np.count_nonzero(np.argmax(logits, axis=1) == y_test)) / len(y_test)
'''),
    Alternative("train_digits", "while-loop-and-array-split-free-slicing", '''
def train_digits(params, x_train, y_train, x_test, y_test, lr, epochs, batch_size):
    steps = 0
    current = dict(params)
    while steps < epochs:
        start = 0
        while start < len(y_train):
            _, grads = mlp_gradients(current, x_train[start:start + batch_size], y_train[start:start + batch_size])
            current = sgd_step(current, grads, lr)
            start += batch_size
        steps += 1
    hidden = (x_test @ current["w1"] + current["b1"]).clip(min=0)
    correct = sum(int(row.argmax() == label) for row, label in zip(hidden @ current["w2"] + current["b2"], y_test))
    return current, correct / len(y_test)
'''),
]
