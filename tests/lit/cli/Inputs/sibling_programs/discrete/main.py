from agent import Agent
import torch

device = torch.device("cuda")
policy = Agent()
for t in range(1000000):
    policy.train(torch.randn(256, 4))
    if t % 8000 == 0:
        policy.sync()
