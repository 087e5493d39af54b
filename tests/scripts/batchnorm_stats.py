"""A hand-written BatchNorm layer with running statistics, as the makemore lectures write one:
batch mean and variance in training, running averages updated under ``torch.no_grad()``, the
running ones used at evaluation; then the same with ``torch.nn.BatchNorm1d`` for comparison."""

import torch


class BatchNorm1d:
    def __init__(self, dim, eps=1e-5, momentum=0.1):
        self.eps, self.momentum, self.training = eps, momentum, True
        self.gamma, self.beta = torch.ones(dim), torch.zeros(dim)
        self.running_mean, self.running_var = torch.zeros(dim), torch.ones(dim)

    def __call__(self, x):
        if self.training:
            mean = x.mean(0, keepdims=True)
            var = x.var(0, keepdims=True)
        else:
            mean, var = self.running_mean, self.running_var
        out = self.gamma * (x - mean) / torch.sqrt(var + self.eps) + self.beta
        if self.training:
            with torch.no_grad():
                self.running_mean = (1 - self.momentum) * self.running_mean + self.momentum * mean
                self.running_var = (1 - self.momentum) * self.running_var + self.momentum * var
        return out


torch.manual_seed(42)
mine, theirs = BatchNorm1d(4), torch.nn.BatchNorm1d(4)
for step in range(20):
    x = torch.randn(16, 4) * 3 + torch.arange(4.0)
    a, b = mine(x), theirs(x)
    if step % 5 == 0:
        print(f"step {step} batch[0] {[round(v, 4) for v in x[0].tolist()]} out[0] {[round(v, 4) for v in a[0].tolist()]}")
        print(f"  same as nn.BatchNorm1d: {torch.allclose(a, b, atol=1e-5)}")
print("running mean", [round(v, 4) for v in mine.running_mean.view(-1).tolist()])
print("running var ", [round(v, 4) for v in mine.running_var.view(-1).tolist()])
print("module's    ", [round(v, 4) for v in theirs.running_mean.tolist()], [round(v, 4) for v in theirs.running_var.tolist()])
mine.training = False
theirs.eval()
x = torch.randn(3, 4)
print("eval same:", torch.allclose(mine(x), theirs(x), atol=1e-5), [round(v, 4) for v in mine(x)[0].tolist()])
