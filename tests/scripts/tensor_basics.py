"""Tensors, the first steps: make them, look at them, compute with them, hand them to NumPy.

An ordinary beginner's script (nothing tensorlab-specific): tests/test_scripts.py runs it with
torch and with ``import tensorlab as torch`` and compares everything it prints.
"""

import numpy as np
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"
print(f"working on {device}")

# making tensors: from data, from NumPy, from a shape, like another tensor
rows = [[1, 2], [3, 4]]
from_list = torch.tensor(rows)
from_array = torch.from_numpy(np.array(rows))
ones = torch.ones_like(from_list)
halves = torch.full((2, 3), 0.5, device=device)
print(from_list, from_array, ones, halves, sep="\n")
print(f"shape {tuple(halves.shape)}, dtype {halves.dtype}, device {halves.device}".replace("tensorlab", "torch"))

# typed constructors and dtypes
labels = torch.LongTensor([0, 2, 1])
weights = torch.tensor([1, 2, 3], dtype=torch.int16)
print(labels.dtype == torch.int64, isinstance(labels, torch.LongTensor), (weights * 2.5).dtype == torch.float32)

# indexing and slicing: a view shares memory with its base
grid = torch.arange(12.0, device=device).reshape(3, 4)
print("first row:", grid[0])
print("last column:", grid[:, -1])
column = grid[:, 1]
column.fill_(0)
print(grid)

# joining, arithmetic, matrix products
both = torch.cat([grid, grid], dim=1)
print(both.shape, torch.stack([grid, grid]).shape)
product = grid @ grid.T
print(product)
print(grid.mul(grid), grid * grid, sep="\n")
total = torch.empty(0)
torch.sum(grid, dim=0, out=total)
print("column sums:", total)

# single values and in-place updates
agg = grid.sum()
print(agg.item(), type(agg.item()).__name__)
grid.add_(5)
print(grid)

# the NumPy bridge: from_numpy and .numpy() share memory
counts = np.ones(4)
shared = torch.from_numpy(counts)
np.add(counts, 1, out=counts)
print(shared, shared.numpy().dtype)
print(torch.is_tensor(shared), torch.numel(grid), shared.tolist())
