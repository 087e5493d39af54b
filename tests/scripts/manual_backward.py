"""Backpropagation by hand through a small MLP with cross-entropy, as the "backprop ninja" lecture
does it: every intermediate gradient written out, then compared with autograd's."""

import torch
import torch.nn.functional as F

g = torch.Generator().manual_seed(2147483647)
n, d, hidden, classes = 16, 6, 10, 5
X = torch.randn(n, d, generator=g)
Y = torch.randint(0, classes, (n,), generator=g)
W1 = (torch.randn(d, hidden, generator=g) * 0.5).requires_grad_()
b1 = (torch.randn(hidden, generator=g) * 0.1).requires_grad_()
W2 = (torch.randn(hidden, classes, generator=g) * 0.5).requires_grad_()
b2 = (torch.randn(classes, generator=g) * 0.1).requires_grad_()

hpre = X @ W1 + b1
h = torch.tanh(hpre)
logits = h @ W2 + b2
logit_maxes = logits.max(1, keepdim=True).values
norm_logits = logits - logit_maxes
counts = norm_logits.exp()
counts_sum = counts.sum(1, keepdims=True)
probs = counts / counts_sum
logprobs = probs.log()
loss = -logprobs[range(n), Y].mean()
for t in (hpre, h, logits, probs, logprobs):
    t.retain_grad()
loss.backward()
print(f"loss {loss.item():.6f} and F.cross_entropy {F.cross_entropy(logits, Y).item():.6f}")

dlogprobs = torch.zeros_like(logprobs)
dlogprobs[range(n), Y] = -1.0 / n
dlogits = F.softmax(logits, 1)
dlogits[range(n), Y] -= 1
dlogits /= n
dh = dlogits @ W2.T
dw2 = h.T @ dlogits
db2 = dlogits.sum(0)
dhpre = (1.0 - h**2) * dh
dw1 = X.T @ dhpre
db1 = dhpre.sum(0)


def compare(name, manual, tensor):
    close = torch.allclose(manual, tensor.grad, atol=1e-6)
    print(f"{name:8s} close {close} max difference below 1e-6 {(manual - tensor.grad).abs().max().item() < 1e-6}")


compare("logprobs", dlogprobs, logprobs)
compare("logits", dlogits, logits)
compare("h", dh, h)
compare("hpre", dhpre, hpre)
compare("W2", dw2, W2)
compare("b2", db2, b2)
compare("W1", dw1, W1)
compare("b1", db1, b1)
print("labels", Y.tolist())
