import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

USE_CUDA = torch.cuda.is_available()


from common.layers import NoisyLinear


class NoisyDQN(nn.Module):
    def __init__(self, num_inputs, num_actions):
        super().__init__()
        self.linear = nn.Linear(num_inputs, 128)
        self.noisy1 = NoisyLinear(128, 128)
        self.noisy2 = NoisyLinear(128, num_actions)

    def forward(self, x):
        x = F.relu(self.linear(x))
        x = F.relu(self.noisy1(x))
        return self.noisy2(x)

    def reset_noise(self):
        self.noisy1.reset_noise()
        self.noisy2.reset_noise()


current_model = NoisyDQN(4, 2)
target_model = NoisyDQN(4, 2)
if USE_CUDA:
    current_model = current_model.cuda()
    target_model = target_model.cuda()
optimizer = optim.Adam(current_model.parameters(), lr=0.0001)


def compute_td_loss(state, target):
    q = current_model(state)
    loss = (q - target).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    current_model.reset_noise()
    target_model.reset_noise()
    return loss


losses = []
for frame_idx in range(1, 100000):
    state = torch.randn(32, 4)
    if frame_idx > 100:
        loss = compute_td_loss(state, torch.zeros(32, 2))
        losses.append(loss.item())
