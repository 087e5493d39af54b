"""The capstone's answer key (exercises/18-capstone/tasks.py) against torch, the oracle.

The references ask tensorlab's autograd; here the same model runs in torch: ``nn.Linear`` layers
holding the transposed weights, ``F.cross_entropy``, ``loss.backward()`` and ``torch.optim.SGD``. The
digits run of the statement reaches the accuracy the statement promises, in torch as in the reference.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch

from tests.public_cases import tasks_of

capstone = tasks_of("capstone")


def torch_model(params: dict[str, np.ndarray]) -> Any:
    """nn.Sequential(Linear, ReLU, Linear) in float64 with ``weight = w.T`` (the exercise stores ``x @ w + b``)."""
    inputs, hidden = params["w1"].shape
    model = torch.nn.Sequential(torch.nn.Linear(inputs, hidden), torch.nn.ReLU(),
                                torch.nn.Linear(hidden, params["w2"].shape[1])).double()
    with torch.no_grad():
        for layer, number in ((model[0], 1), (model[2], 2)):
            layer.weight.copy_(torch.from_numpy(np.ascontiguousarray(params[f"w{number}"].T)))
            layer.bias.copy_(torch.from_numpy(params[f"b{number}"]))
    return model


def model_params(model: Any) -> dict[str, np.ndarray]:
    return {"w1": model[0].weight.detach().numpy().T, "b1": model[0].bias.detach().numpy(),
            "w2": model[2].weight.detach().numpy().T, "b2": model[2].bias.detach().numpy()}


def test_mlp_gradients_reference_is_torch_autograd() -> None:
    rng = np.random.default_rng(7)
    for _ in range(30):
        params, x, y = capstone.random_gradients_case(rng)
        model = torch_model(params)
        loss = torch.nn.functional.cross_entropy(model(torch.from_numpy(np.ascontiguousarray(x))), torch.from_numpy(y))
        loss.backward()
        expected = {"w1": model[0].weight.grad.numpy().T, "b1": model[0].bias.grad.numpy(),
                    "w2": model[2].weight.grad.numpy().T, "b2": model[2].bias.grad.numpy()}
        got_loss, got = capstone.mlp_gradients_reference(params, x, y)
        assert got_loss == pytest.approx(loss.item(), rel=1e-12)
        for name, grad in expected.items():
            np.testing.assert_allclose(got[name], grad, rtol=1e-10, atol=1e-12)


def test_sgd_step_reference_is_torch_sgd_and_leaves_its_arguments() -> None:
    rng = np.random.default_rng(8)
    for _ in range(20):
        params, grads, lr = capstone.random_step_case(rng)
        before = {name: value.copy() for name, value in params.items()}
        leaves = [torch.tensor(value, requires_grad=True) for value in params.values()]
        for leaf, grad in zip(leaves, grads.values(), strict=True):
            leaf.grad = torch.from_numpy(grad.copy())
        torch.optim.SGD(leaves, lr=lr).step()
        stepped = capstone.sgd_step_reference(params, grads, lr)
        for leaf, (name, value) in zip(leaves, stepped.items(), strict=True):
            np.testing.assert_allclose(value, leaf.detach().numpy(), rtol=1e-12, atol=0)
            np.testing.assert_array_equal(params[name], before[name])


def test_the_digits_run_reaches_the_stated_accuracy_in_torch_and_in_the_reference() -> None:
    params, x_train, y_train, x_test, y_test, lr, epochs, batch_size = capstone.digits_case()
    assert x_train.shape == (1437, 64) and x_test.shape == (360, 64)
    model = torch_model(params)
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(epochs):
        for start in range(0, len(y_train), batch_size):
            optimizer.zero_grad()
            logits = model(torch.from_numpy(x_train[start:start + batch_size]))
            torch.nn.functional.cross_entropy(logits, torch.from_numpy(y_train[start:start + batch_size])).backward()
            optimizer.step()
    with torch.no_grad():
        torch_accuracy = (model(torch.from_numpy(x_test)).argmax(1) == torch.from_numpy(y_test)).double().mean().item()
    trained, accuracy = capstone.train_digits_reference(params, x_train, y_train, x_test, y_test, lr, epochs, batch_size)
    assert torch_accuracy >= capstone.STATED_ACCURACY
    assert accuracy == torch_accuracy
    for name, value in model_params(model).items():
        np.testing.assert_allclose(trained[name], value, rtol=1e-9, atol=1e-12)


def test_the_split_and_the_initialisation_are_torchs_conventions() -> None:
    """The split holds every image once; the initialisation is nn.Linear's range, U(-1/sqrt(fan_in), 1/sqrt(fan_in))."""
    x_train, y_train, _, y_test = capstone.digits_split()
    assert len(y_train) + len(y_test) == 1797 and 0.0 <= x_train.min() and x_train.max() <= 1.0
    params = capstone.initial_params(0, (64, 32, 10))
    layer = torch.nn.Linear(64, 32)
    bound = float(layer.weight.detach().abs().max())  # torch's own draw stays inside the same range
    assert np.abs(params["w1"]).max() <= 1 / np.sqrt(64) and bound <= 1 / np.sqrt(64)
    assert np.abs(params["w2"]).max() <= 1 / np.sqrt(32)
