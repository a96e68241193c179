import torch

x = torch.arange(10, dtype=torch.float32)
running = torch.zeros(10)
for i in range(len(x)):
    running[i] = x[i] + i
shift = torch.ones(10)
scaled = torch.zeros(10)
for i in range(len(x)):
    scaled[i] = x[i] * shift
prefix = torch.zeros(10)
for i in range(len(x) - 1):
    prefix[i + 1] = prefix[i] + x[i]
print(running.tolist(), scaled.tolist(), prefix.tolist())
