"""Character-level bigram model, as the makemore lectures build it: count pairs, smooth, normalise
with ``keepdims=True``, sample names with ``torch.multinomial`` from a seeded ``torch.Generator``,
and score the data by its average negative log likelihood. Every sampled character is printed, so
tests/test_scripts.py can compare them with torch's one by one."""

from itertools import pairwise

import torch
from lecture_words import WORDS

chars = sorted(set("".join(WORDS)))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi["."] = 0
itos = {i: s for s, i in stoi.items()}
size = len(stoi)

N = torch.zeros((size, size), dtype=torch.int32)
for word in WORDS:
    letters = [".", *word, "."]
    for a, b in pairwise(letters):
        N[stoi[a], stoi[b]] += 1

P = (N + 1).float()
P /= P.sum(1, keepdims=True)
print("row sums", [round(v, 4) for v in P.sum(1)[:5].tolist()])

g = torch.Generator().manual_seed(2147483647)
for _ in range(8):
    out, ix = [], 0
    while True:
        ix = torch.multinomial(P[ix], num_samples=1, replacement=True, generator=g).item()
        if ix == 0:
            break
        out.append(itos[ix])
    print("sample", "".join(out))

log_likelihood, n = 0.0, 0
for word in WORDS:
    letters = [".", *word, "."]
    for a, b in pairwise(letters):
        log_likelihood += torch.log(P[stoi[a], stoi[b]]).item()
        n += 1
print(f"nll {-log_likelihood / n:.4f}")

print("uniform draws", [round(v, 6) for v in torch.rand(5, generator=g).tolist()])
print("multinomial without replacement", torch.multinomial(P[1], num_samples=6, replacement=False, generator=g).tolist())
