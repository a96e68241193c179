import torch
from agent import Agent

device = torch.device("cuda")
agent = Agent()
while True:
    agent.learn(torch.randn(32, 4), torch.randn(32), torch.randn(32, 4))
