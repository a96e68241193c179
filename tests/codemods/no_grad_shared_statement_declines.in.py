import torch
import torch.nn.functional as F
from torch import nn


class QNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)


def train(q, q_target, optimizer, generator):
    for _ in range(5):
        s = torch.randn(8, 4, generator=generator)
        s_prime = torch.randn(8, 4, generator=generator)
        r = torch.randn(8, 1, generator=generator)
        loss = F.smooth_l1_loss(q(s).max(1)[0], r[:, 0] + 0.99 * q_target(s_prime).max(1)[0])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


def main():
    torch.manual_seed(0)
    generator = torch.Generator().manual_seed(1)
    q = QNet()
    q_target = QNet()
    q_target.load_state_dict(q.state_dict())
    optimizer = torch.optim.Adam(q.parameters(), lr=1e-3)
    for episode in range(50):
        last = train(q, q_target, optimizer, generator)
        if episode % 10 == 0:
            q_target.load_state_dict(q.state_dict())
    print(round(last, 5), round(q.fc.weight.sum().item(), 5))


main()
