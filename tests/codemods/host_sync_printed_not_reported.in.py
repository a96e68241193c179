import torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
running = 0.0
steps = 3
for i in range(steps):
    loss = torch.ones((), device=device) * i
    running += loss.item()
    print(f"step {i}: {running:.2f}")
