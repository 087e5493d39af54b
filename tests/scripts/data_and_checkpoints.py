"""The Quickstart's loop, with the pieces around it: a Dataset split into train and test, shuffled
DataLoaders, a checkpoint saved and loaded back, and a profile of one forward pass.

Data come from NumPy with a fixed seed; the weights and the shuffling are random, so
tests/test_scripts.py compares the final loss and accuracy with torch's within sampling noise.
"""

import os
import tempfile

import numpy as np
import torch
from torch import nn
from torch.autograd import Variable
from torch.utils.data import DataLoader, TensorDataset, random_split

torch.manual_seed(0)

rng = np.random.default_rng(1)
centres = np.array([[0.0, 2.0], [-2.0, -1.0], [2.0, -1.0]])
labels = rng.integers(0, 3, size=600)
points = centres[labels] + rng.standard_normal((600, 2))
dataset = TensorDataset(torch.tensor(points, dtype=torch.float32), torch.tensor(labels))
train_data, test_data = random_split(dataset, [0.8, 0.2], generator=torch.Generator().manual_seed(42))
train_loader = DataLoader(train_data, batch_size=32, shuffle=True)
test_loader = DataLoader(test_data, batch_size=64)
print(f"{len(train_data)} training samples in {len(train_loader)} batches, {len(test_data)} test samples")


def make_model():
    return nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 3))


def evaluate(model, loader):
    model.eval()
    loss, correct, seen = 0.0, 0, 0
    with torch.no_grad():
        for x, y in loader:
            logits = model(x)
            loss += nn.functional.cross_entropy(logits, y, reduction="sum").item()
            correct += (logits.argmax(1) == y).sum().item()
            seen += len(y)
    return loss / seen, correct / seen


model = make_model()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for _epoch in range(15):
    model.train()
    for x, y in train_loader:
        loss = nn.functional.cross_entropy(model(Variable(x)), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

with tempfile.TemporaryDirectory() as directory:
    path = os.path.join(directory, "model.pth")
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict()}, path)
    checkpoint = torch.load(path)
reloaded = make_model()
reloaded.load_state_dict(checkpoint["model"])
print("reloaded model gives the same outputs:", torch.equal(reloaded(dataset.tensors[0]), model(dataset.tensors[0])))

with torch.autograd.profiler.profile() as prof:
    with torch.autograd.profiler.record_function("inference"):
        reloaded(dataset.tensors[0])
table = prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=5)
print("profile has a row for the labelled region:", "inference" in table)

test_loss, test_accuracy = evaluate(reloaded, test_loader)
print(f"test accuracy {test_accuracy:.2f}")
# The whole data set, not the test split: the split itself is random (another generator in tensorlab)
loss, accuracy = evaluate(reloaded, DataLoader(dataset, batch_size=100))
print(f"accuracy {accuracy:.4f}")
print(f"final loss {loss:.8f}")
