"""Mutants of exercise 18 (capstone): an MLP's backward pass, an SGD step and a training loop gone wrong."""

from tensorlab.grading.tasks import Mutant

GRADIENTS = '''
def mlp_gradients(params, x, y):
    w1, b1, w2, b2 = params["w1"], params["b1"], params["w2"], params["b2"]
    pre = x @ w1 + b1
    hidden = np.maximum(pre, 0)
    logits = hidden @ w2 + b2
    shifted = {shifted}
    log_probabilities = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    probabilities = np.exp(log_probabilities)
    rows = np.arange(len(y))
    loss = {loss}
    dlogits = {dlogits}
    dhidden = dlogits @ w2.T
    dpre = {dpre}
    grads = {{"w1": {dw1}, "b1": {db1}, "w2": {dw2}, "b2": {db2}}}
    return float(loss), grads
'''
GRADIENTS_RIGHT = {
    "shifted": "logits - logits.max(axis=1, keepdims=True)", "loss": "-log_probabilities[rows, y].mean()",
    "dlogits": "(probabilities - np.eye(logits.shape[1])[y]) / len(y)", "dpre": "dhidden * (pre > 0)",
    "dw1": "x.T @ dpre", "db1": "dpre.sum(axis=0)", "dw2": "hidden.T @ dlogits", "db2": "dlogits.sum(axis=0)",
}


def gradients(**changed: str) -> str:
    return GRADIENTS.format(**{**GRADIENTS_RIGHT, **changed})


TRAINING = '''
def train_digits(params, x_train, y_train, x_test, y_test, lr, epochs, batch_size):
    for _ in range({epochs}):
        for start in range(0, {rows}, batch_size):
            batch = slice(start, start + batch_size)
            _, grads = mlp_gradients(params, {x}[batch], {y}[batch])
            {update}
    hidden = np.maximum({x_eval} @ params["w1"] + params["b1"], 0)
    predictions = (hidden @ params["w2"] + params["b2"]).argmax(axis={axis})
    return params, {accuracy}
'''
TRAINING_RIGHT = {
    "epochs": "epochs", "rows": "len(y_train)", "x": "x_train", "y": "y_train", "update": "params = sgd_step(params, grads, lr)",
    "x_eval": "x_test", "axis": "1", "accuracy": "float((predictions == y_test).mean())",
}


def training(**changed: str) -> str:
    return TRAINING.format(**{**TRAINING_RIGHT, **changed})


