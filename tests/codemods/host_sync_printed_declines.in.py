import torch

running = 0.0
for i in range(3):
    loss = torch.ones(()) * i
    running += loss.item()
    print(f"step {i}: {running:.2f}")
