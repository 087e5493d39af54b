"""Automatic differentiation: a one-layer logistic model, its loss, and the gradients backward
leaves in ``.grad``; then the same step with the graph switched off.

An ordinary beginner's script: tests/test_scripts.py runs it with torch and with
``import tensorlab as torch`` and compares everything it prints.
"""

import torch

x = torch.ones(5)  # input
y = torch.zeros(3)  # expected output
w = torch.tensor([[0.1, -0.2, 0.3], [0.0, 0.5, -0.1], [0.2, 0.2, 0.2], [-0.3, 0.1, 0.0], [0.4, -0.4, 0.1]], requires_grad=True)
b = torch.tensor([0.01, 0.02, 0.03], requires_grad=True)
z = torch.matmul(x, w) + b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)

print(f"loss {loss.item():.6f}, made by {type(loss.grad_fn).__name__}")
loss.backward()
print(w.grad)
print(b.grad)

# no graph when we only evaluate
with torch.no_grad():
    z = torch.matmul(x, w) + b
print(z.requires_grad)
z_det = (torch.matmul(x, w) + b).detach()
print(z_det.requires_grad)

# gradients accumulate until zeroed
inp = torch.eye(4, 5, requires_grad=True)
out = (inp + 1).pow(2).t()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"first call\n{inp.grad}")
out.backward(torch.ones_like(out))
print(f"second call\n{inp.grad}")
inp.grad.zero_()
out = (inp + 1).pow(2).t()
out.backward(torch.ones_like(out))
print(f"after zeroing\n{inp.grad}")
