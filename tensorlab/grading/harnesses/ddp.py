"""The rank side of unit 16's mini-DDP: build the case's model, let the learner's function
attach its gradient averaging, run this rank's forward and backward, return the gradients.

Every rank builds the same small MLP (Linear, Tanh, Linear in float64) from the case's weights
and takes its own shard of the batch. Whatever the learner's hooks do happens inside
``loss.backward()``, exactly when DDP's own hooks would run.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def mlp(weights: list[np.ndarray]) -> Any:
    import torch

    first_weight, first_bias, second_weight, second_bias = (torch.from_numpy(np.array(w, dtype=np.float64)) for w in weights)
    model = torch.nn.Sequential(
        torch.nn.Linear(first_weight.shape[1], first_weight.shape[0]), torch.nn.Tanh(),
        torch.nn.Linear(second_weight.shape[1], second_weight.shape[0]),
    ).double()
    with torch.no_grad():
        for parameter, value in zip(model.parameters(), (first_weight, first_bias, second_weight, second_bias), strict=True):
            parameter.copy_(value)
    return model


def gradient_averaging_case(function: Any, arguments: tuple, rank: int, groups: dict) -> list | None:
    """This rank's gradients after ``function(model, group)`` and one backward; None off the case's world."""
    import torch

    world, weights, inputs, targets = arguments
    if rank >= world:
        return None
    model = mlp(weights)
    function(model, groups[world])
    prediction = model(torch.from_numpy(np.array(inputs[rank])))
    loss = ((prediction - torch.from_numpy(np.array(targets[rank]))) ** 2).mean()
    loss.backward()
    return [None if p.grad is None else p.grad.detach().numpy().copy() for p in model.parameters()]
