"""Fit y = sin(pi x) on [-1, 1] with a cubic a + b x + c x^2 + d x^3, three ways, in the manner of
"learning PyTorch with examples": gradients written by hand, then autograd, then nn + optim.

Starting weights are random, so the loss on the way differs between libraries, but the problem is
convex: after enough steps all three reach the same least-squares fit. tests/test_scripts.py runs
the script with torch and with ``import tensorlab as torch`` and compares the final losses.
"""

import math

import torch

torch.manual_seed(0)
dtype = torch.float64
x = torch.linspace(-1, 1, 200, dtype=dtype)
y = torch.sin(math.pi * x)
steps, learning_rate = 3000, 0.25

# 1. tensors only: the gradient of the mean squared error, derived by hand
a, b, c, d = (torch.randn((), dtype=dtype) for _ in range(4))
for _ in range(steps):
    y_pred = a + b * x + c * x**2 + d * x**3
    grad_y_pred = 2.0 * (y_pred - y) / x.numel()
    a -= learning_rate * grad_y_pred.sum()
    b -= learning_rate * (grad_y_pred * x).sum()
    c -= learning_rate * (grad_y_pred * x**2).sum()
    d -= learning_rate * (grad_y_pred * x**3).sum()
by_hand = (a + b * x + c * x**2 + d * x**3 - y).pow(2).mean().item()
print(f"by hand:  loss {by_hand:.6f}")

# 2. autograd computes the gradients; we update under no_grad
a, b, c, d = (torch.randn((), dtype=dtype, requires_grad=True) for _ in range(4))
for _ in range(steps):
    loss = (a + b * x + c * x**2 + d * x**3 - y).pow(2).mean()
    loss.backward()
    with torch.no_grad():
        for weight in (a, b, c, d):
            weight -= learning_rate * weight.grad
            weight.grad = None
print(f"autograd: loss {loss.item():.6f}")

# 3. nn.Linear over the powers of x, a loss module and an optimizer
powers = torch.tensor([1, 2, 3])
features = x.unsqueeze(-1).pow(powers)
model = torch.nn.Sequential(torch.nn.Linear(3, 1, dtype=dtype), torch.nn.Flatten(0, 1))
loss_fn = torch.nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=learning_rate, momentum=0.5)
for _ in range(steps // 3):
    loss = loss_fn(model(features), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f"nn+optim: loss {loss.item():.6f}")
print(f"final loss {loss.item():.8f}")