MUTANTS = [
    # --- mlp_gradients ---
    Mutant("mlp_gradients", "gradient-not-divided-by-batch", gradients(dlogits="probabilities - np.eye(logits.shape[1])[y]"),
           nudge="The loss is a mean over the rows: by how much does one row's logit move that mean?"),
    Mutant("mlp_gradients", "bias-grad-not-summed-over-batch", gradients(db1="dpre", db2="dlogits"),
           nudge="Every row of the batch adds the same bias: what shape must the bias's gradient have, and "
           "what happens to the contributions of all the rows?"),
    Mutant("mlp_gradients", "bias-grad-averaged-again", gradients(db1="dpre.mean(axis=0)", db2="dlogits.mean(axis=0)"),
           nudge="The 1/N of the mean is already inside the logits' gradient: does the bias need it a second time?"),
    Mutant("mlp_gradients", "softmax-without-max-subtraction", gradients(shifted="logits"),
           nudge="What is e to the power 800 in float64, and what is infinity divided by infinity?"),
    Mutant("mlp_gradients", "relu-gradient-ignored", gradients(dpre="dhidden"),
           nudge="Where ReLU's input was negative its output is the constant 0: how much gradient can flow back "
           "through a constant?"),
    Mutant("mlp_gradients", "weight-grad-from-pre-activation", gradients(dw2="pre.T @ dlogits"),
           nudge="Which array multiplies w2 in the forward pass: the layer's input before or after the ReLU?"),
    Mutant("mlp_gradients", "loss-summed-not-averaged", gradients(loss="-log_probabilities[rows, y].sum()"),
           nudge="F.cross_entropy's default reduction is 'mean': what does a batch of 8 identical rows give?"),
    Mutant("mlp_gradients", "one-hot-not-subtracted", gradients(dlogits="probabilities / len(y)"),
           nudge="Raising the label's logit makes the loss smaller: which sign must the gradient have on the "
           "label's logit?"),
    Mutant("mlp_gradients", "weight-grad-transposed", gradients(dw1="dpre.T @ x", dw2="dlogits.T @ hidden"),
           nudge="A gradient has the shape of its parameter: which product of the input and the upstream "
           "gradient gives W's (in, out) shape?"),
    Mutant("mlp_gradients", "asks-torch", '''
import torch

def mlp_gradients(params, x, y):
    leaves = {name: torch.tensor(value, requires_grad=True) for name, value in params.items()}
    hidden = torch.relu(torch.tensor(x) @ leaves["w1"] + leaves["b1"])
    loss = torch.nn.functional.cross_entropy(hidden @ leaves["w2"] + leaves["b2"], torch.tensor(y))
    loss.backward()
    return float(loss), {name: leaf.grad.numpy() for name, leaf in leaves.items()}
''', nudge="Which libraries may this part use, and may PyTorch or tensorlab do the work for you?"),
    # --- sgd_step ---
    Mutant("sgd_step", "in-place-update-of-callers-arrays", '''
def sgd_step(params, grads, lr):
    for name in params:
        params[name] -= lr * grads[name]
    return dict(params)
''', nudge="Where does an augmented subtraction on an array write its result, and who else holds that array?"),
    Mutant("sgd_step", "returns-the-callers-dict", '''
def sgd_step(params, grads, lr):
    for name in params:
        params[name] = params[name] - lr * grads[name]
    return params
''', nudge="Assigning into the dict you were given: does the caller still have its old parameters afterwards?"),
    Mutant("sgd_step", "learning-rate-sign-flipped", '''
def sgd_step(params, grads, lr):
    return {name: value + lr * grads[name] for name, value in params.items()}
''', nudge="The gradient points uphill, towards a larger loss: which way should a step go?"),
    Mutant("sgd_step", "learning-rate-ignored", '''
def sgd_step(params, grads, lr):
    return {name: value - grads[name] for name, value in params.items()}
''', nudge="What does lr = 0.01 change about the step, and does your step change with it?"),
    Mutant("sgd_step", "weights-only", '''
def sgd_step(params, grads, lr):
    return {name: value - lr * grads[name] if value.ndim == 2 else value.copy() for name, value in params.items()}
''', nudge="Do biases (and 0-d parameters) learn too?"),
    Mutant("sgd_step", "learning-rate-squared", '''
def sgd_step(params, grads, lr):
    return {name: value - lr * lr * grads[name] for name, value in params.items()}
''', nudge="How far does a step with lr = 0.5 move a parameter whose gradient is 1?"),
    Mutant("sgd_step", "returns-a-list", '''
def sgd_step(params, grads, lr):
    return [value - lr * grads[name] for name, value in params.items()]
''', nudge="How will the caller find w1's new value: by its position, or by its name?"),
    Mutant("sgd_step", "float32-parameters", '''
def sgd_step(params, grads, lr):
    return {name: (value - lr * grads[name]).astype(np.float32) for name, value in params.items()}
''', nudge="Which dtype did the parameters have before the step, and which after?"),
    Mutant("sgd_step", "asks-tensorlab", '''
import tensorlab

def sgd_step(params, grads, lr):
    return {name: (tensorlab.tensor(value) - lr * tensorlab.tensor(grads[name])).numpy() for name, value in params.items()}
''', nudge="Which libraries may this part use, and may PyTorch or tensorlab do the work for you?"),
    # --- train_digits ---
    Mutant("train_digits", "evaluates-on-the-training-set", training(x_eval="x_train", accuracy="float((predictions == y_train).mean())"),
           nudge="Which rows has the model never seen, and which accuracy tells you how it does on new digits?"),
    Mutant("train_digits", "drops-the-last-short-batch", training(rows="len(y_train) - batch_size + 1"),
           nudge="With 11 rows in batches of 4, how many steps does one epoch take, and does row 10 ever train?"),
    Mutant("train_digits", "one-epoch-only", training(epochs="1"),
           nudge="How many times does each training row pass through the model when epochs is 3?"),
    Mutant("train_digits", "shuffles-the-rows", '''
def train_digits(params, x_train, y_train, x_test, y_test, lr, epochs, batch_size):
    rng = np.random.default_rng()
    for _ in range(epochs):
        order = rng.permutation(len(y_train))
        for start in range(0, len(y_train), batch_size):
            batch = order[start:start + batch_size]
            _, grads = mlp_gradients(params, x_train[batch], y_train[batch])
            params = sgd_step(params, grads, lr)
    hidden = np.maximum(x_test @ params["w1"] + params["b1"], 0)
    predictions = (hidden @ params["w2"] + params["b2"]).argmax(axis=1)
    return params, float((predictions == y_test).mean())
''', nudge="The statement asks for the rows in order: would two runs of yours give the same parameters?"),
    Mutant("train_digits", "learning-rate-sign-flipped", training(update="params = sgd_step(params, grads, -lr)"),
           nudge="Does your training loss go down from one epoch to the next?"),
    Mutant("train_digits", "step-result-discarded", training(update="sgd_step(params, grads, lr)"),
           nudge="sgd_step returns new parameters and leaves its arguments alone: which parameters does your "
           "next batch use?"),
    Mutant("train_digits", "accuracy-as-percentage", training(accuracy="float(100 * (predictions == y_test).mean())"),
           nudge="The accuracy is a share between 0 and 1: what does 95 correct out of 100 give?"),
    Mutant("train_digits", "full-batch-every-step", '''
def train_digits(params, x_train, y_train, x_test, y_test, lr, epochs, batch_size):
    for _ in range(epochs):
        for start in range(0, len(y_train), batch_size):
            _, grads = mlp_gradients(params, x_train, y_train)
            params = sgd_step(params, grads, lr)
    hidden = np.maximum(x_test @ params["w1"] + params["b1"], 0)
    predictions = (hidden @ params["w2"] + params["b2"]).argmax(axis=1)
    return params, float((predictions == y_test).mean())
''', nudge="Which rows does the gradient of one step come from: the batch's, or all of them?"),
    Mutant("train_digits", "argmax-over-the-batch", training(axis="0", accuracy="float((predictions[:len(y_test)] == y_test[:len(predictions)]).mean())"),
           nudge="Which axis of the logits holds the classes of one row?"),
    Mutant("train_digits", "asks-torch", '''
import torch

def train_digits(params, x_train, y_train, x_test, y_test, lr, epochs, batch_size):
    leaves = [torch.tensor(params[name], requires_grad=True) for name in ("w1", "b1", "w2", "b2")]
    optimizer = torch.optim.SGD(leaves, lr=lr)
    model = lambda x: torch.relu(torch.tensor(x) @ leaves[0] + leaves[1]) @ leaves[2] + leaves[3]
    for _ in range(epochs):
        for start in range(0, len(y_train), batch_size):
            optimizer.zero_grad()
            loss = torch.nn.functional.cross_entropy(model(x_train[start:start + batch_size]),
                                                     torch.tensor(y_train[start:start + batch_size]))
            loss.backward()
            optimizer.step()
    accuracy = float((model(x_test).argmax(1) == torch.tensor(y_test)).double().mean())
    return {name: leaf.detach().numpy() for name, leaf in zip(("w1", "b1", "w2", "b2"), leaves)}, accuracy
''', nudge="Which libraries may this part use, and may PyTorch or tensorlab do the work for you?"),
]
