"""Sequence classification, tutorial style: an LSTM reads each sequence, BatchNorm1d and a Linear
head classify its last output. Is a wave fast or slow? (a sine and cosine of 12 samples each).

The weights start from a formula instead of at random (the two libraries' generators differ),
so torch and tensorlab train the very same model and print the same losses.
"""

import torch
from torch import nn


class SequenceClassifier(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.lstm = nn.LSTM(input_size=2, hidden_size=8, num_layers=2, batch_first=True, bidirectional=True)
        self.norm = nn.BatchNorm1d(16)
        self.head = nn.Linear(16, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        output, (_h_n, _c_n) = self.lstm(x)  # every step's h, and the final states
        return self.head(self.norm(output[:, -1]))


model = SequenceClassifier()
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.sin(torch.arange(p.numel()) * 1.7).reshape(p.shape) * 0.3)

t = torch.linspace(0, 1, 12)
frequencies = torch.arange(1, 33).float().unsqueeze(1)
x = torch.stack([torch.sin(frequencies * t), torch.cos(frequencies * t)], dim=2)  # (32, 12, 2)
y = (frequencies.squeeze(1) > 16).long()

optimizer = torch.optim.Adam(model.parameters(), lr=0.02)
loss_fn = nn.CrossEntropyLoss()
for step in range(40):
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    if step % 10 == 0:
        print(f"step {step}: loss {loss.item():.3f}")

model.eval()
with torch.no_grad():
    accuracy = (model(x).argmax(dim=1) == y).float().mean().item()
print(f"running mean of the norm: {[round(v, 3) for v in model.norm.running_mean[:3].tolist()]}")
print(f"accuracy {accuracy:.3f}")
print(f"final loss {loss.item():.6f}")
