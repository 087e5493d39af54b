"""A tiny character-level self-attention model with dropout, in the style of the GPT lecture:
token and position embeddings, one causal head, a feed-forward layer, AdamW, batches drawn with
``torch.randint``, dropout masks drawn in training mode, then generation with ``torch.multinomial``.
Seeded with ``torch.manual_seed``, so every batch, mask and sample follows torch's global stream."""

import torch
import torch.nn as nn
from lecture_words import WORDS
from torch.nn import functional as F

torch.manual_seed(1337)
text = ".".join(WORDS) + "."
chars = sorted(set(text))
stoi = {ch: i for i, ch in enumerate(chars)}
itos = {i: ch for ch, i in stoi.items()}
data = torch.tensor([stoi[c] for c in text], dtype=torch.long)
block, n_embd, vocab = 8, 16, len(chars)


def get_batch(batch_size=8):
    ix = torch.randint(len(data) - block, (batch_size,))
    return torch.stack([data[i:i + block] for i in ix]), torch.stack([data[i + 1:i + block + 1] for i in ix]), ix


class Head(nn.Module):
    def __init__(self, size):
        super().__init__()
        self.key = nn.Linear(n_embd, size, bias=False)
        self.query = nn.Linear(n_embd, size, bias=False)
        self.value = nn.Linear(n_embd, size, bias=False)
        self.register_buffer("tril", torch.tril(torch.ones(block, block)))
        self.dropout = nn.Dropout(0.2)

    def forward(self, x):
        steps = x.shape[1]
        k, q = self.key(x), self.query(x)
        wei = q @ k.transpose(-2, -1) * k.shape[-1] ** -0.5
        wei = wei.masked_fill(self.tril[:steps, :steps] == 0, float("-inf"))
        wei = self.dropout(F.softmax(wei, dim=-1))
        return wei @ self.value(x)


class TinyModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.tokens = nn.Embedding(vocab, n_embd)
        self.positions = nn.Embedding(block, n_embd)
        self.head = Head(n_embd)
        self.ffwd = nn.Sequential(nn.Linear(n_embd, 4 * n_embd), nn.ReLU(), nn.Linear(4 * n_embd, n_embd), nn.Dropout(0.2))
        self.lm_head = nn.Linear(n_embd, vocab)

    def forward(self, idx, targets=None):
        batch, steps = idx.shape
        x = self.tokens(idx) + self.positions(torch.arange(steps))
        x = x + self.head(x)
        x = x + self.ffwd(x)
        logits = self.lm_head(x)
        if targets is None:
            return logits, None
        return logits, F.cross_entropy(logits.view(batch * steps, vocab), targets.view(batch * steps))

    def generate(self, idx, new_tokens):
        for _ in range(new_tokens):
            logits, _ = self(idx[:, -block:])
            probs = F.softmax(logits[:, -1, :], dim=-1)
            idx = torch.cat((idx, torch.multinomial(probs, num_samples=1)), dim=1)
        return idx


model = TinyModel()
print("parameters", sum(p.numel() for p in model.parameters()))
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
for step in range(200):
    xb, yb, ix = get_batch()
    logits, loss = model(xb, yb)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
    if step % 40 == 0:
        print(f"step {step:3d} offsets {ix[:3].tolist()} loss {loss.item():.4f}")
model.eval()
with torch.no_grad():
    xb, yb, _ = get_batch(32)
    print(f"eval loss {model(xb, yb)[1].item():.4f}")
print("generated", "".join(itos[i] for i in model.generate(torch.zeros((1, 1), dtype=torch.long), 40)[0].tolist()))
