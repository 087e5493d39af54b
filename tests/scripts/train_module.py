"""Build a model as an nn.Module and train it with an optimizer on synthetic data: three classes
of points in the plane, a two-layer network, cross-entropy, Adam, minibatches.

The data come from NumPy with a fixed seed (the same points for both libraries); the weights
start random, so tests/test_scripts.py compares the final loss and accuracy of a run with torch
and a run with ``import tensorlab as torch`` within sampling noise.
"""

import numpy as np
import torch
from torch import nn

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

# three Gaussian blobs, 300 points
rng = np.random.default_rng(0)
centres = np.array([[0.0, 2.0], [-2.0, -1.0], [2.0, -1.0]])
labels = rng.integers(0, 3, size=300)
points = centres[labels] + rng.standard_normal((300, 2))
inputs = torch.tensor(points, dtype=torch.float32, device=device)
targets = torch.tensor(labels, device=device)


class Classifier(nn.Module):
    def __init__(self, hidden: int = 16) -> None:
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(2, hidden), nn.ReLU(), nn.Linear(hidden, 3))

    def forward(self, x):
        return self.layers(x)


model = Classifier().to(device)
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.02)

batch_size = 50
for _epoch in range(30):
    model.train()
    for start in range(0, len(inputs), batch_size):
        batch, batch_targets = inputs[start:start + batch_size], targets[start:start + batch_size]
        loss = loss_fn(model(batch), batch_targets)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

model.eval()
with torch.no_grad():
    logits = model(inputs)
    final_loss = loss_fn(logits, targets).item()
    accuracy = (logits.argmax(dim=1) == targets).float().mean().item()
print(f"accuracy {accuracy:.4f}")
print(f"final loss {final_loss:.8f}")
