# twist: a generator loop whose state changes between yields
import torch

state = {"w": torch.ones(2)}


def batches():
    for i in range(40):
        state["w"] = state["w"] * 3
        yield torch.full((2,), float(i))


for batch in batches():
    w = state["w"].clone()
    print((w + batch).tolist())
