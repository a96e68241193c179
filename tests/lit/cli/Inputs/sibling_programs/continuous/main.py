# Run as `python continuous/main.py`: its folder is first on the module path, so
# `import agent` is continuous/agent.py, not discrete/agent.py.
import agent
import torch

device = torch.device("cuda")
policy = agent.Agent()
for t in range(1000000):
    policy.train(torch.randn(256, 4))
