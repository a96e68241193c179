import sys

import torch

sys.path.insert(0, "models")
from nets import Policy  # noqa: E402

policy = Policy().to("cuda")
policy.load_state_dict(torch.load("policy.pt"))
returns = []
for episode in range(1000):
    state = torch.randn(1, 8, device="cuda")
    action = policy(state).argmax()
    returns.append(action)
