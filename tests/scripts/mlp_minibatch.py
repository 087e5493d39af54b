"""A character-level MLP, as the makemore lectures train it: an embedding table, a tanh layer,
``F.cross_entropy``, minibatches drawn with ``torch.randint`` from a seeded generator, a learning
rate that decays, then sampling. The weights start from ``torch.randn(..., generator=g)``, so with
torch's random streams every minibatch, loss and sampled name is the same in both libraries."""

import torch
import torch.nn.functional as F
from lecture_words import WORDS

chars = sorted(set("".join(WORDS)))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi["."] = 0
itos = {i: s for s, i in stoi.items()}
block = 3

X, Y = [], []
for word in WORDS:
    context = [0] * block
    for ch in word + ".":
        X.append(context)
        Y.append(stoi[ch])
        context = [*context[1:], stoi[ch]]
X, Y = torch.tensor(X), torch.tensor(Y)
print("data", tuple(X.shape), X.dtype, tuple(Y.shape))

g = torch.Generator().manual_seed(2147483647)
C = torch.randn((len(stoi), 8), generator=g)
W1 = torch.randn((block * 8, 64), generator=g) * 0.2
b1 = torch.randn(64, generator=g) * 0.01
W2 = torch.randn((64, len(stoi)), generator=g) * 0.01
b2 = torch.zeros(len(stoi))
parameters = [C, W1, b1, W2, b2]
for p in parameters:
    p.requires_grad = True
print("parameters", sum(p.nelement() for p in parameters))

for step in range(300):
    ix = torch.randint(0, X.shape[0], (32,), generator=g)
    emb = C[X[ix]]
    h = torch.tanh(emb.view(-1, block * 8) @ W1 + b1)
    logits = h @ W2 + b2
    loss = F.cross_entropy(logits, Y[ix])
    for p in parameters:
        p.grad = None
    loss.backward()
    lr = 0.1 if step < 200 else 0.01
    for p in parameters:
        p.data += -lr * p.grad
    if step % 50 == 0:
        print(f"step {step:3d} batch {ix[:4].tolist()} loss {loss.item():.4f}")

with torch.no_grad():
    h = torch.tanh(C[X].view(-1, block * 8) @ W1 + b1)
    print(f"full loss {F.cross_entropy(h @ W2 + b2, Y).item():.4f}")

for _ in range(5):
    out, context = [], [0] * block
    while True:
        h = torch.tanh(C[torch.tensor([context])].view(1, -1) @ W1 + b1)
        probs = F.softmax(h @ W2 + b2, dim=1)
        ix = torch.multinomial(probs, num_samples=1, generator=g).item()
        context = [*context[1:], ix]
        if ix == 0:
            break
        out.append(itos[ix])
    print("sample", "".join(out))
