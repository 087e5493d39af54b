"""Fit a small network to data with outliers: robust losses (smooth L1, Huber), modern
activations (SiLU, LeakyReLU, Mish), and optimizers with learning-rate schedules (RMSprop +
StepLR, Adagrad + CosineAnnealingLR, AdamW + OneCycleLR, SGD + ReduceLROnPlateau).

The weights start from fixed values and everything is float64, so the printed losses and
learning rates are the same digits under torch and under ``import tensorlab as torch``.
"""

import math

import torch
import torch.nn.functional as F
from torch import nn

x = torch.linspace(-3, 3, 64, dtype=torch.float64).reshape(-1, 1)
y = torch.sin(x) + 0.1 * x
y[::16] += 3.0  # four outliers: mse would chase them, smooth L1 and Huber much less


def make_model():
    model = nn.Sequential(
        nn.Linear(1, 8, dtype=torch.float64), nn.SiLU(),
        nn.Linear(8, 8, dtype=torch.float64), nn.LeakyReLU(0.1),
        nn.Linear(8, 1, dtype=torch.float64), nn.Mish(),
    )
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):  # fixed, varied starting weights
            values = torch.arange(p.numel(), dtype=torch.float64)
            p.copy_(torch.sin(values * 1.7 + i).reshape(p.shape) * 0.6)
    return model


runs = [
    ("rmsprop+step", lambda p: torch.optim.RMSprop(p, lr=0.01, momentum=0.5, centered=True),
     lambda o: torch.optim.lr_scheduler.StepLR(o, step_size=20, gamma=0.5), lambda out: F.smooth_l1_loss(out, y, beta=0.5)),
    ("adagrad+cosine", lambda p: torch.optim.Adagrad(p, lr=0.1, lr_decay=0.01),
     lambda o: torch.optim.lr_scheduler.CosineAnnealingLR(o, T_max=30, eta_min=0.001), lambda out: F.huber_loss(out, y, delta=0.5)),
    ("adamw+onecycle", lambda p: torch.optim.AdamW(p, lr=0.01, amsgrad=True),
     lambda o: torch.optim.lr_scheduler.OneCycleLR(o, max_lr=0.05, total_steps=60), lambda out: nn.SmoothL1Loss()(out, y)),
]
for name, make_optimizer, make_scheduler, loss_of in runs:
    model = make_model()
    optimizer = make_optimizer(model.parameters())
    scheduler = make_scheduler(optimizer)
    for epoch in range(60):
        optimizer.zero_grad()
        loss = loss_of(model(x))
        loss.backward()
        optimizer.step()
        scheduler.step()
        if epoch % 15 == 14:
            print(f"{name} epoch {epoch + 1}: loss {loss.item():.8f}, lr {scheduler.get_last_lr()[0]:.8f}")

model = make_model()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
plateau = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, factor=0.5, patience=3)
for _ in range(60):
    optimizer.zero_grad()
    loss = nn.HuberLoss(delta=0.5)(model(x), y)
    loss.backward()
    optimizer.step()
    plateau.step(round(loss.item(), 3))  # a coarse metric, so it plateaus
print(f"sgd+plateau: lr {optimizer.param_groups[0]['lr']:.8f}")
print(f"final loss {loss.item():.8f}")
assert math.isfinite(loss.item())
