"""Nearest neighbours of query words in an embedding table, by cosine similarity."""

import os

import torch

SCALE = float(os.environ.get("HARP_BENCH_SCALE", "1"))
DEVICE = os.environ.get("HARP_BENCH_DEVICE", "cpu")
torch.manual_seed(6)
vocab, dim = 100000, 64
table = torch.randn(vocab, dim, device=DEVICE)
query_words = torch.randint(0, vocab, (int(2000 * SCALE),), device=DEVICE).tolist()

neighbours = []
for word in query_words:
    unit = table / table.norm(dim=1, keepdim=True)
    scores = unit @ unit[word]
    scores[word] = -1.0
    neighbours.append(int(scores.argmax()))

print("checksum", sum(neighbours), "distinct", len(set(neighbours)))
