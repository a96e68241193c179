# `python ddpg/ddpg_test.py`: `ddpg` is ddpg/ddpg.py beside the script, not the package.
import torch
from ddpg import DDPGAgent

device = torch.device("cuda")
agent = DDPGAgent()
for t in range(1000000):
    agent.update(torch.randn(256, 4))
