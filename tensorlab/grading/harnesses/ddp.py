"""The rank side of unit 16's mini-DDP: build the case's model, let the learner's function
attach its gradient averaging, run this rank's forward and backward, return the gradients.

Every rank builds the same small MLP (Linear, Tanh, Linear in float64) from the case's weights
and takes its own shard of the batch. Whatever the learner's hooks do happens inside
``loss.backward()``, exactly when DDP's own hooks would run; a hook that changes the gradient it is
given in place (the statement asks for a reduced copy) makes the case raise. A case may freeze some
parameters (``requires_grad`` False, as when fine-tuning a head): their ``grad`` must stay None.
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

    world, weights, inputs, targets, *rest = arguments
    if rank >= world:
        return None
    model = mlp(weights)
    for index in (rest[0] if rest else ()):  # the frozen parameters, by their place in model.parameters()
        list(model.parameters())[index].requires_grad_(False)
    watch = ArgumentWatch(list(model.parameters()))
    function(model, groups[world])
    watch.close()
    prediction = model(torch.from_numpy(np.array(inputs[rank])))
    loss = ((prediction - torch.from_numpy(np.array(targets[rank]))) ** 2).mean()
    loss.backward()
    if watch.changed:
        raise RuntimeError("a gradient hook changed its argument in place (autograd's gradient): reduce a copy "
                           "and return it")
    return [None if p.grad is None else p.grad.detach().numpy().copy() for p in model.parameters()]


class ArgumentWatch:
    """Did the learner's tensor hooks change the gradient they were given in place?

    A hook registered before the learner's (it runs first) notes the gradient, its version counter and a copy
    of its values; one registered after them (it runs last, before the gradient is accumulated) checks both.
    An in-place op bumps the counter, but a collective (``dist.all_reduce(grad)``) writes through the process
    group without bumping it: the copy tells. A post-accumulate-grad hook, which may change ``p.grad`` in place
    by design, runs later. Frozen parameters take no hooks (they have no gradient).
    """

    def __init__(self, parameters: list) -> None:
        self.parameters = parameters
        self.given: dict[int, tuple[Any, int, Any]] = {}
        self.changed: list[int] = []
        for index, parameter in enumerate(parameters):
            if parameter.requires_grad:
                parameter.register_hook(self.first(index))

    def first(self, index: int) -> Any:
        def note(grad: Any) -> None:
            self.given[index] = (grad, grad._version, grad.detach().clone())
        return note

    def last(self, index: int) -> Any:
        def check(grad: Any) -> None:
            import torch

            given, version, values = self.given.get(index, (None, 0, None))
            if given is not None and (given._version != version or not torch.equal(given, values)):
                self.changed.append(index)
        return check

    def close(self) -> None:
        """Register the last hooks: after the learner's."""
        for index, parameter in enumerate(self.parameters):
            if parameter.requires_grad:
                parameter.register_hook(self.last(index))
